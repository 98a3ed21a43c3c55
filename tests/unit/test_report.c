/* Unit tests for report/: exact text and GitHub output, parsed JSON, SARIF and GitLab fields,
 * fingerprints. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "rules/rule.h"

static const DlRule rule_101 = {
    .code = "DL101",
    .name = "unassigned-to",
    .severity = DL_SEV_ERROR,
    .fixable = true,
    .summary = "`.to()` result thrown away",
    .doc = "## What it does\nFinds discarded `.to()` copies.",
};
static const DlRule rule_201 = {
    .code = "DL201",
    .name = "host-sync-in-loop",
    .severity = DL_SEV_WARNING,
    .summary = "Host sync every iteration",
    .doc = "## What it does\nFinds `.item()` in loops.",
};
static const DlRule rule_301 = {
    .code = "DL301",
    .name = "hardcoded-cuda",
    .severity = DL_SEV_INFO,
    .summary = "Hard-coded cuda",
    .doc = "## What it does\nFinds `.cuda()`.",
};

static const DlReportOptions plain = {.tool_version = "0.1.0"};

static DlDiag make_diag(const DlRule *rule, const char *path, int line, int column, int end_column,
                        const char *message, const char *source_line) {
    return (DlDiag){
        .rule = rule,
        .path = strdup(path),
        .line = line,
        .column = column,
        .end_line = line,
        .end_column = end_column,
        .message = strdup(message),
        .source_line = source_line ? strdup(source_line) : NULL,
    };
}

static DlFix *make_fix(const char *title, int line, int column, int end_column, const char *text) {
    DlFix *fix = dl_fix_new(title, 1);
    fix->edits[0] = (DlEdit){line, column, line, end_column, strdup(text), 0};
    return fix;
}

/* One DL101 with a fix and excerpt: the shape most tests start from. */
static DlDiag diag_101(const char *path, int line) {
    DlDiag d = make_diag(&rule_101, path, line, 5, 17, "x.to(device) is discarded; x stays on cpu",
                         "    x.to(device)");
    d.fix = make_fix("Assign the result: `x = x.to(device)`", line, 5, 5, "x = ");
    return d;
}

typedef void (*Writer)(FILE *, const DlResult *, const DlReportOptions *);

/* Runs a writer into memory and returns what it printed (caller frees). */
static char *capture(Writer w, const DlResult *r, const DlReportOptions *opts) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    w(f, r, opts);
    fclose(f);
    return buf;
}

static void assert_output(Writer w, const DlResult *r, const DlReportOptions *opts,
                          const char *want) {
    char *got = capture(w, r, opts);
    cr_assert_str_eq(got, want);
    free(got);
}

/* Looks up a dotted path ("runs.0.tool.driver.name"); numeric segments index arrays. */
static const cJSON *jget(const cJSON *node, const char *path) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *seg = strtok(buf, "."); seg && node; seg = strtok(NULL, ".")) {
        if (cJSON_IsArray(node))
            node = cJSON_GetArrayItem(node, atoi(seg));
        else
            node = cJSON_GetObjectItemCaseSensitive(node, seg);
    }
    cr_assert_not_null(node, "no JSON value at %s", path);
    return node;
}

static const char *jstr(const cJSON *root, const char *path) {
    const cJSON *v = jget(root, path);
    cr_assert(cJSON_IsString(v), "%s is not a string", path);
    return v->valuestring;
}

static int jint(const cJSON *root, const char *path) {
    const cJSON *v = jget(root, path);
    cr_assert(cJSON_IsNumber(v), "%s is not a number", path);
    return v->valueint;
}

static bool jhas(const cJSON *obj, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(obj, key) != NULL;
}

static cJSON *parse_output(Writer w, const DlResult *r) {
    char *text = capture(w, r, &plain);
    size_t n = strlen(text);
    cr_assert(n > 0 && text[n - 1] == '\n', "output must end with a newline");
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root, "not JSON:\n%s", text);
    free(text);
    return root;
}

/* ---- format names ---- */

Test(report, format_parse) {
    DlFormat f = DL_FORMAT_TEXT;
    cr_assert(dl_format_parse("json", &f));
    cr_assert_eq(f, DL_FORMAT_JSON);
    cr_assert(dl_format_parse("sarif", &f));
    cr_assert_eq(f, DL_FORMAT_SARIF);
    cr_assert(dl_format_parse("github", &f));
    cr_assert_eq(f, DL_FORMAT_GITHUB);
    cr_assert(dl_format_parse("gitlab", &f));
    cr_assert_eq(f, DL_FORMAT_GITLAB);
    cr_assert(dl_format_parse("text", &f));
    cr_assert_eq(f, DL_FORMAT_TEXT);
    f = DL_FORMAT_SARIF;
    cr_assert_not(dl_format_parse("JSON", &f));
    cr_assert_not(dl_format_parse("xml", &f));
    cr_assert_not(dl_format_parse("", &f));
    cr_assert_not(dl_format_parse(NULL, &f));
    cr_assert_eq(f, DL_FORMAT_SARIF, "a failed parse leaves the output alone");
}

