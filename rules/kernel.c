/* Shared by DL120 and DL121: small walks over C++ function bodies. */
#include "rules/kernel.h"

#include <string.h>

/* ---------------------------------------------------------------- walking */

typedef bool (*StmtVisitor)(const DlStmt *s, void *data); /* true: stop */

static bool walk_block(const DlBlock *b, StmtVisitor visit, void *data, int depth);

static bool walk_stmt(const DlStmt *s, StmtVisitor visit, void *data, int depth) {
    if (!s || depth > 200) return false;
    if (visit(s, data)) return true;
    const DlBlock *inner;
    for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
        if (walk_block(inner, visit, data, depth + 1)) return true;
    return false;
}

static bool walk_block(const DlBlock *b, StmtVisitor visit, void *data, int depth) {
    for (uint32_t i = 0; i < b->count; i++)
        if (walk_stmt(b->items[i], visit, data, depth)) return true;
    return false;
}

typedef bool (*ExprVisitor)(const DlExpr *e, void *data);

static bool walk_expr(const DlExpr *e, ExprVisitor visit, void *data, int depth) {
    if (!e || depth > 200) return false;
    if (visit(e, data)) return true;
    if (walk_expr(e->object, visit, data, depth + 1)) return true;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (walk_expr(e->items[i], visit, data, depth + 1)) return true;
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (walk_expr(e->args[i].value, visit, data, depth + 1)) return true;
    return false;
}

static bool is_name(const DlExpr *e, const char *name) {
    return e && e->kind == DL_EX_NAME && e->name && strcmp(e->name, name) == 0;
}

/* ---------------------------------------------------------------- declarations */

typedef struct {
    const char *name;
    const DlStmt *found;
} DeclSearch;

static bool find_decl(const DlStmt *s, void *data) {
    DeclSearch *d = data;
    if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && is_name(s->targets[0], d->name) &&
        dl_expr_ctype(s->targets[0]) && !d->found) {
        d->found = s;
        return true;
    }
    return false;
}

const DlStmt *dl_kernel_local_decl(const DlFunction *fn, const char *name) {
    if (!fn || !name) return NULL;
    DeclSearch d = {name, NULL};
    walk_block(&fn->body, find_decl, &d, 0);
    return d.found;
}

int dl_kernel_param_index(const DlFunction *fn, const char *name) {
    if (!fn || !name) return -1;
    for (uint32_t i = 0; i < fn->param_count; i++)
        if (fn->params[i].name && strcmp(fn->params[i].name, name) == 0) return (int)i;
    return -1;
}

/* ---------------------------------------------------------------- guards */

/* A CUDA check of `name`, several joined with `and` included. */
static bool condition_checks(const DlExpr *c, const char *name, int depth) {
    if (!c || depth > 16) return false;
    if (c->kind == DL_EX_BOOLOP && c->name && strcmp(c->name, "and") == 0) {
        for (uint32_t i = 0; i < c->item_count; i++)
            if (condition_checks(c->items[i], name, depth + 1)) return true;
        return false;
    }
    return is_name(dl_ir_cuda_check_subject(c), name);
}

typedef struct {
    const char *name;
    uint32_t before;
    bool found;
} GuardSearch;

static bool find_guard(const DlStmt *s, void *data) {
    GuardSearch *g = data;
    if (s->kind == DL_ST_CHECK && s->span.start < g->before &&
        condition_checks(s->value, g->name, 0))
        g->found = true;
    return g->found;
}

bool dl_kernel_checked_before(const DlFunction *fn, const char *name, uint32_t before) {
    if (!fn || !name) return false;
    GuardSearch g = {name, before, false};
    walk_block(&fn->body, find_guard, &g, 0);
    return g.found;
}

/* ---------------------------------------------------------------- launches */

typedef struct {
    const DlFunction *fn;
    const char *tensor;
    DlKernelTensorRoot root;
    bool found;
} TensorSearch;

