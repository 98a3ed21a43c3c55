/* Unit tests for frontend/cpp_crash_guard: the member accesses with no name that crash clang
 * (`std::vector.<int> out;`, found by fuzz_cpp), found where the compiler would read them, and
 * not in comments, literals, numbers or a fold's `...`. */
#include "frontend/cpp_crash_guard.h"

#include <criterion/criterion.h>
#include <string.h>

static void assert_crashing(const char *text, unsigned line, unsigned column) {
    DlCppCrashSite site = {0, 0, NULL};
    cr_assert(dl_cpp_crashing_code(text, strlen(text), &site), "not found in:\n%s", text);
    cr_assert_eq(site.line, line, "line %u, not %u, in:\n%s", site.line, line, text);
    cr_assert_eq(site.column, column, "column %u, not %u, in:\n%s", site.column, column, text);
}

static void assert_fine(const char *text) {
    DlCppCrashSite site = {0, 0, NULL};
    cr_assert_not(dl_cpp_crashing_code(text, strlen(text), &site), "found at %u:%u in:\n%s",
                  site.line, site.column, text);
}

Test(cpp_crash_guard, member_access_with_no_name) {
    assert_crashing("void f() {\n  std::vector.<int> out;\n}\n", 2, 14);
    assert_crashing("std::vector . /* c */ < int > out;", 1, 13);
    assert_crashing("std::vector.template <int> x;", 1, 12);
    assert_crashing("std::vector.~<int> x;", 1, 12);
    assert_crashing("std::vector.<:1:> x;", 1, 12);               /* <: is [ */
    assert_crashing("std::vector.\\\n<int> out;", 1, 12);         /* a spliced line */
    assert_crashing("std::vector.\r<int> out;\r", 1, 12);         /* a lone \r ends the line */
    assert_crashing("#define M std::vector.<int> out;\n", 1, 22); /* crashes when expanded */
}

Test(cpp_crash_guard, a_dot_after_a_standard_class_template) {
    /* with torch's headers included, clang 16 recursed on `std::vector.device();` (fuzz_cpp) */
    assert_crashing("int main() {\n  std::vector.device();\n}\n", 2, 14);
    assert_crashing("std :: vector . foo();", 1, 15);
    assert_crashing("::std::map.x;", 1, 11);
    assert_fine("std::cout.flush(); mystd::vector.x; std::vector<int>().size();");
    assert_fine("std::vector<int> v; v.size(); std::vector...; std::array.5;");
}

Test(cpp_crash_guard, valid_code_is_left_alone) {
    assert_fine("x.template foo<int>();");
    assert_fine("p->template get<0>(); q-><int>;"); /* -> does not crash it */
    assert_fine("bool b = 1.<2 && .5<x && 1.e+5<y && 0x1.p-3<z && 1'000.<w;");
    assert_fine("template <class... T> bool all(T... v) { return (... < v); }");
    assert_fine("#include <torch/extension.h>\nauto y = x.size(0) < 3;");
}

Test(cpp_crash_guard, not_in_comments_or_literals) {
    assert_fine("// std::vector.<int>\nint x;");
    assert_fine("// a comment \\\n std::vector.<int> spliced into it\nint x;");
    assert_fine("/* std::vector.<int> */ int x;");
    assert_fine("const char *s = \"std::vector.<int>\", c = '.', d = '<';");
    assert_fine("const char *r = R\"x(std::vector.<int> )\" )x\";");
    assert_fine("const char *u = u8R\"(a.<b)\";");
    /* an unterminated literal ends with its line: the next line is code */
    assert_crashing("const char *s = \"open\nstd::vector.<int> x;", 2, 12);
}

Test(cpp_crash_guard, an_unreadable_raw_string_leaves_it_to_the_compiler) {
    assert_fine("const char *r = R\"abc\nstd::vector.<int> x;");
    /* a delimiter has at most 16 characters (frontend/cpp_lex.h, shared with the include scan) */
    assert_fine(
        "const char *r = R\"0123456789abcdefg(x)0123456789abcdefg\";\nstd::vector.<int> x;");
    assert_crashing(
        "const char *r = R\"0123456789abcdef(x)0123456789abcdef\";\nstd::vector.<int> x;", 2, 12);
}