/* ---- text ---- */

Test(text, one_finding_with_excerpt_and_help) {
    DlResult r = {0};
    dl_result_add_diag(&r, diag_101("train.py", 12));
    assert_output(dl_report_text, &r, &plain,
                  "train.py:12:5: DL101 [unassigned-to] x.to(device) is discarded; x stays on cpu\n"
                  "        x.to(device)\n"
                  "        ^^^^^^^^^^^^\n"
                  "  help: Assign the result: `x = x.to(device)`\n"
                  "\n"
                  "Found 1 problem in 1 file (1 fixable).\n");
    dl_result_free(&r);
}

Test(text, summary_counts_problems_files_and_fixable) {
    DlResult r = {0};
    dl_result_add_diag(&r, diag_101("b.py", 3));
    dl_result_add_diag(&r, make_diag(&rule_201, "a.py", 7, 9, 17, "loss.item() syncs", NULL));
    dl_result_add_diag(&r, make_diag(&rule_201, "b.py", 9, 1, 2, "print(t) syncs", NULL));
    dl_result_sort(&r);
    assert_output(dl_report_text, &r, &plain,
                  "a.py:7:9: DL201 [host-sync-in-loop] loss.item() syncs\n"
                  "\n"
                  "b.py:3:5: DL101 [unassigned-to] x.to(device) is discarded; x stays on cpu\n"
                  "        x.to(device)\n"
                  "        ^^^^^^^^^^^^\n"
                  "  help: Assign the result: `x = x.to(device)`\n"
                  "\n"
                  "b.py:9:1: DL201 [host-sync-in-loop] print(t) syncs\n"
                  "\n"
                  "Found 3 problems in 2 files (1 fixable).\n");
    dl_result_free(&r);
}

Test(text, file_count_does_not_need_sorted_input) {
    DlResult r = {0};
    dl_result_add_diag(&r, make_diag(&rule_201, "a.py", 1, 1, 2, "m", NULL));
    dl_result_add_diag(&r, make_diag(&rule_201, "b.py", 1, 1, 2, "m", NULL));
    dl_result_add_diag(&r, make_diag(&rule_201, "a.py", 2, 1, 2, "m", NULL));
    DlReportOptions stats = {.statistics = true};
    assert_output(dl_report_text, &r, &stats,
                  "3\tDL201\t[host-sync-in-loop]\n"
                  "Found 3 problems in 2 files (0 fixable).\n");
    dl_result_free(&r);
}

Test(text, nothing_found) {
    DlResult r = {.files_checked = 4};
    assert_output(dl_report_text, &r, &plain, "All checks passed!\n");
    DlReportOptions quiet = {.quiet = true};
    assert_output(dl_report_text, &r, &quiet, "");
}

Test(text, nothing_found_but_files_unchecked_is_not_all_passed) {
    DlResult r = {.files_checked = 1};
    dl_result_add_error(&r, "bad.py", "syntax error at line 1, column 5");
    assert_output(dl_report_text, &r, &plain,
                  "No problems found in the files that were checked.\n"
                  "1 file could not be checked in full (see the errors above).\n");
    dl_result_free(&r);
}

Test(text, quiet_prints_findings_without_summary) {
    DlResult r = {0};
    dl_result_add_diag(&r, make_diag(&rule_101, "a.py", 2, 1, 13, "m", NULL));
    DlReportOptions quiet = {.quiet = true};
    assert_output(dl_report_text, &r, &quiet, "a.py:2:1: DL101 [unassigned-to] m\n\n");
    dl_result_free(&r);
}

/* Columns count code points: "é" is two bytes but one column, "😀" four bytes, one column. */
Test(text, underline_counts_code_points) {
    DlResult r = {0};
    const char *line = "s = \"é😀\"; x.to(d)";
    dl_result_add_diag(&r, make_diag(&rule_101, "u.py", 1, 11, 18, "m", line));
    assert_output(dl_report_text, &r, &(DlReportOptions){.quiet = true},
                  "u.py:1:11: DL101 [unassigned-to] m\n"
                  "    s = \"é😀\"; x.to(d)\n"
                  "              ^^^^^^^\n"
                  "\n");
    dl_result_free(&r);
}

