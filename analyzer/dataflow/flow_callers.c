/* What a top-level function's parameter is handed by the calls of the function in its own file:
 * `def generate(model, n, device)` that the file calls only as `generate(Net(device), 3,
 * device)` (or with `net = Net(device)` bound before the call) runs on an instance of the
 * project's `Net`, whose forward may move its inputs itself (timegan-pytorch's
 * `TimeGAN.forward`). Unknown otherwise: a call that passes anything else, hands on `*args`, or
 * none at all.
 *
 * Also whether every call hands a device parameter the CPU, in a file no other file imports.
 *
 * Read from the file's own model: every function body and the top level, by name. */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <string.h>

#include "dataflow/flow_internal.h"
#include "core/cpu_literal.h"

typedef struct CallersAsk {
    Flow *F;
    const DlFunction *fn;
    const char *callee; /* the name its calls use: the function's, or its class's for __init__ */
    uint32_t first;     /* the parameters calls do not pass (1: `self`, for a construction) */
    uint32_t param;
    const DlBlock *scope;     /* the body the calls being read are in */
    const DlClassInfo *given; /* agreed by every call so far */
    bool mixed;               /* a call passes something else */
    bool (*note)(const DlExpr *e, void *ask); /* what a call is asked (NULL: note_call) */
    uint32_t calls;                            /* calls seen (by note_one_batch_call) */
} CallersAsk;

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
        !e->object->name || strcmp(e->object->name, a->callee) != 0)
        return false;
    const DlExpr *arg = dl_ir_argument_for(e, a->fn, a->param, a->first);
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
        if (src && !dl_ir_span_mentions(src, s->span, a->callee)) continue;
        bool (*note)(const DlExpr *, void *) = a->note ? a->note : note_call;
        if (dl_ir_expr_any_with(s->value, note, a)) return;
        for (uint32_t w = 0; s->kind == DL_ST_WITH && w < s->with_count; w++)
            if (dl_ir_expr_any_with(s->withs[w], note, a)) return;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            read_block(a, inner, depth + 1);
    }
}

/* The class every call in the file (at the top level and in its functions) hands the parameter
 * asked about, or NULL: none, or one hands something else. */
static const DlClassInfo *read_file_calls(CallersAsk *a) {
    const DlModuleIR *m = a->F->env->file->module;
    a->scope = &m->body;
    read_block(a, &m->body, 0);
    for (uint32_t k = 0; k < m->function_count && !a->mixed; k++) {
        const DlFunction *g = m->functions[k];
        if (m->source && !dl_ir_span_mentions(m->source, g->span, a->callee)) continue;
        a->scope = &g->body;
        read_block(a, &g->body, 0);
    }
    return a->mixed ? NULL : a->given;
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
    CallersAsk a = {.F = F, .fn = fn, .callee = fn->name, .param = param};
    return read_file_calls(&a);
}

/* flow_loader_given's walk: each call's argument for the parameter, a top-level name of the
 * file bound to a DataLoader (`test(test_loader)`), joined into `loader`. */
typedef struct LoaderAsk {
    Flow *F;
    const DlFunction *fn;
    uint32_t param;
    const DlValue *loader;
    uint32_t calls;
    bool other;
} LoaderAsk;

static bool note_loader_call(const DlExpr *e, void *ctx) {
    LoaderAsk *a = ctx;
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_NAME ||
        !e->object->name || strcmp(e->object->name, a->fn->name) != 0)
        return false;
    a->calls++;
    const DlExpr *arg = dl_ir_argument_for(e, a->fn, a->param, 0);
    const Binding *b = arg && arg->kind == DL_EX_NAME && a->F->env->globals
                           ? flow_state_find(a->F->env->globals, arg->name)
                           : NULL;
    if (!b || !b->value || b->value->kind != DL_KIND_LOADER) {
        a->other = true;
        return true;
    }
    a->loader = a->loader ? dl_value_join(a->F->arena, a->loader, b->value) : b->value;
    return false;
}

