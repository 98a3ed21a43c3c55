/* DL101 unassigned-to: a tensor's .to()/.cuda()/.cpu() used as a statement. Tensors do not
 * move in place; the moved copy is thrown away. */
#define _GNU_SOURCE /* memmem */
#include <string.h>

#include "dataflow/torch_api.h"
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
    "For a list of tensors, rebuild the list: `tensors = [t.to(device) for t in tensors]`.\n"
    "A cast alone (`x.to(torch.float16)`, `x.to(q.dtype)`) is the same bug: tensors are not\n"
    "cast in place either, and the message says so.\n\n"
    "## Fix safety\n"
    "The fix assigns the result back to the same name (`x = x.to(device)`). It is safe: the\n"
    "statement had no effect before. For a loop over a list or a dict of tensors the fix\n"
    "rebuilds the container (`tensors = [t.to(device) for t in tensors]`); that one is unsafe\n"
    "(applied with `--unsafe-fixes`): other names bound to the old list keep the old tensors.\n"
    "No fix is offered for a registered parameter (`self.w.to(device)` where the class sets\n"
    "`self.w = nn.Parameter(...)`): `Parameter.to()` gives back a plain tensor, which\n"
    "`nn.Module` refuses to store under a parameter's name (TypeError); the parameter moves\n"
    "with its module, so the message says to move the module instead.\n\n"
    "## When it does not fire\n"
    "- the receiver is a module (`model.to(device)`, a loss module, a `nn.Sequential`);\n"
    "- the receiver is an instance of a project class that defines its own `to()`;\n"
    "- the receiver's kind is unknown (a parameter nobody annotated): devlint stays silent,\n"
    "  unless the next mention of it is a tensor's own method (`img = img.unsqueeze(0)`,\n"
    "  `img.shape`), which no module has;\n"
    "- the result is used: `x = x.to(device)`, `return x.to(device)`, `f(x.to(device))`;\n"
    "- a copy to the host of a computed value as a statement at a notebook's top level\n"
    "  (`out.detach().cpu()`, not `x.cpu()` of a name): the value a cell ends with is the one\n"
    "  Jupyter displays;\n"
    "- the receiver is a tensor made for the statement alone (`torch.zeros(1).to(device)`, to\n"
    "  start the device up, or `torch.zeros(1, device=device).cpu()`, to wait for it): no\n"
    "  variable stays behind;\n"
    "- the tensor is known to be where the call would move it, and the call asks nothing else\n"
    "  (`t = torch.tensor(a, device=model.device); t.to(model.device)`, `cpu_t.cpu()`): it\n"
    "  returns the tensor itself (a cast, `.to(device, torch.float16)`, is still reported);\n"
    "- the call has a keyword no move takes: pymatgen's `structure.to(filename=\"x.cif\")`\n"
    "  writes a file.\n";

static bool plain_target(const DlExpr *e) {
    return e && (e->kind == DL_EX_NAME || e->kind == DL_EX_ATTR || e->kind == DL_EX_SUBSCRIPT);
}

static bool plain_name(const DlExpr *e) {
    return e && (e->kind == DL_EX_NAME || e->kind == DL_EX_ATTR);
}

/* `for t in ts: t.to(d)` -> `ts = [t.to(d) for t in ts]`; `for k, v in d.items(): v.to(x)` ->
 * `d = {k: v.to(x) for k, v in d.items()}`; `[t.to(d) for t in ts]` -> `ts = [...]`. Unsafe:
 * the name is rebound to a new container, which other names sharing the old one do not see. */
