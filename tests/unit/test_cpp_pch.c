/* Unit tests for frontend/cpp_pch: the prelude a PCH holds, building one for a small fake
 * libtorch header (seconds, not the real headers' minutes), reuse, invalidation when a header
 * changes, a parse that sees the PCH's declarations, errors, and concurrent builders. */
#define _GNU_SOURCE /* nftw (temp_dirs.h), vasprintf */
#include "frontend/cpp_pch.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "temp_dirs.h"
#include "test_text.h"

static void cleanup(void) {
    free_fmt_strings();
    remove_temp_dirs();
}

TestSuite(cpp_pch_prelude);
TestSuite(cpp_pch, .fini = cleanup);

/* ---------------------------------------------------------------- the prelude */

static void assert_prelude(const char *text, const char *want) {
    char *got = dl_cpp_pch_prelude(NULL, text, strlen(text));
    if (!want) {
        cr_assert_null(got, "no prelude expected for:\n%s\ngot:\n%s", text, got);
        return;
    }
    cr_assert_not_null(got, "a prelude expected for:\n%s", text);
    cr_assert_str_eq(got, want, "for:\n%s", text);
    free(got);
}

Test(cpp_pch_prelude, leading_library_includes_up_to_the_last_heavy_one) {
    assert_prelude("#include <torch/extension.h>\n#include <vector>\n#include \"x.h\"\nint a;\n",
                   "#include <torch/extension.h>\n");
    assert_prelude("// comment\n/* a block\n   comment */\n#pragma once\n\n#include <vector>\n"
                   "#  include   <ATen/ATen.h>  // why\n#include <c10/core/Device.h> /* c */\n"
                   "#include <boost/any.hpp>\n#include <torch/torch.h>\n",
                   "#include <vector>\n#include <ATen/ATen.h>\n#include <c10/core/Device.h>\n");
    assert_prelude(
        "\xEF\xBB\xBF#include <stdio.h>\n#include <torch/torch.h>\n#include <cuda_runtime.h>"
        "\n#include <pybind11/pybind11.h>\n#include <map>\nnamespace x {}\n",
        "#include <stdio.h>\n#include <torch/torch.h>\n#include <cuda_runtime.h>\n"
        "#include <pybind11/pybind11.h>\n");
}

Test(cpp_pch_prelude, include_guard_is_skipped) {
    assert_prelude("#ifndef EXT_H\n#define EXT_H\n#include <torch/torch.h>\n#endif\n",
                   "#include <torch/torch.h>\n");
    assert_prelude("#ifndef EXT_H\n#define OTHER\n#include <torch/torch.h>\n", NULL);
    assert_prelude("#ifndef EXT_H\n#define EXT_H 1\n#include <torch/torch.h>\n", NULL);
}

Test(cpp_pch_prelude, macros_defined_before_the_includes_are_part_of_it) {
    assert_prelude("#define TORCH_ASSERT_ONLY_METHOD_OPERATORS\n#include <ATen/ATen.h>\n"
                   "#undef NDEBUG  // why\n#include <torch/extension.h>\n#define AFTER 1\n",
                   "#define TORCH_ASSERT_ONLY_METHOD_OPERATORS\n#include <ATen/ATen.h>\n"
                   "#undef NDEBUG  // why\n#include <torch/extension.h>\n");
    /* continued onto the next line, or holding a block comment: the prelude ends there */
    assert_prelude("#define X(a) \\\n  (a)\n#include <torch/torch.h>\n", NULL);
    assert_prelude("#define X 1 /* one */\n#include <torch/torch.h>\n", NULL);
}

Test(cpp_pch_prelude, conditional_around_the_whole_file_is_read_through) {
    assert_prelude("#if WITH_LOSSES\n#  include <torch/torch.h>\nint f();\n#endif  // x\n\n",
                   "#include <torch/torch.h>\n");
    assert_prelude("#ifdef A\n#include <torch/torch.h>\n#if B\nint g;\n#endif\n#endif\n",
                   "#include <torch/torch.h>\n");
    /* an #else, code after the #endif, or no #endif: its includes may not be read */
    assert_prelude("#if A\n#include <torch/torch.h>\n#else\n#include <ATen/ATen.h>\n#endif\n",
                   NULL);
    assert_prelude("#if A\n#include <torch/torch.h>\n#endif\nint after;\n", NULL);
    assert_prelude("#if A\n#include <torch/torch.h>\n", NULL);
}

