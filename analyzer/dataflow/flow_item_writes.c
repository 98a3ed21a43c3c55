/* A project function that writes the items of a container it is given (`batch[k] =
 * v.to(device)` for each key: soft-prompt-tuning's `to_device`) changes the caller's own dict:
 * after the call, what the caller's name holds is no longer what it was, whatever the function
 * returns (its result may be dropped). Read from the function's model: item assignments to the
 * parameter, or the parameter handed on to a function of the same file that writes its items. */
#include "dataflow/flow_internal.h"

#define ITEM_WRITE_DEPTH 3 /* helpers followed, each handing the container on */

static bool writes_items_of(const DlProject *project, const DlFunctionInfo *fi, int param,
                            int depth);

/* `name[...] = ...` (also one target of several), `name.update(...)`, `name.setdefault(...)`. */
static bool writes_into(const DlStmt *s, const char *name) {
    for (uint32_t t = 0; s->kind == DL_ST_ASSIGN && t < s->target_count; t++) {
        const DlExpr *target = s->targets[t];
        if (target->kind == DL_EX_SUBSCRIPT && target->object &&
            target->object->kind == DL_EX_NAME && flow_streq(target->object->name, name))
            return true;
    }
    const DlExpr *v = s->kind == DL_ST_EXPR ? s->value : NULL;
    return v && v->kind == DL_EX_CALL && v->object && v->object->kind == DL_EX_ATTR &&
           v->object->object && v->object->object->kind == DL_EX_NAME &&
           flow_streq(v->object->object->name, name) &&
           (flow_streq(v->object->name, "update") || flow_streq(v->object->name, "setdefault"));
}

/* `to_device(batch, device)` (also as `batch = to_device(batch, device)`): `name` handed by
 * position to a function of `fi`'s file that writes the items of the parameter it reaches. */
static bool hands_on_to_a_writer(const DlProject *project, const DlFunctionInfo *fi,
                                 const DlExpr *call, const char *name, int depth) {
    if (!call || call->kind != DL_EX_CALL || !call->object || call->object->kind != DL_EX_NAME)
        return false;
    const DlFileFacts *file = dl_project_file(project, fi->module);
    const DlFunctionInfo *callee =
        file ? dl_project_find_function(project, file, call->object->name) : NULL;
    if (!callee || callee->fn->owner || callee == fi) return false;
    for (uint32_t i = 0; i < call->arg_count && i < callee->fn->param_count; i++) {
        if (call->args[i].keyword) return false;
        const DlExpr *a = call->args[i].value;
        if (a->kind == DL_EX_NAME && flow_streq(a->name, name))
            return writes_items_of(project, callee, (int)i, depth + 1);
    }
    return false;
}

static bool block_writes_items(const DlProject *project, const DlFunctionInfo *fi,
                               const DlBlock *b, const char *name, int depth, int nesting) {
    if (nesting > 16) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (writes_into(s, name)) return true;
        if ((s->kind == DL_ST_ASSIGN || s->kind == DL_ST_EXPR) &&
            hands_on_to_a_writer(project, fi, s->value, name, depth))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_writes_items(project, fi, inner, name, depth, nesting + 1)) return true;
    }
    return false;
}

static bool writes_items_of(const DlProject *project, const DlFunctionInfo *fi, int param,
                            int depth) {
    if (depth > ITEM_WRITE_DEPTH || param < 0 || (uint32_t)param >= fi->fn->param_count)
        return false;
    const DlParam *p = &fi->fn->params[param];
    if (p->star) return false;
    return block_writes_items(project, fi, &fi->fn->body, p->name, depth, 0);
}

/* A container whose items the caller reads: a list, tuple or dict, or a batch of a loader. */
static bool may_be_a_container(const DlValue *v) {
    return v->kind == DL_KIND_SEQ || v->origin == DL_ORIGIN_BATCH;
}

void flow_forget_items_written(Flow *F, const DlFunctionInfo *fi, const DlExpr *call,
                               const DlValue *const *argv, bool skip_self) {
    if (!fi->fn || fi->module->language != DL_LANG_PYTHON) return;
    uint32_t first = skip_self ? 1 : 0;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        if (call->args[i].keyword) return; /* by position only, as the helpers are called */
        const DlExpr *a = call->args[i].value;
        if (a->kind != DL_EX_NAME || !may_be_a_container(argv[i])) continue;
        if (!writes_items_of(F->env->project, fi, (int)(first + i), 0)) continue;
        const char *key = flow_key_of(F, a);
        if (key) flow_state_set(F->st, key, flow_unknown());
    }
}
