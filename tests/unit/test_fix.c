/* Unit tests for fix/: applying edits (order, overlaps, code-point columns, line endings), the
 * unified diff (exact text, and a round trip through GNU patch) and the atomic write. */
#define _GNU_SOURCE /* open_memstream, nftw */
#include "fix/fix.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "temp_dirs.h"

TestSuite(fix, .fini = remove_temp_dirs);

/* ---- helpers ---------------------------------------------------------------------------- */

static DlFix *fix_of(size_t edit_count) {
    return dl_fix_new("test fix", edit_count);
}

static void set_edit(DlFix *fix, size_t i, int line, int column, int end_line, int end_column,
                     const char *text) {
    fix->edits[i] = (DlEdit){.line = line,
                             .column = column,
                             .end_line = end_line,
                             .end_column = end_column,
                             .text = strdup(text),
                             .cell = 0};
}

/* A one-edit fix. */
static DlFix *edit1(int line, int column, int end_line, int end_column, const char *text) {
    DlFix *fix = fix_of(1);
    set_edit(fix, 0, line, column, end_line, end_column, text);
    return fix;
}

static void free_fix(DlFix *fix) {
    for (size_t i = 0; i < fix->edit_count; i++)
        free(fix->edits[i].text);
    free(fix->edits);
    free(fix->title);
    free(fix);
}

/* Applies `fixes` to `text`, checks the reported length, frees the fixes; returns the new
 * text (static buffer) and the applied count in *applied. */
static const char *apply(const char *text, DlFix **fixes, size_t count, size_t *applied) {
    static char result[4096];
    DlSource src;
    char *error = NULL;
    cr_assert(dl_source_from_bytes(&src, "t.py", text, strlen(text), 0, &error), "%s", error);
    size_t len = 0, taken = 99;
    char *out = dl_fix_apply(&src, (const DlFix *const *)fixes, count, &len, &taken);
    cr_assert_eq(strlen(out), len);
    cr_assert_lt(len, sizeof result);
    memcpy(result, out, len + 1);
    free(out);
    dl_source_free(&src);
    for (size_t i = 0; i < count; i++)
        free_fix(fixes[i]);
    if (applied) *applied = taken;
    return result;
}

/* ---- apply ------------------------------------------------------------------------------ */

Test(fix, no_fixes_copies_the_text) {
    size_t applied = 0;
    cr_assert_str_eq(apply("a = 1\n", NULL, 0, &applied), "a = 1\n");
    cr_assert_eq(applied, 0);
}

Test(fix, single_replacement) {
    DlFix *fixes[] = {edit1(1, 17, 1, 18, "3, device=dev")};
    size_t applied = 0;
    cr_assert_str_eq(apply("a = torch.zeros(3)\nb = 2\n", fixes, 1, &applied),
                     "a = torch.zeros(3, device=dev)\nb = 2\n");
    cr_assert_eq(applied, 1);
}

Test(fix, insertion) {
    DlFix *fixes[] = {edit1(2, 1, 2, 1, "x = ")};
    cr_assert_str_eq(apply("import torch\nx.to(device)\n", fixes, 1, NULL),
                     "import torch\nx = x.to(device)\n");
}

Test(fix, deletion) {
    DlFix *fixes[] = {edit1(1, 6, 1, 13, "")};
    cr_assert_str_eq(apply("y = x.cuda()\n", fixes, 1, NULL), "y = x\n");
}

Test(fix, deletion_across_lines) {
    DlFix *fixes[] = {edit1(2, 1, 3, 1, "")};
    cr_assert_str_eq(apply("a\nb\nc\n", fixes, 1, NULL), "a\nc\n");
}

Test(fix, multi_edit_fix_in_any_edit_order) {
    DlFix *fix = fix_of(2);
    set_edit(fix, 0, 3, 8, 3, 8, ", device=dev"); /* the later edit first in the array */
    set_edit(fix, 1, 1, 1, 1, 1, "dev = 'cuda'\n");
    DlFix *fixes[] = {fix};
    size_t applied = 0;
    cr_assert_str_eq(apply("import torch\n\nt = f(3)\n", fixes, 1, &applied),
                     "dev = 'cuda'\nimport torch\n\nt = f(3, device=dev)\n");
    cr_assert_eq(applied, 1);
}

