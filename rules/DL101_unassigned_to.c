/* DL101 unassigned-to: a tensor's .to()/.cuda()/.cpu() used as a statement. Tensors do not
 * move in place; the moved copy is thrown away. */
#include <string.h>

#include "rules/facts.h"

static const char doc[] =
    "## What it does\n"
    "Finds `x.to(device)`, `x.cuda()` and `x.cpu()` on a tensor written as a statement, whose\n"
    "result is never used: also inside `for t in tensors:` bodies and as a comprehension whose\n"
    "list is dropped.\n\n"
    "## Why is this bad?\n"
    "`Tensor.to()` returns a new tensor and leaves the original where it was. The statement\n"
    "copies the data and throws the copy away; `x` stays on the CPU, and the next operation with\n"
    "a CUDA tensor fails with *Expected all tensors to be on the same device*. (Modules are\n"
    "different: `model.to(device)` moves the module in place, so devlint does not report it.)\n\n"
    "## Example\n"
    "```python\n"
    "x = torch.randn(4, 10)\n"
    "x.to(device)\n"
    "out = model(x)  # RuntimeError: ... cuda:0 and cpu\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "x = torch.randn(4, 10)\n"
    "x = x.to(device)\n"
    "out = model(x)\n"
    "```\n"
    "For a list of tensors, rebuild the list: `tensors = [t.to(device) for t in tensors]`.\n\n"
    "## Fix safety\n"
    "The fix assigns the result back to the same name (`x = x.to(device)`). It is safe: the\n"
    "statement had no effect before.\n\n"
    "## When it does not fire\n"
    "- the receiver is a module (`model.to(device)`, a loss module, a `nn.Sequential`);\n"
    "- the receiver is an instance of a project class that defines its own `to()`;\n"
    "- the receiver's kind is unknown (a parameter nobody annotated): devlint stays silent;\n"
    "- the result is used: `x = x.to(device)`, `return x.to(device)`, `f(x.to(device))`.\n";

static bool plain_target(const DlExpr *e) {
    return e && (e->kind == DL_EX_NAME || e->kind == DL_EX_ATTR || e->kind == DL_EX_SUBSCRIPT);
}

static void on_discard(DlRuleContext *ctx, const DlDiscardFact *fact) {
    extern const DlRule dl_rule_DL101;
    const char *recv = dl_rule_text(ctx, fact->receiver->span);
    const char *call = dl_rule_text(ctx, fact->call->span);
    DlArena *arena = dl_rule_arena(ctx);
    const char *where = fact->value->dev
                            ? dl_rule_describe(ctx, recv, fact->value)
                            : dl_arena_printf(arena, "`%s` stays where it was", recv);
    const char *message;
    DlFix *fix = NULL;
    if (fact->element_of_sequence) {
        message = dl_arena_printf(
            arena,
            "the result of `%s` is thrown away: tensors do not move in place, so each `%s` in the "
            "sequence stays where it was; rebuild the sequence with the moved tensors",
            call, recv);
    } else {
        message = dl_arena_printf(arena,
                                  "the result of `%s` is thrown away: tensors do not move in "
                                  "place, so %s; assign it: `%s = %s`",
                                  call, where, recv, call);
        if (plain_target(fact->receiver) && fact->stmt->value == fact->call) {
            const char *text = dl_arena_printf(arena, "%s = %s", recv, call);
            const char *title = dl_arena_printf(arena, "Assign the result: `%s`", text);
            fix = dl_rule_fix_replace(ctx, title, fact->call->span, text);
        }
    }
    dl_report_finding(ctx, &dl_rule_DL101, fact->call->span, fact->call->span, message, fix);
}

const DlRule dl_rule_DL101 = {
    .code = "DL101",
    .name = "unassigned-to",
    .severity = DL_SEV_ERROR,
    .fixable = true,
    .default_enabled = true,
    .summary = "A tensor's `.to()`/`.cuda()`/`.cpu()` result is thrown away (tensors do not move "
               "in place)",
    .doc = doc,
    .on_discard = on_discard,
};
