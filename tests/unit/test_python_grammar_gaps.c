/* Unit tests for the grammar-gap patch (frontend/python_grammar_gaps.c): a star the pinned
 * tree-sitter-python rejects becomes a space, nothing else moves, and stars the grammar takes
 * (in calls, in brackets, in strings and comments, multiplication, `**`) are left alone; an
 * annotation's generic type that an operator follows gets parentheses, other colons' do not,
 * and its slices become `,` or `0`;
 * a comment line inside brackets becomes spaces. */
#include "frontend/python_grammar_gaps.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static char *patch(const char *text) {
    return dl_python_patch_grammar_gaps(text, strlen(text));
}

static void assert_patched(const char *text, const char *expected) {
    char *out = patch(text);
    cr_assert_not_null(out, "nothing patched in: %s", text);
    cr_assert_str_eq(out, expected);
    free(out);
}

static void assert_untouched(const char *text) {
    char *out = patch(text);
    cr_assert_null(out, "patched: %s -> %s", text, out ? out : "");
}

Test(python_grammar_gaps, a_starred_bracket_in_a_bare_list_loses_its_star) {
    assert_patched("return dq, dk, *((None,) * 30)\n", "return dq, dk,  ((None,) * 30)\n");
    assert_patched("return *(b), a\n", "return  (b), a\n");
    assert_patched("x = a, *[b]\n", "x = a,  [b]\n");
    assert_patched("for x in a, *(b):\n    pass\n", "for x in a,  (b):\n    pass\n");
    assert_patched("yield *(b), a\n", "yield  (b), a\n");
}

Test(python_grammar_gaps, the_grammar_s_own_stars_are_left_alone) {
    assert_untouched("f(a, *(b))\n");        /* a call's argument list */
    assert_untouched("x = [a, *(b)]\n");     /* inside brackets */
    assert_untouched("return a, *b\n");      /* a starred name parses */
    assert_untouched("y = a *(b)\n");        /* multiplication */
    assert_untouched("y = a ** (b)\n");      /* power */
    assert_untouched("ok = a == *(b)\n");    /* not an assignment */
    assert_untouched("s = 'a, *(b)'  # return a, *(b)\n");
    assert_untouched("s = \"\"\"\nreturn a, *(b)\n\"\"\"\n");
    assert_untouched("s = 'it\\'s', x\n");
}

Test(python_grammar_gaps, only_the_star_changes) {
    const char *text = "def backward(ctx, g):\n    return g, *((None,) * 3)\n";
    char *out = patch(text);
    cr_assert_not_null(out);
    size_t differ = 0;
    for (size_t i = 0; i < strlen(text); i++)
        if (out[i] != text[i]) {
            cr_assert_eq(text[i], '*');
            cr_assert_eq(out[i], ' ');
            differ++;
        }
    cr_assert_eq(differ, 1);
    free(out);
}

Test(python_grammar_gaps, a_generic_type_an_operator_follows_gets_parentheses) {
    /* MobileSAMv2's efficientvit: a parameter's, a return's, an assignment's annotation */
    assert_patched("def resize(x, scale: list[float] or None = None):\n",
                   "def resize(x, scale: list(float) or None = None):\n");
    assert_patched("def f(*, s: dict[str, list[int]] or None):\n",
                   "def f(*, s: dict(str, list[int]) or None):\n");
    assert_patched("def f() -> list[int] or None:\n", "def f() -> list(int) or None:\n");
    assert_patched("class A:\n    size: tuple[int] if a else int = 3\n",
                   "class A:\n    size: tuple(int) if a else int = 3\n");
    assert_patched("self.x: list[int] == y\n", "self.x: list(int) == y\n");
}

Test(python_grammar_gaps, generic_types_the_grammar_takes_are_left_alone) {
    assert_untouched("def f(s: list[float] | None = None, t: list[int] = []):\n");
    assert_untouched("def f(s: Optional[list[float]]) -> dict[str, int]:\n");
    assert_untouched("x = {k: a[b] or c}\n");          /* a dict's colon */
    assert_untouched("y = x[1: a[b] or c]\n");         /* a slice's */
    assert_untouched("if ok: a[b] or c\n");            /* a statement's */
    assert_untouched("f = lambda x: a[b] or c\n");     /* a lambda's */
    assert_untouched("def f(s: 'list[float] or None'):\n");
    assert_untouched("def f(s: a.b[c] or None):\n");   /* not a generic type: parses */
}

