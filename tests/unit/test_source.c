/* Unit tests for core/source: the line index, code-point columns, and the bad-input checks. */
#define _GNU_SOURCE /* nftw, for removing the temporary trees */
#include "core/source.h"

#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "temp_dirs.h"

TestSuite(source, .fini = remove_temp_dirs);

static DlSource load_bytes(const char *bytes, size_t len) {
    DlSource src;
    char *error = NULL;
    bool ok = dl_source_from_bytes(&src, "mem.py", bytes, len, 0, &error);
    cr_assert(ok, "unexpected error: %s", error ? error : "(none)");
    return src;
}

/* The error for `bytes`, which must be rejected; caller frees. */
static char *reject_bytes(const char *bytes, size_t len, size_t max_bytes) {
    DlSource src;
    char *error = NULL;
    bool ok = dl_source_from_bytes(&src, "mem.py", bytes, len, max_bytes, &error);
    cr_assert_not(ok);
    cr_assert_null(src.text, "a failed load leaves the source zeroed");
    cr_assert_null(src.line_starts);
    cr_assert_not_null(error);
    return error;
}

static void assert_position(const DlSource *src, size_t byte, int line, int column) {
    int l = 0, c = 0;
    dl_source_position(src, byte, &l, &c);
    cr_assert_eq(l, line, "byte %zu: line %d, want %d", byte, l, line);
    cr_assert_eq(c, column, "byte %zu: column %d, want %d", byte, c, column);
}

static void assert_line(const DlSource *src, int line, const char *want) {
    size_t len = 99;
    const char *text = dl_source_line(src, line, &len);
    cr_assert_not_null(text, "line %d missing", line);
    cr_assert_eq(len, strlen(want), "line %d: length %zu, want %zu", line, len, strlen(want));
    cr_assert(memcmp(text, want, len) == 0, "line %d: wrong text", line);
}

/* Writes `len` bytes to a fresh file in a fresh directory; returns its path (static buffer). */
static const char *write_temp(const char *bytes, size_t len) {
    static char path[256];
    snprintf(path, sizeof path, "%s/f.py", make_temp_dir("dl_source"));
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(bytes, 1, len, f), len);
    fclose(f);
    return path;
}

Test(source, line_index_mixed_terminators) {
    const char text[] = "a\nbc\r\nd\re";
    DlSource src = load_bytes(text, sizeof text - 1);
    cr_assert_eq(src.line_count, 4);
    cr_assert_eq(src.line_starts[0], 0);
    cr_assert_eq(src.line_starts[1], 2);
    cr_assert_eq(src.line_starts[2], 6);
    cr_assert_eq(src.line_starts[3], 8);
    assert_line(&src, 1, "a");
    assert_line(&src, 2, "bc");
    assert_line(&src, 3, "d");
    assert_line(&src, 4, "e");
    assert_position(&src, 3, 2, 2);   /* 'c' */
    assert_position(&src, 4, 2, 3);   /* the \r of \r\n */
    assert_position(&src, 5, 2, 4);   /* its \n: still line 2 */
    assert_position(&src, 6, 3, 1);   /* 'd' */
    assert_position(&src, 8, 4, 1);   /* 'e' after a lone \r */
    assert_position(&src, 500, 4, 2); /* clamps to the end */
    dl_source_free(&src);
}

/* Python reads a lone \r as a line end: the text the parser sees has \n there, at the same
 * offsets, and the bytes as they were are kept for fixes. */
Test(source, lone_carriage_returns_read_as_newlines) {
    const char text[] = "import torch\rx = 1\r\ny = 2\r";
    DlSource src = load_bytes(text, sizeof text - 1);
    cr_assert_str_eq(src.text, "import torch\nx = 1\r\ny = 2\n");
    cr_assert_not_null(src.original);
    cr_assert_str_eq(dl_source_bytes(&src), text);
    cr_assert_eq(src.line_count, 4);
    assert_line(&src, 2, "x = 1");
    assert_position(&src, 13, 2, 1);
    dl_source_free(&src);

    DlSource plain = load_bytes("a\r\nb\n", 5);
    cr_assert_null(plain.original, "no copy when every \\r ends a \\r\\n");
    cr_assert_str_eq(dl_source_bytes(&plain), "a\r\nb\n");
    dl_source_free(&plain);
}

