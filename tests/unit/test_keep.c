/* Unit tests for driver/keep: a model is taken back only for the bytes it was lowered from, its
 * facts from the check that built them are cleared, and a check's end frees the models it
 * neither put back nor retained; the in-memory results answer under their key only. */
#include "driver/keep.h"

#include <criterion/criterion.h>
#include <string.h>

#include "frontend/python.h"

static const char TEXT[] = "import torch\n\nclass Net:\n    def forward(self, x):\n"
                           "        return x.cuda()\n";

/* A lowered model of TEXT, owned by `out`, with facts pointers as a check leaves them. */
static void lower(DlKeptModel *out, uint64_t content_hash) {
    memset(out, 0, sizeof *out);
    char *error = NULL;
    cr_assert(dl_source_from_bytes(&out->source, "pkg/net.py", TEXT, strlen(TEXT), 0, &error));
    dl_arena_init(&out->arena);
    DlParseResult r = dl_python_parse(&out->source, &out->arena, true, NULL);
    cr_assert_not_null(r.module, "%s", r.error ? r.error : "");
    out->module = r.module;
    out->content_hash = content_hash;
    static int check_facts;
    out->module->facts = &check_facts;
    cr_assert_eq(out->module->class_count, 1);
    out->module->classes[0]->facts = &check_facts;
    out->module->functions[0]->facts = &check_facts;
}

Test(keep, taken_back_only_for_the_same_bytes_without_old_facts) {
    DlKeep *keep = dl_keep_new();
    DlKeptModel m, back;
    lower(&m, 42);
    const DlModuleIR *module = m.module;
    dl_keep_put_model(keep, "pkg/net.py", &m);
    cr_assert_null(m.module, "putting moves the model");
    cr_assert_not(dl_keep_take_model(keep, "pkg/net.py", 43, &back), "other bytes: not this model");
    cr_assert_not(dl_keep_take_model(keep, "pkg/other.py", 42, &back));
    cr_assert(dl_keep_take_model(keep, "pkg/net.py", 42, &back));
    cr_assert_eq(back.module, module);
    cr_assert_null(back.module->facts, "facts belong to the check that built them");
    cr_assert_null(back.module->classes[0]->facts);
    cr_assert_null(back.module->functions[0]->facts);
    cr_assert_not(dl_keep_take_model(keep, "pkg/net.py", 42, &back), "taken: no longer kept");
    dl_keep_put_model(keep, "pkg/net.py", &back);
    dl_keep_free(keep); /* frees what it holds (the ASan build checks) */
}

Test(keep, a_check_end_frees_what_it_neither_put_back_nor_retained) {
    DlKeep *keep = dl_keep_new();
    DlKeptModel m, back;
    lower(&m, 7);
    dl_keep_put_model(keep, "a.py", &m);
    dl_keep_sweep(keep); /* put in this check: kept */
    dl_keep_retain(keep, "a.py", 7);
    dl_keep_sweep(keep); /* read again with the same bytes, result kept: the model stays */
    cr_assert(dl_keep_take_model(keep, "a.py", 7, &back));
    dl_keep_put_model(keep, "a.py", &back);
    dl_keep_sweep(keep);
    dl_keep_retain(keep, "a.py", 8); /* the file changed: its old model is no use */
    dl_keep_sweep(keep);
    cr_assert_not(dl_keep_take_model(keep, "a.py", 7, &back));
    lower(&m, 9);
    dl_keep_put_model(keep, "b.py", &m);
    dl_keep_sweep(keep);
    dl_keep_sweep(keep); /* a check that did not read b.py (it is gone) */
    cr_assert_not(dl_keep_take_model(keep, "b.py", 9, &back));
    dl_keep_free(keep);
}

Test(keep, results_answer_under_their_key) {
    DlKeep *keep = dl_keep_new();
    DlCache *results = dl_keep_results(keep);
    DlResult r = {0}, got = {0};
    dl_result_add_error(&r, "a.py", "syntax error at line 1, column 1");
    r.files_checked = 1;
    cr_assert_not(dl_cache_load(results, "a.py", 1, NULL, &got, NULL));
    dl_cache_store(results, "a.py", 1, &r, NULL, 0, NULL);
    cr_assert_not(dl_cache_load(results, "a.py", 2, NULL, &got, NULL), "another key: a miss");
    cr_assert_not(dl_cache_load(results, "b.py", 1, NULL, &got, NULL));
    cr_assert(dl_cache_load(results, "a.py", 1, NULL, &got, NULL));
    cr_assert_eq(got.error_count, 1);
    cr_assert_str_eq(got.errors[0].message, "syntax error at line 1, column 1");
    cr_assert_eq(got.files_checked, 1);
    dl_result_free(&got);
    memset(&got, 0, sizeof got);
    dl_cache_store(results, "a.py", 2, &r, NULL, 0, NULL); /* replaces the entry */
    cr_assert_not(dl_cache_load(results, "a.py", 1, NULL, &got, NULL));
    dl_result_free(&r);
    dl_keep_free(keep);
}