Test(fix, two_fixes_in_one_file) {
    DlFix *fixes[] = {edit1(3, 1, 3, 1, "c = "), edit1(1, 5, 1, 6, "10")};
    size_t applied = 0;
    cr_assert_str_eq(apply("a = 1\nb = 2\nx.cpu()\n", fixes, 2, &applied),
                     "a = 10\nb = 2\nc = x.cpu()\n");
    cr_assert_eq(applied, 2);
}

Test(fix, overlap_earlier_position_wins_whatever_the_array_order) {
    /* "abcdefgh": A replaces "cde" (3..6), B replaces "bcd" (2..5) and starts first. */
    DlFix *fixes[] = {edit1(1, 3, 1, 6, "A"), edit1(1, 2, 1, 5, "B")};
    size_t applied = 0;
    cr_assert_str_eq(apply("abcdefgh\n", fixes, 2, &applied), "aBefgh\n");
    cr_assert_eq(applied, 1);

    DlFix *swapped[] = {edit1(1, 2, 1, 5, "B"), edit1(1, 3, 1, 6, "A")};
    cr_assert_str_eq(apply("abcdefgh\n", swapped, 2, &applied), "aBefgh\n");
    cr_assert_eq(applied, 1);
}

Test(fix, overlap_at_the_same_position_array_order_wins) {
    DlFix *fixes[] = {edit1(1, 2, 1, 4, "X"), edit1(1, 2, 1, 6, "Y")};
    cr_assert_str_eq(apply("abcdefgh\n", fixes, 2, NULL), "aXdefgh\n");
    DlFix *swapped[] = {edit1(1, 2, 1, 6, "Y"), edit1(1, 2, 1, 4, "X")};
    cr_assert_str_eq(apply("abcdefgh\n", swapped, 2, NULL), "aYfgh\n");
}

Test(fix, overlapping_fix_is_skipped_whole) {
    /* B's first edit (line 3) is free, its second collides with A on line 1: none of B. */
    DlFix *b = fix_of(2);
    set_edit(b, 0, 3, 1, 3, 2, "Z");
    set_edit(b, 1, 1, 2, 1, 3, "Q");
    DlFix *fixes[] = {edit1(1, 1, 1, 3, "A"), b};
    size_t applied = 0;
    cr_assert_str_eq(apply("ab\ncd\nef\n", fixes, 2, &applied), "A\ncd\nef\n");
    cr_assert_eq(applied, 1);
}

Test(fix, marked_tells_which_fixes_were_taken) {
    DlSource src;
    cr_assert(dl_source_from_bytes(&src, "t.py", "abcdef\n", 7, 0, NULL));
    DlFix *fixes[] = {edit1(1, 4, 1, 6, "L"), edit1(1, 1, 1, 3, "F"), edit1(1, 5, 1, 7, "O")};
    bool taken[3] = {false, false, true};
    size_t len = 0;
    char *out = dl_fix_apply_marked(&src, (const DlFix *const *)fixes, 3, &len, taken);
    cr_assert_str_eq(out, "FcLf\n");
    cr_assert_eq(len, 5);
    cr_assert(taken[0]);
    cr_assert(taken[1]);
    cr_assert_not(taken[2]);
    free(out);
    dl_source_free(&src);
    for (int i = 0; i < 3; i++)
        free_fix(fixes[i]);
}

Test(fix, insertions_at_the_same_point_keep_the_first) {
    DlFix *fixes[] = {edit1(1, 3, 1, 3, "1"), edit1(1, 3, 1, 3, "2")};
    size_t applied = 0;
    cr_assert_str_eq(apply("abcd\n", fixes, 2, &applied), "ab1cd\n");
    cr_assert_eq(applied, 1);
}

Test(fix, insertions_at_the_same_point_in_one_fix_keep_array_order) {
    DlFix *fix = fix_of(2);
    set_edit(fix, 0, 1, 3, 1, 3, "1");
    set_edit(fix, 1, 1, 3, 1, 3, "2");
    DlFix *fixes[] = {fix};
    cr_assert_str_eq(apply("abcd\n", fixes, 1, NULL), "ab12cd\n");
}