static DlFix *rebuild_fix(DlRuleContext *ctx, const DlDiscardFact *fact) {
    DlArena *arena = dl_rule_arena(ctx);
    const char *call = dl_rule_text(ctx, fact->call->span);
    const char *text = NULL;
    DlSpan span;
    if (fact->comprehension) {
        const DlExpr *c = fact->comprehension;
        if (!plain_name(dl_expr_extra(c)->iter)) return NULL;
        span = fact->stmt->span;
        text = dl_arena_printf(arena, "%s = %s", dl_rule_text(ctx, dl_expr_extra(c)->iter->span),
                               dl_rule_text(ctx, c->span));
    } else if (fact->loop && fact->loop->parts->body.count == 1 &&
               fact->loop->parts->body.items[0] == fact->stmt && !fact->loop->parts->orelse.count) {
        const DlExpr *target = fact->loop->targets[0], *iter = fact->loop->value;
        span = fact->loop->span;
        if (target->kind == DL_EX_NAME && plain_name(iter)) {
            const char *seq = dl_rule_text(ctx, iter->span);
            text = dl_arena_printf(arena, "%s = [%s for %s in %s]", seq, call, target->name, seq);
        } else if (target->kind == DL_EX_TUPLE && target->item_count == 2 &&
                   iter->kind == DL_EX_CALL && iter->object->kind == DL_EX_ATTR &&
                   strcmp(iter->object->name, "items") == 0 && plain_name(iter->object->object)) {
            const char *dict = dl_rule_text(ctx, iter->object->object->span);
            text = dl_arena_printf(arena, "%s = {%s: %s for %s in %s}", dict,
                                   dl_rule_text(ctx, target->items[0]->span), call,
                                   dl_rule_text(ctx, target->span), dl_rule_text(ctx, iter->span));
        }
    }
    if (!text) return NULL;
    DlFix *fix = dl_rule_fix_replace(ctx, dl_arena_printf(arena, "Rebuild it: `%s`", text), span,
                                     text);
    fix->unsafe = true;
    return fix;
}

/* Whether `self.NAME = ...Parameter(...)` is written in the class whose code holds `at` (the
 * assignment on one line: SurvPath's `self.fc_1_bias = nn.Parameter(torch.rand(n))`). */
static bool class_sets_a_parameter(DlRuleContext *ctx, uint32_t at, const char *name) {
    const DlModuleIR *m = dl_rule_module(ctx);
    const DlSource *src = dl_rule_source(ctx);
    size_t name_len = strlen(name);
    for (uint32_t i = 0; i < m->class_count; i++) {
        const DlClass *c = m->classes[i];
        if (at < c->span.start || at >= c->span.end) continue;
        const char *p = src->text + c->span.start, *end = src->text + c->span.end;
        while ((p = memmem(p, (size_t)(end - p), "self.", 5)) != NULL) {
            const char *q = p + 5;
            p = q;
            if ((size_t)(end - q) <= name_len || memcmp(q, name, name_len) != 0) continue;
            q += name_len;
            while (q < end && (*q == ' ' || *q == '\t')) q++;
            if (q + 1 >= end || q[0] != '=' || q[1] == '=') continue;
            const char *eol = memchr(q, '\n', (size_t)(end - q));
            if (!eol) eol = end;
            if (memmem(q, (size_t)(eol - q), "Parameter(", 10)) return true;
        }
    }
    return false;
}

/* `self.w.to(device)` of a parameter its class registers (see class_sets_a_parameter). */
static bool moves_a_registered_parameter(DlRuleContext *ctx, const DlExpr *receiver) {
    return receiver->kind == DL_EX_ATTR && dl_ir_is_self(receiver->object) && receiver->name &&
           class_sets_a_parameter(ctx, receiver->span.start, receiver->name);
}

/* `x.to(q.dtype)`, `x.to(torch.float16)`, `x.to(dtype=...)`: a cast alone, no device named. */
static bool casts_only(DlRuleContext *ctx, const DlExpr *call) {
    if (!call->object || call->object->kind != DL_EX_ATTR || strcmp(call->object->name, "to") != 0 ||
        call->arg_count != 1)
        return false;
    const DlArg *a = &call->args[0];
    if (a->keyword) return strcmp(a->keyword, "dtype") == 0;
    const DlExpr *v = a->value;
    if (v->kind != DL_EX_ATTR) return false;
    return strcmp(v->name, "dtype") == 0 || dl_torch_is_dtype(dl_rule_text(ctx, v->span));
}

/* `out.detach().cpu()` as a statement at a notebook's top level: a copy to the host of a value
 * computed there is the value Jupyter displays when a cell ends with it (Graph-Transformers'
 * attention maps), not a move thrown away. Not `x.cpu()` of a name, which reads as the move in
 * place the rule is about, nor a move to a GPU so displayed. */