/* The contents of the files a test's entries read: b.py holds 5, c.py 6; no other file. */
static uint64_t b_content = 5;
static bool content_now(void *ctx, const char *path, uint64_t *hash) {
    (void)ctx;
    if (strcmp(path, "b.py") == 0) *hash = b_content;
    else if (strcmp(path, "c.py") == 0) *hash = 6;
    else return false;
    return true;
}

/* The files and names a record tells, in its order ("c:" a class, "f:" a function). */
typedef struct RecordSeen {
    char paths[4][16];
    size_t count;
    char names[4][16];
    size_t name_count;
} RecordSeen;

static void see_source(void *ctx, const char *path) {
    RecordSeen *seen = ctx;
    if (seen->count < 4) snprintf(seen->paths[seen->count++], sizeof seen->paths[0], "%s", path);
}

static void see_name(void *ctx, const char *name, bool is_class) {
    RecordSeen *seen = ctx;
    if (seen->name_count < 4)
        snprintf(seen->names[seen->name_count++], sizeof seen->names[0], "%s:%s",
                 is_class ? "c" : "f", name);
}

Test(keep, a_result_is_used_while_the_files_it_read_are_unchanged) {
    DlKeep *keep = dl_keep_new();
    DlCache *results = dl_keep_results(keep);
    DlResult r = {0}, got = {0};
    r.files_checked = 1;
    const char *paths[] = {"b.py", "c.py"};
    const uint64_t hashes[] = {5, 6};
    const char *classes[] = {"Net"}, *functions[] = {"make", "train"};
    DlCacheSources sources = {.paths = paths, .content_hashes = hashes, .count = 2,
                              .classes = classes, .class_count = 1, .functions = functions,
                              .function_count = 2, .workers_may_touch_devices = true};
    DlCacheContents now = {content_now, NULL};
    dl_cache_store(results, "a.py", 1, &r, NULL, 0, &sources);
    cr_assert(dl_cache_load(results, "a.py", 1, &now, &got, NULL));
    dl_result_free(&got);
    memset(&got, 0, sizeof got);
    cr_assert_not(dl_cache_load(results, "a.py", 1, NULL, &got, NULL),
                  "a look-up that cannot tell what the files hold: a miss");
    b_content = 7;
    cr_assert_not(dl_cache_load(results, "a.py", 1, &now, &got, NULL), "b.py changed");
    b_content = 5;
    cr_assert(dl_cache_load(results, "a.py", 1, &now, &got, NULL), "b.py holds what it held");
    dl_result_free(&got);
    memset(&got, 0, sizeof got);
    /* the record a partial build reads: there whether or not the key matches */
    RecordSeen seen = {0};
    DlCacheRecord record = {.source = see_source, .defines = see_name, .ctx = &seen};
    cr_assert_not(dl_cache_load_record(results, "a.py", 2, &now, &got, &record), "another key");
    cr_assert(record.found);
    cr_assert(record.workers_may_touch_devices);
    cr_assert_eq(seen.count, 2);
    cr_assert_str_eq(seen.paths[0], "b.py");
    cr_assert_str_eq(seen.paths[1], "c.py");
    cr_assert_eq(seen.name_count, 3);
    cr_assert_str_eq(seen.names[0], "c:Net");
    cr_assert_str_eq(seen.names[1], "f:make");
    cr_assert_str_eq(seen.names[2], "f:train");
    DlCacheRecord none = {.source = see_source, .ctx = &seen};
    cr_assert_not(dl_cache_load_record(results, "z.py", 1, &now, &got, &none));
    cr_assert_not(none.found, "no entry, no record");
    const char *gone[] = {"gone.py"};
    DlCacheSources from_gone = {.paths = gone, .content_hashes = hashes, .count = 1};
    dl_cache_store(results, "a.py", 1, &r, NULL, 0, &from_gone);
    cr_assert_not(dl_cache_load(results, "a.py", 1, &now, &got, NULL), "a file no longer checked");
    dl_result_free(&r);
    dl_keep_free(keep);
}

/* A project over `modules`, kept under key 99 with `serials`. */
static void keep_project(DlKeep *keep, DlModuleIR **modules, const uint64_t *serials) {
    DlProject p = {0};
    dl_project_build(&p, modules, 2, 1, NULL);
    dl_keep_put_project(keep, &p, 99, serials, 2);
    cr_assert_null(p.files, "putting moves the project");
}