const DlValue *flow_loader_given(Flow *F, const DlFunction *fn, uint32_t param) {
    if (!fn || fn->owner || fn->parent || param >= fn->param_count) return NULL;
    const DlParam *p = &fn->params[param];
    if (p->star || p->default_value || !strstr(p->name, "loader")) return NULL;
    const DlModuleIR *m = F->env->file->module;
    LoaderAsk a = {.F = F, .fn = fn, .param = param};
    for (uint32_t i = 0; i < m->body.count && !a.other; i++) {
        const DlStmt *s = m->body.items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (m->source && !dl_ir_span_mentions(m->source, s->span, fn->name)) continue;
        dl_ir_expr_any_with(s->value, note_loader_call, &a);
    }
    /* only called at the top level, by name: a mention elsewhere may hand it anything */
    for (uint32_t k = 0; k < m->function_count && !a.other; k++)
        if (m->source && m->functions[k] != fn &&
            flow_span_names_word(m->source, m->functions[k]->span, fn->name, false))
            a.other = true;
    return !a.other && a.calls && a.loader && a.loader->kind == DL_KIND_LOADER ? a.loader : NULL;
}

/* flow_every_call_hands_one_batch's question of each call: a call of the function by name, or
 * of the method on any object (`model.train_model(train_loader, test_loader, ...)`, yts798's
 * knowledge-tracing models), its argument a name bound in the calling body to a loader of the
 * whole dataset (`DataLoader(test_set, batch_size=test_size)` of a `random_split`). */
static bool note_one_batch_call(const DlExpr *e, void *ctx) {
    CallersAsk *a = ctx;
    const DlExpr *callee = e->kind == DL_EX_CALL ? e->object : NULL;
    bool by_name = callee && !a->fn->owner && callee->kind == DL_EX_NAME;
    bool by_method = callee && a->fn->owner && callee->kind == DL_EX_ATTR;
    if ((!by_name && !by_method) || !callee->name || strcmp(callee->name, a->callee) != 0)
        return false;
    a->calls++;
    const DlExpr *arg = dl_ir_argument_for(e, a->fn, a->param, a->first);
    const DlExpr *bound = arg && arg->kind == DL_EX_NAME && arg->name
                              ? dl_ir_last_assignment(a->scope, arg->name, e->span.start)
                              : NULL;
    if (!flow_builds_a_one_batch_loader(a->F, bound, a->scope)) a->mixed = true;
    return a->mixed;
}

bool flow_every_call_hands_one_batch(Flow *F, const DlFunction *fn, uint32_t param) {
    if (!fn || fn->parent || param >= fn->param_count) return false;
    const DlParam *p = &fn->params[param];
    if (p->star || p->keyword_only || p->default_value) return false;
    CallersAsk a = {.F = F, .fn = fn, .callee = fn->name, .first = fn->owner ? 1 : 0,
                    .param = param, .note = note_one_batch_call};
    read_file_calls(&a);
    return a.calls && !a.mixed;
}

const DlClassInfo *flow_module_class_built_into(Flow *F, const DlClassInfo *owner,
                                                const char *attr) {
    const DlFunction *init =
        owner && owner->cls ? dl_ir_method_named(owner->cls, "__init__") : NULL;
    int param = init ? flow_init_parameter_stored_as(owner, attr) : -1;
    if (param < 1 || init->params[param].star) return NULL;
    CallersAsk a = {.F = F, .fn = init, .callee = owner->cls->name, .first = 1,
                    .param = (uint32_t)param};
    return read_file_calls(&a);
}

/* Whether every call of a device parameter's function hands it the CPU. */
typedef struct CpuAsk {
    Flow *F;             /* the flow asking: it qualifies the names of its own file's code */
    const DlModuleIR *m; /* the file whose calls are read */
    const DlFunction *fn;
    uint32_t param;
    const char *callee; /* the name calls use: the function's, or its class's for __init__ */
    bool skip_self;
    /* in another file, the names its module goes by there (`training`, `tr` of `import
     * training as tr`): `training.train_model(...)` is a call too; NULL in the home file */
    const char *const *module_aliases;
    bool default_is_the_cpu;
    const DlBlock *scope;
    const DlFunction *scope_fn; /* the function whose body `scope` is; NULL: the top level */
    int depth;                  /* callers' own parameters followed so far */
    uint32_t calls;        /* calls of the callee seen */
    uint32_t through_super; /* ... of them `super().__init__(...)`, which does not name it */
    bool other;            /* a call passes something else (or may: a splat) */
    uint32_t first_call_end; /* the end of the first call seen, 0 before any */
} CpuAsk;

static bool every_call_gives_the_cpu(Flow *F, const DlModuleIR *m, const DlFunction *fn,
                                     uint32_t param, int depth);

/* `"cpu"` or `torch.device("cpu")`, written so: what driver/sharing_callers.c finds in a
 * parameter list's text. */
