/* Unit tests for core/suppress: every directive form, code columns, and matching. */
#include "core/suppress.h"

#include <criterion/criterion.h>
#include <string.h>

/* Comment spans the way the front end gives them: each `marker` occurrence listed (the n-th
 * one of its text, 0-based) opens a comment that runs to the end of its line. */
typedef struct {
    DlCommentSpan spans[8];
    size_t count;
} Spans;

static int line_of(const char *text, size_t offset) {
    int line = 1;
    for (size_t i = 0; i < offset; i++)
        if (text[i] == '\n' || (text[i] == '\r' && text[i + 1] != '\n')) line++;
    return line;
}

static void add_comment(Spans *s, const char *text, const char *marker, int nth) {
    const char *at = strstr(text, marker);
    for (int i = 0; at && i < nth; i++)
        at = strstr(at + 1, marker);
    cr_assert_not_null(at, "no occurrence %d of %s", nth, marker);
    size_t start = (size_t)(at - text);
    size_t end = start + strcspn(at, "\r\n");
    s->spans[s->count++] = (DlCommentSpan){start, end, line_of(text, start)};
}

/* Parses `text` with every "#" that starts a comment: all of them unless a test says. */
static DlSuppressions parse_all_hash(const char *text) {
    Spans s = {0};
    for (const char *p = text; (p = strchr(p, '#')); p += strcspn(p, "\r\n")) {
        size_t start = (size_t)(p - text);
        s.spans[s.count++] =
            (DlCommentSpan){start, start + strcspn(p, "\r\n"), line_of(text, start)};
    }
    DlSuppressions out;
    dl_suppressions_parse(text, s.spans, s.count, &out);
    return out;
}

static void assert_code(const DlSuppression *item, size_t i, const char *text, int column,
                        int end_column) {
    cr_assert_lt(i, item->code_count, "only %zu codes", item->code_count);
    cr_assert_str_eq(item->codes[i].text, text);
    cr_assert_eq(item->codes[i].column, column, "%s: column %d, want %d", text,
                 item->codes[i].column, column);
    cr_assert_eq(item->codes[i].end_column, end_column, "%s: end column %d, want %d", text,
                 item->codes[i].end_column, end_column);
}

Test(suppress, devlint_ignore_one_code) {
    DlSuppressions s = parse_all_hash("import torch\nx.to(dev)  # devlint: ignore[DL101]\n");
    cr_assert_eq(s.count, 1);
    cr_assert_not(s.skip_file);
    const DlSuppression *item = &s.items[0];
    cr_assert_eq(item->line, 2);
    cr_assert_not(item->all);
    cr_assert_not(item->is_noqa);
    cr_assert_eq(item->code_count, 1);
    assert_code(item, 0, "DL101", 30, 35);
    cr_assert(dl_suppressions_match(&s, 2, "DL101", "unassigned-to"));
    cr_assert_not(dl_suppressions_match(&s, 2, "DL102", "other-rule"));
    cr_assert_not(dl_suppressions_match(&s, 1, "DL101", "unassigned-to"));
    cr_assert_not(dl_suppressions_match(&s, 3, "DL101", "unassigned-to"));
    dl_suppressions_free(&s);
    cr_assert_eq(s.count, 0);
}

Test(suppress, devlint_ignore_codes_and_names) {
    DlSuppressions s = parse_all_hash("y = f(x)  # devlint: ignore[DL101, unassigned-to,DL999]");
    cr_assert_eq(s.count, 1);
    const DlSuppression *item = &s.items[0];
    cr_assert_eq(item->code_count, 3);
    assert_code(item, 0, "DL101", 29, 34);
    assert_code(item, 1, "unassigned-to", 36, 49);
    assert_code(item, 2, "DL999", 50, 55);
    cr_assert(dl_suppressions_match(&s, 1, "DL104", "unassigned-to"), "by name");
    cr_assert(dl_suppressions_match(&s, 1, "DL101", NULL), "by code");
    cr_assert_not(dl_suppressions_match(&s, 1, "DL104", "Unassigned-To"), "names are exact");
    cr_assert_not(dl_suppressions_match(&s, 1, "DL104", NULL));
    dl_suppressions_free(&s);
}

Test(suppress, codes_match_case_insensitively) {
    DlSuppressions s = parse_all_hash("x = 1  # devlint: ignore[dl101]");
    cr_assert(dl_suppressions_match(&s, 1, "DL101", "unassigned-to"));
    dl_suppressions_free(&s);
}