Test(cpp_pch_prelude, anything_that_could_change_meaning_ends_it) {
    assert_prelude("#include \"config.h\"\n#include <torch/torch.h>\n", NULL);
    assert_prelude("#include <myproject/x.h>\n#include <torch/torch.h>\n", NULL);
    assert_prelude("int x;\n#include <torch/torch.h>\n", NULL);
    assert_prelude("#pragma pack(1)\n#include <torch/torch.h>\n", NULL);
    assert_prelude("#include <torch/torch.h> int x;\n", NULL);
    assert_prelude("#include <torch/torch.h> /* runs on\n */\n", NULL);
    assert_prelude("/* unterminated\n#include <torch/torch.h>\n", NULL);
    assert_prelude("#include <torch/torch.h\n", NULL);
    assert_prelude("#include <torch/\\\ntorch.h>\n", NULL);
}

Test(cpp_pch_prelude, no_libtorch_no_prelude) {
    assert_prelude("#include <pybind11/pybind11.h>\n#include <vector>\n", NULL);
    assert_prelude("#include <cuda_runtime.h>\n", NULL);
    assert_prelude("", NULL);
    assert_prelude("#include <vector>\n#include \"torch/torch.h\"\n", NULL);
}


/* The prelude of `text` written in `file`, with these -I directories. */
static char *prelude_in(const char *file, const char *text, const char *include_dir) {
    char *args[] = {"-x", "c++", "-I", (char *)include_dir, NULL};
    DlCompileCommand cmd = {.args = args, .arg_count = include_dir ? 4 : 2, .file = (char *)file};
    return dl_cpp_pch_prelude(&cmd, text, strlen(text));
}

Test(cpp_pch, quoted_first_include_continues_into_the_header) {
    const char *t = make_temp_dir("dl_cpppch");
    write_text(fmt("%s/kernels.h", t),
               "// launchers\n#pragma once\n\n#include <torch/extension.h>\n"
               "#include <vector>\nvoid launch();\n");
    /* the header's prelude, and nothing after it (the header's code comes next) */
    char *got = prelude_in(fmt("%s/kernels.cu", t),
                           "// kernels\n#include \"kernels.h\"\n#include <torch/torch.h>\n", NULL);
    cr_assert_str_eq(got, "#include <torch/extension.h>\n");
    free(got);
    /* library includes before it stay; found through -I; nested, with an include guard */
    cr_assert_eq(mkdir(fmt("%s/include", t), 0755), 0);
    write_text(fmt("%s/include/outer.h", t),
               "#ifndef OUTER_H\n#define OUTER_H\n#include \"inner.h\"\n");
    write_text(fmt("%s/include/inner.h", t), "#pragma once\n#include <ATen/ATen.h>\n#define X 1\n");
    got = prelude_in(fmt("%s/src.cpp", t), "#include <vector>\n#include \"outer.h\"\n",
                     fmt("%s/include", t));
    cr_assert_str_eq(got, "#include <vector>\n#include <ATen/ATen.h>\n");
    free(got);
    /* not found, not known where the file is, or a cycle: the prelude ends there */
    cr_assert_null(prelude_in(fmt("%s/a.cpp", t), "#include \"missing.h\"\n", NULL));
    cr_assert_null(dl_cpp_pch_prelude(NULL, "#include \"kernels.h\"\n", 21));
    write_text(fmt("%s/loop.h", t), "#include \"loop.h\"\n");
    cr_assert_null(prelude_in(fmt("%s/a.cpp", t), "#include \"loop.h\"\n", NULL));
}

Test(cpp_pch, configuration_header_is_read_in_the_pch_and_the_file_goes_on) {
    const char *t = make_temp_dir("dl_cpppch");
    /* gsplat's Config.h: directives only, read where the file reads it */
    write_text(fmt("%s/Config.h", t),
               "#pragma once\n// which modules\n#if defined(X) && X \\\n || Y\n"
               "#  define DEFAULT 0\n#else\n#  define DEFAULT 1\n#endif\n");
    char *got = prelude_in(fmt("%s/k.cu", t),
                           "#include \"Config.h\"\n#if DEFAULT\n#include <ATen/ATen.h>\n"
                           "int k;\n#endif\n",
                           NULL);
    cr_assert_str_eq(got, fmt("#include \"%s/Config.h\"\n#include <ATen/ATen.h>\n", t));
    free(got);
    /* a header with code, or with includes of its own, is not configuration */
    write_text(fmt("%s/code.h", t), "#pragma once\n#define N 4\nint table[N];\n");
    cr_assert_null(prelude_in(fmt("%s/k.cu", t), "#include \"code.h\"\n#include <ATen/ATen.h>\n",
                              NULL));
    write_text(fmt("%s/inc.h", t), "#pragma once\n#include \"other.h\"\n");
    write_text(fmt("%s/other.h", t), "#define N 4\n");
    cr_assert_null(prelude_in(fmt("%s/k.cu", t), "#include \"inc.h\"\n#include <ATen/ATen.h>\n",
                              NULL));
}