static bool cpu_literal(const DlExpr *e) {
    if (e && e->kind == DL_EX_CALL && e->arg_count == 1 && !e->args[0].keyword && e->object &&
        e->object->kind == DL_EX_ATTR && flow_streq(e->object->name, "device") &&
        e->object->object && e->object->object->kind == DL_EX_NAME &&
        flow_streq(e->object->object->name, "torch"))
        e = e->args[0].value;
    return e && e->kind == DL_EX_STRING && e->name && !e->item_count &&
           dl_names_the_cpu_literally(e->name, strlen(e->name));
}

/* `device` of `def predict_labels(model, x, device="cpu")` handed on in its body, unbound there,
 * by a function every call of which hands it the CPU in turn (ECG_Classification's
 * `_predict(..., device=device)`). */
static bool handed_on_from_the_cpu(const CpuAsk *a, const char *name) {
    const DlFunction *g = a->scope_fn;
    if (!g || a->depth >= 3) return false;
    for (uint32_t j = 0; j < g->param_count; j++)
        if (flow_streq(g->params[j].name, name))
            return cpu_literal(g->params[j].default_value) &&
                   every_call_gives_the_cpu(a->F, a->m, g, j, a->depth + 1);
    return false;
}

/* The value `name` holds at `before` when the last statement of `scope` itself (not one nested
 * in an `if`, a loop or a `try`) to bind it is a plain assignment and nothing nested binds it
 * after that: `device = 'cpu'` pinning the CPU after the usual `if torch.cuda.is_available():`
 * switch (CAT-Transformer's notebooks). NULL when not so known. */
static const DlExpr *value_at_by_straight_line(const DlBlock *scope, const char *name,
                                               uint32_t before) {
    const DlExpr *value = NULL;
    for (uint32_t i = 0; i < scope->count; i++) {
        const DlStmt *s = scope->items[i];
        if (s->span.start >= before) break;
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME &&
            strcmp(s->targets[0]->name, name) == 0) {
            value = s->value;
            continue;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (flow_bindings_of(inner, name, 1)) value = NULL;
        if (s->kind == DL_ST_ASSIGN || s->kind == DL_ST_AUGASSIGN || s->kind == DL_ST_FOR ||
            s->kind == DL_ST_WITH)
            for (uint32_t t = 0; t < s->target_count; t++)
                if (dl_ir_target_names(s->targets[t], name)) value = NULL;
    }
    return value;
}

/* What `name`, bound `bound` times in `scope`, holds at `before`: its one binding, or the last
 * of several on the scope's straight line (value_at_by_straight_line); NULL when not known. */
static const DlExpr *value_bound_in(const DlBlock *scope, const char *name, uint32_t bound,
                                    uint32_t before) {
    return bound == 1 ? dl_ir_last_assignment(scope, name, before)
                      : value_at_by_straight_line(scope, name, before);
}

/* `global name` somewhere in `m`: a function may rebind the module's name. */
static bool global_declared(const DlModuleIR *m, const char *name) {
    return !m->source || dl_text_declares_global(m->source->text, name);
}

static bool names_the_cpu(const CpuAsk *a, const DlExpr *e, uint32_t before);

/* A module-level name a top-level function reads (`train(loader, model, device_in_use)` in a
 * notebook's `def objective(trial):`): what the module binds it to, once, or last on its own
 * straight line (after the usual switch), as the function runs after the module's cells. */
static bool names_the_cpu_globally(const CpuAsk *a, const char *name) {
    const DlBlock *module = &a->m->body;
    const DlExpr *value =
        value_bound_in(module, name, flow_bindings_of(module, name, 0), UINT32_MAX);
    if (!value || value->kind == DL_EX_NAME) return false; /* not followed further */
    CpuAsk at_top = *a;
    at_top.scope = module;
    at_top.scope_fn = NULL;
    return names_the_cpu(&at_top, value, UINT32_MAX);
}

/* `"cpu"`, `torch.device("cpu")`, or a name the scope binds once, to one of them (not `device`
 * bound on both arms of an `if`: Robot_Learning2's `use_cuda` switch; but the last of several,
 * when it is bound by the scope's own straight line after them), or a parameter of the
 * scope's function that every call of it hands the CPU. */
