/* Fuzz target: C++/CUDA source -> the whole pipeline on one libtorch-style file (compile command
 * lookup, libclang's parse, the lowering of analyzer/frontend/cpp.c, every rule), every report
 * format, and one round of fixes. Built only with DEVLINT_WITH_CLANG.
 *
 * libclang is not instrumented and libtorch's headers take seconds to parse, so the input is
 * compiled without them: a compile_commands.json of the harness's own makes the compiler read
 * no system headers, puts cpp/prelude.h (a few declarations spelled like libtorch's: at::Tensor,
 * torch::zeros, c10::kCUDA, TORCH_CHECK...) in front of every input, and gives the usual
 * #includes (<torch/extension.h>, <vector>...) empty stand-ins; any other #include is a missing
 * header, the per-file error users get. No precompiled header is built.
 *
 * An input that declares or launches a kernel (`__global__`, `__device__`, `<<<`) is k.cu,
 * parsed as CUDA (host side, as devlint parses .cu files); any other is k.cpp.
 *
 * Properties beyond "no crash, no leak, no undefined behaviour":
 *   - every per-file error (a missing header, compile errors) says what it is;
 *   - every finding lies within the input (line 1 .. its last line + 1);
 *   - a header the include scan (frontend/cpp_include_scan.h) finds missing, the compiler does
 *     not find either: the same input with the scan off fails on a missing header too.
 *
 * A crash of the compiler is caught by the parse guard (frontend/cpp_parse_guard.h) and is a
 * per-file error; what the crashed parse allocated stays allocated (a deep recursion's worth,
 * about 18 MB a crash under ASan), so inputs the crash pre-check (frontend/cpp_crash_guard.h)
 * refuses are not compiled in fuzzing sessions, only in fuzz.regress.cpp.compiled, which
 * replays the regression cases with the pre-check off. */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/source.h"
#include "driver/check.h"
#include "driver/fixing.h"
#include "frontend/cpp_parse_guard.h"
#include "fuzz_common.h"

#ifndef FUZZ_CPP_PRELUDE
#error "FUZZ_CPP_PRELUDE (the path of fuzz/cpp/prelude.h) is set by fuzz/CMakeLists.txt"
#endif

static char dir[128];

/* Headers the fixtures include, separated by spaces; each is an empty file (the prelude
 * declares what they would). */
static const char stand_ins[] =
    "torch/extension.h torch/torch.h torch/script.h torch/types.h ATen/ATen.h "
    "ATen/cuda/CUDAContext.h ATen/Dispatch.h c10/cuda/CUDAGuard.h c10/cuda/CUDAException.h "
    "cuda.h cuda_runtime.h cuda_fp16.h pybind11/pybind11.h vector string tuple cmath iostream "
    "memory utility map algorithm cstdio cstdlib cstdint limits chrono fstream optional "
    "stdint.h stdio.h";

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

static void make_dirs_for(char *path) {
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST) {
            perror(path);
            abort();
        }
        *p = '/';
    }
}

/* The compile database: no system headers, the stand-ins, the prelude in front. */
static void make_project(void) {
    snprintf(dir, sizeof dir, "%s/cpp", fuzz_tmpdir());
    char path[512];
    for (const char *name = stand_ins; *name;) {
        size_t n = strcspn(name, " ");
        snprintf(path, sizeof path, "%s/include/%.*s", dir, (int)n, name);
        make_dirs_for(path);
        write_text(path, "#pragma once\n");
        name += n + (name[n] == ' ');
    }
    static const char entry[] =
        "  {\"directory\": \"%s\", \"file\": \"%s/k.%s\",\n"
        "   \"arguments\": [\"clang++\", \"-std=c++17\", \"-nostdlibinc\", \"-nostdinc++\",%s\n"
        "                 \"-Iinclude\", \"-include\", \"%s\", \"-c\", \"k.%s\"]}";
    char cpp[1024], cu[1024], db[2200];
    snprintf(cpp, sizeof cpp, entry, dir, dir, "cpp", "", FUZZ_CPP_PRELUDE, "cpp");
    snprintf(cu, sizeof cu, entry, dir, dir, "cu", " \"-nocudainc\",", FUZZ_CPP_PRELUDE, "cu");
    snprintf(db, sizeof db, "[\n%s,\n%s\n]\n", cpp, cu);
    snprintf(path, sizeof path, "%s/compile_commands.json", dir);
    write_text(path, db);
    /* the files exist (their text comes from the input) */
    snprintf(path, sizeof path, "%s/k.cpp", dir);
    write_text(path, "");
    snprintf(path, sizeof path, "%s/k.cu", dir);
    write_text(path, "");
}

