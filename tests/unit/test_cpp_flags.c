/* Unit tests for frontend/cpp_flags: compile_commands.json with "arguments" and "command",
 * relative paths, -p DIR, the walk up (build/ too), headers borrowing a neighbour's command,
 * nvcc entries, the default command, and databases that cannot be used. */
#define _GNU_SOURCE /* nftw (temp_dirs.h), vasprintf */
#include "frontend/cpp_flags.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "temp_dirs.h"
#include "test_text.h"

static void cleanup(void) {
    free_fmt_strings();
    dl_cpp_flags_forget();
    remove_temp_dirs();
}

TestSuite(cpp_flags, .fini = cleanup);

static DlCompileCommand command(const char *file, const char *db_dir) {
    DlCompileCommand c;
    char *error = NULL;
    bool ok = dl_cpp_compile_command(file, db_dir, &c, &error);
    cr_assert(ok, "unexpected error: %s", error ? error : "(none)");
    cr_assert_null(c.args[c.arg_count]);
    return c;
}

static char *command_error(const char *file, const char *db_dir) {
    DlCompileCommand c;
    char *error = NULL;
    cr_assert_not(dl_cpp_compile_command(file, db_dir, &c, &error), "expected an error");
    cr_assert_not_null(error);
    cr_assert_null(c.args);
    return error;
}

static void print_args(const DlCompileCommand *c) {
    for (size_t i = 0; i < c->arg_count; i++)
        fprintf(stderr, "  [%zu] %s\n", i, c->args[i]);
}

/* The last n arguments are exactly `want` (what follows the language / CUDA flags). */
static void assert_tail(const DlCompileCommand *c, const char *const *want, size_t n) {
    if (c->arg_count < n) print_args(c);
    cr_assert_geq(c->arg_count, n, "%zu arguments, want at least %zu", c->arg_count, n);
    size_t off = c->arg_count - n;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(c->args[off + i], want[i]) != 0) print_args(c);
        cr_assert_str_eq(c->args[off + i], want[i], "argument %zu", off + i);
    }
}

static void assert_args(const DlCompileCommand *c, const char *const *want, size_t n) {
    if (c->arg_count != n) print_args(c);
    cr_assert_eq(c->arg_count, n, "%zu arguments, want %zu", c->arg_count, n);
    assert_tail(c, want, n);
}

static bool has_arg(const DlCompileCommand *c, const char *arg) {
    for (size_t i = 0; i < c->arg_count; i++)
        if (strcmp(c->args[i], arg) == 0) return true;
    return false;
}

static bool has_pair(const DlCompileCommand *c, const char *flag, const char *value) {
    for (size_t i = 0; i + 1 < c->arg_count; i++)
        if (strcmp(c->args[i], flag) == 0 && strcmp(c->args[i + 1], value) == 0) return true;
    return false;
}

#define N(a) (sizeof(a) / sizeof *(a))

/* ---------------------------------------------------------------- entries */