static bool names_the_cpu(const CpuAsk *a, const DlExpr *e, uint32_t before) {
    if (e && e->kind == DL_EX_NAME && e->name) {
        uint32_t bound = flow_bindings_of(a->scope, e->name, 0);
        if (!bound && handed_on_from_the_cpu(a, e->name)) return true;
        if (!bound && a->scope_fn && !a->scope_fn->parent && !a->scope_fn->owner &&
            !global_declared(a->m, e->name))
            return names_the_cpu_globally(a, e->name);
        e = value_bound_in(a->scope, e->name, bound, before);
    }
    /* `config['device']` of the caller's `config = {'device': 'cpu', ...}` (finetune-clip's
     * `train_one_epoch(model, loader, optimizer, config['device'])`) */
    const DlExpr *entry = flow_entry_of_a_local_dict(a->F, a->m->source, a->scope, e, before);
    if (entry) e = entry;
    if (a->m != a->F->env->file->module) return cpu_literal(e);
    /* `config.DEVICE` of a config module that binds it to the CPU (`DEVICE =
     * torch.device("cpu")`): another file's module-level value */
    const char *global = e && e->kind == DL_EX_ATTR ? flow_qualify(a->F, e) : NULL;
    const DlValue *v = global ? flow_imported_global(a->F, global) : NULL;
    if (v && v->kind == DL_KIND_DEVICE && v->dev == DL_DEV_CPU) return true;
    const DlValue *d = e ? flow_device_written_out(a->F, e) : NULL;
    return d && d->dev == DL_DEV_CPU;
}

/* `e` is a call of the function asked about, by its name (`evaluate(...)`, `Sampler(...)`), or
 * in another file also as an attribute (`training.train_model(...)`). */
static bool calls_the_callee(const CpuAsk *a, const DlExpr *e) {
    if (e->kind != DL_EX_CALL || !e->object || !e->object->name ||
        strcmp(e->object->name, a->callee) != 0)
        return false;
    if (e->object->kind == DL_EX_NAME) return true;
    const DlExpr *recv = e->object->kind == DL_EX_ATTR ? e->object->object : NULL;
    return recv && recv->kind == DL_EX_NAME && a->module_aliases &&
           dl_name_in_list(recv->name, a->module_aliases);
}

/* `f(*args)`, `f(**kwargs)`: a splat may pass any parameter. */
static bool splats_arguments(const DlExpr *e) {
    for (uint32_t i = 0; i < e->arg_count; i++)
        if ((e->args[i].keyword && e->args[i].keyword[0] == '*') ||
            (e->args[i].value && e->args[i].value->kind == DL_EX_STARRED))
            return true;
    return false;
}

/* Whether call `e` of the function hands its device parameter something other than the CPU
 * (`a->other`); the call does not pass the first `first` parameters (argument_for's). */
static void note_device_argument(CpuAsk *a, const DlExpr *e, uint32_t first) {
    const DlExpr *arg = dl_ir_argument_for(e, a->fn, a->param, first);
    if (!arg && splats_arguments(e)) a->other = true; /* none, or a splat before it may be */
    if (!a->other && arg && !names_the_cpu(a, arg, e->span.start)) a->other = true;
    if (!a->other && !arg && !a->default_is_the_cpu) a->other = true;
}

/* `super().__init__(name)` or `Base.__init__(self, name)` in a subclass's __init__: a
 * construction of the base (`a->callee`) through it. */
static bool note_base_init_call(const DlExpr *e, void *ctx) {
    CpuAsk *a = ctx;
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR ||
        !flow_streq(e->object->name, "__init__") || !e->object->object)
        return false;
    const DlExpr *of = e->object->object;
    bool by_name = of->kind == DL_EX_NAME && flow_streq(of->name, a->callee);
    bool by_super = of->kind == DL_EX_CALL && of->object && of->object->kind == DL_EX_NAME &&
                    flow_streq(of->object->name, "super");
    if (!by_name && !by_super) return false;
    a->calls++;
    a->through_super += by_super;
    note_device_argument(a, e, by_name ? 0 : 1);
    return a->other;
}

/* The subclasses of the file whose base is the class constructed by `a->callee` (`class
 * Env(Base):`, deep_neuroevolution's environment managers): each must define __init__ and
 * construct its base there once, as note_base_init_call reads; how many there are (each
 * class statement names the base once more). */
