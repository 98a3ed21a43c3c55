#define _GNU_SOURCE /* memmem */
/* The check pipeline (see check.h) and the rule context the engine reports through. */
#include "driver/check.h"
#include "driver/check_run.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/arena.h"
#include "core/crash_restart.h"
#include "core/files.h"
#include "core/path_map.h"
#include "core/pool.h"
#include "core/source.h"
#include "core/stat_memo.h"
#include "core/suppress.h"
#include "core/timing.h"
#include "core/vec.h"
#include "dataflow/flow.h"
#include "dataflow/project.h"
#include "driver/aliases.h"
#include "driver/cache.h"
#include "driver/keep.h"
#include "driver/notebook_cells.h"
#include "driver/sharing.h"
#include "frontend/notebook.h"
#include "frontend/python.h"
#ifdef DEVLINT_HAVE_CLANG
#include "frontend/cpp.h"
#endif
#include "rules/facts.h"
#include "rules/rule.h"

typedef struct SeenKey {
    const DlRule *rule;
    const DlModuleIR *home;
    uint32_t start, end;
} SeenKey;

struct DlRuleContext {
    FileJob *job;
    const Run *run;
    DlArena *arena;
    SeenKey *seen;
    size_t seen_count, seen_cap;
};

/* ---------------------------------------------------------------- rule context services */

static size_t rule_index(const DlRule *rule) {
    for (size_t i = 0; i < dl_rule_count; i++)
        if (dl_rules[i] == rule) return i;
    return 0;
}

static bool rule_enabled(const DlRuleContext *ctx, const DlRule *rule) {
    return ctx->job->settings->enabled[rule_index(rule)];
}

static char *line_copy(const DlSource *src, int line) {
    size_t len = 0;
    const char *text = dl_source_line(src, line, &len);
    if (!text) return NULL;
    char *s = malloc(len + 1);
    if (!s) abort();
    memcpy(s, text, len);
    s[len] = '\0';
    return s;
}

/* Notebooks: a program line -> its cell and the line within it (and the .ipynb line). */
static void to_cell(const FileJob *job, int *line, int *cell, int *file_line) {
    if (!job->is_notebook || *line < 1 || (size_t)*line > job->notebook.line_count) return;
    const DlNotebookLine *l = &job->notebook.lines[*line - 1];
    *cell = l->cell;
    if (file_line) *file_line = l->file_line;
    *line = l->cell_line;
}

/* The columns IPython strips from a program line (1-based) before it runs its cell. */
static int column_shift(const FileJob *job, int line) {
    if (line < 1 || (size_t)line > job->notebook.line_count) return 0;
    return job->notebook.lines[line - 1].column_shift;
}

static void cell_positions(const FileJob *job, DlDiag *d) {
    if (!job->is_notebook) return;
    if (column_shift(job, d->line) && d->source_line) { /* the line as the cell shows it */
        free(d->source_line);
        d->source_line = dl_notebook_line_text(&job->notebook, (size_t)d->line - 1);
    }
    d->column += column_shift(job, d->line);
    d->end_column += column_shift(job, d->end_line);
    for (size_t i = 0; d->fix && i < d->fix->edit_count; i++) {
        DlEdit *e = &d->fix->edits[i];
        e->column += column_shift(job, e->line);
        e->end_column += column_shift(job, e->end_line);
    }
    int end_cell = 0;
    to_cell(job, &d->line, &d->cell, &d->file_line);
    to_cell(job, &d->end_line, &end_cell, NULL);
    if (end_cell != d->cell) { /* a span never leaves its cell; clamp to be safe */
        d->end_line = d->line;
        d->end_column = d->column + 1;
    }
    for (size_t i = 0; d->fix && i < d->fix->edit_count; i++) {
        DlEdit *e = &d->fix->edits[i];
        int edit_end_cell = 0;
        to_cell(job, &e->line, &e->cell, NULL);
        to_cell(job, &e->end_line, &edit_end_cell, NULL);
    }
}

static void add_diag(FileJob *into, const FileJob *at, const DlRule *rule, DlSpan span,
                     const char *message, DlFix *fix) {
    DlDiag d = {0};
    d.rule = rule;
    d.path = strdup(at->path);
    dl_source_position(&at->source, span.start, &d.line, &d.column);
    dl_source_position(&at->source, span.end, &d.end_line, &d.end_column);
    d.message = strdup(message);
    d.source_line = line_copy(&at->source, d.line);
    d.fix = fix;
    d.severity_override = into->settings->severity_override[rule_index(rule)];
    cell_positions(at, &d);
    dl_result_add_diag(&into->result, d);
}

/* The job whose program model is `home` (NULL: the job being analysed): the one whose source
 * the model reads. Other jobs are only read: their sources and suppressions do not change
 * after the first stage (and a leaf's model is read by no other job). */
static const FileJob *job_of(const DlRuleContext *ctx, const DlModuleIR *home) {
    if (!home || home == ctx->job->module) return ctx->job;
    return (const FileJob *)(const void *)((const char *)home->source - offsetof(FileJob, source));
}

static void free_fix(DlFix *fix) {
    if (!fix) return;
    for (size_t i = 0; i < fix->edit_count; i++) free(fix->edits[i].text);
    free(fix->edits);
    free(fix->title);
    free(fix);
}

void dl_report_finding_in(DlRuleContext *ctx, const DlRule *rule, const DlModuleIR *home,
                          DlSpan span, DlSpan key, const char *message, DlFix *fix) {
    const FileJob *at = job_of(ctx, home);
    if (!rule_enabled(ctx, rule)) {
        free_fix(fix);
        return;
    }
    for (size_t i = 0; i < ctx->seen_count; i++)
        if (ctx->seen[i].rule == rule && ctx->seen[i].home == at->module &&
            ctx->seen[i].start == key.start && ctx->seen[i].end == key.end) {
            free_fix(fix);
            return;
        }
    if (ctx->seen_count == ctx->seen_cap) {
        ctx->seen_cap = ctx->seen_cap ? ctx->seen_cap * 2 : 16;
        ctx->seen = realloc(ctx->seen, ctx->seen_cap * sizeof(SeenKey));
        if (!ctx->seen) abort();
    }
    ctx->seen[ctx->seen_count++] = (SeenKey){rule, at->module, key.start, key.end};
    int line, col;
    dl_source_position(&at->source, span.start, &line, &col);
    if (dl_suppressions_match(&at->suppressions, line, rule->code, rule->name)) {
        free_fix(fix);
        return;
    }
    if (at != ctx->job && fix) { /* edits are positioned in this file's terms only */
        free_fix(fix);
        fix = NULL;
    }
    add_diag(ctx->job, at, rule, span, message, fix);
}

void dl_report_finding(DlRuleContext *ctx, const DlRule *rule, DlSpan span, DlSpan key,
                       const char *message, DlFix *fix) {
    dl_report_finding_in(ctx, rule, NULL, span, key, message, fix);
}

const DlProject *dl_rule_project(DlRuleContext *ctx) {
    return &ctx->run->project;
}

DlArena *dl_rule_arena(DlRuleContext *ctx) {
    return ctx->arena;
}

const DlSource *dl_rule_source(DlRuleContext *ctx) {
    return &ctx->job->source;
}

const char *dl_rule_text(DlRuleContext *ctx, DlSpan span) {
    return dl_ir_span_text(ctx->arena, &ctx->job->source, span);
}

const DlModuleIR *dl_rule_module(DlRuleContext *ctx) {
    return ctx->job->module;
}

const char *dl_rule_snippet(DlRuleContext *ctx, DlSpan span) {
    return dl_ir_span_snippet(ctx->arena, &ctx->job->source, span);
}

int dl_rule_line(DlRuleContext *ctx, uint32_t byte) {
    int line, col;
    dl_source_position(&ctx->job->source, byte, &line, &col);
    return line;
}