Test(fix, touching_ranges_both_apply) {
    DlFix *fixes[] = {edit1(1, 3, 1, 5, "Y"), edit1(1, 1, 1, 3, "X")};
    size_t applied = 0;
    cr_assert_str_eq(apply("abcdef\n", fixes, 2, &applied), "XYef\n");
    cr_assert_eq(applied, 2);
}

Test(fix, insertion_at_a_range_boundary_applies_and_goes_first) {
    /* An insertion at the start of a replaced range lands before the replacement; one at its
     * end after it; one strictly inside collides. */
    DlFix *fixes[] = {edit1(1, 2, 1, 4, "R"), edit1(1, 2, 1, 2, "<"), edit1(1, 4, 1, 4, ">"),
                      edit1(1, 3, 1, 3, "!")};
    size_t applied = 0;
    cr_assert_str_eq(apply("abcde\n", fixes, 4, &applied), "a<R>de\n");
    cr_assert_eq(applied, 3);
}

Test(fix, invalid_and_empty_fixes_are_not_taken) {
    DlFix *fixes[] = {edit1(2, 1, 1, 1, "backwards"), fix_of(0), edit1(1, 1, 1, 2, "B")};
    size_t applied = 0;
    cr_assert_str_eq(apply("a\nb\n", fixes, 3, &applied), "B\nb\n");
    cr_assert_eq(applied, 1);
}

Test(fix, self_overlapping_fix_is_not_taken) {
    DlFix *fix = fix_of(2);
    set_edit(fix, 0, 1, 1, 1, 3, "X");
    set_edit(fix, 1, 1, 2, 1, 4, "Y");
    DlFix *fixes[] = {fix};
    size_t applied = 9;
    cr_assert_str_eq(apply("abcd\n", fixes, 1, &applied), "abcd\n");
    cr_assert_eq(applied, 0);
}

Test(fix, columns_count_code_points_not_bytes) {
    /* é is 2 bytes, 日本 3 each, 😀 4: column 9 is the "." after "x" (byte 17). */
    DlFix *fixes[] = {edit1(1, 9, 1, 16, ".to(d)")};
    cr_assert_str_eq(apply("é日本😀 = x.cuda()\n", fixes, 1, NULL), "é日本😀 = x.to(d)\n");

    DlFix *more[] = {edit1(2, 3, 2, 4, "É"), edit1(1, 2, 1, 3, "")};
    cr_assert_str_eq(apply("a😀b\n日本語\n", more, 2, NULL), "ab\n日本É\n");
}

#define BOM "\xEF\xBB\xBF"

Test(fix, bom_takes_no_column) {
    DlFix *fixes[] = {edit1(1, 1, 1, 2, "b")};
    cr_assert_str_eq(apply(BOM "a = 1\n", fixes, 1, NULL), BOM "b = 1\n");
}

Test(fix, crlf_file_keeps_crlf) {
    DlFix *fixes[] = {edit1(1, 1, 1, 1, "import torch\n"), edit1(2, 6, 2, 6, "\r\n# done\n")};
    cr_assert_str_eq(apply("a = 1\r\nb = 2\r\n", fixes, 2, NULL),
                     "import torch\r\na = 1\r\nb = 2\r\n# done\r\n\r\n");
}

Test(fix, cr_file_keeps_cr) {
    DlFix *fixes[] = {edit1(2, 1, 2, 1, "x = 0\n")};
    cr_assert_str_eq(apply("a = 1\rb = 2\r", fixes, 1, NULL), "a = 1\rx = 0\rb = 2\r");
}

Test(fix, lf_file_and_file_without_newline_use_lf) {
    DlFix *fixes[] = {edit1(1, 6, 1, 6, "\nb = 2")};
    cr_assert_str_eq(apply("a = 1", fixes, 1, NULL), "a = 1\nb = 2");
}

Test(fix, no_newline_at_eof) {
    DlFix *fixes[] = {edit1(2, 5, 2, 9, "to(d)")};
    cr_assert_str_eq(apply("a\nx = cuda", fixes, 1, NULL), "a\nx = to(d)");
}

