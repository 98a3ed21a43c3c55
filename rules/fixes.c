/* Shared fix builders (see fixes.h). */
#include "rules/fixes.h"

#include <string.h>

DlFix *dl_fix_add_keyword(DlRuleContext *ctx, const DlExpr *call, const char *keyword,
                          const char *value) {
    const char *text = dl_rule_text(ctx, call->span);
    size_t n = strlen(text);
    if (!n || text[n - 1] != ')') return NULL;
    DlArena *arena = dl_rule_arena(ctx);
    const char *insert = dl_arena_printf(arena, "%s%s=%s", call->arg_count ? ", " : "", keyword, value);
    DlSpan at = {call->span.end - 1, call->span.end - 1};
    const char *title = dl_arena_printf(arena, "Pass `%s=%s`", keyword, value);
    return dl_rule_fix_replace(ctx, title, at, insert);
}