Test(suppress, devlint_ignore_without_list_is_blanket) {
    DlSuppressions s = parse_all_hash("x = 1\ny = 2  # devlint: ignore\n");
    cr_assert_eq(s.count, 1);
    cr_assert_eq(s.items[0].line, 2);
    cr_assert(s.items[0].all);
    cr_assert_eq(s.items[0].code_count, 0);
    cr_assert(dl_suppressions_match(&s, 2, "DL305", "anything"));
    cr_assert_not(dl_suppressions_match(&s, 1, "DL305", "anything"));
    dl_suppressions_free(&s);
}

Test(suppress, devlint_spacing_and_near_misses) {
    DlSuppressions s = parse_all_hash("a  #devlint:ignore[DL101]\n"
                                      "b  # devlint : ignore [DL102]\n"
                                      "c  # devlint: ignored\n"
                                      "d  # mydevlint: ignore\n"
                                      "e  # devlint: ignore[]\n"
                                      "f  # Devlint: ignore\n");
    cr_assert_eq(s.count, 2);
    cr_assert_eq(s.items[0].line, 1);
    assert_code(&s.items[0], 0, "DL101", 20, 25);
    cr_assert_eq(s.items[1].line, 2);
    assert_code(&s.items[1], 0, "DL102", 24, 29);
    for (int line = 3; line <= 6; line++)
        cr_assert_not(dl_suppressions_match(&s, line, "DL101", "unassigned-to"), "line %d", line);
    dl_suppressions_free(&s);
}

Test(suppress, noqa_blanket_any_case) {
    DlSuppressions s = parse_all_hash("a  # noqa\nb  # NOQA\nc  #NoQa  trailing words\n");
    cr_assert_eq(s.count, 3);
    for (size_t i = 0; i < 3; i++) {
        cr_assert_eq(s.items[i].line, (int)i + 1);
        cr_assert(s.items[i].all);
        cr_assert(s.items[i].is_noqa);
        cr_assert(dl_suppressions_match(&s, (int)i + 1, "DL101", "unassigned-to"));
    }
    dl_suppressions_free(&s);
}

Test(suppress, noqa_with_codes) {
    DlSuppressions s = parse_all_hash("x = y  # noqa: DL101,DL104\n");
    cr_assert_eq(s.count, 1);
    const DlSuppression *item = &s.items[0];
    cr_assert(item->is_noqa);
    cr_assert_not(item->all);
    cr_assert_eq(item->code_count, 2);
    assert_code(item, 0, "DL101", 16, 21);
    assert_code(item, 1, "DL104", 22, 27);
    cr_assert(dl_suppressions_match(&s, 1, "DL104", "x"));
    cr_assert(dl_suppressions_match(&s, 1, "dl101", "x"));
    cr_assert_not(dl_suppressions_match(&s, 1, "DL102", "x"));
    dl_suppressions_free(&s);
}

Test(suppress, noqa_with_foreign_codes) {
    DlSuppressions s = parse_all_hash("long_line = 1  # noqa:E501 DL101, F401 because reasons\n");
    cr_assert_eq(s.count, 1);
    const DlSuppression *item = &s.items[0];
    cr_assert(item->is_noqa);
    cr_assert_eq(item->code_count, 3, "the list stops at the first non-code word");
    assert_code(item, 0, "E501", 23, 27);
    assert_code(item, 1, "DL101", 28, 33);
    assert_code(item, 2, "F401", 35, 39);
    cr_assert(dl_suppressions_match(&s, 1, "DL101", NULL));
    cr_assert_not(dl_suppressions_match(&s, 1, "DL102", NULL));
    dl_suppressions_free(&s);
}

Test(suppress, noqa_only_foreign_codes_does_not_silence_devlint) {
    DlSuppressions s = parse_all_hash("x = 1  # noqa: E501\n");
    cr_assert_eq(s.count, 1);
    cr_assert_not(s.items[0].all);
    cr_assert_not(dl_suppressions_match(&s, 1, "DL101", "unassigned-to"));
    dl_suppressions_free(&s);
}

Test(suppress, noqa_colon_without_codes_is_blanket) {
    DlSuppressions s = parse_all_hash("x = 1  # noqa: see ticket\n");
    cr_assert_eq(s.count, 1);
    cr_assert(s.items[0].all);
    dl_suppressions_free(&s);
}

Test(suppress, noqa_near_misses) {
    DlSuppressions s = parse_all_hash("a  # noqa_x\n"
                                      "b  # why not noqa here\n"
                                      "c  # noqa2: DL101\n");
    cr_assert_eq(s.count, 0);
    dl_suppressions_free(&s);
}

Test(suppress, noqa_after_other_comment_text) {
    DlSuppressions s = parse_all_hash("x = 1  # type: ignore  # noqa: DL101\n");
    cr_assert_eq(s.count, 1);
    assert_code(&s.items[0], 0, "DL101", 32, 37);
    dl_suppressions_free(&s);
}

