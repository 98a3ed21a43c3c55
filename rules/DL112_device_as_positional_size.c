/* DL112 device-as-positional-size: a device passed positionally to a tensor factory, where
 * the positional arguments are sizes. */
#include "dataflow/torch_api.h"
#include "rules/facts.h"

static const char doc[] =
    "## What it does\n"
    "Finds a device passed as a positional argument to a tensor factory:\n"
    "`torch.zeros(n, device)`, `torch.ones(b, t, self.device)`.\n\n"
    "## Why is this bad?\n"
    "Positional arguments of factories are sizes (or data); `device` is keyword-only. The call\n"
    "raises `TypeError: zeros() received an invalid combination of arguments` instead of\n"
    "placing the tensor.\n\n"
    "## Example\n"
    "```python\n"
    "hidden = torch.zeros(num_layers, batch, hidden_size, device)\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "hidden = torch.zeros(num_layers, batch, hidden_size, device=device)\n"
    "```\n\n"
    "## Fix safety\n"
    "The fix turns the last positional argument into `device=...`; offered only when the device\n"
    "is the last positional argument.\n\n"
    "## When it does not fire\n"
    "- `device=` is a keyword;\n"
    "- the positional arguments are known not to be devices (ints, shapes, unknown values);\n"
    "- the argument is the data of `torch.tensor(data, ...)` or the tensor of\n"
    "  `torch.empty_like(x, ...)`, whatever its name (`p_device`).\n";

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL112;
    if (!fact->qualified || dl_torch_factory(fact->qualified) == DL_FACTORY_NONE) return;
    const DlExpr *call = fact->call;
    int last_positional = -1;
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (!call->args[i].keyword) last_positional = (int)i;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        if (call->args[i].keyword || i >= 32 || !(fact->positional_devices & (1u << i))) continue;
        const DlExpr *arg = call->args[i].value;
        DlArena *arena = dl_rule_arena(ctx);
        const char *text = dl_rule_text(ctx, arg->span);
        const char *message = dl_arena_printf(
            arena,
            "`%s` is a device passed as a size to `%s` (its positional arguments are sizes): "
            "a TypeError; pass it as `device=%s`",
            text, dl_rule_text(ctx, call->object->span), text);
        DlFix *fix = NULL;
        if ((int)i == last_positional && !dl_ir_keyword(call, "device")) {
            const char *repl = dl_arena_printf(arena, "device=%s", text);
            fix = dl_rule_fix_replace(ctx, dl_arena_printf(arena, "Pass `%s`", repl), arg->span, repl);
        }
        dl_report_finding(ctx, &dl_rule_DL112, arg->span, arg->span, message, fix);
    }
}

const DlRule dl_rule_DL112 = {
    .code = "DL112",
    .name = "device-as-positional-size",
    .severity = DL_SEV_ERROR,
    .fixable = true,
    .default_enabled = true,
    .summary = "A device passed positionally to a tensor factory (a TypeError, not a placement)",
    .doc = doc,
    .on_call = on_call,
};
