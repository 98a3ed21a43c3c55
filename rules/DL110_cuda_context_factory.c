/* DL110 cuda-context-factory: a factory without device= inside `with torch.cuda.device(i):`,
 * which only selects the current GPU; the tensor is still created on the CPU. */
#include <string.h>

#include "dataflow/torch_api.h"
#include "rules/facts.h"
#include "rules/fixes.h"

static const char doc[] =
    "## What it does\n"
    "Finds tensor factories without `device=` inside `with torch.cuda.device(i):`.\n\n"
    "## Why is this bad?\n"
    "`torch.cuda.device(i)` only changes which GPU `\"cuda\"` means; it does not make factories\n"
    "create on the GPU. `torch.randn(3)` inside it is a CPU tensor, contrary to what the block\n"
    "suggests (a common misconception, repeated by many tutorials). Only\n"
    "`with torch.device(\"cuda:1\"):` or `torch.set_default_device` change the default.\n\n"
    "## Example\n"
    "```python\n"
    "with torch.cuda.device(1):\n"
    "    buffer = torch.zeros(1024)\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "with torch.cuda.device(1):\n"
    "    buffer = torch.zeros(1024, device=\"cuda\")   # cuda means cuda:1 here\n"
    "# or: with torch.device(\"cuda:1\"): buffer = torch.zeros(1024)\n"
    "```\n\n"
    "## Fix safety\n"
    "The fix adds `device=\"cuda\"`, which inside the block is the selected GPU. It changes where\n"
    "the tensor lives, which is what the block meant.\n\n"
    "## When it does not fire\n"
    "- the factory has `device=`, or its result is moved at once (`torch.ones(n).cuda()`, or\n"
    "  `mask = torch.arange(n)[None] < lengths[:, None]` followed by `mask = mask.to(device)`, or\n"
    "  by in-place steps and then a move under any name: `noise = torch.rand(shape)`,\n"
    "  `noise.add_(eps).log_().neg_()`, `g = noise.cuda()`);\n"
    "- inside `with torch.device(...)`, or in a file that calls `torch.set_default_device`;\n"
    "- `*_like(x)` / `x.new_*()` factories (they follow `x`).\n";

/* `noise.add_(1e-9).log_().neg_()`: a statement of in-place methods on `name` alone. */
static bool updated_in_place(const DlStmt *s, const char *name) {
    const DlExpr *e = s->kind == DL_ST_EXPR ? s->value : NULL;
    bool any = false;
    while (e && e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_ATTR &&
           e->object->name && e->object->name[0] &&
           e->object->name[strlen(e->object->name) - 1] == '_') {
        any = true;
        e = e->object->object;
    }
    return any && e && e->kind == DL_EX_NAME && strcmp(e->name, name) == 0;
}

/* `mask = torch.arange(n)[None] >= lengths[:, None]`, then `mask = mask.to(device)` as the
 * next statement of the block (a speech homework's padding mask): what the factory made meets
 * only what the statement computes and is moved at once after; nothing is written as if the
 * factory created on the GPU. Looks for the statement in `b` (at any depth) holding `call`. */
static bool bound_then_moved(const DlBlock *b, const DlExpr *call, int depth) {
    for (uint32_t i = 0; depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->span.start > call->span.start || s->span.end < call->span.end) continue;
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME) {
            const char *name = s->targets[0]->name;
            /* (past its own in-place steps: `noise.add_(1e-9).log_().neg_()`, then
             * `g = noise.cuda()`, a Gumbel sampler's noise) */
            uint32_t j = i + 1;
            while (j < b->count && updated_in_place(b->items[j], name))
                j++;
            const DlStmt *next = j < b->count ? b->items[j] : NULL;
            const DlExpr *v = next && next->kind == DL_ST_ASSIGN && next->target_count == 1
                                  ? next->value
                                  : NULL;
            if (!v || next->targets[0]->kind != DL_EX_NAME ||
                (j == i + 1 && strcmp(next->targets[0]->name, name) != 0) ||
                v->kind != DL_EX_CALL ||
                !v->object || v->object->kind != DL_EX_ATTR || !v->object->name ||
                (strcmp(v->object->name, "to") != 0 && strcmp(v->object->name, "cuda") != 0))
                return false;
            /* `mask.transpose(0, 1).to(device)`: reshaped on the way (a homework's decoder) */
            static const char *const reshapes[] = {"transpose", "permute", "view", "reshape",
                                                   "unsqueeze", "squeeze", "t", "contiguous",
                                                   "float", "long", "bool", "int", NULL};
            const DlExpr *r = v->object->object;
            while (r && r->kind == DL_EX_CALL && r->object && r->object->kind == DL_EX_ATTR &&
                   dl_name_in_list(r->object->name, reshapes))
                r = r->object->object;
            /* `Variable(noise).cuda()`: the tensor itself, wrapped */
            if (r && r->kind == DL_EX_CALL && r->object && r->object->kind == DL_EX_NAME &&
                r->object->name && strcmp(r->object->name, "Variable") == 0 &&
                r->arg_count == 1 && !r->args[0].keyword)
                r = r->args[0].value;
            return r && r->kind == DL_EX_NAME && strcmp(r->name, name) == 0;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (bound_then_moved(inner, call, depth + 1)) return true;
        return false;
    }
    return false;
}

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL110;
    if (!fact->place->cuda_context || !fact->qualified || fact->immediately_moved) return;
    DlFactoryKind kind = dl_torch_factory(fact->qualified);
    if (kind != DL_FACTORY_PLAIN || dl_ir_keyword(fact->call, "device")) return;
    if (fact->result->kind != DL_KIND_TENSOR || fact->result->dev != DL_DEV_CPU) return;
    const DlFunction *fn = fact->place->function;
    if (bound_then_moved(fn ? &fn->body : &dl_rule_module(ctx)->body, fact->call, 0)) return;
    const char *factory = dl_rule_text(ctx, fact->call->object->span);
    const char *message = dl_arena_printf(
        dl_rule_arena(ctx),
        "`%s` inside `%s` still creates on the cpu: `torch.cuda.device` only selects the current "
        "GPU; pass `device=\"cuda\"`",
        factory, dl_rule_snippet(ctx, fact->place->cuda_context->span));
    dl_report_finding(ctx, &dl_rule_DL110, fact->call->span, fact->call->span, message,
                      dl_fix_add_keyword(ctx, fact->call, "device", "\"cuda\""));
}

const DlRule dl_rule_DL110 = {
    .code = "DL110",
    .name = "cuda-context-factory",
    .severity = DL_SEV_ERROR,
    .fixable = true,
    .default_enabled = true,
    .summary = "A factory without `device=` inside `with torch.cuda.device(i):` still creates on "
               "the CPU",
    .doc = doc,
    .on_call = on_call,
};