Test(cpp_flags, arguments_entry_is_cleaned_and_made_absolute) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/src/a.cpp", t), "int main() {}\n");
    write_text(fmt("%s/compile_commands.json", t),
               fmt("[{\"directory\": \"%s/build\", \"file\": \"../src/a.cpp\", \"arguments\": "
                   "[\"/usr/bin/g++\", \"-Iinc\", \"-I\", \"../include\", \"-isystem\", "
                   "\"third\", \"-isystemjoined\", \"-iquote\", \"q\", \"-idirafter\", \"after\", "
                   "\"-include\", \"pre.h\", \"-I=sys\", \"--sysroot=root\", \"-I/abs\", "
                   "\"-DX=1\", \"-D\", \"Y\", \"-std=c++17\", \"-O2\", \"-c\", \"../src/a.cpp\", "
                   "\"-o\", \"a.o\", \"-MD\", \"-MMD\", \"-MF\", \"a.d\", \"-MT\", \"a.o\", "
                   "\"-MQ\", \"q.o\", \"-MFjoined.d\"]}]",
                   t));
    DlCompileCommand c = command(fmt("%s/src/a.cpp", t), NULL);
    const char *want[] = {fmt("-I%s/build/inc", t),
                          "-I",
                          fmt("%s/include", t),
                          "-isystem",
                          fmt("%s/build/third", t),
                          fmt("-isystem%s/build/joined", t),
                          "-iquote",
                          fmt("%s/build/q", t),
                          "-idirafter",
                          fmt("%s/build/after", t),
                          "-include",
                          fmt("%s/build/pre.h", t),
                          "-I=sys",
                          fmt("--sysroot=%s/build/root", t),
                          "-I/abs",
                          "-DX=1",
                          "-D",
                          "Y",
                          "-std=c++17",
                          "-O2"};
    assert_args(&c, want, N(want));
    cr_assert_str_eq(c.file, fmt("%s/src/a.cpp", t));
    cr_assert_str_eq(c.directory, fmt("%s/build", t));
    cr_assert_str_eq(c.database, fmt("%s/compile_commands.json", t));
    cr_assert_not(c.is_cuda);
    dl_cpp_compile_command_free(&c);
}

Test(cpp_flags, command_string_is_shell_split) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/a.cc", t), "");
    /* JSON escapes: \" is a quote, \\\\ one backslash in the command */
    write_text(fmt("%s/compile_commands.json", t),
               fmt("[{\"directory\": \"%s\", \"file\": \"%s/a.cc\", \"command\": "
                   "\"ccache /usr/bin/c++ -DMSG=\\\"hello world\\\" -I'my dir' "
                   "-DPATH=a\\\\ b \\\"-DQ=\\\\\\\"q\\\\\\\"\\\" -c a.cc -o a.o\"}]",
                   t, t));
    DlCompileCommand c = command(fmt("%s/a.cc", t), NULL);
    const char *want[] = {"-DMSG=hello world", fmt("-I%s/my dir", t), "-DPATH=a b", "-DQ=\"q\""};
    assert_args(&c, want, N(want));
    dl_cpp_compile_command_free(&c);
}

Test(cpp_flags, database_given_with_p) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/proj/a.cpp", t), "");
    write_text(fmt("%s/out/compile_commands.json", t),
               fmt("[{\"directory\": \"%s/out\", \"file\": \"%s/proj/a.cpp\", "
                   "\"arguments\": [\"clang++\", \"-DFROM_P\", \"%s/proj/a.cpp\"]}]",
                   t, t, t));
    DlCompileCommand c = command(fmt("%s/proj/a.cpp", t), fmt("%s/out", t));
    const char *want[] = {"-DFROM_P"};
    assert_args(&c, want, N(want));
    cr_assert_str_eq(c.database, fmt("%s/out/compile_commands.json", t));
    dl_cpp_compile_command_free(&c);

    /* not found by the walk: the default command */
    c = command(fmt("%s/proj/a.cpp", t), NULL);
    cr_assert_null(c.database);
    cr_assert_not(has_arg(&c, "-DFROM_P"));
    dl_cpp_compile_command_free(&c);

    /* -p to a directory without a database is an error naming the file looked for */
    char *error = command_error(fmt("%s/proj/a.cpp", t), fmt("%s/proj", t));
    cr_assert_str_eq(error, fmt("%s/proj/compile_commands.json: No such file or directory", t));
    free(error);
}

Test(cpp_flags, relative_p_is_taken_from_the_cwd) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/a.cpp", t), "");
    write_text(fmt("%s/b/compile_commands.json", t),
               fmt("[{\"directory\": \".\", \"file\": \"../a.cpp\", "
                   "\"arguments\": [\"g++\", \"-Iinc\", \"-c\", \"../a.cpp\"]}]"));
    cr_assert_eq(chdir(t), 0);
    DlCompileCommand c = command("a.cpp", "b");
    /* a relative "directory" is the database's own */
    const char *want[] = {fmt("-I%s/b/inc", t)};
    assert_args(&c, want, N(want));
    cr_assert_str_eq(c.directory, fmt("%s/b", t));
    dl_cpp_compile_command_free(&c);
}

