/* Shared reading of DlMeetFact for DL102-DL106 (see mismatch.h). */
#include "rules/mismatch.h"

#include <string.h>

const DlOperand *dl_meet_cpu_operand(const DlMeetFact *fact, DlOrigin origin) {
    for (uint32_t i = 0; i < fact->count; i++)
        if (dl_value_is_cpu_tensor(fact->operands[i].value) &&
            fact->operands[i].value->origin == origin &&
            !(fact->operands[i].value->flags & DL_VF_MOVE_DISCARDED)) /* DL101 explains it */
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
    if (!name && e) name = dl_rule_snippet(ctx, e->span);
    return dl_rule_describe(ctx, name, op->value);
}

bool dl_on_a_parameters_device(const DlFunction *fn, const DlValue *v) {
    if (!fn || v->dev != DL_DEV_NAMED || !v->dev_name) return false;
    const char *dot = strchr(v->dev_name, '.');
    if (!dot || strcmp(dot, ".device") != 0) return false;
    size_t len = (size_t)(dot - v->dev_name);
    for (uint32_t i = 0; i < fn->param_count; i++) {
        const char *p = fn->params[i].name;
        if (strlen(p) == len && strncmp(p, v->dev_name, len) == 0 && strcmp(p, "self") != 0)
            return true;
    }
    return false;
}

const char *dl_device_expression(DlRuleContext *ctx, const DlOperand *op) {
    const DlValue *v = op->value;
    DlArena *arena = dl_rule_arena(ctx);
    if ((v->dev == DL_DEV_CUDA && v->dev_name) ||
        (v->dev == DL_DEV_NAMED && dl_is_accelerator_type_name(v->dev_name))) /* "mps" */
        return dl_arena_printf(arena, "\"%s\"", v->dev_name);
    if (v->dev == DL_DEV_NAMED && dl_ir_is_dotted_name(v->dev_name)) return v->dev_name;
    /* a tensor operand named in this file: follow it (`x.device`) */
    if (v->kind == DL_KIND_TENSOR && op->expr &&
        (op->expr->kind == DL_EX_NAME || op->expr->kind == DL_EX_ATTR))
        return dl_arena_printf(arena, "%s.device", dl_rule_text(ctx, op->expr->span));
    return NULL;
}