Test(keep, a_project_is_taken_back_for_the_same_key_and_models_only) {
    DlKeep *keep = dl_keep_new();
    DlKeptModel m;
    lower(&m, 5);
    DlModuleIR *modules[2] = {m.module, NULL};
    uint64_t serials[2] = {dl_keep_put_model(keep, "pkg/net.py", &m), 0};
    cr_assert_neq(serials[0], 0, "a kept model gets a serial");
    uint64_t other[2] = {serials[0] + 1, 0};
    DlProject back = {0};
    keep_project(keep, modules, serials);
    cr_assert_not(dl_keep_take_project(keep, 99, serials, 1, &back), "another file list");
    cr_assert_not(dl_keep_take_project(keep, 99, serials, 2, &back), "a mismatch frees it");
    keep_project(keep, modules, serials);
    cr_assert_not(dl_keep_take_project(keep, 99, other, 2, &back), "another model of the file");
    keep_project(keep, modules, serials);
    cr_assert_not(dl_keep_take_project(keep, 98, serials, 2, &back), "another key");
    keep_project(keep, modules, serials);
    cr_assert(dl_keep_take_project(keep, 99, serials, 2, &back));
    cr_assert_eq(back.file_count, 2);
    cr_assert_eq(back.files[0].module, modules[0], "built over that model");
    cr_assert_not(dl_keep_take_project(keep, 99, serials, 2, &back), "taken: no longer kept");
    dl_project_free(&back);
    dl_keep_free(keep);
}

Test(keep, a_rewound_project_is_as_its_build_left_it) {
    DlKeptModel m;
    lower(&m, 5);
    DlModuleIR *modules[1] = {m.module};
    DlProject p = {0};
    dl_project_build(&p, modules, 1, 1, NULL);
    DlClassInfo *net = p.files[0].classes[0];
    cr_assert_not(net->loaded_with_workers);
    net->loaded_with_workers = true; /* a leaf's DataLoader, in the check that built it */
    m.module->facts = NULL; /* as taking the model back leaves it */
    m.module->classes[0]->facts = NULL;
    m.module->functions[0]->facts = NULL;
    DlInterner names;
    dl_interner_init(&names, NULL);
    DlProjectLeaves leaves = {.mentioned_names = &names};
    dl_project_rewind(&p, &leaves);
    cr_assert_not(net->loaded_with_workers, "the marks of the last check are gone");
    cr_assert_eq(m.module->facts, &p.files[0]);
    cr_assert_eq(m.module->classes[0]->facts, net);
    cr_assert_eq(m.module->functions[0]->facts, p.files[0].functions[0]);
    cr_assert_eq(p.mentioned_names, &names);
    dl_interner_free(&names);
    dl_project_free(&p);
    dl_arena_release(&m.arena);
    dl_source_free(&m.source);
}

Test(keep, a_read_is_recalled_for_the_same_identity_on_disk_only) {
    DlKeep *keep = dl_keep_new();
    DlSource src;
    char *error = NULL;
    cr_assert(dl_source_from_bytes(&src, "net.py", TEXT, strlen(TEXT), 0, &error));
    DlKeptRead read = {.content_hash = 11, .relevant = true};
    dl_sharing_file_scan(&read.scan, &src, NULL);
    struct stat st = {.st_dev = 1, .st_ino = 2, .st_size = (off_t)strlen(TEXT)};
    st.st_mtim.tv_sec = 100;
    dl_keep_note_read(keep, "net.py", &st, &read); /* copies the scan */
    DlKeptRead back;
    cr_assert(dl_keep_recall_read(keep, "net.py", &st, &back));
    cr_assert_eq(back.content_hash, 11);
    cr_assert_eq(back.scan.class_count, 1);
    cr_assert_str_eq(back.scan.names, "Net");
    cr_assert_neq(back.scan.names, read.scan.names, "the caller gets its own copy");
    dl_sharing_file_free(&back.scan);
    struct stat changed = st;
    changed.st_mtim.tv_nsec = 1; /* saved again within the same second */
    cr_assert_not(dl_keep_recall_read(keep, "net.py", &changed, &back));
    changed = st;
    changed.st_ino = 3; /* replaced by another file (an editor's atomic save) */
    cr_assert_not(dl_keep_recall_read(keep, "net.py", &changed, &back));
    dl_keep_sweep(keep); /* recalled in this check: kept */
    dl_keep_sweep(keep); /* not read in this one (the file is gone) */
    cr_assert_not(dl_keep_recall_read(keep, "net.py", &st, &back));
    dl_sharing_file_free(&read.scan);
    dl_source_free(&src);
    dl_keep_free(keep);
}

Test(keep, results_a_check_did_not_use_are_let_go) {
    DlKeep *keep = dl_keep_new();
    DlCache *results = dl_keep_results(keep);
    DlResult r = {0}, got = {0};
    r.files_checked = 1;
    dl_cache_store(results, "a.py", 1, &r, NULL, 0, NULL);
    dl_cache_store(results, "gone.py", 1, &r, NULL, 0, NULL);
    dl_keep_sweep(keep); /* both stored in this check */
    cr_assert(dl_cache_load(results, "a.py", 1, NULL, &got, NULL)); /* the next check looks a.py up only */
    dl_result_free(&got);
    memset(&got, 0, sizeof got);
    dl_keep_sweep(keep);
    cr_assert(dl_cache_load(results, "a.py", 1, NULL, &got, NULL));
    dl_result_free(&got);
    memset(&got, 0, sizeof got);
    cr_assert_not(dl_cache_load(results, "gone.py", 1, NULL, &got, NULL), "not used by the last check");
    dl_keep_free(keep);
}