const char *dl_rule_where(DlRuleContext *ctx, const DlModuleIR *home, uint32_t byte) {
    const FileJob *at = job_of(ctx, home);
    int line, col;
    dl_source_position(&at->source, byte, &line, &col);
    int cell = 0;
    to_cell(at, &line, &cell, NULL);
    const char *local = cell ? dl_arena_printf(ctx->arena, "cell %d, line %d", cell, line)
                             : dl_arena_printf(ctx->arena, "line %d", line);
    if (at == ctx->job) return local;
    return dl_arena_printf(ctx->arena, "%s %s", at->path, local);
}

const char *dl_rule_text_in(DlRuleContext *ctx, const DlModuleIR *home, DlSpan span) {
    return dl_ir_span_text(ctx->arena, &job_of(ctx, home)->source, span);
}

const char *dl_rule_placement(DlRuleContext *ctx, const DlValue *v) {
    const char *where = dl_device_text(ctx->arena, v);
    if (!v->dev_why || !v->dev_span.end) return dl_arena_printf(ctx->arena, "on %s", where);
    return dl_arena_printf(ctx->arena, "on %s (%s: %s)", where,
                           dl_rule_where(ctx, v->home, v->dev_span.start), v->dev_why);
}

const char *dl_rule_describe(DlRuleContext *ctx, const char *name, const DlValue *v) {
    const char *who = name ? name : v->var ? v->var : "this value";
    return dl_arena_printf(ctx->arena, "`%s` is %s", who, dl_rule_placement(ctx, v));
}

bool dl_rule_scope_mentions(DlRuleContext *ctx, const DlPlace *place, const char *needle) {
    const DlSource *src = &ctx->job->source;
    for (const DlFunction *fn = place->function; fn; fn = fn->parent)
        if (dl_ir_span_mentions(src, fn->span, needle)) return true;
    const DlBlock *top = &ctx->job->module->body;
    for (uint32_t i = 0; i < top->count; i++) {
        const DlStmt *s = top->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (dl_ir_span_mentions(src, s->span, needle)) return true;
    }
    return false;
}

/* Is the text from `line` to `at` the start of a log or print call (`logging.info("{}
 * GPUs".format(...`)? */
static bool in_a_message(const char *line, const char *at) {
    static const char *const calls[] = {"print(", "logging.", "logger.", ".info(", ".debug(",
                                        ".warning(", ".write(", NULL};
    for (const char *const *c = calls; *c; c++)
        if (memmem(line, (size_t)(at - line), *c, strlen(*c))) return true;
    return false;
}

static bool file_mentions(DlRuleContext *ctx, const char *needle, bool outside_tests,
                          bool outside_messages) {
    const DlSource *src = &ctx->job->source;
    const DlModuleIR *m = ctx->job->module;
    size_t n = strlen(needle);
    for (const char *p = src->text; (p = memmem(p, src->len - (size_t)(p - src->text), needle, n));
         p += n) {
        uint32_t at = (uint32_t)(p - src->text);
        const char *line = p;
        while (line > src->text && line[-1] != '\n') line--;
        if (memchr(line, '#', (size_t)(p - line))) continue; /* in a comment (roughly) */
        if (outside_messages && in_a_message(line, p)) continue;
        bool in_test = false;
        for (uint32_t i = 0; outside_tests && i < m->function_count && !in_test; i++) {
            const DlFunction *fn = m->functions[i];
            in_test = at >= fn->span.start && at < fn->span.end && dl_ir_in_test_function(fn);
        }
        if (!in_test) return true;
    }
    return false;
}

bool dl_rule_file_mentions(DlRuleContext *ctx, const char *needle) {
    return file_mentions(ctx, needle, true, false);
}

bool dl_rule_code_mentions(DlRuleContext *ctx, const char *needle) {
    return file_mentions(ctx, needle, false, false);
}

bool dl_rule_file_uses(DlRuleContext *ctx, const char *needle) {
    return file_mentions(ctx, needle, true, true);
}

DlFix *dl_rule_fix_insert_before(DlRuleContext *ctx, const char *title, DlSpan stmt,
                                 const char *code) {
    const DlSource *src = &ctx->job->source;
    uint32_t line_start = stmt.start;
    while (line_start > 0 && src->text[line_start - 1] != '\n' && src->text[line_start - 1] != '\r')
        line_start--;
    size_t indent = stmt.start - line_start;
    DlArena *arena = ctx->arena;
    const char *text = dl_arena_printf(arena, "%.*s%s\n", (int)indent, src->text + line_start, code);
    return dl_rule_fix_replace(ctx, title, (DlSpan){line_start, line_start}, text);
}

const char *dl_rule_nn_name(DlRuleContext *ctx) {
    const DlFileFacts *f = dl_project_file(&ctx->run->project, ctx->job->module);
    for (uint32_t i = 0; f && i < f->import_count; i++)
        if (strcmp(f->imports[i].qualified, "torch.nn") == 0) return f->imports[i].alias;
    return "torch.nn";
}

DlFix *dl_rule_fix_replace(DlRuleContext *ctx, const char *title, DlSpan span, const char *text) {
    DlFix *fix = dl_fix_new(title, 1);
    DlEdit *e = &fix->edits[0];
    dl_source_position(&ctx->job->source, span.start, &e->line, &e->column);
    dl_source_position(&ctx->job->source, span.end, &e->end_line, &e->end_column);
    e->text = strdup(text);
    return fix;
}

/* Each hook kind dispatched the same way: every enabled rule that has it. */
#define DISPATCH(kind, Fact)                                                                       \
    void dl_rule_dispatch_##kind(DlRuleContext *ctx, const Fact *fact) {                          \
        for (size_t i = 0; i < dl_rule_count; i++)                                                 \
            if (dl_rules[i]->on_##kind && ctx->job->settings->enabled[i])                          \
                dl_rules[i]->on_##kind(ctx, fact);                                                 \
    }
DISPATCH(meet, DlMeetFact)
DISPATCH(discard, DlDiscardFact)
DISPATCH(class, DlClassFact)
DISPATCH(call, DlCallFact)
DISPATCH(sync, DlSyncFact)
DISPATCH(index, DlIndexFact)
DISPATCH(timing, DlTimingFact)
#undef DISPATCH

/* ---------------------------------------------------------------- stages */

/* The unsaved buffer that stands for `path` (opts->overrides), or NULL. */
static const DlCheckOverride *override_for(const Run *run, const char *path) {
    const DlCheckOptions *o = run->opts;
    for (size_t i = 0; i < o->override_count; i++)
        if (strcmp(o->overrides[i].path, path) == 0) return &o->overrides[i];
    return NULL;
}

/* A file's bytes: stdin, an unsaved buffer or the disk (`*from_disk`, when given: the bytes can
 * be read again). */
static bool load_source(DlSource *src, const char *path, const Run *run, bool *from_disk,
                        char **error) {
    const DlCheckOptions *o = run->opts;
    if (from_disk) *from_disk = false;
    if (o->stdin_text)
        return dl_source_from_bytes(src, path, o->stdin_text, o->stdin_len, o->max_file_bytes,
                                    error);
    const DlCheckOverride *buffer = override_for(run, path);
    if (buffer)
        return dl_source_from_bytes(src, path, buffer->text, buffer->len, o->max_file_bytes,
                                    error);
    if (from_disk) *from_disk = true;
    return dl_source_load(src, path, o->max_file_bytes, error);
}

/* A notebook's code cells, joined into the program that is analysed. */
static bool load_notebook(FileJob *job, const Run *run, char **error) {
    DlSource raw;
    if (!load_source(&raw, job->path, run, NULL, error)) return false;
    bool ok = dl_notebook_load(raw.text, raw.len, &job->notebook, error);
    /* the whole document: cell boundaries decide where findings are reported */
    job->content_hash = dl_hash_bytes(raw.text, raw.len, 3);
    dl_source_free(&raw);
    if (!ok) return false;
    job->is_notebook = true;
    return dl_source_from_bytes(&job->source, job->path, job->notebook.program,
                                job->notebook.program_len, 0, error);
}

