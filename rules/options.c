/* Command-line options' defaults as the rules read them (see options.h). */
#include "rules/options.h"

#include <string.h>

/* The name argparse stores an `add_argument` call's option under: its `dest=`, else its first
 * long option, else its first option (`"-trainDatasetPath"`), without the dashes and with `-`
 * read as `_`; NULL if it has none of those written out. */
static const char *option_destination(DlRuleContext *ctx, const DlExpr *call) {
    const DlArg *dest = dl_ir_keyword(call, "dest");
    const char *text = NULL;
    if (dest) {
        text = dest->value->kind == DL_EX_STRING ? dest->value->name : NULL;
    } else {
        for (uint32_t i = 0; i < call->arg_count; i++) {
            const DlExpr *a = call->args[i].value;
            if (call->args[i].keyword || a->kind != DL_EX_STRING || !a->name || a->name[0] != '-')
                continue;
            if (!text || (a->name[1] == '-' && text[1] != '-')) text = a->name;
        }
    }
    if (!text) return NULL;
    char *name = dl_arena_printf(dl_rule_arena(ctx), "%s", text + strspn(text, "-"));
    for (char *c = name; *c; c++)
        if (*c == '-') *c = '_';
    return name;
}

/* The default of the command-line option `option` declared anywhere in block `b` of `m` (and
 * the functions defined in it): `parser.add_argument("-trainDatasetPath", type=str,
 * default="IWSLT/trainDataset.pt")`. `*found` is set to the default; `*clash` when two
 * declarations of the option disagree or one has no default. */
static void option_default_in(DlRuleContext *ctx, const DlModuleIR *m, const DlBlock *b,
                              const char *option, const DlExpr **found,
                              const DlExpr **declaration, bool *clash, int depth) {
    for (uint32_t i = 0; b && depth < 16 && i < b->count && !*clash; i++) {
        const DlStmt *s = b->items[i];
        const DlExpr *e = s->kind == DL_ST_EXPR ? s->value : NULL;
        if (e && e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_ATTR &&
            e->object->name && strcmp(e->object->name, "add_argument") == 0) {
            const char *dest = option_destination(ctx, e);
            if (dest && strcmp(dest, option) == 0) {
                const DlArg *d = dl_ir_keyword(e, "default");
                if (!d || (*found && strcmp(dl_rule_text_in(ctx, m, (*found)->span),
                                            dl_rule_text_in(ctx, m, d->value->span)) != 0))
                    *clash = true;
                else
                    *found = d->value, *declaration = e;
            }
        }
        if (s->kind == DL_ST_DEF && s->parts->func)
            option_default_in(ctx, m, &s->parts->func->body, option, found, declaration, clash,
                              depth + 1);
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            option_default_in(ctx, m, inner, option, found, declaration, clash, depth + 1);
    }
}

/* The `add_argument` call declaring option `e` and its default, or NULL (option_default_in). */
static const DlExpr *option_declared(DlRuleContext *ctx, const DlModuleIR *module, const DlExpr *e,
                                     const DlExpr **default_value) {
    if (!module || e->kind != DL_EX_ATTR || !e->name || !e->object ||
        e->object->kind != DL_EX_NAME || dl_ir_is_self(e->object))
        return NULL;
    const DlExpr *found = NULL, *declaration = NULL;
    bool clash = false;
    option_default_in(ctx, module, &module->body, e->name, &found, &declaration, &clash, 0);
    if (clash || !found) return NULL;
    *default_value = found;
    return declaration;
}

const DlExpr *dl_rule_option_default(DlRuleContext *ctx, const DlModuleIR *module,
                                     const DlExpr *e) {
    const DlExpr *found = NULL;
    return option_declared(ctx, module, e, &found) ? found : NULL;
}

bool dl_rule_option_always_on(DlRuleContext *ctx, const DlModuleIR *module, const DlExpr *e) {
    const DlExpr *found = NULL;
    const DlExpr *declaration = option_declared(ctx, module, e, &found);
    const DlArg *action = declaration ? dl_ir_keyword(declaration, "action") : NULL;
    return action && action->value->kind == DL_EX_STRING && action->value->name &&
           strcmp(action->value->name, "store_true") == 0 && found->kind == DL_EX_CONST &&
           found->name && strcmp(found->name, "True") == 0;
}
