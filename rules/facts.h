/* What rules see: facts the dataflow engine derives (operands meeting in one operation, a
 * result thrown away, a class's attributes) and the few services a rule needs to report. */
#ifndef DL_FACTS_H
#define DL_FACTS_H
#include "dataflow/project.h"
#include "dataflow/value.h"
#include "ir/ir.h"
#include "rules/rule.h"

typedef struct DlOperand {
    const DlExpr *expr;
    const DlValue *value;
} DlOperand;

/* Values that meet in one operation: `a + b`, `torch.cat([a, b])`, `model(x)`, `loss(out, y)`.
 * Only emitted when one operand is on the CPU (or is an unmoved module / a loss holding a CPU
 * weight) and another is on a device. */
struct DlMeetFact {
    const DlExpr *site;      /* the whole operation */
    const DlOperand *operands;
    uint32_t count;
    int callee;              /* index of the module / loss being called, or -1 */
};

/* A bare expression statement whose value is a tensor's .to()/.cuda()/.cpu(). */
struct DlDiscardFact {
    const DlStmt *stmt;
    const DlExpr *call;      /* the .to(...) call (inside a comprehension for that form) */
    const DlExpr *receiver;
    const DlValue *value;    /* the receiver's value */
    const char *method;      /* "to", "cuda", "cpu" */
    bool element_of_sequence; /* the receiver is a loop/comprehension variable over tensors */
};

/* A class with what its __init__ stores on self. */
struct DlClassFact {
    const DlClassInfo *info;
};

/* Reporting: `key` deduplicates (one finding per rule and key); the span is where it shows. */
void dl_report_finding(DlRuleContext *ctx, const DlRule *rule, DlSpan span, DlSpan key,
                       const char *message, DlFix *fix);
/* The same for a place in another file of the run (`home`, from DlValue.home; NULL: this one):
 * a factory in a helper module is reported in that module, where the fix goes. */
void dl_report_finding_in(DlRuleContext *ctx, const DlRule *rule, const DlModuleIR *home,
                          DlSpan span, DlSpan key, const char *message, DlFix *fix);
DlArena *dl_rule_arena(DlRuleContext *ctx);
const DlSource *dl_rule_source(DlRuleContext *ctx);
const char *dl_rule_text(DlRuleContext *ctx, DlSpan span);
int dl_rule_line(DlRuleContext *ctx, uint32_t byte);
/* "line 12" for a place in this file, "utils.py:12" for one in another. */
const char *dl_rule_where(DlRuleContext *ctx, const DlModuleIR *home, uint32_t byte);
/* Text of a span in `home` (NULL: this file). */
const char *dl_rule_text_in(DlRuleContext *ctx, const DlModuleIR *home, DlSpan span);
/* "x (line 12: torch.randn(4, 10))" — a value and where it got its device. */
const char *dl_rule_describe(DlRuleContext *ctx, const char *fallback_name, const DlValue *v);
/* A fix replacing `span` with `text`. */
DlFix *dl_rule_fix_replace(DlRuleContext *ctx, const char *title, DlSpan span, const char *text);

/* The engine hands each fact to every enabled rule through these (implemented by the driver). */
void dl_rule_dispatch_meet(DlRuleContext *ctx, const DlMeetFact *fact);
void dl_rule_dispatch_discard(DlRuleContext *ctx, const DlDiscardFact *fact);
void dl_rule_dispatch_class(DlRuleContext *ctx, const DlClassFact *fact);

#endif