Test(python_grammar_gaps, slices_in_an_annotation_become_commas_or_zeros) {
    /* an author's `:` for `=` (rafid009's imputation utils) */
    assert_patched("        results[j]['saits']: out[0, :, :]\n",
                   "        results[j]['saits']: out[0, 0, 0]\n");
    assert_patched("x: a[1:3] = 2\n", "x: a[1,3] = 2\n");
    assert_patched("def g(b: y[::2] = None, c: z[:, 0]):\n", "def g(b: y[002] = None, c: z[0, 0]):\n");
    assert_patched("self.v: w[2:] = 3\n", "self.v: w[2,] = 3\n");
}

Test(python_grammar_gaps, colons_outside_annotations_are_left_alone) {
    assert_untouched("y = x[1:2]\n");
    assert_untouched("d[k] = x[:, 0]\n");
    assert_untouched("v: int = x[1:2]\n");               /* the value's slice */
    assert_untouched("def f(a=x[1:2], b: int = 3):\n");  /* a default's */
}

Test(python_grammar_gaps, a_format_spec_filled_with_equals_gets_a_space) {
    /* openvla's data-mixture table: fill `=`, align `>`, a nested width */
    assert_patched("print(f\"# {name}: {weight:=>{pad}f} #\")\n",
                   "print(f\"# {name}: {weight: >{pad}f} #\")\n");
    assert_patched("s = f'{x:=10}'\n", "s = f'{x: 10}'\n");
    assert_patched("s = rf'{x!r:=^9}' + F\"{y:=<3}\"\n", "s = rf'{x!r: ^9}' + F\"{y: <3}\"\n");
    assert_patched("s = f'{ {1: 2}[1]:=>4}'\n", "s = f'{ {1: 2}[1]: >4}'\n");
    assert_patched("s = f'''\n{x:=>{w:=>2}}\n'''\n", "s = f'''\n{x: >{w: >2}}\n'''\n");
}

Test(python_grammar_gaps, walruses_and_other_strings_are_left_alone) {
    assert_untouched("s = f'{(n:=10)}'\n");           /* a walrus in parentheses */
    assert_untouched("s = f'{x:>10} {{x:=1}}'\n");    /* another fill; a doubled brace */
    assert_untouched("s = '{x:=10}'.format(x=1)\n");  /* not an f-string */
    assert_untouched("s = b'{x:=10}'\n");
    assert_untouched("s = f'{a != b}' if (n := 3) else 0\n");
    assert_untouched("s = f'{d[\"k\"]:>4}'  # f'{x:=1}'\n");
}

Test(python_grammar_gaps, a_comment_line_inside_brackets_becomes_spaces) {
    assert_patched("    x = (1 if s\n# else 0\n         else 2)\n",
                   "    x = (1 if s\n        \n         else 2)\n");
    assert_patched("f(a,\n  # b,\n  c)\n", "f(a,\n      \n  c)\n");
}

Test(python_grammar_gaps, comments_outside_brackets_or_after_code_are_left_alone) {
    assert_untouched("# top\nx = 1  # trailing\n");
    assert_untouched("f(a,  # after an argument\n  c)\n");
    assert_untouched("s = '(\\n# not a comment'\n");
}

Test(python_grammar_gaps, a_line_starting_left_of_its_brackets_joins_the_line_before) {
    /* NIMA's main.py: an operator ends the line, the operand starts at column 0 */
    assert_patched("if ok:\n    print('loss: %.4f' %\n(loss))\n",
                   "if ok:\n    print('loss: %.4f' % (loss))\n");
    assert_patched("def f():\n    return g(a +\r\n  b)\n", "def f():\n    return g(a +    b)\n");
}

Test(python_grammar_gaps, line_breaks_the_grammar_takes_are_left_alone) {
    assert_untouched("if ok:\n    print('%d' %\n          (n))\n");  /* right of its line */
    assert_untouched("x = f(a,\nb)\n");                              /* the line is at 0 */
    assert_untouched("if ok:\n    y = f(a,  # note\n  b)\n");        /* a comment ends it */
    assert_untouched("if ok:\n    y = f(a + \\\n  b)\n");            /* a backslash does */
    assert_untouched("if ok:\n    s = ('''\nx''')\n");               /* inside a string */
}

Test(python_grammar_gaps, a_bare_generator_in_an_f_string_field_loses_its_for_clauses) {
    assert_patched("print(f'{img.shape for img in self.obj}')\n",
                   "print(f'{img.shape                    }')\n");
    assert_patched("s = f\"{x for x in y if x}!r\"\n", "s = f\"{x                }!r\"\n");
    assert_patched("s = f'{a for a in b:>10}'\n", "s = f'{a           :>10}'\n");
}

Test(python_grammar_gaps, comprehensions_and_words_holding_for_are_left_alone) {
    assert_untouched("s = f'{[i for i in y]}'\n"); /* in brackets: the grammar takes it */
    assert_untouched("s = f'{(i for i in y)}'\n");
    assert_untouched("s = f'{format_for(x)} for {y}'\n");
}