Test(cpp_pch, quoted_library_include_is_read_as_an_angle_include) {
    const char *t = make_temp_dir("dl_cpppch");
    /* `#include "ATen/ATen.h"` (ChatRWKV's kernels): not beside the file, so clang finds it
     * where <ATen/ATen.h> is; the PCH takes it */
    char *got = prelude_in(fmt("%s/rwkv.cu", t),
                           "#include <stdio.h>\n#include \"ATen/ATen.h\"\ntypedef int T;\n", NULL);
    cr_assert_str_eq(got, "#include <stdio.h>\n#include <ATen/ATen.h>\n");
    free(got);
    /* one beside the file is that file, read as a quoted include is */
    cr_assert_eq(mkdir(fmt("%s/ATen", t), 0755), 0);
    write_text(fmt("%s/ATen/ATen.h", t), "#pragma once\n#include <torch/torch.h>\nint x;\n");
    got = prelude_in(fmt("%s/rwkv.cu", t), "#include \"ATen/ATen.h\"\n", NULL);
    cr_assert_str_eq(got, "#include <torch/torch.h>\n");
    free(got);
}

Test(cpp_pch, angle_include_clang_cannot_find_is_skipped) {
    const char *t = make_temp_dir("dl_cpppch");
    const char *file = fmt("%s/a.cpp", t);
    char *got = prelude_in(file, "#include <no_such_lib/thing.h>\n#include <torch/extension.h>\n",
                           fmt("%s/include", t));
    cr_assert_str_eq(got, "#include <torch/extension.h>\n");
    free(got);
    /* one that exists (here through -I) is the project's: the prelude ends there */
    cr_assert_eq(mkdir(fmt("%s/include", t), 0755), 0);
    cr_assert_eq(mkdir(fmt("%s/include/proj", t), 0755), 0);
    write_text(fmt("%s/include/proj/x.h", t), "");
    cr_assert_null(prelude_in(file, "#include <proj/x.h>\n#include <torch/extension.h>\n",
                              fmt("%s/include", t)));
    /* without a command nothing is known to be missing */
    static const char text[] = "#include <no_such_lib/thing.h>\n#include <torch/extension.h>\n";
    cr_assert_null(dl_cpp_pch_prelude(NULL, text, strlen(text)));
}

/* ---------------------------------------------------------------- a fake libtorch */

typedef struct Fixture {
    const char *dir, *inc, *header, *cache;
    DlCompileCommand cmd;
} Fixture;

static const char fake_header[] = "#pragma once\n"
                                  "#include <vector>\n"
                                  "namespace torch {\n"
                                  "struct Fake { int x; };\n"
                                  "inline int fake_answer() { return 42; }\n"
                                  "std::vector<int> fake_vec();\n"
                                  "template <typename T> T fake_twice(T v) { return v + v; }\n"
                                  "}\n";

static const char user_text[] = "#include <vector>\n"
                                "#include <torch/fake.h>\n"
                                "#include \"local.h\"\n"
                                "int main() { torch::Fake f{1}; return torch::fake_answer(); }\n";

static void set_args(DlCompileCommand *cmd, const char *const *args, size_t n) {
    cmd->args = calloc(n + 1, sizeof *cmd->args);
    for (size_t i = 0; i < n; i++)
        cmd->args[i] = strdup(args[i]);
    cmd->arg_count = n;
    cmd->directory = strdup("/");
}

