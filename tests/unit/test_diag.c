/* Unit tests for core/diag: ownership, merging, the deterministic order and deduplication. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "rules/rule.h"

static const DlRule rule_101 = {.code = "DL101", .name = "unassigned-to", .severity = DL_SEV_ERROR};
static const DlRule rule_102 = {.code = "DL102", .name = "factory-without-device"};
static const DlRule rule_201 = {
    .code = "DL201", .name = "host-sync-in-loop", .severity = DL_SEV_WARNING};

static DlDiag make_diag(const DlRule *rule, const char *path, int line, int column,
                        const char *message) {
    return (DlDiag){
        .rule = rule,
        .path = strdup(path),
        .line = line,
        .column = column,
        .end_line = line,
        .end_column = column + 1,
        .message = strdup(message),
    };
}

static void add(DlResult *r, const DlRule *rule, const char *path, int line, int column,
                const char *message) {
    dl_result_add_diag(r, make_diag(rule, path, line, column, message));
}

/* "path:line:col:code" of finding i, to compare orders in one assertion. */
static const char *key(const DlResult *r, size_t i) {
    static char buf[256];
    const DlDiag *d = &r->diags[i];
    snprintf(buf, sizeof buf, "%s:%d:%d:%s", d->path, d->line, d->column, d->rule->code);
    return buf;
}

Test(diag, add_keeps_every_field_and_grows) {
    DlResult r = {0};
    for (int i = 0; i < 100; i++)
        add(&r, &rule_101, "a.py", i + 1, 5, "m");
    cr_assert_eq(r.diag_count, 100);
    cr_assert_geq(r.diag_cap, 100);
    cr_assert_eq(r.diags[99].line, 100);
    cr_assert_eq(r.diags[99].column, 5);
    cr_assert_eq(r.diags[99].rule, &rule_101);
    cr_assert_str_eq(r.diags[0].path, "a.py");
    dl_result_free(&r);
    cr_assert_eq(r.diag_count, 0);
    cr_assert_null(r.diags);
}

Test(diag, sort_orders_by_path_line_column_code) {
    DlResult r = {0};
    add(&r, &rule_201, "b.py", 1, 1, "m");
    add(&r, &rule_101, "a.py", 10, 1, "m");
    add(&r, &rule_102, "a.py", 2, 7, "m");
    add(&r, &rule_101, "a.py", 2, 7, "m");
    add(&r, &rule_101, "a.py", 2, 3, "m");
    add(&r, &rule_101, "B.py", 99, 1, "m"); /* strcmp: upper case sorts first */
    dl_result_sort(&r);
    const char *want[] = {"B.py:99:1:DL101", "a.py:2:3:DL101",  "a.py:2:7:DL101",
                          "a.py:2:7:DL102",  "a.py:10:1:DL101", "b.py:1:1:DL201"};
    cr_assert_eq(r.diag_count, 6);
    for (size_t i = 0; i < 6; i++)
        cr_assert_str_eq(key(&r, i), want[i], "index %zu", i);
    dl_result_free(&r);
}

Test(diag, sort_drops_exact_duplicates_only) {
    DlResult r = {0};
    add(&r, &rule_101, "a.py", 3, 5, "x is discarded");
    add(&r, &rule_101, "a.py", 3, 5, "x is discarded"); /* duplicate */
    add(&r, &rule_101, "a.py", 3, 5, "y is discarded"); /* other message */
    add(&r, &rule_102, "a.py", 3, 5, "x is discarded"); /* other rule */
    add(&r, &rule_101, "a.py", 3, 6, "x is discarded"); /* other column */
    add(&r, &rule_101, "b.py", 3, 5, "x is discarded"); /* other path */
    add(&r, &rule_101, "a.py", 3, 5, "x is discarded"); /* duplicate */
    dl_result_sort(&r);
    cr_assert_eq(r.diag_count, 5);
    cr_assert_str_eq(r.diags[0].message, "x is discarded");
    cr_assert_str_eq(r.diags[1].message, "y is discarded");
    cr_assert_str_eq(key(&r, 2), "a.py:3:5:DL102");
    cr_assert_str_eq(key(&r, 3), "a.py:3:6:DL101");
    cr_assert_str_eq(key(&r, 4), "b.py:3:5:DL101");
    dl_result_free(&r);
}