Test(source, trailing_terminator_opens_an_empty_line) {
    DlSource src = load_bytes("x = 1\r\n", 7);
    cr_assert_eq(src.line_count, 2);
    assert_line(&src, 1, "x = 1");
    assert_line(&src, 2, "");
    assert_position(&src, 7, 2, 1);
    dl_source_free(&src);
}

Test(source, empty_text_has_one_line) {
    DlSource src = load_bytes("", 0);
    cr_assert_eq(src.len, 0);
    cr_assert_str_eq(src.text, "");
    cr_assert_eq(src.line_count, 1);
    assert_line(&src, 1, "");
    assert_position(&src, 0, 1, 1);
    dl_source_free(&src);
}

Test(source, line_out_of_range) {
    DlSource src = load_bytes("a\nb", 3);
    size_t len = 42;
    cr_assert_null(dl_source_line(&src, 0, &len));
    cr_assert_eq(len, 0);
    cr_assert_null(dl_source_line(&src, 3, &len));
    cr_assert_null(dl_source_line(&src, -1, &len));
    dl_source_free(&src);
}

Test(source, columns_count_code_points) {
    /* é is 2 bytes, 漢 3, 😀 4: "é漢😀x" puts x at byte 9, column 4. */
    const char text[] = "# \xC3\xA9\xE6\xBC\xA2\xF0\x9F\x98\x80x\nz";
    DlSource src = load_bytes(text, sizeof text - 1);
    assert_position(&src, 0, 1, 1);
    assert_position(&src, 2, 1, 3);  /* é */
    assert_position(&src, 4, 1, 4);  /* 漢 */
    assert_position(&src, 7, 1, 5);  /* 😀 */
    assert_position(&src, 11, 1, 6); /* x */
    assert_position(&src, 12, 1, 7); /* the \n */
    assert_position(&src, 13, 2, 1); /* z */
    /* Inside a character: that character's column. */
    assert_position(&src, 3, 1, 3);
    assert_position(&src, 6, 1, 4);
    assert_position(&src, 10, 1, 5);
    dl_source_free(&src);
}

Test(source, bom_takes_no_column) {
    const char text[] = "\xEF\xBB\xBF"
                        "ab\n\xC3\xA9"
                        "c";
    DlSource src = load_bytes(text, sizeof text - 1);
    cr_assert_eq(src.len, 9, "the BOM stays in the text");
    cr_assert_eq((unsigned char)src.text[0], 0xEF);
    assert_position(&src, 0, 1, 1);
    assert_position(&src, 3, 1, 1); /* 'a' */
    assert_position(&src, 4, 1, 2); /* 'b' */
    assert_position(&src, 8, 2, 2); /* 'c' after é: no BOM offset on line 2 */
    assert_line(&src, 1, "ab");
    assert_line(&src, 2,
                "\xC3\xA9"
                "c");
    dl_source_free(&src);
}

Test(source, utf8_count) {
    cr_assert_eq(dl_utf8_count("\xC3\xA9\xE6\xBC\xA2\xF0\x9F\x98\x80", 9), 3);
    cr_assert_eq(dl_utf8_count("abc", 2), 2);
    cr_assert_eq(dl_utf8_count("", 0), 0);
}

static void assert_invalid(const char *s, size_t len, size_t bad) {
    size_t at = 12345;
    cr_assert_not(dl_utf8_valid(s, len, &at), "accepted an ill-formed sequence");
    cr_assert_eq(at, bad, "bad offset %zu, want %zu", at, bad);
}