Test(text, underline_keeps_tabs_so_it_aligns) {
    DlResult r = {0};
    dl_result_add_diag(&r, make_diag(&rule_101, "t.py", 1, 3, 10, "m", "\t\tx.to(d)"));
    assert_output(dl_report_text, &r, &(DlReportOptions){.quiet = true},
                  "t.py:1:3: DL101 [unassigned-to] m\n"
                  "    \t\tx.to(d)\n"
                  "    \t\t^^^^^^^\n"
                  "\n");
    dl_result_free(&r);
}

Test(text, underline_edge_cases) {
    DlResult r = {0};
    /* runs on past this line: underline to its end */
    DlDiag multi = make_diag(&rule_101, "e.py", 1, 5, 2, "multi", "x = f('é',");
    multi.end_line = 3;
    dl_result_add_diag(&r, multi);
    /* empty span: one caret at the column */
    dl_result_add_diag(&r, make_diag(&rule_101, "e.py", 2, 3, 3, "empty", "abcdef"));
    /* column past the end of the line: one caret after it */
    dl_result_add_diag(&r, make_diag(&rule_101, "e.py", 3, 9, 10, "past", "ab"));
    assert_output(dl_report_text, &r, &(DlReportOptions){.quiet = true},
                  "e.py:1:5: DL101 [unassigned-to] multi\n"
                  "    x = f('é',\n"
                  "        ^^^^^^\n"
                  "\n"
                  "e.py:2:3: DL101 [unassigned-to] empty\n"
                  "    abcdef\n"
                  "      ^\n"
                  "\n"
                  "e.py:3:9: DL101 [unassigned-to] past\n"
                  "    ab\n"
                  "      ^\n"
                  "\n");
    dl_result_free(&r);
}

Test(text, color_marks_path_and_code_by_severity) {
    DlResult r = {0};
    dl_result_add_diag(&r, make_diag(&rule_101, "a.py", 1, 1, 3, "e", "ab"));
    dl_result_add_diag(&r, make_diag(&rule_201, "a.py", 2, 1, 2, "w", NULL));
    dl_result_add_diag(&r, make_diag(&rule_301, "a.py", 3, 1, 2, "i", NULL));
    DlReportOptions color = {.color = true};
    assert_output(dl_report_text, &r, &color,
                  "\x1b[1ma.py\x1b[0m:1:1: \x1b[1;31mDL101\x1b[0m [unassigned-to] e\n"
                  "    ab\n"
                  "    \x1b[1;31m^^\x1b[0m\n"
                  "\n"
                  "\x1b[1ma.py\x1b[0m:2:1: \x1b[1;33mDL201\x1b[0m [host-sync-in-loop] w\n"
                  "\n"
                  "\x1b[1ma.py\x1b[0m:3:1: \x1b[1;36mDL301\x1b[0m [hardcoded-cuda] i\n"
                  "\n"
                  "Found 3 problems in 1 file (0 fixable).\n");
    char *no_color = capture(dl_report_text, &r, &plain);
    cr_assert_null(strchr(no_color, '\x1b'), "no escape codes without opts->color");
    free(no_color);
    dl_result_free(&r);
}

Test(text, statistics_sorted_by_count_then_code) {
    DlResult r = {0};
    dl_result_add_diag(&r, make_diag(&rule_301, "a.py", 1, 1, 2, "m", NULL));
    dl_result_add_diag(&r, diag_101("a.py", 2));
    dl_result_add_diag(&r, make_diag(&rule_201, "b.py", 3, 1, 2, "m", NULL));
    dl_result_add_diag(&r, make_diag(&rule_201, "b.py", 4, 1, 2, "m", NULL));
    dl_result_add_diag(&r, make_diag(&rule_101, "c.py", 5, 1, 2, "m", NULL));
    DlReportOptions stats = {.statistics = true};
    assert_output(dl_report_text, &r, &stats,
                  "2\tDL101\t[unassigned-to]\t(fixable)\n"
                  "2\tDL201\t[host-sync-in-loop]\n"
                  "1\tDL301\t[hardcoded-cuda]\n"
                  "Found 5 problems in 3 files (1 fixable).\n");
    stats.quiet = true;
    assert_output(dl_report_text, &r, &stats,
                  "2\tDL101\t[unassigned-to]\t(fixable)\n"
                  "2\tDL201\t[host-sync-in-loop]\n"
                  "1\tDL301\t[hardcoded-cuda]\n");
    dl_result_free(&r);
}

/* Writes through dl_report_write and returns (out, err). */
static void capture_write(DlFormat format, const DlResult *r, char **out, char **err) {
    size_t n1, n2;
    FILE *fo = open_memstream(out, &n1), *fe = open_memstream(err, &n2);
    dl_report_write(fo, fe, format, r, &plain);
    fclose(fo);
    fclose(fe);
}