static Fixture fixture(void) {
    Fixture fx = {0};
    fx.dir = make_temp_dir("dl_cpppch");
    fx.inc = fmt("%s/inc", fx.dir);
    fx.header = fmt("%s/inc/torch/fake.h", fx.dir);
    fx.cache = fmt("%s/cache", fx.dir);
    cr_assert_eq(mkdir(fx.inc, 0755), 0);
    cr_assert_eq(mkdir(fmt("%s/torch", fx.inc), 0755), 0);
    write_text(fx.header, fake_header);
    const char *args[] = {"-x", "c++", "-std=c++17", "-isystem", fx.inc};
    set_args(&fx.cmd, args, sizeof args / sizeof *args);
    return fx;
}

/* The PCH for `text` in one run's stat memo (NULL: no memo), which must be there. */
static char *pch_for_run(CXIndex index, Fixture *fx, const char *text, DlStatMemo *run) {
    char *error = NULL;
    char *pch =
        dl_cpp_pch_for_run(index, &fx->cmd, text, strlen(text), fx->cache, run, &error);
    cr_assert_not_null(pch, "no PCH: %s", error ? error : "(no error)");
    cr_assert_null(error);
    return pch;
}

static char *pch_for(CXIndex index, Fixture *fx, const char *text) {
    return pch_for_run(index, fx, text, NULL);
}

static struct stat stat_of(const char *path) {
    struct stat st;
    cr_assert_eq(stat(path, &st), 0, "stat %s", path);
    return st;
}

static bool same_file_version(const struct stat *a, const struct stat *b) {
    return a->st_ino == b->st_ino && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
           a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static bool file_contains(const char *path, const char *needle) {
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, needle) != NULL;
    fclose(f);
    return found;
}

/* Parses `text` (no includes) with the PCH: no errors, and the call to fake_answer resolves. */
typedef struct Seen {
    bool call_resolved;
} Seen;

static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent, CXClientData data) {
    Seen *seen = data;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        CXCursor callee = clang_getCursorReferenced(c);
        CXString name = clang_getCursorSpelling(callee);
        if (!clang_Cursor_isNull(callee) && strcmp(clang_getCString(name), "fake_answer") == 0)
            seen->call_resolved = true;
        clang_disposeString(name);
    }
    return CXChildVisit_Recurse;
}

static unsigned parse_errors(CXIndex index, Fixture *fx, const char *pch, Seen *seen) {
    static const char use[] = "int use() { torch::Fake f{2};\n"
                              "  return torch::fake_answer() + f.x + (int)torch::fake_vec().size()"
                              " + torch::fake_twice(1); }\n";
    const char *file = fmt("%s/use.cpp", fx->dir);
    struct CXUnsavedFile unsaved = {file, use, sizeof use - 1};
    const char *args[16];
    size_t n = 0;
    for (size_t i = 0; i < fx->cmd.arg_count; i++)
        args[n++] = fx->cmd.args[i];
    if (pch) {
        args[n++] = "-include-pch";
        args[n++] = pch;
    }
    CXTranslationUnit tu = NULL;
    cr_assert_eq(clang_parseTranslationUnit2(index, file, args, (int)n, &unsaved, 1, 0, &tu),
                 CXError_Success);
    unsigned errors = 0;
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) errors++;
        clang_disposeDiagnostic(d);
    }
    if (seen) clang_visitChildren(clang_getTranslationUnitCursor(tu), find_call, seen);
    clang_disposeTranslationUnit(tu);
    return errors;
}

/* ---------------------------------------------------------------- build, reuse, invalidate */