Test(source, utf8_strict_validation) {
    size_t at = 0;
    cr_assert(dl_utf8_valid("a\xC3\xA9\xE6\xBC\xA2\xF0\x9F\x98\x80", 10, &at));
    cr_assert(dl_utf8_valid("\xED\x9F\xBF", 3, &at), "U+D7FF is fine");
    cr_assert(dl_utf8_valid("\xEE\x80\x80", 3, &at), "U+E000 is fine");
    cr_assert(dl_utf8_valid("\xF4\x8F\xBF\xBF", 4, &at), "U+10FFFF is fine");
    assert_invalid("ab\xFF", 3, 2);
    assert_invalid("a\xC0\xAF", 3, 1);        /* overlong '/' */
    assert_invalid("\xC1\xBF", 2, 0);         /* overlong */
    assert_invalid("\xE0\x80\xAF", 3, 0);     /* overlong, 3 bytes */
    assert_invalid("\xF0\x80\x80\xAF", 4, 0); /* overlong, 4 bytes */
    assert_invalid("x\xED\xA0\x80", 4, 1);    /* surrogate U+D800 */
    assert_invalid("\xF4\x90\x80\x80", 4, 0); /* U+110000 */
    assert_invalid("\xF5\x80\x80\x80", 4, 0);
    assert_invalid("ab\xE2\x82", 4, 2);   /* truncated at the end */
    assert_invalid("\xE2\x28\xA1", 3, 0); /* bad continuation */
    assert_invalid("\x80", 1, 0);         /* stray continuation */
}

/* dl_utf8_valid skips ASCII eight bytes at a time: a bad byte at each position of a word, and
 * sequences that start inside or straddle a word, are still found at their offsets. */
Test(source, utf8_validation_around_ascii_runs) {
    char text[40];
    for (size_t bad = 0; bad < 24; bad++) {
        memset(text, 'a', sizeof text);
        text[bad] = (char)0xFF;
        assert_invalid(text, sizeof text, bad);
    }
    size_t at = 0;
    cr_assert(dl_utf8_valid("abcdefg\xC3\xA9hijklmno\xF0\x9F\x98\x80pq", 23, &at));
    assert_invalid("abcdefg\xC3(hijklmnop", 18, 7);            /* straddles a word, bad tail */
    assert_invalid("abcdefghijklmnop\xE2\x82", 18, 16);         /* truncated after two words */
}

Test(source, line_index_newlines_only) {
    const char text[] = "import torch\n\nx = 1\ny = 2";
    DlSource src = load_bytes(text, sizeof text - 1);
    cr_assert_eq(src.line_count, 4);
    cr_assert_eq(src.line_starts[1], 13);
    cr_assert_eq(src.line_starts[2], 14);
    cr_assert_eq(src.line_starts[3], 20);
    assert_line(&src, 3, "x = 1");
    assert_line(&src, 4, "y = 2");
    assert_position(&src, 21, 4, 2);
    dl_source_free(&src);
}

Test(source, rejects_invalid_utf8_with_position) {
    const char text[] = "x = 1\n# \xC3\xA9\xFF\n";
    char *error = reject_bytes(text, sizeof text - 1, 0);
    cr_assert_str_eq(error, "not valid UTF-8 (line 2, column 4)");
    free(error);
}

Test(source, rejects_invalid_utf8_after_bom) {
    const char text[] = "\xEF\xBB\xBF"
                        "a\xED\xA0\x80";
    char *error = reject_bytes(text, sizeof text - 1, 0);
    cr_assert_str_eq(error, "not valid UTF-8 (line 1, column 2)");
    free(error);
}

Test(source, rejects_nul_byte) {
    const char text[] = "a\r\nb\rc\0d";
    char *error = reject_bytes(text, sizeof text - 1, 0);
    cr_assert_str_eq(error, "binary file (NUL byte at line 3)");
    free(error);
}

Test(source, nul_wins_over_invalid_utf8) {
    const char text[] = "\xFF\n\0";
    char *error = reject_bytes(text, sizeof text - 1, 0);
    cr_assert_str_eq(error, "binary file (NUL byte at line 2)");
    free(error);
}

Test(source, rejects_too_large_bytes) {
    char *error = reject_bytes("abcde", 5, 4);
    cr_assert_str_eq(error, "file too large (5 bytes, limit 4)");
    free(error);
    DlSource src = {0};
    cr_assert(dl_source_from_bytes(&src, "mem.py", "abcd", 4, 4, NULL), "exactly the limit");
    dl_source_free(&src);
}