Test(cpp_flags, walk_up_finds_the_nearest_database_and_build_dir) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/proj/src/deep/a.cpp", t), "");
    write_text(fmt("%s/proj/src/b.cpp", t), "");
    write_text(fmt("%s/proj/build/compile_commands.json", t),
               fmt("[{\"directory\": \"%s/proj/build\", \"file\": \"%s/proj/src/deep/a.cpp\", "
                   "\"arguments\": [\"g++\", \"-DBUILD\", \"-c\", \"%s/proj/src/deep/a.cpp\"]},"
                   " {\"directory\": \"%s/proj/build\", \"file\": \"%s/proj/src/b.cpp\", "
                   "\"arguments\": [\"g++\", \"-DBUILD_B\", \"-c\", \"%s/proj/src/b.cpp\"]}]",
                   t, t, t, t, t, t));
    DlCompileCommand c = command(fmt("%s/proj/src/deep/a.cpp", t), NULL);
    const char *want[] = {"-DBUILD"};
    assert_args(&c, want, N(want));
    cr_assert_str_eq(c.database, fmt("%s/proj/build/compile_commands.json", t));
    dl_cpp_compile_command_free(&c);

    /* a nearer database wins, even without the file (then: the default command) */
    write_text(fmt("%s/proj/src/compile_commands.json", t),
               fmt("[{\"directory\": \"%s\", \"file\": \"%s/proj/src/deep/a.cpp\", "
                   "\"arguments\": [\"g++\", \"-DNEAR\", \"-c\", \"deep/a.cpp\"]}]",
                   t, t));
    c = command(fmt("%s/proj/src/deep/a.cpp", t), NULL);
    const char *near[] = {"-DNEAR"};
    assert_args(&c, near, N(near));
    cr_assert_str_eq(c.database, fmt("%s/proj/src/compile_commands.json", t));
    dl_cpp_compile_command_free(&c);
    c = command(fmt("%s/proj/src/b.cpp", t), NULL);
    cr_assert_null(c.database);
    cr_assert(has_arg(&c, "-std=c++17"));
    dl_cpp_compile_command_free(&c);
}

Test(cpp_flags, database_is_reread_when_it_changes) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/a.cpp", t), "");
    const char *db = fmt("%s/compile_commands.json", t);
    write_text(db, fmt("[{\"directory\": \"%s\", \"file\": \"a.cpp\", \"command\": \"g++ -DONE "
                       "-c a.cpp\"}]",
                       t));
    DlCompileCommand c = command(fmt("%s/a.cpp", t), NULL);
    cr_assert(has_arg(&c, "-DONE"));
    dl_cpp_compile_command_free(&c);
    write_text(db, fmt("[{\"directory\": \"%s\", \"file\": \"a.cpp\", \"command\": \"g++ "
                       "-DSECOND -c a.cpp\"}]",
                       t));
    c = command(fmt("%s/a.cpp", t), NULL);
    cr_assert(has_arg(&c, "-DSECOND"));
    cr_assert_not(has_arg(&c, "-DONE"));
    dl_cpp_compile_command_free(&c);
}

Test(cpp_flags, symlinked_paths_match_their_entry) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/real/a.cpp", t), "");
    cr_assert_eq(symlink(fmt("%s/real", t), fmt("%s/link", t)), 0);
    write_text(fmt("%s/real/compile_commands.json", t),
               fmt("[{\"directory\": \"%s/link\", \"file\": \"a.cpp\", \"command\": \"g++ -DSEEN "
                   "-c a.cpp\"}]",
                   t));
    DlCompileCommand c = command(fmt("%s/link/a.cpp", t), NULL);
    cr_assert(has_arg(&c, "-DSEEN"));
    dl_cpp_compile_command_free(&c);
}

