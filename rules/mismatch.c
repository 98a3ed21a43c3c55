/* Shared reading of DlMeetFact for DL102-DL106 (see mismatch.h). */
#include "rules/mismatch.h"

const DlOperand *dl_meet_cpu_operand(const DlMeetFact *fact, DlOrigin origin) {
    for (uint32_t i = 0; i < fact->count; i++)
        if (dl_value_is_cpu_tensor(fact->operands[i].value) &&
            fact->operands[i].value->origin == origin)
            return &fact->operands[i];
    return NULL;
}

const DlOperand *dl_meet_device_operand(const DlMeetFact *fact) {
    for (uint32_t i = 0; i < fact->count; i++) {
        const DlValue *v = fact->operands[i].value;
        if (v->kind == DL_KIND_LOSS) continue; /* 0-dim is exempt on the cpu side only */
        if (dl_value_on_device(v)) return &fact->operands[i];
    }
    return NULL;
}

const char *dl_meet_describe(DlRuleContext *ctx, const DlOperand *op) {
    const DlExpr *e = op->expr;
    const char *name = NULL;
    if (e && (e->kind == DL_EX_NAME || e->kind == DL_EX_ATTR)) name = dl_rule_text(ctx, e->span);
    if (!name && op->value->var) name = op->value->var;
    if (!name && e) name = dl_rule_text(ctx, e->span);
    return dl_rule_describe(ctx, name, op->value);
}
