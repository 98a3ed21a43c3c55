/* DL205 data-parallel: nn.DataParallel, which PyTorch recommends replacing with
 * DistributedDataParallel. */
#include <stdbool.h>
#include <string.h>

#include "rules/facts.h"

static const char doc[] =
    "## What it does\n"
    "Finds `nn.DataParallel(model)`.\n\n"
    "## Why is this bad?\n"
    "`DataParallel` runs one process with a thread per GPU: it scatters every batch from GPU 0,\n"
    "replicates the model every step and gathers the outputs back on GPU 0, so GPU 0 is\n"
    "overloaded and the GIL serialises the work. PyTorch's documentation recommends\n"
    "`DistributedDataParallel` even on a single machine; it is faster on every setup.\n\n"
    "## Example\n"
    "```python\n"
    "model = nn.DataParallel(model).cuda()\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "torch.distributed.init_process_group(\"nccl\")\n"
    "local_rank = int(os.environ[\"LOCAL_RANK\"])\n"
    "torch.cuda.set_device(local_rank)\n"
    "model = nn.parallel.DistributedDataParallel(model.cuda(), device_ids=[local_rank])\n"
    "```\n\n"
    "## When it does not fire\n"
    "- `DistributedDataParallel`, FSDP, or no wrapper;\n"
    "- a wrapper only unwrapped again (`model = model.module`) before anything calls it: built\n"
    "  to load a checkpoint whose keys start with `module.`, it never runs a batch.\n";

/* Does `e` call the name `name` (`model(x)`)? */
static bool calls_name(const DlExpr *e, const char *name, int depth) {
    if (!e || depth > 48) return false;
    if (e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_NAME &&
        strcmp(e->object->name, name) == 0)
        return true;
    if (calls_name(e->object, name, depth + 1)) return true;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (calls_name(e->items[i], name, depth + 1)) return true;
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (calls_name(e->args[i].value, name, depth + 1)) return true;
    const DlExprExtra *x = (e->flags & DL_EXF_CPP) ? NULL : dl_expr_extra(e);
    return x && (calls_name(x->target, name, depth + 1) || calls_name(x->iter, name, depth + 1));
}

/* `name = name.module` */
static bool unwraps(const DlStmt *s, const char *name) {
    if (s->kind != DL_ST_ASSIGN || s->target_count != 1) return false;
    const DlExpr *t = s->targets[0], *v = s->value;
    return t->kind == DL_EX_NAME && strcmp(t->name, name) == 0 && v && v->kind == DL_EX_ATTR &&
           v->name && strcmp(v->name, "module") == 0 && v->object &&
           v->object->kind == DL_EX_NAME && strcmp(v->object->name, name) == 0;
}

typedef enum { SEEKING, WRAPPED, UNWRAPPED, USED } WrapState;

/* Over the statements of `b` in order (nested blocks too, not nested functions): the wrapper's
 * assignment `name = nn.DataParallel(...)` (at `call`), then whether `name = name.module` comes
 * before anything calls `name`. */
static void follow_wrapper(const DlBlock *b, const DlExpr *call, const char **name,
                           WrapState *state, int depth) {
    if (depth > 32) return;
    for (uint32_t i = 0; i < b->count && (*state == SEEKING || *state == WRAPPED); i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (*state == SEEKING) {
            if (s->kind == DL_ST_ASSIGN && s->value == call && s->target_count == 1 &&
                s->targets[0]->kind == DL_EX_NAME) {
                *name = s->targets[0]->name;
                *state = WRAPPED;
                continue;
            }
        } else if (unwraps(s, *name)) {
            *state = UNWRAPPED;
            return;
        } else if (calls_name(s->value, *name, 0)) {
            *state = USED;
            return;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            follow_wrapper(inner, call, name, state, depth + 1);
    }
}

static bool only_unwrapped(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlFunction *fn = fact->place->function;
    const DlBlock *body = fn ? &fn->body : &dl_rule_module(ctx)->body;
    const char *name = NULL;
    WrapState state = SEEKING;
    follow_wrapper(body, fact->call, &name, &state, 0);
    return state == UNWRAPPED;
}

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL205;
    const char *q = fact->qualified;
    if (!q || (strcmp(q, "torch.nn.DataParallel") != 0 && strcmp(q, "torch.nn.parallel.DataParallel") != 0 &&
               strcmp(q, "torch.nn.parallel.data_parallel.DataParallel") != 0))
        return;
    if (only_unwrapped(ctx, fact)) return;
    dl_report_finding(ctx, &dl_rule_DL205, fact->call->span, fact->call->span,
                      "`nn.DataParallel` replicates the model and funnels every batch through "
                      "GPU 0 each step; use `DistributedDataParallel` (one process per GPU), "
                      "which is faster even on one machine",
                      NULL);
}

const DlRule dl_rule_DL205 = {
    .code = "DL205",
    .name = "data-parallel",
    .severity = DL_SEV_WARNING,
    .fixable = false,
    .default_enabled = true,
    .summary = "`nn.DataParallel`: prefer `DistributedDataParallel`",
    .doc = doc,
    .on_call = on_call,
};