Test(source, load_file) {
    const char *path = write_temp("import torch\r\nx = 1\n", 20);
    DlSource src;
    char *error = NULL;
    cr_assert(dl_source_load(&src, path, 1024, &error));
    cr_assert_null(error);
    cr_assert_str_eq(src.path, path);
    cr_assert_eq(src.len, 20);
    cr_assert_str_eq(src.text, "import torch\r\nx = 1\n");
    cr_assert_eq(src.line_count, 3);
    assert_line(&src, 1, "import torch");
    assert_line(&src, 2, "x = 1");
    dl_source_free(&src);
    cr_assert_null(src.text);
}

Test(source, load_too_large_file) {
    char big[100];
    memset(big, 'a', sizeof big);
    const char *path = write_temp(big, sizeof big);
    DlSource src;
    char *error = NULL;
    cr_assert_not(dl_source_load(&src, path, 10, &error));
    cr_assert_str_eq(error, "file too large (100 bytes, limit 10)");
    free(error);
}

Test(source, load_missing_file) {
    DlSource src;
    char *error = NULL;
    cr_assert_not(dl_source_load(&src, "/nonexistent/dir/x.py", 0, &error));
    cr_assert_str_eq(error, "cannot read: No such file or directory");
    cr_assert_null(src.path);
    free(error);
}

Test(source, load_directory) {
    const char *dir = make_temp_dir("dl_source");
    DlSource src;
    char *error = NULL;
    cr_assert_not(dl_source_load(&src, dir, 0, &error));
    cr_assert_str_eq(error, "is a directory");
    free(error);
}

Test(source, load_binary_file) {
    const char *path = write_temp("\x7F"
                                  "ELF\x02\x01\x01\0\0",
                                  9);
    DlSource src;
    char *error = NULL;
    cr_assert_not(dl_source_load(&src, path, 0, &error));
    cr_assert_str_eq(error, "binary file (NUL byte at line 1)");
    free(error);
}

Test(source, load_unreadable_file) {
    if (geteuid() == 0) cr_skip_test("root reads any file");
    const char *path = write_temp("x = 1\n", 6);
    cr_assert_eq(chmod(path, 0), 0);
    DlSource src;
    char *error = NULL;
    cr_assert_not(dl_source_load(&src, path, 0, &error));
    cr_assert_str_eq(error, "cannot read: Permission denied");
    free(error);
}

Test(source, load_from_pipe) {
    /* A pipe has no size to stat: the read loop must still bound it. The data is written and
     * the write end closed before the load, so the test does not depend on timing. */
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    for (int i = 0; i < 1000; i++) cr_assert_eq(write(fds[1], "0123456789", 10), 10);
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    DlSource src;
    char *error = NULL;
    cr_assert_not(dl_source_load(&src, path, 5000, &error));
    cr_assert_str_eq(error, "file too large (over the 5000-byte limit)");
    free(error);
    close(fds[0]);
}

Test(source, mentions_in_any_case) {
    const char text[] = "x = 1  # NoQa: DL101\nq = 'nOQ'\n";
    DlSource src = load_bytes(text, sizeof text - 1);
    cr_assert(dl_source_mentions_any_case(&src, "noqa"));
    cr_assert(dl_source_mentions_any_case(&src, "NOQA"));
    cr_assert(dl_source_mentions_any_case(&src, "dl101"));
    cr_assert(dl_source_mentions_any_case(&src, "noq'"), "up to the last byte");
    cr_assert(dl_source_mentions_any_case(&src, "X = 1"), "the first byte");
    cr_assert_not(dl_source_mentions_any_case(&src, "noqa:dl"));
    cr_assert_not(dl_source_mentions_any_case(&src, "noq'\n!"), "longer than what is left");
    cr_assert(dl_source_mentions_any_case(&src, "# n"), "a needle that starts with no letter");
    cr_assert_not(dl_source_mentions_any_case(&src, "#  n"));
    dl_source_free(&src);
}
