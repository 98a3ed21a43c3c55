/* DL105 model-not-moved: a module constructed here, never moved, called with device tensors. */
#include "rules/fixes.h"
#include "rules/mismatch.h"

static const char doc[] =
    "## What it does\n"
    "Finds a module that is constructed, never moved (`.to(device)` / `.cuda()`), and called\n"
    "with tensors that were moved to a device.\n\n"
    "## Why is this bad?\n"
    "The inputs are on the GPU, the parameters are still on the CPU: the first layer fails with\n"
    "*Expected all tensors to be on the same device*.\n\n"
    "## Example\n"
    "```python\n"
    "model = Net()\n"
    "x = x.to(device)\n"
    "out = model(x)\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "model = Net().to(device)\n"
    "x = x.to(device)\n"
    "out = model(x)\n"
    "```\n\n"
    "## Fix safety\n"
    "The fix moves the module where it is constructed (`Net().to(device)`).\n\n"
    "## When it does not fire\n"
    "- it has nothing to move: no parameter, buffer or submodule with any, or only 0-dim ones,\n"
    "  which may meet CUDA tensors from the CPU (`nn.ReLU()`,\n"
    "  `nn.InstanceNorm2d(c)` with its defaults, a loss\n"
    "  without a weight or one that takes none, whatever it is given\n"
    "  (`nn.MarginRankingLoss(0.9)`), a project module that only computes or only holds such, an\n"
    "  `nn.ModuleList` of such), wherever in the project its class is defined, also\n"
    "  a subclass of a torch loss that\n"
    "  is given no weight (d2l's `class MaskedSoftmaxCELoss(nn.CrossEntropyLoss)`; one whose\n"
    "  `__init__` hands the loss its own `*args, **kwargs`, built with none that could be a\n"
    "  weight: `RobustCrossEntropyLoss(ignore_index=-1, offset=eps)`), or one whose parameters\n"
    "  exist only under a flag its construction turns off (`RevIN(n, affine=False)`, its\n"
    "  parameters built under `if self.affine:`, in `__init__` or in a helper method only\n"
    "  `__init__` calls there, its statistics registered as empty buffers);\n"
    "- the module is moved anywhere before the call (`model.to(device)` moves in place; its\n"
    "  result need not be assigned; `for m in (model, ema): m.to(device)` moves both), or its\n"
    "  `__init__` moves itself, or builds its own state on the GPU (`device=\n"
    "  torch.cuda.current_device()`, a cache of a table kept in pinned host memory) or on the\n"
    "  device a name of its file holds (`nn.Conv2d(..., device=DEVICE)`), or its\n"
    "  `forward` moves itself or its parts to where its input is\n"
    "  (`self.resampler.to(waveforms.device)`);\n"
    "- its only state is tensors that its methods (or its project bases') copy to where a\n"
    "  variable says (`self.points.to(image)`, `torch.as_tensor(self.kernel,\n"
    "  device=pred.device)`, `self._coefficient = self.coefficient.to(X)`), or hand to a method\n"
    "  that copies them (`self._blur(x, self.kernel)` where `_blur` does\n"
    "  `kernel.to(device=x.device)`), or that its `forward` replaces, every one, with tensors\n"
    "  computed from its input (`self.means = Y.mean(dim=-2)`, BoTorch's Standardize);\n"
    "- it is built inside `with torch.device(d):` (or `with device:` where `device` is a\n"
    "  `torch.device`) or a context named for a device and given one (`with\n"
    "  init_on_device(d):`, `with init_on_device_and_dtype(device=d, ...):`);\n"
    "- it is built with `device=` (or the device by position: `nn.Linear(k, n, False,\n"
    "  device)`, `Experts(device)` where `__init__(self, device)`), also through a dict of\n"
    "  keyword arguments that holds one\n"
    "  (`Mixer(**cfg)` with `cfg = dict(d_model=16, device=\"cuda\")`), or from a tensor on a\n"
    "  device or a module that was moved (`Steerer(torch.rand(d, d, device=device))`,\n"
    "  `Wrapper(backbone.to(device))`), also inside a list (`Model(blocks)` where each block\n"
    "  was moved), a dict of keyword arguments (`Acqf(**{\"X_baseline\": x_on_gpu})`) or an\n"
    "  object built from them (`MockModel(MockPosterior(mean_on_gpu))`);\n"
    "- one of its parts is replaced with one on a device (`lin.w.weight =\n"
    "  nn.Parameter(w.to(device))`): where the rest is, is not known;\n"
    "- it is kept by an object (not a module) that defines its own `to()` moving it (an RL\n"
    "  agent's `self.actor`): inside that object's methods, where it is depends on whether\n"
    "  the object was moved;\n"
    "- the module comes from elsewhere (a parameter, a factory function): its device is unknown;\n"
    "  so is a wrapper's whose only state is what it is given: a module whose place is not\n"
    "  known (`PadToMinM(module)`) or that builds no state of its own (a test's\n"
    "  `MockModel(posterior)`), and tensors made from its arguments (`torch.as_tensor(best_f)`);\n"
    "- it is a submodule of a class whose base devlint cannot see (`PreTrainedModel`, a base\n"
    "  defined twice in the project): that class may be a module, which moves it along;\n"
    "- its class registers nothing, keeping its modules in a plain dict or list (`self.losses =\n"
    "  {\"clip\": CLIPLoss(args)}`): moving it would move nothing, and DL107 reports the dict;\n"
    "- it is a name a function reads from the top of its file, bound there more than once\n"
    "  and moved once (`model = Net().cuda()` in one notebook cell, `model = Net()` in a\n"
    "  later one): which one the function sees depends on when it is called;\n"
    "- the inputs are on the CPU too, or made on the model's own device\n"
    "  (`torch.tensor(x, device=model.device)`), wherever it is moved later.\n";