/* ---------------------------------------------------------------- headers */

Test(cpp_flags, header_borrows_the_nearest_source_command) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/compile_commands.json", t),
               fmt("[{\"directory\": \"%s\", \"file\": \"src/a.cpp\", \"command\": \"g++ -DA -c "
                   "src/a.cpp\"},"
                   " {\"directory\": \"%s\", \"file\": \"src/b.cpp\", \"command\": \"g++ -DB -c "
                   "src/b.cpp\"},"
                   " {\"directory\": \"%s\", \"file\": \"src/k.cu\", \"command\": \"nvcc -DK -c "
                   "src/k.cu\"},"
                   " {\"directory\": \"%s\", \"file\": \"other/c.c\", \"command\": \"gcc -DC -c "
                   "other/c.c\"}]",
                   t, t, t, t));
    /* same stem in the same directory */
    DlCompileCommand c = command(fmt("%s/src/b.h", t), NULL);
    const char *b[] = {"-x", "c++", "-DB"};
    assert_args(&c, b, N(b));
    cr_assert_str_eq(c.database, fmt("%s/compile_commands.json", t));
    dl_cpp_compile_command_free(&c);
    /* no same stem: the first source of the directory */
    c = command(fmt("%s/src/z.hpp", t), NULL);
    const char *a[] = {"-x", "c++", "-DA"};
    assert_args(&c, a, N(a));
    dl_cpp_compile_command_free(&c);
    /* a C file's command is never borrowed (it would parse the header as C): the nearest
     * C++ one is */
    c = command(fmt("%s/other/c.h", t), NULL);
    assert_args(&c, a, N(a));
    dl_cpp_compile_command_free(&c);
    /* a .cuh is CUDA whichever command it borrows; k.h borrows k.cu's and is CUDA too */
    c = command(fmt("%s/src/a.cuh", t), NULL);
    cr_assert(c.is_cuda);
    cr_assert_str_eq(c.args[0], "-x");
    cr_assert_str_eq(c.args[1], "cuda");
    cr_assert_str_eq(c.args[c.arg_count - 1], "-DA");
    dl_cpp_compile_command_free(&c);
    c = command(fmt("%s/src/k.h", t), NULL);
    cr_assert(c.is_cuda);
    cr_assert_str_eq(c.args[c.arg_count - 1], "-DK");
    dl_cpp_compile_command_free(&c);
    /* a source file without an entry does not borrow */
    c = command(fmt("%s/src/new.cpp", t), NULL);
    cr_assert_null(c.database);
    dl_cpp_compile_command_free(&c);
}

Test(cpp_flags, header_with_its_own_entry_uses_it) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/compile_commands.json", t),
               fmt("[{\"directory\": \"%s\", \"file\": \"a.cpp\", \"command\": \"g++ -DA -c "
                   "a.cpp\"},"
                   " {\"directory\": \"%s\", \"file\": \"a.h\", \"command\": \"g++ -DH -x "
                   "c++-header a.h\"}]",
                   t, t));
    DlCompileCommand c = command(fmt("%s/a.h", t), NULL);
    const char *want[] = {"-x", "c++-header", "-DH"};
    assert_args(&c, want, N(want));
    dl_cpp_compile_command_free(&c);
}

/* ---------------------------------------------------------------- nvcc and CUDA */

