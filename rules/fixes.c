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
