/* The parameters a function reads only as numbers of one element: `x1.mean()`, `x2.std()`,
 * `x.size(0)`, `x.shape`. What it makes of them are 0-dim tensors (or Python numbers), and a
 * 0-dim CPU tensor may meet a tensor on any device; so a module without state of its own whose
 * forward reads its inputs only so (incremental-domain-adaptation's KLDivergence, comparing
 * the means and deviations of two feature sets) may be handed one on the CPU and one on a GPU.
 *
 * Read from the function's own model: any other use of a parameter's name (an operand, an
 * argument, an assignment to it) counts as a full use. */
#include "dataflow/flow_internal.h"

typedef struct ReducedUse {
    const DlFunction *fn;
    uint64_t full_use; /* bit i: parameter i is used other than reduced */
} ReducedUse;

static int param_named(const DlFunction *fn, const DlExpr *e) {
    if (!e || e->kind != DL_EX_NAME || !e->name) return -1;
    int i = dl_ir_param_index(fn, e->name);
    return i >= 0 && i < DL_MAX_PARAM_BITS ? i : -1;
}

/* `p.mean()`, `p.std()`, `p.size(0)`: a number of one element read from `p`. */
static bool reduces_to_one_element(const DlExpr *e) {
    static const char *const reductions[] = {"mean", "std", "var",  "sum", "norm",
                                             "max",  "min", "prod", "item", NULL};
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR || !e->object->name)
        return false;
    if (strcmp(e->object->name, "size") == 0) return e->arg_count == 1;
    return e->arg_count == 0 && (dl_name_in_list(e->object->name, reductions) ||
                                 flow_is_count_method(e->object->name));
}

static void walk(ReducedUse *u, const DlExpr *e, int depth) {
    if (!e || depth > 64) return;
    if (reduces_to_one_element(e) && param_named(u->fn, e->object->object) >= 0) return;
    /* `p.shape`, `p.dtype`, `p.device`: what it is, not its values */
    if (e->kind == DL_EX_ATTR && e->name && param_named(u->fn, e->object) >= 0 &&
        (strcmp(e->name, "shape") == 0 || strcmp(e->name, "dtype") == 0 ||
         strcmp(e->name, "ndim") == 0))
        return;
    int p = param_named(u->fn, e);
    if (p >= 0) u->full_use |= UINT64_C(1) << p;
    walk(u, e->object, depth + 1);
    for (uint32_t i = 0; i < e->item_count; i++) walk(u, e->items[i], depth + 1);
    for (uint32_t i = 0; i < e->arg_count; i++) walk(u, e->args[i].value, depth + 1);
}

static void walk_block(ReducedUse *u, const DlBlock *b, int depth) {
    for (uint32_t i = 0; depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) {
            u->full_use = ~UINT64_C(0); /* a closure may read them any way */
            return;
        }
        walk(u, s->value, 0);
        for (uint32_t t = 0; t < s->target_count; t++) walk(u, s->targets[t], 0);
        for (uint32_t w = 0; s->kind == DL_ST_WITH && w < s->with_count; w++)
            walk(u, s->withs[w], 0);
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) walk_block(u, inner, depth + 1);
    }
}

uint64_t flow_params_reduced_to_scalars(const DlFunction *fn) {
    if (!fn) return 0;
    ReducedUse u = {.fn = fn};
    walk_block(&u, &fn->body, 0);
    uint64_t all = fn->param_count >= DL_MAX_PARAM_BITS ? ~UINT64_C(0)
                                                         : (UINT64_C(1) << fn->param_count) - 1;
    return all & ~u.full_use;
}