static uint32_t read_subclass_inits(CpuAsk *a, const DlModuleIR *m) {
    uint32_t words = 0;
    for (uint32_t k = 0; k < m->class_count && !a->other; k++) {
        const DlClass *c = m->classes[k];
        bool sub = false;
        for (uint32_t b = 0; b < c->base_count; b++)
            sub |= c->bases[b]->kind == DL_EX_NAME && flow_streq(c->bases[b]->name, a->callee);
        if (!sub) continue;
        const DlFunction *init = dl_ir_method_named(c, "__init__");
        uint32_t before = a->calls;
        if (init) {
            a->scope = &init->body;
            a->scope_fn = init;
            for (uint32_t i = 0; i < init->body.count && !a->other; i++)
                if (dl_ir_expr_any_with(init->body.items[i]->value, note_base_init_call, a)) break;
        }
        if (!init || a->calls != before + 1) a->other = true; /* none, or more than one */
        words++; /* the class statement's */
    }
    return words;
}

static bool note_device_call(const DlExpr *e, void *ctx) {
    CpuAsk *a = ctx;
    if (!calls_the_callee(a, e)) return false;
    a->calls++;
    if (!a->first_call_end || e->span.end < a->first_call_end) a->first_call_end = e->span.end;
    note_device_argument(a, e, a->skip_self ? 1 : 0);
    return a->other;
}

/* Hands every call in the statements of `b` (nested blocks too, not nested defs: those are read
 * as functions) to `note`, until one settles the question (`a->other`). A statement whose text
 * does not name the callee calls it nowhere. */
static void read_calls(CpuAsk *a, const DlBlock *b, bool (*note)(const DlExpr *, void *),
                       int depth) {
    const DlSource *src = a->m->source;
    for (uint32_t i = 0; !a->other && depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (src && !dl_ir_span_mentions(src, s->span, a->callee)) continue;
        for (uint32_t t = 0; t < s->target_count; t++)
            if (dl_ir_expr_any_with(s->targets[t], note, a)) return;
        if (dl_ir_expr_any_with(s->value, note, a)) return;
        for (uint32_t w = 0; s->kind == DL_ST_WITH && w < s->with_count; w++)
            if (dl_ir_expr_any_with(s->withs[w], note, a)) return;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            read_calls(a, inner, note, depth + 1);
    }
}

/* Every call at the top level of `a->m` and in its functions, handed to `note`. */
static void read_file_device_calls(CpuAsk *a, bool (*note)(const DlExpr *, void *)) {
    const DlModuleIR *m = a->m;
    a->scope = &m->body;
    a->scope_fn = NULL;
    read_calls(a, &m->body, note, 0);
    for (uint32_t k = 0; k < m->function_count && !a->other; k++) {
        const DlFunction *g = m->functions[k];
        if (m->source && !dl_ir_span_mentions(m->source, g->span, a->callee)) continue;
        a->scope = &g->body;
        a->scope_fn = g;
        read_calls(a, &g->body, note, 0);
    }
}

/* How often `word` stands in the code as a whole identifier: not in a comment or a string (a
 * docstring that names the function), nor, unless `attributes`, as an attribute (`net.train()`
 * is the module's method, not the file's `def train`). */
static uint32_t words_in(const DlSource *src, const char *word, bool attributes) {
    size_t n = strlen(word);
    uint32_t count = 0;
    const char *p = src->text, *end = src->text + src->len;
    while (p < end) {
        if (*p == '#') { /* to the end of the line */
            while (p < end && *p != '\n') p++;
            continue;
        }
        if (*p == '"' || *p == '\'') { /* a string, triple-quoted or not */
            char q = *p;
            bool triple = p + 2 < end && p[1] == q && p[2] == q;
            p += triple ? 3 : 1;
            while (p < end) {
                if (*p == '\\') {
                    p += 2;
                    continue;
                }
                if (!triple && (*p == q || *p == '\n')) {
                    p++;
                    break;
                }
                if (triple && p + 2 < end && p[0] == q && p[1] == q && p[2] == q) {
                    p += 3;
                    break;
                }
                p++;
            }
            continue;
        }
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *start = p;
            while (p < end && (isalnum((unsigned char)*p) || *p == '_')) p++;
            const char *before = start;
            while (before > src->text && (before[-1] == ' ' || before[-1] == '\t'))
                before--;
            bool attribute = before > src->text && before[-1] == '.';
            /* (nor as the class named in `super(Runner, self)`: no call of it) */
            bool super_argument = before - src->text >= 6 && memcmp(before - 6, "super(", 6) == 0;
            count += (attributes || !attribute) && !super_argument && (size_t)(p - start) == n &&
                     memcmp(start, word, n) == 0;
            continue;
        }
        p++;
    }
    return count;
}

