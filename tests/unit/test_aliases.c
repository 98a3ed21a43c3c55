/* Unit tests for driver/aliases: which path reports a file reached through several, and how the
 * results of its other paths fold into that one. (The command line's end-to-end cases, with real
 * symlinks and --fix, are in tests/cli/test_cli.py, class Links.) */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "driver/aliases.h"
#include "rules/rule.h"

static const DlRule rule_101 = {.code = "DL101", .name = "unassigned-to"};
static const DlRule rule_102 = {.code = "DL102", .name = "factory-without-device"};

static void add(DlResult *r, const DlRule *rule, const char *path, int line, const char *message) {
    dl_result_add_diag(r, (DlDiag){.rule = rule,
                                   .path = strdup(path),
                                   .line = line,
                                   .column = 1,
                                   .end_line = line,
                                   .end_column = 2,
                                   .message = strdup(message)});
}

/* Paths that do not exist: lstat fails, so no path counts as "not a symlink" and the first in
 * order reports the file. */
Test(aliases, a_file_reached_once_has_no_aliases) {
    char *paths[] = {"x/a.py", "x/b.py"};
    DlFileIdentity ids[] = {{1, 10, true}, {1, 11, true}};
    cr_assert_null(dl_aliases_find(paths, ids, 2));
}

Test(aliases, the_first_path_in_order_reports_a_file_none_of_whose_paths_is_its_own) {
    char *paths[] = {"z/m.py", "other.py", "a/m.py"};
    DlFileIdentity ids[] = {{1, 7, true}, {1, 8, true}, {1, 7, true}};
    size_t *alias_of = dl_aliases_find(paths, ids, 3);
    cr_assert_not_null(alias_of);
    cr_assert_eq(alias_of[0], 2); /* "a/m.py" < "z/m.py" */
    cr_assert_eq(alias_of[1], DL_NOT_AN_ALIAS);
    cr_assert_eq(alias_of[2], DL_NOT_AN_ALIAS);
    free(alias_of);
}

Test(aliases, text_not_from_the_disk_is_never_an_alias) {
    char *paths[] = {"a/m.py", "b/m.py"};
    DlFileIdentity ids[] = {{1, 7, true}, {1, 7, false}}; /* b/m.py: an unsaved buffer */
    cr_assert_null(dl_aliases_find(paths, ids, 2));
}

Test(aliases, same_dev_other_inode_and_same_inode_other_dev_are_other_files) {
    char *paths[] = {"a.py", "b.py", "c.py"};
    DlFileIdentity ids[] = {{1, 7, true}, {1, 8, true}, {2, 7, true}};
    cr_assert_null(dl_aliases_find(paths, ids, 3));
}

Test(aliases, an_aliases_findings_move_to_its_file_and_each_place_is_reported_once) {
    char *paths[] = {"a/m.py", "b/m.py", "helper.py"};
    size_t alias_of[] = {DL_NOT_AN_ALIAS, 0, DL_NOT_AN_ALIAS};
    DlResult out = {0}, aliased = {0};
    add(&out, &rule_101, "a/m.py", 7, "x is on the cpu (line 6: a batch from `loader`)");
    out.files_checked = 2;
    dl_result_sort(&out);
    /* the same place, worded from the other path's context: dropped */
    add(&aliased, &rule_101, "b/m.py", 7, "x is on the cpu (line 6: a batch from `data`)");
    /* only the other context sees this one: kept, at the file's path */
    add(&aliased, &rule_102, "b/m.py", 9, "meets the module's device");
    /* placed in another file by the alias's analysis, as by the file's own: once */
    add(&out, &rule_102, "helper.py", 3, "meets the model's device");
    add(&aliased, &rule_102, "helper.py", 3, "meets the model's device (line 9)");
    dl_result_add_error(&aliased, "b/m.py", "too large");
    aliased.files_checked = 1;
    dl_aliases_fold(&out, &aliased, paths, alias_of, 3);

    cr_assert_eq(out.diag_count, 3);
    cr_assert_str_eq(out.diags[0].path, "a/m.py");
    cr_assert_eq(out.diags[0].line, 7);
    cr_assert(strstr(out.diags[0].message, "`loader`"), "the file's own wording is kept");
    cr_assert_str_eq(out.diags[1].path, "a/m.py");
    cr_assert_eq(out.diags[1].line, 9);
    cr_assert_str_eq(out.diags[2].path, "helper.py");
    cr_assert_str_eq(out.diags[2].message, "meets the model's device");
    cr_assert_eq(out.error_count, 1);
    cr_assert_str_eq(out.errors[0].path, "a/m.py");
    cr_assert_eq(out.files_checked, 2, "the file is counted once");
    cr_assert_eq(aliased.diag_count, 0);
    cr_assert_eq(aliased.error_count, 0);
    dl_result_free(&out);
    dl_result_free(&aliased);
}

Test(aliases, two_aliases_reporting_one_place_give_one_finding) {
    char *paths[] = {"a/m.py", "b/m.py", "c/m.py"};
    size_t alias_of[] = {DL_NOT_AN_ALIAS, 0, 0};
    DlResult out = {0}, aliased = {0};
    add(&aliased, &rule_102, "c/m.py", 4, "from c");
    add(&aliased, &rule_102, "b/m.py", 4, "from b");
    dl_result_add_error(&aliased, "b/m.py", "syntax error at line 1, column 1");
    dl_result_add_error(&aliased, "c/m.py", "syntax error at line 1, column 1");
    dl_aliases_fold(&out, &aliased, paths, alias_of, 3);
    cr_assert_eq(out.diag_count, 1);
    cr_assert_str_eq(out.diags[0].path, "a/m.py");
    cr_assert_eq(out.error_count, 1);
    cr_assert_str_eq(out.errors[0].path, "a/m.py");
    dl_result_free(&out);
    dl_result_free(&aliased);
}
