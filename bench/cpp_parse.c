/* What the PCH cache buys a C++ file: times clang_parseTranslationUnit on one file cold (no PCH),
 * building its PCH (frontend/cpp_pch.c, into an empty cache), and warm (the PCH found fresh and
 * used), with the flags frontend/cpp_flags.c gives it. Checks that the warm parse sees the same
 * calls as the cold one. bench/cpp_pch.sh runs it.
 *
 *   cpp_parse [-p DIR] [--cache DIR] FILE
 *
 * --cache: the PCH cache directory (default: a new temporary one, removed at the end; a given
 * one is kept, and the "build" row then says whether it was a reuse). Times are CLOCK_MONOTONIC
 * wall seconds. Exit status 1 when a parse fails or the warm parse sees different calls. */
#define _GNU_SOURCE /* nftw */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "frontend/cpp_flags.h"
#include "frontend/cpp_pch.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(text);
        return NULL;
    }
    fclose(f);
    text[n] = '\0';
    *len = (size_t)n;
    return text;
}

typedef struct Counts {
    unsigned errors, calls;
} Counts;

static enum CXChildVisitResult count_calls(CXCursor c, CXCursor parent, CXClientData data) {
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c))) return CXChildVisit_Continue;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) ((Counts *)data)->calls++;
    return CXChildVisit_Recurse;
}

/* One parse the way the front end does it (KeepGoing, the text as an unsaved file). */
static double parse(CXIndex index, const char *file, const char *text, size_t len,
                    const DlCompileCommand *cmd, const char *pch, Counts *counts) {
    const char **args = calloc(cmd->arg_count + 2, sizeof *args);
    size_t n = 0;
    for (size_t i = 0; i < cmd->arg_count; i++)
        args[n++] = cmd->args[i];
    if (pch) {
        args[n++] = "-include-pch";
        args[n++] = pch;
    }
    struct CXUnsavedFile unsaved = {file, text, (unsigned long)len};
    CXTranslationUnit tu = NULL;
    double t0 = now();
    enum CXErrorCode rc = clang_parseTranslationUnit2(index, file, args, (int)n, &unsaved, 1,
                                                      CXTranslationUnit_KeepGoing, &tu);
    double t = now() - t0;
    free(args);
    *counts = (Counts){0};
    if (rc != CXError_Success || !tu) {
        fprintf(stderr, "cpp_parse: %s: libclang error %d\n", file, (int)rc);
        return -1;
    }
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) counts->errors++;
        clang_disposeDiagnostic(d);
    }
    clang_visitChildren(clang_getTranslationUnitCursor(tu), count_calls, counts);
    clang_disposeTranslationUnit(tu);
    return t;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    return remove(path);
}

int main(int argc, char **argv) {
    const char *db_dir = NULL, *cache = NULL, *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
            db_dir = argv[++i];
        else if (strcmp(argv[i], "--cache") == 0 && i + 1 < argc)
            cache = argv[++i];
        else if (argv[i][0] != '-' && !file)
            file = argv[i];
        else {
            fprintf(stderr, "usage: cpp_parse [-p DIR] [--cache DIR] FILE\n");
            return 2;
        }
    }
    if (!file) {
        fprintf(stderr, "usage: cpp_parse [-p DIR] [--cache DIR] FILE\n");
        return 2;
    }
    char *path = realpath(file, NULL);
    size_t len = 0;
    char *text = path ? read_all(path, &len) : NULL;
    if (!text) {
        perror(file);
        return 1;
    }
    char temp[] = "/tmp/devlint_cpp_parse_XXXXXX";
    if (!cache && !(cache = mkdtemp(temp))) {
        perror("mkdtemp");
        return 1;
    }
    DlCompileCommand cmd;
    char *error = NULL;
    if (!dl_cpp_compile_command(path, db_dir, &cmd, &error)) {
        fprintf(stderr, "cpp_parse: %s\n", error);
        return 1;
    }
    char *clang_error = NULL;
    if (!dl_clang_load(&clang_error)) {
        fprintf(stderr, "cpp_parse: %s\n", clang_error);
        return 2;
    }
    CXString version = clang_getClangVersion();
    printf("file:    %s\nlibclang: %s\nflags:  ", path, clang_getCString(version));
    clang_disposeString(version);
    for (size_t i = 0; i < cmd.arg_count; i++)
        printf(" %s", cmd.args[i]);
    printf("\n");

    CXIndex index = clang_createIndex(0, 0);
    Counts cold, warm;
    double t_cold = parse(index, path, text, len, &cmd, NULL, &cold);

    double t0 = now();
    char *pch = dl_cpp_pch_for(index, &cmd, text, len, cache, &error);
    double t_build = now() - t0;
    if (!pch) {
        fprintf(stderr, "cpp_parse: no PCH: %s\n", error ? error : "no libtorch prelude");
        return 1;
    }
    t0 = now();
    char *again = dl_cpp_pch_for(index, &cmd, text, len, cache, &error);
    double t_lookup = now() - t0;
    double t_warm = parse(index, path, text, len, &cmd, again, &warm);
    struct stat st;
    stat(pch, &st);

    printf("%-28s %8s %8s %8s\n", "run", "seconds", "errors", "calls");
    printf("%-28s %8.2f %8u %8u\n", "cold (no PCH)", t_cold, cold.errors, cold.calls);
    printf("%-28s %8.2f %8s %8s\n", "PCH build", t_build, "", "");
    printf("%-28s %8.3f %8s %8s\n", "PCH lookup (fresh, reused)", t_lookup, "", "");
    printf("%-28s %8.2f %8u %8u\n", "warm (parse with PCH)", t_warm, warm.errors, warm.calls);
    printf("PCH: %s, %.1f MB\n", pch, (double)st.st_size / (1 << 20));
    int status = 0;
    if (t_cold < 0 || t_warm < 0 || cold.calls != warm.calls || cold.errors != warm.errors) {
        fprintf(stderr, "cpp_parse: the warm parse differs from the cold one\n");
        status = 1;
    }
    free(pch);
    free(again);
    clang_disposeIndex(index);
    dl_cpp_compile_command_free(&cmd);
    if (cache == temp) nftw(temp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(text);
    free(path);
    return status;
}
