/* A run's command-line options as the rules read them: `args.X` of an `add_argument` the file
 * declares, read as the default written there (what the script does as shipped). */
#ifndef DL_RULES_OPTIONS_H
#define DL_RULES_OPTIONS_H
#include "rules/facts.h"

/* `opts.trainDatasetPath` (an attribute of a plain name, not self): the `default=` of the
 * `add_argument` declaring that option anywhere in `module` (functions included), as written
 * (`"IWSLT/trainDataset.pt"`, `[0]`); NULL when no declaration gives one, or two disagree. */
const DlExpr *dl_rule_option_default(DlRuleContext *ctx, const DlModuleIR *module,
                                     const DlExpr *e);

/* `opt.cuda` of `add_argument("--cuda", action="store_true", default=True)`: a switch no
 * command line can turn off. */
bool dl_rule_option_always_on(DlRuleContext *ctx, const DlModuleIR *module, const DlExpr *e);

#endif