static bool cpp_relevant(const DlSource *src);

/* Reads a file and takes what the stages before lowering need of it; whether its bytes came
 * from the disk (and can be read again). */
static bool read_file(FileJob *job, Run *run) {
    char *error = NULL;
    bool from_disk = false; /* a notebook's program is built from its cells: not read again */
    bool ok = dl_file_kind(job->path) == DL_FILE_NOTEBOOK
                  ? load_notebook(job, run, &error)
                  : load_source(&job->source, job->path, run, &from_disk, &error);
    if (!ok) {
        job->error = error;
        return false;
    }
    job->loaded = true;
    if (run->opts->keep) /* its model may outlive the run, and the pool */
        dl_arena_init(&job->arena);
    else
        dl_arena_init_pooled(&job->arena, run->pool);
    /* Device bugs live only where tensors, modules and devices are named: a file that names
     * none is not parsed at all (the largest saving on a real project; see bench/RESULTS.md).
     * DEVLINT_PARSE_ALL=1 parses every file, to compare the two. */
    job->is_cpp = dl_file_kind(job->path) == DL_FILE_CPP;
    job->relevant = run->parse_all || (job->is_cpp ? cpp_relevant(&job->source)
                                                   : dl_python_is_relevant(&job->source));
    if (!job->is_notebook) job->content_hash = dl_hash_bytes(job->source.text, job->source.len, 0);
    job->cacheable = true; /* C++: with its compile command in the key and its headers stored */
    if (!job->relevant) {
        dl_source_free(&job->source); /* nothing reads it again */
        return from_disk;
    }
    if (job->is_cpp || run->parse_all) return from_disk;
    /* What the project needs of a Python file before any is lowered is taken now; a file on
     * disk is then let go and read again when its turn comes, so that the texts of a large
     * project are not all in memory at once (see stream_leaf). */
    dl_sharing_file_scan(&job->scan, &job->source, run->modules);
    job->scanned = true;
    job->mentions_devices = job->scan.mentions_devices;
    if (from_disk) {
        dl_source_free(&job->source);
        job->text_dropped = true;
    }
    return from_disk;
}

/* The language server's checks remember what reading a Python file on disk told them, by the
 * file's identity (driver/keep.h): not an unsaved buffer's, nor a notebook's. */
static bool reads_are_kept(const FileJob *job, const Run *run) {
    const DlCheckOptions *o = run->opts;
    return o->keep && !run->parse_all && !o->stdin_text &&
           dl_file_kind(job->path) == DL_FILE_PYTHON && !override_for(run, job->path);
}

/* A file as an earlier check read it, when its identity on disk is the same: its text is read
 * when it is lowered (unless its kept model is used), as for a file let go after reading. */
static bool recall_read(FileJob *job, const Run *run, const struct stat *st) {
    DlKeptRead read;
    if (!dl_keep_recall_read(run->opts->keep, job->path, st, &read)) return false;
    job->loaded = true;
    dl_arena_init(&job->arena);
    job->relevant = read.relevant;
    job->content_hash = read.content_hash;
    job->cacheable = true;
    job->scan = read.scan;
    if (read.relevant) {
        job->scanned = true;
        job->mentions_devices = read.scan.mentions_devices;
        job->text_dropped = true;
    }
    return true;
}

/* One step of the check over every file, largest first, on the run's threads; a crash inside a
 * step costs its file, not the run (core/crash_restart.h). */
typedef void (*FileStep)(Run *run, FileJob *job);

typedef struct StepRun {
    Run *run;
    FileStep step;
} StepRun;

static void run_step(void *arg, size_t index) {
    StepRun *s = arg;
    FileJob *job = &s->run->jobs[s->run->order[index]];
    dl_crash_restart_working_on(job->path);
    s->step(s->run, job);
    dl_crash_restart_working_on(NULL);
}

static void for_each_file(Run *run, FileStep step) {
    StepRun s = {run, step};
    dl_parallel_for(run->count, run->opts->jobs, run_step, &s);
}

static void load(Run *run, FileJob *job) {
    struct stat st; /* before reading: a change after it makes the next check read it again */
    bool kept = reads_are_kept(job, run) && stat(job->path, &st) == 0 && S_ISREG(st.st_mode);
    if (kept && recall_read(job, run, &st)) return;
    bool from_disk = read_file(job, run);
    if (kept && from_disk) {
        DlKeptRead read = {job->content_hash, job->relevant, job->scan};
        dl_keep_note_read(run->opts->keep, job->path, &st, &read);
    }
}

/* The text of a file let go after reading (see load), read again: the same bytes, or an error
 * (the file changed while it was checked, and its cache key and the project's facts describe
 * the old bytes). */
bool dl_check_reload(FileJob *job, const Run *run) {
    char *error = NULL;
    if (!dl_source_load(&job->source, job->path, run->opts->max_file_bytes, &error)) {
        job->error = error;
        return false;
    }
    job->text_dropped = false;
    if (dl_hash_bytes(job->source.text, job->source.len, 0) != job->content_hash) {
        job->error = strdup("the file changed while devlint was checking it; check it again");
        job->cacheable = false;
        return false;
    }
    return true;
}

/* The rules, severities and device names a file is checked with. */
static uint64_t settings_hash(const DlSettings *s) {
    uint64_t h = dl_hash_bytes(s->enabled, sizeof s->enabled, 1);
    h = dl_hash_bytes(s->severity_override, sizeof s->severity_override, h);
    for (size_t i = 0; i < s->device_name_count; i++)
        h = dl_hash_bytes(s->device_names[i], strlen(s->device_names[i]) + 1, h);
    return h;
}

/* The paths and bytes of the analysed Python files. Without the files a result read
 * (DEVLINT_PARSE_ALL runs no text scan, see Run.tracks_reads), a Python result may read any of
 * them. */
static uint64_t hash_python_files(const Run *run, uint64_t h) {
    for (size_t i = 0; i < run->count; i++) {
        const FileJob *job = &run->jobs[i];
        if (!is_analysed_python(job)) continue;
        h = dl_hash_bytes(job->path, strlen(job->path) + 1, h);
        h = dl_hash_bytes(&job->content_hash, sizeof job->content_hash, h);
    }
    return h;
}

/* What the project learns of the leaves from their text, before any is lowered: whether one
 * names a device, and the function names they mention. */
static uint64_t hash_leaves_text(uint64_t h, const DlSharing *sharing,
                                 const DlProjectLeaves *leaves) {
    uint64_t mentioned = sharing ? dl_sharing_mentioned_functions_hash(sharing) : 0;
    h = dl_hash_bytes(&leaves->use_devices, sizeof leaves->use_devices, h);
    h = dl_hash_bytes(&leaves->set_default_device, sizeof leaves->set_default_device, h);
    return dl_hash_bytes(&mentioned, sizeof mentioned, h);
}

/* What a Python result depends on that no lookup records, when the result is stored with the
 * files it read (Run.tracks_reads, store_result): whether the project uses devices. Where the
 * names a file mentions are defined (a lookup that found nothing, or found the one class of a
 * name, would find another file once that file defines the name), and which of its functions
 * get summaries (those some file names), are in each file's key and in the hash stored for each
 * file it read (FileJob.names_digest), not in every key. */
static uint64_t hash_unrecorded(const Run *run, const DlProjectLeaves *leaves) {
    uint64_t h = dl_hash_bytes(&run->parse_all, sizeof run->parse_all, 2);
    h = dl_hash_bytes(&leaves->set_default_device, sizeof leaves->set_default_device, h);
    return dl_hash_bytes(&leaves->use_devices, sizeof leaves->use_devices, h);
}

