/* Building values and reading names for the interpreter: keys of names and attribute chains,
 * scoping (locals, closures, globals, imports), and how an expression names a device. */
#define _GNU_SOURCE /* memmem */
#include "dataflow/flow_internal.h"

#include <string.h>
#include <strings.h>

const char *flow_text(Flow *F, DlSpan span) {
    return dl_ir_span_text(F->arena, F->src, span);
}

bool flow_span_names_word(const DlSource *src, DlSpan span, const char *word, bool attributes) {
    size_t n = strlen(word);
    const char *text = src->text, *end = text + (span.end < src->len ? span.end : src->len);
    for (const char *p = text + span.start; p < end && (p = memmem(p, (size_t)(end - p), word, n));
         p += n)
        if ((p == text || (!dl_source_name_byte(p[-1]) && (attributes || p[-1] != '.'))) &&
            (p + n >= end || !dl_source_name_byte(p[n])))
            return true;
    return false;
}

/* Short text of an expression for messages, cut at the first line and 60 characters. */
const char *flow_short_text(Flow *F, DlSpan span) {
    const char *t = flow_text(F, span);
    size_t n = strcspn(t, "\r\n");
    if (t[n]) { /* a comment ending the first line of a call written over lines is left out */
        char quote = 0;
        size_t comment = dl_ir_comment_start(t, n, &quote);
        while (comment < n && comment && (t[comment - 1] == ' ' || t[comment - 1] == '\t'))
            comment--;
        n = comment;
    }
    if (n > 60) n = 57;
    if (n == strlen(t)) return t;
    return dl_ir_cut(F->arena, t, n); /* `CachedEmbeddingBag(...)`: what was cut is closed */
}

const DlValue *flow_unknown(void) {
    return &dl_value_unknown;
}

DlValue *flow_mk(Flow *F, DlKind kind) {
    return dl_value_new(F->arena, kind);
}

DlValue *flow_mk_tensor(Flow *F, DlDeviceTag dev, const char *dev_name, DlOrigin origin,
                        DlSpan span) {
    DlValue *v = flow_mk(F, DL_KIND_TENSOR);
    v->dev = dev;
    v->dev_name = dev_name;
    v->origin = origin;
    v->dev_span = span;
    v->dev_why = flow_short_text(F, span);
    return v;
}

bool flow_is_tensor(const DlValue *v) {
    return v && v->kind == DL_KIND_TENSOR;
}

/* `gt = cam.original_image.cuda()` moves a tensor or a module; `torch.abs(render - gt)` shows
 * which (3DGS's training loop): a module is no operand. */
const DlValue *flow_as_operand(Flow *F, const DlValue *v) {
    if (!v || v->kind != DL_KIND_UNKNOWN || v->origin != DL_ORIGIN_MOVED || !v->dev) return v;
    DlValue *t = dl_value_copy(F->arena, v);
    t->kind = DL_KIND_TENSOR;
    return t;
}

/* A module built here with nothing to move: `nn.ReLU()`, a project module without state, an
 * `nn.ModuleList` of such (detectron2's ROIPooler of ROIAlign layers). */
bool flow_module_without_state(const DlValue *v) {
    return flow_is_module_like(v) && v->dev == DL_DEV_CPU &&
           !(v->flags & (DL_VF_CONSTRUCTED | DL_VF_MOVED));
}

bool flow_adds_unregistered_state(const DlValue *v) {
    if (v->flags & DL_VF_HELD_ELSEWHERE) return false;
    /* a project module whose class registers nothing (its only tensor a plain attribute,
     * which `.to()` does not move anyway: mask-rcnn-pytorch's anchor layers) */
    if (v->kind == DL_KIND_MODULE && v->cls && flow_class_known_stateless(v->cls, false, 0))
        return false;
    /* a plain list of layers known to hold nothing leaves nothing unmoved or unsaved; a
     * project module with a part of unknown kind (`loss_class(params)`) may hold something;
     * one built without state was built with no weight for a loss base it subclasses */
    if (flow_is_module_like(v))
        return !flow_module_without_state(v) ||
               (v->cls && !flow_class_known_stateless(v->cls, true, 0));
    return (flow_is_tensor(v) && (v->flags & DL_VF_REGISTERED));
}

bool flow_is_module_like(const DlValue *v) {
    return v && (v->kind == DL_KIND_MODULE || v->kind == DL_KIND_LOSS);
}

/* A dotted key for names, attribute chains and literal subscripts ("cfg['device']"). */
const char *flow_key_of(Flow *F, const DlExpr *e) {
    if (!e) return NULL;
    if (e->kind == DL_EX_NAME || e->kind == DL_EX_ATTR) {
        uint32_t slot = flow_slot_of(e, DL_KEY_SLOTS);
        if (F->keys[slot].expr != e) {
            F->keys[slot].expr = e;
            F->keys[slot].key = dl_ir_dotted(F->arena, e);
        }
        return F->keys[slot].key;
    }
    if (e->kind == DL_EX_SUBSCRIPT && e->item_count == 1 &&
        (e->items[0]->kind == DL_EX_STRING || e->items[0]->kind == DL_EX_NUMBER) &&
        e->items[0]->name) {
        const char *base = flow_key_of(F, e->object);
        if (base)
            return dl_arena_concat(F->arena,
                                   (const char *const[]){base, "[", e->items[0]->name, "]"}, 4);
    }
    return NULL;
}

/* Adds the names assignment target `t` binds: a name, or the names in a tuple, list or starred
 * target (not attributes or subscripts). */
static void gather_target_names(DlInterner *out, const DlExpr *t) {
    if (!t) return;
    if (t->kind == DL_EX_NAME) dl_interner_add(out, t->name);
    if (t->kind == DL_EX_TUPLE || t->kind == DL_EX_LIST)
        for (uint32_t i = 0; i < t->item_count; i++) gather_target_names(out, t->items[i]);
    if (t->kind == DL_EX_STARRED) gather_target_names(out, t->object);
}

/* Adds the names block `b` binds: assignment, loop and with targets, defs and classes, in nested
 * blocks too, but not inside a nested def or class. *all when a block is nested deeper than
 * the walk looks: every name then counts as bound. */
static void gather_block_names(DlInterner *out, const DlBlock *b, int depth, bool *all) {
    if (depth > 64) {
        *all = true;
        return;
    }
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        for (uint32_t t = 0; t < s->target_count; t++) gather_target_names(out, s->targets[t]);
        if (s->kind == DL_ST_DEF) dl_interner_add(out, s->parts->func->name);
        if (s->kind == DL_ST_CLASS) dl_interner_add(out, s->parts->cls->name);
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            gather_block_names(out, inner, depth + 1, all);
    }
}

static void gather_enclosing_bindings(Flow *F) {
    EnclosingBindings *eb = &F->enclosing;
    eb->gathered = true;
    dl_interner_init(&eb->names, NULL);
    for (const DlFunction *p = F->fn->parent; p && !eb->binds_all; p = p->parent) {
        for (uint32_t i = 0; i < p->param_count; i++) dl_interner_add(&eb->names, p->params[i].name);
        gather_block_names(&eb->names, &p->body, 0, &eb->binds_all);
    }
}

/* Does an enclosing function bind `name`? Then a nested function (a closure) reads that
 * local, whose value at call time is not known here, not the module-level one. */
bool flow_enclosing_binds(Flow *F, const char *name) {
    if (!F->fn || !F->fn->parent) return false;
    if (!F->enclosing.gathered) gather_enclosing_bindings(F);
    return F->enclosing.binds_all || dl_interner_contains(&F->enclosing.names, name);
}

void flow_enclosing_bindings_free(Flow *F) {
    if (F->enclosing.gathered) dl_interner_free(&F->enclosing.names);
}

/* dl_ir_binds_name_to's test: a value that names CUDA (`'cuda:0'`, `'cuda' if ... else 'cpu'`),
 * in the code of `src`. */
static bool names_cuda(const DlExpr *value, void *src) {
    return dl_ir_span_mentions_in_code(src, value->span, "cuda");
}

/* A device name the file's top level leaves on the CPU after binding it to CUDA earlier (a
 * notebook's later "play on the CPU" cell, `device = 'cpu'`, after training with `device =
 * 'cuda:0'`): a function reads whichever binding is current when it is called, not known here
 * (BTS-Encoder's demo notebook, iso-NCA's blog post code). */
static bool cpu_device_bound_after_cuda(Flow *F, const char *key, const DlValue *v) {
    bool cpu = (v->kind == DL_KIND_DEVICE && v->dev == DL_DEV_CPU) ||
               (v->kind == DL_KIND_STRING && v->literal &&
                flow_device_of_string(v->literal) == DL_DEV_CPU);
    const DlModuleIR *m = F->env->file->module;
    return cpu && m->source && dl_ir_binds_name_to(&m->body, key, names_cuda, (void *)m->source);
}

const Binding *flow_lookup(Flow *F, const char *key) {
    uint32_t hash = flow_key_hash(key);
    Binding *b = flow_state_find_hashed(F->st, key, hash);
    if (b) return b;
    if (!F->env->globals || strchr(key, '.')) return NULL;
    if (flow_enclosing_binds(F, key)) return NULL;
    /* `targets['x']` in `def forward(self, targets)`: an item of the local (or parameter)
     * `targets`, not of the top level's dict of that name (a loss file's `__main__` self-test
     * filling `targets['m'] = torch.rand(...)`, image fusion's defusion losses) */
    const char *open = strchr(key, '[');
    if (open && open > key && open - key < 128) {
        char root[128];
        memcpy(root, key, (size_t)(open - key));
        root[open - key] = '\0';
        if (flow_state_find(F->st, root) || flow_enclosing_binds(F, root)) return NULL;
    }
    const Binding *g = flow_state_find_hashed(F->env->globals, key, hash);
    /* `_device = None` at the top, set by `set_device(dev)` through `global _device` (GDN's
     * util/env.py): in a function, a global left None is a placeholder, not its value */
    if (g && F->fn && g->value && g->value->kind == DL_KIND_NONE) return NULL;
    if (g && F->fn && g->value && cpu_device_bound_after_cuda(F, key, g->value)) return NULL;
    return g;
}

/* dl_project_import(file, name), remembered by the name's address. */
const char *flow_import(Flow *F, const char *name) {
    uint32_t slot = flow_slot_of(name, DL_IMPORT_SLOTS);
    if (F->imports[slot].alias != name) {
        F->imports[slot].alias = name;
        const char *q = dl_project_import(F->env->file, name);
        /* `from train.tools.torch_utils import *` (Kaggle-2020-Alaska2's fitter) */
        if (!q && F->env->file->star_count)
            q = dl_project_star_import(F->env->project, F->env->file, name, F->arena);
        F->imports[slot].qualified = q;
    }
    return F->imports[slot].qualified;
}

/* The qualified name of a NAME/ATTR chain whose root is an import ("torch.nn.Linear"), or
 * NULL when the root is a local value or not imported. */
const char *flow_qualify(Flow *F, const DlExpr *e) {
    if (!e) return NULL;
    if (e->kind == DL_EX_NAME) {
        const Binding *b = flow_lookup(F, e->name);
        if (b && b->value) return NULL;
        return flow_import(F, e->name);
    }
    if (e->kind == DL_EX_ATTR) {
        const char *base = flow_qualify(F, e->object);
        if (base) return dl_arena_join(F->arena, base, '.', e->name);
    }
    return NULL;
}

size_t flow_device_owner_length(const char *dev_name) {
    size_t n = dev_name ? strlen(dev_name) : 0;
    return n > 7 && strcmp(dev_name + n - 7, ".device") == 0 ? n - 7 : 0;
}

/* Does a name hold a device: `device`, `dev`, `self.device`, `args.device`, `train_device`,
 * `cfg["device"]`? Not `devices`, `num_devices`, `device_count` or `device_id` (numbers). */
bool flow_name_says_device(Flow *F, const char *s) {
    if (!s) return false;
    for (size_t i = 0; i < F->env->device_name_count; i++) { /* configured `device-names` */
        const char *n = F->env->device_names[i];
        size_t ls = strlen(s), ln = strlen(n);
        if (strcmp(s, n) == 0 || (ls > ln && s[ls - ln - 1] == '.' && strcmp(s + ls - ln, n) == 0))
            return true;
    }
    const char *last = s;
    for (const char *p = s; *p; p++)
        if (*p == '.' || *p == '[') last = p + 1;
    size_t n = strcspn(last, "]");
    if ((n == 3 && strncmp(last, "dev", 3) == 0)) return true;
    if (n >= 2 && (last[0] == '"' || last[0] == '\'')) { /* cfg["device"] */
        last++;
        n -= 2;
    }
    if (n < 6 || strncasecmp(last + n - 6, "device", 6) != 0) return false;
    if (n == 6) return true;
    /* train_device, target_device; not per_device, num_device (counts) */
    static const char *const counts[] = {"per_", "num_", "n_", "max_", "min_", "total_", NULL};
    for (const char *const *c = counts; *c; c++)
        if (strncasecmp(last, *c, strlen(*c)) == 0 || strstr(last, "per_")) return false;
    return last[n - 7] == '_';
}

bool flow_name_says_loader(const char *s) {
    if (!s) return false;
    size_t n = strlen(s);
    /* DARTS and the searches built on it hand their loaders on as `train_queue` and
     * `valid_queue` */
    static const char *const queues[] = {"train_queue", "valid_queue", "val_queue", "test_queue",
                                         NULL};
    return (n >= 6 && flow_streq(s + n - 6, "loader")) ||
           (n >= 6 && flow_streq(s + n - 6, "Loader")) || dl_name_in_list(s, queues);
}

DlValue *flow_named_device(Flow *F, const char *name, DlSpan span) {
    DlValue *v = flow_mk(F, DL_KIND_DEVICE);
    v->dev = DL_DEV_NAMED;
    v->dev_name = name;
    v->dev_span = span;
    v->dev_why = flow_short_text(F, span);
    return v;
}

/* Device of a string literal ("cuda:1"), or UNKNOWN. */
DlDeviceTag flow_device_of_string(const char *s) {
    if (!s) return DL_DEV_UNKNOWN;
    if (strncmp(s, "cpu", 3) == 0 && (s[3] == '\0' || s[3] == ':')) return DL_DEV_CPU; /* "cpu:0" */
    if (strncmp(s, "cuda", 4) == 0 && (s[4] == '\0' || s[4] == ':')) return DL_DEV_CUDA;
    if (flow_streq(s, "meta")) return DL_DEV_META;
    return DL_DEV_UNKNOWN;
}

/* How `__init__`'s body (not its nested defs) assigns `self.<attr>`: the count of assignments,
 * and the last value. */
static void count_self_assignments(const DlBlock *b, const char *attr, int *count,
                                   const DlExpr **value) {
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_ASSIGN || s->kind == DL_ST_AUGASSIGN) {
            for (uint32_t t = 0; t < s->target_count; t++) {
                const DlExpr *target = s->targets[t];
                if (dl_ir_is_self_attr(target, attr)) {
                    (*count)++;
                    *value = s->kind == DL_ST_ASSIGN ? s->value : NULL;
                }
            }
        }
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            count_self_assignments(inner, attr, count, value);
    }
}

const DlParam *flow_parameter_stored_in(Flow *F, const DlExpr *e) {
    if (!dl_ir_is_self_attr(e, NULL) || !F->owner) return NULL;
    const DlFunctionInfo *init = dl_project_method(F->env->project, F->owner, "__init__");
    if (!init) return NULL;
    int count = 0;
    const DlExpr *value = NULL;
    count_self_assignments(&init->fn->body, e->name, &count, &value);
    if (count != 1 || !value || value->kind != DL_EX_NAME) return NULL;
    int index = dl_ir_param_index(init->fn, value->name);
    return index < 0 ? NULL : &init->fn->params[index];
}

const char *flow_optional_parameter_stored_in(Flow *F, const DlExpr *e) {
    const DlParam *p = flow_parameter_stored_in(F, e);
    const DlExpr *d = p ? p->default_value : NULL;
    return d && d->kind == DL_EX_CONST && flow_streq(d->name, "None") ? p->name : NULL;
}

/* `device=self.device` where `__init__` stores, and only stores, a parameter that defaults to
 * None (`def __init__(self, device=None): self.device = device`): an instance may hold no
 * device, and then creates on the CPU. Which device an instance holds is not known here. */
static bool attribute_of_optional_parameter(Flow *F, const DlExpr *e) {
    return flow_optional_parameter_stored_in(F, e) != NULL;
}

/* `index_type`, `self.compute_type`, `qtype`: by its name, a dtype (`x.to(index_type)`), unless
 * the name says device (`device_type` is "cuda"). */
static bool names_a_type(const char *text) {
    const char *last = text;
    for (const char *p = text; *p; p++)
        if (*p == '.') last = p + 1;
    size_t n = strlen(last);
    if (n < 4 || strcasecmp(last + n - 4, "type") != 0) return false;
    for (size_t i = 0; i + 6 <= n; i++)
        if (strncasecmp(last + i, "device", 6) == 0) return false;
    return true;
}

/* What device a `.to(arg)` / `device=arg` names; NULL when it is not a device (a dtype, None). */
DlValue *flow_device_of_literal(Flow *F, const DlExpr *e) {
    if (e->kind == DL_EX_STRING && e->name) {
        DlDeviceTag tag = flow_device_of_string(e->name);
        DlValue *d = flow_mk(F, DL_KIND_DEVICE);
        d->dev = tag ? tag : DL_DEV_NAMED;
        d->dev_name = e->name;
        d->literal = e->name;
        return d;
    }
    if (e->kind == DL_EX_NUMBER) {
        DlValue *d = flow_mk(F, DL_KIND_DEVICE);
        d->dev = DL_DEV_CUDA;
        d->dev_name = dl_arena_join(F->arena, "cuda:", '\0', e->name);
        return d;
    }
    return NULL;
}

/* `e` is a name last bound, in the function or at the top of the file, to a choice between two
 * devices written out: `torch.device("cuda:1") if torch.cuda.is_available() else
 * torch.device("cpu")`. */
static bool chooses_between_devices(Flow *F, const DlExpr *e) {
    if (e->kind != DL_EX_NAME) return false;
    const DlExpr *bound =
        F->fn ? dl_ir_last_assignment(&F->fn->body, e->name, e->span.start) : NULL;
    if (!bound) bound = dl_ir_last_assignment(&F->env->file->module->body, e->name, UINT32_MAX);
    if (!bound || bound->kind != DL_EX_COND || bound->item_count != 2) return false;
    const DlExpr *arms[2] = {bound->object, bound->items[1]};
    for (int i = 0; i < 2; i++) {
        const DlExpr *a = arms[i];
        const char *q = a && a->kind == DL_EX_CALL ? flow_qualify(F, a->object) : NULL;
        if (!q || !flow_streq(q, "torch.device")) return false;
    }
    return true;
}

/* Does the file `src` update the dict `name` as a whole (`cfg.update(...)`, or through
 * `global`)? */
static bool dict_updated(Flow *F, const DlSource *src, const char *name) {
    return dl_source_mentions(src, dl_arena_printf(F->arena, "%s.update(", name)) ||
           dl_text_declares_global(src->text, name);
}

/* Does the file `src` write the entry `key` of some dict (`cfg["device"] = "cuda"`)? Not a
 * line commented out (Latent-ODE's `#	param['device'] = torch.device('cuda:3')`). */
static bool entry_written(Flow *F, const DlSource *src, const char *key) {
    static const char *const forms[] = {"\"%s\"] =", "\"%s\"]=", "'%s'] =", "'%s']=", NULL};
    for (const char *const *f = forms; *f; f++)
        if (dl_source_mentions_outside_comments(src, dl_arena_printf(F->arena, *f, key)))
            return true;
    return false;
}

/* The entry at its string key of the dict display `display`, or NULL (also where a `**`
 * splat may add it). */
static const DlExpr *display_entry(const DlExpr *display, const char *key) {
    for (uint32_t i = 0; i + 1 < display->item_count; i += 2) {
        const DlExpr *k = display->items[i];
        if (!k) return NULL; /* `{**other}`: what it adds is not written here */
        if (k->kind == DL_EX_STRING && k->name && strcmp(k->name, key) == 0)
            return display->items[i + 1];
    }
    return NULL;
}

const DlExpr *flow_entry_of_a_local_dict(Flow *F, const DlSource *src, const DlBlock *scope,
                                         const DlExpr *e, uint32_t before) {
    if (!e || !src || e->kind != DL_EX_SUBSCRIPT || e->item_count != 1 || !e->object ||
        e->object->kind != DL_EX_NAME || e->items[0]->kind != DL_EX_STRING || !e->items[0]->name)
        return NULL;
    const char *name = e->object->name, *key = e->items[0]->name;
    if (flow_bindings_of(scope, name, 0) != 1) return NULL;
    const DlExpr *display = dl_ir_last_assignment(scope, name, before);
    if (!display || display->kind != DL_EX_DICT || dict_updated(F, src, name) ||
        entry_written(F, src, key))
        return NULL;
    return display_entry(display, key);
}

/* The expression `e` (`config["training"]["device"]`) reads from dicts written out: a name bound
 * once, at the top of the file, to a dict display whose entries are displays or literals
 * (jinglescode's `config = {"training": {"device": "cpu", ...}}`), in a file that writes into
 * none; NULL otherwise. */
static const DlExpr *dict_literal_entry(Flow *F, const DlExpr *e, int depth) {
    if (!e || depth > 8) return NULL;
    if (e->kind == DL_EX_NAME) {
        if (F->fn && (dl_ir_param_index(F->fn, e->name) >= 0 ||
                      dl_ir_last_assignment(&F->fn->body, e->name, e->span.start)))
            return NULL;
        const DlExpr *bound =
            dl_ir_last_assignment(&F->env->file->module->body, e->name, UINT32_MAX);
        return bound && bound->kind == DL_EX_DICT && !dict_updated(F, F->src, e->name) ? bound
                                                                                      : NULL;
    }
    if (e->kind != DL_EX_SUBSCRIPT || e->item_count != 1 || e->items[0]->kind != DL_EX_STRING ||
        !e->items[0]->name)
        return NULL;
    const DlExpr *d = dict_literal_entry(F, e->object, depth + 1);
    if (!d || d->kind != DL_EX_DICT || entry_written(F, F->src, e->items[0]->name)) return NULL;
    return display_entry(d, e->items[0]->name);
}

DlValue *flow_device_written_out(Flow *F, const DlExpr *e) {
    if (e->kind == DL_EX_CALL && e->arg_count == 1 && !e->args[0].keyword) {
        const char *q = flow_qualify(F, e->object);
        if (q && flow_streq(q, "torch.device")) e = e->args[0].value;
    }
    return flow_device_of_literal(F, e);
}

const DlValue *flow_device_of_dict_entry(Flow *F, const DlExpr *dict, const char *key) {
    const DlExpr *display = dict_literal_entry(F, dict, 0);
    if (!display || display->kind != DL_EX_DICT || entry_written(F, F->src, key)) return NULL;
    const DlExpr *v = display_entry(display, key);
    DlValue *d = v ? flow_device_written_out(F, v) : NULL;
    if (d) {
        d->dev_span = v->span;
        d->dev_why = flow_short_text(F, d->dev_span);
    }
    return d;
}

/* `state.device` of `state = State(**{"device": "cpu"})` or `args = SimpleNamespace(device=
 * "cpu")`, a name bound once (in the function, else at the top of the file) to a namespace
 * (SimpleNamespace, argparse's Namespace, EasyDict) or a project class that does not set the
 * attribute itself: the literal the call gives it (dataset-distillation's State, a dict whose
 * entries are its attributes); NULL otherwise. */
static DlValue *attribute_given_by_the_builder(Flow *F, const DlExpr *e) {
    if (e->kind != DL_EX_ATTR || !e->name || !e->object || e->object->kind != DL_EX_NAME)
        return NULL;
    const char *name = e->object->name;
    const DlBlock *scope = &F->env->file->module->body;
    if (F->fn && (dl_ir_param_index(F->fn, name) >= 0 || flow_bindings_of(&F->fn->body, name, 0)))
        scope = &F->fn->body;
    if (flow_bindings_of(scope, name, 0) != 1) return NULL;
    const DlExpr *call = dl_ir_last_assignment(scope, name, UINT32_MAX);
    if (!call || call->kind != DL_EX_CALL || !call->object) return NULL;
    static const char *const namespaces[] = {"types.SimpleNamespace", "argparse.Namespace",
                                             "easydict.EasyDict", "munch.Munch", "addict.Dict",
                                             NULL};
    const char *q = flow_qualify(F, call->object);
    const DlClassInfo *ci =
        call->object->kind == DL_EX_NAME || q
            ? dl_project_find_class(F->env->project, F->env->file, q ? q : call->object->name)
            : NULL;
    if (ci ? dl_project_attr(ci, e->name) != NULL /* its own attribute */
           : !q || !dl_name_in_list(q, namespaces))
        return NULL;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        const DlExpr *a = call->args[i].value;
        if (kw && strcmp(kw, e->name) == 0) return flow_device_written_out(F, a);
        if (kw && strcmp(kw, "**") == 0 && a && a->kind == DL_EX_DICT)
            for (uint32_t k = 0; k + 1 < a->item_count; k += 2)
                if (a->items[k] && a->items[k]->kind == DL_EX_STRING && a->items[k]->name &&
                    strcmp(a->items[k]->name, e->name) == 0 && a->items[k + 1])
                    return flow_device_written_out(F, a->items[k + 1]);
    }
    return NULL;
}

const DlValue *flow_device_arg(Flow *F, const DlExpr *e, const DlValue *v) {
    if (!e) return NULL;
    DlValue *literal = flow_device_of_literal(F, e);
    if (literal) {
        literal->dev_span = e->span;
        literal->dev_why = flow_short_text(F, e->span);
        return literal;
    }
    if (e->kind == DL_EX_CONST) return NULL;
    /* `config["training"]["device"]` of a dict written out and never changed: its string (or
     * `torch.device` of one) */
    const DlExpr *entry = e->kind == DL_EX_SUBSCRIPT ? dict_literal_entry(F, e, 0) : NULL;
    DlValue *written = entry ? flow_device_written_out(F, entry) : NULL;
    if (written) {
        written->dev_span = e->span;
        written->dev_why = flow_short_text(F, e->span);
        return written;
    }
    /* `state.device` of `state = SimpleNamespace(device="cpu")`: the literal it was given */
    DlValue *given = attribute_given_by_the_builder(F, e);
    if (given) {
        given->dev_span = e->span;
        given->dev_why = flow_short_text(F, e->span);
        return given;
    }
    if (v->kind == DL_KIND_DTYPE || v->kind == DL_KIND_NONE) return NULL;
    /* `t.to(int)`, `t.to(float)`: Python's types stand for torch.int64 and torch.float64
     * (SpikeGPT's `category_tensor.to(int)` before one_hot) */
    static const char *const python_types[] = {"int", "float", "bool", "complex", NULL};
    if (e->kind == DL_EX_NAME && dl_name_in_list(e->name, python_types) &&
        !flow_lookup(F, e->name))
        return NULL;
    /* `x.to(rank)` with `rank = int(os.environ["RANK"])`: an int is a GPU's index, which one is
     * not known here; a number that is not a variable's is no device */
    if (v->kind == DL_KIND_SCALAR)
        return e->kind == DL_EX_NAME || e->kind == DL_EX_ATTR
                   ? flow_named_device(F, flow_key_of(F, e), e->span)
                   : NULL;
    if (v->kind == DL_KIND_STRING && v->literal) { /* DEVICE = "cuda"; x.to(DEVICE) */
        DlDeviceTag tag = flow_device_of_string(v->literal);
        DlValue *d = flow_mk(F, DL_KIND_DEVICE);
        d->dev = tag ? tag : DL_DEV_NAMED;
        d->dev_name = v->literal;
        d->dev_span = v->dev_span;
        d->dev_why = v->home ? v->literal : flow_short_text(F, v->dev_span); /* not our text */
        d->literal = v->literal;
        d->home = v->home;
        return d;
    }
    if (v->kind == DL_KIND_DEVICE && v->dev) return v;
    /* a name bound to one device or another (`torch.device("cuda") if ok else
     * torch.device("cpu")`): the device the name holds, as for `torch.device("cuda" if ok else
     * "cpu")` (MGSSL's create_var moves what it is given there) */
    if (v->kind == DL_KIND_DEVICE)
        return chooses_between_devices(F, e) ? flow_named_device(F, e->name, e->span)
                                             : flow_unknown();
    if (v->kind == DL_KIND_TENSOR || flow_is_module_like(v)) { /* x.to(other): other's device */
        if (!v->dev) return flow_unknown();
        DlValue *d = dl_value_copy(F->arena, v);
        d->kind = DL_KIND_DEVICE;
        return d;
    }
    const char *q = flow_qualify(F, e);
    if (q && dl_torch_is_dtype(q)) return NULL;
    const char *t = flow_text(F, e->span);
    if (strstr(t, "dtype") || names_a_type(t)) return NULL;
    if (attribute_of_optional_parameter(F, e)) return flow_unknown();
    /* a value passed where a device goes, held in a variable, attribute or config entry */
    return flow_named_device(F, flow_key_of(F, e) ? flow_key_of(F, e) : flow_short_text(F, e->span),
                             e->span);
}

/* The device a call's `device=` keyword names (NULL if absent or not a device). */
const DlValue *flow_device_keyword(Flow *F, const DlExpr *call, const DlValue *const *argv) {
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (call->args[i].keyword && flow_streq(call->args[i].keyword, "device"))
            return flow_device_arg(F, call->args[i].value, argv[i]);
    /* `Mamba3(**cfg)` where cfg holds "device": a device is given, which one is not known */
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (call->args[i].keyword && flow_streq(call->args[i].keyword, "**") &&
            (argv[i]->flags & DL_VF_HOLDS_DEVICE))
            return flow_mk(F, DL_KIND_DEVICE);
    return NULL;
}

bool flow_has_splat(const DlExpr *call) {
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (call->args[i].keyword && call->args[i].keyword[0] == '*') return true;
    return false;
}

void flow_take_place(DlValue *v, const DlValue *from) {
    v->dev = from->dev;
    v->dev_name = from->dev_name;
    v->dev_span = from->dev_span;
    v->dev_why = from->dev_why;
    v->home = from->home;
    v->flags = (v->flags & (uint32_t)~DL_VF_DEVICE_OF_UNKNOWN) |
               (from->flags & DL_VF_DEVICE_OF_UNKNOWN);
}

void flow_mark_moved_elsewhere(DlValue *m) {
    m->flags &= (uint32_t)~DL_VF_CONSTRUCTED;
    m->flags |= DL_VF_MOVED;
    m->dev = DL_DEV_UNKNOWN;
    m->dev_name = NULL;
}

void flow_bind_moved_elsewhere(Flow *F, const char *key, const DlValue *m) {
    DlValue *moved = dl_value_copy(F->arena, m);
    flow_mark_moved_elsewhere(moved);
    flow_state_set(F->st, key, moved);
}

DlValue *flow_with_device(Flow *F, const DlValue *v, const DlValue *dev, DlOrigin origin,
                          DlSpan span) {
    DlValue *c = dl_value_copy(F->arena, v);
    c->dev = dev ? dev->dev : DL_DEV_UNKNOWN;
    c->dev_name = dev ? dev->dev_name : NULL;
    c->flags = (c->flags & (uint32_t)~DL_VF_DEVICE_OF_UNKNOWN) |
               (dev ? dev->flags & DL_VF_DEVICE_OF_UNKNOWN : 0);
    c->origin = origin;
    c->dev_span = span;
    c->dev_why = flow_short_text(F, span);
    c->home = NULL; /* span is in the file being analysed, whichever file `v` came from */
    return c;
}

/* The literal that marks a truth value as "CUDA is available" (see flow_cuda_available_value). */
static const char cuda_available_mark[] = "<torch.cuda.is_available()>";

const DlValue *flow_cuda_available_value(Flow *F) {
    DlValue *v = flow_mk(F, DL_KIND_SCALAR);
    v->literal = cuda_available_mark;
    return v;
}

bool flow_says_cuda_available(const DlValue *v) {
    return v && v->kind == DL_KIND_SCALAR && v->literal && flow_streq(v->literal, cuda_available_mark);
}