Test(fix, positions_past_the_end_clamp) {
    /* A column past the line's text stops before its terminator; a line past the file is
     * the end of the file. */
    DlFix *fixes[] = {edit1(1, 2, 1, 100, "Z"), edit1(9, 1, 9, 1, "tail\n")};
    size_t applied = 0;
    cr_assert_str_eq(apply("ab\r\ncd\r\n", fixes, 2, &applied), "aZ\r\ncd\r\ntail\r\n");
    cr_assert_eq(applied, 2);
}

Test(fix, replacement_equal_to_the_original_changes_nothing) {
    DlFix *fixes[] = {edit1(1, 5, 1, 13, "x.cuda()")};
    cr_assert_str_eq(apply("y = x.cuda()\n", fixes, 1, NULL), "y = x.cuda()\n");
}

/* ---- diff ------------------------------------------------------------------------------- */

/* The diff of old -> new as a string (static buffer); *changed tells the return value. */
static const char *diff(const char *old_text, const char *new_text, bool *changed) {
    static char result[16384];
    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    cr_assert_not_null(out);
    bool c =
        dl_diff_unified(out, "pkg/m.py", old_text, strlen(old_text), new_text, strlen(new_text));
    fclose(out);
    cr_assert_lt(size, sizeof result);
    memcpy(result, buf, size + 1);
    free(buf);
    if (changed) *changed = c;
    return result;
}

Test(fix, diff_of_equal_texts_is_empty) {
    bool changed = true;
    cr_assert_str_eq(diff("a\nb\n", "a\nb\n", &changed), "");
    cr_assert_not(changed);
}