Test(text, write_sends_file_errors_to_err) {
    DlResult r = {0};
    dl_result_add_diag(&r, make_diag(&rule_101, "a.py", 1, 1, 2, "m", NULL));
    dl_result_add_error(&r, "bin.py", "binary file (NUL byte at offset 12)");
    dl_result_add_error(&r, "bad.py", "not valid UTF-8 (line 3, byte 0xff)");
    char *out, *err;
    capture_write(DL_FORMAT_TEXT, &r, &out, &err);
    cr_assert_str_eq(out, "a.py:1:1: DL101 [unassigned-to] m\n\n"
                          "Found 1 problem in 1 file (0 fixable).\n"
                          "2 files could not be checked in full (see the errors above).\n");
    cr_assert_str_eq(err, "devlint: error: bin.py: binary file (NUL byte at offset 12)\n"
                          "devlint: error: bad.py: not valid UTF-8 (line 3, byte 0xff)\n");
    free(out);
    free(err);
    dl_result_free(&r);
}

Test(report, machine_formats_keep_err_empty) {
    DlResult r = {0};
    dl_result_add_error(&r, "bin.py", "binary file");
    DlFormat formats[] = {DL_FORMAT_JSON, DL_FORMAT_SARIF, DL_FORMAT_GITHUB, DL_FORMAT_GITLAB};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        char *out, *err;
        capture_write(formats[i], &r, &out, &err);
        cr_assert_str_eq(err, "", "format %zu", i);
        cr_assert_not_null(strstr(out, "bin.py"), "format %zu carries the error", i);
        free(out);
        free(err);
    }
    dl_result_free(&r);
}

/* ---- JSON ---- */

Test(json, document_fields) {
    DlResult r = {.files_checked = 7};
    dl_result_add_diag(&r, diag_101("src/train.py", 12));
    dl_result_add_diag(&r, make_diag(&rule_201, "src/é.py", 3, 2, 9, "t on cuda \"x\"\n", NULL));
    dl_result_add_error(&r, "bin.py", "binary file (NUL byte at offset 12)");
    cJSON *root = parse_output(dl_report_json, &r);
    cr_assert_str_eq(jstr(root, "version"), "0.1.0");
    cr_assert_eq(jint(root, "files_checked"), 7);
    cr_assert_eq(cJSON_GetArraySize(jget(root, "findings")), 2);

    cr_assert_str_eq(jstr(root, "findings.0.code"), "DL101");
    cr_assert_str_eq(jstr(root, "findings.0.name"), "unassigned-to");
    cr_assert_str_eq(jstr(root, "findings.0.severity"), "error");
    cr_assert_str_eq(jstr(root, "findings.0.path"), "src/train.py");
    cr_assert_eq(jint(root, "findings.0.line"), 12);
    cr_assert_eq(jint(root, "findings.0.column"), 5);
    cr_assert_eq(jint(root, "findings.0.end_line"), 12);
    cr_assert_eq(jint(root, "findings.0.end_column"), 17);
    cr_assert_str_eq(jstr(root, "findings.0.message"), "x.to(device) is discarded; x stays on cpu");
    cr_assert_str_eq(jstr(root, "findings.0.fix.title"), "Assign the result: `x = x.to(device)`");
    cr_assert_str_eq(jstr(root, "findings.0.fix.applicability"), "safe");
    cr_assert_eq(cJSON_GetArraySize(jget(root, "findings.0.fix.edits")), 1);
    cr_assert_eq(jint(root, "findings.0.fix.edits.0.line"), 12);
    cr_assert_eq(jint(root, "findings.0.fix.edits.0.column"), 5);
    cr_assert_eq(jint(root, "findings.0.fix.edits.0.end_line"), 12);
    cr_assert_eq(jint(root, "findings.0.fix.edits.0.end_column"), 5);
    cr_assert_str_eq(jstr(root, "findings.0.fix.edits.0.text"), "x = ");

    cr_assert_str_eq(jstr(root, "findings.1.severity"), "warning");
    cr_assert_str_eq(jstr(root, "findings.1.path"), "src/é.py");
    cr_assert_str_eq(jstr(root, "findings.1.message"), "t on cuda \"x\"\n");
    cr_assert(cJSON_IsNull(jget(root, "findings.1.fix")), "no fix is null, not absent");

    cr_assert_eq(cJSON_GetArraySize(jget(root, "errors")), 1);
    cr_assert_str_eq(jstr(root, "errors.0.path"), "bin.py");
    cr_assert_str_eq(jstr(root, "errors.0.message"), "binary file (NUL byte at offset 12)");
    cJSON_Delete(root);
    dl_result_free(&r);
}