/* A shared file's result also reads the marks other files' DataLoaders leave on its datasets and
 * collate functions (DL113), which no lookup of its own records: they are stored with it and
 * compared (driver/check_marks.c). Without the text scan (DEVLINT_PARSE_ALL), every analysed
 * file's bytes are in its key. */
static uint64_t project_hash(const Run *run, const DlProjectLeaves *leaves) {
    if (run->tracks_reads) return dl_hash_bytes("shared", 6, hash_unrecorded(run, leaves));
    return hash_python_files(run, hash_unrecorded(run, leaves));
}

/* A C++ file's result reads no other file's facts (its names resolve within its translation
 * unit, project.c): its key is its own bytes, settings and compile command, and the headers it
 * read are stored with it (cache.h). Editing a Python file, or another C++ file, leaves it
 * valid: a C++-heavy project does not parse its translation units again. */
static uint64_t cpp_project_hash(void) {
    return dl_hash_bytes("c++", 3, 7);
}

/* What a leaf's result can depend on besides its own bytes and settings and the shared files
 * it read (stored with it): what no lookup records. No other file marks a leaf's datasets (none
 * names them). Editing one leaf leaves the other leaves' results valid. */
static uint64_t leaf_project_hash(const Run *run, const DlProjectLeaves *leaves) {
    return dl_hash_bytes("leaf", 4, hash_unrecorded(run, leaves));
}

/* A file's cache key over `base` (what its kind of result depends on project-wide): its bytes,
 * its settings, its compile command (C++; 0 for Python) and where the names it mentions are
 * defined. */
static uint64_t file_key(const FileJob *job, uint64_t command_hash, uint64_t base) {
    /* whether another file may read it: what a script's rules assume (DlModuleIR's flag) */
    uint64_t parts[6] = {
        job->content_hash, settings_hash(job->settings), command_hash,
        job->names_digest, job->read_by_no_other_file,   job->imported_by_no_other_file};
    return dl_hash_bytes(parts, sizeof parts, base);
}

/* A look-up's view of the files a stored result read: their bytes in this run, and where the
 * names they mention are defined (source_hash). */
bool dl_check_content_hash_now(void *ctx, const char *path, uint64_t *hash) {
    const Run *run = ctx;
    const FileJob *job = dl_path_map_get(&run->job_by_path, path);
    if (!job || !is_analysed_python(job)) return false;
    *hash = source_hash(job);
    return true;
}

static void look_up_cache(Run *run, FileJob *job) {
    if (!job->loaded || !job->cacheable || job->late_key) return;
    DlCacheContents now = {dl_check_content_hash_now, run};
    DlCacheFound found = {0};
    job->cached = dl_cache_load(run->cache, job->path, job->cache_key, &now, &job->result, &found);
    if (!job->cached || !run->marks_by_digest || !is_analysed_python(job)) return;
    if (job->may_place_marks) job->stamp = found.stamp;
    if (!reads_marks(job)) return;
    if (!found.has_marks) { /* an entry stored without its marks */
        forget_result(job);
        return;
    }
    job->stored_marks = found.marks;
}

static bool cpp_relevant(const DlSource *src) {
#ifdef DEVLINT_HAVE_CLANG
    return dl_cpp_is_relevant(src);
#else
    (void)src;
    return false;
#endif
}

static DlParseResult cpp_parse(FileJob *job, Run *run) {
#ifdef DEVLINT_HAVE_CLANG
    DlCppOptions o = {.compile_db_dir = run->opts->compile_db_dir, .no_pch = run->opts->no_pch,
                      .stats = run->stats, .includes = run->includes};
    return dl_cpp_parse(&job->source, &job->arena, &o);
#else
    (void)job, (void)run;
    return (DlParseResult){.error = strdup("this devlint was built without libclang")};
#endif
}

static uint64_t cpp_command_hash(const FileJob *job, const Run *run) {
#ifdef DEVLINT_HAVE_CLANG
    return dl_cpp_command_hash(job->path, run->opts->compile_db_dir);
#else
    (void)job, (void)run;
    return 0;
#endif
}

/* The models the language server keeps between checks (driver/keep.h): a Python file's, not a
 * notebook's (whose cell map is not kept) nor one DEVLINT_PARSE_ALL lowers differently. */
static bool model_is_kept(const FileJob *job, const Run *run) {
    return run->opts->keep && !job->is_cpp && !job->is_notebook && !run->parse_all;
}

/* The model an earlier check kept for these bytes, with the text and suppressions it reads. */
static bool adopt_kept_model(FileJob *job, const Run *run) {
    DlKeptModel kept;
    if (!model_is_kept(job, run) ||
        !dl_keep_take_model(run->opts->keep, job->path, job->content_hash, &kept))
        return false;
    dl_source_free(&job->source); /* the same bytes, when they were not let go already */
    dl_arena_release(&job->arena);
    job->source = kept.source;
    job->arena = kept.arena;
    job->module = kept.module;
    job->module->source = &job->source; /* job_of finds the job from it */
    job->module->read_by_no_other_file = job->read_by_no_other_file;
    job->module->imported_by_no_other_file = job->imported_by_no_other_file;
    job->suppressions = kept.suppressions;
    job->model_serial = kept.serial;
    job->text_dropped = false;
    return true;
}

static void lower_job(Run *run, FileJob *job) {
    job->lowered = true;
    if (adopt_kept_model(job, run)) return;
    if (job->text_dropped && !dl_check_reload(job, run)) return;
    /* relevant, unless DEVLINT_PARSE_ALL parses the others too (for their syntax errors) */
    bool names_devices = !run->parse_all || dl_python_is_relevant(&job->source);
    const bool *mentions_devices = job->scanned ? &job->mentions_devices : NULL;
    DlParseResult parsed =
        job->is_cpp ? cpp_parse(job, run)
                    : dl_python_parse(&job->source, &job->arena, names_devices, mentions_devices);
    if (parsed.error && job->is_notebook) {
        /* cells that do not parse alone are left out; the others are checked (what the file's
         * scan found in the whole text still holds for the rest) */
        char *note = dl_notebook_leave_out_bad_cells(&job->notebook, &job->source);
        if (note) {
            free(parsed.error);
            parsed = dl_python_parse(&job->source, &job->arena, names_devices, mentions_devices);
            if (parsed.error) free(note);
            else parsed.incomplete = note;
        }
    }
    job->deps = parsed.deps; /* a C++ file that failed on a missing header has some too */
    job->dep_count = parsed.dep_count;
    if (parsed.error) {
        job->error = parsed.error;
        return;
    }
    job->module = parsed.module;
    job->module->read_by_no_other_file = job->read_by_no_other_file;
    job->module->imported_by_no_other_file = job->imported_by_no_other_file;
    job->incomplete = parsed.incomplete;
    const char *dump = getenv("DEVLINT_DUMP_IR");
    if (dump && strcmp(dump, "full") == 0) dl_ir_dump_full(stderr, job->module);
    else if (dump) dl_ir_dump(stderr, job->module);
    dl_suppressions_parse(job->source.text, job->module->comments, job->module->comment_count,
                          &job->suppressions);
}

/* The shared files (the leaves are lowered as they stream, see stream_leaf). */
static void lower(Run *run, FileJob *job) {
    if (!job->loaded || !job->relevant || job->lowered || job->leaf) return;
    if (job->cached && (!run->lower_cached || job->is_cpp || !job->in_build)) return;
    lower_job(run, job);
}

