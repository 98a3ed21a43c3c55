/* The DataLoader marks (DL113) a shared file's cached result reads, for driver/check.c
 *
 * A shared file's result reads the marks that DataLoaders in any file leave on its datasets and
 * collate functions (DL113: `DataLoader(Points(), num_workers=4)` runs Points.__getitem__ in
 * workers), which no lookup of its own records. Its entry stores the marks on its own
 * definitions (DlCacheMarks.own) and what all the marks were computed from: the stamps of the
 * DataLoader files (DlCacheMarks.inputs): those whose code names DataLoader, and those whose
 * classes may run a base class's DataLoader from their `__init__` (dl_sharing_may_place_marks).
 * A stamp covers a file's bytes, its key and the contents of every file its result read (its
 * facts' reads among them), so equal stamps mean equal marks. When the inputs are those of the
 * look-up, the result is used as it is. Otherwise (a DataLoader file was edited, added or
 * removed, or a file it reads was) the run computes the marks and uses the result if the marks
 * on the file's own definitions are the same. So editing a training script analyses no shared
 * file again unless the edit changes a mark. The marks a run computed go into one table
 * (dl_cache_write_marks): the next runs, under the same inputs, take a result whose file and
 * marks the table gives as they are, without computing them again, and without every entry
 * written again. */
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "driver/check_run.h"

/* The stamps of the DataLoader files, in one digest; 0 when one has none (a file
 * analysed again and not stored, or not yet analysed). */
uint64_t dl_marks_inputs_now(const Run *run) {
    uint64_t h = 0x696e70757473;
    for (size_t i = 0; i < run->count; i++) {
        const FileJob *job = &run->jobs[i];
        if (!is_dataloader_file(job)) continue;
        if (!job->stamp) return 0;
        h = dl_hash_bytes(job->path, strlen(job->path) + 1, h);
        h = dl_hash_bytes(&job->stamp, sizeof job->stamp, h);
    }
    return h ? h : 1;
}

/* A row of the marks' table computed under the look-up's inputs: a result for the same bytes
 * with the same marks is valid. */
static void settle_from_table(void *ctx, const DlCacheMarksRow *row) {
    Run *run = ctx;
    FileJob *job = dl_path_map_get(&run->job_by_path, row->path);
    if (job && job->marks_pending && job->content_hash == row->content_hash &&
        job->stored_marks.own == row->own)
        job->marks_pending = false;
}

/* After the look-up: the shared results from the cache whose marks may have changed (stored
 * under other inputs than the look-up's, and not in the marks' table for these); how many. */
size_t dl_marks_note_pending(Run *run) {
    run->marks_inputs = run->lookup_inputs = dl_marks_inputs_now(run);
    bool any = false;
    for (size_t i = 0; i < run->count; i++) {
        FileJob *job = &run->jobs[i];
        job->marks_pending = job->cached && reads_marks(job) &&
                             (!run->marks_inputs || job->stored_marks.inputs != run->marks_inputs);
        any |= job->marks_pending;
    }
    if (any && run->marks_inputs)
        dl_cache_read_marks(run->cache, run->marks_inputs, settle_from_table, run);
    size_t pending = 0;
    for (size_t i = 0; i < run->count; i++) pending += run->jobs[i].marks_pending;
    return pending;
}

/* A pending result whose file had marks: its marks can only be known with its facts. */
bool dl_marks_need_facts(const FileJob *job) {
    return job->marks_pending && job->stored_marks.own != dl_project_file_marks_hash(NULL);
}