Test(cpp_flags, nvcc_entry_is_translated) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/compile_commands.json", t),
               fmt("[{\"directory\": \"%s/build\", \"file\": \"../k.cu\", \"arguments\": "
                   "[\"/usr/local/cuda/bin/nvcc\", \"-DTORCH_EXTENSION_NAME=ext\", \"-I../inc\", "
                   "\"-isystem\", \"/opt/torch/include\", \"--expt-relaxed-constexpr\", "
                   "\"-gencode\", \"arch=compute_80,code=sm_80\", "
                   "\"-gencode=arch=compute_90,code=sm_90\", \"-arch=sm_80\", \"-arch\", "
                   "\"sm_70\", \"--use_fast_math\", \"-Xcompiler\", \"-fPIC\", "
                   "\"--compiler-options\", \"-fPIC -DNOT_KEPT\", \"-Xcompiler=-Wall\", "
                   "\"-ccbin\", \"/usr/bin/g++-12\", \"-std=c++17\", \"-O3\", \"-lineinfo\", "
                   "\"-c\", \"../k.cu\", \"-o\", \"k.o\", \"--define-macro\", \"Y=2\", "
                   "\"--include-path=rel\", \"-UZ\", \"-D\", \"W\", \"--pre-include\", \"pre.h\", "
                   "\"-x\", \"cu\", \"--std\", \"c++20\", \"-Werror\", \"all-warnings\", "
                   "\"-D__CUDA_NO_HALF_OPERATORS__\"]}]",
                   t));
    DlCompileCommand c = command(fmt("%s/k.cu", t), NULL);
    cr_assert(c.is_cuda);
    cr_assert_str_eq(c.args[0], "-x");
    cr_assert_str_eq(c.args[1], "cuda");
    cr_assert(has_arg(&c, "--cuda-host-only"));
    cr_assert(has_arg(&c, "-nocudalib"));
    const char *want[] = {"-DTORCH_EXTENSION_NAME=ext",
                          "-I",
                          fmt("%s/inc", t),
                          "-isystem",
                          "/opt/torch/include",
                          "-std=c++17",
                          "-DY=2",
                          "-I",
                          fmt("%s/build/rel", t),
                          "-UZ",
                          "-DW",
                          "-include",
                          fmt("%s/build/pre.h", t),
                          "-std=c++20",
                          "-D__CUDA_NO_HALF_OPERATORS__"};
    assert_tail(&c, want, N(want));
    cr_assert_not(has_arg(&c, "-DNOT_KEPT"));
    cr_assert_not(has_arg(&c, "-fPIC"));
    cr_assert_not(has_arg(&c, "-O3"));
    const char *dropped[] = {"--expt-relaxed-constexpr",
                             "-gencode",
                             "arch=compute_80,code=sm_80",
                             "sm_70",
                             "-ccbin",
                             "/usr/bin/g++-12",
                             "-lineinfo",
                             "all-warnings",
                             "-Werror",
                             "-o",
                             "k.o",
                             "-c",
                             "-Xcompiler",
                             "-fPIC -DNOT_KEPT"};
    for (size_t i = 0; i < N(dropped); i++)
        cr_assert_not(has_arg(&c, dropped[i]), "%s kept", dropped[i]);
    dl_cpp_compile_command_free(&c);
}

Test(cpp_flags, nvcc_compiling_a_cpp_file_is_plain_cpp) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/compile_commands.json", t),
               fmt("[{\"directory\": \"%s\", \"file\": \"bind.cpp\", \"command\": \"nvcc -DB "
                   "-Xcompiler -fopenmp -c bind.cpp -o bind.o\"}]",
                   t));
    DlCompileCommand c = command(fmt("%s/bind.cpp", t), NULL);
    const char *want[] = {"-DB"};
    assert_args(&c, want, N(want));
    cr_assert_not(c.is_cuda);
    dl_cpp_compile_command_free(&c);
}

