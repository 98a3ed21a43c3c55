/* DL107 plain-module-container: an nn.Module keeps submodules or parameters in a plain
 * list/dict, where they are neither registered nor moved. */
#include "rules/facts.h"

static const char doc[] =
    "## What it does\n"
    "Finds an `nn.Module` whose `__init__` stores submodules or `nn.Parameter`s in a plain\n"
    "`list` or `dict` attribute (`self.layers = [nn.Linear(...) for ...]`,\n"
    "`self.heads = {\"a\": nn.Linear(...)}`, or `self.blocks = []` filled with `.append`).\n\n"
    "## Why is this bad?\n"
    "PyTorch only registers modules and parameters assigned directly as attributes or held in\n"
    "`nn.ModuleList` / `nn.ModuleDict` / `nn.ParameterList`. Those in a plain container are\n"
    "invisible: `model.to(device)` leaves them on the CPU, `model.parameters()` (and so the\n"
    "optimizer) skips them, and `state_dict()` does not save them.\n\n"
    "## Example\n"
    "```python\n"
    "self.layers = [nn.Linear(d, d) for _ in range(depth)]\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "self.layers = nn.ModuleList([nn.Linear(d, d) for _ in range(depth)])\n"
    "```\n\n"
    "## When it does not fire\n"
    "- `nn.ModuleList`, `nn.ModuleDict`, `nn.Sequential`, `nn.ParameterList`/`ParameterDict`;\n"
    "- a local list that is wrapped before it is stored (`self.layers = nn.ModuleList(layers)`);\n"
    "- lists of numbers, names or tensors that are not parameters;\n"
    "- classes that are not `nn.Module`s;\n"
    "- `__init__` also registers the modules itself (`self.add_module(name, m)`,\n"
    "  `setattr(self, name, m)`), keeping the list only to iterate over them.\n";

static void on_class(DlRuleContext *ctx, const DlClassFact *fact) {
    extern const DlRule dl_rule_DL107;
    const DlClassInfo *c = fact->info;
    /* modules also registered one by one (self.add_module(name, m), setattr(self, name, m))
     * are kept in a list only for iteration: nothing is lost */
    if (!c->is_module || dl_project_attr(c, "<registers>")) return;
    for (uint32_t i = 0; i < c->attr_count; i++) {
        const DlValue *v = c->attrs[i].value;
        if (v->kind != DL_KIND_SEQ || !(v->flags & DL_VF_HAS_MODULES) || !v->aux_span.end) continue;
        const char *message = dl_arena_printf(
            dl_rule_arena(ctx),
            "`self.%s` keeps modules or parameters in a plain container: they are not registered, "
            "so `%s.to(device)` does not move them and `parameters()` / `state_dict()` miss them; "
            "use `nn.ModuleList` / `nn.ModuleDict` (or `nn.ParameterList`)",
            c->attrs[i].name, c->cls->name);
        dl_report_finding(ctx, &dl_rule_DL107, v->aux_span, v->aux_span, message, NULL);
    }
}

const DlRule dl_rule_DL107 = {
    .code = "DL107",
    .name = "plain-module-container",
    .severity = DL_SEV_ERROR,
    .fixable = false,
    .default_enabled = true,
    .summary = "An nn.Module keeps submodules or parameters in a plain list or dict",
    .doc = doc,
    .on_class = on_class,
};