Test(cpp_pch, built_reused_and_rebuilt_when_a_header_changes) {
    Fixture fx = fixture();
    cr_assert(dl_clang_load(NULL), "libclang could not be opened");
    CXIndex index = clang_createIndex(0, 0);

    char *pch = pch_for(index, &fx, user_text);
    cr_assert(strncmp(pch, fmt("%s/pch/", fx.cache), strlen(fx.cache) + 5) == 0, "%s", pch);
    cr_assert_str_eq(pch + strlen(pch) - 4, ".pch");
    cr_assert_eq(strlen(pch), strlen(fx.cache) + 5 + 16 + 4);
    struct stat first = stat_of(pch);
    char *base = strndup(pch, strlen(pch) - 4);
    cr_assert(file_contains(fmt("%s.deps", base), fx.header), "the deps name the fake header");
    cr_assert(file_contains(fmt("%s.h", base), "#include <torch/fake.h>"));
    cr_assert_not(file_contains(fmt("%s.h", base), "local.h"));

    /* reused: not rebuilt */
    char *again = pch_for(index, &fx, user_text);
    cr_assert_str_eq(again, pch);
    struct stat second = stat_of(pch);
    cr_assert(same_file_version(&first, &second), "the PCH was rebuilt");
    free(again);

    /* a header changes: rebuilt in place (and a dead builder's temporary is swept) */
    const char *stale = fmt("%s.pch.tmp.1.1", base);
    write_text(stale, "half a PCH");
    struct timespec times[2] = {{0, UTIME_OMIT}, {first.st_mtim.tv_sec + 10, 0}};
    cr_assert_eq(utimensat(AT_FDCWD, fx.header, times, 0), 0);
    again = pch_for(index, &fx, user_text);
    cr_assert_str_eq(again, pch);
    struct stat third = stat_of(pch);
    cr_assert_not(same_file_version(&first, &third), "the PCH was not rebuilt");
    cr_assert_neq(access(stale, F_OK), 0, "the stale temporary is still there");
    free(again);

    /* a parse with the PCH sees the header's declarations without including it */
    Seen seen = {0};
    cr_assert_eq(parse_errors(index, &fx, pch, &seen), 0);
    cr_assert(seen.call_resolved, "the call to torch::fake_answer does not resolve");
    cr_assert_gt(parse_errors(index, &fx, NULL, NULL), 0, "without the PCH it should not parse");

    free(base);
    free(pch);
    clang_disposeIndex(index);
    dl_cpp_compile_command_free(&fx.cmd);
}

/* One run's stat memo: the PCH it builds is found fresh by the next file of the same run (its
 * own .pch is never answered from the memo), and a header changed after the run stat'ed it is
 * seen by the next run (a new memo), not by this one. */
Test(cpp_pch, a_runs_stat_memo_checks_the_headers_once) {
    Fixture fx = fixture();
    cr_assert(dl_clang_load(NULL), "libclang could not be opened");
    CXIndex index = clang_createIndex(0, 0);
    DlStatMemo *run = dl_stat_memo_new();
    char *pch = pch_for_run(index, &fx, user_text, run);
    struct stat first = stat_of(pch);
    char *again = pch_for_run(index, &fx, user_text, run);
    cr_assert_str_eq(again, pch);
    struct stat now = stat_of(pch);
    cr_assert(same_file_version(&first, &now), "rebuilt within one run");
    free(again);

    struct timespec times[2] = {{0, UTIME_OMIT}, {first.st_mtim.tv_sec + 10, 0}};
    cr_assert_eq(utimensat(AT_FDCWD, fx.header, times, 0), 0);
    again = pch_for_run(index, &fx, user_text, run);
    now = stat_of(pch);
    cr_assert(same_file_version(&first, &now), "the run saw the header as it first was");
    free(again);
    dl_stat_memo_free(run);

    run = dl_stat_memo_new(); /* the next run */
    again = pch_for_run(index, &fx, user_text, run);
    cr_assert_str_eq(again, pch);
    now = stat_of(pch);
    cr_assert_not(same_file_version(&first, &now), "the next run did not rebuild it");
    free(again);
    dl_stat_memo_free(run);
    free(pch);
    clang_disposeIndex(index);
    dl_cpp_compile_command_free(&fx.cmd);
}

Test(cpp_pch, same_prelude_shares_a_pch_and_other_flags_do_not) {
    Fixture fx = fixture();
    cr_assert(dl_clang_load(NULL), "libclang could not be opened");
    CXIndex index = clang_createIndex(0, 0);
    char *a = pch_for(index, &fx, user_text);
    /* the same includes written differently, and other code after them: the same PCH */
    char *b = pch_for(index, &fx,
                      "// another file\n#include   <vector>\n#include <torch/fake.h> // fake\n"
                      "#include <map>\nint other();\n");
    cr_assert_str_eq(a, b);
    /* a different flag: another PCH */
    free(fx.cmd.args[2]);
    fx.cmd.args[2] = strdup("-std=c++20");
    char *c = pch_for(index, &fx, user_text);
    cr_assert_str_neq(a, c);
    free(a);
    free(b);
    free(c);
    clang_disposeIndex(index);
    dl_cpp_compile_command_free(&fx.cmd);
}

