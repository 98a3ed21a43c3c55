/* Fix builders shared by rules: small, safe text edits around a call. */
#ifndef DL_RULES_FIXES_H
#define DL_RULES_FIXES_H
#include "rules/facts.h"

/* Adds `keyword=value` as the last argument of `call` (`f(a)` -> `f(a, device=x)`). NULL if the
 * call's text does not end with ')'. */
DlFix *dl_fix_add_keyword(DlRuleContext *ctx, const DlExpr *call, const char *keyword,
                          const char *value);

/* The same for a call known only by its span (`torch.ones(n)` at `span`). */
DlFix *dl_fix_add_keyword_at(DlRuleContext *ctx, DlSpan call, const char *keyword,
                             const char *value);

/* `text`, parenthesised unless it is a name, attribute, call or subscript chain, so that
 * `text.to(device)` means what it says. */
const char *dl_fix_operand(DlRuleContext *ctx, const char *text);

/* Whether a fix may write `expr` (`device`, `x.device`, `"cuda:1"`) at `at`, the span it edits,
 * when the finding's other operand named it at `site`: both lie in one def, and the name `expr`
 * starts with is a parameter of that def (or of one around it), or is bound before `at` there,
 * or at the module's level (before `at`, for an edit at module level). */
bool dl_fix_can_name_at(DlRuleContext *ctx, const char *expr, DlSpan at, DlSpan site);

#endif