static int by_position(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The marks on a shared file's own definitions as they are now: on its facts, or for a file
 * left out of a partial build, those the records of the files that were not built either say
 * they placed (dl_marks_apply_recorded). */
uint64_t dl_marks_own_now(const Run *run, FileJob *job) {
    const DlFileFacts *facts = job->module ? dl_project_file(&run->project, job->module) : NULL;
    if (facts || !job->extra_marks.len) return dl_project_file_marks_hash(facts);
    qsort(job->extra_marks.items, job->extra_marks.len, sizeof *job->extra_marks.items,
          by_position);
    size_t n = 0;
    for (size_t i = 0; i < job->extra_marks.len; i++)
        if (!n || job->extra_marks.items[n - 1] != job->extra_marks.items[i])
            job->extra_marks.items[n++] = job->extra_marks.items[i];
    job->extra_marks.len = n;
    return dl_project_marks_digest(job->extra_marks.items, n);
}

/* The marks of the DataLoader files whose records stand in for them in a partial
 * build (FileJob.marks_from_record): on the facts of the shared files built, and noted for
 * those left out. Once the marks computed in the run are placed, before any analysis. */
void dl_marks_apply_recorded(Run *run) {
    for (size_t i = 0; i < run->count; i++) {
        const FileJob *source = &run->jobs[i];
        if (!source->marks_from_record) continue;
        for (size_t k = 0; k + 1 < source->placed.len; k += 2) {
            FileJob *target = &run->jobs[source->placed.items[k]];
            uint32_t position = source->placed.items[k + 1];
            DlFileFacts *facts =
                target->module ? (DlFileFacts *)dl_project_file(&run->project, target->module)
                               : NULL;
            if (facts)
                dl_project_set_mark(facts, position);
            else
                dl_vec_push(&target->extra_marks, position);
        }
    }
}

/* The marks as this run computed them, for the next runs (dl_cache_write_marks): those of every
 * shared file, when they are certain and every stamp is known. A result reused without
 * comparing (stored under the look-up's inputs, or in the table) has the marks it stored, if the
 * inputs are still the look-up's. */
void dl_marks_write_table(Run *run) {
    if (!run->marks_inputs || run->marks_uncertain) return;
    DlCacheMarksRow *rows = malloc((run->count ? run->count : 1) * sizeof *rows);
    if (!rows) abort();
    size_t n = 0;
    for (size_t i = 0; i < run->count; i++) {
        FileJob *job = &run->jobs[i];
        if (!reads_marks(job)) continue;
        bool as_stored = job->cached && !job->marks_pending;
        if (as_stored && run->marks_inputs != run->lookup_inputs) {
            free(rows);
            return;
        }
        rows[n++] = (DlCacheMarksRow){job->path, job->content_hash,
                                      as_stored ? job->stored_marks.own : dl_marks_own_now(run, job)};
    }
    dl_cache_write_marks(run->cache, run->marks_inputs, rows, n);
    free(rows);
}

/* Once every mark is placed (the leaves have streamed): a pending result is used if the marks
 * on its own definitions are those it was computed with, else analysed again. A file left out
 * of a partial build has none: no DataLoader file read it (those are built, with what they
 * read last time), and one that reads it now made the marks uncertain. */
void dl_marks_settle(Run *run, FileJob *job) {
    if (!job->marks_pending) return;
    if (dl_marks_own_now(run, job) == job->stored_marks.own) {
        run->marks_matched++;
        return;
    }
    job->marks_pending = false;
    forget_result(job);
    if (!job->module && run->partial) run->not_enough = true; /* not built: check again */
}

static int by_file_and_position(const void *a, const void *b) {
    const uint32_t *x = a, *y = b;
    if (x[0] != y[0]) return (x[0] > y[0]) - (x[0] < y[0]);
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* The marks a file's facts placed on shared files' definitions (DlReadSet.placed), as paths and
 * positions, each once. Returns the count. */
size_t dl_marks_placed(const Run *run, const FileJob *job, const char ***paths,
                           uint32_t **positions) {
    const DlFileFacts *facts = job->module ? dl_project_file(&run->project, job->module) : NULL;
    size_t count = facts ? facts->reads.placed.len : 0, n = 0;
    uint32_t *pairs = malloc((count ? count : 1) * 2 * sizeof *pairs);
    if (!pairs) abort();
    for (size_t i = 0; i < count; i++)
        if (dl_project_mark_position(&run->project, &facts->reads.placed.items[i], &pairs[2 * n],
                                     &pairs[2 * n + 1]))
            n++;
    qsort(pairs, n, 2 * sizeof *pairs, by_file_and_position);
    *paths = malloc((n ? n : 1) * sizeof **paths);
    *positions = malloc((n ? n : 1) * sizeof **positions);
    if (!*paths || !*positions) abort();
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && pairs[2 * i] == pairs[2 * i - 2] && pairs[2 * i + 1] == pairs[2 * i - 1]) continue;
        (*paths)[kept] = run->jobs[pairs[2 * i]].path;
        (*positions)[kept++] = pairs[2 * i + 1];
    }
    free(pairs);
    return kept;
}

/* The facts of a DataLoader file, which leave the DL113 marks (any thread): in a
 * partial build, marks that a lookup of theirs, or of a file they read, may have placed
 * otherwise than a full build make the check run again (Run.marks_uncertain). */
void dl_marks_note_source(Run *run, const DlReadSet *reads) {
    if (!run->partial) return;
    bool uncertain = reads->uncertain;
    if (reads->bits && !uncertain) {
        uint64_t *closure = calloc(run->project.read_words, sizeof *closure);
        if (!closure) abort();
        dl_project_read_closure(&run->project, reads->bits, closure);
        uncertain = dl_project_closure_uncertain(&run->project, closure);
        free(closure);
    }
    if (uncertain) run->marks_uncertain = true;
}