static bool names_tensor(const DlExpr *e, void *data) {
    TensorSearch *t = data;
    if (e->kind == DL_EX_NAME && e->name && strcmp(t->root(t->fn, e->name), t->tensor) == 0)
        t->found = true;
    return t->found;
}

typedef struct {
    TensorSearch search;
    uint32_t at;
    int before, after;
} LaunchCount;

static bool count_launch(const DlExpr *e, void *data) {
    LaunchCount *c = data;
    if (e->kind != DL_EX_CALL || !(e->flags & DL_EXF_KERNEL_LAUNCH) || e->span.start == c->at)
        return false;
    c->search.found = false;
    for (uint32_t i = 0; i < e->arg_count && !c->search.found; i++)
        walk_expr(e->args[i].value, names_tensor, &c->search, 0);
    if (c->search.found) *(e->span.start < c->at ? &c->before : &c->after) += 1;
    return false;
}

static bool count_launches_in(const DlStmt *s, void *data) {
    if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) return false;
    for (uint32_t i = 0; i < s->target_count; i++)
        walk_expr(s->targets[i], count_launch, data, 0);
    walk_expr(s->value, count_launch, data, 0);
    return false;
}

void dl_kernel_launches_passing(const DlFunction *fn, const char *tensor, DlKernelTensorRoot root,
                                uint32_t at, int *before, int *after) {
    LaunchCount c = {.search = {fn, tensor, root, false}, .at = at};
    if (fn && tensor) walk_block(&fn->body, count_launches_in, &c, 0);
    *before = c.before;
    *after = c.after;
}

/* ---------------------------------------------------------------- callers */

typedef struct {
    DlRuleContext *ctx;
    const DlFunction *callee, *caller;
    int param, depth;
    int calls;
    bool unchecked;
} CallerSearch;

static bool visit_call(const DlExpr *e, void *data) {
    CallerSearch *c = data;
    if (e->kind != DL_EX_CALL || (e->flags & DL_EXF_KERNEL_LAUNCH)) return false;
    if (!is_name(e->object, c->callee->name)) return false;
    int positional = c->param - (c->callee->owner ? 1 : 0);
    if (positional < 0 || (uint32_t)positional >= e->arg_count) return false;
    c->calls++;
    const DlExpr *arg = e->args[positional].value;
    if (dl_ir_moves_to_cuda(arg) /* the caller put it on the GPU */) return false;
    if (arg && arg->kind == DL_EX_NAME) {
        if (dl_kernel_checked_before(c->caller, arg->name, e->span.start)) return false;
        int p = dl_kernel_param_index(c->caller, arg->name);
        if (p >= 0 && c->caller != c->callee &&
            dl_kernel_callers_check(c->ctx, c->caller, p, c->depth - 1))
            return false;
    }
    c->unchecked = true;
    return true;
}

static bool visit_stmt_calls(const DlStmt *s, void *data) {
    CallerSearch *c = data;
    if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) return false;
    for (uint32_t i = 0; i < s->target_count; i++)
        if (walk_expr(s->targets[i], visit_call, data, 0)) return true;
    if (walk_expr(s->value, visit_call, data, 0)) return true;
    return c->unchecked;
}

bool dl_kernel_callers_check(DlRuleContext *ctx, const DlFunction *fn, int param, int depth) {
    if (!fn || param < 0 || depth <= 0) return false;
    const DlProject *p = dl_rule_project(ctx);
    CallerSearch c = {.ctx = ctx, .callee = fn, .param = param, .depth = depth};
    for (uint32_t f = 0; f < p->file_count && !c.unchecked; f++) {
        const DlModuleIR *m = p->files[f].module;
        if (!m || m->language != DL_LANG_CPP) continue;
        for (uint32_t i = 0; i < m->function_count && !c.unchecked; i++) {
            c.caller = m->functions[i];
            if (c.caller == fn) continue;
            walk_block(&c.caller->body, visit_stmt_calls, &c, 0);
        }
    }
    return c.calls > 0 && !c.unchecked;
}