Test(cpp_pch, no_libtorch_prelude_means_no_pch) {
    Fixture fx = fixture();
    cr_assert(dl_clang_load(NULL), "libclang could not be opened");
    CXIndex index = clang_createIndex(0, 0);
    char *error = NULL;
    static const char text[] = "#include <vector>\nint main() {}\n";
    cr_assert_null(dl_cpp_pch_for(index, &fx.cmd, text, strlen(text), fx.cache, &error));
    cr_assert_null(error);
    cr_assert_neq(access(fx.cache, F_OK), 0, "nothing is written");
    clang_disposeIndex(index);
    dl_cpp_compile_command_free(&fx.cmd);
}

Test(cpp_pch, missing_header_is_an_error_naming_it) {
    Fixture fx = fixture();
    cr_assert(dl_clang_load(NULL), "libclang could not be opened");
    CXIndex index = clang_createIndex(0, 0);
    static const char text[] = "#include <vector>\n#include <torch/missing.h>\nint main() {}\n";
    for (int attempt = 0; attempt < 2; attempt++) { /* the second answer is remembered */
        char *error = NULL;
        cr_assert_null(dl_cpp_pch_for(index, &fx.cmd, text, strlen(text), fx.cache, &error));
        cr_assert_not_null(error);
        cr_assert(strstr(error, ".h:2: 'torch/missing.h' file not found"), "%s", error);
        cr_assert(strstr(error, fmt("%s/pch/", fx.cache)), "%s", error);
        free(error);
    }
    clang_disposeIndex(index);
    dl_cpp_compile_command_free(&fx.cmd);
}

Test(cpp_pch, a_failed_build_is_not_tried_again_by_runs_within_the_hour) {
    Fixture fx = fixture();
    cr_assert(dl_clang_load(NULL), "libclang could not be opened");
    CXIndex index = clang_createIndex(0, 0);
    static const char text[] = "#include <torch/later.h>\nint main() {}\n";
    char *error = NULL;
    cr_assert_null(dl_cpp_pch_for(index, &fx.cmd, text, strlen(text), fx.cache, &error));
    cr_assert(error && strstr(error, "'torch/later.h' file not found"), "%s", error);
    free(error);
    /* the next run, once the header is there: still the error, within the hour */
    dl_cpp_pch_forget_failures();
    write_text(fmt("%s/torch/later.h", fx.inc), "#pragma once\nint later();\n");
    error = NULL;
    cr_assert_null(dl_cpp_pch_for(index, &fx.cmd, text, strlen(text), fx.cache, &error));
    cr_assert(error && strstr(error, "'torch/later.h' file not found"), "%s", error);
    free(error);
    /* an hour later, tried again: built, and the failure forgotten */
    DIR *d = opendir(fmt("%s/pch", fx.cache));
    cr_assert_not_null(d);
    const char *failed = NULL;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".failed")) failed = fmt("%s/pch/%s", fx.cache, e->d_name);
    closedir(d);
    cr_assert_not_null(failed, "no .failed marker");
    struct timespec old[2] = {{time(NULL) - 7200, 0}, {time(NULL) - 7200, 0}};
    cr_assert_eq(utimensat(AT_FDCWD, failed, old, 0), 0);
    dl_cpp_pch_forget_failures();
    char *pch = pch_for(index, &fx, text);
    cr_assert_neq(access(failed, F_OK), 0, "the marker stayed");
    free(pch);
    clang_disposeIndex(index);
    dl_cpp_compile_command_free(&fx.cmd);
}

Test(cpp_pch, command_line_errors_do_not_prevent_a_pch) {
    Fixture fx = fixture();
    const char *args[] = {"-x", "c++", "-std=c++17", "-isystem", fx.inc, "-fgcc-only-flag"};
    dl_cpp_compile_command_free(&fx.cmd);
    set_args(&fx.cmd, args, sizeof args / sizeof *args);
    cr_assert(dl_clang_load(NULL), "libclang could not be opened");
    CXIndex index = clang_createIndex(0, 0);
    char *pch = pch_for(index, &fx, user_text);
    Seen seen = {0};
    parse_errors(index, &fx, pch, &seen); /* one error: the unknown argument */
    cr_assert(seen.call_resolved);
    free(pch);
    clang_disposeIndex(index);
    dl_cpp_compile_command_free(&fx.cmd);
}