/* How many of the dotted parts of `module` are `name` (`from predict import predict`). */
static int parts_named(const char *module, const char *name) {
    size_t n = strlen(name);
    int count = 0;
    for (const char *p = module; p && *p;) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        count += len == n && memcmp(p, name, n) == 0;
        p = dot ? dot + 1 : NULL;
    }
    return count;
}

/* In the code of `src` (not comments or strings), the mentions `alias.word` of `word` through
 * one of `aliases`, how many; -1 when one is no call (`fn = training.train_model`). */
static int module_attribute_calls_in(const DlSource *src, const char *word,
                                     const char *const *aliases) {
    size_t n = strlen(word);
    int count = 0;
    const char *text = src->text, *end = text + src->len;
    for (const char *p = text; (p = memmem(p, (size_t)(end - p), word, n)) != NULL; p += n) {
        if ((p + n < end && dl_source_name_byte(p[n])) || p == text || p[-1] != '.') continue;
        const char *line = dl_source_line_start_of(text, p);
        if (memchr(line, '#', (size_t)(p - line)) || memchr(line, '"', (size_t)(p - line)) ||
            memchr(line, '\'', (size_t)(p - line)))
            continue; /* a comment or (roughly) a string: words_in skips those too */
        const char *r = p - 1;
        while (r > text && dl_source_name_byte(r[-1])) r--;
        char recv[64];
        size_t len = (size_t)(p - 1 - r);
        if (!len || len >= sizeof recv) continue;
        memcpy(recv, r, len);
        recv[len] = '\0';
        if (!dl_name_in_list(recv, aliases)) continue;
        const char *after = p + n;
        while (after < end && (*after == ' ' || *after == '\t')) after++;
        if (after >= end || *after != '(') return -1;
        count++;
    }
    return count;
}

/* The names file `m` may call the module `home` by: its last part (`training`), and what an
 * import binds to it (`import training as tr`, `from src import training`); NULL-terminated, in
 * `out` (at most `cap` - 1). */
static void module_aliases_in(const DlModuleIR *m, const DlModuleIR *home, const char **out,
                              size_t cap) {
    const char *full = home->module_name ? home->module_name : "";
    const char *last = strrchr(full, '.');
    last = last ? last + 1 : full;
    size_t n = 0;
    out[n++] = last;
    for (uint32_t i = 0; i < m->body.count && n + 1 < cap; i++) {
        const DlStmt *s = m->body.items[i];
        for (uint32_t k = 0; s->kind == DL_ST_IMPORT && k < s->import_count && n + 1 < cap; k++) {
            const DlImport *imp = &s->imports[k];
            const char *what = imp->name ? imp->name : imp->module;
            const char *what_last = what ? strrchr(what, '.') : NULL;
            what_last = what_last ? what_last + 1 : what;
            if (imp->alias && what_last && strcmp(what_last, last) == 0 &&
                strcmp(imp->alias, last) != 0)
                out[n++] = imp->alias;
        }
    }
    out[n] = NULL;
}

/* The words `name` in the imports of `b` and the blocks in it (`from training import
 * train_model`, `from predict import predict`): how many; -1 when one binds it under another
 * name, or binds a module of that name, whose calls the words do not show. */
static int imports_of(const DlBlock *b, const char *name, int depth) {
    int count = 0;
    for (uint32_t i = 0; depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_IMPORT && s->import_count) {
            /* one `from` clause per statement, whose module each of its names repeats */
            if (s->imports[0].name && s->imports[0].module)
                count += parts_named(s->imports[0].module, name);
            for (uint32_t k = 0; k < s->import_count; k++) {
                const DlImport *imp = &s->imports[k];
                if (!imp->name) { /* `import a.b as c`: a module */
                    if ((imp->module && parts_named(imp->module, name)) ||
                        (imp->alias && strcmp(imp->alias, name) == 0))
                        return -1;
                    continue;
                }
                if (strcmp(imp->name, name) == 0) {
                    if (imp->alias && strcmp(imp->alias, name) != 0) return -1;
                    count++;
                } else if (imp->alias && strcmp(imp->alias, name) == 0) {
                    return -1;
                }
            }
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) {
            int more = imports_of(inner, name, depth + 1);
            if (more < 0) return -1;
            count += more;
        }
    }
    return count;
}

