/* The benchmark's floor: reads and parses every Python file under the given paths with tree-sitter
 * and the Python grammar, and nothing else, so `bench/run.sh` can say what devlint's analysis
 * costs on top of parsing. The walk reads what devlint's default walk reads (.py and .pyi files,
 * skipping hidden entries and venv/.venv, node_modules, __pycache__, build, dist, site-packages)
 * so both see the same files.
 *
 * Symlinks are followed (glibc's nftw visits a directory once).
 *
 * Prints one line: files=N lines=N bytes=N seconds=S (CLOCK_MONOTONIC, walk + read + parse). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw's FTW_ACTIONRETVAL */
#endif
#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <tree_sitter/api.h>

extern const TSLanguage *tree_sitter_python(void);

typedef struct BareTotals {
    size_t files, lines, bytes, failures;
} BareTotals;

/* nftw's callback takes no context: these two are the tool's only state. */
static TSParser *bare_parser;
static BareTotals bare_totals;

static const char *const bare_skip_dirs[] = {"venv",  "node_modules", "__pycache__",
                                             "build", "dist",         "site-packages"};

static bool bare_hidden(const char *name) {
    return name[0] == '.';
}

static bool bare_skip_dir(const char *name) {
    if (bare_hidden(name)) return true;
    for (size_t i = 0; i < sizeof bare_skip_dirs / sizeof *bare_skip_dirs; i++)
        if (strcmp(name, bare_skip_dirs[i]) == 0) return true;
    return false;
}

static bool bare_is_python(const char *name) {
    const char *dot = strrchr(name, '.');
    return !bare_hidden(name) && dot && (strcmp(dot, ".py") == 0 || strcmp(dot, ".pyi") == 0);
}

/* Whole file into a malloc'ed buffer; NULL (and a message) when it cannot be read. */
static char *bare_read(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bare_parse: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) abort();
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        cap *= 2;
        buf = realloc(buf, cap);
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        fprintf(stderr, "bare_parse: %s: read error\n", path);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static size_t bare_count_lines(const char *s, size_t len) {
    size_t lines = 0;
    for (const char *p = s, *end = s + len; (p = memchr(p, '\n', (size_t)(end - p))); p++)
        lines++;
    if (len > 0 && s[len - 1] != '\n') lines++;
    return lines;
}

static void bare_parse_file(const char *path) {
    size_t len = 0;
    char *text = bare_read(path, &len);
    if (!text) {
        bare_totals.failures++;
        return;
    }
    TSTree *tree = ts_parser_parse_string(bare_parser, NULL, text, (uint32_t)len);
    if (!tree) {
        fprintf(stderr, "bare_parse: %s: parse failed\n", path);
        bare_totals.failures++;
    } else {
        ts_tree_delete(tree);
        bare_totals.files++;
        bare_totals.lines += bare_count_lines(text, len);
        bare_totals.bytes += len;
    }
    free(text);
}

static int bare_visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    if (type == FTW_D && ftw->level > 0 && bare_skip_dir(path + ftw->base)) return FTW_SKIP_SUBTREE;
    if (type == FTW_F && S_ISREG(st->st_mode) && bare_is_python(path + ftw->base))
        bare_parse_file(path);
    return FTW_CONTINUE;
}

static double bare_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        fprintf(stderr, "usage: %s PATH...\n", argv[0]);
        return 2;
    }
    bare_parser = ts_parser_new();
    if (!ts_parser_set_language(bare_parser, tree_sitter_python())) {
        fprintf(stderr, "bare_parse: the Python grammar's ABI does not match this tree-sitter\n");
        return 2;
    }
    double start = bare_now();
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "bare_parse: %s: %s\n", argv[i], strerror(errno));
            bare_totals.failures++;
        } else if (S_ISDIR(st.st_mode)) {
            if (nftw(argv[i], bare_visit, 64, FTW_ACTIONRETVAL) != 0)
                fprintf(stderr, "bare_parse: %s: walk failed\n", argv[i]);
        } else {
            bare_parse_file(argv[i]); /* named explicitly: parsed whatever its extension */
        }
    }
    double seconds = bare_now() - start;
    ts_parser_delete(bare_parser);
    printf("files=%zu lines=%zu bytes=%zu seconds=%.6f\n", bare_totals.files, bare_totals.lines,
           bare_totals.bytes, seconds);
    return bare_totals.failures ? 1 : 0;
}