/* DL000: codes in a suppression comment that name no rule. */
static void check_suppression_codes(DlRuleContext *ctx) {
    const DlRule *dl000 = dl_rule_find("DL000");
    if (!dl000 || !rule_enabled(ctx, dl000)) return;
    const DlSuppressions *s = &ctx->job->suppressions;
    for (size_t i = 0; i < s->count; i++) {
        const DlSuppression *sup = &s->items[i];
        for (size_t j = 0; j < sup->code_count; j++) {
            const char *code = sup->codes[j].text;
            if (dl_rule_find(code)) continue;
            /* `# noqa: E501` belongs to other linters */
            if (sup->is_noqa && !((code[0] == 'D' || code[0] == 'd') && (code[1] == 'L' || code[1] == 'l')))
                continue;
            DlDiag d = {0};
            d.rule = dl000;
            d.path = strdup(ctx->job->path);
            d.line = d.end_line = sup->line;
            d.column = sup->codes[j].column;
            d.end_column = sup->codes[j].end_column;
            char *msg = malloc(strlen(code) + 96);
            if (!msg) abort();
            sprintf(msg, "unknown rule `%s` in a suppression comment (see `devlint rules`)", code);
            d.message = msg;
            d.source_line = line_copy(&ctx->job->source, sup->line);
            d.severity_override = ctx->job->settings->severity_override[rule_index(dl000)];
            cell_positions(ctx->job, &d);
            dl_result_add_diag(&ctx->job->result, d);
        }
    }
}

static void analyse_file(Run *run, FileJob *job);

/* What a build that leaves a Python file out needs of it (DlCacheRecord): the names the
 * project's index would hold for it (dataflow/project.c, build_name_index) and its DataLoader
 * workers' fact. */
static void own_facts(const FileJob *job, DlCacheSources *out) {
    const DlModuleIR *m = job->module;
    if (!m) return;
    const char **classes = malloc((m->class_count + 1) * sizeof *classes);
    const char **functions = malloc((m->function_count + 1) * sizeof *functions);
    if (!classes || !functions) abort();
    for (uint32_t j = 0; j < m->class_count; j++) classes[j] = m->classes[j]->name;
    size_t n = 0;
    for (uint32_t j = 0; j < m->function_count; j++)
        if (!m->functions[j]->owner && !m->functions[j]->parent)
            functions[n++] = m->functions[j]->name;
    out->classes = classes;
    out->class_count = m->class_count;
    out->functions = functions;
    out->function_count = n;
    out->workers_may_touch_devices = dl_project_workers_may_touch_devices(m);
}

static void free_own_facts(DlCacheSources *s) {
    free((void *)s->classes);
    free((void *)s->functions);
}

/* The other files a Python result read (job->reads, less its own file, whose bytes are in its
 * key): their paths and bytes, in job order, as its entry stores them. Returns the count. */
static size_t result_sources(const Run *run, FileJob *job, const char ***paths, uint64_t **hashes) {
    *paths = NULL;
    *hashes = NULL;
    if (!job->reads) return 0;
    size_t self = (size_t)(job - run->jobs), words = run->project.read_words, count = 0;
    job->reads[self / 64] &= ~((uint64_t)1 << (self % 64));
    for (size_t w = 0; w < words; w++) count += (size_t)__builtin_popcountll(job->reads[w]);
    *paths = malloc((count ? count : 1) * sizeof **paths);
    *hashes = malloc((count ? count : 1) * sizeof **hashes);
    if (!*paths || !*hashes) abort();
    size_t k = 0;
    for (size_t w = 0; w < words; w++)
        for (uint64_t bits = job->reads[w]; bits; bits &= bits - 1, k++) {
            const FileJob *read = &run->jobs[w * 64 + (size_t)__builtin_ctzll(bits)];
            (*paths)[k] = read->path;
            (*hashes)[k] = source_hash(read);
        }
    return count;
}

/* The stamp the entry of a Python result about to be stored will have (dl_cache_stamp). */
static uint64_t result_stamp(const Run *run, FileJob *job) {
    const char **paths;
    uint64_t *hashes;
    size_t count = result_sources(run, job, &paths, &hashes);
    uint64_t stamp = dl_cache_stamp(job->cache_key, hashes, count);
    free(paths);
    free(hashes);
    return stamp;
}

/* The result, with the headers a C++ file read or the files a Python result read (job->reads:
 * their paths and bytes, checked when it is looked up), and for a shared file's result the
 * DataLoader marks it read. */
static void store_result(Run *run, FileJob *job) {
    if (job->is_cpp) {
        dl_cache_store(run->cache, job->path, job->cache_key, &job->result, job->deps,
                       job->dep_count, NULL);
        return;
    }
    DlCacheSources sources = {0};
    own_facts(job, &sources);
    sources.no_model = !job->module; /* (stored before the model is let go) */
    sources.names_digest = job->names_digest;
    const char **paths;
    uint64_t *hashes;
    sources.count = result_sources(run, job, &paths, &hashes);
    sources.paths = paths;
    sources.content_hashes = hashes;
    DlCacheMarks marks = {dl_marks_own_now(run, job), run->marks_inputs};
    if (run->marks_by_digest && reads_marks(job)) sources.marks = &marks;
    const char **placed_paths = NULL;
    uint32_t *placed_positions = NULL;
    if (run->marks_by_digest && is_dataloader_file(job)) {
        sources.has_placed = true;
        sources.placed_count = dl_marks_placed(run, job, &placed_paths, &placed_positions);
        sources.placed_paths = placed_paths;
        sources.placed_positions = placed_positions;
    }
    dl_cache_store(run->cache, job->path, job->cache_key, &job->result, NULL, 0, &sources);
    free(paths);
    free(hashes);
    free(placed_paths);
    free(placed_positions);
    free_own_facts(&sources);
}

static void analyse_job(Run *run, FileJob *job) {
    analyse_file(run, job);
    /* a C++ file without a dependency list to check later (the compiler stopped before reading
     * its headers) is not kept; one that failed on a missing header is, with the directories
     * the header would appear in (frontend/cpp_missing_header.h) */
    bool cpp_unchecked = job->is_cpp && job->relevant && !job->deps;
    /* in a partial build, a result that may differ from a full build's is not kept, and the
     * check runs again (a shared file's also reads the marks) */
    bool unsure = job->uncertain || (!job->leaf && run->marks_uncertain);
    if (job->uncertain) run->not_enough = true;
    bool store =
        run->cache && job->loaded && job->cacheable && !job->cached && !cpp_unchecked && !unsure;
    if (!job->cached && run->marks_by_digest && is_dataloader_file(job))
        job->stamp = store ? result_stamp(run, job) : 0;
    if (store && job->store_deferred) return; /* with its reads, until analyse_shared */
    job->store_deferred = false;
    if (store) store_result(run, job);
    free(job->reads);
    job->reads = NULL;
}

/* The shared DataLoader files (FileJob.may_place_marks), once the leaves are done (they may
 * mark the shared datasets their DataLoader workers read): first, so that the others' entries
 * can record their stamps (Run.marks_inputs). */
static void analyse_shared_dataloaders(Run *run, FileJob *job) {
    if (job->leaf || !job->may_place_marks) return;
    dl_marks_settle(run, job);
    job->store_deferred = run->marks_by_digest;
    analyse_job(run, job);
}

/* Then the other shared files; the results above are stored. */
static void analyse_shared(Run *run, FileJob *job) {
    if (job->leaf) return;
    if (job->store_deferred) {
        store_result(run, job);
        free(job->reads);
        job->reads = NULL;
        job->store_deferred = false;
    } else if (!job->may_place_marks) {
        dl_marks_settle(run, job);
        analyse_job(run, job);
    }
}

/* Lets go of a file's program model, text and suppressions (again: nothing happens); the
 * language server keeps them for the next check. */
static void drop_model(FileJob *job, const Run *run) {
    if (job->module && model_is_kept(job, run)) {
        DlKeptModel kept = {job->content_hash, job->arena, job->source, job->module,
                            job->suppressions, job->model_serial};
        job->model_serial = dl_keep_put_model(run->opts->keep, job->path, &kept);
        memset(&job->arena, 0, sizeof job->arena);
        memset(&job->source, 0, sizeof job->source);
        memset(&job->suppressions, 0, sizeof job->suppressions);
        job->module = NULL;
        return;
    }
    dl_arena_release(&job->arena);
    dl_source_free(&job->source);
    dl_suppressions_free(&job->suppressions);
    job->module = NULL;
}