/* The calls in the project's other files (built with it: driver/sharing_callers.c shares every
 * file that mentions the function's name), added to `a->calls`; false when one may hand the
 * parameter something other than the CPU, or the name stands there other than in a call or an
 * import (`pool.map(evaluate, ...)`, an alias). */
static bool other_files_give_the_cpu(CpuAsk *a) {
    const DlProject *p = a->F->env->project;
    if (!p) return false;
    for (uint32_t i = 0; i < p->file_count; i++) {
        const DlModuleIR *m = p->files[i].module;
        if (!m || m == a->m || m->language != DL_LANG_PYTHON || !m->source ||
            !dl_source_mentions(m->source, a->callee))
            continue;
        /* read whatever the words say: an edit that turns `trainer.train(x)` into a call of
         * the function changes no file's mentions, and the reads noted are what tells a
         * cached result to go */
        dl_project_note_file_read(p, &p->files[i]);
        /* by name (an import, a call), and as an attribute of the home module; an attribute
         * of anything else (`mars.train(...)`, `args.train`) is another's */
        uint32_t words = words_in(m->source, a->callee, false);
        const char *aliases[8];
        module_aliases_in(m, a->m, aliases, 8);
        int module_calls = module_attribute_calls_in(m->source, a->callee, aliases);
        if (module_calls < 0) return false;
        if (!words && !module_calls) continue;
        CpuAsk b = *a;
        b.m = m;
        b.module_aliases = aliases;
        b.calls = b.through_super = 0;
        read_file_device_calls(&b, note_device_call);
        int imports = b.other ? -1 : imports_of(&m->body, a->callee, 0);
        for (uint32_t k = 0; imports >= 0 && k < m->function_count; k++) {
            int more = imports_of(&m->functions[k]->body, a->callee, 0);
            imports = more < 0 ? -1 : imports + more;
        }
        if (imports < 0 || words + (uint32_t)module_calls != b.calls + (uint32_t)imports)
            return false;
        a->calls += b.calls;
    }
    /* a build without some shared files (a partial one) may lack a caller */
    dl_project_note_search_missed(p);
    return true;
}

/* Whether `fn` is defined at the start of a line: what driver/sharing_callers.c reads. */
static bool defined_unindented(const DlModuleIR *m, const DlFunction *fn) {
    uint32_t at = fn->span.start;
    return m->source && at <= m->source->len && (at == 0 || m->source->text[at - 1] == '\n');
}

/* How many top-level functions of `m` are named as `fn` is (a notebook that defines `train`
 * again in a later cell), each with `fn`'s parameter `param` at the same place: the calls read
 * by name may be of any of them. 0 when one names it otherwise. */
static uint32_t definitions_alike(const DlModuleIR *m, const DlFunction *fn, uint32_t param) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < m->function_count; k++) {
        const DlFunction *g = m->functions[k];
        if (g->owner || g->parent || !flow_streq(g->name, fn->name)) continue;
        if (param >= g->param_count || !flow_streq(g->params[param].name, fn->params[param].name) ||
            g->params[param].star || g->params[param].keyword_only != fn->params[param].keyword_only)
            return 0;
        n++;
    }
    return n;
}

/* The words `name` in the top-level imports of `m` that come before its first definition of
 * `fn`'s name (`from modelAdjustments import train` in a notebook that defines its own `train`
 * in a later cell): names that definition shadows, when no call comes before it. -1 when one
 * binds it otherwise (imports_of). */
static int imports_shadowed(const DlModuleIR *m, const DlFunction *fn, uint32_t first_call_end) {
    uint32_t first_def = UINT32_MAX;
    for (uint32_t k = 0; k < m->function_count; k++) {
        const DlFunction *g = m->functions[k];
        if (!g->owner && !g->parent && flow_streq(g->name, fn->name) && g->span.start < first_def)
            first_def = g->span.start;
    }
    if (first_call_end && first_call_end <= first_def) return 0;
    int count = 0;
    for (uint32_t i = 0; i < m->body.count && m->body.items[i]->span.end <= first_def; i++) {
        DlStmt *s = m->body.items[i];
        if (s->kind != DL_ST_IMPORT) continue;
        DlBlock one = {&s, 1};
        int n = imports_of(&one, fn->name, 0);
        if (n < 0) return -1;
        count += n;
    }
    return count;
}

