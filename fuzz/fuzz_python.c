/* Fuzz target: Python source -> the whole static pipeline (load, parse, lower, project
 * summaries, every rule), every report format, and one round of fixes whose result is checked
 * again. An input with a NUL byte is split there into two files of one project (a.py and b.py,
 * which may import each other), so cross-file summaries are fuzzed too.
 *
 * Properties beyond "no crash, no leak, no undefined behaviour":
 *   - a file that was checked without error still parses after its fixes are applied;
 *   - a project's findings and errors are the same whether the files no other file reads are
 *     streamed or every program model is kept (DEVLINT_NO_STREAMING=1): the text scan that
 *     decides which files another file reads (driver/sharing.c, module_refs.c) misses none. */
#include <stdlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "driver/check.h"
#include "driver/fixing.h"
#include "fuzz_common.h"

static const char *const PATH = "fuzz.py";

static void check_one(const char *text, size_t len, DlResult *out) {
    const DlSettings *settings[1] = {fuzz_all_rules()};
    DlCheckOptions opts = {.settings = settings, .jobs = 1, .stdin_text = text, .stdin_len = len};
    char *paths[1] = {(char *)PATH};
    dl_check_files(paths, 1, &opts, out);
}

static bool has_syntax_error(const DlResult *r) {
    for (size_t i = 0; i < r->error_count; i++)
        if (strstr(r->errors[i].message, "syntax error")) return true;
    return false;
}

/* One file, then its fixes (unsafe ones too), then the fixed text checked again. */
static void fuzz_single(const char *text, size_t len) {
    DlResult result = {0}, errors = {0};
    check_one(text, len, &result);
    fuzz_write_reports(&result);
    DlFixRun run = {.unsafe = true,
                    .diff_out = fuzz_devnull(),
                    .stdin_path = PATH,
                    .stdin_text = text,
                    .stdin_len = len};
    dl_fix_round(&result, &run, &errors);
    if (run.stdin_fixed) {
        DlResult again = {0};
        check_one(run.stdin_fixed, run.stdin_fixed_len, &again);
        FUZZ_ASSERT(result.error_count || !has_syntax_error(&again),
                    "the fixes turned a valid file into a syntax error:\n--- before\n%.*s\n"
                    "--- after\n%.*s",
                    (int)len, text, (int)run.stdin_fixed_len, run.stdin_fixed);
        dl_result_free(&again);
        free(run.stdin_fixed);
    }
    dl_result_free(&errors);
    dl_result_free(&result);
}

static bool same_text(const char *a, const char *b) {
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Both results sorted (dl_check_files sorts them). */
static bool same_result(const DlResult *x, const DlResult *y) {
    if (x->diag_count != y->diag_count || x->error_count != y->error_count) return false;
    for (size_t i = 0; i < x->diag_count; i++) {
        const DlDiag *d = &x->diags[i], *e = &y->diags[i];
        if (d->rule != e->rule || !same_text(d->path, e->path) || d->line != e->line ||
            d->column != e->column || d->end_line != e->end_line ||
            d->end_column != e->end_column || !same_text(d->message, e->message))
            return false;
    }
    for (size_t i = 0; i < x->error_count; i++)
        if (!same_text(x->errors[i].path, y->errors[i].path) ||
            !same_text(x->errors[i].message, y->errors[i].message))
            return false;
    return true;
}

/* Two files of one project, read from memory: streamed, then with every model kept. */
static void fuzz_project(const char *a, size_t a_len, const char *b, size_t b_len) {
    const DlSettings *settings[2] = {fuzz_all_rules(), fuzz_all_rules()};
    DlCheckOverride files[2] = {{"pkg/a.py", a, a_len}, {"pkg/b.py", b, b_len}};
    DlCheckOptions opts = {
        .settings = settings, .jobs = 1, .overrides = files, .override_count = 2};
    char *paths[2] = {(char *)files[0].path, (char *)files[1].path};
    DlResult result = {0}, kept = {0};
    dl_check_files(paths, 2, &opts, &result);
    fuzz_write_reports(&result);
    setenv("DEVLINT_NO_STREAMING", "1", 1);
    dl_check_files(paths, 2, &opts, &kept);
    unsetenv("DEVLINT_NO_STREAMING");
    FUZZ_ASSERT(same_result(&result, &kept),
                "streamed and kept pipelines differ (%zu vs %zu findings):\n--- pkg/a.py\n%.*s\n"
                "--- pkg/b.py\n%.*s",
                result.diag_count, kept.diag_count, (int)a_len, a, (int)b_len, b);
    dl_result_free(&kept);
    dl_result_free(&result);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = size ? (const char *)data : "";
    const char *nul = memchr(text, '\0', size);
    if (!nul) {
        fuzz_single(text, size);
        return 0;
    }
    size_t a_len = (size_t)(nul - text);
    fuzz_project(text, a_len, nul + 1, size - a_len - 1);
    return 0;
}