/* Counts the statements of `b` (and of the blocks in it, not defs or classes) that bind `name`
 * alone (`*bound`), and notes whether one of them, or a statement `name.cuda()` /
 * `name.to(...)`, moves it (`*moved`). */
static void count_top_level_bindings(DlRuleContext *ctx, const DlBlock *b, const char *name,
                                     uint32_t *bound, bool *moved, int depth) {
    DlArena *arena = dl_rule_arena(ctx);
    const char *moves[] = {dl_arena_printf(arena, "%s.cuda(", name),
                           dl_arena_printf(arena, "%s.to(", name)};
    for (uint32_t i = 0; depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const char *text = s->value ? dl_rule_text(ctx, s->value->span) : "";
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME &&
            strcmp(s->targets[0]->name, name) == 0) {
            (*bound)++;
            *moved |= strstr(text, ".cuda(") || strstr(text, ".to(");
        } else if (s->kind == DL_ST_EXPR) {
            *moved |= strncmp(text, moves[0], strlen(moves[0])) == 0 ||
                      strncmp(text, moves[1], strlen(moves[1])) == 0;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            count_top_level_bindings(ctx, inner, name, bound, moved, depth + 1);
    }
}

/* `model`, read in a function, is bound at the top of the file more than once and moved there
 * at least once (`model = Net().cuda()` in one notebook cell, `model = Net()` in a later one):
 * which binding the function sees depends on when it is called, and the last one (the state
 * the function is read with) need not be it (OECC's fine-tuning notebook). */
static bool global_bound_again_and_moved(DlRuleContext *ctx, const DlMeetFact *fact,
                                         const DlOperand *module) {
    const DlFunction *fn = fact->place->function;
    if (!fn || !module->expr || module->expr->kind != DL_EX_NAME || module->value->home)
        return false;
    const char *name = module->expr->name;
    if (dl_ir_param_index(fn, name) >= 0 || dl_ir_last_assignment(&fn->body, name, UINT32_MAX))
        return false;
    uint32_t bound = 0;
    bool moved = false;
    count_top_level_bindings(ctx, &dl_rule_module(ctx)->body, name, &bound, &moved, 0);
    return bound >= 2 && moved;
}

static void on_meet(DlRuleContext *ctx, const DlMeetFact *fact) {
    extern const DlRule dl_rule_DL105;
    if (fact->callee < 0) return;
    const DlOperand *module = &fact->operands[fact->callee];
    const DlValue *m = module->value;
    if (m->kind != DL_KIND_MODULE || m->dev != DL_DEV_CPU || !(m->flags & DL_VF_CONSTRUCTED) ||
        (m->flags & DL_VF_MOVED))
        return;
    /* an input on a device known to be one: not `device=x.device` of an `x` whose device is
     * not known (GCDG's `torch.zeros(n, 10, device=pose.device)`), which may be the CPU */
    const DlOperand *dev = NULL;
    for (uint32_t i = 0; i < fact->count && !dev; i++) {
        const DlValue *v = fact->operands[i].value;
        if (i != (uint32_t)fact->callee && v->kind != DL_KIND_LOSS && dl_value_on_device(v) &&
            !(v->flags & DL_VF_DEVICE_OF_UNKNOWN))
            dev = &fact->operands[i];
    }
    if (!dev) return;
    if (global_bound_again_and_moved(ctx, fact, module)) return;
    const char *name = dl_rule_snippet(ctx, module->expr->span); /* quoted: one line */
    /* `model = model.to(device)` for a variable; a module built where it is called
     * (`nn.Linear(2, 2)(x)`) has nothing to assign to */
    DlExprKind k = module->expr->kind;
    bool assignable = k == DL_EX_NAME || k == DL_EX_ATTR || k == DL_EX_SUBSCRIPT;
    DlArena *arena = dl_rule_arena(ctx);
    const char *advice = assignable ? dl_arena_printf(arena, "`%s = %s.to(device)`", name, name)
                                    : dl_arena_printf(arena, "`%s.to(device)`", name);
    const char *message = dl_arena_printf(
        dl_rule_arena(ctx),
        "`%s` is never moved to a device (%s: %s) but is called with inputs on a device: "
        "%s; move it: %s",
        name, dl_rule_where(ctx, m->home, m->dev_span.start),
        m->dev_why ? m->dev_why : "constructed",
        dl_meet_describe(ctx, dev), advice);
    DlFix *fix = NULL;
    const char *where = dl_device_expression(ctx, dev);
    if (where && !m->home && m->dev_span.end &&
        !dl_fix_can_name_at(ctx, where, m->dev_span,
                            dev->expr ? dev->expr->span : fact->site->span))
        where = NULL; /* built in one def, called with the device another one names */
    if (where && !m->home && m->dev_span.end) {
        const char *ctor = dl_rule_snippet(ctx, m->dev_span);
        const char *text = dl_arena_printf(dl_rule_arena(ctx), ".to(%s)", where);
        fix = dl_rule_fix_replace(
            ctx, dl_arena_printf(dl_rule_arena(ctx), "Move it where it is built: `%s%s`", ctor, text),
            (DlSpan){m->dev_span.end, m->dev_span.end}, text);
    }
    dl_report_finding(ctx, &dl_rule_DL105, fact->site->span, fact->site->span, message, fix);
}

const DlRule dl_rule_DL105 = {
    .code = "DL105",
    .name = "model-not-moved",
    .severity = DL_SEV_ERROR,
    .fixable = true,
    .default_enabled = true,
    .summary = "A module that was never moved is called with tensors on a device",
    .doc = doc,
    .on_meet = on_meet,
};
