/* Strings and files for unit tests that build paths and write inputs: fmt() strings live until
 * free_fmt_strings() (call it from the suite's fini: LeakSanitizer runs these tests too), and
 * write_text() makes the file's directories first. Include after <criterion/criterion.h>;
 * define _GNU_SOURCE first (vasprintf). */
#ifndef DL_TEST_TEXT_H
#define DL_TEST_TEXT_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *fmt_strings[256];
static size_t fmt_string_count;

static const char *fmt(const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    char *s;
    cr_assert_geq(vasprintf(&s, format, ap), 0);
    va_end(ap);
    cr_assert_lt(fmt_string_count, sizeof fmt_strings / sizeof *fmt_strings);
    fmt_strings[fmt_string_count++] = s;
    return s;
}

static void free_fmt_strings(void) {
    for (size_t i = 0; i < fmt_string_count; i++)
        free(fmt_strings[i]);
    fmt_string_count = 0;
}

/* mkdir -p of the file's directory, then the file. */
static void write_text(const char *path, const char *text) {
    char *dir = strdup(path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        mkdir(dir, 0755);
        *p = '/';
    }
    free(dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "create %s", path);
    fputs(text, f);
    fclose(f);
}

#endif
