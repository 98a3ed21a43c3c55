/* DL103 loss-weight-on-cpu: a loss built with a CPU weight= is applied to device tensors. */
#include <string.h>

#include "rules/fixes.h"
#include "rules/mismatch.h"

static const char doc[] =
    "## What it does\n"
    "Finds a loss module (`nn.CrossEntropyLoss`, `nn.NLLLoss`, `nn.BCEWithLogitsLoss`, ...)\n"
    "constructed with a `weight=` / `pos_weight=` tensor on the CPU and then applied to outputs\n"
    "or targets on a device, when neither the weight nor the criterion was moved.\n\n"
    "## Why is this bad?\n"
    "The weight is a buffer of the loss module. The model and the batches moved to the GPU, the\n"
    "weight did not: the loss call fails with *Expected all tensors to be on the same device*.\n\n"
    "## Example\n"
    "```python\n"
    "weights = torch.tensor([1.0, 5.0])\n"
    "criterion = nn.CrossEntropyLoss(weight=weights)\n"
    "model = model.to(device)\n"
    "loss = criterion(model(x.to(device)), y.to(device))\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "criterion = nn.CrossEntropyLoss(weight=weights.to(device))\n"
    "# or: criterion = nn.CrossEntropyLoss(weight=weights).to(device)\n"
    "```\n\n"
    "## Fix safety\n"
    "The fix moves the weight where the loss is applied (`weight=w.to(device)`).\n\n"
    "## When it does not fire\n"
    "- `criterion.to(device)` / `.cuda()` is called (a loss is a module: it moves in place);\n"
    "- the weight is created on or moved to the device;\n"
    "- the loss is a submodule of an `nn.Module` (`self.loss_fn = ...` in `__init__`) that\n"
    "  moves with the model; or taken out of a plain dict or list a module keeps\n"
    "  (`self.loss_fcts[\"ce\"]`), which DL107 reports;\n"
    "- nothing is on a device.\n";

static void on_meet(DlRuleContext *ctx, const DlMeetFact *fact) {
    extern const DlRule dl_rule_DL103;
    if (fact->callee < 0) return;
    const DlOperand *loss = &fact->operands[fact->callee];
    const DlValue *v = loss->value;
    if (v->kind != DL_KIND_LOSS || !(v->flags & DL_VF_CPU_WEIGHT) || v->dev != DL_DEV_CPU) return;
    /* `self.loss_fcts["ce"](...)`: taken out of a plain dict a module keeps, which DL107
     * reports (registered, as `nn.ModuleDict`, its weight would move with the module) */
    const DlExpr *held = loss->expr;
    if (held->kind == DL_EX_SUBSCRIPT && held->object && dl_ir_is_self_attr(held->object, NULL))
        return;
    const DlOperand *dev = dl_meet_device_operand(fact);
    if (!dev) return;
    const char *name = dl_rule_text(ctx, loss->expr->span);
    DlArena *arena = dl_rule_arena(ctx);
    const char *line = dl_rule_where(ctx, NULL, fact->site->span.start);
    const char *site = v->home ? dl_arena_printf(arena, "%s %s", dl_rule_source(ctx)->path, line)
                               : line;
    const char *message = dl_arena_printf(
        arena,
        "the loss `%s` keeps `%s` on the cpu but is applied at %s where %s; move the "
        "weight (`weight=w.to(device)`) or the criterion (`%s = %s.to(device)`)",
        name, dl_rule_text_in(ctx, v->home, v->aux_span), site, dl_meet_describe(ctx, dev), name,
        name);
    DlFix *fix = NULL;
    const char *target = dl_device_expression(ctx, dev);
    if (target && !v->home &&
        !dl_fix_can_name_at(ctx, target, v->aux_span,
                            dev->expr ? dev->expr->span : fact->site->span))
        target = NULL; /* the criterion built in __init__, the device named in forward */
    const char *arg = dl_rule_text_in(ctx, v->home, v->aux_span);
    const char *eq = strchr(arg, '=');
    if (!v->home && target && eq) {
        const char *value = eq + 1;
        while (*value == ' ') value++;
        const char *text = dl_arena_printf(arena, "%.*s=%s.to(%s)", (int)(eq - arg), arg,
                                           dl_fix_operand(ctx, value), target);
        fix = dl_rule_fix_replace(ctx, dl_arena_printf(arena, "Move the weight: `%s`", text),
                                  v->aux_span, text);
    }
    dl_report_finding_in(ctx, &dl_rule_DL103, v->home, v->aux_span, v->aux_span, message, fix);
}

const DlRule dl_rule_DL103 = {
    .code = "DL103",
    .name = "loss-weight-on-cpu",
    .severity = DL_SEV_ERROR,
    .fixable = true,
    .default_enabled = true,
    .summary = "A loss's `weight=`/`pos_weight=` tensor stays on the CPU while its inputs are on a "
               "device",
    .doc = doc,
    .on_meet = on_meet,
};