Test(cpp_pch, unwritable_cache_is_an_error) {
    Fixture fx = fixture();
    write_text(fmt("%s/file", fx.dir), "");
    cr_assert(dl_clang_load(NULL), "libclang could not be opened");
    CXIndex index = clang_createIndex(0, 0);
    char *error = NULL;
    cr_assert_null(dl_cpp_pch_for(index, &fx.cmd, user_text, strlen(user_text),
                                  fmt("%s/file/cache", fx.dir), &error));
    cr_assert_not_null(error);
    cr_assert(strstr(error, "cannot create"), "%s", error);
    free(error);
    clang_disposeIndex(index);
    dl_cpp_compile_command_free(&fx.cmd);
}

Test(cpp_pch, least_recently_used_pchs_are_evicted_beyond_eight) {
    Fixture fx = fixture();
    const char *dir = fmt("%s/pch", fx.cache);
    cr_assert_eq(mkdir(fx.cache, 0755), 0);
    cr_assert_eq(mkdir(dir, 0755), 0);
    /* nine older PCHs, last used at t = 1000 + i */
    for (int i = 0; i < 9; i++) {
        write_text(fmt("%s/%016x.pch", dir, i), "old");
        write_text(fmt("%s/%016x.deps", dir, i), "");
        const char *lock = fmt("%s/%016x.lock", dir, i);
        write_text(lock, "");
        struct timespec times[2] = {{1000 + i, 0}, {1000 + i, 0}};
        cr_assert_eq(utimensat(AT_FDCWD, lock, times, 0), 0);
    }
    cr_assert(dl_clang_load(NULL), "libclang could not be opened");
    CXIndex index = clang_createIndex(0, 0);
    char *pch = pch_for(index, &fx, user_text);
    cr_assert_eq(access(pch, F_OK), 0);
    for (int i = 0; i < 9; i++) {
        bool kept = access(fmt("%s/%016x.pch", dir, i), F_OK) == 0;
        cr_assert_eq(kept, i >= 2, "PCH %d %s", i, kept ? "kept" : "evicted");
        cr_assert_eq(access(fmt("%s/%016x.deps", dir, i), F_OK) == 0, i >= 2);
    }
    free(pch);
    clang_disposeIndex(index);
    dl_cpp_compile_command_free(&fx.cmd);
}

Test(cpp_pch, what_a_killed_build_left_behind_is_removed) {
    Fixture fx = fixture();
    const char *dir = fmt("%s/pch", fx.cache);
    cr_assert_eq(mkdir(fx.cache, 0755), 0);
    cr_assert_eq(mkdir(dir, 0755), 0);
    /* key a: killed two hours ago mid-build (no .pch); key b: the same, a minute ago (another
     * process may be building it still) */
    time_t now = time(NULL);
    const char *keys[2] = {"00000000000000aa", "00000000000000bb"};
    time_t ages[2] = {7200, 60};
    for (int k = 0; k < 2; k++) {
        write_text(fmt("%s/%s.h", dir, keys[k]), "#include <torch/extension.h>\n");
        write_text(fmt("%s/%s.pch.tmp.1.1-x", dir, keys[k]), "half a PCH");
        const char *lock = fmt("%s/%s.lock", dir, keys[k]);
        write_text(lock, "");
        struct timespec times[2] = {{now - ages[k], 0}, {now - ages[k], 0}};
        cr_assert_eq(utimensat(AT_FDCWD, lock, times, 0), 0);
    }
    cr_assert(dl_clang_load(NULL), "libclang could not be opened");
    CXIndex index = clang_createIndex(0, 0);
    char *pch = pch_for(index, &fx, user_text);
    cr_assert_eq(access(pch, F_OK), 0);
    for (int k = 0; k < 2; k++) {
        bool gone = k == 0;
        cr_assert_eq(access(fmt("%s/%s.lock", dir, keys[k]), F_OK) != 0, gone);
        cr_assert_eq(access(fmt("%s/%s.h", dir, keys[k]), F_OK) != 0, gone);
        cr_assert_eq(access(fmt("%s/%s.pch.tmp.1.1-x", dir, keys[k]), F_OK) != 0, gone);
    }
    free(pch);
    clang_disposeIndex(index);
    dl_cpp_compile_command_free(&fx.cmd);
}