static bool copied_to_the_host_for_display(DlRuleContext *ctx, const DlDiscardFact *fact) {
    if (!dl_source_is_notebook(dl_rule_source(ctx)) || fact->stmt->value != fact->call ||
        fact->receiver->kind == DL_EX_NAME || fact->receiver->kind == DL_EX_ATTR)
        return false;
    bool to_host = strcmp(fact->method, "cpu") == 0;
    const DlExpr *target =
        strcmp(fact->method, "to") == 0 ? dl_ir_positional(fact->call, 0) : NULL;
    if (target && target->kind == DL_EX_STRING && target->name && strcmp(target->name, "cpu") == 0)
        to_host = true;
    if (!to_host) return false;
    const DlBlock *top = &dl_rule_module(ctx)->body;
    for (uint32_t i = 0; i < top->count; i++)
        if (top->items[i] == fact->stmt) return true;
    return false;
}

static void on_discard(DlRuleContext *ctx, const DlDiscardFact *fact) {
    extern const DlRule dl_rule_DL101;
    if (copied_to_the_host_for_display(ctx, fact)) return;
    /* `torch.zeros(1).to(device)`: a tensor made for the statement alone, moved to start the
     * device up (skorch's benchmark); no variable is left where it was */
    /* ... or made on the device and copied back, to wait for it (`torch.zeros(1,
     * device=device).cpu()`, a sync for PyTorch builds without `torch.mps.synchronize`) */
    if (fact->receiver->kind == DL_EX_CALL &&
        (fact->value->origin == DL_ORIGIN_FACTORY ||
         strncmp(dl_rule_text(ctx, fact->receiver->span), "torch.", 6) == 0))
        return;
    const char *recv = dl_rule_text(ctx, fact->receiver->span); /* what a fix writes */
    const char *call = dl_rule_text(ctx, fact->call->span);
    const char *recv_q = dl_rule_snippet(ctx, fact->receiver->span); /* quoted, one line */
    const char *call_q = dl_rule_snippet(ctx, fact->call->span);
    DlArena *arena = dl_rule_arena(ctx);
    const char *where = fact->value->dev
                            ? dl_rule_describe(ctx, recv_q, fact->value)
                            : dl_arena_printf(arena, "`%s` stays where it was", recv_q);
    const char *message;
    DlFix *fix = NULL;
    if (fact->element_of_sequence) {
        message = dl_arena_printf(
            arena,
            "the result of `%s` is thrown away: tensors do not move in place, so each `%s` in the "
            "sequence stays where it was; rebuild the sequence with the moved tensors",
            call_q, recv_q);
        fix = rebuild_fix(ctx, fact);
    } else {
        /* glide-text2im's `self.positional_embedding.to(th.float16)`: no move, the same bug */
        const char *why = casts_only(ctx, fact->call)
                              ? dl_arena_printf(arena,
                                                "tensors are not cast in place, so `%s` keeps its "
                                                "dtype",
                                                recv_q)
                              : dl_arena_printf(arena, "tensors do not move in place, so %s", where);
        bool parameter = moves_a_registered_parameter(ctx, fact->receiver);
        /* `(x % 2).to(d)` has no name to assign back to: only the advice to use the result */
        message = parameter
                      ? dl_arena_printf(arena,
                                        "the result of `%s` is thrown away: %s; it is a "
                                        "registered parameter, which moves with its module: "
                                        "move the module (`model.to(device)`) and delete this "
                                        "line",
                                        call_q, why)
                  : plain_target(fact->receiver)
                      ? dl_arena_printf(arena,
                                        "the result of `%s` is thrown away: %s; assign it: "
                                        "`%s = %s`",
                                        call_q, why, recv_q, call_q)
                      : dl_arena_printf(arena,
                                        "the result of `%s` is thrown away: %s; use the result "
                                        "(bind it to a name)",
                                        call_q, why);
        /* C++: not through a cast (`(void)x.to(d);`) nor onto a const reference */
        const char *ctype = dl_expr_ctype(fact->receiver);
        bool cpp_blocked = ctype && (strncmp(ctype, "const ", 6) == 0 ||
                                     fact->stmt->span.start != fact->call->span.start);
        if (plain_target(fact->receiver) && fact->stmt->value == fact->call && !cpp_blocked &&
            !parameter) {
            const char *text = dl_arena_printf(arena, "%s = %s", recv, call);
            const char *title =
                dl_arena_printf(arena, "Assign the result: `%s = %s`", recv_q, call_q);
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
