/* Unit tests for frontend/cpp_include_scan: which #include lines the compiler always reads
 * (comments, literals, conditionals, include guards), where a header is looked for, and when
 * the scan gives up and leaves the file to the compiler. */
#define _GNU_SOURCE /* nftw (temp_dirs.h) */
#include "frontend/cpp_include_scan.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "temp_dirs.h"

TestSuite(cpp_include_scan, .fini = remove_temp_dirs);

static const char *dir;
static char paths[8][256];
static int path_count;

static const char *write_file(const char *name, const char *text) {
    cr_assert_lt(path_count, 8);
    char *path = paths[path_count++];
    snprintf(path, sizeof paths[0], "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void setup_dir(void) {
    dir = make_temp_dir("devlint_include_scan");
}

/* Scans `text` as the main file main.cpp with `args`: the scan's answer (true: followed). */
static bool scan_args(const char *text, const char *const *args, size_t n, DlCppIncludeScan *out) {
    const char *path = write_file("main.cpp", text);
    return dl_cpp_include_scan(path, text, strlen(text), (char *const *)args, n, NULL, NULL, out);
}

static DlCppIncludeScan scan(const char *text) {
    static const char *const args[] = {"-std=c++17"};
    DlCppIncludeScan out;
    cr_assert(scan_args(text, args, 1, &out));
    return out;
}

static void assert_missing(const char *text, const char *name, const char *includer,
                           unsigned line) {
    DlCppIncludeScan out = scan(text);
    cr_assert_not_null(out.missing, "nothing found missing in:\n%s", text);
    cr_assert_str_eq(out.missing, name);
    char *want = NULL;
    cr_assert_geq(asprintf(&want, "%s/%s", dir, includer), 0);
    cr_assert_str_eq(out.includer, want);
    cr_assert_eq(out.line, line);
    free(want);
    dl_cpp_include_scan_free(&out);
}

static void assert_nothing_missing(const char *text) {
    DlCppIncludeScan out = scan(text);
    cr_assert_null(out.missing, "`%s` reported missing in:\n%s", out.missing, text);
    dl_cpp_include_scan_free(&out);
}

Test(cpp_include_scan, a_quoted_include_found_nowhere, .init = setup_dir) {
    assert_missing("#include <vector>\n\n#include \"kernels.h\"\nint f();\n", "kernels.h",
                   "main.cpp", 3);
}

Test(cpp_include_scan, an_angled_include_found_nowhere, .init = setup_dir) {
    assert_missing("  #  include <no_such_dir/cutlass.h> // the library\n", "no_such_dir/cutlass.h",
                   "main.cpp", 1);
}

Test(cpp_include_scan, system_and_neighbour_headers_are_found, .init = setup_dir) {
    write_file("here.h", "#pragma once\n#include <cstdio>\n");
    assert_nothing_missing("#include <vector>\n#include <stddef.h>\n#include \"here.h\"\n");
}

Test(cpp_include_scan, a_project_header_is_read_for_its_own_includes, .init = setup_dir) {
    write_file("layers.h", "// the kernels\n#ifndef LAYERS_H\n#define LAYERS_H\n"
                           "#include <vector>\n#include \"generated/config.h\"\n#endif\n");
    DlCppIncludeScan out = scan("#include \"layers.h\"\n#include \"later.h\"\n");
    cr_assert_str_eq(out.missing, "generated/config.h");
    cr_assert(strstr(out.includer, "/layers.h"));
    cr_assert_eq(out.line, 5);
    /* what was found before it, <vector>'s own headers too: a cached failure depends on them */
    cr_assert_gt(out.read_count, 2);
    cr_assert(strstr(out.read[0], "/layers.h"));
    cr_assert(strstr(out.read[1], "/vector"));
    dl_cpp_include_scan_free(&out);
}

Test(cpp_include_scan, a_guard_written_with_if_not_defined, .init = setup_dir) {
    write_file("guarded.h", "#if !defined(GUARDED_H)\n#define GUARDED_H\n#include \"gone.h\"\n#endif\n");
    assert_missing("#include \"guarded.h\"\n", "gone.h", "guarded.h", 3);
}

Test(cpp_include_scan, conditional_includes_are_not_followed, .init = setup_dir) {
    assert_nothing_missing("#ifdef __CUDACC__\n#include \"cuda_only.h\"\n#endif\n"
                           "#if 0\n#include \"old.h\"\n#else\n#include \"other.h\"\n#endif\n"
                           "#ifndef USE_X\n#define USE_Y\n#include \"y.h\"\n#endif\n");
    /* a guard only counts first in the file: here `#ifndef` is an ordinary conditional */
    write_file("late_guard.h", "int x;\n#ifndef LATE_H\n#define LATE_H\n#include \"gone.h\"\n#endif\n");
    assert_nothing_missing("#include \"late_guard.h\"\n");
}

Test(cpp_include_scan, commented_out_includes_are_not_followed, .init = setup_dir) {
    assert_nothing_missing("// #include \"a.h\"\n/* old:\n#include \"b.h\"\n*/\n"
                           "// continued \\\n#include \"c.h\"\n"
                           "#define X 1 /* a comment that\n#include \"d.h\"\n goes on */\n");
}

Test(cpp_include_scan, literals_that_look_like_comments_or_includes, .init = setup_dir) {
    assert_nothing_missing("const char *s = R\"py(\n#include \"in_raw_string.h\"\n)py\";\n");
    /* a raw string with a broken delimiter: where the compiler resumes is its guess */
    assert_nothing_missing("const char *s = R\"d*\n#include \"after_broken_raw.h\"\n)\";\n");
    assert_missing("const char *s = \"/*\";\nint n = 1'000'000;\nchar c = '\"';\n"
                   "#include \"real.h\"\n",
                   "real.h", "main.cpp", 4);
    assert_missing("#define OPEN \"/*\"\n#include \"after_define.h\"\n", "after_define.h",
                   "main.cpp", 2);
    /* `logits'` opens a (broken) character literal, as the compiler reads it: the `)` after it
     * closes nothing, and the #include is still inside TORCH_CHECK's arguments (fuzz_cpp) */
    assert_nothing_missing("void f() {\n  TORCH_CHECK(x, \"unterminated (\n"
                           "  int n = static_cast<int logits' options).\n#include <gone.h>\n");
    assert_missing("int n = 0x7f'ff'ff + 1'000;\nvoid f(int);\n#include \"after_numbers.h\"\n",
                   "after_numbers.h", "main.cpp", 3);
}

Test(cpp_include_scan, a_string_spliced_over_a_directive, .init = setup_dir) {
    /* a backslash at a line's end splices the next line into the string: no directive there
     * (fuzz_cpp); the lines it took are still counted */
    assert_nothing_missing("const char *usage = \"usage: infer\\\n#include <in_string.h>\n");
    assert_nothing_missing("const char *usage = \"usage: infer\\\r\n#include <in_string.h>\n");
    assert_missing("const char *s = \"one\\\ntwo\\\rthree\";\n#include \"fourth_line.h\"\n",
                   "fourth_line.h", "main.cpp", 4);
    assert_missing("#define S \"one\\\ntwo\"\n#include \"third_line.h\"\n", "third_line.h",
                   "main.cpp", 3);
}

Test(cpp_include_scan, an_include_between_parentheses_is_not_followed, .init = setup_dir) {
    /* in a function-like macro's arguments the compiler does not include it (fuzz_cpp found
     * this one: an unterminated TORCH_CHECK( before the #include) */
    assert_nothing_missing("void f(int taps) {\n  TORCH_CHECK(taps > 0,\n#include \"gone.h\"\n");
    assert_missing("int g() { return (1 + 2); }\n#include \"after.h\"\n", "after.h", "main.cpp",
                   2);
}

Test(cpp_include_scan, a_macro_that_leaves_a_parenthesis_open, .init = setup_dir) {
    /* where CHECK is used, the call to f it leaves open gathers the lines after it, and clang
     * does not include "gone.h" among them (fuzz_cpp: an unterminated string in CHECK_CUDA);
     * the scan does not expand macros, so it leaves such a file to the compiler */
    assert_nothing_missing("#define CHECK(x) f(x, #x \" unterminated);\n"
                           "void g() { CHECK(a); }\n#include \"gone.h\"\n");
    assert_nothing_missing("#define LEFT (\n#include \"gone.h\"\n");
    assert_missing("#define CHECK(x) f(x, (x), \"(\", '(')\n#include \"gone.h\"\n", "gone.h",
                   "main.cpp", 2);
}

Test(cpp_include_scan, directives_as_the_preprocessor_reads_them, .init = setup_dir) {
    /* a comment inside a directive is a space; a spliced line joins the next; %: is # */
    assert_nothing_missing("#/* c */if 0\n#include \"a.h\"\n#endif\n"
                           "#i\\\nf 0\n#include \"b.h\"\n#en\\\ndif\n"
                           "%:if 0\n#include \"c.h\"\n%:endif\n");
    assert_missing("%:include \"digraph.h\"\n", "digraph.h", "main.cpp", 1);
    assert_missing("#define X /* ( */ 1\n#include \"after_comment.h\"\n", "after_comment.h",
                   "main.cpp", 2);
}

Test(cpp_include_scan, the_compiler_reads_cpath_too, .init = setup_dir) {
    char inc[256];
    snprintf(inc, sizeof inc, "%s/cpath", dir);
    cr_assert_eq(mkdir(inc, 0700), 0);
    write_file("cpath/from_env.h", "\n");
    assert_missing("#include <from_env.h>\n", "from_env.h", "main.cpp", 1);
    setenv("CPATH", inc, 1);
    assert_nothing_missing("#include <from_env.h>\n");
    unsetenv("CPATH");
}

Test(cpp_include_scan, libtorch_switches_only_the_command_sets, .init = setup_dir) {
    /* c10/cuda/CUDAMacros.h: a CPU-only libtorch has no c10/cuda/impl/cuda_cmake_macros.h */
    const char *macros = "#ifndef C10_USING_CUSTOM_GENERATED_MACROS\n"
                         "#ifndef C10_CUDA_NO_CMAKE_CONFIGURE_FILE\n#include \"gen/cmake_macros.h\"\n"
                         "#endif\n#endif\n";
    assert_missing(macros, "gen/cmake_macros.h", "main.cpp", 3);
    static const char *const defined[] = {"-DC10_USING_CUSTOM_GENERATED_MACROS"};
    DlCppIncludeScan out;
    cr_assert(scan_args(macros, defined, 1, &out));
    cr_assert_null(out.missing);
    dl_cpp_include_scan_free(&out);
    static const char *const undefined[] = {"-D", "C10_CUDA_NO_CMAKE_CONFIGURE_FILE=1", "-U",
                                            "C10_CUDA_NO_CMAKE_CONFIGURE_FILE"};
    cr_assert(scan_args(macros, undefined, 4, &out));
    cr_assert_str_eq(out.missing, "gen/cmake_macros.h");
    dl_cpp_include_scan_free(&out);
    /* the branches of a decided chain; an undecided #elif makes the rest unknown */
    assert_missing("#ifdef C10_USING_CUSTOM_GENERATED_MACROS\n#include \"custom.h\"\n#else\n"
                   "#include \"generated.h\"\n#endif\n",
                   "generated.h", "main.cpp", 4);
    assert_nothing_missing("#ifdef C10_USING_CUSTOM_GENERATED_MACROS\n#elif X\n#else\n"
                           "#include \"unknown.h\"\n#endif\n");
    /* a file that sets one itself: not the command's alone */
    assert_nothing_missing("#define C10_USING_CUSTOM_GENERATED_MACROS\n" "#ifndef "
                           "C10_USING_CUSTOM_GENERATED_MACROS\n#include \"x.h\"\n#endif\n");
}

Test(cpp_include_scan, a_lone_carriage_return_ends_a_line, .init = setup_dir) {
    /* `#include <torc\rh/extension.h>` is `#include <torc` to the compiler (fuzz_cpp) */
    assert_nothing_missing("#include <torc\rh/extension.h>\n");
    assert_missing("// one\rint x;\r#include \"third_line.h\"\r", "third_line.h", "main.cpp", 3);
    assert_nothing_missing("// a comment \\\r#include \"in_the_comment.h\"\r");
}

Test(cpp_include_scan, computed_includes_are_skipped, .init = setup_dir) {
    assert_nothing_missing("#define HEADER \"x.h\"\n#include HEADER\n");
}

Test(cpp_include_scan, a_raw_string_in_a_directive_leaves_it_to_the_compiler, .init = setup_dir) {
    /* a broken raw string in a directive eats the rest of the file for the compiler (fuzz_cpp);
     * a whole one may hold lines that look like directives */
    assert_nothing_missing("#bad x = R\"d(\n#include \"z.h\"\n");
    assert_nothing_missing("#define SRC R\"(\n#include \"z.h\"\n)\"\n");
    assert_missing("#define SRC \"R\"\n#include \"z.h\"\n", "z.h", "main.cpp", 2);
}

Test(cpp_include_scan, a_literal_suffix_is_not_a_file_name, .init = setup_dir) {
    /* C++ reads `"x.h"_s`, `"x.h"s` (and a non-ASCII or \u suffix: a UTF-8 BOM, found by
     * fuzz_cpp) as a string with a user-defined suffix, and includes nothing; `"x.h" _s` and
     * `<x.h>_s` it still includes */
    assert_nothing_missing("#include \"x.h\"_s\n");
    assert_nothing_missing("#include \"x.h\"s\n");
    assert_nothing_missing("#include \"x.h\"\xef\xbb\xbf\n");
    assert_nothing_missing("#include \"x.h\"\\u00e9\n");
    assert_missing("#include \"x.h\" _s\n", "x.h", "main.cpp", 1);
    assert_missing("#include <x.h>_s\n", "x.h", "main.cpp", 1);
}

Test(cpp_include_scan, unbalanced_conditionals_leave_it_to_the_compiler, .init = setup_dir) {
    assert_nothing_missing("#endif\n#include \"gone.h\"\n");
    write_file("broken.h", "#if X\n");
    assert_nothing_missing("#include \"broken.h\"\n#include \"gone.h\"\n");
}

Test(cpp_include_scan, the_command_include_directories, .init = setup_dir) {
    char inc[256], sys[256], joined[260];
    snprintf(inc, sizeof inc, "%s/inc", dir);
    snprintf(sys, sizeof sys, "%s/sys", dir);
    snprintf(joined, sizeof joined, "-I%s", inc);
    cr_assert_eq(mkdir(inc, 0700), 0);
    cr_assert_eq(mkdir(sys, 0700), 0);
    write_file("inc/a.h", "#include \"b.h\"\n");
    write_file("sys/b.h", "\n");
    const char *args[] = {joined, "-isystem", sys};
    DlCppIncludeScan out;
    cr_assert(scan_args("#include <a.h>\n#include \"b.h\"\n#include \"c.h\"\n", args, 3, &out));
    cr_assert_str_eq(out.missing, "c.h");
    dl_cpp_include_scan_free(&out);
}

Test(cpp_include_scan, headers_the_command_includes_first, .init = setup_dir) {
    const char *prelude = write_file("prelude.h", "#include \"stand_in/torch.h\"\n");
    const char *args[] = {"-include", prelude};
    DlCppIncludeScan out;
    cr_assert(scan_args("#include \"gone.h\"\n", args, 2, &out));
    cr_assert_str_eq(out.missing, "stand_in/torch.h");
    cr_assert(strstr(out.includer, "/prelude.h"));
    dl_cpp_include_scan_free(&out);
    /* a forced header that is missing has no line to name: the compiler says it */
    char missing[300];
    snprintf(missing, sizeof missing, "-include%s/nowhere.h", dir);
    const char *joined[] = {missing};
    cr_assert(scan_args("#include \"gone.h\"\n", joined, 1, &out));
    cr_assert_null(out.missing);
    dl_cpp_include_scan_free(&out);
}

Test(cpp_include_scan, flags_it_does_not_follow, .init = setup_dir) {
    static const char *const cases[][2] = {
        {"--sysroot=/opt/sdk", NULL}, {"-include", "prelude.h"}, {"-I", "relative/dir"},
        {"-iprefix", "/opt/"},         {"-Xclang", "-I/x"},       {"-F/Frameworks", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *args[2] = {cases[i][0], cases[i][1]};
        DlCppIncludeScan out;
        cr_assert_not(scan_args("#include \"gone.h\"\n", args, cases[i][1] ? 2 : 1, &out),
                      "%s", cases[i][0]);
        cr_assert_null(out.missing);
        dl_cpp_include_scan_free(&out);
        path_count = 0;
    }
}