Test(json, empty_result_has_empty_arrays) {
    DlResult r = {0};
    cJSON *root = parse_output(dl_report_json, &r);
    cr_assert(cJSON_IsArray(jget(root, "findings")));
    cr_assert_eq(cJSON_GetArraySize(jget(root, "findings")), 0);
    cr_assert_eq(cJSON_GetArraySize(jget(root, "errors")), 0);
    cr_assert_eq(jint(root, "files_checked"), 0);
    cJSON_Delete(root);
}

Test(json, output_is_stable) {
    DlResult r = {0};
    dl_result_add_diag(&r, diag_101("a.py", 1));
    char *a = capture(dl_report_json, &r, &plain), *b = capture(dl_report_json, &r, &plain);
    cr_assert_str_eq(a, b);
    cr_assert_eq(strncmp(a, "{\n\t\"version\":\t\"0.1.0\",\n", 22), 0, "got: %s", a);
    free(a);
    free(b);
    dl_result_free(&r);
}

/* ---- SARIF ---- */

Test(sarif, run_and_rule_metadata) {
    DlResult r = {0};
    dl_result_add_diag(&r, make_diag(&rule_301, "a.py", 1, 1, 2, "m", NULL));
    dl_result_add_diag(&r, diag_101("a.py", 2));
    dl_result_add_diag(&r, make_diag(&rule_101, "b.py", 3, 1, 2, "m", NULL));
    dl_result_add_diag(&r, make_diag(&rule_201, "b.py", 4, 1, 2, "m", NULL));
    cJSON *root = parse_output(dl_report_sarif, &r);
    cr_assert_str_eq(jstr(root, "$schema"), "https://json.schemastore.org/sarif-2.1.0.json");
    cr_assert_str_eq(jstr(root, "version"), "2.1.0");
    cr_assert_eq(cJSON_GetArraySize(jget(root, "runs")), 1);
    cr_assert_str_eq(jstr(root, "runs.0.tool.driver.name"), "devlint");
    cr_assert_str_eq(jstr(root, "runs.0.tool.driver.version"), "0.1.0");
    cr_assert_str_eq(jstr(root, "runs.0.tool.driver.informationUri"),
                     "https://github.com/devlint/devlint");
    cr_assert_str_eq(jstr(root, "runs.0.columnKind"), "unicodeCodePoints");

    /* distinct rules, sorted by code */
    cr_assert_eq(cJSON_GetArraySize(jget(root, "runs.0.tool.driver.rules")), 3);
    cr_assert_str_eq(jstr(root, "runs.0.tool.driver.rules.0.id"), "DL101");
    cr_assert_str_eq(jstr(root, "runs.0.tool.driver.rules.1.id"), "DL201");
    cr_assert_str_eq(jstr(root, "runs.0.tool.driver.rules.2.id"), "DL301");
    const cJSON *rule = jget(root, "runs.0.tool.driver.rules.0");
    cr_assert_str_eq(jstr(rule, "name"), "unassigned-to");
    cr_assert_str_eq(jstr(rule, "shortDescription.text"), "`.to()` result thrown away");
    cr_assert_str_eq(jstr(rule, "fullDescription.text"), "`.to()` result thrown away");
    cr_assert_str_eq(jstr(rule, "help.text"), rule_101.doc);
    cr_assert_str_eq(jstr(rule, "help.markdown"), rule_101.doc);
    cr_assert_str_eq(jstr(rule, "defaultConfiguration.level"), "error");
    cr_assert_str_eq(jstr(root, "runs.0.tool.driver.rules.1.defaultConfiguration.level"),
                     "warning");
    cr_assert_str_eq(jstr(root, "runs.0.tool.driver.rules.2.defaultConfiguration.level"), "note");

    /* every result's ruleIndex points at its rule */
    const cJSON *results = jget(root, "runs.0.results");
    cr_assert_eq(cJSON_GetArraySize(results), 4);
    const char *levels[] = {"note", "error", "error", "warning"};
    for (int i = 0; i < 4; i++) {
        const cJSON *res = cJSON_GetArrayItem(results, i);
        char path[64];
        snprintf(path, sizeof path, "runs.0.tool.driver.rules.%d.id", jint(res, "ruleIndex"));
        cr_assert_str_eq(jstr(root, path), jstr(res, "ruleId"), "result %d", i);
        cr_assert_str_eq(jstr(res, "level"), levels[i], "result %d", i);
    }
    cJSON_Delete(root);
    dl_result_free(&r);
}