Test(cpp_flags, clang_cuda_entry_gets_host_mode) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/compile_commands.json", t),
               fmt("[{\"directory\": \"%s\", \"file\": \"k.cu.cc\", \"command\": \"clang++ -x "
                   "cuda --cuda-gpu-arch=sm_80 --cuda-device-only -DK -c k.cu.cc\"}]",
                   t));
    DlCompileCommand c = command(fmt("%s/k.cu.cc", t), NULL);
    cr_assert(c.is_cuda);
    cr_assert_str_eq(c.args[1], "cuda");
    cr_assert(has_arg(&c, "--cuda-host-only"));
    cr_assert_not(has_arg(&c, "--cuda-device-only"));
    const char *want[] = {"--cuda-gpu-arch=sm_80", "-DK"};
    assert_tail(&c, want, N(want));
    dl_cpp_compile_command_free(&c);
}

/* ---------------------------------------------------------------- the default command */

Test(cpp_flags, default_command_for_cpp) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/ext.cpp", t), "");
    cr_assert_eq(chdir(t), 0);
    DlCompileCommand c = command("ext.cpp", NULL);
    cr_assert_str_eq(c.args[0], "-x");
    cr_assert_str_eq(c.args[1], "c++");
    cr_assert_str_eq(c.args[2], "-std=c++17");
    cr_assert_not(c.is_cuda);
    cr_assert_null(c.database);
    cr_assert_str_eq(c.directory, t);
    cr_assert_str_eq(c.file, fmt("%s/ext.cpp", t));
    struct stat st;
    if (stat("/usr/include/torch/csrc/api/include", &st) == 0)
        cr_assert(has_pair(&c, "-isystem", "/usr/include/torch/csrc/api/include"));
    bool python = false;
    for (size_t i = 0; i + 1 < c.arg_count; i++)
        python = python || (strcmp(c.args[i], "-isystem") == 0 &&
                            strncmp(c.args[i + 1], "/usr/include/python3.", 21) == 0);
    if (stat("/usr/include/python3.11/Python.h", &st) == 0) cr_assert(python);
    cr_assert_not(has_arg(&c, "--cuda-host-only"));
    dl_cpp_compile_command_free(&c);
}

Test(cpp_flags, default_command_for_cuda_uses_cuda_home) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/toolkit/include/cuda.h", t), "");
    setenv("CUDA_HOME", fmt("%s/toolkit", t), 1);
    DlCompileCommand c = command(fmt("%s/k.cu", t), NULL);
    cr_assert(c.is_cuda);
    const char *head[] = {"-x", "cuda", "--cuda-host-only", "-nocudalib"};
    for (size_t i = 0; i < N(head); i++)
        cr_assert_str_eq(c.args[i], head[i]);
    cr_assert(has_arg(&c, fmt("--cuda-path=%s/toolkit", t)));
    cr_assert(has_arg(&c, "-std=c++17"));
    dl_cpp_compile_command_free(&c);
    /* C++ files get the toolkit's headers (cuda_runtime.h from a binding .cpp) */
    c = command(fmt("%s/bind.cpp", t), NULL);
    cr_assert(has_pair(&c, "-isystem", fmt("%s/toolkit/include", t)));
    dl_cpp_compile_command_free(&c);
    char *path = dl_cpp_cuda_path();
    cr_assert_str_eq(path, fmt("%s/toolkit", t));
    free(path);
    /* a CUDA_HOME without cuda.h is not a toolkit */
    setenv("CUDA_HOME", t, 1);
    setenv("CUDA_PATH", t, 1);
    path = dl_cpp_cuda_path();
    struct stat st;
    if (stat("/usr/local/cuda/include/cuda.h", &st) == 0)
        cr_assert_str_eq(path, "/usr/local/cuda");
    else
        cr_assert_null(path);
    free(path);
}

/* ---------------------------------------------------------------- bad databases */