/* A leaf, start to end: lowered, summarised against the project, analysed, dropped. A leaf
 * whose result is cached still runs its summaries when a DataLoader in it may mark a shared
 * dataset, as it does in a run that analyses it. */
static void stream_leaf(Run *run, FileJob *job) {
    if (!job->leaf) return;
    bool analysed = !job->cached;
    DlArena facts; /* apart from the model, which the language server keeps */
    dl_arena_init(&facts);
    bool for_marks = run->marks_needed && job->may_place_marks && !job->marks_from_record;
    if (job->loaded && (analysed || for_marks)) {
        if (!run->opts->keep) {
            dl_arena_release(&job->arena);
            dl_arena_init(&job->arena); /* not the pool's: its memory goes back when done */
        }
        lower_job(run, job);
        if (job->module) {
            dl_project_build_leaf(&run->project, &job->leaf_facts, job->module, &facts);
            if (job->may_place_marks) dl_marks_note_source(run, &job->leaf_facts.reads);
        }
    }
    analyse_job(run, job);
    if (job->module) dl_project_leaf_done(&job->leaf_facts);
    dl_arena_release(&facts);
    drop_model(job, run);
}

/* Whether a Python result is stored with the files it read (store_result). */
static bool notes_reads(const Run *run, const FileJob *job) {
    return run->tracks_reads && run->cache && !job->is_cpp && run->project.read_words;
}

/* job->reads: what the analysis looked up (`looked_up`'s bits, freed here; NULL bits: nothing)
 * and what the file's facts read, and so on. */
static void close_reads(Run *run, FileJob *job, const DlFileFacts *facts, DlReadSet *looked_up) {
    uint32_t words = run->project.read_words;
    uint64_t *direct = looked_up->bits ? looked_up->bits : calloc(words, sizeof *direct);
    job->reads = calloc(words, sizeof *job->reads);
    if (!direct || !job->reads) abort();
    if (facts && facts->reads.bits)
        for (uint32_t w = 0; w < words; w++) direct[w] |= facts->reads.bits[w];
    dl_project_read_closure(&run->project, direct, job->reads);
    free(direct);
    looked_up->bits = NULL;
    dl_vec_free(&looked_up->placed); /* none: an analysis places no marks */
    job->uncertain = looked_up->uncertain || (facts && facts->reads.uncertain) ||
                     (run->partial && dl_project_closure_uncertain(&run->project, job->reads));
}

static void analyse_file(Run *run, FileJob *job) {
    if (job->cached) return;
    if (job->error) {
        dl_result_add_error(&job->result, job->path, job->error);
        return;
    }
    if (!job->loaded) return;
    job->result.files_checked = 1;
    if (job->incomplete) dl_result_add_error(&job->result, job->path, job->incomplete);
    /* What the analysis allocates (abstract values, states, message text) dies with it: findings
     * are copied out, so peak memory does not grow with the number of files analysed. */
    DlArena scratch;
    dl_arena_init(&scratch);
    DlRuleContext ctx = {.job = job, .run = run, .arena = &scratch};
    if (job->module) check_suppression_codes(&ctx);
    if (!job->module || job->suppressions.skip_file || !job->module->body.count) {
        /* nothing analysed, but its facts read files: a DataLoader's marks depend on them */
        DlReadSet none = {NULL};
        if (job->module && notes_reads(run, job))
            close_reads(run, job, dl_project_file(&run->project, job->module), &none);
        free(ctx.seen);
        dl_arena_release(&scratch);
        return;
    }
    const DlFileFacts *facts = dl_project_file(&run->project, job->module);
    /* what the analysis looks up, for the result's sources (store_result) */
    DlReadSet reads = {NULL};
    if (notes_reads(run, job)) {
        reads.bits = calloc(run->project.read_words, sizeof *reads.bits);
        if (!reads.bits) abort();
    }
    DlReadSet *was = dl_project_note_reads(&reads);
    size_t budget = DL_FLOW_BUDGET;
    DlFlowEnv env = {.project = &run->project, .file = facts, .arena = &scratch, .report = &ctx,
                     .device_names = job->settings->device_names,
                     .device_name_count = job->settings->device_name_count, .budget = &budget};
    DlFlowState *globals = NULL;
    dl_flow_run(&env, NULL, NULL, &globals);
    env.globals = globals;
    for (uint32_t i = 0; i < facts->function_count; i++)
        dl_flow_run(&env, facts->functions[i]->fn, facts->functions[i]->owner, NULL);
    for (uint32_t i = 0; i < facts->class_count; i++) {
        DlClassFact fact = {facts->classes[i]};
        dl_rule_dispatch_class(&ctx, &fact);
    }
    dl_flow_state_free(globals);
    dl_project_note_reads(was);
    if (reads.bits) close_reads(run, job, facts, &reads);
    free(ctx.seen);
    dl_arena_release(&scratch);
    if (!budget) { /* over the work cap: an error for the file, not a partial result */
        dl_result_free(&job->result);
        memset(&job->result, 0, sizeof job->result);
        dl_result_add_error(&job->result, job->path,
                            "too much work to analyse (over the per-file budget)");
    }
}

/* The language server's in-memory results, or a cache directory (not for standard input or
 * unsaved buffers, whose results never go to disk). */
static bool uses_result_cache(const DlCheckOptions *o) {
    return o->keep || (o->cache_dir && !o->stdin_text && !o->override_count);
}

/* Which files no other file reads (driver/sharing.h): the Python files that take part, minus
 * those whose names other files mention. C++ files take no part (no other file reads them, but
 * they are lowered with the shared files), and neither does any file when DEVLINT_PARSE_ALL
 * parses files it does not lower. */
static DlSharing *find_leaves(Run *run, char *const *paths, DlProjectLeaves *leaves) {
    DlSharingFile *files = calloc(run->count ? run->count : 1, sizeof *files);
    if (!files) abort();
    for (size_t i = 0; i < run->count; i++)
        files[i] = run->jobs[i].scan; /* zeroed for files that take no part */
    DlSharing *sharing = dl_sharing_decide(files, paths, run->count, run->opts->jobs);
    free(files);
    const char *off = getenv("DEVLINT_NO_STREAMING"); /* to compare the two pipelines */
    bool streaming = !(off && *off && strcmp(off, "0") != 0);
    for (size_t i = 0; i < run->count; i++) {
        FileJob *job = &run->jobs[i];
        /* every Python file's text, the leaves' and that of a file that will not lower (a syntax
         * error) too, so that both pipelines see the same (the fuzzer found them differing) */
        leaves->use_devices |= job->scan.takes_part && job->scan.mentions_devices;
        leaves->set_default_device |= job->scan.takes_part && job->scan.sets_a_gpu_default;
        job->read_by_no_other_file = job->scan.takes_part && !dl_sharing_code_is_read(sharing, i);
        job->imported_by_no_other_file =
            job->scan.takes_part && !dl_sharing_module_is_named(sharing, i);
        job->leaf = streaming && job->scan.takes_part && !dl_sharing_is_shared(sharing, i);
        job->may_place_marks = dl_sharing_may_place_marks(sharing, i);
        job->names_digest = dl_sharing_names_digest(sharing, i);
    }
    if (streaming) leaves->mentioned_names = dl_sharing_mentioned_functions(sharing);
    leaves->module_names = dl_sharing_module_names(sharing);
    size_t leaf_count = 0, lowered = 0, marking = 0;
    for (size_t i = 0; i < run->count; i++) {
        leaf_count += run->jobs[i].leaf;
        marking += run->jobs[i].may_place_marks;
        lowered += run->jobs[i].loaded && run->jobs[i].relevant;
        /* a partial build guesses a new file's reads from the shared files' names
         * (text_reads); the rest of the scans can go */
        DlSharingFile *scan = &run->jobs[i].scan;
        if (!run->may_build_partially || run->jobs[i].leaf) {
            dl_sharing_file_free(scan);
        } else {
            free(scan->mentions);
            free(scan->module_refs);
            scan->mentions = scan->module_refs = NULL;
            scan->mention_count = scan->module_ref_count = scan->base_ref_count = 0;
        }
    }
    char label[128];
    snprintf(label, sizeof label,
             "find the files no other file reads (%zu of %zu; %zu may place DataLoader marks)",
             leaf_count, lowered, marking);
    dl_timing_mark(label);
    return sharing;
}

