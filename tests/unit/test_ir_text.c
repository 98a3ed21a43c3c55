/* Unit tests for the code quoted in messages (ir/ir.c): a cut keeps its brackets closed, and a
 * snippet puts multi-line code on one line. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/arena.h"
#include "core/source.h"
#include "ir/ir.h"

static DlArena arena;

static void setup(void) {
    dl_arena_init(&arena);
}

static void teardown(void) {
    dl_arena_release(&arena);
}

TestSuite(ir_text, .init = setup, .fini = teardown);

Test(ir_text, cut_closes_the_brackets_it_leaves_open) {
    cr_assert_str_eq(dl_ir_cut(&arena, "nn.Sequential(", 14), "nn.Sequential(...)");
    cr_assert_str_eq(dl_ir_cut(&arena, "f(x, [a, {b: c(", 15), "f(x, [a, {b: c(...)}])");
    cr_assert_str_eq(dl_ir_cut(&arena, "torch.rand(2, 3)", 11), "torch.rand(...)");
    cr_assert_str_eq(dl_ir_cut(&arena, "g(x) + h", 8), "g(x) + h...");
}

Test(ir_text, cut_ignores_brackets_inside_strings) {
    cr_assert_str_eq(dl_ir_cut(&arena, "f(\"(\", '[', \"\\\"(\", y", 20),
                     "f(\"(\", '[', \"\\\"(\", y...)");
}

static const char *snippet_of(const char *code) {
    DlSource src;
    char *error = NULL;
    cr_assert(dl_source_from_bytes(&src, "t.py", code, strlen(code), 0, &error));
    const char *s = dl_ir_span_snippet(&arena, &src, (DlSpan){0, (uint32_t)strlen(code)});
    dl_source_free(&src);
    return s;
}

Test(ir_text, snippet_is_the_text_when_it_fits_on_a_line) {
    cr_assert_str_eq(snippet_of("x + y"), "x + y");
}

Test(ir_text, snippet_puts_multi_line_code_on_one_line) {
    cr_assert_str_eq(snippet_of("torch.where(\n    mask,\n    a,\n    b,\n)"),
                     "torch.where(mask, a, b,)");
    cr_assert_str_eq(snippet_of("generate(\r\n\tmodel,  prompt\r\n)"), "generate(model, prompt)");
}

Test(ir_text, snippet_cuts_long_code_with_its_brackets_closed) {
    const char *s = snippet_of("model(\n    input_ids=input_ids,\n"
                               "    attention_mask=attention_mask,\n    labels=labels,\n"
                               "    output_hidden_states=True,\n)");
    cr_assert_eq(strlen(s), 81, "%s", s);
    const char *head = "model(input_ids=input_ids, attention_mask=attention_mask,";
    cr_assert(strncmp(s, head, strlen(head)) == 0, "%s", s);
    cr_assert_str_eq(s + strlen(s) - 4, "...)", "%s", s);
}

Test(ir_text, snippet_leaves_out_comments_but_not_a_hash_in_a_string) {
    cr_assert_str_eq(snippet_of("Conv(a=1,  # the size\n     b='#2',\n     c=\"it's\")  # end"),
                     "Conv(a=1, b='#2', c=\"it's\")");
    cr_assert_str_eq(snippet_of("f(\"a \\\" # b\",\n  x)"), "f(\"a \\\" # b\", x)");
}
