/* Unit tests for frontend/cpp_launch_spacing: `<< <` and `>> >` of a kernel launch are joined
 * without moving a byte; shifts, templates, comments and literals are left alone. */
#include "frontend/cpp_launch_spacing.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static void assert_joined(const char *text, const char *expected) {
    char *out = dl_cpp_join_spaced_chevrons(text, strlen(text));
    cr_assert_not_null(out, "nothing joined in: %s", text);
    cr_assert_str_eq(out, expected);
    cr_assert_eq(strlen(out), strlen(text));
    free(out);
}

static void assert_untouched(const char *text) {
    char *out = dl_cpp_join_spaced_chevrons(text, strlen(text));
    cr_assert_null(out, "changed: %s -> %s", text, out ? out : "");
}

Test(cpp_launch_spacing, spaced_chevrons_of_a_launch_are_joined) {
    assert_joined("k << <g, b >> > (p, n);\n", "k <<< g, b >>>  (p, n);\n");
    assert_joined("k << <(n + 255) >> 8, 256 >> > (p);\n",
                  "k <<< (n + 255) >> 8, 256 >>>  (p);\n");
    assert_joined("k<< <g, b, 0, s>> >(p);\n", "k<<< g, b, 0, s>>> (p);\n");
    /* a closer written joined ends the launch: the next spaced one is another's */
    assert_joined("a << <g, b>>>(p);\nb << <g, b >> >(q);\n",
                  "a <<< g, b>>>(p);\nb <<< g, b >>> (q);\n");
}

Test(cpp_launch_spacing, other_chevrons_are_left_alone) {
    assert_untouched("k<<<g, b>>>(p);\n");
    assert_untouched("std::vector<std::vector<std::vector<int> > > v;\n");
    assert_untouched("x = a << b; y = c >> d;\n");
    assert_untouched("// k << <g, b >> > (p);\n");
    assert_untouched("/* k << <g, b >> > (p); */\n");
    assert_untouched("const char *s = \"k << <g, b >> > (p)\";\n");
    assert_untouched("auto s = R\"(k << <g >> >)\";\n");
    assert_untouched("if (a << <=b) {}\n"); /* not C++, but no launch either */
    assert_untouched("k << \n<g, b >> > (p);\n"); /* across lines: the lines would move */
}
