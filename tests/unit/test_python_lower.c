/* Unit tests for the Python front end's limits: counts the program model keeps in 16 bits
 * (ir.h: DL_MAX_CALL_ARGS, DL_MAX_ASSIGN_TARGETS) hold at most that many children, and the file
 * is still lowered. */
#include "frontend/python.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/source.h"

/* `head` + `count` times `each` + `tail`, lowered; the module's first statement. */
static const DlStmt *lower_first(DlSource *src, DlArena *arena, const char *head,
                                 const char *each, size_t count, const char *tail) {
    size_t cap = strlen(head) + count * strlen(each) + strlen(tail) + 1;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    char *p = text + sprintf(text, "%s", head);
    for (size_t i = 0; i < count; i++) p += sprintf(p, "%s", each);
    sprintf(p, "%s", tail);
    char *error = NULL;
    cr_assert(dl_source_from_bytes(src, "limits.py", text, strlen(text), 0, &error), "%s",
              error ? error : "");
    free(text);
    dl_arena_init(arena);
    DlParseResult r = dl_python_parse(src, arena, true, NULL);
    cr_assert_not_null(r.module, "%s", r.error ? r.error : "");
    cr_assert_geq(r.module->body.count, 1);
    return r.module->body.items[0];
}

/* `f(x, x, ..., last)` with `xs` times `x`: the call keeps DL_MAX_CALL_ARGS arguments at most,
 * and the last one it keeps is `kept_last`. */
static void check_call(size_t xs, const char *kept_last) {
    DlSource src;
    DlArena arena;
    const DlStmt *s = lower_first(&src, &arena, "f(", "x, ", xs, "last)\n");
    cr_assert_eq(s->kind, DL_ST_EXPR);
    cr_assert_eq(s->value->kind, DL_EX_CALL);
    cr_assert_eq(s->value->arg_count, DL_MAX_CALL_ARGS);
    cr_assert_str_eq(s->value->args[DL_MAX_CALL_ARGS - 1].value->name, kept_last);
    dl_arena_release(&arena);
    dl_source_free(&src);
}

Test(python_lower, a_call_keeps_its_first_arguments_up_to_the_limit) {
    check_call(70000, "x");
}

Test(python_lower, a_call_at_the_limit_keeps_every_argument) {
    check_call(DL_MAX_CALL_ARGS - 1, "last");
}

Test(python_lower, a_with_keeps_each_item_with_its_target_up_to_the_limit) {
    DlSource src;
    DlArena arena;
    const DlStmt *s = lower_first(&src, &arena, "with ", "a as b, ", 70000, "c as d:\n    pass\n");
    cr_assert_eq(s->kind, DL_ST_WITH);
    cr_assert_eq(s->with_count, DL_MAX_ASSIGN_TARGETS);
    cr_assert_eq(s->target_count, DL_MAX_ASSIGN_TARGETS);
    cr_assert_str_eq(s->withs[DL_MAX_ASSIGN_TARGETS - 1]->name, "a");
    cr_assert_str_eq(s->targets[DL_MAX_ASSIGN_TARGETS - 1]->name, "b");
    dl_arena_release(&arena);
    dl_source_free(&src);
}

/* A chain of assignments long enough to reach DL_MAX_ASSIGN_TARGETS is refused before
 * (over 15,000 operators in a chain); under that, every target is kept. */
Test(python_lower, a_chained_assignment_keeps_every_target) {
    DlSource src;
    DlArena arena;
    const DlStmt *s = lower_first(&src, &arena, "b = ", "a = ", 10000, "0\n");
    cr_assert_eq(s->kind, DL_ST_ASSIGN);
    cr_assert_eq(s->target_count, 10001);
    cr_assert_str_eq(s->targets[0]->name, "b");
    cr_assert_str_eq(s->targets[10000]->name, "a");
    cr_assert_str_eq(s->value->name, "0");
    dl_arena_release(&arena);
    dl_source_free(&src);
}

Test(python_lower, annotations_keep_their_generic_and_union_types) {
    /* the grammar reads `Optional[int]` as a generic type and may read `a | b` as a union type:
     * both are lowered as the subscript and the `|` they spell */
    DlSource src;
    DlArena arena;
    const DlStmt *s = lower_first(&src, &arena, "def f(a: Optional[int], b: list[float] | None", "",
                                  0, ", c: Dict[str, int] = None):\n    pass\n");
    cr_assert_eq(s->kind, DL_ST_DEF);
    const DlFunction *fn = s->parts->func;
    cr_assert_eq(fn->param_count, 3);
    const DlExpr *a = fn->params[0].annotation, *b = fn->params[1].annotation,
                 *c = fn->params[2].annotation;
    cr_assert_eq(a->kind, DL_EX_SUBSCRIPT);
    cr_assert_str_eq(a->object->name, "Optional");
    cr_assert_eq(a->item_count, 1);
    cr_assert_str_eq(a->items[0]->name, "int");
    cr_assert_eq(b->kind, DL_EX_BINOP);
    cr_assert_str_eq(b->name, "|");
    cr_assert_eq(b->items[0]->kind, DL_EX_SUBSCRIPT);
    cr_assert_str_eq(b->items[0]->object->name, "list");
    cr_assert_eq(b->items[1]->kind, DL_EX_CONST);
    cr_assert_eq(c->kind, DL_EX_SUBSCRIPT);
    cr_assert_eq(c->item_count, 2);
    dl_arena_release(&arena);
    dl_source_free(&src);
}

Test(python_lower, a_match_is_the_if_chain_of_its_cases) {
    DlSource src;
    DlArena arena;
    const DlStmt *s = lower_first(&src, &arena,
                                  "match kind:\n    case 'A':\n        m = a()\n"
                                  "    case 'B' | 'C' if ok:\n        m = b()\n        n = 1\n"
                                  "    case _:\n        m = c()\n",
                                  "", 0, "");
    cr_assert_eq(s->kind, DL_ST_IF, "the first case is an if");
    cr_assert_eq(s->parts->body.count, 1);
    cr_assert_eq(s->parts->orelse.count, 1);
    const DlStmt *second = s->parts->orelse.items[0];
    cr_assert_eq(second->kind, DL_ST_IF, "the second an elif");
    cr_assert_eq(second->parts->body.count, 2);
    cr_assert_eq(second->parts->orelse.count, 1, "`case _:` is the else");
    cr_assert_eq(second->parts->orelse.items[0]->kind, DL_ST_ASSIGN);
    dl_arena_release(&arena);
    dl_source_free(&src);

    s = lower_first(&src, &arena, "match kind:\n    case 'A':\n        m = a()\n", "", 0,
                    "x = 1\n");
    cr_assert_eq(s->kind, DL_ST_IF);
    cr_assert_eq(s->parts->orelse.count, 0, "no case _: no else");
    dl_arena_release(&arena);
    dl_source_free(&src);
}