Test(sarif, result_location_and_fix) {
    DlResult r = {0};
    dl_result_add_diag(&r, diag_101("src/train.py", 12));
    dl_result_add_diag(&r, make_diag(&rule_201, "src/loop.py", 3, 2, 9, "sync", NULL));
    cJSON *root = parse_output(dl_report_sarif, &r);
    const cJSON *res = jget(root, "runs.0.results.0");
    cr_assert_str_eq(jstr(res, "ruleId"), "DL101");
    cr_assert_str_eq(jstr(res, "message.text"), "x.to(device) is discarded; x stays on cpu");
    const cJSON *loc = jget(res, "locations.0.physicalLocation");
    cr_assert_str_eq(jstr(loc, "artifactLocation.uri"), "src/train.py");
    cr_assert_eq(jint(loc, "region.startLine"), 12);
    cr_assert_eq(jint(loc, "region.startColumn"), 5);
    cr_assert_eq(jint(loc, "region.endLine"), 12);
    cr_assert_eq(jint(loc, "region.endColumn"), 17);

    cr_assert_eq(cJSON_GetArraySize(jget(res, "fixes")), 1);
    const cJSON *fix = jget(res, "fixes.0");
    cr_assert_str_eq(jstr(fix, "description.text"), "Assign the result: `x = x.to(device)`");
    cr_assert_str_eq(jstr(fix, "artifactChanges.0.artifactLocation.uri"), "src/train.py");
    const cJSON *rep = jget(fix, "artifactChanges.0.replacements.0");
    cr_assert_eq(jint(rep, "deletedRegion.startLine"), 12);
    cr_assert_eq(jint(rep, "deletedRegion.startColumn"), 5);
    cr_assert_eq(jint(rep, "deletedRegion.endLine"), 12);
    cr_assert_eq(jint(rep, "deletedRegion.endColumn"), 5);
    cr_assert_str_eq(jstr(rep, "insertedContent.text"), "x = ");

    cr_assert_not(jhas(jget(root, "runs.0.results.1"), "fixes"), "no fix, no fixes");
    cr_assert_eq(jint(root, "runs.0.results.1.ruleIndex"), 1);
    cJSON_Delete(root);
    dl_result_free(&r);
}

Test(sarif, uris_are_encoded) {
    const char *paths[] = {"my dir/é.py", "./src/a.py", "/abs/x#1.py", "a:b,c%.py"};
    const char *want[] = {"my%20dir/%C3%A9.py", "src/a.py", "file:///abs/x%231.py",
                          "a%3Ab%2Cc%25.py"};
    DlResult r = {0};
    for (size_t i = 0; i < 4; i++)
        dl_result_add_diag(&r, make_diag(&rule_101, paths[i], (int)i + 1, 1, 2, "m", NULL));
    cJSON *root = parse_output(dl_report_sarif, &r);
    for (int i = 0; i < 4; i++) {
        char path[96];
        snprintf(path, sizeof path,
                 "runs.0.results.%d.locations.0.physicalLocation."
                 "artifactLocation.uri",
                 i);
        cr_assert_str_eq(jstr(root, path), want[i]);
    }
    cJSON_Delete(root);
    dl_result_free(&r);
}

Test(sarif, file_errors_are_notifications) {
    DlResult r = {0};
    dl_result_add_error(&r, "bad dir/bin.py", "binary file (NUL byte at offset 12)");
    cJSON *root = parse_output(dl_report_sarif, &r);
    const cJSON *inv = jget(root, "runs.0.invocations.0");
    cr_assert(cJSON_IsTrue(jget(inv, "executionSuccessful")));
    const cJSON *note = jget(inv, "toolExecutionNotifications.0");
    cr_assert_str_eq(jstr(note, "level"), "error");
    cr_assert_str_eq(jstr(note, "message.text"), "binary file (NUL byte at offset 12)");
    cr_assert_str_eq(jstr(note, "locations.0.physicalLocation.artifactLocation.uri"),
                     "bad%20dir/bin.py");
    cr_assert_eq(cJSON_GetArraySize(jget(root, "runs.0.results")), 0);
    cr_assert_eq(cJSON_GetArraySize(jget(root, "runs.0.tool.driver.rules")), 0);
    cJSON_Delete(root);
    dl_result_free(&r);
}

Test(sarif, help_uri_points_at_the_rule_in_rules_md) {
    DlResult r = {0};
    dl_result_add_diag(&r, diag_101("a.py", 2));
    cJSON *root = parse_output(dl_report_sarif, &r);
    cr_assert_str_eq(jstr(root, "runs.0.tool.driver.rules.0.helpUri"),
                     "https://github.com/devlint/devlint/blob/main/docs/rules.md#dl101");
    cJSON_Delete(root);
    dl_result_free(&r);
}