/* ---------------------------------------------------------------- the language server's
 * checks (driver/keep.h) */

/* A shared file's result reads the files stored with it, what no lookup records
 * (leaf_project_hash), and one thing the leaves write: the marks their DataLoaders leave on the
 * shared datasets and collate functions (DL113), known once they have streamed. Keyed by the
 * marks rather than by the bytes of the files that may leave them (project_hash), an edit of a
 * leaf that changes no mark leaves the shared files' results valid. The language server's only:
 * `devlint check` looks every key up before anything is parsed, so that a run over unchanged
 * files parses nothing. */
static void key_shared_files(Run *run) {
    uint64_t marks = dl_project_marks_hash(&run->project);
    uint64_t base = dl_hash_bytes(&marks, sizeof marks,
                                  dl_hash_bytes("shared", 6, run->leaf_key_base));
    for (size_t i = 0; i < run->count; i++) {
        FileJob *job = &run->jobs[i];
        if (!job->late_key) continue;
        job->late_key = false;
        job->cache_key = file_key(job, 0, base);
        DlCacheContents now = {dl_check_content_hash_now, run};
        job->cached = dl_cache_load(run->cache, job->path, job->cache_key, &now, &job->result, NULL);
    }
}

/* What a project is built from besides the shared files' models: which files are leaves and
 * what their text tells (see leaf_project_hash). */
static uint64_t kept_project_key(const Run *run, const DlSharing *sharing,
                                 const DlProjectLeaves *leaves) {
    return hash_leaves_text(dl_hash_bytes(&run->count, sizeof run->count, 6), sharing, leaves);
}

/* For each file, the serial of the kept model the project is (to be) built over: 0 for no
 * model, UINT64_MAX for one lowered in this check, which no kept project was built over. */
static uint64_t *model_serials(const Run *run, DlModuleIR *const *modules) {
    uint64_t *serials = malloc((run->count ? run->count : 1) * sizeof *serials);
    if (!serials) abort();
    for (size_t i = 0; i < run->count; i++)
        serials[i] = !modules[i] ? 0 : run->jobs[i].model_serial ? run->jobs[i].model_serial
                                                                  : UINT64_MAX;
    return serials;
}

/* The project built over these models in the previous check, as its build left it; else a new
 * one. */
static void build_project(Run *run, DlModuleIR *const *modules, const DlProjectLeaves *leaves,
                          uint64_t key) {
    bool has_models = false;
    for (size_t i = 0; i < run->count && !has_models; i++) has_models = modules[i] != NULL;
    if (run->opts->keep && has_models) {
        uint64_t *serials = model_serials(run, modules);
        bool kept = dl_keep_take_project(run->opts->keep, key, serials, run->count, &run->project);
        free(serials);
        if (kept) {
            dl_project_rewind(&run->project, leaves);
            dl_timing_mark("project summaries (kept from the last check)");
            return;
        }
    }
    dl_project_build(&run->project, modules, (uint32_t)run->count, run->opts->jobs, leaves);
    dl_timing_mark("project summaries");
}

/* Once every model is put back (each has its serial): the project is kept with them, unless
 * one of its models was not kept (a notebook's) or it has none (every result was cached). */
static void keep_project(Run *run, uint64_t key) {
    uint64_t *serials = malloc((run->count ? run->count : 1) * sizeof *serials);
    if (!serials) abort();
    bool complete = true, has_models = false;
    for (size_t i = 0; i < run->count; i++) {
        bool in_project = run->project.files && run->project.files[i].module;
        serials[i] = in_project ? run->jobs[i].model_serial : 0;
        has_models |= in_project;
        complete &= !in_project || serials[i] != 0;
    }
    if (complete && has_models)
        dl_keep_put_project(run->opts->keep, &run->project, key, serials, run->count);
    free(serials);
}

typedef struct SizedIndex {
    off_t size;
    size_t index;
} SizedIndex;

