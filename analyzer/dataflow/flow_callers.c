/* What a top-level function's parameter is handed by the calls of the function in its own file:
 * `def generate(model, n, device)` that the file calls only as `generate(Net(device), 3,
 * device)` (or with `net = Net(device)` bound before the call) runs on an instance of the
 * project's `Net`, whose forward may move its inputs itself (timegan-pytorch's
 * `TimeGAN.forward`). Unknown otherwise: a call that passes anything else, hands on `*args`, or
 * none at all.
 *
 * Read from the file's own model: every function body and the top level, by name. */
#include "dataflow/flow_internal.h"

typedef struct CallersAsk {
    Flow *F;
    const DlFunction *fn;
    uint32_t param;
    const DlBlock *scope;     /* the body the calls being read are in */
    const DlClassInfo *given; /* agreed by every call so far */
    bool mixed;               /* a call passes something else */
} CallersAsk;

/* The argument of `call` that reaches parameter `param` of `fn` (no `self`: a top-level def);
 * NULL when none does or a splat may. */
static const DlExpr *argument_for(const DlExpr *call, const DlFunction *fn, uint32_t param) {
    const DlParam *p = &fn->params[param];
    uint32_t position = 0;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (kw && kw[0] == '*') return NULL;
        if (kw) {
            if (strcmp(kw, p->name) == 0) return call->args[i].value;
            continue;
        }
        if (call->args[i].value && call->args[i].value->kind == DL_EX_STARRED) return NULL;
        if (position++ == param && !p->star && !p->keyword_only) return call->args[i].value;
    }
    return NULL;
}

/* The project module class `e` constructs (`Net(device)`, also moved or set to a mode on the way:
 * `Net().to(device)`, `Net().cuda().eval()`), or NULL. */
static const DlClassInfo *module_constructed(Flow *F, const DlExpr *e) {
    static const char *const in_place[] = {"to", "cuda", "cpu", "eval", "train", "float",
                                           "double", "half", NULL};
    for (int depth = 0; e && depth < 4 && e->kind == DL_EX_CALL && e->object &&
                        e->object->kind == DL_EX_ATTR && e->object->object &&
                        e->object->object->kind == DL_EX_CALL &&
                        dl_name_in_list(e->object->name, in_place);
         depth++)
        e = e->object->object;
    if (!e || e->kind != DL_EX_CALL || !e->object ||
        (e->object->kind != DL_EX_NAME && e->object->kind != DL_EX_ATTR))
        return NULL;
    const char *q = flow_qualify(F, e->object);
    const char *name = q ? q : e->object->kind == DL_EX_NAME ? e->object->name : NULL;
    const DlClassInfo *ci = name ? dl_project_find_class(F->env->project, F->env->file, name) : NULL;
    return ci && ci->is_module ? ci : NULL;
}

static bool note_call(const DlExpr *e, void *ctx) {
    CallersAsk *a = ctx;
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_NAME ||
        !e->object->name || strcmp(e->object->name, a->fn->name) != 0)
        return false;
    const DlExpr *arg = argument_for(e, a->fn, a->param);
    /* `net = Net(device)` bound before the call in the same body */
    if (arg && arg->kind == DL_EX_NAME && arg->name)
        arg = dl_ir_last_assignment(a->scope, arg->name, e->span.start);
    const DlClassInfo *ci = module_constructed(a->F, arg);
    if (!ci || (a->given && a->given != ci)) a->mixed = true;
    else a->given = ci;
    return a->mixed;
}

static void read_block(CallersAsk *a, const DlBlock *b, int depth) {
    const DlSource *src = a->F->env->file->module->source;
    for (uint32_t i = 0; !a->mixed && depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue; /* read as functions */
        /* a statement whose text does not name the function calls it nowhere */
        if (src && !dl_ir_span_mentions(src, s->span, a->fn->name)) continue;
        if (dl_ir_expr_any_with(s->value, note_call, a)) return;
        for (uint32_t w = 0; s->kind == DL_ST_WITH && w < s->with_count; w++)
            if (dl_ir_expr_any_with(s->withs[w], note_call, a)) return;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            read_block(a, inner, depth + 1);
    }
}

/* Parameters named for a model (`model`, `net`, `generator`, ...): the only ones asked about,
 * so that a file's other functions cost no walk. */
static bool names_a_model(const char *name) {
    /* a loss module too (`evaluate(..., criterion)` handed `HostLoss()`: YOLOv2's test loop,
     * whose loss copies its inputs to the host) */
    static const char *const words[] = {"model",    "net",        "module",        "encoder",
                                        "decoder",  "generator",  "discriminator", "classifier",
                                        "criterion", "loss",      NULL};
    for (const char *const *w = words; *w; w++)
        if (strstr(name, *w)) return true;
    return false;
}

const DlClassInfo *flow_module_class_given(Flow *F, const DlFunction *fn, uint32_t param) {
    if (!fn || fn->owner || fn->parent || param >= fn->param_count) return NULL;
    const DlParam *p = &fn->params[param];
    if (p->star || p->annotation || p->default_value || !names_a_model(p->name)) return NULL;
    const DlModuleIR *m = F->env->file->module;
    CallersAsk a = {.F = F, .fn = fn, .param = param, .scope = &m->body};
    read_block(&a, &m->body, 0);
    for (uint32_t k = 0; k < m->function_count && !a.mixed; k++) {
        const DlFunction *g = m->functions[k];
        if (m->source && !dl_ir_span_mentions(m->source, g->span, fn->name)) continue;
        a.scope = &g->body;
        read_block(&a, &g->body, 0);
    }
    return a.mixed ? NULL : a.given;
}