Test(cpp_flags, invalid_json_names_the_file_and_line) {
    const char *t = make_temp_dir("dl_cppflags");
    const char *db = fmt("%s/compile_commands.json", t);
    write_text(db, "[\n  {\"directory\": \"/x\",\n   \"file\": }\n]\n");
    char *error = command_error(fmt("%s/a.cpp", t), NULL);
    cr_assert_str_eq(error, fmt("%s: invalid JSON at line 3", db));
    free(error);
    /* every file under it gets the same error (cached, not reparsed into something else) */
    error = command_error(fmt("%s/sub/b.cpp", t), NULL);
    cr_assert_str_eq(error, fmt("%s: invalid JSON at line 3", db));
    free(error);
}

Test(cpp_flags, malformed_databases_are_errors) {
    const char *t = make_temp_dir("dl_cppflags");
    const char *db = fmt("%s/compile_commands.json", t);
    const char *file = fmt("%s/a.cpp", t);
    struct {
        const char *text, *reason;
    } cases[] = {
        {"{}", "expected an array of compile commands"},
        {"", "invalid JSON at line 1"},
        {"[{\"directory\": \"/x\", \"command\": \"g++ a.cpp\"}]", "entry 1 has no \"file\" string"},
        {"[{\"directory\": \"/x\", \"file\": \"a.cpp\", \"command\": \"g++ a.cpp\"}, 3]",
         "entry 2 is not an object"},
        {"[{\"file\": \"a.cpp\", \"command\": \"g++\"}]", "entry 1 has no \"directory\" string"},
        {"[{\"directory\": \"/x\", \"file\": \"a.cpp\"}]",
         "entry 1 has neither \"arguments\" nor \"command\""},
        {"[{\"directory\": \"/x\", \"file\": \"a.cpp\", \"arguments\": [\"g++\", 1]}]",
         "entry 1 has a non-string in \"arguments\""},
        {"[{\"directory\": \"/x\", \"file\": \"a.cpp\", \"command\": \"  \"}]",
         "entry 1 has an empty command"},
    };
    for (size_t i = 0; i < N(cases); i++) {
        /* a different size each time: the cache rereads on size or mtime */
        write_text(db, fmt("%s%*s", cases[i].text, (int)i, ""));
        char *error = command_error(file, NULL);
        cr_assert_str_eq(error, fmt("%s: %s", db, cases[i].reason), "case %zu", i);
        free(error);
    }
}

Test(cpp_flags, unreadable_database_is_an_error) {
    const char *t = make_temp_dir("dl_cppflags");
    /* a directory where the file should be: stat'able, not readable as a file (root reads
     * everything, so permissions would not do) */
    cr_assert_eq(mkdir(fmt("%s/compile_commands.json", t), 0755), 0);
    char *error = command_error(fmt("%s/a.cpp", t), t);
    cr_assert_str_eq(error, fmt("%s/compile_commands.json: Is a directory", t));
    free(error);
}

/* ---------------------------------------------------------------- threads */

typedef struct {
    const char *file;
    bool ok;
} Job;

static void *lookup(void *arg) {
    Job *job = arg;
    job->ok = true;
    for (int i = 0; i < 50; i++) {
        DlCompileCommand c;
        char *error = NULL;
        if (!dl_cpp_compile_command(job->file, NULL, &c, &error)) {
            free(error);
            job->ok = false;
            return NULL;
        }
        job->ok = job->ok && c.arg_count == 1 && strcmp(c.args[0], "-DT") == 0;
        dl_cpp_compile_command_free(&c);
    }
    return NULL;
}

Test(cpp_flags, lookups_from_many_threads) {
    const char *t = make_temp_dir("dl_cppflags");
    write_text(fmt("%s/compile_commands.json", t),
               fmt("[{\"directory\": \"%s\", \"file\": \"a.cpp\", \"command\": \"g++ -DT -c "
                   "a.cpp\"}]",
                   t));
    enum { THREADS = 8 };
    pthread_t threads[THREADS];
    Job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i].file = fmt("%s/a.cpp", t);
        cr_assert_eq(pthread_create(&threads[i], NULL, lookup, &jobs[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        cr_assert(jobs[i].ok, "thread %d", i);
    }
}