static bool every_call_gives_the_cpu(Flow *F, const DlModuleIR *m, const DlFunction *fn,
                                     uint32_t param, int depth) {
    /* no other file imports it (Python's own rule: devlint's fallback by unique names may
     * still read it), or a notebook, which nothing imports */
    bool alone = m->imported_by_no_other_file || m->read_by_no_other_file ||
                 (m->source && dl_source_is_notebook(m->source));
    if (!fn || fn->parent || param >= fn->param_count || !m->source) return false;
    const DlParam *p = &fn->params[param];
    if (p->star) return false;
    CpuAsk a = {.F = F, .m = m, .fn = fn, .param = param, .callee = fn->name, .depth = depth};
    if (fn->owner) { /* `Sampler(10)` constructs with __init__'s parameters */
        if (!flow_streq(fn->name, "__init__") || param == 0) return false;
        a.callee = fn->owner->name;
        a.skip_self = true;
    }
    /* the calls of other files are read where the file's text says they are all built with
     * the project: a literal CPU default of a function defined unindented, or an __init__ */
    bool read_others = !alone && cpu_literal(p->default_value) &&
                       (fn->owner || defined_unindented(m, fn));
    if (!alone && !read_others) return false;
    a.scope = &m->body;
    a.default_is_the_cpu = p->default_value && names_the_cpu(&a, p->default_value, 0);
    uint32_t subclass_words = fn->owner ? read_subclass_inits(&a, m) : 0;
    uint32_t definitions = fn->owner ? 1 : definitions_alike(m, fn, param);
    if (!definitions) return false;
    read_file_device_calls(&a, note_device_call);
    /* a mention that is no call (`pool.map(evaluate, ...)`, `fn = evaluate`, a subclass) may
     * pass anything: the name's words in the text are its definitions, the calls read and
     * the imports the definitions shadow */
    int shadowed = a.other || fn->owner ? 0 : imports_shadowed(m, fn, a.first_call_end);
    if (a.other || shadowed < 0 ||
        words_in(m->source, a.callee, false) !=
            a.calls - a.through_super + definitions + subclass_words + (uint32_t)shadowed)
        return false;
    if (read_others && !other_files_give_the_cpu(&a)) return false;
    return a.calls > 0;
}

bool flow_every_call_gives_the_cpu(Flow *F, const DlFunction *fn, uint32_t param) {
    return every_call_gives_the_cpu(F, F->env->file->module, fn, param, 0);
}

/* every_call_leaves_the_default's walk: calls of `a->callee` counted (by its name, or with
 * `a->skip_self` as a method, `recv.<callee>(...)`), and whether one may pass the parameter
 * (`a->other`). */
static bool note_call_leaving_the_default(const DlExpr *e, void *ctx) {
    CpuAsk *a = ctx;
    bool call = a->skip_self ? e->kind == DL_EX_CALL && e->object &&
                                   e->object->kind == DL_EX_ATTR && e->object->name &&
                                   strcmp(e->object->name, a->callee) == 0
                             : calls_the_callee(a, e);
    if (!call) return false;
    a->calls++;
    if (splats_arguments(e) || dl_ir_argument_for(e, a->fn, a->param, a->skip_self ? 1 : 0))
        a->other = true;
    return a->other;
}

/* Whether every call in the file of `fn`, a top-level function or (`method`) a method of the
 * file's class called as `recv.<name>(...)`, leaves parameter `param` to its default, and the
 * name stands nowhere else: a mention that is no call (`Thread(target=train, args=(d, True))`,
 * `shift = self._shift`) may pass anything. A method is asked only where the file calls it. */
static bool every_call_leaves_the_default(Flow *F, const DlFunction *fn, uint32_t param,
                                          bool method) {
    const DlModuleIR *m = F->env->file->module;
    bool shape = method ? fn && fn->owner && param > 0 : fn && !fn->owner && !fn->parent;
    if (!shape || param >= fn->param_count || !m->source) return false;
    CpuAsk a = {.F = F, .m = m, .fn = fn, .param = param, .callee = fn->name, .skip_self = method};
    read_file_device_calls(&a, note_call_leaving_the_default);
    return !a.other && (a.calls || !method) && words_in(m->source, a.callee, method) == a.calls + 1;
}

bool flow_every_call_leaves_the_default(Flow *F, const DlFunction *fn, uint32_t param) {
    return every_call_leaves_the_default(F, fn, param, false);
}

bool flow_every_method_call_leaves_the_default(Flow *F, const DlFunction *fn, uint32_t param) {
    return every_call_leaves_the_default(F, fn, param, true);
}