Test(cpp_pch, pchs_this_run_used_are_not_evicted) {
    Fixture fx = fixture();
    const char *dir = fmt("%s/pch", fx.cache);
    cr_assert_eq(mkdir(fx.cache, 0755), 0);
    cr_assert_eq(mkdir(dir, 0755), 0);
    cr_assert(dl_clang_load(NULL), "libclang could not be opened");
    CXIndex index = clang_createIndex(0, 0);
    char *error = NULL;
    /* the run's first look for a PCH: none of the user's yet */
    free(dl_cpp_pch_for(index, &fx.cmd, "int x;\n", 7, fx.cache, &error));
    free(error);
    /* nine PCHs this run has used (their locks touched now): a project with more flag sets
     * than the cache keeps must not evict its own and rebuild them on every run */
    for (int i = 0; i < 9; i++) {
        write_text(fmt("%s/%016x.pch", dir, i), "used");
        write_text(fmt("%s/%016x.deps", dir, i), "");
        write_text(fmt("%s/%016x.lock", dir, i), "");
    }
    char *pch = pch_for(index, &fx, user_text);
    cr_assert_eq(access(pch, F_OK), 0);
    for (int i = 0; i < 9; i++)
        cr_assert_eq(access(fmt("%s/%016x.pch", dir, i), F_OK), 0, "PCH %d evicted", i);
    free(pch);
    clang_disposeIndex(index);
    dl_cpp_compile_command_free(&fx.cmd);
}

/* ---------------------------------------------------------------- concurrency */

typedef struct Job {
    Fixture *fx;
    char *pch;
    struct stat st;
} Job;

static void *build_in_thread(void *arg) {
    Job *job = arg;
    cr_assert(dl_clang_load(NULL), "libclang could not be opened");
    CXIndex index = clang_createIndex(0, 0);
    char *error = NULL;
    job->pch =
        dl_cpp_pch_for(index, &job->fx->cmd, user_text, strlen(user_text), job->fx->cache, &error);
    free(error);
    if (job->pch) stat(job->pch, &job->st);
    clang_disposeIndex(index);
    return NULL;
}

Test(cpp_pch, threads_wanting_one_pch_build_it_once) {
    Fixture fx = fixture();
    enum { THREADS = 6 };
    pthread_t threads[THREADS];
    Job jobs[THREADS] = {0};
    for (int i = 0; i < THREADS; i++) {
        jobs[i].fx = &fx;
        cr_assert_eq(pthread_create(&threads[i], NULL, build_in_thread, &jobs[i]), 0);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    /* every thread saw the one build: a second build would have renamed a new inode in */
    struct stat final = stat_of(jobs[0].pch);
    for (int i = 0; i < THREADS; i++) {
        cr_assert_not_null(jobs[i].pch, "thread %d got no PCH", i);
        cr_assert_str_eq(jobs[i].pch, jobs[0].pch);
        cr_assert(same_file_version(&jobs[i].st, &final), "thread %d saw another build", i);
    }
    for (int i = 0; i < THREADS; i++)
        free(jobs[i].pch);
    dl_cpp_compile_command_free(&fx.cmd);
}

Test(cpp_pch, processes_wanting_one_pch_build_it_once) {
    Fixture fx = fixture();
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t child = fork();
    cr_assert_geq(child, 0);
    Job job = {.fx = &fx};
    build_in_thread(&job);
    if (child == 0) {
        ssize_t w = write(fds[1], &job.st, sizeof job.st);
        _exit(job.pch && w == (ssize_t)sizeof job.st ? 0 : 1);
    }
    struct stat theirs;
    cr_assert_eq(read(fds[0], &theirs, sizeof theirs), (ssize_t)sizeof theirs);
    int status;
    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    cr_assert_not_null(job.pch);
    struct stat final = stat_of(job.pch);
    cr_assert(same_file_version(&job.st, &final), "this process saw another build");
    cr_assert(same_file_version(&theirs, &final), "the other process saw another build");
    free(job.pch);
    close(fds[0]);
    close(fds[1]);
    dl_cpp_compile_command_free(&fx.cmd);
}

/* ---------------------------------------------------------------- the cache directory */

Test(cpp_pch_prelude, default_cache_dir) {
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    setenv("HOME", "/home/u", 1);
    char *dir = dl_cpp_default_cache_dir();
    cr_assert_str_eq(dir, "/xdg/devlint");
    free(dir);
    setenv("XDG_CACHE_HOME", "relative", 1); /* the spec says: ignore a relative one */
    dir = dl_cpp_default_cache_dir();
    cr_assert_str_eq(dir, "/home/u/.cache/devlint");
    free(dir);
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    cr_assert_null(dl_cpp_default_cache_dir());
}