static int larger_first(const void *a, const void *b) {
    const SizedIndex *x = a, *y = b;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Work order for the pool: big files first, so two workers finish together. The same look at
 * each file notes its identity on disk (`ids`), unless its text comes from elsewhere. */
static size_t *largest_first(const Run *run, char *const *paths, size_t count,
                             DlFileIdentity *ids) {
    SizedIndex *sized = malloc((count ? count : 1) * sizeof *sized);
    size_t *order = malloc((count ? count : 1) * sizeof *order);
    if (!sized || !order) abort();
    const DlFileStat *walked = run->opts->file_stats; /* the walk's look, when it had one */
    for (size_t i = 0; i < count; i++) {
        DlFileStat f = {0};
        struct stat st;
        bool found = true;
        if (walked) f = walked[i];
        else if ((found = stat(paths[i], &st) == 0))
            f = (DlFileStat){st.st_size, st.st_dev, st.st_ino};
        sized[i] = (SizedIndex){f.size, i};
        ids[i] = (DlFileIdentity){f.dev, f.ino,
                                  found && !run->opts->stdin_text && !override_for(run, paths[i])};
    }
    qsort(sized, count, sizeof *sized, larger_first);
    for (size_t i = 0; i < count; i++) order[i] = sized[i].index;
    free(sized);
    return order;
}

/* One check; false, with `out` untouched, when a partial build (`may_build_partially`) was
 * not enough and the check must run again without. */
static bool check_once(char *const *paths, size_t count, const DlCheckOptions *opts,
                       bool may_build_partially, DlResult *out) {
    Run run = {0};
    run.count = count;
    run.opts = opts;
    run.jobs = calloc(count ? count : 1, sizeof(FileJob));
    if (!run.jobs) abort();
    for (size_t i = 0; i < count; i++) {
        run.jobs[i].path = paths[i];
        run.jobs[i].settings = opts->settings[i];
        run.jobs[i].in_build = true;
    }
    DlFileIdentity *ids = malloc((count ? count : 1) * sizeof *ids);
    if (!ids) abort();
    run.order = largest_first(&run, paths, count, ids);
    size_t *alias_of = dl_aliases_find(paths, ids, count);
    free(ids);
    const char *parse_all = getenv("DEVLINT_PARSE_ALL");
    run.parse_all = parse_all && *parse_all && strcmp(parse_all, "0") != 0;

    run.stats = dl_stat_memo_new();
#ifdef DEVLINT_HAVE_CLANG
    run.includes = dl_cpp_include_memo_new();
#endif
    run.pool = dl_block_pool_new();
    if (!run.parse_all) run.modules = dl_sharing_modules_new(paths, count);
    /* the command line's result cache, with the text scan's leaves (the language server keeps
     * its models: lowering them again costs it nothing) */
    run.may_build_partially =
        may_build_partially && uses_result_cache(opts) && !opts->keep && !run.parse_all;
    dl_timing_mark("start");
    for_each_file(&run, load);
    dl_timing_mark("read files");
    DlSharing *sharing = NULL;
    DlProjectLeaves leaves = {0};
    if (!run.parse_all) sharing = find_leaves(&run, paths, &leaves);
    /* a relevant C++ file makes the project one that uses devices, whether it lowers or not: so
     * no Python result depends on how a C++ file parsed (see hash_analysed_files) */
    for (size_t i = 0; i < count; i++)
        leaves.use_devices |= run.jobs[i].is_cpp && run.jobs[i].loaded && run.jobs[i].relevant;

    bool all_cached = false;
    size_t pending = 0; /* shared results from the cache whose DataLoader marks are compared */
    if (opts->keep) {
        run.cache = dl_keep_results(opts->keep);
    } else if (uses_result_cache(opts)) {
        char *error = NULL;
        run.cache = dl_cache_open(opts->cache_dir, run.stats, &error);
        run.own_cache = run.cache != NULL;
        if (!run.cache) { /* a warning, not a failure: the check itself is unaffected */
            fprintf(stderr, "devlint: warning: %s; not caching results\n", error);
            free(error);
        }
    }
    run.may_build_partially &= run.cache != NULL && sharing != NULL;
    if (run.cache) {
        run.tracks_reads = sharing != NULL;
        /* the files whose DataLoaders may mark a dataset or collate function (project_hash) */
        run.marks_by_digest = run.tracks_reads && !opts->keep;
        dl_path_map_init(&run.job_by_path);
        for (size_t i = 0; i < count; i++) dl_path_map_put(&run.job_by_path, paths[i], &run.jobs[i]);
        uint64_t tool = dl_cache_tool_key();
        uint64_t base = dl_hash_bytes(&tool, sizeof tool, project_hash(&run, &leaves));
        uint64_t cpp_base = dl_hash_bytes(&tool, sizeof tool, cpp_project_hash());
        run.leaf_key_base =
            dl_hash_bytes(&tool, sizeof tool, leaf_project_hash(&run, &leaves));
        for (size_t i = 0; i < count; i++) {
            FileJob *job = &run.jobs[i];
            uint64_t command = job->is_cpp ? cpp_command_hash(job, &run) : 0;
            job->cache_key = file_key(job, command,
                                      job->is_cpp ? cpp_base
                                      : job->leaf ? run.leaf_key_base
                                                  : base);
            /* a C++ file without a command, or a C++ result without its headers: not kept */
            if (job->is_cpp && !command) job->cacheable = false;
            job->late_key = opts->keep && sharing && job->scanned && !job->leaf &&
                            job->cacheable;
        }
        for_each_file(&run, look_up_cache);
        size_t reused = 0, loaded = 0;
        for (size_t i = 0; i < count; i++) {
            reused += run.jobs[i].cached;
            loaded += run.jobs[i].loaded;
        }
        char label[96];
        snprintf(label, sizeof label, "cache look-up (%zu of %zu results reused)", reused, loaded);
        dl_timing_mark(label);
        pending = run.marks_by_digest ? dl_marks_note_pending(&run) : 0;
        if (pending) {
            snprintf(label, sizeof label, "DataLoader marks to compare: %zu shared results",
                     pending);
            dl_timing_mark(label);
        }
        all_cached = reused == loaded && !pending;
        if (!all_cached && run.may_build_partially)
            run.partial = dl_partial_plan(&run, &leaves);
        for (size_t i = 0; i < count && !run.partial; i++) run.jobs[i].marks_from_record = false;
    }
    for (size_t i = 0; i < count; i++) dl_sharing_file_free(&run.jobs[i].scan); /* (text_reads) */
    /* a warm run over unchanged files parses nothing; otherwise the files to analyse are
     * parsed first, and the cached Python ones only when a Python file to analyse needs project
     * facts (a file that fails again needs none, and a C++ file reads no other file's) */
    if (!all_cached) {
        for_each_file(&run, lower);
        bool needs_project = !run.cache || pending; /* a pending result reads the marks */
        for (size_t i = 0; i < count && !needs_project; i++) {
            const FileJob *job = &run.jobs[i];
            needs_project =
                !job->cached && !job->is_cpp && (job->module || (job->leaf && job->loaded));
        }
        if (needs_project) {
            run.lower_cached = true;
            if (!run.partial) run.marks_needed = true;
            for_each_file(&run, lower);
        }
        dl_timing_mark("parse and lower (shared files)");
    }

    DlModuleIR **modules = calloc(count ? count : 1, sizeof *modules);
    if (!modules) abort();
    for (size_t i = 0; i < count; i++) modules[i] = run.jobs[i].module;
    uint64_t project_key = kept_project_key(&run, sharing, &leaves);
    build_project(&run, modules, &leaves, project_key);
    free(modules);
    /* the marks the shared DataLoader files leave (the leaves': stream_leaf) */
    for (size_t i = 0; run.marks_needed && i < count; i++) {
        const FileJob *job = &run.jobs[i];
        if (!job->module || !job->may_place_marks || job->leaf) continue;
        dl_marks_note_source(&run, &run.project.files[i].reads);
    }

    if (sharing) {
        for_each_file(&run, stream_leaf);
        dl_timing_mark("leaves: parse, summarise, analyse");
    }
    if (run.cache && opts->keep && sharing) key_shared_files(&run);
    if (run.partial) dl_marks_apply_recorded(&run);
    for_each_file(&run, analyse_shared_dataloaders);
    if (run.marks_by_digest) run.marks_inputs = dl_marks_inputs_now(&run);
    for_each_file(&run, analyse_shared);
    /* the marks were computed: a shared result was analysed, or its marks compared */
    if (run.marks_by_digest && run.marks_needed) dl_marks_write_table(&run);
    if (pending) {
        char label[96];
        snprintf(label, sizeof label, "analyse (shared files; %zu of %zu pending results reused)",
                 (size_t)run.marks_matched, pending);
        dl_timing_mark(label);
    } else {
        dl_timing_mark("analyse (shared files)");
    }

    bool again = run.partial && (run.not_enough || run.marks_uncertain);
    DlResult aliased = {0}; /* the results of files reached again through another path */
    for (size_t i = 0; i < count; i++) {
        FileJob *job = &run.jobs[i];
        if (!again)
            dl_result_merge(alias_of && alias_of[i] != DL_NOT_AN_ALIAS ? &aliased : out,
                            &job->result);
        dl_result_free(&job->result);
        dl_vec_free(&job->prior_reads);
        dl_vec_free(&job->defined);
        dl_vec_free(&job->placed);
        dl_vec_free(&job->extra_marks);
        if (opts->keep && job->loaded && !job->lowered) /* its result was kept: so is its model */
            dl_keep_retain(opts->keep, job->path, job->content_hash);
        drop_model(job, &run);
        if (job->is_notebook) dl_notebook_free(&job->notebook);
        for (size_t d = 0; d < job->dep_count; d++) free(job->deps[d]);
        free(job->deps);
        free(job->incomplete);
        free(job->error);
    }
    if (opts->keep) {
        keep_project(&run, project_key);
        dl_keep_sweep(opts->keep);
    }
    dl_project_free(&run.project);
    dl_sharing_free(sharing);
    if (run.cache) dl_path_map_free(&run.job_by_path);
    dl_sharing_modules_free(run.modules);
    dl_block_pool_free(run.pool);
    if (run.own_cache) dl_cache_close(run.cache);
    dl_stat_memo_free(run.stats);
#ifdef DEVLINT_HAVE_CLANG
    dl_cpp_include_memo_free(run.includes);
#endif
    if (run.partial) {
        dl_absent_free(&run.absent);
    }
    free(run.order);
    free(run.jobs);
    if (again) {
        free(alias_of);
        dl_timing_mark("a result may read a file the partial build left out: checking again");
        return false;
    }
    dl_result_sort(out);
    if (alias_of) dl_aliases_fold(out, &aliased, paths, alias_of, count);
    dl_result_free(&aliased);
    free(alias_of);
    dl_timing_mark("merge and free");
    return true;
}

void dl_check_files(char *const *paths, size_t count, const DlCheckOptions *opts, DlResult *out) {
    if (!check_once(paths, count, opts, true, out)) check_once(paths, count, opts, false, out);
}
