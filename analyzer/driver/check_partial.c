/* Partial builds, for driver/check.c
 *
 * After an edit, most results are reused and the few analysed again read few shared files: on
 * diffusers a result read a median of 13 of its 1,161. A run whose every result to analyse has
 * a cache entry from an earlier run builds the project over the files those entries read
 * (DlCacheRecord) instead of every shared file. The edited files may now read files they did
 * not read then: every lookup that a file left out might have answered otherwise is noted
 * (DlReadSet.uncertain), a result that made one, directly or through the facts it read, is not
 * kept, and the check runs again over every shared file (dl_check_files). docs/memory.md, "A
 * re-run after an edit", has the reasoning and the figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/pool.h"
#include "core/timing.h"
#include "driver/check_run.h"
#include "frontend/python.h"

typedef struct RecordSink {
    const Run *run;
    FileJob *job;
} RecordSink;

/* A file the stored result read, noted among the job's prior reads. */
static void note_prior_read(void *ctx, const char *path) {
    RecordSink *sink = ctx;
    const FileJob *read = dl_path_map_get(&sink->run->job_by_path, path);
    if (!read) return; /* not a file of this run: the entry is a miss, and no build has it */
    dl_vec_push(&sink->job->prior_reads, (uint32_t)(read - sink->run->jobs));
}

/* A DataLoader mark the stored result's file placed on a shared file's definition. */
static void note_placed(void *ctx, const char *path, uint32_t position) {
    RecordSink *sink = ctx;
    const FileJob *target = dl_path_map_get(&sink->run->job_by_path, path);
    if (!target) return; /* not a file of this run: the entry is a miss */
    dl_vec_push(&sink->job->placed, (uint32_t)(target - sink->run->jobs));
    dl_vec_push(&sink->job->placed, position);
}

/* A class ('c') or top-level function ('f') the stored result's file defined. */
static void note_defined(void *ctx, const char *name, bool is_class) {
    FileJob *job = ((RecordSink *)ctx)->job;
    size_t n = strlen(name) + 1;
    dl_vec_reserve(&job->defined, job->defined.len + n + 1);
    job->defined.items[job->defined.len++] = is_class ? 'c' : 'f';
    memcpy(job->defined.items + job->defined.len, name, n);
    job->defined.len += n;
}

/* The cache entry's record of a job that wants it (dl_partial_plan). A result from the
 * cache must still be the entry's: else it has no record (another run replaced the entry). */
static void read_record(void *arg, size_t index) {
    Run *run = arg;
    FileJob *job = &run->jobs[run->order[index]];
    if (!job->wants_record) return;
    job->wants_record = false;
    RecordSink sink = {run, job};
    DlCacheRecord record = {
        .source = note_prior_read, .defines = note_defined, .placed = note_placed, .ctx = &sink};
    DlCacheContents now = {dl_check_content_hash_now, run};
    bool same = dl_cache_load_record(run->cache, job->path, job->cache_key, &now, NULL, &record);
    job->has_record = record.found && (same || !job->cached);
    job->record_workers = record.workers_may_touch_devices;
    job->record_no_model = record.no_model;
    job->names_changed = !record.has_names_digest || record.names_digest != job->names_digest;
    job->has_placed = job->has_record && record.has_placed;
}

/* Reads the records of the jobs `wants_record` marks (FileJob.has_record). */
static void read_records(Run *run) {
    dl_parallel_for(run->count, run->opts->jobs, read_record, run);
}

enum { MAX_NEW_FILES = 8 }; /* more results without a record (a first run): a full build */