Test(diag, duplicate_with_fix_is_the_one_kept) {
    DlResult r = {0};
    add(&r, &rule_101, "a.py", 1, 1, "m");
    DlDiag with_fix = make_diag(&rule_101, "a.py", 1, 1, "m");
    with_fix.fix = dl_fix_new("Assign the result", 1);
    with_fix.fix->edits[0].text = strdup("x = ");
    dl_result_add_diag(&r, with_fix);
    add(&r, &rule_101, "a.py", 1, 1, "m");
    dl_result_sort(&r);
    cr_assert_eq(r.diag_count, 1);
    cr_assert_not_null(r.diags[0].fix);
    cr_assert_str_eq(r.diags[0].fix->title, "Assign the result");
    dl_result_free(&r);
}

Test(diag, sort_of_empty_result_is_a_no_op) {
    DlResult r = {0};
    dl_result_sort(&r);
    cr_assert_eq(r.diag_count, 0);
    cr_assert_eq(r.error_count, 0);
    dl_result_free(&r);
}

Test(diag, errors_are_copied_and_sorted_by_path) {
    DlResult r = {0};
    char path[] = "z.py", message[] = "binary file (NUL byte at offset 12)";
    dl_result_add_error(&r, path, message);
    path[0] = 'q'; /* the result owns its own copy */
    dl_result_add_error(&r, "a.py", "not valid UTF-8 (line 3, byte 0xff)");
    dl_result_add_error(&r, "m.py", "cannot read: Permission denied");
    dl_result_sort(&r);
    cr_assert_eq(r.error_count, 3);
    cr_assert_str_eq(r.errors[0].path, "a.py");
    cr_assert_str_eq(r.errors[1].path, "m.py");
    cr_assert_str_eq(r.errors[2].path, "z.py");
    cr_assert_str_eq(r.errors[2].message, "binary file (NUL byte at offset 12)");
    dl_result_free(&r);
}

Test(diag, merge_moves_everything_and_empties_the_source) {
    DlResult into = {0}, from = {0};
    into.files_checked = 2;
    add(&into, &rule_101, "a.py", 1, 1, "first");
    from.files_checked = 3;
    for (int i = 0; i < 20; i++)
        add(&from, &rule_201, "b.py", i + 1, 1, "moved");
    dl_result_add_error(&from, "c.py", "unparsable");
    dl_result_merge(&into, &from);
    cr_assert_eq(into.diag_count, 21);
    cr_assert_eq(into.error_count, 1);
    cr_assert_eq(into.files_checked, 5);
    cr_assert_str_eq(into.diags[0].message, "first");
    cr_assert_str_eq(into.diags[20].message, "moved");
    cr_assert_eq(into.diags[20].line, 20);
    cr_assert_str_eq(into.errors[0].path, "c.py");
    cr_assert_eq(from.diag_count, 0);
    cr_assert_eq(from.error_count, 0);
    cr_assert_eq(from.files_checked, 0);
    cr_assert_null(from.diags);
    cr_assert_null(from.errors);
    dl_result_merge(&into, &from); /* merging an empty result changes nothing */
    cr_assert_eq(into.diag_count, 21);
    dl_result_free(&from);
    dl_result_free(&into);
}

Test(diag, fix_new_copies_title_and_zeroes_edits) {
    char title[] = "Assign the result: `x = x.to(device)`";
    DlFix *fix = dl_fix_new(title, 2);
    title[0] = '!';
    cr_assert_str_eq(fix->title, "Assign the result: `x = x.to(device)`");
    cr_assert_eq(fix->edit_count, 2);
    for (size_t i = 0; i < 2; i++) {
        cr_assert_eq(fix->edits[i].line, 0);
        cr_assert_eq(fix->edits[i].end_column, 0);
        cr_assert_null(fix->edits[i].text);
    }
    DlDiag d = make_diag(&rule_101, "a.py", 1, 1, "m");
    d.fix = fix;
    fix->edits[1].text = strdup("x = ");
    dl_diag_free(&d); /* frees the fix, its edits and their text (checked by ASan) */
    cr_assert_null(d.fix);
    cr_assert_null(d.path);
    cr_assert_null(d.message);
}

Test(diag, diag_free_accepts_an_empty_diag) {
    DlDiag d = {0};
    dl_diag_free(&d);
    cr_assert_null(d.source_line);
}

Test(diag, severity_names) {
    cr_assert_str_eq(dl_severity_name(DL_SEV_ERROR), "error");
    cr_assert_str_eq(dl_severity_name(DL_SEV_WARNING), "warning");
    cr_assert_str_eq(dl_severity_name(DL_SEV_INFO), "info");
}