Test(fix, diff_change_in_the_middle) {
    bool changed = false;
    cr_assert_str_eq(
        diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n", &changed),
        "--- a/pkg/m.py\n"
        "+++ b/pkg/m.py\n"
        "@@ -2,7 +2,7 @@\n"
        " 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
    cr_assert(changed);
}

Test(fix, diff_change_at_start) {
    cr_assert_str_eq(diff("1\n2\n3\n4\n5\n6\n", "import torch\n1\n2\n3\n4\n5\n6\n", NULL),
                     "--- a/pkg/m.py\n"
                     "+++ b/pkg/m.py\n"
                     "@@ -1,3 +1,4 @@\n"
                     "+import torch\n 1\n 2\n 3\n");
}

Test(fix, diff_change_at_end) {
    cr_assert_str_eq(diff("1\n2\n3\n4\n5\n6\n", "1\n2\n3\n4\n5\nsix\n", NULL),
                     "--- a/pkg/m.py\n"
                     "+++ b/pkg/m.py\n"
                     "@@ -3,4 +3,4 @@\n"
                     " 3\n 4\n 5\n-6\n+six\n");
}

Test(fix, diff_line_added_at_eof) {
    cr_assert_str_eq(diff("1\n2\n3\n4\n", "1\n2\n3\n4\n5\n", NULL), "--- a/pkg/m.py\n"
                                                                    "+++ b/pkg/m.py\n"
                                                                    "@@ -2,3 +2,4 @@\n"
                                                                    " 2\n 3\n 4\n+5\n");
}

Test(fix, diff_file_without_trailing_newline) {
    cr_assert_str_eq(diff("1\n2\n3", "1\n2\nthree", NULL),
                     "--- a/pkg/m.py\n"
                     "+++ b/pkg/m.py\n"
                     "@@ -1,3 +1,3 @@\n"
                     " 1\n 2\n-3\n\\ No newline at end of file\n+three\n"
                     "\\ No newline at end of file\n");
}

Test(fix, diff_adding_the_final_newline) {
    cr_assert_str_eq(diff("1\n2", "1\n2\n", NULL), "--- a/pkg/m.py\n"
                                                   "+++ b/pkg/m.py\n"
                                                   "@@ -1,2 +1,2 @@\n"
                                                   " 1\n-2\n\\ No newline at end of file\n+2\n");
}

Test(fix, diff_unchanged_last_line_without_newline_in_context) {
    cr_assert_str_eq(diff("1\n2\n3", "one\n2\n3", NULL),
                     "--- a/pkg/m.py\n"
                     "+++ b/pkg/m.py\n"
                     "@@ -1,3 +1,3 @@\n"
                     "-1\n+one\n 2\n 3\n\\ No newline at end of file\n");
}

Test(fix, diff_hunks_merge_within_six_lines_and_split_beyond) {
    const char *old_text =
        "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n";
    /* 5 and 12 are six unchanged lines apart: one hunk. */
    cr_assert_str_eq(
        diff(old_text, "1\n2\n3\n4\nV\n6\n7\n8\n9\n10\n11\nXII\n13\n14\n15\n16\n17\n18\n19\n20\n",
             NULL),
        "--- a/pkg/m.py\n+++ b/pkg/m.py\n"
        "@@ -2,14 +2,14 @@\n"
        " 2\n 3\n 4\n-5\n+V\n 6\n 7\n 8\n 9\n 10\n 11\n-12\n+XII\n 13\n 14\n 15\n");
    /* 5 and 13 are seven apart: two hunks. */
    cr_assert_str_eq(
        diff(old_text, "1\n2\n3\n4\nV\n6\n7\n8\n9\n10\n11\n12\nXIII\n14\n15\n16\n17\n18\n19\n20\n",
             NULL),
        "--- a/pkg/m.py\n+++ b/pkg/m.py\n"
        "@@ -2,7 +2,7 @@\n"
        " 2\n 3\n 4\n-5\n+V\n 6\n 7\n 8\n"
        "@@ -10,7 +10,7 @@\n"
        " 10\n 11\n 12\n-13\n+XIII\n 14\n 15\n 16\n");
}

Test(fix, diff_ranges_of_one_and_zero_lines) {
    cr_assert_str_eq(diff("a\n", "b\n", NULL),
                     "--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1 +1 @@\n-a\n+b\n");
    cr_assert_str_eq(diff("", "a\nb\n", NULL),
                     "--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -0,0 +1,2 @@\n+a\n+b\n");
    cr_assert_str_eq(diff("a\nb\n", "", NULL),
                     "--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1,2 +0,0 @@\n-a\n-b\n");
    cr_assert_str_eq(diff("a\nb\nc\nd\n", "a\nb\nd\n", NULL),
                     "--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1,4 +1,3 @@\n a\n b\n-c\n d\n");
}

Test(fix, diff_keeps_crlf_bytes) {
    cr_assert_str_eq(diff("a\r\nb\r\n", "a\r\nc\r\n", NULL),
                     "--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n");
}

/* ---- diff round trip through patch -p1 -------------------------------------------------- */

static void write_file(const char *path, const char *data, size_t len) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "create %s", path);
    cr_assert_eq(fwrite(data, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "open %s", path);
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 > cap) {
            cap = cap * 2 + 4096;
            buf = realloc(buf, cap + 1);
            cr_assert_not_null(buf);
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Writes old_text as DIR/pkg/m.py, diffs it against new_text, patches it with `patch -p1`
 * (GNU patch; `git apply` where there is none) and checks the result is new_text, byte for
 * byte. */
static void round_trip(const char *dir, const char *old_text, size_t old_len, const char *new_text,
                       size_t new_len) {
    char path[256], patch_path[256], cmd[1024];
    snprintf(path, sizeof path, "%s/pkg", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/pkg/m.py", dir);
    snprintf(patch_path, sizeof patch_path, "%s/fix.patch", dir);
    write_file(path, old_text, old_len);

    FILE *out = fopen(patch_path, "wb");
    cr_assert_not_null(out);
    bool changed = dl_diff_unified(out, "pkg/m.py", old_text, old_len, new_text, new_len);
    cr_assert_eq(fclose(out), 0);
    cr_assert_eq(changed, old_len != new_len || memcmp(old_text, new_text, old_len) != 0);
    if (!changed) return;

    if (system("command -v patch >/dev/null 2>&1") == 0)
        snprintf(cmd, sizeof cmd, "cd '%s' && patch -p1 --quiet --batch < fix.patch >/dev/null",
                 dir);
    else
        snprintf(cmd, sizeof cmd, "cd '%s' && git init -q . && git apply fix.patch", dir);
    cr_assert_eq(system(cmd), 0, "patch failed: %s", cmd);

    size_t len = 0;
    char *got = read_file(path, &len);
    cr_assert_eq(len, new_len, "patched length %zu, expected %zu", len, new_len);
    cr_assert(memcmp(got, new_text, new_len) == 0, "patched text differs");
    free(got);
}

Test(fix, diff_round_trips_through_patch) {
    const char *cases[][2] = {
        {"1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n"},
        {"1\n2\n3", "1\n2\nthree"},
        {"1\n2\n3", "1\n2\n3\n"},
        {"1\n2\n3\n", "1\n2\n3"},
        {"", "a\n"},
        {"a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\nd\r\n"},
        {"x = 1\ny = 2\n", "import torch\nx = 1\ny = 2\nz = 3\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *dir = make_temp_dir("dl_fix_rt");
        round_trip(dir, cases[i][0], strlen(cases[i][0]), cases[i][1], strlen(cases[i][1]));
        remove_temp_dirs();
        temp_dir_count = 0;
    }
}

/* Deterministic pseudo-random texts: many scattered edits, repeated lines that make the
 * alignment ambiguous, and edits that touch the final newline. */
static uint32_t rng_state;
static uint32_t rng(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static size_t random_text(char *buf, int lines) {
    static const char *pool[] = {"x = 1\n", "y = x.cuda()\n", "\n", "    pass\n", "return y\n"};
    size_t n = 0;
    for (int i = 0; i < lines; i++) {
        const char *l = rng() % 3 ? pool[rng() % 5] : NULL;
        char own[32];
        if (!l) {
            snprintf(own, sizeof own, "line %u\n", rng() % 1000);
            l = own;
        }
        n += (size_t)sprintf(buf + n, "%s", l);
    }
    if (rng() % 4 == 0 && n) n--; /* no final newline */
    buf[n] = '\0';
    return n;
}

static size_t mutate(char *out, const char *in, size_t len) {
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(in + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - in) + 1 : len;
        uint32_t r = rng() % 100;
        if (r < 5) {
            /* drop the line */
        } else if (r < 10) {
            n += (size_t)sprintf(out + n, "new %u\n", rng() % 50);
            memcpy(out + n, in + i, end - i);
            n += end - i;
        } else if (r < 15) {
            n += (size_t)sprintf(out + n, "changed %u\n", rng() % 50);
        } else {
            memcpy(out + n, in + i, end - i);
            n += end - i;
        }
        i = end;
    }
    if (rng() % 5 == 0 && n && out[n - 1] == '\n') n--;
    out[n] = '\0';
    return n;
}

Test(fix, diff_round_trips_random_edits) {
    static char old_text[32768], new_text[65536];
    rng_state = 12345;
    for (int i = 0; i < 30; i++) {
        size_t old_len = random_text(old_text, 1 + (int)(rng() % 200));
        size_t new_len = mutate(new_text, old_text, old_len);
        char *dir = make_temp_dir("dl_fix_rt");
        round_trip(dir, old_text, old_len, new_text, new_len);
        remove_temp_dirs();
        temp_dir_count = 0;
    }
}

Test(fix, diff_past_the_difference_limit_still_round_trips) {
    /* Every line differs: more than the aligner's limit, so the middle becomes one
     * replacement; a shared first and last line stay context. */
    enum { LINES = 3000 };
    char *old_text = malloc(LINES * 16), *new_text = malloc(LINES * 16);
    size_t old_len = (size_t)sprintf(old_text, "head\n"),
           new_len = (size_t)sprintf(new_text, "head\n");
    for (int i = 0; i < LINES; i++) {
        old_len += (size_t)sprintf(old_text + old_len, "old %d\n", i);
        new_len += (size_t)sprintf(new_text + new_len, "new %d\n", i);
    }
    old_len += (size_t)sprintf(old_text + old_len, "tail\n");
    new_len += (size_t)sprintf(new_text + new_len, "tail\n");

    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    cr_assert(dl_diff_unified(out, "pkg/m.py", old_text, old_len, new_text, new_len));
    fclose(out);
    const char *header = "--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1,3002 +1,3002 @@\n head\n-old 0\n";
    cr_assert(strncmp(buf, header, strlen(header)) == 0, "%.80s", buf);
    free(buf);

    round_trip(make_temp_dir("dl_fix_big"), old_text, old_len, new_text, new_len);
    free(old_text);
    free(new_text);
}

/* ---- write ------------------------------------------------------------------------------ */

static int count_entries(const char *dir) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

Test(fix, write_replaces_contents_and_keeps_mode) {
    char path[256];
    const char *dir = make_temp_dir("dl_fix_w");
    snprintf(path, sizeof path, "%s/run.py", dir);
    write_file(path, "old\n", 4);
    cr_assert_eq(chmod(path, 0755), 0);

    char *error = NULL;
    cr_assert(dl_write_atomic(path, "new contents\n", 13, &error), "%s", error);
    size_t len = 0;
    char *got = read_file(path, &len);
    cr_assert_str_eq(got, "new contents\n");
    free(got);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 07777, 0755);
    cr_assert_eq(count_entries(dir), 1, "a temporary file was left behind");
}

Test(fix, write_creates_a_missing_file_0644) {
    char path[256];
    const char *dir = make_temp_dir("dl_fix_w");
    snprintf(path, sizeof path, "%s/new.py", dir);
    mode_t old_mask = umask(0077);
    cr_assert(dl_write_atomic(path, "x\n", 2, NULL));
    umask(old_mask);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 07777, 0644);
    cr_assert_eq(st.st_size, 2);
}

Test(fix, write_through_a_symlink_keeps_the_link) {
    char target[256], link[256];
    const char *dir = make_temp_dir("dl_fix_w");
    snprintf(target, sizeof target, "%s/real.py", dir);
    snprintf(link, sizeof link, "%s/link.py", dir);
    write_file(target, "old\n", 4);
    cr_assert_eq(symlink("real.py", link), 0);
    cr_assert(dl_write_atomic(link, "new\n", 4, NULL));
    struct stat st;
    cr_assert_eq(lstat(link, &st), 0);
    cr_assert(S_ISLNK(st.st_mode));
    size_t len = 0;
    char *got = read_file(target, &len);
    cr_assert_str_eq(got, "new\n");
    free(got);
}

Test(fix, write_into_a_missing_directory_fails_with_a_reason) {
    char path[256], expected[400];
    const char *dir = make_temp_dir("dl_fix_w");
    snprintf(path, sizeof path, "%s/nodir/m.py", dir);
    char *error = NULL;
    cr_assert_not(dl_write_atomic(path, "x\n", 2, &error));
    snprintf(expected, sizeof expected, "cannot write %s: No such file or directory", path);
    cr_assert_str_eq(error, expected);
    free(error);
    cr_assert_eq(count_entries(dir), 0);
}

Test(fix, failed_rename_leaves_the_original_and_no_temp_file) {
    /* A directory where the file should be: the temporary file is written, the rename over the
     * directory fails (as root too), and nothing is left behind. */
    char path[256], inner[300];
    const char *dir = make_temp_dir("dl_fix_w");
    snprintf(path, sizeof path, "%s/m.py", dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    snprintf(inner, sizeof inner, "%s/keep", path);
    write_file(inner, "keep\n", 5);
    char *error = NULL;
    cr_assert_not(dl_write_atomic(path, "x\n", 2, &error));
    cr_assert_not_null(error);
    cr_assert(strncmp(error, "cannot write ", 13) == 0, "%s", error);
    free(error);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert(S_ISDIR(st.st_mode));
    cr_assert_eq(count_entries(dir), 1, "a temporary file was left behind");
    cr_assert_eq(count_entries(path), 1);
}

Test(fix, write_in_a_read_only_directory_leaves_the_original) {
    if (geteuid() == 0) cr_skip_test("root ignores directory permissions");
    char path[256];
    const char *dir = make_temp_dir("dl_fix_w");
    snprintf(path, sizeof path, "%s/m.py", dir);
    write_file(path, "original\n", 9);
    cr_assert_eq(chmod(dir, 0555), 0);
    char *error = NULL;
    bool ok = dl_write_atomic(path, "x\n", 2, &error);
    chmod(dir, 0755);
    cr_assert_not(ok);
    char expected[400];
    snprintf(expected, sizeof expected, "cannot write %s: Permission denied", path);
    cr_assert_str_eq(error, expected);
    free(error);
    size_t len = 0;
    char *got = read_file(path, &len);
    cr_assert_str_eq(got, "original\n");
    free(got);
    cr_assert_eq(count_entries(dir), 1);
}
