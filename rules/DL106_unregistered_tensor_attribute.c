/* DL106 unregistered-tensor-attribute: an nn.Module keeps a tensor as a plain attribute and
 * uses it in forward with its inputs; module.to(device) does not move it. */
#include <string.h>

#include "rules/mismatch.h"

static const char doc[] =
    "## What it does\n"
    "Finds a tensor stored on an `nn.Module` as a plain attribute in `__init__` (or in a helper\n"
    "method `__init__` calls), e.g. `self.mask = torch.ones(...)`, that a method such as\n"
    "`forward` then combines with its inputs.\n\n"
    "## Why is this bad?\n"
    "`model.to(device)` moves parameters, buffers and submodules, not plain attributes. After\n"
    "`model.to(\"cuda\")` the inputs are on the GPU and `self.mask` is still on the CPU: the\n"
    "forward pass fails with *Expected all tensors to be on the same device*. The tensor is also\n"
    "missing from `state_dict()`.\n\n"
    "## Example\n"
    "```python\n"
    "class Masked(nn.Module):\n"
    "    def __init__(self, n):\n"
    "        super().__init__()\n"
    "        self.mask = torch.tril(torch.ones(n, n))\n"
    "    def forward(self, x):\n"
    "        return x * self.mask\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "        self.register_buffer(\"mask\", torch.tril(torch.ones(n, n)))\n"
    "```\n"
    "(`persistent=False` keeps it out of the checkpoint; `nn.Parameter` if it is learned.)\n\n"
    "## Fix safety\n"
    "Registering a buffer also adds it to `state_dict()`: loading an older checkpoint with\n"
    "`strict=True` then reports a missing key. The fix is offered as safe since the attribute is\n"
    "used with inputs and so must move with the module.\n\n"
    "## When it does not fire\n"
    "- `register_buffer`, `nn.Parameter` (also after a method that hands back the parameter\n"
    "  itself: an in-place `.normal_()`, or `.float()` of one made by `torch.ones(d)`),\n"
    "  created with `device=...`;\n"
    "- a parameter on one path and a placeholder on the other (`nn.Parameter(...)` if a flag\n"
    "  says so, else `torch.tensor(0)`): where it is depends on the flag;\n"
    "- moved where it is used (`self.mask.to(x.device)`), or by the class's own `_apply()`,\n"
    "  `to()` or `cuda()` (`self.mean = fn(self.mean)`);\n"
    "- only used with Python numbers, or a 0-dim constant (`torch.tensor(3.0)`, or\n"
    "  `torch.tensor(dim)` where `dim` is a parameter the layers are sized with,\n"
    "  `nn.Linear(d, dim)`, and so an integer);\n"
    "- the class is not an `nn.Module`.\n";

/* `self.name = <rhs>` -> `self.register_buffer("name", <rhs>)` */
static DlFix *register_fix(DlRuleContext *ctx, const DlValue *v) {
    const char *stmt = dl_rule_text(ctx, v->aux_span);
    if (strncmp(stmt, "self.", 5) != 0) return NULL;
    const char *name = stmt + 5;
    size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    const char *rest = name + n;
    while (*rest == ' ') rest++;
    if (*rest != '=' || rest[1] == '=') return NULL;
    rest++;
    while (*rest == ' ') rest++;
    if (strchr(rest, '=') && strstr(rest, " = ")) return NULL; /* chained assignment */
    /* `nn.Parameter(...) if train_freq else w * torch.ones(...)` (safari's Hyena): a buffer of
     * the whole would no longer train the parameter on the path that made one */
    if (strstr(rest, "Parameter(")) return NULL;
    DlArena *arena = dl_rule_arena(ctx);
    const char *text = dl_arena_printf(arena, "self.register_buffer(\"%.*s\", %s)", (int)n, name, rest);
    const char *title =
        dl_arena_printf(arena, "Register it as a buffer: `self.register_buffer(\"%.*s\", ...)`",
                        (int)n, name);
    return dl_rule_fix_replace(ctx, title, v->aux_span, text);
}

/* `self.queue` of the statement `self.queue = torch.randn(...)` that made the attribute (the
 * value that meets may be derived from it: `self.queue.clone().detach()`), or NULL. */
static const char *assigned_attribute(DlRuleContext *ctx, DlSpan stmt) {
    const char *text = dl_rule_text(ctx, stmt);
    if (strncmp(text, "self.", 5) != 0) return NULL;
    size_t n = 5;
    while (text[n] == '_' || text[n] == '.' || (text[n] >= 'a' && text[n] <= 'z') ||
           (text[n] >= 'A' && text[n] <= 'Z') || (text[n] >= '0' && text[n] <= '9'))
        n++;
    size_t end = n;
    while (text[n] == ' ') n++;
    if (text[n] != '=' && text[n] != ':') return NULL;
    return dl_arena_printf(dl_rule_arena(ctx), "%.*s", (int)end, text);
}

static void on_meet(DlRuleContext *ctx, const DlMeetFact *fact) {
    extern const DlRule dl_rule_DL106;
    const DlOperand *cpu = dl_meet_cpu_operand(fact, DL_ORIGIN_PLAIN_ATTR);
    const DlOperand *dev = dl_meet_device_operand(fact);
    if (!cpu || !dev || !cpu->value->aux_span.end) return;
    const DlValue *v = cpu->value;
    /* the attribute, not a local name the value reached the meeting by (`w = self.k.float()`) */
    const char *name = v->home ? NULL : assigned_attribute(ctx, v->aux_span);
    if (!name) name = v->var;
    if (!name) name = dl_rule_text(ctx, cpu->expr->span);
    const char *message = dl_arena_printf(
        dl_rule_arena(ctx),
        "`%s` is a plain tensor attribute (%s), which `module.to(device)` does not move, but it "
        "meets the module's inputs at %s: %s; register it: `self.register_buffer(...)`",
        name, v->dev_why ? v->dev_why : "created on the cpu",
        dl_rule_where(ctx, NULL, fact->site->span.start), dl_meet_describe(ctx, dev));
    dl_report_finding(ctx, &dl_rule_DL106, v->aux_span, v->aux_span, message, register_fix(ctx, v));
}

const DlRule dl_rule_DL106 = {
    .code = "DL106",
    .name = "unregistered-tensor-attribute",
    .severity = DL_SEV_ERROR,
    .fixable = true,
    .default_enabled = true,
    .summary = "An nn.Module keeps a tensor as a plain attribute that `module.to()` will not move",
    .doc = doc,
    .on_meet = on_meet,
};