Test(sarif, fingerprints_and_snippets) {
    DlResult r = {0};
    dl_result_add_diag(&r, diag_101("a.py", 2));
    dl_result_add_diag(&r, diag_101("a.py", 9)); /* the same line text again */
    dl_result_add_diag(&r, make_diag(&rule_201, "a.py", 4, 3, 9, "m", "  é = t.item()"));
    cJSON *root = parse_output(dl_report_sarif, &r);
    const char *first = jstr(root, "runs.0.results.0.partialFingerprints.primaryLocationLineHash");
    const char *second = jstr(root, "runs.0.results.1.partialFingerprints.primaryLocationLineHash");
    cr_assert_eq(strlen(first), 18);
    cr_assert_str_eq(first + 16, ":1");
    cr_assert_str_eq(second + 16, ":2");
    cr_assert(strncmp(first, second, 16) == 0, "same line text, same hash");

    const cJSON *loc = jget(root, "runs.0.results.0.locations.0.physicalLocation");
    cr_assert_str_eq(jstr(loc, "region.snippet.text"), "x.to(device)");
    cr_assert_str_eq(jstr(loc, "contextRegion.snippet.text"), "    x.to(device)");
    cr_assert_eq(jint(loc, "contextRegion.startLine"), 2);
    /* columns count code points: columns 3..9 of "  é = t.item()" */
    cr_assert_str_eq(
        jstr(root, "runs.0.results.2.locations.0.physicalLocation.region.snippet.text"), "é = t.");
    cJSON_Delete(root);
    dl_result_free(&r);
}

Test(sarif, no_snippet_without_source_or_past_the_line) {
    DlResult r = {0};
    dl_result_add_diag(&r, make_diag(&rule_101, "a.py", 1, 1, 2, "m", NULL));
    dl_result_add_diag(&r, make_diag(&rule_101, "a.py", 2, 1, 40, "m", "short"));
    cJSON *root = parse_output(dl_report_sarif, &r);
    for (int i = 0; i < 2; i++) {
        const cJSON *loc = jget(cJSON_GetArrayItem(jget(root, "runs.0.results"), i),
                                "locations.0.physicalLocation");
        cr_assert_not(jhas(loc, "contextRegion"), "result %d", i);
        cr_assert_not(jhas(jget(loc, "region"), "snippet"), "result %d", i);
    }
    cJSON_Delete(root);
    dl_result_free(&r);
}

/* ---- fingerprints ---- */

Test(fingerprint, line_number_and_surrounding_whitespace_do_not_count) {
    DlDiag a = make_diag(&rule_101, "a.py", 3, 1, 2, "m", "x.to(device)");
    DlDiag b = make_diag(&rule_101, "./a.py", 40, 5, 6, "other message", "    x.to(device)  \r");
    DlDiag other_rule = make_diag(&rule_201, "a.py", 3, 1, 2, "m", "x.to(device)");
    DlDiag other_path = make_diag(&rule_101, "b.py", 3, 1, 2, "m", "x.to(device)");
    DlDiag other_text = make_diag(&rule_101, "a.py", 3, 1, 2, "m", "x.to(dev)");
    cr_assert_eq(dl_report_line_hash(&a), dl_report_line_hash(&b));
    cr_assert_neq(dl_report_line_hash(&a), dl_report_line_hash(&other_rule));
    cr_assert_neq(dl_report_line_hash(&a), dl_report_line_hash(&other_path));
    cr_assert_neq(dl_report_line_hash(&a), dl_report_line_hash(&other_text));
    DlDiag *all[] = {&a, &b, &other_rule, &other_path, &other_text};
    for (size_t i = 0; i < 5; i++)
        dl_diag_free(all[i]);
}

Test(fingerprint, occurrences_count_in_report_order) {
    DlResult r = {0};
    dl_result_add_diag(&r, make_diag(&rule_101, "a.py", 1, 1, 2, "m", "x.cuda()"));
    dl_result_add_diag(&r, make_diag(&rule_101, "a.py", 2, 1, 2, "m", "y.cuda()"));
    dl_result_add_diag(&r, make_diag(&rule_101, "a.py", 3, 1, 2, "m", "x.cuda()"));
    dl_result_add_diag(&r, make_diag(&rule_101, "a.py", 4, 1, 2, "m", "  x.cuda()"));
    DlFingerprint fp[4];
    dl_report_fingerprints(&r, fp);
    cr_assert_eq(fp[0].occurrence, 1);
    cr_assert_eq(fp[1].occurrence, 1);
    cr_assert_eq(fp[2].occurrence, 2);
    cr_assert_eq(fp[3].occurrence, 3);
    cr_assert_eq(fp[0].hash, fp[3].hash);
    cr_assert_neq(fp[0].hash, fp[1].hash);
    dl_result_free(&r);
}