static bool mentions(const char *text, size_t len, const char *word) {
    return memmem(text, len, word, strlen(word)) != NULL;
}

/* The input's lines as devlint's line index counts them ("\n", "\r\n" and a lone "\r" each end
 * one; test_source checks it); 0 when the input is not text devlint reads (then it has only a
 * per-file error). */
static size_t line_count(const char *path, const char *text, size_t len) {
    DlSource src;
    char *error = NULL;
    if (!dl_source_from_bytes(&src, path, text, len, 0, &error)) {
        free(error);
        return 0;
    }
    size_t n = src.line_count;
    dl_source_free(&src);
    return n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    make_project();
    setenv("XDG_CACHE_HOME", fuzz_tmpdir(), 1); /* cuda-compat stand-ins land here */
    /* as devlint's main: libclang parses on devlint's guarded thread, and its own crash
     * recovery, which replaced the signal handlers (a crash anywhere in the process then ended
     * it with a bare "Segmentation fault", no report and no input saved: CI lost two that way),
     * is off; a crash outside the compiler's code reaches ASan and libFuzzer */
    dl_cpp_parse_guard_setup_process();
    return 0;
}

static bool has_missing_header(const DlResult *r) {
    for (size_t i = 0; i < r->error_count; i++)
        if (strstr(r->errors[i].message, "` not found (included at ")) return true;
    return false;
}

static bool has_error(const DlResult *r, const char *words) {
    for (size_t i = 0; i < r->error_count; i++)
        if (strstr(r->errors[i].message, words)) return true;
    return false;
}

/* The file was refused before the compiler ran (frontend/cpp_crash_guard.h: code the parser
 * crashes on). */
static bool refused_before_compiling(const DlResult *r) {
    return has_error(r, "the C++ parser recurses until it crashes");
}

/* The compiler crashed on the file, and the parse guard caught it (frontend/cpp_parse_guard.h). */
static bool compiler_crashed(const DlResult *r) {
    return has_error(r, "(libclang) crashed on this file");
}

static void check_input(const char *path, const char *text, size_t size, DlResult *result) {
    const DlSettings *settings[1] = {fuzz_all_rules()};
    DlCheckOptions opts = {.settings = settings,
                           .jobs = 1,
                           .stdin_text = text,
                           .stdin_len = size,
                           .compile_db_dir = dir,
                           .no_pch = true};
    char *paths[1] = {(char *)path};
    dl_check_files(paths, 1, &opts, result);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = size ? (const char *)data : "";
    bool cuda = mentions(text, size, "__global__") || mentions(text, size, "__device__") ||
                mentions(text, size, "<<<");
    char path[160];
    snprintf(path, sizeof path, "%s/k.%s", dir, cuda ? "cu" : "cpp");

    DlResult result = {0};
    check_input(path, text, size, &result);
    if (has_missing_header(&result)) { /* the scan's or the compiler's: ask the compiler */
        setenv("DEVLINT_CPP_INCLUDE_SCAN", "0", 1);
        DlResult compiled = {0};
        check_input(path, text, size, &compiled);
        unsetenv("DEVLINT_CPP_INCLUDE_SCAN");
        FUZZ_ASSERT(has_missing_header(&compiled) || refused_before_compiling(&compiled) ||
                        compiler_crashed(&compiled),
                    "the include scan reported a missing header the compiler found: %s",
                    result.errors[0].message);
        dl_result_free(&compiled);
    }

    for (size_t i = 0; i < result.error_count; i++)
        FUZZ_ASSERT(result.errors[i].message && result.errors[i].message[0],
                    "a per-file error without a reason");
    size_t lines = line_count(path, text, size);
    for (size_t i = 0; i < result.diag_count; i++) {
        const DlDiag *d = &result.diags[i];
        FUZZ_ASSERT(d->line >= 1 && (size_t)d->line <= lines + 1 && d->end_line >= d->line,
                    "%s at lines %d-%d of a %zu-line file", d->rule->code, (int)d->line,
                    (int)d->end_line, lines);
    }
    fuzz_write_reports(&result);

    DlResult errors = {0};
    DlFixRun run = {.unsafe = true,
                    .diff_out = fuzz_devnull(),
                    .stdin_path = path,
                    .stdin_text = text,
                    .stdin_len = size};
    dl_fix_round(&result, &run, &errors);
    free(run.stdin_fixed);
    dl_result_free(&errors);
    dl_result_free(&result);
    return 0;
}
