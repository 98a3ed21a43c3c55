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
    cr_assert_not(dl_cache_load(results, "a.py", 1, &got));
    dl_cache_store(results, "a.py", 1, &r, NULL, 0);
    cr_assert_not(dl_cache_load(results, "a.py", 2, &got), "another key: a miss");
    cr_assert_not(dl_cache_load(results, "b.py", 1, &got));
    cr_assert(dl_cache_load(results, "a.py", 1, &got));
    cr_assert_eq(got.error_count, 1);
    cr_assert_str_eq(got.errors[0].message, "syntax error at line 1, column 1");
    cr_assert_eq(got.files_checked, 1);
    dl_result_free(&got);
    memset(&got, 0, sizeof got);
    dl_cache_store(results, "a.py", 2, &r, NULL, 0); /* replaces the entry */
    cr_assert_not(dl_cache_load(results, "a.py", 1, &got));
    dl_result_free(&r);
    dl_keep_free(keep);
}