static int by_hash(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static bool has_hash(const uint32_t *sorted, uint32_t n, uint32_t hash) {
    return n && bsearch(&hash, sorted, n, sizeof *sorted, by_hash) != NULL;
}

/* A result without a record (a new file): what it reads is not known, so the shared files its
 * text may reach stand in (`wanted`, and `reach` for the files whose records then add what they
 * read): those whose module name it may use as one, or one of whose classes it mentions, as
 * the text scan decides sharing (driver/sharing.h; its text is scanned again: the scans let go
 * of what the files mention). A guess: a lookup it did not cover makes the check run again over
 * every shared file, as for any file left out. False when its text cannot be read again. */
static bool text_reads(Run *run, FileJob *job, uint8_t *wanted, uint8_t *reach) {
    if (job->text_dropped && !dl_check_reload(job, run)) return false;
    DlSharingFile scanned = {0}, *r = &scanned; /* its own: sorted in place, for bsearch */
    dl_sharing_file_scan(r, &job->source, run->modules);
    qsort(r->mentions, r->mention_count, sizeof *r->mentions, by_hash);
    const uint32_t *modules = r->mentions; /* not looked for: its mentions stand in (a superset) */
    uint32_t module_count = r->mention_count;
    if (r->module_refs_known) {
        if (r->module_ref_count)
            qsort(r->module_refs, r->module_ref_count, sizeof *r->module_refs, by_hash);
        modules = r->module_refs;
        module_count = r->module_ref_count;
    }
    DlArena names;
    dl_arena_init(&names);
    for (size_t i = 0; i < run->count; i++) {
        const FileJob *target = &run->jobs[i];
        if (!is_analysed_python(target) || target->leaf || target == job) continue;
        const char *module = dl_python_module_name(&names, target->path);
        bool reaches = has_hash(modules, module_count, dl_name_hash(module, strlen(module)));
        const char *name = target->scan.names;
        for (uint32_t k = 0; k < target->scan.class_count && !reaches; k++) {
            reaches = has_hash(r->mentions, r->mention_count, dl_name_hash(name, strlen(name)));
            name += strlen(name) + 1;
        }
        if (reaches) wanted[i] = reach[i] = 1;
    }
    dl_arena_release(&names);
    dl_sharing_file_free(r);
    return true;
}

/* Decides which shared files the project is built over (FileJob.in_build), and what the build
 * must know of the others (`leaves`): whether a partial build is made. It is when every result
 * to analyse is a Python file's with a record, and some shared file is not needed. A shared
 * file's result reads the marks of every DataLoader file (DL113, FileJob.may_place_marks):
 * when one is analysed, or its marks must be compared, those are built (the leaves among them
 * summarised) with the files they read, and so are the pending results' files that had marks. */
bool dl_partial_plan(Run *run, DlProjectLeaves *leaves) {
    const char *off = getenv("DEVLINT_FULL_BUILD"); /* to compare the two */
    if (off && *off && strcmp(off, "0") != 0) return false;
    /* the results to analyse (or that may be): what they read last time (C++ results read no
     * other file) */
    bool shared_missed = false;
    for (size_t i = 0; i < run->count; i++) {
        FileJob *job = &run->jobs[i];
        job->wants_record = is_analysed_python(job) && (!job->cached || dl_marks_need_facts(job));
        shared_missed |= !job->leaf && (job->wants_record || job->marks_pending);
    }
    /* and the files whose DataLoaders mark the shared files' datasets: those analysed again are
     * built with what they read, the others' records tell the marks they placed */
    for (size_t i = 0; i < run->count && shared_missed; i++) {
        FileJob *job = &run->jobs[i];
        job->wants_record |= is_analysed_python(job) && job->may_place_marks;
    }
    read_records(run);
    uint8_t *wanted = calloc(run->count ? run->count : 1, 2);
    if (!wanted) abort();
    uint8_t *reach = wanted + run->count; /* what new files' text may reach */
    size_t new_files = 0;
    bool reached = false;
    for (size_t i = 0; i < run->count; i++) {
        FileJob *job = &run->jobs[i];
        bool analysed = !job->cached || dl_marks_need_facts(job);
        bool marks_source = shared_missed && job->may_place_marks && !analysed;
        if (!is_analysed_python(job) || (!analysed && !marks_source)) continue;
        if (!job->has_record) { /* a new file: what it reads is not known */
            if (++new_files > MAX_NEW_FILES || marks_source ||
                !text_reads(run, job, wanted, reach)) {
                free(wanted);
                return false;
            }
            wanted[i] = 1;
            continue;
        }
        job->marks_from_record = marks_source && job->has_placed;
        if (job->marks_from_record) continue;
        wanted[i] = 1;
        for (size_t k = 0; k < job->prior_reads.len; k++) wanted[job->prior_reads.items[k]] = 1;
        /* it names a definition it did not: what its text reaches too (else, when it reads a
         * file left out, the check runs again over every shared file) */
        if (!job->cached && job->names_changed && text_reads(run, job, wanted, reach))
            reached = true;
    }
    if (new_files || reached) { /* and what those files read, as their records say */
        for (size_t i = 0; i < run->count; i++)
            run->jobs[i].wants_record = reach[i] && !run->jobs[i].has_record;
        read_records(run);
        for (size_t i = 0; i < run->count; i++) {
            const FileJob *job = &run->jobs[i];
            for (size_t k = 0; reach[i] && k < job->prior_reads.len; k++)
                wanted[job->prior_reads.items[k]] = 1;
        }
    }
    size_t shared = 0, built = 0;
    for (size_t i = 0; i < run->count; i++) {
        FileJob *job = &run->jobs[i];
        if (!is_analysed_python(job) || job->leaf) continue;
        job->in_build = !job->cached || wanted[i]; /* (a pending result with marks is wanted) */
        /* what the build must know of the files left out (unless read above) */
        job->wants_record = !job->in_build && !job->has_record;
        shared++;
        built += job->in_build;
    }
    free(wanted);
    if (built == shared) return false;
    read_records(run);
    bool known = true; /* unless another run replaced an entry since it was looked up */
    for (size_t i = 0; i < run->count; i++) {
        const FileJob *job = &run->jobs[i];
        known &= !is_analysed_python(job) || job->leaf || job->in_build || job->has_record;
    }
    if (!known) {
        for (size_t i = 0; i < run->count; i++) run->jobs[i].in_build = true;
        return false;
    }
    dl_absent_init(&run->absent, (uint32_t)run->count);
    DlArena names;
    dl_arena_init(&names);
    for (size_t i = 0; i < run->count; i++) {
        const FileJob *job = &run->jobs[i];
        if (!is_analysed_python(job) || job->leaf || job->in_build) continue;
        /* a file that failed to parse is not in a full build either: no lookup finds it */
        if (job->record_no_model) continue;
        dl_absent_add_file(&run->absent, (uint32_t)i, dl_python_module_name(&names, job->path));
        const char *defined = job->defined.items;
        for (size_t at = 0; at < job->defined.len; at += strlen(defined + at) + 1)
            dl_absent_add_name(&run->absent, (uint32_t)i, defined + at + 1, defined[at] == 'c');
        leaves->absent_workers_may_touch_devices |= job->record_workers;
    }
    dl_arena_release(&names);
    leaves->absent = &run->absent;
    run->marks_needed = shared_missed;
    size_t from_records = 0;
    for (size_t i = 0; i < run->count; i++) from_records += run->jobs[i].marks_from_record;
    char label[128];
    snprintf(label, sizeof label, "partial build: %zu of %zu shared files (%zu DataLoader files' "
             "marks from their entries)", built, shared, from_records);
    dl_timing_mark(label);
    return true;
}
