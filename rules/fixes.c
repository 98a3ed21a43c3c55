/* Shared fix builders (see fixes.h). */
#include "rules/fixes.h"

#include <ctype.h>
#include <string.h>

DlFix *dl_fix_add_keyword_at(DlRuleContext *ctx, DlSpan call, const char *keyword,
                             const char *value) {
    const char *text = dl_rule_text(ctx, call);
    size_t n = strlen(text);
    if (n < 2 || text[n - 1] != ')') return NULL;
    size_t k = n - 1;
    while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\n' || text[k - 1] == '\t')) k--;
    bool empty = text[k - 1] == '(';
    bool trailing_comma = text[k - 1] == ',';
    DlArena *arena = dl_rule_arena(ctx);
    const char *insert = dl_arena_printf(arena, "%s%s=%s", empty || trailing_comma ? "" : ", ",
                                         keyword, value);
    DlSpan at = {call.start + (uint32_t)k, call.start + (uint32_t)k};
    const char *title = dl_arena_printf(arena, "Pass `%s=%s`", keyword, value);
    return dl_rule_fix_replace(ctx, title, at, insert);
}

DlFix *dl_fix_add_keyword(DlRuleContext *ctx, const DlExpr *call, const char *keyword,
                          const char *value) {
    return dl_fix_add_keyword_at(ctx, call->span, keyword, value);
}

const char *dl_fix_operand(DlRuleContext *ctx, const char *text) {
    int depth = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '(' || *p == '[' || *p == '{') depth++;
        else if (*p == ')' || *p == ']' || *p == '}') depth--;
        else if (depth == 0 && !isalnum((unsigned char)*p) && *p != '_' && *p != '.' && *p != '"' &&
                 *p != '\'')
            return dl_arena_printf(dl_rule_arena(ctx), "(%s)", text);
    }
    return text;
}

/* ------------------------------------------------------------ names a fix may use */

static bool target_binds(const DlExpr *t, const char *name, int depth) {
    if (!t || depth > 8) return false;
    if (t->kind == DL_EX_NAME) return t->name && strcmp(t->name, name) == 0;
    if (t->kind == DL_EX_STARRED) return target_binds(t->object, name, depth + 1);
    if (t->kind == DL_EX_TUPLE || t->kind == DL_EX_LIST)
        for (uint32_t i = 0; i < t->item_count; i++)
            if (target_binds(t->items[i], name, depth + 1)) return true;
    return false;
}

/* Does a statement of `b` that starts before `before` (any, with 0) bind `name` in this
 * scope (not in a def or class body it holds)? */
static bool block_binds(const DlBlock *b, const char *name, uint32_t before, int depth) {
    if (depth > 64) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (before && s->span.start >= before) return false;
        if (s->kind == DL_ST_DEF && s->parts->func && strcmp(s->parts->func->name, name) == 0)
            return true;
        if (s->kind == DL_ST_IMPORT)
            for (uint32_t k = 0; k < s->import_count; k++)
                if (s->imports[k].alias && strcmp(s->imports[k].alias, name) == 0) return true;
        if (s->kind == DL_ST_ASSIGN || s->kind == DL_ST_FOR || s->kind == DL_ST_WITH)
            for (uint32_t k = 0; k < s->target_count; k++)
                if (target_binds(s->targets[k], name, 0)) return true;
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_binds(inner, name, before, depth + 1)) return true;
    }
    return false;
}

/* The innermost def of the file whose span holds `byte` (other than `inside`, and holding it
 * too), or NULL (module level). */
static const DlFunction *function_around(const DlModuleIR *m, uint32_t byte,
                                         const DlFunction *inside) {
    const DlFunction *best = NULL;
    for (uint32_t i = 0; i < m->function_count; i++) {
        const DlFunction *fn = m->functions[i];
        if (fn == inside || fn->span.start > byte || byte >= fn->span.end) continue;
        if (inside && (fn->span.start > inside->span.start || fn->span.end < inside->span.end))
            continue;
        if (!best || fn->span.end - fn->span.start < best->span.end - best->span.start)
            best = fn;
    }
    return best;
}

bool dl_fix_can_name_at(DlRuleContext *ctx, const char *expr, DlSpan at, DlSpan site) {
    if (!expr || !*expr) return false;
    if (expr[0] == '"' || expr[0] == '\'') return true; /* a literal: "cuda:1" */
    const DlModuleIR *m = dl_rule_module(ctx);
    if (!m) return false;
    const DlFunction *fn = function_around(m, at.start, NULL);
    /* a fix written where the factory is must name what the meeting's scope named */
    if (function_around(m, site.start, NULL) != fn) return false;
    size_t n = strcspn(expr, ".[(");
    DlArena *arena = dl_rule_arena(ctx);
    const char *root = dl_arena_strndup(arena, expr, n);
    for (const DlFunction *f = fn; f; f = function_around(m, at.start, f))
        if (dl_ir_param_index(f, root) >= 0 || block_binds(&f->body, root, at.start, 0))
            return true;
    /* module level: bound before the statement at top level, or anywhere for a function,
     * which runs after the module did */
    return block_binds(&m->body, root, fn ? 0 : at.start, 0);
}
