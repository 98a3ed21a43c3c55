/* What the fuzz targets share: settings with every rule on (off-by-default ones too, so every
 * rule's code is reached), a sink for reports, and a private temporary directory for the
 * targets whose API reads files. State here is the harness's own; the library keeps none. */
#ifndef DL_FUZZ_COMMON_H
#define DL_FUZZ_COMMON_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver/settings.h"
#include "report/report.h"
#include "rules/rule.h"

static inline const DlSettings *fuzz_all_rules(void) {
    static DlSettings s;
    static int done;
    if (!done) {
        for (size_t i = 0; i < dl_rule_count && i < DL_MAX_RULES; i++)
            s.enabled[i] = true;
        done = 1;
    }
    return &s;
}

static inline FILE *fuzz_devnull(void) {
    static FILE *f;
    if (!f) f = fopen("/dev/null", "w");
    if (!f) abort();
    return f;
}

/* Every report format, written to /dev/null: the writers see whatever the input produced. */
static inline void fuzz_write_reports(const DlResult *r) {
    static const char *const formats[] = {"text", "json", "sarif", "github", "gitlab"};
    DlReportOptions ro = {.color = true, .tool_version = "fuzz"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        DlFormat f;
        if (dl_format_parse(formats[i], &f))
            dl_report_write(fuzz_devnull(), fuzz_devnull(), f, r, &ro);
    }
    ro.statistics = true;
    dl_report_write(fuzz_devnull(), fuzz_devnull(), DL_FORMAT_TEXT, r, &ro);
}

static char fuzz_dir[64];

static inline void fuzz_remove_dir(void) {
    if (!fuzz_dir[0]) return;
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir);
    if (system(cmd) != 0) fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir);
}

/* A directory of our own under $TMPDIR (one per fuzzing process), removed at exit. */
static inline const char *fuzz_tmpdir(void) {
    if (fuzz_dir[0]) return fuzz_dir;
    const char *base = getenv("TMPDIR");
    snprintf(fuzz_dir, sizeof fuzz_dir, "%s/devlint-fuzz-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(fuzz_dir)) {
        perror("fuzz: mkdtemp");
        abort();
    }
    atexit(fuzz_remove_dir);
    return fuzz_dir;
}

/* Writes `data` to NAME in the private directory; returns its path (written into `path`). */
static inline const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size,
                                          char *path, size_t path_size) {
    snprintf(path, path_size, "%s/%s", fuzz_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror("fuzz: writing the input");
        abort();
    }
    return path;
}

/* Where FUZZ_ASSERT says what failed: stderr, unless a target that runs with -close_fd_mask=2
 * (its library code logs on stderr) keeps a copy of the real stderr here. */
static FILE *fuzz_report;

/* A property of the library does not hold: crash so libFuzzer keeps the input. */
#define FUZZ_ASSERT(cond, ...)                                                                     \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            FILE *report_ = fuzz_report ? fuzz_report : stderr;                                    \
            fprintf(report_, "fuzz: property failed: " __VA_ARGS__);                               \
            fputc('\n', report_);                                                                  \
            fflush(report_);                                                                       \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif
