/* The dataflow engine (see flow.h). Statements are interpreted in order over an abstract
 * state (name -> value); branches are joined, loops iterate to a fixpoint (bounded), calls to
 * project functions read their summaries. Every PyTorch fact of RULES.md that decides a
 * device lives here or in torch_api.c: rules only read the facts this file hands them. */
#include "dataflow/flow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataflow/torch_api.h"

enum { DL_LOOP_ROUNDS = 3, DL_INLINE_DEPTH = 2 };

/* ---------------------------------------------------------------- state */

typedef struct Binding {
    const char *key;
    const DlValue *value; /* NULL: explicitly unbound (an import rebinds the name) */
} Binding;

struct DlFlowState {
    Binding *items;
    uint32_t count, cap;
    bool dead; /* no path reaches here (after return/raise/break/continue) */
};

static DlFlowState *state_new(void) {
    DlFlowState *s = calloc(1, sizeof *s);
    if (!s) abort();
    return s;
}

void dl_flow_state_free(DlFlowState *s) {
    if (!s) return;
    free(s->items);
    free(s);
}

static DlFlowState *state_copy(const DlFlowState *s) {
    DlFlowState *c = state_new();
    c->dead = s->dead;
    c->count = c->cap = s->count;
    if (s->count) {
        c->items = malloc(s->count * sizeof(Binding));
        if (!c->items) abort();
        memcpy(c->items, s->items, s->count * sizeof(Binding));
    }
    return c;
}

static Binding *state_find(const DlFlowState *s, const char *key) {
    for (uint32_t i = s->count; i-- > 0;)
        if (strcmp(s->items[i].key, key) == 0) return &s->items[i];
    return NULL;
}

static void state_set(DlFlowState *s, const char *key, const DlValue *v) {
    Binding *b = state_find(s, key);
    if (b) {
        b->value = v;
        return;
    }
    if (s->count == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 16;
        s->items = realloc(s->items, s->cap * sizeof(Binding));
        if (!s->items) abort();
    }
    s->items[s->count++] = (Binding){key, v};
}

/* into = join(into, other). Keys bound on one side only keep that side's value: reading an
 * unbound name would raise anyway. */
static void state_join(DlArena *arena, DlFlowState *into, const DlFlowState *other) {
    if (other->dead) return;
    if (into->dead) {
        DlFlowState *c = state_copy(other);
        free(into->items);
        *into = *c;
        free(c);
        return;
    }
    for (uint32_t i = 0; i < other->count; i++) {
        Binding *b = state_find(into, other->items[i].key);
        if (!b) {
            state_set(into, other->items[i].key, other->items[i].value);
        } else if (b->value != other->items[i].value) {
            if (strcmp(b->key, "<device-work>") == 0) {
                /* pending device work is a "may" fact: a loop body that queues work leaves it
                 * pending after the loop */
                if (!b->value) b->value = other->items[i].value;
                else if (other->items[i].value)
                    b->value = dl_value_join(arena, b->value, other->items[i].value);
            } else if (!b->value || !other->items[i].value) {
                b->value = NULL;
            } else {
                b->value = dl_value_join(arena, b->value, other->items[i].value);
            }
        }
    }
}

static bool state_equal(const DlFlowState *a, const DlFlowState *b) {
    if (a->dead != b->dead || a->count != b->count) return false;
    for (uint32_t i = 0; i < a->count; i++) {
        Binding *o = state_find(b, a->items[i].key);
        if (!o) return false;
        if (o->value == a->items[i].value) continue;
        if (!o->value || !a->items[i].value || !dl_value_equal(o->value, a->items[i].value))
            return false;
    }
    return true;
}

static void state_replace(DlFlowState *into, DlFlowState *from) {
    free(into->items);
    *into = *from;
    free(from);
}

const DlValue *dl_flow_lookup(const DlFlowState *s, const char *key) {
    Binding *b = state_find(s, key);
    return b ? b->value : NULL;
}

uint32_t dl_flow_self_attrs(const DlFlowState *s, DlArena *arena, DlAttr **out) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->count; i++)
        if (strncmp(s->items[i].key, "self.", 5) == 0 && !strchr(s->items[i].key + 5, '.') &&
            s->items[i].value)
            n++;
    *out = n ? dl_arena_alloc(arena, n * sizeof(DlAttr)) : NULL;
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->count; i++)
        if (strncmp(s->items[i].key, "self.", 5) == 0 && !strchr(s->items[i].key + 5, '.') &&
            s->items[i].value)
            (*out)[k++] = (DlAttr){dl_arena_strdup(arena, s->items[i].key + 5), s->items[i].value};
    return n;
}

/* ---------------------------------------------------------------- the interpreter */

typedef struct Flow {
    const DlFlowEnv *env;
    DlArena *arena;
    const DlSource *src;
    const DlFunction *fn;
    const DlClassInfo *owner;
    DlFlowState *st;
    const DlValue *ret;
    const DlValue *default_device; /* inside `with torch.device(d):` */
    const char *seq_loop_vars[16];  /* loop variables bound to elements of a tensor sequence */
    int seq_loop_count;
    int loop_depth;
    int inline_depth;
    bool in_init; /* the owner's __init__ (or a helper it calls) */
    bool is_forward;
    DlSpan stmt_span; /* statement being interpreted */
    DlPlace place;    /* loops and contexts around the current statement */
    const DlExpr *move_receiver; /* the receiver of the .to()/.cuda() being evaluated */
    const char *comp_names[16];  /* variables of the comprehensions being evaluated */
    int comp_count;
} Flow;

static const DlValue *eval(Flow *F, const DlExpr *e);
static void exec_block(Flow *F, const DlBlock *b);

static const char *text(Flow *F, DlSpan span) {
    return dl_ir_span_text(F->arena, F->src, span);
}

/* Short text of an expression for messages, cut at the first line and 60 characters. */
static const char *short_text(Flow *F, DlSpan span) {
    const char *t = text(F, span);
    size_t n = strcspn(t, "\r\n");
    if (n > 60) n = 57;
    if (n == strlen(t)) return t;
    char *s = dl_arena_alloc(F->arena, n + 4);
    memcpy(s, t, n);
    memcpy(s + n, "...", 4);
    return s;
}

static const DlValue *unknown(void) {
    return &dl_value_unknown;
}

static DlValue *mk(Flow *F, DlKind kind) {
    return dl_value_new(F->arena, kind);
}

static DlValue *mk_tensor(Flow *F, DlDeviceTag dev, const char *dev_name, DlOrigin origin,
                          DlSpan span) {
    DlValue *v = mk(F, DL_KIND_TENSOR);
    v->dev = dev;
    v->dev_name = dev_name;
    v->origin = origin;
    v->dev_span = span;
    v->dev_why = short_text(F, span);
    return v;
}

static bool is_tensor(const DlValue *v) {
    return v && v->kind == DL_KIND_TENSOR;
}

static bool is_module_like(const DlValue *v) {
    return v && (v->kind == DL_KIND_MODULE || v->kind == DL_KIND_LOSS);
}

/* A dotted key for names, attribute chains and literal subscripts ("cfg['device']"). */
static const char *key_of(Flow *F, const DlExpr *e) {
    if (!e) return NULL;
    if (e->kind == DL_EX_NAME || e->kind == DL_EX_ATTR) return dl_ir_dotted(F->arena, e);
    if (e->kind == DL_EX_SUBSCRIPT && e->item_count == 1 &&
        (e->items[0]->kind == DL_EX_STRING || e->items[0]->kind == DL_EX_NUMBER) &&
        e->items[0]->name) {
        const char *base = key_of(F, e->object);
        if (base) return dl_arena_printf(F->arena, "%s[%s]", base, e->items[0]->name);
    }
    return NULL;
}

static bool target_binds(const DlExpr *t, const char *name) {
    if (!t) return false;
    if (t->kind == DL_EX_NAME) return strcmp(t->name, name) == 0;
    if (t->kind == DL_EX_TUPLE || t->kind == DL_EX_LIST) {
        for (uint32_t i = 0; i < t->item_count; i++)
            if (target_binds(t->items[i], name)) return true;
    }
    if (t->kind == DL_EX_STARRED) return target_binds(t->object, name);
    return false;
}

static bool block_binds(const DlBlock *b, const char *name, int depth) {
    if (depth > 64) return true;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        for (uint32_t t = 0; t < s->target_count; t++)
            if (target_binds(s->targets[t], name)) return true;
        if (s->kind == DL_ST_DEF && strcmp(s->func->name, name) == 0) return true;
        if (s->kind == DL_ST_CLASS && strcmp(s->cls->name, name) == 0) return true;
        if (block_binds(&s->body, name, depth + 1) || block_binds(&s->orelse, name, depth + 1) ||
            block_binds(&s->finalbody, name, depth + 1))
            return true;
        for (uint32_t h = 0; h < s->handler_count; h++)
            if (block_binds(&s->handlers[h], name, depth + 1)) return true;
    }
    return false;
}

/* Does an enclosing function bind `name`? Then a nested function (a closure) reads that
 * local, whose value at call time is not known here, not the module-level one. */
static bool enclosing_binds(const DlFunction *fn, const char *name) {
    for (const DlFunction *p = fn ? fn->parent : NULL; p; p = p->parent) {
        for (uint32_t i = 0; i < p->param_count; i++)
            if (strcmp(p->params[i].name, name) == 0) return true;
        if (block_binds(&p->body, name, 0)) return true;
    }
    return false;
}

static const Binding *lookup(Flow *F, const char *key) {
    Binding *b = state_find(F->st, key);
    if (b) return b;
    if (!F->env->globals || strchr(key, '.')) return NULL;
    if (F->fn && F->fn->parent && enclosing_binds(F->fn, key)) return NULL;
    return state_find(F->env->globals, key);
}

/* The qualified name of a NAME/ATTR chain whose root is an import ("torch.nn.Linear"), or
 * NULL when the root is a local value or not imported. */
static const char *qualify(Flow *F, const DlExpr *e) {
    if (!e) return NULL;
    if (e->kind == DL_EX_NAME) {
        const Binding *b = lookup(F, e->name);
        if (b && b->value) return NULL;
        return dl_project_import(F->env->file, e->name);
    }
    if (e->kind == DL_EX_ATTR) {
        const char *base = qualify(F, e->object);
        if (base) return dl_arena_printf(F->arena, "%s.%s", base, e->name);
    }
    return NULL;
}

static bool name_says_device(const char *s) {
    return s && (strstr(s, "device") || strcmp(s, "dev") == 0);
}

static bool name_says_loader(const char *s) {
    if (!s) return false;
    size_t n = strlen(s);
    return (n >= 6 && strcmp(s + n - 6, "loader") == 0) || (n >= 6 && strcmp(s + n - 6, "Loader") == 0);
}

static DlValue *named_device(Flow *F, const char *name, DlSpan span) {
    DlValue *v = mk(F, DL_KIND_DEVICE);
    v->dev = DL_DEV_NAMED;
    v->dev_name = name;
    v->dev_span = span;
    v->dev_why = short_text(F, span);
    return v;
}

/* Device of a string literal ("cuda:1"), or UNKNOWN. */
static DlDeviceTag device_of_string(const char *s) {
    if (!s) return DL_DEV_UNKNOWN;
    if (strcmp(s, "cpu") == 0) return DL_DEV_CPU;
    if (strncmp(s, "cuda", 4) == 0 && (s[4] == '\0' || s[4] == ':')) return DL_DEV_CUDA;
    if (strcmp(s, "meta") == 0) return DL_DEV_META;
    return DL_DEV_UNKNOWN;
}

/* What device a `.to(arg)` / `device=arg` names; NULL when it is not a device (a dtype, None). */
static const DlValue *device_arg(Flow *F, const DlExpr *e, const DlValue *v) {
    if (!e) return NULL;
    if (e->kind == DL_EX_STRING && e->name) {
        DlDeviceTag tag = device_of_string(e->name);
        DlValue *d = mk(F, DL_KIND_DEVICE);
        d->dev = tag ? tag : DL_DEV_NAMED;
        d->dev_name = e->name;
        d->dev_span = e->span;
        d->dev_why = short_text(F, e->span);
        d->literal = e->name;
        return d;
    }
    if (e->kind == DL_EX_NUMBER) {
        DlValue *d = mk(F, DL_KIND_DEVICE);
        d->dev = DL_DEV_CUDA;
        d->dev_name = dl_arena_printf(F->arena, "cuda:%s", e->name);
        d->dev_span = e->span;
        d->dev_why = short_text(F, e->span);
        return d;
    }
    if (e->kind == DL_EX_CONST) return NULL;
    if (v->kind == DL_KIND_DTYPE || v->kind == DL_KIND_NONE || v->kind == DL_KIND_SCALAR)
        return NULL;
    if (v->kind == DL_KIND_STRING && v->literal) { /* DEVICE = "cuda"; x.to(DEVICE) */
        DlDeviceTag tag = device_of_string(v->literal);
        DlValue *d = mk(F, DL_KIND_DEVICE);
        d->dev = tag ? tag : DL_DEV_NAMED;
        d->dev_name = v->literal;
        d->dev_span = v->dev_span;
        d->dev_why = short_text(F, v->dev_span);
        d->literal = v->literal;
        d->home = v->home;
        return d;
    }
    if (v->kind == DL_KIND_DEVICE) return v->dev ? v : unknown(); /* chosen on several paths */
    if (v->kind == DL_KIND_TENSOR || is_module_like(v)) { /* x.to(other): other's device */
        if (!v->dev) return unknown();
        DlValue *d = dl_value_copy(F->arena, v);
        d->kind = DL_KIND_DEVICE;
        return d;
    }
    const char *q = qualify(F, e);
    if (q && dl_torch_is_dtype(q)) return NULL;
    const char *t = text(F, e->span);
    if (strstr(t, "dtype")) return NULL;
    /* a value passed where a device goes, held in a variable, attribute or config entry */
    return named_device(F, key_of(F, e) ? key_of(F, e) : short_text(F, e->span), e->span);
}

/* The device a call's `device=` keyword names (NULL if absent or not a device). */
static const DlValue *device_keyword(Flow *F, const DlExpr *call, const DlValue *const *argv) {
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (call->args[i].keyword && strcmp(call->args[i].keyword, "device") == 0)
            return device_arg(F, call->args[i].value, argv[i]);
    return NULL;
}

static bool has_splat(const DlExpr *call) {
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (call->args[i].keyword && call->args[i].keyword[0] == '*') return true;
    return false;
}

static DlValue *with_device(Flow *F, const DlValue *v, const DlValue *dev, DlOrigin origin,
                            DlSpan span) {
    DlValue *c = dl_value_copy(F->arena, v);
    c->dev = dev ? dev->dev : DL_DEV_UNKNOWN;
    c->dev_name = dev ? dev->dev_name : NULL;
    c->origin = origin;
    c->dev_span = span;
    c->dev_why = short_text(F, span);
    return c;
}

/* ---------------------------------------------------------------- meets */

static bool cpu_side(const DlValue *v) {
    if (dl_value_is_cpu_tensor(v)) return true;
    if (v->kind == DL_KIND_MODULE && v->dev == DL_DEV_CPU && (v->flags & DL_VF_CONSTRUCTED) &&
        !(v->flags & DL_VF_MOVED))
        return true;
    if (v->kind == DL_KIND_LOSS && v->dev == DL_DEV_CPU && (v->flags & DL_VF_CPU_WEIGHT))
        return true;
    return false;
}

static bool real_device(const DlValue *v) { /* where real data lives: never meta */
    return v->dev == DL_DEV_CUDA || v->dev == DL_DEV_NAMED;
}

/* Two known devices that differ: "cuda:0" and "cuda:1", meta and a real device. */
static bool devices_conflict(const DlOperand *ops, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            const DlValue *a = ops[i].value, *b = ops[j].value;
            if (!is_tensor(a) || !is_tensor(b)) continue;
            if ((a->dev == DL_DEV_META && real_device(b)) || (real_device(a) && b->dev == DL_DEV_META))
                return true;
            if (a->dev == DL_DEV_CUDA && b->dev == DL_DEV_CUDA && a->dev_name && b->dev_name &&
                strchr(a->dev_name, ':') && strchr(b->dev_name, ':') &&
                strcmp(a->dev_name, b->dev_name) != 0)
                return true;
        }
    return false;
}

static void meet(Flow *F, const DlExpr *site, const DlOperand *ops, uint32_t n, int callee) {
    if (!F->env->report) return;
    bool cpu = false, dev = false;
    /* "the module's device" is a device only where the module runs on its inputs (forward and
     * the Lightning steps), and only in a project that moves things to devices at all */
    bool module_device = F->is_forward && F->env->project->uses_devices;
    for (uint32_t i = 0; i < n; i++) {
        const DlValue *v = ops[i].value;
        if (cpu_side(v)) cpu = true;
        else if (dl_value_on_device(v) && v->kind != DL_KIND_LOSS &&
                 (v->dev != DL_DEV_MODULE || module_device))
            dev = true;
    }
    if ((!cpu || !dev) && !devices_conflict(ops, n)) return;
    DlMeetFact fact = {site, ops, n, callee};
    dl_rule_dispatch_meet(F->env->report, &fact);
}

/* Device of the result of an op over tensors: the shared device, ignoring 0-dim operands;
 * UNKNOWN when they disagree (the op would fail; do not cascade). */
static DlValue *combine(Flow *F, const DlExpr *site, const DlOperand *ops, uint32_t n) {
    const DlValue *dev = NULL;
    bool all_zero = true, conflict = false;
    for (uint32_t i = 0; i < n; i++) {
        const DlValue *v = ops[i].value;
        if (!is_tensor(v)) continue;
        if (!(v->flags & DL_VF_ZERO_DIM)) all_zero = false;
    }
    /* A cpu operand meeting a device operand is a bug reported on its own; the result is
     * taken to live on the device side, so the next, independent bug is reported too. */
    for (int pass = 0; pass < 2 && !dev; pass++)
        for (uint32_t i = 0; i < n; i++) {
            const DlValue *v = ops[i].value;
            if (!is_tensor(v)) continue;
            if (!all_zero && (v->flags & DL_VF_ZERO_DIM)) continue;
            if (pass == 0 && v->dev == DL_DEV_CPU) continue;
            if (!dev) dev = v;
            else if (dev->dev != v->dev ||
                     ((dev->dev == DL_DEV_NAMED || dev->dev == DL_DEV_CUDA) && dev->dev_name &&
                      v->dev_name && strcmp(dev->dev_name, v->dev_name) != 0))
                conflict = true;
        }
    DlValue *r = mk(F, DL_KIND_TENSOR);
    if (dev && !conflict) {
        r->dev = dev->dev;
        r->dev_name = dev->dev_name;
        r->dev_span = dev->dev_span;
        r->dev_why = dev->dev_why;
        r->origin = dev->origin == DL_ORIGIN_FACTORY || dev->origin == DL_ORIGIN_BATCH ||
                            dev->origin == DL_ORIGIN_PLAIN_ATTR
                        ? dev->origin
                        : DL_ORIGIN_NONE;
        r->aux_span = dev->aux_span;
        r->home = dev->home;
        r->var = NULL;
    }
    if (all_zero && dev) r->flags |= DL_VF_ZERO_DIM;
    (void)site;
    return r;
}

/* Collects tensor operands of an expression, looking into list/tuple displays (torch.cat). */
typedef struct OperandList {
    DlOperand items[32];
    uint32_t count;
} OperandList;

static void add_operand(OperandList *l, const DlExpr *e, const DlValue *v) {
    if (l->count >= 32 || !v) return;
    if (v->kind == DL_KIND_TENSOR || is_module_like(v)) l->items[l->count++] = (DlOperand){e, v};
}

static void add_operand_deep(Flow *F, OperandList *l, const DlExpr *e, const DlValue *v) {
    if (v->kind == DL_KIND_SEQ && v->items && e &&
        (e->kind == DL_EX_LIST || e->kind == DL_EX_TUPLE) && e->item_count == v->item_count) {
        for (uint32_t i = 0; i < v->item_count; i++) add_operand(l, e->items[i], v->items[i]);
        return;
    }
    if (v->kind == DL_KIND_SEQ && v->elem) {
        add_operand(l, e, v->elem);
        return;
    }
    add_operand(l, e, v);
}

/* ---------------------------------------------------------------- calls */

static const DlValue *element_of(Flow *F, const DlValue *v, DlSpan target_span);

static DlValue *loader_value(Flow *F, DlSpan span) {
    DlValue *v = mk(F, DL_KIND_LOADER);
    v->dev_span = span;
    v->dev_why = short_text(F, span);
    return v;
}

/* Where a module or tensor built now lives: the CPU, unless a default device is in force
 * (`with torch.device(d):`, or `torch.set_default_device` somewhere in the file). */
static DlDeviceTag construction_device(Flow *F) {
    if (F->default_device) return F->default_device->dev;
    if (F->env->file->module->sets_default_device) return DL_DEV_UNKNOWN;
    return DL_DEV_CPU;
}

/* torch.tensor(x) of a Python number (a literal, arithmetic on numbers, a scalar variable):
 * a 0-dim tensor. Lists, tuples and comprehensions give 1-D or more. */
static bool scalar_expression(Flow *F, const DlExpr *e, int depth) {
    if (!e || depth > 8) return false;
    switch (e->kind) {
    case DL_EX_NUMBER: return true;
    case DL_EX_CONST: return strcmp(e->name, "True") == 0 || strcmp(e->name, "False") == 0;
    case DL_EX_UNARY: return scalar_expression(F, e->object, depth + 1);
    case DL_EX_BINOP:
        return scalar_expression(F, e->items[0], depth + 1) &&
               scalar_expression(F, e->items[1], depth + 1);
    case DL_EX_NAME:
    case DL_EX_ATTR: {
        const char *key = key_of(F, e);
        const Binding *b = key ? lookup(F, key) : NULL;
        return b && b->value && b->value->kind == DL_KIND_SCALAR;
    }
    case DL_EX_CALL: {
        const char *q = qualify(F, e->object);
        if (q && strncmp(q, "math.", 5) == 0) return true;
        if (e->object->kind == DL_EX_NAME &&
            (strcmp(e->object->name, "float") == 0 || strcmp(e->object->name, "int") == 0 ||
             strcmp(e->object->name, "len") == 0))
            return true;
        return e->object->kind == DL_EX_ATTR && strcmp(e->object->name, "item") == 0;
    }
    default: return false;
    }
}

static const DlValue *eval_factory(Flow *F, const DlExpr *call, DlFactoryKind kind,
                                   const DlValue *const *argv) {
    const DlValue *dev = device_keyword(F, call, argv);
    if (kind == DL_FACTORY_FROM_CPU) {
        DlValue *t = mk_tensor(F, DL_DEV_CPU, NULL, DL_ORIGIN_FACTORY, call->span);
        t->flags |= DL_VF_PIN_KNOWN;
        return t;
    }
    if (kind == DL_FACTORY_LIKE) {
        if (dev) return with_device(F, mk(F, DL_KIND_TENSOR), dev, DL_ORIGIN_NONE, call->span);
        const DlValue *src = call->arg_count ? argv[0] : unknown();
        if (!is_tensor(src)) return mk(F, DL_KIND_TENSOR);
        DlValue *r = dl_value_copy(F->arena, src);
        r->origin = DL_ORIGIN_NONE;
        r->var = NULL;
        return r;
    }
    if (dev) return with_device(F, mk(F, DL_KIND_TENSOR), dev, DL_ORIGIN_NONE, call->span);
    for (uint32_t i = 0; i < call->arg_count; i++) /* torch.zeros(n, device): a TypeError */
        if (!call->args[i].keyword && argv[i]->kind == DL_KIND_DEVICE) return mk(F, DL_KIND_TENSOR);
    if (F->default_device)
        return with_device(F, mk(F, DL_KIND_TENSOR), F->default_device, DL_ORIGIN_NONE, call->span);
    if (F->env->file->module->sets_default_device || has_splat(call)) return mk(F, DL_KIND_TENSOR);
    DlValue *t = mk_tensor(F, DL_DEV_CPU, NULL, DL_ORIGIN_FACTORY, call->span);
    const DlArg *pin = dl_ir_keyword(call, "pin_memory");
    bool pinned = pin && pin->value->kind == DL_EX_CONST && strcmp(pin->value->name, "True") == 0;
    t->flags |= DL_VF_PIN_KNOWN | (pinned ? DL_VF_PINNED : 0); /* pageable unless pin_memory=True */
    if (F->place.cuda_context) t->flags |= DL_VF_CUDA_CONTEXT;
    /* torch.tensor(3.0) / torch.tensor(eps): a 0-dim scalar tensor may meet any device */
    const char *q = qualify(F, call->object);
    if (q && (strcmp(q, "torch.tensor") == 0 || strcmp(q, "torch.as_tensor") == 0 ||
              strcmp(q, "torch.scalar_tensor") == 0) &&
        scalar_expression(F, dl_ir_positional(call, 0), 0))
        t->flags |= DL_VF_ZERO_DIM;
    return t;
}

static const DlValue *eval_loss_ctor(Flow *F, const DlExpr *call, const DlValue *const *argv) {
    DlValue *loss = mk(F, DL_KIND_LOSS);
    loss->dev_span = call->span;
    loss->dev_why = short_text(F, call->span);
    loss->flags |= DL_VF_CONSTRUCTED;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (!kw || (strcmp(kw, "weight") != 0 && strcmp(kw, "pos_weight") != 0)) continue;
        if (dl_value_is_cpu_tensor(argv[i])) {
            loss->dev = DL_DEV_CPU;
            loss->flags |= DL_VF_CPU_WEIGHT;
            loss->elem = argv[i];
            loss->aux_span = call->args[i].span;
        }
    }
    return loss;
}

/* pin_memory=True / False / absent, also through a `**kwargs` dict: DL_VF_PIN_KNOWN and
 * DL_VF_PINNED on the loader, inherited by its batches. */
static uint16_t loader_pin_flags(const DlExpr *call, const DlValue *const *argv) {
    bool splat_known = true, splat_pinned = false;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (!kw) continue;
        if (strcmp(kw, "pin_memory") == 0) {
            const DlExpr *v = call->args[i].value;
            if (v->kind == DL_EX_CONST && strcmp(v->name, "True") == 0)
                return DL_VF_PIN_KNOWN | DL_VF_PINNED;
            if (v->kind == DL_EX_CONST && strcmp(v->name, "False") == 0) return DL_VF_PIN_KNOWN;
            return 0;
        }
        if (strcmp(kw, "**") == 0) {
            const DlValue *d = argv[i];
            if (!(d->flags & DL_VF_PIN_KNOWN)) splat_known = false;
            if (d->flags & DL_VF_PINNED) splat_pinned = true;
        }
    }
    if (splat_pinned) return DL_VF_PIN_KNOWN | DL_VF_PINNED;
    return splat_known ? DL_VF_PIN_KNOWN : 0;
}

/* num_workers > 0: a literal, or the machine's cpu count. */
static bool uses_workers(Flow *F, const DlExpr *call) {
    const DlArg *a = dl_ir_keyword(call, "num_workers");
    if (!a) return false;
    const DlExpr *v = a->value;
    if (v->kind == DL_EX_NUMBER) return strtol(v->name, NULL, 10) > 0;
    if (v->kind == DL_EX_NAME || v->kind == DL_EX_ATTR) { /* NUM_WORKERS = 6 */
        const char *key = key_of(F, v);
        const Binding *b = key ? lookup(F, key) : NULL;
        return b && b->value && b->value->kind == DL_KIND_SCALAR && b->value->literal &&
               strtol(b->value->literal, NULL, 10) > 0;
    }
    if (v->kind == DL_EX_CALL) {
        const char *q = qualify(F, v->object);
        return q && (strcmp(q, "os.cpu_count") == 0 || strcmp(q, "multiprocessing.cpu_count") == 0);
    }
    return false;
}

static const DlValue *eval_dataloader(Flow *F, const DlExpr *call, const DlValue *const *argv) {
    DlValue *l = loader_value(F, call->span);
    l->flags |= loader_pin_flags(call, argv);
    if (F->env->recorder && uses_workers(F, call)) {
        /* note, project-wide, what the workers run (DL113); summaries are built on one thread */
        for (uint32_t i = 0; i < call->arg_count; i++) {
            const char *kw = call->args[i].keyword;
            const DlValue *v = argv[i];
            if ((!kw && i == 0) || (kw && strcmp(kw, "dataset") == 0)) {
                if (v->cls && (v->kind == DL_KIND_LOADER || v->kind == DL_KIND_INSTANCE))
                    ((DlClassInfo *)v->cls)->loaded_with_workers = true;
            } else if (kw && strcmp(kw, "collate_fn") == 0 && v->kind == DL_KIND_FUNCTION && v->cls) {
                ((DlFunctionInfo *)v->cls)->collate_with_workers = true;
            } else if (kw && strcmp(kw, "collate_fn") == 0 && v->kind == DL_KIND_INSTANCE && v->cls) {
                ((DlClassInfo *)v->cls)->loaded_with_workers = true; /* its __call__ */
            }
        }
    }
    return l;
}

static const DlValue *eval_library_call(Flow *F, const DlExpr *call, const char *q,
                                        const DlValue *const *argv) {
    DlFactoryKind fk = dl_torch_factory(q);
    if (fk) return eval_factory(F, call, fk, argv);
    if (strcmp(q, "torch.device") == 0) {
        const DlExpr *a = dl_ir_positional(call, 0);
        if (a && a->kind == DL_EX_STRING && a->name && device_of_string(a->name) &&
            !dl_ir_positional(call, 1)) {
            DlValue *d = mk(F, DL_KIND_DEVICE);
            d->dev = device_of_string(a->name);
            d->dev_name = a->name;
            d->dev_span = call->span;
            d->dev_why = short_text(F, call->span);
            return d;
        }
        return named_device(F, NULL, call->span);
    }
    if (dl_torch_is_dtype(q)) return mk(F, DL_KIND_DTYPE);
    if (dl_torch_is_loss_class(q)) return eval_loss_ctor(F, call, argv);
    if (strcmp(q, "torch.nn.Parameter") == 0 || strcmp(q, "torch.nn.parameter.Parameter") == 0) {
        const DlValue *t = call->arg_count ? argv[0] : unknown();
        DlValue *p = is_tensor(t) ? dl_value_copy(F->arena, t) : mk(F, DL_KIND_TENSOR);
        p->flags |= DL_VF_REGISTERED;
        p->origin = DL_ORIGIN_NONE;
        return p;
    }
    if (strcmp(q, "torch.nn.DataParallel") == 0 || strcmp(q, "torch.nn.parallel.DataParallel") == 0 ||
        strcmp(q, "torch.nn.parallel.DistributedDataParallel") == 0) {
        /* the wrapper scatters its inputs onto its device(s): callers may pass cpu batches */
        const DlValue *inner = call->arg_count ? argv[0] : unknown();
        DlValue *w = is_module_like(inner) ? dl_value_copy(F->arena, inner) : mk(F, DL_KIND_MODULE);
        w->flags |= DL_VF_SCATTERS;
        w->flags &= (uint16_t)~DL_VF_CONSTRUCTED;
        w->var = NULL;
        return w;
    }
    if (dl_torch_is_module_class(q)) {
        DlValue *m = mk(F, DL_KIND_MODULE);
        const DlValue *dev = device_keyword(F, call, argv); /* nn.Linear(2, 1, device="cuda") */
        m->dev = dev ? dev->dev : construction_device(F);
        m->dev_name = dev ? dev->dev_name : NULL;
        if (!dev && !dl_torch_is_stateless_module(q)) m->flags |= DL_VF_CONSTRUCTED;
        m->dev_span = call->span;
        m->dev_why = short_text(F, call->span);
        return m;
    }
    if (dl_torch_is_dataloader(q)) return eval_dataloader(F, call, argv);
    if (dl_torch_is_optimizer(q)) return mk(F, DL_KIND_OPTIMIZER);
    if (strcmp(q, "tqdm.tqdm") == 0 || strcmp(q, "tqdm.auto.tqdm") == 0 ||
        strcmp(q, "tqdm") == 0 || strcmp(q, "tqdm.notebook.tqdm") == 0)
        return call->arg_count && !call->args[0].keyword ? argv[0] : unknown();
    if (dl_torch_is_combining_op(q)) {
        OperandList ops = {0};
        for (uint32_t i = 0; i < call->arg_count; i++)
            if (!call->args[i].keyword || call->args[i].keyword[0] != '*')
                add_operand_deep(F, &ops, call->args[i].value, argv[i]);
        uint32_t tensors = 0;
        for (uint32_t i = 0; i < ops.count; i++) tensors += is_tensor(ops.items[i].value);
        if (!tensors) return mk(F, DL_KIND_TENSOR); /* a tensor, on a device not known */
        if (ops.count > 1) meet(F, call, ops.items, ops.count, -1);
        DlValue *r = combine(F, call, ops.items, ops.count);
        const char *m = strrchr(q, '.') + 1;
        if (strstr(q, "functional") && strstr(m, "loss")) r->flags |= DL_VF_ZERO_DIM;
        if (strcmp(m, "cross_entropy") == 0 || strcmp(m, "nll_loss") == 0 ||
            strcmp(m, "mse_loss") == 0 || strcmp(m, "l1_loss") == 0 ||
            strcmp(m, "binary_cross_entropy") == 0 ||
            strcmp(m, "binary_cross_entropy_with_logits") == 0)
            r->flags |= DL_VF_ZERO_DIM;
        return r;
    }
    return unknown();
}

/* Calling a module (or a loss): its operands meet; the output lives where the module does. */
static const DlValue *call_module(Flow *F, const DlExpr *call, const DlExpr *callee_expr,
                                  const DlValue *callee, const DlValue *const *argv) {
    OperandList ops = {0};
    add_operand(&ops, callee_expr, callee);
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (!call->args[i].keyword || call->args[i].keyword[0] != '*')
            add_operand(&ops, call->args[i].value, argv[i]);
    if (ops.count > 1 && !(callee->flags & DL_VF_SCATTERS)) meet(F, call, ops.items, ops.count, 0);
    if (callee->flags & DL_VF_SCATTERS)
        return with_device(F, mk(F, DL_KIND_TENSOR), callee, DL_ORIGIN_MODEL, call->span);
    if (callee->kind == DL_KIND_LOSS) {
        DlValue *r = combine(F, call, ops.items + 1, ops.count - 1);
        r->flags |= DL_VF_ZERO_DIM;
        r->origin = DL_ORIGIN_NONE;
        return r;
    }
    if (callee->dev && callee->dev != DL_DEV_CPU) {
        DlValue *r = with_device(F, mk(F, DL_KIND_TENSOR), callee, DL_ORIGIN_MODEL, call->span);
        return r;
    }
    if (callee->dev == DL_DEV_CPU) {
        /* an unmoved module: output on the CPU only if its inputs were */
        DlValue *r = combine(F, call, ops.items + 1, ops.count - 1);
        r->origin = DL_ORIGIN_MODEL;
        return r;
    }
    DlValue *r = combine(F, call, ops.items + 1, ops.count - 1);
    r->origin = DL_ORIGIN_MODEL;
    return r;
}

/* A value from a function's summary. Its spans stay where the value was made (a factory in a
 * helper is reported in the helper); `home` records the file when that is another one. */
static const DlValue *rebase(Flow *F, const DlValue *v, const DlModuleIR *from) {
    if (!v || (v->kind == DL_KIND_UNKNOWN && !v->dev)) return unknown();
    DlValue *c = dl_value_copy(F->arena, v);
    c->var = NULL;
    if (!c->home && from != F->env->file->module) c->home = from;
    if (c->origin == DL_ORIGIN_PLAIN_ATTR) c->origin = DL_ORIGIN_NONE;
    if (c->home) { /* another file's tuple items carry that file's spans */
        c->items = NULL;
        c->item_count = 0;
    }
    return c;
}

static int param_index(const DlFunction *fn, const char *name) {
    for (uint32_t i = 0; i < fn->param_count; i++)
        if (strcmp(fn->params[i].name, name) == 0) return (int)i;
    return -1;
}

/* A summary's device named after one of the callee's parameters (`def make(n, device):
 * return torch.zeros(n, device=device)`) means whatever this call passes there: the argument's
 * device, else the parameter's literal default, else unknown. */
static const DlValue *bind_parameter_device(Flow *F, const DlValue *v, const DlFunction *fn,
                                            const DlExpr *call, const DlValue *const *argv,
                                            bool skip_self) {
    if (v->dev != DL_DEV_NAMED || !v->dev_name) return v;
    /* `device=x.device` with x a parameter: the device of what the caller passes as x */
    bool of_tensor = false;
    const char *name = v->dev_name;
    size_t len = strlen(name);
    if (len > 7 && strcmp(name + len - 7, ".device") == 0) {
        name = dl_arena_strndup(F->arena, name, len - 7);
        of_tensor = true;
    }
    int index = param_index(fn, name);
    if (index < 0) return v;
    const DlParam *p = &fn->params[index];
    const DlValue *dev = NULL;
    bool passed = false;
    int positional = index - (skip_self ? 1 : 0);
    for (uint32_t i = 0, pos = 0; call && i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (kw && kw[0] == '*') return &dl_value_unknown;
        if (kw ? strcmp(kw, p->name) == 0 : (int)pos++ == positional) {
            if (!of_tensor) dev = device_arg(F, call->args[i].value, argv[i]);
            else if (is_tensor(argv[i]) && argv[i]->dev) dev = argv[i];
            passed = true;
            break;
        }
    }
    if (!passed && !of_tensor && p->default_value && p->default_value->kind == DL_EX_STRING &&
        device_of_string(p->default_value->name)) {
        DlValue *d = mk(F, DL_KIND_DEVICE);
        d->dev = device_of_string(p->default_value->name);
        d->dev_name = p->default_value->name;
        dev = d;
    }
    DlValue *c = dl_value_copy(F->arena, v);
    c->dev = dev ? dev->dev : DL_DEV_UNKNOWN;
    c->dev_name = dev ? dev->dev_name : NULL;
    if (!c->dev) c->origin = DL_ORIGIN_NONE;
    return c;
}

static const DlValue *call_summary(Flow *F, const DlFunctionInfo *fi, const DlExpr *call,
                                   const DlValue *const *argv, bool skip_self) {
    const DlValue *v = rebase(F, fi->ret, fi->module);
    return bind_parameter_device(F, v, fi->fn, call, argv, skip_self);
}

static bool class_has_state(const DlClassInfo *ci) {
    for (int depth = 0; ci && depth < 8; depth++, ci = ci->base) {
        if (!ci->attrs_done) return true;
        for (uint32_t i = 0; i < ci->attr_count; i++) {
            const DlValue *v = ci->attrs[i].value;
            if (ci->attrs[i].name[0] == '<') continue;
            if (is_module_like(v) || (is_tensor(v) && (v->flags & DL_VF_REGISTERED)) ||
                (v->kind == DL_KIND_SEQ && (v->flags & DL_VF_HAS_MODULES)))
                return true;
        }
        /* a direct subclass of a library module (nn.Linear) has that module's state */
        for (uint32_t b = 0; b < ci->cls->base_count; b++)
            if (!ci->base && ci->cls->bases[b]->kind == DL_EX_ATTR &&
                strcmp(ci->cls->bases[b]->name, "Module") != 0 &&
                strcmp(ci->cls->bases[b]->name, "LightningModule") != 0)
                return true;
    }
    return false;
}

static const DlValue *instantiate(Flow *F, const DlExpr *call, const DlClassInfo *ci) {
    if (ci->is_module) {
        DlValue *m = mk(F, DL_KIND_MODULE);
        m->dev = construction_device(F);
        /* only a module with parameters, buffers or submodules has anything to move */
        if (class_has_state(ci)) m->flags |= DL_VF_CONSTRUCTED;
        m->dev_span = call->span;
        m->dev_why = short_text(F, call->span);
        m->cls = ci;
        /* a module whose __init__ moves itself (self.to(device)) is not "never moved" */
        const DlAttr *self_dev = dl_project_attr(ci, "<moved>");
        if (self_dev) {
            m->flags |= DL_VF_MOVED;
            m->dev = DL_DEV_UNKNOWN;
        }
        return m;
    }
    if (ci->is_dataset) {
        DlValue *d = loader_value(F, call->span);
        d->cls = ci;
        return d;
    }
    DlValue *v = mk(F, DL_KIND_INSTANCE);
    v->cls = ci;
    if (ci->has_own_to) v->flags |= DL_VF_OWN_TO;
    return v;
}

static bool is_static(const DlFunction *fn) {
    for (uint32_t i = 0; i < fn->decorator_count; i++) {
        const DlExpr *d = fn->decorators[i];
        if (d->kind == DL_EX_NAME && strcmp(d->name, "staticmethod") == 0) return true;
    }
    return false;
}

/* A helper method that __init__ calls runs inline, on __init__'s state (what it stores on
 * self counts as __init__'s). Returns what it returns. */
static const DlValue *inline_method(Flow *F, const DlFunction *fn, const DlValue *const *argv,
                                    const DlExpr *call) {
    if (F->inline_depth >= DL_INLINE_DEPTH) return unknown();
    const DlFunction *saved_fn = F->fn;
    const DlValue *saved_ret = F->ret;
    F->fn = fn;
    F->ret = NULL;
    F->inline_depth++;
    uint32_t argi = 0;
    for (uint32_t i = is_static(fn) ? 0 : 1; i < fn->param_count; i++) {
        const DlValue *v = unknown();
        while (argi < call->arg_count && call->args[argi].keyword) argi++;
        if (argi < call->arg_count) v = argv[argi++];
        state_set(F->st, fn->params[i].name, v);
    }
    bool was_dead = F->st->dead;
    exec_block(F, &fn->body);
    F->st->dead = was_dead;
    const DlValue *ret = F->ret ? F->ret : unknown();
    F->inline_depth--;
    F->fn = saved_fn;
    F->ret = saved_ret;
    return ret;
}

/* Moving a module in place: every name bound to it sees the new device. */
static const DlValue *move_module(Flow *F, const DlExpr *call, const DlExpr *recv_expr,
                                  const DlValue *recv, const DlValue *target) {
    DlValue *m = dl_value_copy(F->arena, recv);
    m->flags |= DL_VF_MOVED;
    m->flags &= (uint16_t)~DL_VF_CPU_WEIGHT;
    m->dev = target ? target->dev : DL_DEV_UNKNOWN;
    m->dev_name = target ? target->dev_name : NULL;
    m->dev_span = call->span;
    m->dev_why = short_text(F, call->span);
    if (m->kind == DL_KIND_LOSS && m->dev == DL_DEV_CPU) m->flags &= (uint16_t)~DL_VF_CPU_WEIGHT;
    const char *key = key_of(F, recv_expr);
    if (key) state_set(F->st, key, m);
    return m;
}

static const DlValue *move_target(Flow *F, const DlExpr *call, const char *method,
                                  const DlValue *const *argv) {
    if (strcmp(method, "cpu") == 0) {
        DlValue *d = mk(F, DL_KIND_DEVICE);
        d->dev = DL_DEV_CPU;
        return d;
    }
    if (strcmp(method, "cuda") == 0) {
        const DlExpr *a = dl_ir_positional(call, 0);
        if (a) {
            const DlValue *d = device_arg(F, a, argv[0]);
            if (d && d->dev == DL_DEV_NAMED) return d;
        }
        DlValue *d = mk(F, DL_KIND_DEVICE);
        d->dev = DL_DEV_CUDA;
        d->dev_name = a && a->kind == DL_EX_NUMBER ? dl_arena_printf(F->arena, "cuda:%s", a->name)
                                                   : "cuda";
        return d;
    }
    const DlValue *dev = device_keyword(F, call, argv);
    if (dev) return dev;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        if (call->args[i].keyword) continue;
        return device_arg(F, call->args[i].value, argv[i]);
    }
    return NULL;
}

static bool is_move_method(const char *m) {
    return strcmp(m, "to") == 0 || strcmp(m, "cuda") == 0 || strcmp(m, "cpu") == 0;
}

static const DlValue *eval_tensor_method(Flow *F, const DlExpr *call, const DlExpr *recv_expr,
                                         const DlValue *recv, const char *m,
                                         const DlValue *const *argv) {
    if (is_move_method(m)) {
        const DlValue *target = move_target(F, call, m, argv);
        if (!target) {
            DlValue *c = dl_value_copy(F->arena, recv); /* .to(dtype) */
            c->var = NULL;
            return c;
        }
        DlValue *r = with_device(F, recv, target, DL_ORIGIN_MOVED, call->span);
        r->var = NULL;
        r->items = NULL;
        return r;
    }
    if (dl_torch_is_new_factory_method(m)) {
        const DlValue *dev = device_keyword(F, call, argv);
        DlValue *r = dev ? with_device(F, mk(F, DL_KIND_TENSOR), dev, DL_ORIGIN_NONE, call->span)
                         : with_device(F, mk(F, DL_KIND_TENSOR), recv, DL_ORIGIN_NONE, call->span);
        if (!dev) r->dev_name = recv->dev_name;
        return r;
    }
    if (dl_tensor_method_to_host(m)) return mk(F, DL_KIND_SCALAR);
    if (dl_tensor_method_combines(m)) {
        OperandList ops = {0};
        add_operand(&ops, recv_expr, recv);
        for (uint32_t i = 0; i < call->arg_count; i++)
            if (!call->args[i].keyword) add_operand(&ops, call->args[i].value, argv[i]);
        if (ops.count > 1) meet(F, call, ops.items, ops.count, -1);
        return combine(F, call, ops.items, ops.count);
    }
    if (strcmp(m, "pin_memory") == 0) {
        DlValue *r = dl_value_copy(F->arena, recv);
        r->var = NULL;
        r->flags |= DL_VF_PIN_KNOWN | DL_VF_PINNED;
        return r;
    }
    if (dl_tensor_method_keeps_device(m) || m[strlen(m) - 1] == '_') { /* x.add_(...) is x */
        DlValue *r = dl_value_copy(F->arena, recv);
        r->var = NULL;
        r->flags &= (uint16_t)~DL_VF_REGISTERED;
        if (dl_tensor_method_reduces(m) && call->arg_count == 0) r->flags |= DL_VF_ZERO_DIM;
        return r;
    }
    if (strcmp(m, "items") == 0 || strcmp(m, "values") == 0) {
        /* a batch that is a dict of tensors */
        DlValue *s = mk(F, DL_KIND_SEQ);
        if (strcmp(m, "values") == 0) {
            s->elem = recv;
        } else {
            DlValue *pair = mk(F, DL_KIND_SEQ);
            const DlValue **items = dl_arena_alloc(F->arena, 2 * sizeof *items);
            items[0] = unknown();
            items[1] = recv;
            pair->items = items;
            pair->item_count = 2;
            s->elem = pair;
        }
        return s;
    }
    if (strcmp(m, "split") == 0 || strcmp(m, "chunk") == 0 || strcmp(m, "unbind") == 0 ||
        strcmp(m, "tensor_split") == 0) {
        DlValue *s = mk(F, DL_KIND_SEQ), *part = dl_value_copy(F->arena, recv);
        part->var = NULL;
        part->flags &= (uint16_t)~(DL_VF_WHOLE_BATCH | DL_VF_REGISTERED);
        s->elem = part;
        return s;
    }
    if (strcmp(m, "size") == 0 || strcmp(m, "dim") == 0 || strcmp(m, "numel") == 0)
        return mk(F, DL_KIND_OTHER);
    return unknown();
}

/* Methods only tensors have (modules share float()/half()/to()/cuda()...): calling one tells
 * that an unknown receiver is a tensor. */
static bool tensor_only_method(const char *m) {
    static const char *const list[] = {"detach", "view", "reshape", "permute", "transpose",
                                       "unsqueeze", "squeeze", "contiguous", "clone", "flatten",
                                       "expand", "repeat", "softmax", "log_softmax", "sigmoid",
                                       "argmax", "argmin", "abs", "exp", "log", "sqrt", "norm",
                                       "mean", "sum", "clamp", "masked_fill", "t", NULL};
    for (const char *const *l = list; *l; l++)
        if (strcmp(m, *l) == 0) return true;
    return false;
}

static const DlValue *eval_method_call(Flow *F, const DlExpr *call, const DlExpr *recv_expr,
                                       const DlValue *recv, const char *m,
                                       const DlValue *const *argv) {
    switch (recv->kind) {
    case DL_KIND_TENSOR: return eval_tensor_method(F, call, recv_expr, recv, m, argv);
    case DL_KIND_MODULE:
    case DL_KIND_LOSS:
        if (is_move_method(m)) return move_module(F, call, recv_expr, recv, move_target(F, call, m, argv));
        if (dl_module_method_returns_self(m)) return recv;
        if (strcmp(m, "forward") == 0) return call_module(F, call, recv_expr, recv, argv);
        if ((strcmp(m, "add_module") == 0 || strcmp(m, "register_module") == 0) && F->in_init &&
            recv_expr->kind == DL_EX_NAME && strcmp(recv_expr->name, "self") == 0) {
            state_set(F->st, "self.<registers>", mk(F, DL_KIND_OTHER));
            return mk(F, DL_KIND_NONE);
        }
        if (strcmp(m, "register_buffer") == 0 && F->in_init && recv_expr->kind == DL_EX_NAME &&
            strcmp(recv_expr->name, "self") == 0) {
            const DlExpr *name = dl_ir_positional(call, 0);
            if (name && name->kind == DL_EX_STRING && name->name && call->arg_count >= 2) {
                DlValue *b = is_tensor(argv[1]) ? dl_value_copy(F->arena, argv[1])
                                                : mk(F, DL_KIND_TENSOR);
                b->flags |= DL_VF_REGISTERED;
                state_set(F->st, dl_arena_printf(F->arena, "self.%s", name->name), b);
            }
            return mk(F, DL_KIND_NONE);
        }
        if (recv->cls) {
            const DlFunctionInfo *fi = dl_project_method(F->env->project, recv->cls, m);
            if (fi) {
                if (F->in_init && recv_expr->kind == DL_EX_NAME &&
                    strcmp(recv_expr->name, "self") == 0) {
                    return inline_method(F, fi->fn, argv, call);
                }
                return call_summary(F, fi, call, argv, true);
            }
        }
        return unknown();
    case DL_KIND_SEQ:
        if (strcmp(m, "append") == 0 && call->arg_count == 1) {
            const char *key = key_of(F, recv_expr);
            if (key) {
                DlValue *s = dl_value_copy(F->arena, recv);
                s->elem = recv->elem ? dl_value_join(F->arena, recv->elem, argv[0]) : argv[0];
                s->items = NULL;
                s->item_count = 0;
                if (is_module_like(argv[0]) || (is_tensor(argv[0]) && (argv[0]->flags & DL_VF_REGISTERED)))
                    s->flags |= DL_VF_HAS_MODULES;
                state_set(F->st, key, s);
            }
            return mk(F, DL_KIND_NONE);
        }
        if (strcmp(m, "values") == 0 && recv->elem) {
            DlValue *s = mk(F, DL_KIND_SEQ);
            s->elem = recv->elem;
            return s;
        }
        if (strcmp(m, "items") == 0 && recv->elem) {
            DlValue *s = mk(F, DL_KIND_SEQ), *pair = mk(F, DL_KIND_SEQ);
            const DlValue **items = dl_arena_alloc(F->arena, 2 * sizeof *items);
            items[0] = unknown();
            items[1] = recv->elem;
            pair->items = items;
            pair->item_count = 2;
            s->elem = pair;
            return s;
        }
        return unknown();
    case DL_KIND_INSTANCE:
    case DL_KIND_LOADER:
        if (recv->cls) {
            const DlFunctionInfo *fi = dl_project_method(F->env->project, recv->cls, m);
            if (fi) {
                if (F->in_init && recv_expr->kind == DL_EX_NAME &&
                    strcmp(recv_expr->name, "self") == 0) {
                    return inline_method(F, fi->fn, argv, call);
                }
                return call_summary(F, fi, call, argv, true);
            }
        }
        return unknown();
    case DL_KIND_UNKNOWN:
        if (is_move_method(m)) {
            /* x.to(device) on something of unknown kind: a tensor copy or the module itself;
             * either way the result lives on the target device */
            const DlValue *target = move_target(F, call, m, argv);
            if (!target) return unknown();
            DlValue *r = with_device(F, unknown(), target, DL_ORIGIN_MOVED, call->span);
            r->kind = DL_KIND_UNKNOWN;
            return r;
        }
        if (recv->dev && dl_module_method_returns_self(m)) return recv; /* x.to(d).eval() */
        if (tensor_only_method(m)) { /* x.detach(), x.view(...): x is a tensor */
            DlValue *t = mk(F, DL_KIND_TENSOR);
            t->dev = recv->dev;
            t->dev_name = recv->dev_name;
            t->dev_span = recv->dev_span;
            t->dev_why = recv->dev_why;
            return t;
        }
        return unknown();
    default: return unknown();
    }
}

static const DlValue *eval_builtin(Flow *F, const DlExpr *call, const char *name,
                                   const DlValue *const *argv, bool *handled) {
    *handled = true;
    const DlValue *a0 = call->arg_count ? argv[0] : unknown();
    if (strcmp(name, "enumerate") == 0) {
        /* enumerate(loader) is still a loop over batches; enumerate(list) is not */
        DlValue *l = mk(F, DL_KIND_SEQ);
        if (a0->kind == DL_KIND_LOADER) *l = *a0;
        DlValue *pair = mk(F, DL_KIND_SEQ);
        const DlValue **items = dl_arena_alloc(F->arena, 2 * sizeof *items);
        items[0] = mk(F, DL_KIND_SCALAR);
        items[1] = element_of(F, a0, call->span);
        pair->items = items;
        pair->item_count = 2;
        l->elem = pair;
        l->items = NULL;
        l->item_count = 0;
        return l;
    }
    if (strcmp(name, "zip") == 0) {
        DlValue *l = mk(F, DL_KIND_SEQ);
        DlValue *tuple = mk(F, DL_KIND_SEQ);
        uint32_t n = call->arg_count;
        for (uint32_t i = 0; i < n; i++)
            if (argv[i]->kind == DL_KIND_LOADER) l->kind = DL_KIND_LOADER; /* zip(loader_a, loader_b) */
        const DlValue **items = dl_arena_alloc(F->arena, (n ? n : 1) * sizeof *items);
        for (uint32_t i = 0; i < n; i++) items[i] = element_of(F, argv[i], call->span);
        tuple->items = items;
        tuple->item_count = n;
        l->elem = tuple;
        return l;
    }
    if (strcmp(name, "iter") == 0 || strcmp(name, "tqdm") == 0 || strcmp(name, "list") == 0 ||
        strcmp(name, "tuple") == 0 || strcmp(name, "reversed") == 0 || strcmp(name, "sorted") == 0)
        return a0;
    if (strcmp(name, "next") == 0) return element_of(F, a0, call->span);
    if (strcmp(name, "len") == 0 || strcmp(name, "int") == 0 || strcmp(name, "float") == 0 ||
        strcmp(name, "bool") == 0)
        return mk(F, DL_KIND_SCALAR);
    if (strcmp(name, "range") == 0) {
        DlValue *r = mk(F, DL_KIND_SEQ);
        r->elem = mk(F, DL_KIND_SCALAR);
        return r;
    }
    if (strcmp(name, "str") == 0) return mk(F, DL_KIND_STRING);
    if (strcmp(name, "dict") == 0 && !dl_ir_positional(call, 0)) {
        DlValue *d = mk(F, DL_KIND_SEQ);
        d->flags |= loader_pin_flags(call, argv);
        return d;
    }
    if (strcmp(name, "setattr") == 0 && F->in_init && call->arg_count >= 3) {
        const DlExpr *obj = dl_ir_positional(call, 0);
        if (obj && obj->kind == DL_EX_NAME && strcmp(obj->name, "self") == 0)
            state_set(F->st, "self.<registers>", mk(F, DL_KIND_OTHER));
        return mk(F, DL_KIND_OTHER);
    }
    if (strcmp(name, "isinstance") == 0 || strcmp(name, "print") == 0 ||
        strcmp(name, "super") == 0 || strcmp(name, "hasattr") == 0 ||
        strcmp(name, "getattr") == 0 || strcmp(name, "setattr") == 0)
        return mk(F, DL_KIND_OTHER);
    *handled = false;
    return unknown();
}

/* A constructed module handed to a function devlint does not model (`fabric.setup(model)`,
 * `accelerator.prepare(model)`, a project helper) may be moved there: it is no longer known to
 * be "never moved". torch's own functions do not move their arguments. */
static void escape_modules(Flow *F, const DlExpr *call, const DlValue *const *argv,
                           const char *qualified) {
    if (qualified && dl_torch_owns(qualified)) return;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const DlValue *v = argv[i];
        if (v->kind != DL_KIND_MODULE || !(v->flags & DL_VF_CONSTRUCTED)) continue;
        const char *key = key_of(F, call->args[i].value);
        if (!key) continue;
        DlValue *c = dl_value_copy(F->arena, v);
        c->flags &= (uint16_t)~DL_VF_CONSTRUCTED;
        c->dev = DL_DEV_UNKNOWN;
        state_set(F->st, key, c);
    }
}

static const DlValue *resolve_call(Flow *F, const DlExpr *call, const char *q,
                                   const DlValue *recv, const DlValue *const *argv) {
    const DlExpr *callee = call->object;
    escape_modules(F, call, argv, q);
    if (q) {
        if (dl_torch_owns(q) || strncmp(q, "tqdm", 4) == 0 ||
            strncmp(q, "pytorch_lightning", 17) == 0 || strncmp(q, "lightning", 9) == 0)
            return eval_library_call(F, call, q, argv);
        const DlClassInfo *ci = dl_project_find_class(F->env->project, F->env->file, q);
        if (ci) return instantiate(F, call, ci);
        const DlFunctionInfo *fi = dl_project_find_function(F->env->project, F->env->file, q);
        if (fi) return call_summary(F, fi, call, argv, false);
        return unknown();
    }
    if (recv) {
        /* self.encoder(x): an attribute holding a module is called, not a method */
        const char *key = key_of(F, callee);
        const Binding *b = key ? lookup(F, key) : NULL;
        if (b && b->value && (is_module_like(b->value) || (b->value->kind == DL_KIND_UNKNOWN &&
                                                            b->value->dev)))
            return call_module(F, call, callee, b->value, argv);
        return eval_method_call(F, call, callee->object, recv, callee->name, argv);
    }

    if (callee && callee->kind == DL_EX_NAME) {
        const Binding *b = lookup(F, callee->name);
        if (!b) {
            bool handled;
            const DlValue *r = eval_builtin(F, call, callee->name, argv, &handled);
            if (handled) return r;
        }
    }
    const DlValue *fv = eval(F, callee);
    if (fv->kind == DL_KIND_CLASS && fv->cls) return instantiate(F, call, fv->cls);
    if (fv->kind == DL_KIND_FUNCTION && fv->cls)
        return call_summary(F, fv->cls, call, argv, false);
    if (is_module_like(fv)) return call_module(F, call, callee, fv, argv);
    if (fv->kind == DL_KIND_UNKNOWN && fv->dev) { /* something moved with .to(): a module */
        DlValue *m = dl_value_copy(F->arena, fv);
        m->kind = DL_KIND_MODULE;
        return call_module(F, call, callee, m, argv);
    }
    return unknown();
}

static bool is_clock(const char *q) {
    static const char *const clocks[] = {"time.time", "time.perf_counter", "time.monotonic",
                                         "time.time_ns", "time.perf_counter_ns",
                                         "time.monotonic_ns", "timeit.default_timer", NULL};
    for (const char *const *c = clocks; *c; c++)
        if (strcmp(q, *c) == 0) return true;
    return false;
}

static bool is_synchronize(const char *q, const char *method) {
    if (q && (strcmp(q, "torch.cuda.synchronize") == 0 ||
              strcmp(q, "torch.cuda.current_stream") == 0 ||
              strcmp(q, "torch.accelerator.synchronize") == 0))
        return true;
    return method && (strcmp(method, "synchronize") == 0 || strcmp(method, "elapsed_time") == 0);
}

/* Work queued on a device since the last clock read: a call that takes or makes a value on a
 * device (a model on the GPU, a tensor moved there, a helper handed the device). */
static bool metadata_method(const char *m) {
    static const char *const list[] = {"size", "dim", "numel", "element_size", "stride",
                                       "is_contiguous", "data_ptr", "get_device", "type",
                                       "parameters", "named_parameters", "state_dict", "train",
                                       "eval", NULL};
    for (const char *const *l = list; *l; l++)
        if (strcmp(m, *l) == 0) return true;
    return false;
}

/* Does the call queue device work? It makes a value on a device, or runs a module, a method
 * or a project function on device values. Builtins (len, print, isinstance) and metadata
 * queries (x.size()) do not. */
static bool touches_device(Flow *F, const DlExpr *call, const char *q, const DlValue *recv,
                           const DlValue *const *argv, const DlValue *result) {
    if (result && dl_value_on_device(result) && result->kind != DL_KIND_DEVICE) return true;
    const DlExpr *callee = call->object;
    if (recv) {
        if (metadata_method(callee->name)) return false;
        if (dl_value_on_device(recv) && recv->kind != DL_KIND_UNKNOWN &&
            recv->kind != DL_KIND_DEVICE)
            return true;
    } else if (!q && callee->kind == DL_EX_NAME && !lookup(F, callee->name)) {
        return false; /* a builtin */
    }
    /* a project function may synchronise inside (`.item()` for its logs): not known here */
    if (q && !dl_torch_owns(q)) return false;
    if (!q && !recv) {
        const DlValue *fv = callee->kind == DL_EX_NAME ? lookup(F, callee->name) ? lookup(F, callee->name)->value : NULL : NULL;
        if (!fv || fv->kind == DL_KIND_FUNCTION || fv->kind == DL_KIND_UNKNOWN) return false;
    }
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (dl_value_on_device(argv[i]) && argv[i]->kind != DL_KIND_UNKNOWN &&
            argv[i]->kind != DL_KIND_DEVICE)
            return true;
    return false;
}

/* Code devlint does not see (a project helper, another library, a method of an unknown
 * object) may wait for the device itself: after it, no work is known to be pending. */
static bool may_synchronize(Flow *F, const DlExpr *call, const char *q, const DlValue *recv) {
    if (recv) return recv->kind == DL_KIND_UNKNOWN && !recv->dev;
    if (q) return !dl_torch_owns(q);
    const DlExpr *callee = call->object;
    if (callee->kind != DL_EX_NAME) return true;
    const Binding *b = lookup(F, callee->name);
    if (!b) return !dl_project_import(F->env->file, callee->name) ? false : true; /* builtins */
    return !b->value || b->value->kind == DL_KIND_FUNCTION || b->value->kind == DL_KIND_UNKNOWN;
}

/* The clock and the device queue, for DL203: "<device-work>" is bound to the last device
 * work queued and not yet waited for; a clock reading remembers which one was pending. */
static const DlValue *clock_read(Flow *F, const DlExpr *call) {
    const Binding *work = state_find(F->st, "<device-work>");
    DlValue *c = mk(F, DL_KIND_CLOCK);
    c->dev_span = call->span;
    c->elem = work ? work->value : NULL;
    return c;
}

/* `end - start`: device work queued after `start` and still pending when `end` was read. */
static void timing(Flow *F, const DlExpr *site, const DlValue *end, const DlValue *start) {
    if (!F->env->report || !end->elem || end->elem == start->elem) return;
    DlTimingFact fact = {site, end->dev_span, start->dev_span, end->elem->dev_span, &F->place};
    dl_rule_dispatch_timing(F->env->report, &fact);
}

static void device_work(Flow *F, const DlExpr *call) {
    DlValue *w = mk(F, DL_KIND_OTHER);
    w->dev_span = call->span;
    state_set(F->st, "<device-work>", w);
}

static bool binds_key(Flow *F, const DlBlock *b, const char *key, int depth);

/* Does assignment target `t` (a name, attribute or nested tuple of them) bind `key`? */
static bool target_binds_key(Flow *F, const DlExpr *t, const char *key, int depth) {
    if (!t || depth > 16) return false;
    if (t->kind == DL_EX_TUPLE || t->kind == DL_EX_LIST) {
        for (uint32_t i = 0; i < t->item_count; i++)
            if (target_binds_key(F, t->items[i], key, depth + 1)) return true;
        return false;
    }
    if (t->kind == DL_EX_STARRED) return target_binds_key(F, t->object, key, depth + 1);
    const char *k = key_of(F, t);
    return k && strcmp(k, key) == 0;
}

/* Is `key` (re)bound anywhere in the batch loop (its target or its body)? */
static bool loop_binds(Flow *F, const DlStmt *loop, const char *key) {
    if (loop->kind == DL_ST_FOR && loop->target_count &&
        target_binds_key(F, loop->targets[0], key, 0))
        return true;
    return binds_key(F, &loop->body, key, 0);
}

static bool binds_key(Flow *F, const DlBlock *b, const char *key, int depth) {
    if (depth > 64) return true;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        for (uint32_t t = 0; t < s->target_count; t++)
            if (target_binds_key(F, s->targets[t], key, 0)) return true;
        /* x.copy_(...), x.add_(...): changed in place */
        if (s->kind == DL_ST_EXPR && s->value && s->value->kind == DL_EX_CALL &&
            s->value->object->kind == DL_EX_ATTR) {
            const char *m = s->value->object->name;
            const char *recv = key_of(F, s->value->object->object);
            if (recv && strcmp(recv, key) == 0 && m[strlen(m) - 1] == '_') return true;
        }
        if (binds_key(F, &s->body, key, depth + 1) || binds_key(F, &s->orelse, key, depth + 1) ||
            binds_key(F, &s->finalbody, key, depth + 1))
            return true;
        for (uint32_t h = 0; h < s->handler_count; h++)
            if (binds_key(F, &s->handlers[h], key, depth + 1)) return true;
    }
    return false;
}

/* Does `e` denote the same value in every iteration of `loop`: no name or attribute it
 * reads is (re)bound by the loop? (`luma.to(device)`, `torch.tensor([0.3, 0.6]).to(device)`) */
static bool expr_invariant(Flow *F, const DlStmt *loop, const DlExpr *e, int depth) {
    if (!e) return true;
    if (depth > 16) return false;
    if (e->kind == DL_EX_NAME)
        for (int i = 0; i < F->comp_count; i++) /* a comprehension's own variable */
            if (strcmp(F->comp_names[i], e->name) == 0) return false;
    const char *key = key_of(F, e);
    if (key) return !loop_binds(F, loop, key) && !(e->kind == DL_EX_ATTR && strchr(key, '.') &&
                                                   !expr_invariant(F, loop, e->object, depth + 1));
    switch (e->kind) {
    case DL_EX_NUMBER:
    case DL_EX_STRING:
    case DL_EX_CONST: return true;
    case DL_EX_CALL: {
        /* torch's own functions and tensor methods are pure; next(it), helpers, are not */
        const char *q = qualify(F, e->object);
        bool pure = (q && dl_torch_owns(q)) ||
                    (!q && e->object->kind == DL_EX_ATTR &&
                     dl_tensor_method_keeps_device(e->object->name));
        if (!pure) return false;
        for (uint32_t i = 0; i < e->arg_count; i++)
            if (!expr_invariant(F, loop, e->args[i].value, depth + 1)) return false;
        return q || expr_invariant(F, loop, e->object->object, depth + 1);
    }
    case DL_EX_ATTR: return expr_invariant(F, loop, e->object, depth + 1);
    case DL_EX_TUPLE:
    case DL_EX_LIST:
    case DL_EX_BINOP:
    case DL_EX_UNARY:
    case DL_EX_SUBSCRIPT:
        if (e->object && !expr_invariant(F, loop, e->object, depth + 1)) return false;
        for (uint32_t i = 0; i < e->item_count; i++)
            if (!expr_invariant(F, loop, e->items[i], depth + 1)) return false;
        return true;
    default: return false;
    }
}

/* Host syncs: reading a device tensor's value on the CPU. */
static void sync(Flow *F, const DlExpr *site, const DlExpr *tensor, const DlValue *v,
                 const char *how) {
    /* the host waits for the device whenever it reads a tensor's value (wherever it lives) */
    if (is_tensor(v) || v->kind == DL_KIND_UNKNOWN) state_set(F->st, "<device-work>", NULL);
    if (!is_tensor(v) || !dl_value_on_device(v)) return;
    if (v->dev == DL_DEV_MODULE && !F->env->project->uses_devices) return;
    if (!F->env->report) return;
    DlSyncFact fact = {site, tensor, v, how, &F->place};
    dl_rule_dispatch_sync(F->env->report, &fact);
}

static void sync_facts(Flow *F, const DlExpr *call, const char *q, const DlExpr *recv_expr,
                       const DlValue *recv, const DlValue *const *argv) {
    if (recv && recv_expr) {
        const char *m = call->object->name;
        if (strcmp(m, "item") == 0 || strcmp(m, "tolist") == 0 || strcmp(m, "numpy") == 0 ||
            strcmp(m, "cpu") == 0)
            sync(F, call, recv_expr, recv, m);
        return;
    }
    const DlExpr *a0 = dl_ir_positional(call, 0);
    if (!a0 || !call->arg_count) return;
    const DlValue *v0 = argv[0];
    if (q) {
        static const char *const host[][2] = {
            {"numpy.asarray", "np.asarray"}, {"numpy.array", "np.array"},
            {"matplotlib.pyplot.plot", "plt.plot"}, {"matplotlib.pyplot.imshow", "plt.imshow"},
            {"matplotlib.pyplot.scatter", "plt.scatter"}, {"matplotlib.pyplot.hist", "plt.hist"}};
        for (size_t i = 0; i < sizeof host / sizeof host[0]; i++)
            if (strcmp(q, host[i][0]) == 0) {
                for (uint32_t k = 0; k < call->arg_count; k++)
                    if (!call->args[k].keyword) sync(F, call, call->args[k].value, argv[k], host[i][1]);
                return;
            }
        return;
    }
    if (call->object->kind != DL_EX_NAME || lookup(F, call->object->name)) return;
    const char *name = call->object->name;
    if (strcmp(name, "print") == 0) {
        for (uint32_t k = 0; k < call->arg_count; k++)
            if (!call->args[k].keyword) sync(F, call, call->args[k].value, argv[k], "print");
    } else if (strcmp(name, "float") == 0 || strcmp(name, "int") == 0 ||
               strcmp(name, "bool") == 0) {
        sync(F, call, a0, v0, name);
    }
}

static const DlValue *call_target_device(Flow *F, const DlExpr *call, const char *q,
                                         const char *method, const DlValue *recv,
                                         const DlValue *const *argv) {
    if (method && recv && (is_tensor(recv) || is_module_like(recv) || recv->kind == DL_KIND_UNKNOWN) &&
        is_move_method(method))
        return move_target(F, call, method, argv);
    if (q && dl_torch_factory(q)) return device_keyword(F, call, argv);
    if (q && dl_torch_is_module_class(q)) return device_keyword(F, call, argv);
    return NULL;
}

/* A name bound to a device variable here (locals first, then globals), preferring `device`. */
static const char *device_in_scope(Flow *F) {
    const DlFlowState *scopes[2] = {F->st, F->env->globals};
    for (int k = 0; k < 2; k++) {
        const DlFlowState *st = scopes[k];
        if (!st) continue;
        const char *found = NULL;
        for (uint32_t i = 0; i < st->count; i++) {
            const DlValue *v = st->items[i].value;
            if (!v || v->kind != DL_KIND_DEVICE || v->dev != DL_DEV_NAMED) continue;
            if (strcmp(st->items[i].key, "device") == 0) return "device";
            if (!found && !strchr(st->items[i].key, '<')) found = st->items[i].key;
        }
        if (found) return found;
    }
    return NULL;
}

static const DlValue *eval_call(Flow *F, const DlExpr *call) {
    const DlValue *stack_argv[16];
    const DlValue **argv = call->arg_count <= 16
                               ? stack_argv
                               : dl_arena_alloc(F->arena, call->arg_count * sizeof *argv);
    const DlExpr *callee = call->object;
    const char *q = qualify(F, callee);
    const DlValue *recv = NULL;
    if (!q && callee && callee->kind == DL_EX_ATTR) {
        const DlExpr *saved = F->move_receiver;
        F->move_receiver = is_move_method(callee->name) ? callee->object : NULL;
        recv = eval(F, callee->object);
        F->move_receiver = saved;
    }
    bool immediately_moved = F->move_receiver == call;
    for (uint32_t i = 0; i < call->arg_count; i++) argv[i] = eval(F, call->args[i].value);

    const DlValue *result = resolve_call(F, call, q, recv, argv);
    const char *method = recv ? callee->name : NULL;
    sync_facts(F, call, q, recv ? callee->object : NULL, recv, argv);

    bool host_read = method && (strcmp(method, "item") == 0 || strcmp(method, "tolist") == 0 ||
                                strcmp(method, "numpy") == 0 || strcmp(method, "cpu") == 0);
    if (q && is_clock(q)) result = clock_read(F, call);
    else if (is_synchronize(q, method)) state_set(F->st, "<device-work>", NULL);
    else if (!host_read && touches_device(F, call, q, recv, argv, result)) device_work(F, call);
    else if (!host_read && may_synchronize(F, call, q, recv)) state_set(F->st, "<device-work>", NULL);

    if (!F->env->report) return result;
    if (!q && !recv && callee->kind == DL_EX_NAME) q = callee->name; /* builtins, local functions */
    DlCallFact fact = {call, q, method, recv ? callee->object : NULL, recv, argv, result,
                       call_target_device(F, call, q, method, recv, argv), false, NULL,
                       immediately_moved, &F->place};
    if (q && strcmp(q, "torch.load") == 0) fact.device_in_scope = device_in_scope(F);
    if (method && F->place.batch_loop)
        fact.receiver_invariant = expr_invariant(F, F->place.batch_loop, callee->object, 0);
    dl_rule_dispatch_call(F->env->report, &fact);
    return result;
}

/* ---------------------------------------------------------------- expressions */

static const DlValue *element_of(Flow *F, const DlValue *v, DlSpan target_span) {
    if (v->kind == DL_KIND_LOADER) {
        if (v->elem) return v->elem;
        DlValue *b = mk_tensor(F, DL_DEV_CPU, NULL, DL_ORIGIN_BATCH, target_span);
        b->flags |= DL_VF_WHOLE_BATCH | (v->flags & (DL_VF_PIN_KNOWN | DL_VF_PINNED));
        b->dev_why = v->var ? dl_arena_printf(F->arena, "a batch from `%s`", v->var)
                            : dl_arena_printf(F->arena, "a batch from %s",
                                              v->dev_why ? v->dev_why : "the data loader");
        return b;
    }
    if (v->kind == DL_KIND_SEQ && v->elem) return v->elem;
    if (is_tensor(v)) { /* rows of a tensor, items of a batch list: tensors on its device */
        DlValue *part = dl_value_copy(F->arena, v);
        part->flags &= (uint16_t)~(DL_VF_WHOLE_BATCH | DL_VF_REGISTERED);
        part->var = NULL;
        return part;
    }
    if (v->kind == DL_KIND_SEQ && v->items && v->item_count) {
        const DlValue *j = v->items[0];
        for (uint32_t i = 1; i < v->item_count; i++) j = dl_value_join(F->arena, j, v->items[i]);
        return j;
    }
    return unknown();
}

static const DlValue *imported_global(Flow *F, const char *qualified);

static const DlValue *eval_attr(Flow *F, const DlExpr *e) {
    const char *key = key_of(F, e);
    if (key) {
        const Binding *b = lookup(F, key);
        if (b && b->value) return b->value;
    }
    const char *q = qualify(F, e);
    if (q) {
        if (dl_torch_is_dtype(q)) return mk(F, DL_KIND_DTYPE);
        const DlClassInfo *ci = dl_project_find_class(F->env->project, F->env->file, q);
        if (ci) {
            DlValue *c = mk(F, DL_KIND_CLASS);
            c->cls = ci;
            return c;
        }
        return imported_global(F, q);
    }
    const DlValue *obj = eval(F, e->object);
    if (is_tensor(obj)) {
        if (strcmp(e->name, "device") == 0) {
            if (!obj->dev) return named_device(F, key ? key : short_text(F, e->span), e->span);
            DlValue *d = dl_value_copy(F->arena, obj);
            d->kind = DL_KIND_DEVICE;
            return d;
        }
        if (dl_tensor_attr_keeps_device(e->name)) {
            DlValue *r = dl_value_copy(F->arena, obj);
            r->var = NULL;
            return r;
        }
        return mk(F, DL_KIND_OTHER);
    }
    if (obj->kind == DL_KIND_MODULE && !obj->cls &&
        (strcmp(e->name, "weight") == 0 || strcmp(e->name, "bias") == 0 ||
         strcmp(e->name, "running_mean") == 0 || strcmp(e->name, "running_var") == 0)) {
        /* a library module's parameters and buffers live where the module does */
        DlValue *t = with_device(F, mk(F, DL_KIND_TENSOR), obj, DL_ORIGIN_NONE, obj->dev_span);
        t->dev_why = obj->dev_why;
        t->flags |= DL_VF_REGISTERED;
        return t;
    }
    if (obj->kind == DL_KIND_MODULE && strcmp(e->name, "device") == 0 && obj->dev) {
        if (obj->dev == DL_DEV_CPU && !(obj->flags & DL_VF_MOVED)) return unknown();
        DlValue *d = dl_value_copy(F->arena, obj);
        d->kind = DL_KIND_DEVICE;
        return d;
    }
    if ((obj->kind == DL_KIND_MODULE || obj->kind == DL_KIND_INSTANCE) && obj->cls) {
        const DlAttr *a = dl_project_attr(obj->cls, e->name);
        if (a && obj->kind == DL_KIND_MODULE && (a->value->flags & DL_VF_REGISTERED) &&
            (a->value->kind == DL_KIND_TENSOR || is_module_like(a->value))) {
            DlValue *r = dl_value_copy(F->arena, a->value); /* moves with its module */
            r->dev = obj->dev;
            r->dev_name = obj->dev_name;
            r->dev_span = obj->dev_span;
            r->dev_why = obj->dev_why;
            return r;
        }
        if (a && obj->kind == DL_KIND_INSTANCE) {
            /* a device an instance got from its constructor's parameters is not known here */
            const DlClassInfo *ci = obj->cls;
            const DlFunctionInfo *init = dl_project_method(F->env->project, ci, "__init__");
            const DlValue *v = rebase(F, a->value, ci->module);
            return init ? bind_parameter_device(F, v, init->fn, NULL, NULL, true) : v;
        }
    }
    if (name_says_device(e->name)) return named_device(F, key ? key : short_text(F, e->span), e->span);
    return unknown();
}

/* `from config import DEVICE` / `config.DEVICE`: another file's module-level value. */
static const DlValue *imported_global(Flow *F, const char *qualified) {
    const DlValue *v = dl_project_find_global(F->env->project, qualified);
    if (!v || (v->kind != DL_KIND_DEVICE && v->kind != DL_KIND_TENSOR && v->kind != DL_KIND_SCALAR &&
               v->kind != DL_KIND_STRING))
        return unknown();
    const DlFileFacts *from = NULL;
    for (uint32_t i = 0; i < F->env->project->file_count; i++)
        if (F->env->project->globals && dl_flow_lookup(F->env->project->globals[i],
                                                        strrchr(qualified, '.') + 1) == v)
            from = &F->env->project->files[i];
    return rebase(F, v, from ? from->module : NULL);
}

static const DlValue *eval_name(Flow *F, const DlExpr *e) {
    const Binding *b = lookup(F, e->name);
    if (b && b->value) return b->value;
    const char *q = dl_project_import(F->env->file, e->name);
    if (q) {
        if (dl_torch_is_dtype(q)) return mk(F, DL_KIND_DTYPE);
        const DlClassInfo *ci = dl_project_find_class(F->env->project, F->env->file, q);
        if (ci) {
            DlValue *c = mk(F, DL_KIND_CLASS);
            c->cls = ci;
            return c;
        }
        const DlFunctionInfo *fi = dl_project_find_function(F->env->project, F->env->file, q);
        if (fi) {
            DlValue *c = mk(F, DL_KIND_FUNCTION);
            c->cls = fi;
            return c;
        }
        return imported_global(F, q);
    }
    return unknown();
}

/* Evaluates the index of `e` (object already evaluated) and reports tensor indexing. True
 * when a cpu tensor is indexed with a device tensor (the operation fails). */
static bool index_fact(Flow *F, const DlExpr *e, const DlValue *obj, bool store) {
    bool mismatch = false;
    for (uint32_t i = 0; i < e->item_count; i++) {
        const DlValue *idx = eval(F, e->items[i]);
        if (!is_tensor(obj) || !is_tensor(idx)) continue;
        if (dl_value_is_cpu_tensor(obj) && idx->dev && idx->dev != DL_DEV_CPU) mismatch = true;
        if (!F->env->report) continue;
        DlIndexFact fact = {e, e->object, e->items[i], obj, idx, store, &F->place};
        dl_rule_dispatch_index(F->env->report, &fact);
    }
    return mismatch;
}

static const DlValue *eval_subscript(Flow *F, const DlExpr *e) {
    const char *key = key_of(F, e);
    if (key) {
        const Binding *b = lookup(F, key);
        if (b && b->value) return b->value;
    }
    const DlValue *obj = eval(F, e->object);
    bool mismatch = index_fact(F, e, obj, false);
    if (is_tensor(obj)) {
        DlValue *r = dl_value_copy(F->arena, obj);
        r->var = NULL;
        r->flags &= (uint16_t)~DL_VF_WHOLE_BATCH;
        if (mismatch) { /* DL114: the indexing fails; do not cascade */
            r->dev = DL_DEV_UNKNOWN;
            r->origin = DL_ORIGIN_NONE;
        }
        return r;
    }
    if (obj->kind == DL_KIND_SEQ) {
        if (obj->items && e->item_count == 1 && e->items[0]->kind == DL_EX_NUMBER) {
            long idx = strtol(e->items[0]->name, NULL, 10);
            if (idx >= 0 && (uint32_t)idx < obj->item_count) return obj->items[idx];
        }
        if (obj->elem) return obj->elem;
    }
    if (key && name_says_device(key)) return named_device(F, key, e->span);
    return unknown();
}

/* {"batch_size": 32, "pin_memory": True}: loader keyword arguments in a dict (DL202). */
static uint16_t dict_pin_flags(const DlExpr *e) {
    for (uint32_t i = 0; i + 1 < e->item_count; i += 2) {
        const DlExpr *k = e->items[i], *v = e->items[i + 1];
        if (!k || k->kind != DL_EX_STRING || !k->name) return 0; /* **other or computed keys */
        if (strcmp(k->name, "pin_memory") != 0) continue;
        if (v->kind == DL_EX_CONST && strcmp(v->name, "True") == 0)
            return DL_VF_PIN_KNOWN | DL_VF_PINNED;
        return v->kind == DL_EX_CONST && strcmp(v->name, "False") == 0 ? DL_VF_PIN_KNOWN : 0;
    }
    return DL_VF_PIN_KNOWN;
}

static const DlValue *eval_sequence(Flow *F, const DlExpr *e) {
    DlValue *s = mk(F, DL_KIND_SEQ);
    bool dict = e->kind == DL_EX_DICT;
    uint32_t n = dict ? e->item_count / 2 : e->item_count;
    const DlValue **items = n ? dl_arena_alloc(F->arena, n * sizeof *items) : NULL;
    const DlValue *elem = NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (dict && e->items[2 * i]) eval(F, e->items[2 * i]);
        const DlExpr *x = dict ? e->items[2 * i + 1] : e->items[i];
        const DlValue *v = x ? eval(F, x) : unknown();
        items[i] = v;
        elem = elem ? dl_value_join(F->arena, elem, v) : v;
        if (is_module_like(v) || (is_tensor(v) && (v->flags & DL_VF_REGISTERED)))
            s->flags |= DL_VF_HAS_MODULES;
    }
    if (!dict) {
        s->items = items;
        s->item_count = n;
    } else {
        s->flags |= dict_pin_flags(e);
    }
    s->elem = elem && elem->kind != DL_KIND_UNKNOWN ? elem : NULL;
    s->dev_span = e->span;
    return s;
}

static void bind(Flow *F, const DlExpr *target, const DlValue *v);

static const DlValue *eval_comprehension(Flow *F, const DlExpr *e) {
    const DlValue *iter = e->iter ? eval(F, e->iter) : unknown();
    DlFlowState *saved = F->st;
    F->st = state_copy(saved);
    int saved_comp = F->comp_count;
    if (e->target && e->target->kind == DL_EX_NAME && F->comp_count < 16)
        F->comp_names[F->comp_count++] = e->target->name;
    if (e->target) bind(F, e->target, element_of(F, iter, e->target->span));
    for (uint32_t i = 0; i < e->item_count; i++) eval(F, e->items[i]);
    const DlValue *elem = e->object ? eval(F, e->object) : unknown();
    F->comp_count = saved_comp;
    dl_flow_state_free(F->st);
    F->st = saved;
    DlValue *s = mk(F, DL_KIND_SEQ);
    s->elem = elem->kind != DL_KIND_UNKNOWN ? elem : NULL;
    if (is_module_like(elem) || (is_tensor(elem) && (elem->flags & DL_VF_REGISTERED)))
        s->flags |= DL_VF_HAS_MODULES;
    s->dev_span = e->span;
    return s;
}

static bool is_arith(const char *op) {
    static const char *const ops[] = {"+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^",
                                      NULL};
    for (const char *const *o = ops; *o; o++)
        if (strcmp(op, *o) == 0) return true;
    return false;
}

static const DlValue *binary_values(Flow *F, const DlExpr *e, const DlExpr *const *operands,
                                    const DlValue *const *values, uint32_t n);

/* Operands are evaluated left to right first; `end - start` of two clock readings is a
 * timing (DL203), everything else combines tensors. */
static const DlValue *eval_binary(Flow *F, const DlExpr *e, const DlExpr *const *operands,
                                  uint32_t n) {
    const DlValue *values[32];
    if (n > 32) n = 32;
    for (uint32_t i = 0; i < n; i++) values[i] = eval(F, operands[i]);
    if (e->kind == DL_EX_BINOP && strcmp(e->name, "-") == 0 && n == 2 &&
        values[0]->kind == DL_KIND_CLOCK && values[1]->kind == DL_KIND_CLOCK) {
        timing(F, e, values[0], values[1]);
        return mk(F, DL_KIND_SCALAR);
    }
    return binary_values(F, e, operands, values, n);
}

static const DlValue *binary_values(Flow *F, const DlExpr *e, const DlExpr *const *operands,
                                    const DlValue *const *values, uint32_t n) {
    OperandList ops = {0};
    const DlValue *first = NULL;
    bool any_tensor = false, all_scalar = true, any_string = false;
    for (uint32_t i = 0; i < n; i++) {
        const DlValue *v = values[i];
        if (!first) first = v;
        if (is_tensor(v)) any_tensor = true;
        if (v->kind != DL_KIND_SCALAR) all_scalar = false;
        if (v->kind == DL_KIND_STRING) any_string = true;
        if (is_tensor(v)) add_operand(&ops, operands[i], v);
    }
    if (any_tensor) {
        if (ops.count > 1) meet(F, e, ops.items, ops.count, -1);
        DlValue *r = combine(F, e, ops.items, ops.count);
        if (dl_value_on_device(r)) device_work(F, e); /* a @ b on the GPU */
        return r;
    }
    if (all_scalar) return mk(F, DL_KIND_SCALAR);
    if (any_string && e->kind == DL_EX_BINOP) return mk(F, DL_KIND_STRING);
    return unknown();
}

static const DlValue *eval_inner(Flow *F, const DlExpr *e) {
    switch (e->kind) {
    case DL_EX_NAME: return eval_name(F, e);
    case DL_EX_ATTR: return eval_attr(F, e);
    case DL_EX_CALL: return eval_call(F, e);
    case DL_EX_SUBSCRIPT: return eval_subscript(F, e);
    case DL_EX_NUMBER: {
        DlValue *n = mk(F, DL_KIND_SCALAR);
        n->literal = e->name;
        return n;
    }
    case DL_EX_STRING: {
        for (uint32_t i = 0; i < e->item_count; i++) { /* f"{loss:.3f}" formats on the host */
            const DlValue *v = eval(F, e->items[i]);
            sync(F, e->items[i], e->items[i], v, "format");
        }
        DlValue *s = mk(F, DL_KIND_STRING);
        s->literal = e->name;
        s->dev_span = e->span;
        return s;
    }
    case DL_EX_CONST:
        if (strcmp(e->name, "None") == 0) return mk(F, DL_KIND_NONE);
        if (strcmp(e->name, "True") == 0 || strcmp(e->name, "False") == 0)
            return mk(F, DL_KIND_SCALAR);
        return mk(F, DL_KIND_OTHER);
    case DL_EX_TUPLE:
    case DL_EX_LIST:
    case DL_EX_SET:
    case DL_EX_DICT: return eval_sequence(F, e);
    case DL_EX_BINOP:
        if (!is_arith(e->name)) {
            for (uint32_t i = 0; i < e->item_count; i++) eval(F, e->items[i]);
            return unknown();
        }
        return eval_binary(F, e, (const DlExpr *const *)e->items, e->item_count);
    case DL_EX_COMPARE: {
        const DlValue *r = eval_binary(F, e, (const DlExpr *const *)e->items, e->item_count);
        return is_tensor(r) ? r : mk(F, DL_KIND_SCALAR);
    }
    case DL_EX_UNARY: {
        const DlValue *v = e->object ? eval(F, e->object) : unknown();
        if (strcmp(e->name, "not") == 0) {
            sync(F, e, e->object, v, "not"); /* `not t` is bool(t) */
            return mk(F, DL_KIND_SCALAR);
        }
        return v;
    }
    case DL_EX_BOOLOP: {
        const DlValue *a = eval(F, e->items[0]);
        sync(F, e->items[0], e->items[0], a, "bool"); /* `t and ...` tests t */
        const DlValue *b = eval(F, e->items[1]);
        return dl_value_join(F->arena, a, b);
    }
    case DL_EX_COND: {
        if (e->item_count < 2 || !e->object) return unknown();
        eval(F, e->items[0]);
        const DlValue *a = eval(F, e->object);
        const DlValue *b = eval(F, e->items[1]);
        if (a->kind == DL_KIND_STRING && b->kind == DL_KIND_STRING) {
            /* "cuda" if cond else "cpu": a device chosen at run time */
            DlDeviceTag ta = device_of_string(a->literal), tb = device_of_string(b->literal);
            if (ta && tb && ta != tb) return named_device(F, NULL, e->span);
        }
        return dl_value_join(F->arena, a, b);
    }
    case DL_EX_COMP: return eval_comprehension(F, e);
    case DL_EX_STARRED: return e->object ? eval(F, e->object) : unknown();
    case DL_EX_AWAIT:
        if (e->object) eval(F, e->object);
        return unknown();
    case DL_EX_WALRUS: {
        const DlValue *v = e->object ? eval(F, e->object) : unknown();
        if (e->target) bind(F, e->target, v);
        return v;
    }
    default: return unknown();
    }
}

static const DlValue *eval(Flow *F, const DlExpr *e) {
    if (!e) return unknown();
    const DlValue *v = eval_inner(F, e);
    return v ? v : unknown();
}

/* ---------------------------------------------------------------- statements */

/* A value as bound to `key`: remembers the name for messages, names a device variable. */
static const DlValue *as_bound(Flow *F, const char *key, const DlValue *v, const DlExpr *target) {
    if (v->kind == DL_KIND_UNKNOWN && !v->dev) return v;
    bool name_device = v->kind == DL_KIND_DEVICE && v->dev == DL_DEV_NAMED && !v->dev_name;
    bool name_var = !v->var && (v->kind == DL_KIND_TENSOR || is_module_like(v) ||
                                v->kind == DL_KIND_LOADER);
    bool plain_attr = F->in_init && (is_tensor(v) || v->kind == DL_KIND_SEQ) &&
                      strncmp(key, "self.", 5) == 0 && !(v->flags & DL_VF_REGISTERED) &&
                      !v->aux_span.end;
    if (!name_device && !name_var && !plain_attr) return v;
    DlValue *c = dl_value_copy(F->arena, v);
    if (name_device) c->dev_name = key;
    if (name_var) c->var = key;
    if (plain_attr) {
        c->aux_span = F->stmt_span;
        c->var = key;
    }
    (void)target;
    return c;
}

static void bind(Flow *F, const DlExpr *target, const DlValue *v) {
    if (!target) return;
    switch (target->kind) {
    case DL_EX_NAME:
    case DL_EX_ATTR:
    case DL_EX_SUBSCRIPT: {
        const char *key = key_of(F, target);
        if (target->kind == DL_EX_SUBSCRIPT) {
            index_fact(F, target, eval(F, target->object), true);
            /* d[k] = v: a container of that value; self.layers[i] = m etc. */
            const char *base = key_of(F, target->object);
            const DlExpr *k0 = target->item_count == 1 ? target->items[0] : NULL;
            if (base && k0 && k0->kind == DL_EX_STRING && k0->name &&
                strcmp(k0->name, "pin_memory") == 0) {
                const Binding *b = lookup(F, base);
                if (b && b->value && b->value->kind == DL_KIND_SEQ) {
                    DlValue *d = dl_value_copy(F->arena, b->value);
                    d->flags &= (uint16_t)~(DL_VF_PIN_KNOWN | DL_VF_PINNED); /* unknown now */
                    state_set(F->st, base, d);
                }
            }
            if (base) {
                const Binding *b = lookup(F, base);
                if (b && b->value && b->value->kind == DL_KIND_SEQ) {
                    DlValue *s = dl_value_copy(F->arena, b->value);
                    s->elem = s->elem ? dl_value_join(F->arena, s->elem, v) : v;
                    if (is_module_like(v)) s->flags |= DL_VF_HAS_MODULES;
                    state_set(F->st, base, s);
                }
            }
        }
        if (key) state_set(F->st, key, as_bound(F, key, v, target));
        return;
    }
    case DL_EX_TUPLE:
    case DL_EX_LIST: {
        for (uint32_t i = 0; i < target->item_count; i++) {
            const DlExpr *t = target->items[i];
            const DlValue *part = unknown();
            if (v->kind == DL_KIND_SEQ && v->items && v->item_count == target->item_count)
                part = v->items[i];
            else if (v->kind == DL_KIND_SEQ && v->elem) part = v->elem;
            else if (is_tensor(v)) part = v; /* rows of a tensor, a model's output tuple */
            if (t->kind == DL_EX_STARRED) {
                bind(F, t->object, unknown());
                continue;
            }
            if (is_tensor(part) && part->origin == DL_ORIGIN_BATCH) {
                DlValue *c = dl_value_copy(F->arena, part);
                c->dev_span = t->span; /* each unpacked batch tensor is its own finding */
                c->var = NULL;
                c->flags &= (uint16_t)~DL_VF_WHOLE_BATCH;
                part = c;
            }
            bind(F, t, part);
        }
        return;
    }
    case DL_EX_STARRED: bind(F, target->object, unknown()); return;
    default: return;
    }
}

static const DlExpr *move_call_of(const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR) return NULL;
    return is_move_method(e->object->name) ? e : NULL;
}

static bool is_seq_loop_var(Flow *F, const DlExpr *e) {
    if (!e || e->kind != DL_EX_NAME) return false;
    for (int i = 0; i < F->seq_loop_count; i++)
        if (strcmp(F->seq_loop_vars[i], e->name) == 0) return true;
    return false;
}

static void discard(Flow *F, const DlStmt *s, const DlExpr *call, const DlValue *recv, bool elem) {
    if (!F->env->report) return;
    DlDiscardFact fact = {s, call, call->object->object, recv, call->object->name, elem};
    dl_rule_dispatch_discard(F->env->report, &fact);
}

static void exec_expr_stmt(Flow *F, const DlStmt *s) {
    const DlExpr *e = s->value;
    if (!e) return;
    const DlExpr *mv = move_call_of(e);
    if (mv) {
        const DlValue *recv = eval(F, mv->object->object);
        if (is_tensor(recv) && !(recv->flags & DL_VF_WHOLE_BATCH)) {
            discard(F, s, mv, recv, is_seq_loop_var(F, mv->object->object));
        } else if (recv->kind == DL_KIND_UNKNOWN) {
            /* a bare x.to(device) on an unknown value is read as a module moved in place */
            const char *key = key_of(F, mv->object->object);
            const DlValue *argv[16] = {0};
            for (uint32_t i = 0; i < mv->arg_count && i < 16; i++)
                argv[i] = eval(F, mv->args[i].value);
            const DlValue *target = mv->arg_count <= 16 ? move_target(F, mv, mv->object->name, argv)
                                                        : NULL;
            if (key && target) {
                DlValue *m = mk(F, DL_KIND_MODULE);
                m->dev = target->dev;
                m->dev_name = target->dev_name;
                m->flags |= DL_VF_MOVED;
                m->dev_span = mv->span;
                m->dev_why = short_text(F, mv->span);
                m->var = key;
                state_set(F->st, key, m);
            }
            return;
        }
    }
    if (e->kind == DL_EX_COMP && e->object && move_call_of(e->object)) {
        /* [t.to(device) for t in tensors] as a statement: the list is thrown away */
        const DlValue *iter = e->iter ? eval(F, e->iter) : unknown();
        const DlValue *elem = element_of(F, iter, e->span);
        const DlExpr *mvc = e->object;
        bool receiver_is_target = e->target && mvc->object->object &&
                                  mvc->object->object->kind == DL_EX_NAME &&
                                  e->target->kind == DL_EX_NAME &&
                                  strcmp(mvc->object->object->name, e->target->name) == 0;
        if (receiver_is_target && is_tensor(elem)) discard(F, s, mvc, elem, true);
        return;
    }
    eval(F, e);
}

static void exec_assign(Flow *F, const DlStmt *s) {
    const DlValue *v = s->value ? eval(F, s->value) : unknown();
    if (s->annotation && v->kind == DL_KIND_UNKNOWN) {
        const char *q = qualify(F, s->annotation);
        if (q && strcmp(q, "torch.Tensor") == 0) v = mk(F, DL_KIND_TENSOR);
    }
    for (uint32_t i = 0; i < s->target_count; i++) bind(F, s->targets[i], v);
}

static void exec_augassign(Flow *F, const DlStmt *s) {
    const DlExpr *t = s->targets[0];
    const DlValue *tv = eval(F, t);
    const DlValue *v = eval(F, s->value);
    if (is_tensor(tv) && is_tensor(v)) {
        /* the target of an in-place op may not be a cpu tensor when the operand is on a
         * device, 0-dim or not (`cpu_total += cuda_loss` fails) */
        const DlValue *target = tv;
        if ((tv->flags & DL_VF_ZERO_DIM) && tv->dev == DL_DEV_CPU && dl_value_on_device(v)) {
            DlValue *c = dl_value_copy(F->arena, tv);
            c->flags &= (uint16_t)~DL_VF_ZERO_DIM;
            target = c;
        }
        DlOperand ops[2] = {{t, target}, {s->value, v}};
        meet(F, s->value, ops, 2, -1);
        bind(F, t, combine(F, s->value, ops, 2));
        return;
    }
    if (tv->kind == DL_KIND_SCALAR && v->kind == DL_KIND_SCALAR) return;
    if (tv->kind == DL_KIND_SEQ) return;
    bind(F, t, is_tensor(v) && tv->kind == DL_KIND_SCALAR ? v : unknown());
}

static bool names_in(const DlExpr *e, const char *name, int depth) {
    if (!e || depth > 16) return false;
    if (e->kind == DL_EX_NAME) return strcmp(e->name, name) == 0;
    if (e->object && names_in(e->object, name, depth + 1)) return true;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (names_in(e->items[i], name, depth + 1)) return true;
    return false;
}

/* A loop whose every iteration is a training/eval step: over a data loader (enumerate and
 * tqdm keep it one), or a `while` whose condition tests a counter the body increments. */
static bool is_batch_loop(Flow *F, const DlStmt *s, const DlValue *iter) {
    if (s->kind == DL_ST_FOR) return iter && iter->kind == DL_KIND_LOADER;
    for (uint32_t i = 0; i < s->body.count; i++) {
        const DlStmt *b = s->body.items[i];
        if (b->kind == DL_ST_AUGASSIGN && b->targets[0]->kind == DL_EX_NAME &&
            strcmp(b->op, "+=") == 0 && names_in(s->value, b->targets[0]->name, 0))
            return true;
    }
    (void)F;
    return false;
}

static void exec_loop(Flow *F, const DlStmt *s) {
    const DlValue *iter = NULL;
    bool seq_loop = false;
    if (s->kind == DL_ST_FOR) {
        iter = eval(F, s->value);
        seq_loop = iter->kind == DL_KIND_SEQ && is_tensor(element_of(F, iter, s->span)) &&
                   s->targets[0]->kind == DL_EX_NAME && F->seq_loop_count < 16;
        if (seq_loop) F->seq_loop_vars[F->seq_loop_count++] = s->targets[0]->name;
    } else {
        eval(F, s->value);
    }
    DlPlace saved_place = F->place;
    if (is_batch_loop(F, s, iter)) {
        F->place.batch_loop = s;
        F->place.every_iteration = true;
    }
    F->loop_depth++;
    int rounds = F->loop_depth > 2 ? 1 : DL_LOOP_ROUNDS;
    DlFlowState *head = state_copy(F->st);
    for (int round = 0; round < rounds; round++) {
        DlFlowState *saved = F->st;
        F->st = state_copy(head);
        if (iter) bind(F, s->targets[0], element_of(F, iter, s->targets[0]->span));
        exec_block(F, &s->body);
        F->st->dead = false; /* break/continue end an iteration, not the loop */
        DlFlowState *next = state_copy(head);
        state_join(F->arena, next, F->st);
        dl_flow_state_free(F->st);
        F->st = saved;
        bool stable = state_equal(next, head);
        dl_flow_state_free(head);
        head = next;
        if (stable) break;
    }
    F->loop_depth--;
    F->place = saved_place;
    if (seq_loop) F->seq_loop_count--;
    bool was_dead = F->st->dead;
    state_replace(F->st, head);
    F->st->dead = was_dead;
    exec_block(F, &s->orelse);
}

static const DlValue *torch_device_context(Flow *F, const DlExpr *with) {
    if (!with || with->kind != DL_EX_CALL) return NULL;
    const char *q = qualify(F, with->object);
    if (!q || strcmp(q, "torch.device") != 0) return NULL;
    const DlValue *v = eval(F, with);
    return v->kind == DL_KIND_DEVICE ? v : NULL;
}

static void exec_with(Flow *F, const DlStmt *s) {
    const DlValue *saved_default = F->default_device;
    const DlExpr *saved_cuda = F->place.cuda_context;
    for (uint32_t i = 0; i < s->with_count; i++) {
        const DlValue *dev = torch_device_context(F, s->withs[i]);
        if (dev) {
            F->default_device = dev;
            continue;
        }
        const DlExpr *w = s->withs[i];
        const char *q = w && w->kind == DL_EX_CALL ? qualify(F, w->object) : NULL;
        if (q && strcmp(q, "torch.cuda.device") == 0) F->place.cuda_context = w; /* DL110 */
        eval(F, s->withs[i]);
        if (s->targets[i]) bind(F, s->targets[i], unknown());
    }
    exec_block(F, &s->body);
    F->default_device = saved_default;
    F->place.cuda_context = saved_cuda;
}

static void exec_try(Flow *F, const DlStmt *s) {
    DlFlowState *before = state_copy(F->st);
    exec_block(F, &s->body);
    exec_block(F, &s->orelse);
    DlFlowState *after = F->st;
    for (uint32_t i = 0; i < s->handler_count; i++) {
        F->st = state_copy(before);
        state_join(F->arena, F->st, after);
        exec_block(F, &s->handlers[i]);
        state_join(F->arena, after, F->st);
        dl_flow_state_free(F->st);
    }
    F->st = after;
    dl_flow_state_free(before);
    bool was_dead = F->st->dead;
    F->st->dead = false;
    exec_block(F, &s->finalbody);
    F->st->dead = was_dead || F->st->dead;
}

/* `if step % 100 == 0:` / `if i == 0:` / `if is_last_batch:`-style conditions run their body
 * on some iterations only. */
static bool periodic_condition(const DlExpr *e, int depth) {
    if (!e || depth > 16) return false;
    if (e->kind == DL_EX_BINOP && strcmp(e->name, "%") == 0) return true;
    if (e->kind == DL_EX_COMPARE) return true;
    if (e->kind == DL_EX_BOOLOP)
        return periodic_condition(e->items[0], depth + 1) || periodic_condition(e->items[1], depth + 1);
    if (e->kind == DL_EX_UNARY) return periodic_condition(e->object, depth + 1);
    return false;
}

static void exec_if(Flow *F, const DlStmt *s) {
    const DlValue *cond = eval(F, s->value);
    sync(F, s->value, s->value, cond, "if");
    DlFlowState *saved = F->st;
    F->st = state_copy(saved);
    DlPlace saved_place = F->place;
    if (F->place.every_iteration && periodic_condition(s->value, 0))
        F->place.every_iteration = false;
    exec_block(F, &s->body);
    F->place = saved_place;
    DlFlowState *then_state = F->st;
    F->st = saved;
    exec_block(F, &s->orelse);
    /* `if device.type == "cuda": torch.cuda.synchronize()`: without CUDA nothing is pending */
    const Binding *then_work = state_find(then_state, "<device-work>");
    bool synced_when_cuda = then_work && !then_work->value && !s->orelse.count &&
                            (strstr(text(F, s->value->span), "cuda") ||
                             strstr(text(F, s->value->span), "device"));
    state_join(F->arena, F->st, then_state);
    if (synced_when_cuda) state_set(F->st, "<device-work>", NULL);
    if (then_state->dead && F->st->dead) F->st->dead = true;
    dl_flow_state_free(then_state);
}

static void exec_stmt(Flow *F, const DlStmt *s) {
    DlSpan saved_span = F->stmt_span;
    F->stmt_span = s->span;
    switch (s->kind) {
    case DL_ST_EXPR: exec_expr_stmt(F, s); break;
    case DL_ST_ASSIGN: exec_assign(F, s); break;
    case DL_ST_AUGASSIGN: exec_augassign(F, s); break;
    case DL_ST_RETURN: {
        const DlValue *v = s->value ? eval(F, s->value) : mk(F, DL_KIND_NONE);
        F->ret = F->ret ? dl_value_join(F->arena, F->ret, v) : v;
        F->st->dead = true;
        break;
    }
    case DL_ST_RAISE:
    case DL_ST_BREAK:
    case DL_ST_CONTINUE: F->st->dead = true; break;
    case DL_ST_IF: exec_if(F, s); break;
    case DL_ST_FOR:
    case DL_ST_WHILE: exec_loop(F, s); break;
    case DL_ST_WITH: exec_with(F, s); break;
    case DL_ST_TRY: exec_try(F, s); break;
    case DL_ST_DEF: {
        const DlFunctionInfo *fi = dl_project_function_of(F->env->project, s->func);
        DlValue *v = mk(F, DL_KIND_FUNCTION);
        v->cls = fi;
        if (!fi) v->kind = DL_KIND_OTHER;
        state_set(F->st, s->func->name, v);
        break;
    }
    case DL_ST_CLASS: {
        const DlClassInfo *ci = dl_project_class_of(F->env->project, s->cls);
        DlValue *v = mk(F, DL_KIND_CLASS);
        v->cls = ci;
        if (!ci) v->kind = DL_KIND_OTHER;
        state_set(F->st, s->cls->name, v);
        break;
    }
    case DL_ST_IMPORT:
        for (uint32_t i = 0; i < s->import_count; i++)
            if (s->imports[i].alias && state_find(F->st, s->imports[i].alias))
                state_set(F->st, s->imports[i].alias, NULL);
        break;
    default: break;
    }
    F->stmt_span = saved_span;
}

static void exec_block(Flow *F, const DlBlock *b) {
    for (uint32_t i = 0; i < b->count; i++) {
        if (F->st->dead) return;
        exec_stmt(F, b->items[i]);
    }
}

/* ---------------------------------------------------------------- entry */

static const DlValue *param_value(Flow *F, const DlFunction *fn, uint32_t i) {
    const DlParam *p = &fn->params[i];
    if (p->star) return unknown();
    if (i == 0 && F->owner && strcmp(p->name, "self") == 0) {
        DlValue *self = mk(F, F->owner->is_module ? DL_KIND_MODULE : DL_KIND_INSTANCE);
        if (F->owner->is_module) {
            self->dev = DL_DEV_MODULE;
            self->flags |= DL_VF_REGISTERED;
        }
        self->cls = F->owner;
        self->var = "self";
        return self;
    }
    if (p->annotation) {
        const char *q = qualify(F, p->annotation);
        if (q && strcmp(q, "torch.Tensor") == 0) {
            DlValue *t = mk(F, DL_KIND_TENSOR);
            if (F->is_forward) t->dev = DL_DEV_MODULE, t->origin = DL_ORIGIN_INPUT;
            t->var = p->name;
            t->dev_span = p->span;
            t->dev_why = dl_arena_printf(F->arena, "an input of %s", fn->name);
            return t;
        }
        if (q && dl_torch_is_module_class(q)) return mk(F, DL_KIND_MODULE);
        const DlClassInfo *ci = dl_project_find_class(F->env->project, F->env->file,
                                                      q ? q : (p->annotation->kind == DL_EX_NAME
                                                                   ? p->annotation->name
                                                                   : ""));
        if (ci && ci->is_module) {
            DlValue *m = mk(F, DL_KIND_MODULE);
            m->cls = ci;
            return m;
        }
        if (q && strcmp(q, "torch.device") == 0) return named_device(F, p->name, p->span);
        if (q && dl_torch_is_dataloader(q)) return loader_value(F, p->span);
    }
    if (name_says_device(p->name) && !p->default_value) return named_device(F, p->name, p->span);
    if (name_says_device(p->name) && p->default_value &&
        p->default_value->kind != DL_EX_CONST)
        return named_device(F, p->name, p->span);
    if (strcmp(p->name, "optimizer") == 0 || strcmp(p->name, "optim") == 0 ||
        strcmp(p->name, "opt") == 0 || strstr(p->name, "_optimizer"))
        return mk(F, DL_KIND_OPTIMIZER);
    if (name_says_loader(p->name)) {
        DlValue *l = loader_value(F, p->span);
        l->var = p->name;
        return l;
    }
    if (p->default_value) {
        /* evaluated once, at import time: a tensor default lives on the CPU for the whole run */
        const DlValue *d = eval(F, p->default_value);
        if (d->kind == DL_KIND_TENSOR || d->kind == DL_KIND_SCALAR) return d;
        return unknown();
    }
    if (F->is_forward && strcmp(fn->name, "forward") != 0) {
        /* Lightning steps: (self, batch, batch_idx, ...): the batch arrives on the module's
         * device, the rest are indices */
        if (i != 1) return unknown();
        DlValue *b = mk(F, DL_KIND_TENSOR);
        b->dev = DL_DEV_MODULE;
        b->origin = DL_ORIGIN_INPUT;
        b->flags |= DL_VF_WHOLE_BATCH;
        b->var = p->name;
        b->dev_span = p->span;
        b->dev_why = dl_arena_printf(F->arena, "the batch of %s", fn->name);
        return b;
    }
    if (F->is_forward) {
        DlValue *t = mk(F, DL_KIND_TENSOR);
        t->dev = DL_DEV_MODULE;
        t->origin = DL_ORIGIN_INPUT;
        t->var = p->name;
        t->dev_span = p->span;
        t->dev_why = dl_arena_printf(F->arena, "an input of %s", fn->name);
        return t;
    }
    return unknown();
}

static void seed_attributes(Flow *F, const DlClassInfo *c, int depth) {
    if (!c || depth > 8) return;
    seed_attributes(F, c->base, depth + 1);
    bool same_file = c->module == F->env->file->module;
    for (uint32_t i = 0; i < c->attr_count; i++) {
        const DlValue *v = c->attrs[i].value;
        if (c->attrs[i].name[0] == '<') continue;
        if (F->owner->is_module && (v->flags & DL_VF_REGISTERED) &&
            (is_tensor(v) || is_module_like(v))) {
            DlValue *r = dl_value_copy(F->arena, v);
            r->dev = DL_DEV_MODULE;
            r->dev_name = NULL;
            r->origin = DL_ORIGIN_NONE;
            r->flags &= (uint16_t)~(DL_VF_CPU_WEIGHT | DL_VF_CONSTRUCTED);
            v = r;
        } else if (F->owner->is_module && is_module_like(v) && (v->flags & DL_VF_MOVED) &&
                   (v->dev == DL_DEV_CUDA || v->dev == DL_DEV_META)) {
            /* a submodule pinned to a device in __init__ (model parallelism: `.to("cuda:1")`) */
            DlValue *r = dl_value_copy(F->arena, v);
            r->flags &= (uint16_t)~(DL_VF_CPU_WEIGHT | DL_VF_CONSTRUCTED);
            v = r;
        } else if (F->owner->is_module && is_module_like(v)) {
            /* a submodule assigned in __init__ is registered: it moves with self */
            DlValue *r = dl_value_copy(F->arena, v);
            r->dev = DL_DEV_MODULE;
            r->dev_name = NULL;
            r->flags &= (uint16_t)~(DL_VF_CPU_WEIGHT | DL_VF_CONSTRUCTED);
            v = r;
        } else if (F->owner->is_module && v->kind == DL_KIND_SEQ && (v->flags & DL_VF_HAS_MODULES)) {
            /* a plain list of modules (DL107): its elements' device is not known here */
            DlValue *r = dl_value_copy(F->arena, v);
            r->elem = NULL;
            r->items = NULL;
            r->item_count = 0;
            v = r;
        } else if (F->owner->is_module && is_tensor(v) && v->dev == DL_DEV_CPU &&
                   !(v->flags & DL_VF_ZERO_DIM) && same_file && v->aux_span.end) {
            DlValue *r = dl_value_copy(F->arena, v);
            r->origin = DL_ORIGIN_PLAIN_ATTR;
            v = r;
        } else if (!same_file) {
            continue;
        }
        state_set(F->st, dl_arena_printf(F->arena, "self.%s", c->attrs[i].name), v);
    }
}

static bool is_forward_like(const char *name) {
    static const char *const names[] = {"forward", "training_step",
                                        "validation_step", "test_step", "predict_step", NULL};
    for (const char *const *n = names; *n; n++)
        if (strcmp(name, *n) == 0) return true;
    return false;
}

const DlValue *dl_flow_run(const DlFlowEnv *env, const DlFunction *fn, const DlClassInfo *owner,
                           DlFlowState **out_state) {
    Flow F = {0};
    F.env = env;
    F.arena = env->arena;
    F.src = env->file->module->source;
    F.fn = fn;
    F.owner = owner;
    F.st = state_new();
    F.place.function = fn;
    if (fn) {
        F.in_init = owner && strcmp(fn->name, "__init__") == 0;
        F.is_forward = owner && owner->is_module && is_forward_like(fn->name);
        const DlFunctionInfo *fi = fn->facts;
        F.place.in_worker = (owner && owner->loaded_with_workers &&
                             (strcmp(fn->name, "__getitem__") == 0 ||
                              strcmp(fn->name, "__getitems__") == 0 ||
                              strcmp(fn->name, "__iter__") == 0 ||
                              strcmp(fn->name, "__call__") == 0)) ||
                            (fi && fi->collate_with_workers);
        if (owner && !F.in_init && owner->attrs_done) seed_attributes(&F, owner, 0);
        for (uint32_t i = 0; i < fn->param_count; i++)
            state_set(F.st, fn->params[i].name, param_value(&F, fn, i));
        exec_block(&F, &fn->body);
    } else {
        exec_block(&F, &env->file->module->body);
    }
    if (out_state) {
        F.st->dead = false;
        *out_state = F.st;
    } else {
        dl_flow_state_free(F.st);
    }
    return F.ret;
}