Test(suppress, lookalike_in_string_is_not_a_comment) {
    const char *text = "s = \"# noqa: DL101  # devlint: ignore\"  # just a note\n";
    Spans spans = {0};
    add_comment(&spans, text, "#", 2); /* the real comment, after the string */
    DlSuppressions s;
    dl_suppressions_parse(text, spans.spans, spans.count, &s);
    cr_assert_eq(s.count, 0);
    cr_assert_not(dl_suppressions_match(&s, 1, "DL101", "unassigned-to"));
    dl_suppressions_free(&s);
}

Test(suppress, skip_file_anywhere) {
    DlSuppressions s = parse_all_hash("import torch\nx = 1  # generated; devlint: skip-file\n");
    cr_assert(s.skip_file);
    cr_assert_eq(s.count, 0);
    dl_suppressions_free(&s);

    s = parse_all_hash("# devlint: skip-files\n# devlint: skip\n");
    cr_assert_not(s.skip_file);
    dl_suppressions_free(&s);
}

Test(suppress, several_directives_sorted_by_line) {
    const char *text = "a  # noqa: DL104\nb\nc  # devlint: ignore[DL101]  # noqa: DL102\n";
    Spans spans = {0};
    /* Given out of order: the result is still sorted. */
    add_comment(&spans, text, "# devlint", 0);
    add_comment(&spans, text, "# noqa", 0);
    DlSuppressions s;
    dl_suppressions_parse(text, spans.spans, spans.count, &s);
    cr_assert_eq(s.count, 3);
    cr_assert_eq(s.items[0].line, 1);
    cr_assert_eq(s.items[1].line, 3);
    cr_assert_eq(s.items[2].line, 3);
    cr_assert(dl_suppressions_match(&s, 1, "DL104", NULL));
    cr_assert_not(dl_suppressions_match(&s, 2, "DL104", NULL));
    cr_assert(dl_suppressions_match(&s, 3, "DL101", NULL));
    cr_assert(dl_suppressions_match(&s, 3, "DL102", NULL));
    cr_assert_not(dl_suppressions_match(&s, 3, "DL104", NULL));
    dl_suppressions_free(&s);
}

Test(suppress, columns_count_code_points) {
    /* 'é' is 2 bytes, '漢' 3, '😀' 4: each one column. */
    const char *text = "s = '\xC3\xA9\xE6\xBC\xA2\xF0\x9F\x98\x80'  # noqa: DL101\n";
    DlSuppressions s = parse_all_hash(text);
    cr_assert_eq(s.count, 1);
    assert_code(&s.items[0], 0, "DL101", 20, 25);
    dl_suppressions_free(&s);
}

Test(suppress, bom_takes_no_column) {
    DlSuppressions s = parse_all_hash("\xEF\xBB\xBFx  # noqa: DL101\ny  # noqa: DL102\n");
    cr_assert_eq(s.count, 2);
    assert_code(&s.items[0], 0, "DL101", 12, 17);
    assert_code(&s.items[1], 0, "DL102", 12, 17);
    dl_suppressions_free(&s);
}

Test(suppress, cpp_comments) {
    const char *text =
        "auto y = x.cuda();  // NOQA: DL101\n/* first\n * devlint: ignore[DL102]\n */\n";
    Spans spans = {0};
    add_comment(&spans, text, "//", 0);
    const char *block = strstr(text, "/*");
    size_t start = (size_t)(block - text);
    spans.spans[spans.count++] = (DlCommentSpan){start, (size_t)(strstr(text, "*/") + 2 - text), 2};
    DlSuppressions s;
    dl_suppressions_parse(text, spans.spans, spans.count, &s);
    cr_assert_eq(s.count, 2);
    cr_assert_eq(s.items[0].line, 1);
    assert_code(&s.items[0], 0, "DL101", 30, 35);
    cr_assert_eq(s.items[1].line, 3, "a directive belongs to the line it is written on");
    assert_code(&s.items[1], 0, "DL102", 20, 25);
    dl_suppressions_free(&s);
}

Test(suppress, crlf_lines) {
    DlSuppressions s = parse_all_hash("a  # noqa: DL101\r\nb\r\nc  # noqa: DL103\r\n");
    cr_assert_eq(s.count, 2);
    cr_assert_eq(s.items[1].line, 3);
    assert_code(&s.items[1], 0, "DL103", 12, 17);
    dl_suppressions_free(&s);
}

Test(suppress, empty_input) {
    DlSuppressions s;
    dl_suppressions_parse("", NULL, 0, &s);
    cr_assert_eq(s.count, 0);
    cr_assert_not(s.skip_file);
    cr_assert_not(dl_suppressions_match(&s, 1, "DL101", "unassigned-to"));
    dl_suppressions_free(&s);
}