/* ---- GitLab ---- */

Test(gitlab, code_quality_fields) {
    DlResult r = {0};
    dl_result_add_diag(&r, diag_101("./src/train.py", 12));
    dl_result_add_diag(&r, make_diag(&rule_201, "src/train.py", 20, 9, 20, "sync", NULL));
    dl_result_add_diag(&r, make_diag(&rule_301, "src/train.py", 30, 1, 8, "cuda", NULL));
    DlDiag nb = make_diag(&rule_101, "nb.ipynb", 2, 1, 5, "in a cell", "x.cuda()");
    nb.cell = 3;
    nb.file_line = 41;
    dl_result_add_diag(&r, nb);
    dl_result_add_error(&r, "bad.py", "syntax error at line 1");
    cJSON *root = parse_output(dl_report_gitlab, &r);
    cr_assert(cJSON_IsArray(root));
    cr_assert_eq(cJSON_GetArraySize(root), 5);
    const cJSON *issue = jget(root, "0");
    cr_assert_str_eq(jstr(issue, "check_name"), "DL101");
    cr_assert_str_eq(jstr(issue, "description"),
                     "DL101 [unassigned-to] x.to(device) is discarded; x stays on cpu");
    cr_assert_str_eq(jstr(issue, "severity"), "major");
    cr_assert_str_eq(jstr(issue, "location.path"), "src/train.py");
    cr_assert_eq(jint(issue, "location.lines.begin"), 12);
    cr_assert_eq(strlen(jstr(issue, "fingerprint")), 16);
    cr_assert_str_eq(jstr(root, "1.severity"), "minor");
    cr_assert_str_eq(jstr(root, "2.severity"), "info");
    cr_assert_eq(jint(root, "3.location.lines.begin"), 41, "notebooks: the .ipynb line");
    cr_assert_str_eq(jstr(root, "4.check_name"), "devlint-error");
    cr_assert_str_eq(jstr(root, "4.location.path"), "bad.py");
    cr_assert_eq(jint(root, "4.location.lines.begin"), 1);
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++)
            cr_assert_str_neq(jstr(cJSON_GetArrayItem(root, i), "fingerprint"),
                              jstr(cJSON_GetArrayItem(root, j), "fingerprint"));
    cJSON_Delete(root);
    dl_result_free(&r);
}

Test(gitlab, nothing_found_is_an_empty_array) {
    DlResult r = {0};
    assert_output(dl_report_gitlab, &r, &plain, "[]\n");
}

/* ---- GitHub ---- */

Test(github, one_command_per_finding_by_severity) {
    DlResult r = {0};
    dl_result_add_diag(&r, diag_101("src/train.py", 12));
    dl_result_add_diag(&r, make_diag(&rule_201, "src/train.py", 20, 9, 20, "sync", NULL));
    dl_result_add_diag(&r, make_diag(&rule_301, "src/train.py", 30, 1, 8, "cuda", NULL));
    assert_output(dl_report_github, &r, &plain,
                  "::error file=src/train.py,line=12,col=5,endLine=12,endColumn=17,"
                  "title=DL101 [unassigned-to]::x.to(device) is discarded; x stays on cpu\n"
                  "::warning file=src/train.py,line=20,col=9,endLine=20,endColumn=20,"
                  "title=DL201 [host-sync-in-loop]::sync\n"
                  "::notice file=src/train.py,line=30,col=1,endLine=30,endColumn=8,"
                  "title=DL301 [hardcoded-cuda]::cuda\n");
    dl_result_free(&r);
}

Test(github, escapes_data_and_properties) {
    DlResult r = {0};
    dl_result_add_diag(&r, make_diag(&rule_101, "a,b:c%.py", 1, 1, 2,
                                     "100% on cuda:0, not cpu\r\nsee: docs", NULL));
    dl_result_add_error(&r, "x:y,z.py", "line 1\nline 2: 50%");
    assert_output(dl_report_github, &r, &plain,
                  "::error file=a%2Cb%3Ac%25.py,line=1,col=1,endLine=1,endColumn=2,"
                  "title=DL101 [unassigned-to]::100%25 on cuda:0, not cpu%0D%0Asee: docs\n"
                  "::error file=x%3Ay%2Cz.py::line 1%0Aline 2: 50%25\n");
    dl_result_free(&r);
}

Test(github, nothing_found_prints_nothing) {
    DlResult r = {0};
    assert_output(dl_report_github, &r, &plain, "");
}
