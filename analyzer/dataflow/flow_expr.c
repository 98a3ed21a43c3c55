/* Expressions: names, attributes, subscripts, displays, comprehensions, operators. */
#define _GNU_SOURCE /* memmem */
#include "dataflow/flow_internal.h"

#include <ctype.h>

/* A batch of loader `v`: a tensor on the CPU that says where it came from. */
static DlValue *loader_batch(Flow *F, const DlValue *v, DlSpan target_span) {
    DlValue *b = flow_mk_tensor(F, DL_DEV_CPU, NULL, DL_ORIGIN_BATCH, target_span);
    b->flags |= v->flags & (DL_VF_PIN_KNOWN | DL_VF_PINNED);
    if (v->var) {
        const char *const parts[] = {"a batch from `", v->var, "`"};
        b->dev_why = dl_arena_concat(F->arena, parts, 3);
    } else {
        b->dev_why = dl_arena_join(F->arena, "a batch from", ' ',
                                   v->dev_why ? v->dev_why : "the data loader");
    }
    return b;
}

/* A batch whose parts are each where a TensorDataset's tensor is (DL_VF_PLACED_PARTS,
 * flow_library.c's tensor_dataset): its CPU parts are batches of this loader, named after it. */
static const DlValue *batch_of_placed_parts(Flow *F, const DlValue *v, DlSpan target_span) {
    const DlValue *e = v->elem;
    if (e->kind != DL_KIND_SEQ || !e->items || !(e->flags & DL_VF_PLACED_PARTS)) return e;
    DlValue *batch = dl_value_copy(F->arena, e);
    const DlValue **parts = dl_arena_alloc(F->arena, e->item_count * sizeof *parts);
    for (uint32_t i = 0; i < e->item_count; i++)
        parts[i] = e->items[i]->dev == DL_DEV_CPU ? loader_batch(F, v, target_span) : e->items[i];
    batch->items = parts;
    return batch;
}

/* `d`, a name holding a dict (a display, a comprehension) where the flow is. */
static bool holds_a_dict(Flow *F, const DlExpr *d) {
    const Binding *b = d && d->kind == DL_EX_NAME ? flow_lookup(F, d->name) : NULL;
    return b && b->value && b->value->kind == DL_KIND_SEQ && (b->value->flags & DL_VF_DICT);
}

/* Is `name` the variable of a `for` loop of `b` (nested blocks too, not nested defs) around
 * `at` over a dict's keys (`for k in d.keys():`, or `for k in d:` of a name holding a dict:
 * DeepSDF's `for key in epoch_losses: if key in loss_dict:`)? */
static bool loops_over_keys(Flow *F, const DlBlock *b, const DlExpr *at, const char *name,
                            int depth) {
    for (uint32_t i = 0; b && depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->span.end <= at->span.start || s->span.start > at->span.start) continue;
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) return false;
        const DlExpr *v = s->value;
        if (s->kind == DL_ST_FOR && s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME &&
            flow_streq(s->targets[0]->name, name) && v && v->kind == DL_EX_CALL && !v->arg_count &&
            v->object && v->object->kind == DL_EX_ATTR && flow_streq(v->object->name, "keys"))
            return true;
        if (s->kind == DL_ST_FOR && s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME &&
            flow_streq(s->targets[0]->name, name) && holds_a_dict(F, v))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (loops_over_keys(F, inner, at, name, depth + 1)) return true;
    }
    return false;
}

/* Is `e` a name that holds a dict's key, the variable of a loop over `d.keys()` around it? */
static bool a_dict_key(Flow *F, const DlExpr *e) {
    if (e->kind != DL_EX_NAME) return false;
    const DlBlock *body = F->fn ? &F->fn->body : &F->env->file->module->body;
    return loops_over_keys(F, body, e, e->name, 0);
}

const DlValue *flow_element_of(Flow *F, const DlValue *v, DlSpan target_span) {
    if (v->kind == DL_KIND_LOADER) {
        if (v->elem) return batch_of_placed_parts(F, v, target_span);
        /* a dataset whose items hold strings (flow_library.c, text_fields_of): each text part
         * is collated into a list of strings, the others into batch tensors */
        if (v->items && v->item_count) {
            DlValue *batch = flow_mk(F, DL_KIND_SEQ);
            const DlValue **parts = dl_arena_alloc(F->arena, v->item_count * sizeof *parts);
            for (uint32_t i = 0; i < v->item_count; i++)
                parts[i] = v->items[i]->kind == DL_KIND_STRING ? flow_mk(F, DL_KIND_STRING)
                                                               : loader_batch(F, v, target_span);
            batch->items = parts;
            batch->item_count = v->item_count;
            return batch;
        }
        DlValue *b = loader_batch(F, v, target_span);
        b->flags |= DL_VF_WHOLE_BATCH;
        return b;
    }
    /* `for task in y:` of a dict `{task: t.to(device) ...}`: its keys, not its values */
    if (v->kind == DL_KIND_SEQ && (v->flags & DL_VF_DICT)) return flow_unknown();
    if (v->kind == DL_KIND_SEQ && v->elem) return v->elem;
    if (flow_is_tensor(v)) { /* rows of a tensor, items of a batch list: tensors on its device */
        DlValue *part = dl_value_copy(F->arena, v);
        part->flags &= (uint32_t) ~(DL_VF_WHOLE_BATCH | DL_VF_REGISTERED | DL_VF_ONE_DIM);
        if (v->flags & DL_VF_ONE_DIM) part->flags |= DL_VF_ZERO_DIM; /* `for t in arange(n)` */
        /* a row of a tensor whose rank is not tracked: `edge[0]` of `for edge in
         * edge_index.t():` may be a number (a 0-dim tensor), as a data tensor's element is */
        else part->flags |= DL_VF_DATA_RANK;
        part->var = NULL;
        return part;
    }
    if (v->kind == DL_KIND_SEQ && v->items && v->item_count) {
        const DlValue *j = v->items[0];
        for (uint32_t i = 1; i < v->item_count; i++)
            j = dl_value_join(F->arena, j, v->items[i]);
        return j;
    }
    /* `for ele in self.features:` of an `nn.Sequential` or `nn.ModuleList`: a child of unknown
     * kind, registered in it, so wrapping it again adds nothing unmoved or unsaved
     * (`[nn.Sequential(ele) for ele in self.vgg.features]`: a manga colorizer's VGG taps) */
    if (v->kind == DL_KIND_MODULE) {
        DlValue *child = flow_mk(F, DL_KIND_UNKNOWN);
        child->flags |= DL_VF_HELD_ELSEWHERE;
        return child;
    }
    return flow_unknown();
}

/* `self.device` where the class defines `@property def device(self): return "cpu"` (the
 * CPU variants of fast-transformers' tests): that string, not a device chosen elsewhere. */
static const DlValue *constant_property(Flow *F, const DlExpr *e) {
    if (!F->owner || !dl_ir_is_self(e->object) || !e->name) return NULL;
    const DlClass *cls = F->owner->cls;
    for (uint32_t k = 0; k < cls->method_count; k++) {
        const DlFunction *m = cls->methods[k];
        if (strcmp(m->name, e->name) != 0 || m->decorator_count != 1 || m->body.count != 1)
            continue;
        const DlExpr *d = m->decorators[0];
        const DlStmt *ret = m->body.items[0];
        if (d->kind != DL_EX_NAME || !flow_streq(d->name, "property") ||
            ret->kind != DL_ST_RETURN || !ret->value || ret->value->kind != DL_EX_STRING ||
            ret->value->item_count)
            return NULL;
        DlValue *s = flow_mk(F, DL_KIND_STRING);
        s->literal = ret->value->name;
        s->dev_span = ret->value->span;
        return s;
    }
    return NULL;
}

/* `next(m.parameters())`, `next(iter(m.buffers()))`: a parameter of module `m`; `m`'s
 * expression, or NULL. */
static const DlExpr *module_of_a_parameter(const DlExpr *e) {
    for (int depth = 0; depth < 2 && e && e->kind == DL_EX_CALL && e->object &&
                        e->object->kind == DL_EX_NAME && e->arg_count == 1 &&
                        !e->args[0].keyword &&
                        (flow_streq(e->object->name, "next") ||
                         flow_streq(e->object->name, "iter"));
         depth++)
        e = e->args[0].value;
    if (!e || e->kind != DL_EX_CALL || e->arg_count || !e->object ||
        e->object->kind != DL_EX_ATTR ||
        !(flow_streq(e->object->name, "parameters") || flow_streq(e->object->name, "buffers")))
        return NULL;
    return e->object->object;
}

/* The local or parameter `e` is, or holds as an item or attribute (`batch[0].x` in a collate
 * function: graphormer's `device = batch[0].x.device`), not self's; NULL otherwise (a call on
 * the way). */
static const DlExpr *item_of_a_local(const DlExpr *e) {
    for (int depth = 0; e && depth < 8; depth++) {
        if (e->kind == DL_EX_NAME) return dl_ir_is_self(e) ? NULL : e;
        if (e->kind != DL_EX_ATTR && e->kind != DL_EX_SUBSCRIPT) return NULL;
        e = e->object;
    }
    return NULL;
}

const DlValue *flow_eval_attr(Flow *F, const DlExpr *e) {
    const char *key = flow_key_of(F, e);
    if (key) {
        const Binding *b = flow_lookup(F, key);
        if (b && b->value) return b->value;
    }
    const char *q = flow_qualify(F, e);
    if (q) {
        if (dl_torch_is_dtype(q)) return flow_mk(F, DL_KIND_DTYPE);
        const DlClassInfo *ci = dl_project_find_class(F->env->project, F->env->file, q);
        if (ci) {
            DlValue *c = flow_mk(F, DL_KIND_CLASS);
            c->cls = ci;
            return c;
        }
        return flow_imported_global(F, q);
    }
    const DlValue *obj = flow_eval(F, e->object);
    /* `x.dtype` of a tensor, a module or a config: a dtype, so `.to(x.dtype)` moves nothing */
    if (flow_streq(e->name, "dtype") && obj->kind != DL_KIND_SEQ) return flow_mk(F, DL_KIND_DTYPE);
    if (flow_is_tensor(obj)) {
        if (flow_streq(e->name, "device")) {
            if (!obj->dev && (obj->flags & DL_VF_MAYBE_CPU)) return flow_mk(F, DL_KIND_DEVICE);
            if (!obj->dev) {
                DlValue *d = flow_named_device(F, key ? key : flow_short_text(F, e->span), e->span);
                d->flags |= DL_VF_DEVICE_OF_UNKNOWN;
                return d;
            }
            DlValue *d = dl_value_copy(F->arena, obj);
            d->kind = DL_KIND_DEVICE;
            return d;
        }
        if (dl_tensor_attr_keeps_device(e->name)) {
            DlValue *r = dl_value_copy(F->arena, obj);
            r->var = NULL;
            return r;
        }
        return flow_mk(F, DL_KIND_OTHER);
    }
    /* `d = x.cpu()` of a parameter `x` (a tensor or a module): `d.device` is where it was
     * moved (XFeat's ALIKE wrapper makes its grid with `device=des1.device` so) */
    if (obj->kind == DL_KIND_UNKNOWN && obj->dev && obj->origin == DL_ORIGIN_MOVED &&
        flow_streq(e->name, "device")) {
        DlValue *d = dl_value_copy(F->arena, obj);
        d->kind = DL_KIND_DEVICE;
        return d;
    }
    if (obj->kind == DL_KIND_MODULE && (obj->flags & DL_VF_SCATTERS) &&
        flow_streq(e->name, "module")) {
        /* `model.module` of `nn.DataParallel(model)`: the module it wraps, where it is */
        DlValue *m = dl_value_copy(F->arena, obj);
        m->flags &= (uint32_t)~DL_VF_SCATTERS;
        return m;
    }
    if (obj->kind == DL_KIND_MODULE && !obj->cls &&
        (flow_streq(e->name, "weight") || flow_streq(e->name, "bias") ||
         flow_streq(e->name, "running_mean") || flow_streq(e->name, "running_var"))) {
        /* a library module's parameters and buffers live where the module does */
        DlValue *t = flow_mk(F, DL_KIND_TENSOR);
        flow_take_place(t, obj);
        /* `self.conv1.weight`: registered through the submodule that holds it */
        t->flags |= DL_VF_REGISTERED | (obj->flags & DL_VF_HELD_ELSEWHERE);
        return t;
    }
    if (obj->kind == DL_KIND_MODULE && flow_streq(e->name, "device") && obj->dev) {
        /* a module not moved here may be moved by what runs it (a Lightning Trainer): a device,
         * which one is not known, and not one that `model.device` names apart from the model's */
        if (obj->dev == DL_DEV_CPU && !(obj->flags & DL_VF_MOVED))
            return flow_mk(F, DL_KIND_DEVICE);
        DlValue *d = dl_value_copy(F->arena, obj);
        d->kind = DL_KIND_DEVICE;
        return d;
    }
    if ((obj->kind == DL_KIND_MODULE || obj->kind == DL_KIND_INSTANCE) && obj->cls) {
        const DlAttr *a = dl_project_attr(obj->cls, e->name);
        /* a parameter or buffer, or a submodule (`g_ema.style`: nn.Module registers a module
         * stored on it), moves with its module */
        if (a && obj->kind == DL_KIND_MODULE &&
            (((a->value->flags & DL_VF_REGISTERED) &&
              (a->value->kind == DL_KIND_TENSOR || flow_is_module_like(a->value))) ||
             a->value->kind == DL_KIND_MODULE)) {
            DlValue *r = dl_value_copy(F->arena, a->value); /* moves with its module */
            flow_take_place(r, obj);
            r->flags |= obj->flags & DL_VF_HELD_ELSEWHERE; /* held by the submodule */
            return r;
        }
        /* (also what __init__ moved without knowing its kind: `self.value =
         * value.to(device=self.device)` of a parameter) */
        if (a && obj->kind == DL_KIND_INSTANCE && (obj->flags & DL_VF_MOVED) &&
            (flow_is_tensor(a->value) || flow_is_module_like(a->value) ||
             (a->value->kind == DL_KIND_UNKNOWN && a->value->dev)))
            return flow_unknown(); /* its own to() moved it (flow_move_instance) */
        if (a && obj->kind == DL_KIND_INSTANCE) {
            /* a device an instance got from its constructor's parameters is not known here */
            const DlClassInfo *ci = obj->cls;
            const DlFunctionInfo *init = dl_project_method(F->env->project, ci, "__init__");
            const DlValue *v = flow_rebase(F, a->value, ci->module);
            /* `self.device` in the class's own methods (its __init__, after
             * `super().__init__(device)` stored it): whatever the instance was built with,
             * the same in every method, not the default of a parameter of the same name */
            if (dl_ir_is_self(e->object)) {
                /* a helper only __init__ runs, read on its own: what __init__ leaves at its end
                 * may be set after the call (`self.format_data()` moving what
                 * `self.split_by_runs()` read as NumPy); __init__ reads it at the call */
                const DlFunctionInfo *run = F->fn ? F->fn->facts : NULL;
                if (!F->in_init && run && run->runs_only_in_init && run->owner == ci)
                    return flow_unknown();
                return v;
            }
            return init ? flow_bind_parameter_device(F, v, init->fn, NULL, NULL, true) : v;
        }
    }
    /* `config.device` of an instance of `class Config: device = 'cpu'`: a string its class body
     * binds (last), which __init__ leaves alone */
    if (obj->kind == DL_KIND_INSTANCE && obj->cls && !dl_project_attr(obj->cls, e->name)) {
        const DlBlock *body = &((const DlClassInfo *)obj->cls)->cls->body;
        const DlExpr *last = NULL;
        for (uint32_t i = 0; i < body->count; i++) {
            const DlStmt *st = body->items[i];
            if (st->kind == DL_ST_ASSIGN && st->target_count == 1 && st->value &&
                st->targets[0]->kind == DL_EX_NAME && flow_streq(st->targets[0]->name, e->name))
                last = st->value;
        }
        if (last && last->kind == DL_EX_STRING && last->name && !last->item_count) {
            DlValue *str = flow_mk(F, DL_KIND_STRING);
            str->literal = last->name;
            str->dev_span = last->span;
            return str;
        }
    }
    const DlValue *constant = constant_property(F, e);
    if (constant) return constant;
    /* `next(self.encoder.parameters()).device`: where that module is, as `module.device`
     * says it (GeoSAN's encoder, fed on its own device before any move) */
    const DlExpr *owner = flow_streq(e->name, "device") ? module_of_a_parameter(e->object) : NULL;
    const DlValue *m = owner ? flow_eval(F, owner) : NULL;
    /* (a module of unknown place, a parameter: the device its name says, below) */
    if (m && m->kind == DL_KIND_MODULE && m->dev) {
        if (m->dev == DL_DEV_CPU && !(m->flags & DL_VF_MOVED)) return flow_mk(F, DL_KIND_DEVICE);
        DlValue *d = dl_value_copy(F->arena, m);
        d->kind = DL_KIND_DEVICE;
        return d;
    }
    if (flow_name_says_device(F, e->name)) {
        DlValue *d = flow_named_device(F, key ? key : flow_short_text(F, e->span), e->span);
        /* `x.device` of a local or a parameter of unknown kind that is no run's options
         * (`args.device`): where that value is, which may be the CPU */
        const DlExpr *local = item_of_a_local(e->object);
        if (flow_streq(e->name, "device") && obj->kind == DL_KIND_UNKNOWN && local &&
            !flow_names_options(local))
            d->flags |= DL_VF_DEVICE_OF_UNKNOWN;
        return d;
    }
    return flow_unknown();
}

/* `from config import DEVICE` / `config.DEVICE`: another file's module-level value. */
const DlValue *flow_imported_global(Flow *F, const char *qualified) {
    const DlValue *v = dl_project_find_global(F->env->project, qualified);
    /* `π0 = PiZero` there (pi-zero re-exports the alias): the project class or function
     * itself, whose facts are the project's */
    if (v && (v->kind == DL_KIND_CLASS || v->kind == DL_KIND_FUNCTION) && v->cls) {
        DlValue *c = flow_mk(F, v->kind);
        c->cls = v->cls;
        return c;
    }
    if (!v || (v->kind != DL_KIND_DEVICE && v->kind != DL_KIND_TENSOR &&
               v->kind != DL_KIND_SCALAR && v->kind != DL_KIND_STRING))
        return flow_unknown();
    const DlFileFacts *from = NULL;
    for (uint32_t i = 0; i < F->env->project->file_count; i++)
        if (F->env->project->globals &&
            dl_flow_lookup(F->env->project->globals[i], strrchr(qualified, '.') + 1) == v)
            from = &F->env->project->files[i];
    return flow_rebase(F, v, from ? from->module : NULL);
}

const DlValue *flow_eval_name(Flow *F, const DlExpr *e) {
    const Binding *b = flow_lookup(F, e->name);
    if (b && b->value) return b->value;
    const char *q = flow_import(F, e->name);
    if (q) {
        if (dl_torch_is_dtype(q)) return flow_mk(F, DL_KIND_DTYPE);
        const DlClassInfo *ci = dl_project_find_class(F->env->project, F->env->file, q);
        if (ci) {
            DlValue *c = flow_mk(F, DL_KIND_CLASS);
            c->cls = ci;
            return c;
        }
        const DlFunctionInfo *fi = dl_project_find_function(F->env->project, F->env->file, q);
        if (fi) {
            DlValue *c = flow_mk(F, DL_KIND_FUNCTION);
            c->cls = fi;
            return c;
        }
        return flow_imported_global(F, q);
    }
    return flow_unknown();
}

/* Evaluates the index of `e` (object already evaluated) and reports tensor indexing. True
 * when a cpu tensor is indexed with a device tensor (the operation fails). */
bool flow_index_fact(Flow *F, const DlExpr *e, const DlValue *obj, bool store,
                     const DlValue **last_index) {
    bool mismatch = false;
    for (uint32_t i = 0; i < e->item_count; i++) {
        const DlValue *idx = flow_eval(F, e->items[i]);
        if (last_index) *last_index = idx;
        if (!flow_is_tensor(obj) || !flow_is_tensor(idx)) continue;
        /* a 0-dim integer index is read as a number (`.item()`), wherever it is: `for i in
         * ids_on_gpu: cpu_states[i] = 0` works */
        if (idx->flags & DL_VF_ZERO_DIM) continue;
        /* an element of tensors zipped together may be such an integer too (action-to-motion's
         * `for label, p in zip(labels, pred): confusion[label][p] += 1`) */
        if (idx->flags & DL_VF_ROW) continue;
        if (dl_value_is_cpu_tensor(obj) && idx->dev && idx->dev != DL_DEV_CPU) mismatch = true;
        if (!flow_reporter(F)) continue;
        DlIndexFact fact = {e, e->object, e->items[i], obj, idx, store, &F->place};
        dl_rule_dispatch_index(F->env->report, &fact);
    }
    return mismatch;
}

/* `ranks[r, q]`: integers held in variables, one for each axis of a table whose rank is not
 * tracked, may take one element, as one does of a 1-D table (below); a name bound to a tensor
 * but a 0-dim one indexes by it (cnnimageretrieval's `idxs2images[ranks[r, q]]`). */
/* ... also with numbers written out after such a variable (`centers[b, 0]` in a loop over the
 * batch's rows: AHN3-dgcnn's test); not after a number (`probs[0, class_id]`, the first of a
 * batch, then a class: a map). */
static bool picks_one_element_of_each_axis(Flow *F, const DlExpr *e) {
    bool variable = false;
    for (uint32_t i = 0; i < e->item_count; i++) {
        if (variable && e->items[i]->kind == DL_EX_NUMBER && !strchr(e->items[i]->name, '.'))
            continue;
        if (e->items[i]->kind != DL_EX_NAME) return false;
        variable = true;
        const DlValue *v = flow_eval(F, e->items[i]);
        if (v->kind != DL_KIND_SCALAR && v->kind != DL_KIND_UNKNOWN &&
            !(flow_is_tensor(v) && (v->flags & DL_VF_ZERO_DIM)))
            return false;
    }
    return variable;
}

/* `sigmas[step_index]`, `timesteps[i]`: an integer held in a variable takes one element of a
 * 1-D table, a 0-dim tensor that may meet tensors on any device (diffusers' schedulers keep
 * their tables on the CPU and index them so). The rank is not tracked: such a result counts as
 * possibly 0-dim. A literal index (`images[0]`: the first of a batch, usually), a slice,
 * several indices, or a tensor (but a 0-dim one), list or None index keep dimensions. */
static bool picks_one_element(Flow *F, const DlExpr *e, const DlValue *index) {
    if (e->item_count > 1) return picks_one_element_of_each_axis(F, e);
    if (e->item_count != 1 || !index) return false;
    DlExprKind k = e->items[0]->kind;
    if (k != DL_EX_NAME && k != DL_EX_ATTR && k != DL_EX_BINOP && k != DL_EX_CALL) return false;
    /* a 0-dim integer tensor (`env_i` of `for env_i in ids`) indexes as the number it holds */
    return index->kind == DL_KIND_SCALAR || index->kind == DL_KIND_UNKNOWN ||
           (flow_is_tensor(index) && (index->flags & DL_VF_ZERO_DIM));
}

/* `t[0]`, `t[-1]`: one element of a 1-D tensor. */
static bool picks_a_number(const DlExpr *e) {
    if (e->item_count != 1) return false;
    const DlExpr *i = e->items[0];
    if (i->kind == DL_EX_UNARY && i->object) i = i->object; /* -1 */
    return i->kind == DL_EX_NUMBER;
}

/* `torch.where(mask)`, `torch.nonzero(mask, as_tuple=True)`, `mask.nonzero(as_tuple=True)`: a
 * tuple of 1-D tensors of indices, one per axis of the mask. */
static bool gives_index_tuple(Flow *F, const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object) return false;
    const DlArg *as_tuple = dl_ir_keyword(e, "as_tuple");
    bool tuple = as_tuple && as_tuple->value && as_tuple->value->kind == DL_EX_CONST &&
                 flow_streq(as_tuple->value->name, "True");
    const char *q = flow_qualify(F, e->object);
    if (q && flow_streq(q, "torch.where")) return e->arg_count == 1 && !e->args[0].keyword;
    if (q && flow_streq(q, "torch.nonzero")) return tuple;
    return e->object->kind == DL_EX_ATTR && flow_streq(e->object->name, "nonzero") && tuple;
}

/* `tgt[0, 0]` or `tgt[0][0]` of `tgt = torch.tensor([[label]])`: numbers written out for every
 * axis of a tensor made from a display nested as deep (seq2tree's 1x1 targets), one element, a
 * 0-dim tensor. */
static bool indexes_every_axis_of_a_display(Flow *F, const DlExpr *e) {
    uint32_t numbers = 0;
    const DlExpr *of = e;
    for (int depth = 0; of && of->kind == DL_EX_SUBSCRIPT && depth < 8; depth++) {
        for (uint32_t i = 0; i < of->item_count; i++) {
            const DlExpr *x = of->items[i];
            if (x->kind == DL_EX_UNARY && x->object) x = x->object;
            if (x->kind != DL_EX_NUMBER) return false;
        }
        numbers += of->item_count;
        of = of->object;
    }
    if (!of || of->kind != DL_EX_NAME) return false;
    const DlBlock *body = F->fn ? &F->fn->body : &F->env->file->module->body;
    const DlExpr *made = dl_ir_last_assignment(body, of->name, e->span.start);
    const char *q = made && made->kind == DL_EX_CALL ? flow_qualify(F, made->object) : NULL;
    if (!q || (!flow_streq(q, "torch.tensor") && !flow_streq(q, "torch.as_tensor")) ||
        !made->arg_count || made->args[0].keyword)
        return false;
    uint32_t rank = 0;
    for (const DlExpr *d = made->args[0].value;
         d && (d->kind == DL_EX_LIST || d->kind == DL_EX_TUPLE) && d->item_count && rank < 8;
         d = d->items[0])
        rank++;
    return rank && numbers == rank;
}

/* `t[1:]`, `t[:-1]`: one slice, which keeps a 1-D tensor 1-D (a slice lowers to an OTHER
 * expression). */
static bool is_plain_slice(Flow *F, const DlExpr *e) {
    return e->item_count == 1 && e->items[0]->kind == DL_EX_OTHER &&
           strchr(flow_text(F, e->items[0]->span), ':');
}

bool flow_names_text_field(const DlExpr *e) {
    if (e->item_count != 1 || e->items[0]->kind != DL_EX_STRING || !e->items[0]->name)
        return false;
    return flow_is_text_field_name(e->items[0]->name);
}

bool flow_is_name_or_path_field(const char *key) {
    static const char *const fields[] = {"path",     "paths",     "filename", "filenames",
                                         "file_name", "file_names", "file_id", "file_ids",
                                         "name",     "names",     NULL};
    size_t n = strlen(key);
    for (const char *const *f = fields; *f; f++) {
        size_t k = strlen(*f);
        if (strcmp(key, *f) == 0 ||
            (n > k + 1 && key[n - k - 1] == '_' && strcmp(key + n - k, *f) == 0))
            return true;
    }
    return false;
}

bool flow_is_text_field_name(const char *key) {
    static const char *const fields[] = {
        "prompt",    "prompts",   "text",       "texts",      "caption", "captions",
        "sentence",  "sentences", "path",       "paths",      "filename", "filenames",
        "file_name", "file_names", "image_path", "file_id",   "file_ids", "name",
        "names",     "question",  "questions",  "answer_text", "answer_texts",
    };
    size_t n = strlen(key);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (strcmp(key, fields[i]) == 0) return true;
        /* `outfit_texts`, `query_captions`: the same field of something (outfit compatibility's
         * collated item descriptions) */
        size_t f = strlen(fields[i]);
        if (n > f + 1 && key[n - f - 1] == '_' && strcmp(key + n - f, fields[i]) == 0) return true;
    }
    return false;
}

/* Does the file's code call `.item()` on something (`loss.item()`, `out[0].item()`), PyTorch 0.4's
 * read of a number: not a mention in a comment, nor in a docstring's "`.item()`"? */
static bool reads_numbers_with_item(const DlSource *src) {
    static const char call[] = ".item()";
    const char *text = src->text, *end = text + src->len;
    for (const char *p = text; (p = memmem(p, (size_t)(end - p), call, sizeof call - 1));
         p += sizeof call - 1) {
        char before = p > text ? p[-1] : ' ';
        if (!isalnum((unsigned char)before) && before != '_' && before != ')' && before != ']')
            continue;
        const char *line = p;
        while (line > text && line[-1] != '\n') line--;
        if (!memchr(line, '#', (size_t)(p - line))) return true;
    }
    return false;
}

const DlValue *flow_eval_subscript(Flow *F, const DlExpr *e) {
    const char *key = flow_key_of(F, e);
    if (key) {
        const Binding *b = flow_lookup(F, key);
        if (b && b->value) return b->value;
    }
    const DlValue *obj = flow_eval(F, e->object);
    /* `np.where(is_query == True)[0]`: a part of what NumPy gave back, an array on the host
     * (Exploring-DeepSORT's query indices, then `.tolist()`: no read of the device) */
    if (obj->kind == DL_KIND_OTHER && e->object->kind == DL_EX_CALL && e->object->object) {
        const char *q = flow_qualify(F, e->object->object);
        if (q && strncmp(q, "numpy.", 6) == 0) return flow_mk(F, DL_KIND_OTHER);
    }
    /* `sup = batch["supervisions"]` then `sup["cut"]`: a part of the batch read by a string key
     * is a dict of the batch's parts, not a tensor (icefall's supervisions, cut objects and
     * lengths the model reads on the host) */
    bool string_key = e->item_count == 1 && e->items[0]->kind == DL_EX_STRING;
    const char *object_key = flow_key_of(F, e->object);
    if (string_key && object_key && flow_is_tensor(obj) && obj->origin == DL_ORIGIN_BATCH &&
        !(obj->flags & DL_VF_WHOLE_BATCH)) {
        DlValue *dict = flow_mk(F, DL_KIND_SEQ);
        dict->elem = obj;
        flow_state_set(F->st, object_key, dict);
        return obj;
    }
    /* `loss.data[0]` of a 0-dim loss: PyTorch 0.3's `.item()`, a number read on the host (later
     * versions raise IndexError there): a read, whose result is no tensor, and no indexing work
     * (Lextal's pspnet keeps a list of them for np.mean) */
    /* ... also of a loss whose shape is not known here (road_connectivity's `loss1.data[0]` of
     * a project loss module returning `-torch.mean(...)`): a loss is a number */
    const DlExpr *of = e->object->kind == DL_EX_ATTR ? e->object->object : NULL;
    bool named_loss = of && (of->kind == DL_EX_NAME || of->kind == DL_EX_ATTR) && of->name &&
                      strstr(of->name, "loss");
    /* (not in a file that reads numbers with `.item()`, PyTorch 0.4's: there `t.data[0]` is a
     * view of a 1-dim loss, or an IndexError of a 0-dim one, no read: building-extraction's
     * utils) */
    if (flow_is_tensor(obj) && ((obj->flags & DL_VF_ZERO_DIM) || named_loss) &&
        picks_a_number(e) && e->object->kind == DL_EX_ATTR &&
        flow_streq(e->object->name, "data") && !reads_numbers_with_item(F->src)) {
        flow_sync(F, e, e->object, obj, "item");
        return flow_mk(F, DL_KIND_SCALAR);
    }
    const DlValue *index = NULL;
    bool mismatch = flow_index_fact(F, e, obj, false, &index);
    if ((obj->flags & DL_VF_WHOLE_BATCH) && flow_names_text_field(e))
        return flow_mk(F, DL_KIND_STRING); /* collated strings: a list of str */
    /* `pred.shape[0]`: a number (a slice, `x.shape[1:]`, is a torch.Size) */
    if (e->object->kind == DL_EX_ATTR && flow_streq(e->object->name, "shape") &&
        e->item_count == 1 && e->items[0]->kind != DL_EX_OTHER && !flow_is_tensor(obj))
        return flow_mk(F, DL_KIND_SCALAR);
    if (flow_is_tensor(obj)) {
        DlValue *r = dl_value_copy(F->arena, obj);
        r->var = NULL;
        /* `data = data[0]` of a whole batch in a file of torch_geometric's loaders, which yield
         * graph batches (in pairs, PGCL's augmented views): a Batch, which moves in place as a
         * whole batch does */
        bool graph_batch = (obj->flags & DL_VF_WHOLE_BATCH) && e->item_count == 1 &&
                           e->items[0]->kind == DL_EX_NUMBER &&
                           F->env->file->module->mentions_torch_geometric;
        if (!graph_batch) r->flags &= (uint32_t)~DL_VF_WHOLE_BATCH;
        if (!is_plain_slice(F, e)) r->flags &= (uint32_t)~DL_VF_ONE_DIM;
        /* `t[0]` of a 1-D tensor is 0-dim; of one whose rank is not known it may be, and then
         * meets any device: nothing is said of it */
        if (picks_one_element(F, e, index) ||
            (picks_a_number(e) && (obj->flags & (DL_VF_ONE_DIM | DL_VF_DATA_RANK))) ||
            indexes_every_axis_of_a_display(F, e))
            r->flags |= DL_VF_ZERO_DIM;
        /* `torch.where(mask)[0]`: the indices along one axis, 1-D (what iterating them gives,
         * or one of them, `idx[0]`, is an integer that indexes a tensor anywhere) */
        if (picks_a_number(e) && gives_index_tuple(F, e->object)) {
            r->flags &= (uint32_t)~DL_VF_ZERO_DIM;
            r->flags |= DL_VF_ONE_DIM;
        }
        if (mismatch) { /* DL114: the indexing fails; do not cascade */
            r->dev = DL_DEV_UNKNOWN;
            r->origin = DL_ORIGIN_NONE;
        }
        return r;
    }
    if (obj->kind == DL_KIND_SEQ) {
        /* `lossd['loss']` of a dict written out: that entry's value */
        const DlValue *entry = string_key ? dl_value_entry(obj, e->items[0]->name) : NULL;
        if (entry) return entry;
        if (obj->items && e->item_count == 1 && e->items[0]->kind == DL_EX_NUMBER) {
            long idx = strtol(e->items[0]->name, NULL, 10);
            if (idx >= 0 && (uint32_t)idx < obj->item_count) return obj->items[idx];
        }
        if (obj->elem) return obj->elem;
    }
    if (key && flow_name_says_device(F, key)) return flow_named_device(F, key, e->span);
    return flow_unknown();
}

/* {"batch_size": 32, "pin_memory": True}: loader keyword arguments in a dict (DL202). */
uint32_t flow_dict_pin_flags(const DlExpr *e) {
    uint32_t flags = DL_VF_PIN_KNOWN;
    for (uint32_t i = 0; i + 1 < e->item_count; i += 2) {
        const DlExpr *k = e->items[i], *v = e->items[i + 1];
        if (!k || k->kind != DL_EX_STRING || !k->name) return 0; /* **other or computed keys */
        if (flow_streq(k->name, "collate_fn")) return 0; /* see `dict(..., collate_fn=f)` */
        if (!flow_streq(k->name, "pin_memory")) continue;
        if (v->kind == DL_EX_CONST && flow_streq(v->name, "True"))
            flags = DL_VF_PIN_KNOWN | DL_VF_PINNED;
        else
            flags = v->kind == DL_EX_CONST && flow_streq(v->name, "False") ? DL_VF_PIN_KNOWN : 0;
    }
    return flags;
}

static bool flow_is_device_key(const DlExpr *k) {
    return k->kind == DL_EX_STRING && k->name && strcmp(k->name, "device") == 0;
}

/* `CrossEntropyLoss()`, `SmoothL1Loss(reduction="none")`: a loss built here with no weight
 * holds no parameter or buffer, so a plain dict of them (LXMERT's `self.loss_fcts`) leaves
 * nothing unmoved or unsaved. */
static bool loss_without_weight(const DlValue *v, const DlExpr *x) {
    return v->kind == DL_KIND_LOSS && x && x->kind == DL_EX_CALL &&
           (!dl_call_may_give_a_weight(x, false) ||
            (v->literal && dl_torch_is_loss_without_weight(v->literal)));
}

/* `self.org_module = [org_module]`: a module handed in, wrapped in a one-item list so that
 * nn.Module does not register it (LoRA wrappers keep the layer they patch this way, kohya's
 * sd-scripts): its owner, the caller, moves and saves it. */
static bool hides_a_module_handed_in(const Flow *F, const DlExpr *e) {
    /* `[vae]` or `(vae,)` (VAR's `self.vae_proxy: Tuple[VQVAE] = (vae_local,)`) */
    return (e->kind == DL_EX_LIST || e->kind == DL_EX_TUPLE) && e->item_count == 1 &&
           e->items[0]->kind == DL_EX_NAME &&
           F->fn && dl_ir_param_index(F->fn, e->items[0]->name) > 0; /* not self */
}

/* `{"image": ImageEncoder(self)}`: a module built with its owner as an argument refers back to
 * it (VILA's media encoders call the model's own layers); registered, it would make the owner
 * its own submodule, so keeping it in a plain container is deliberate, and what it moves is
 * the owner's. */
static bool built_from_its_owner(const DlExpr *x) {
    if (!x || x->kind != DL_EX_CALL) return false;
    for (uint32_t i = 0; i < x->arg_count; i++)
        if (dl_ir_is_self(x->args[i].value)) return true;
    return false;
}

/* `{'loss': loss, 'n': 3}`: each string key's value; NULL when a key is computed or a `**` splat
 * adds others. */
static const DlDictEntries *string_keyed_entries(Flow *F, const DlExpr *e, const DlValue **values,
                                                 uint32_t n) {
    if (!n || n > 32) return NULL;
    for (uint32_t i = 0; i < n; i++)
        if (!e->items[2 * i] || e->items[2 * i]->kind != DL_EX_STRING || !e->items[2 * i]->name)
            return NULL;
    DlDictEntries *entries = dl_arena_alloc(F->arena, sizeof *entries);
    entries->count = n;
    entries->keys = dl_arena_alloc(F->arena, n * sizeof *entries->keys);
    entries->values = values;
    for (uint32_t i = 0; i < n; i++) entries->keys[i] = e->items[2 * i]->name;
    return entries;
}

const DlValue *flow_eval_sequence(Flow *F, const DlExpr *e) {
    DlValue *s = flow_mk(F, DL_KIND_SEQ);
    bool dict = e->kind == DL_EX_DICT;
    uint32_t n = dict ? e->item_count / 2 : e->item_count;
    const DlValue **items = n ? dl_arena_alloc(F->arena, n * sizeof *items) : NULL;
    const DlValue *elem = NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (dict && e->items[2 * i]) flow_eval(F, e->items[2 * i]);
        const DlExpr *x = dict ? e->items[2 * i + 1] : e->items[i];
        const DlValue *v = x ? flow_eval(F, x) : flow_unknown();
        items[i] = v;
        elem = elem ? dl_value_join(F->arena, elem, v) : v;
        if (flow_adds_unregistered_state(v) && !loss_without_weight(v, x) &&
            !hides_a_module_handed_in(F, e) && !built_from_its_owner(x))
            s->flags |= DL_VF_HAS_MODULES;
        if (dict && (e->items[2 * i] ? flow_is_device_key(e->items[2 * i])
                                     : (v->flags & DL_VF_HOLDS_DEVICE) != 0))
            s->flags |= DL_VF_HOLDS_DEVICE; /* {"device": d} or {**cfg} with one */
        /* {"X_baseline": x_on_gpu}, {"model": model.to(device)}: what `Acqf(**kwargs)` is built
         * from is on a device, so it is too, as when passed by name (flow_instantiate) */
        bool placed = dl_value_on_device(v) || (v->flags & DL_VF_MOVED);
        if (dict && (flow_is_tensor(v) || flow_is_module_like(v)) && placed)
            s->flags |= DL_VF_HOLDS_DEVICE;
    }
    if (!dict) {
        s->items = items;
        s->item_count = n;
    } else {
        s->flags |= flow_dict_pin_flags(e) | DL_VF_DICT;
        s->entries = string_keyed_entries(F, e, items, n);
    }
    s->elem = elem && elem->kind != DL_KIND_UNKNOWN ? elem : NULL;
    s->dev_span = e->span;
    return s;
}

/* The names a comprehension's target binds (`x`, `k, v`), which change in every round of it. */
static void note_comprehension_names(Flow *F, const DlExpr *t, int depth) {
    if (!t || depth > 8) return;
    if (t->kind == DL_EX_NAME && F->comp_count < 16) {
        F->comp_names[F->comp_count++] = t->name;
    } else if (t->kind == DL_EX_TUPLE || t->kind == DL_EX_LIST) {
        for (uint32_t i = 0; i < t->item_count; i++) note_comprehension_names(F, t->items[i], depth + 1);
    } else if (t->kind == DL_EX_STARRED) {
        note_comprehension_names(F, t->object, depth + 1);
    }
}

const DlValue *flow_eval_comprehension(Flow *F, const DlExpr *e) {
    const DlValue *iter =
        dl_expr_extra(e)->iter ? flow_eval(F, dl_expr_extra(e)->iter) : flow_unknown();
    DlFlowState *saved = F->st;
    F->st = flow_state_copy(saved);
    int saved_comp = F->comp_count;
    note_comprehension_names(F, dl_expr_extra(e)->target, 0);
    if (dl_expr_extra(e)->target)
        flow_bind(F, dl_expr_extra(e)->target,
                  flow_element_of(F, iter, dl_expr_extra(e)->target->span));
    for (uint32_t i = 0; i < e->item_count; i++)
        flow_eval(F, e->items[i]);
    const DlValue *elem = e->object ? flow_eval(F, e->object) : flow_unknown();
    F->comp_count = saved_comp;
    /* the device queue outlives the comprehension's names: `{k: t[i].item() for ...}` waited
     * for it, `[model(x) for x in xs]` queued work (DL203, DL201); a generator runs later, if
     * ever, unless a builtin runs it at once (`sum(t.item() for t in ts)`) */
    static const char *const queue_keys[] = {"<device-work>", "<unread-work>"};
    const DlValue *work[2];
    bool work_changed[2];
    bool runs_now = !e->name || strcmp(e->name, "gen") != 0 || F->consumed_generator == e;
    for (int k = 0; k < 2; k++) {
        const Binding *inner_work = flow_state_find(F->st, queue_keys[k]);
        const Binding *outer_work = flow_state_find(saved, queue_keys[k]);
        work[k] = inner_work ? inner_work->value : NULL;
        work_changed[k] = runs_now && (inner_work || outer_work) &&
                          work[k] != (outer_work ? outer_work->value : NULL);
    }
    dl_flow_state_free(F->st);
    F->st = saved;
    for (int k = 0; k < 2; k++)
        if (work_changed[k]) flow_state_set(F->st, queue_keys[k], work[k]);
    DlValue *s = flow_mk(F, DL_KIND_SEQ);
    s->elem = elem->kind != DL_KIND_UNKNOWN ? elem : NULL;
    if (flow_adds_unregistered_state(elem)) s->flags |= DL_VF_HAS_MODULES;
    if (e->name && flow_streq(e->name, "dict")) s->flags |= DL_VF_DICT;
    s->dev_span = e->span;
    return s;
}

bool flow_is_arith(const char *op) {
    static const char *const ops[] = {"+",  "-", "*", "/", "//", "%",
                                      "**", "@", "&", "|", "^",  NULL};
    return dl_name_in_list(op, ops);
}

const DlValue *flow_binary_values(Flow *F, const DlExpr *e, const DlExpr *const *operands,
                                  const DlValue *const *values, uint32_t n);

/* A name (or attribute) holding a clock reading that says it starts an interval (`t_start`,
 * `start_time`, `tic`), or ends one (`time_batch_end`, `stop`, `toc`). */
static bool clock_name_has(const DlExpr *e, const char *const *words) {
    const char *name = e && (e->kind == DL_EX_NAME || e->kind == DL_EX_ATTR) ? e->name : NULL;
    for (const char *const *w = words; name && *w; w++)
        if (strstr(name, *w)) return true;
    return false;
}

static bool names_a_clock_start(const DlExpr *e) {
    static const char *const words[] = {"start", "begin", "tic", NULL};
    return clock_name_has(e, words);
}

static bool names_a_clock_end(const DlExpr *e) {
    static const char *const words[] = {"end", "stop", "toc", "finish", NULL};
    return clock_name_has(e, words);
}

/* Operands are evaluated left to right first; `end - start` of two clock readings is a
 * flow_timing (DL203), everything else combines tensors. */
const DlValue *flow_eval_binary(Flow *F, const DlExpr *e, const DlExpr *const *operands,
                                uint32_t n) {
    const DlValue *values[32];
    if (n > 32) n = 32;
    for (uint32_t i = 0; i < n; i++)
        values[i] = flow_eval(F, operands[i]);
    if (e->kind == DL_EX_BINOP && flow_streq(e->name, "-") && n == 2 &&
        values[0]->kind == DL_KIND_CLOCK && values[1]->kind == DL_KIND_CLOCK) {
        /* `time_epoch_start - time_batch_end`, written backwards (MMPOI's batch log): the
         * names say which reading is the end */
        bool backwards = names_a_clock_start(operands[0]) && names_a_clock_end(operands[1]);
        if (!F->comparing)
            flow_timing(F, e, values[backwards ? 1 : 0], values[backwards ? 0 : 1]);
        return flow_mk(F, DL_KIND_SCALAR);
    }
    /* `'accuracy: %.2f%%' % (epoch, acc)`: %-formatting reads its tensors on the host, as an
     * f-string does (stat453's `compute_accuracy(...)` printed before the clock is read) */
    if (e->kind == DL_EX_BINOP && flow_streq(e->name, "%") && n == 2 &&
        values[0]->kind == DL_KIND_STRING) {
        const DlExpr *args = operands[1];
        if (args->kind == DL_EX_TUPLE && values[1]->kind == DL_KIND_SEQ &&
            values[1]->item_count == args->item_count && values[1]->items) {
            for (uint32_t i = 0; i < args->item_count; i++)
                if (values[1]->items[i])
                    flow_sync(F, args->items[i], args->items[i], values[1]->items[i], "format");
        } else if (flow_is_tensor(values[1])) {
            flow_sync(F, args, args, values[1], "format");
        }
        return flow_mk(F, DL_KIND_STRING);
    }
    return flow_binary_values(F, e, operands, values, n);
}

const DlValue *flow_binary_values(Flow *F, const DlExpr *e, const DlExpr *const *operands,
                                  const DlValue *const *values, uint32_t n) {
    OperandList ops = {0};
    const DlValue *first = NULL;
    bool any_tensor = false, all_scalar = true, any_string = false, any_unknown = false;
    bool host_numbers = true; /* numbers and NumPy's values only (flow_resolve_call) */
    for (uint32_t i = 0; i < n; i++) {
        const DlValue *v = flow_as_operand(F, values[i]);
        if (!first) first = v;
        if (flow_is_tensor(v)) any_tensor = true;
        if (v->kind != DL_KIND_SCALAR && (v->kind != DL_KIND_OTHER || v->dev))
            host_numbers = false;
        /* computed (`feats @ other`), not a name (`opt.lambda_adv`, a weight by convention) */
        if (v->kind == DL_KIND_UNKNOWN && operands[i] && operands[i]->kind != DL_EX_NAME &&
            operands[i]->kind != DL_EX_ATTR)
            any_unknown = true;
        if (v->kind != DL_KIND_SCALAR) all_scalar = false;
        if (v->kind == DL_KIND_STRING) any_string = true;
        if (flow_is_tensor(v)) flow_add_operand(&ops, operands[i], v);
    }
    if (any_tensor) {
        if (ops.count > 1) flow_meet(F, e, ops.items, ops.count, -1);
        DlValue *r = flow_combine(F, e, ops.items, ops.count);
        flow_mark_operator_that_fails(r, ops.items, ops.count);
        /* `feats @ other / self.temp`, the temperature a 0-dim parameter and the product of
         * unknown kind: what it gives has the size and the device of what is not known */
        if (any_unknown && (r->flags & DL_VF_ZERO_DIM)) {
            r->flags &= (uint32_t)~DL_VF_ZERO_DIM;
            r->dev = DL_DEV_UNKNOWN;
            r->dev_name = NULL;
        }
        /* `10 ** torch.linspace(-5, 0, 6)`, `direction / (torch.linalg.norm(direction) + 1e-7)`:
         * a 1-D tensor with numbers and 0-dim tensors gives a 1-D tensor; so do 1-D tensors
         * together, elementwise (`t / (t + 6.0 - 6.0 * t)`), but not `a @ b`, a number */
        bool numbers_else = true;
        uint32_t one_dim = 0;
        for (uint32_t i = 0; i < n && numbers_else; i++) {
            const DlValue *v = values[i];
            if (flow_is_tensor(v) && (v->flags & DL_VF_ONE_DIM)) one_dim++;
            else numbers_else = v->kind == DL_KIND_SCALAR ||
                                 (flow_is_tensor(v) && (v->flags & DL_VF_ZERO_DIM)) ||
                                 /* `torch.arange(0, self.dim, 2) / self.dim`: a size */
                                 (v->kind == DL_KIND_UNKNOWN &&
                                  flow_scalar_expression(F, operands[i], 0));
        }
        bool matmul = e->name && flow_streq(e->name, "@");
        if (numbers_else && (one_dim == 1 || (one_dim > 1 && !matmul))) r->flags |= DL_VF_ONE_DIM;
        if (dl_value_on_kernel_device(r)) /* a @ b on the GPU */
            flow_device_work(F, e, !matmul);
        return r;
    }
    if (all_scalar) return flow_mk(F, DL_KIND_SCALAR);
    if (any_string && e->kind == DL_EX_BINOP) return flow_mk(F, DL_KIND_STRING);
    /* `np.sum(self.items) / len(self.items)`: NumPy arithmetic, on the host */
    if (host_numbers && e->kind == DL_EX_BINOP) return flow_mk(F, DL_KIND_OTHER);
    return flow_unknown();
}

const DlValue *flow_eval_inner(Flow *F, const DlExpr *e) {
    switch (e->kind) {
    case DL_EX_NAME:
        return flow_eval_name(F, e);
    case DL_EX_ATTR:
        return flow_eval_attr(F, e);
    case DL_EX_CALL:
        return flow_eval_call(F, e);
    case DL_EX_SUBSCRIPT:
        return flow_eval_subscript(F, e);
    case DL_EX_NUMBER: {
        DlValue *n = flow_mk(F, DL_KIND_SCALAR);
        n->literal = e->name;
        return n;
    }
    case DL_EX_STRING: {
        for (uint32_t i = 0; i < e->item_count; i++) { /* f"{loss:.3f}" formats on the host */
            const DlValue *v = flow_eval(F, e->items[i]);
            flow_sync(F, e->items[i], e->items[i], v, "format");
        }
        DlValue *s = flow_mk(F, DL_KIND_STRING);
        s->literal = e->name;
        s->dev_span = e->span;
        return s;
    }
    case DL_EX_CONST:
        if (flow_streq(e->name, "None")) return flow_mk(F, DL_KIND_NONE);
        if (flow_streq(e->name, "True") || flow_streq(e->name, "False")) {
            DlValue *b = flow_mk(F, DL_KIND_SCALAR);
            b->literal = e->name; /* `multi_gpu = False`: flow_exec_if skips `if multi_gpu:` */
            return b;
        }
        return flow_mk(F, DL_KIND_OTHER);
    case DL_EX_TUPLE:
    case DL_EX_LIST:
    case DL_EX_SET:
    case DL_EX_DICT:
        return flow_eval_sequence(F, e);
    case DL_EX_BINOP:
        if (!flow_is_arith(e->name)) {
            for (uint32_t i = 0; i < e->item_count; i++)
                flow_eval(F, e->items[i]);
            return flow_unknown();
        }
        return flow_eval_binary(F, e, (const DlExpr *const *)e->items, e->item_count);
    case DL_EX_COMPARE: {
        /* `out == None`: a tensor compared with None is False (or True for !=), a Python bool
         * with no kernel and nothing to wait for, as `out is None` (VoiceCraft's trainer) */
        /* so is one compared with a string or an empty display (EquiBind's `translations ==
         * []` of the list its forward returns): Python's comparison, no kernel */
        bool python_operand = false;
        for (uint32_t i = 0; i < e->item_count; i++) {
            const DlExpr *o = e->items[i];
            python_operand =
                python_operand ||
                (o->kind == DL_EX_CONST && o->name && flow_streq(o->name, "None")) ||
                o->kind == DL_EX_STRING ||
                ((o->kind == DL_EX_LIST || o->kind == DL_EX_TUPLE || o->kind == DL_EX_DICT) &&
                 o->item_count == 0);
        }
        bool equality = e->name && (flow_streq(e->name, "==") || flow_streq(e->name, "!="));
        if (dl_ir_tests_membership_or_identity(e->name) || (equality && python_operand)) {
            const DlValue *first = NULL, *last = NULL;
            for (uint32_t i = 0; i < e->item_count; i++) {
                last = flow_eval(F, e->items[i]);
                if (!i) first = last;
            }
            /* `if y not in predicted:` of a tensor: its `__contains__` reads `(predicted ==
             * y).any()` back on the host (DeepLog's top-k test), a wait as `bool(t)` is */
            bool membership = flow_streq(e->name, "in") || flow_streq(e->name, "not in");
            /* not `'rgb0' in render_out`: a string is a key looked up, no tensor's element; so is
             * a key of a dict (`for name in wanted.keys(): if name not in output:` of the dict a
             * model returned, Brain-Tumor-Segmentation's feature extraction) */
            if (membership && e->item_count == 2 && last && flow_is_tensor(last) &&
                e->items[0]->kind != DL_EX_STRING && first->kind != DL_KIND_STRING &&
                !a_dict_key(F, e->items[0]))
                flow_sync(F, e, e->items[1], last, "bool");
            return flow_mk(F, DL_KIND_SCALAR);
        }
        bool was_comparing = F->comparing;
        F->comparing = true;
        const DlValue *r = flow_eval_binary(F, e, (const DlExpr *const *)e->items, e->item_count);
        F->comparing = was_comparing;
        return flow_is_tensor(r) ? r : flow_mk(F, DL_KIND_SCALAR);
    }
    case DL_EX_UNARY: {
        const DlValue *v = e->object ? flow_eval(F, e->object) : flow_unknown();
        if (flow_streq(e->name, "not")) {
            flow_sync(F, e, e->object, v, "not"); /* `not t` is bool(t) */
            return flow_mk(F, DL_KIND_SCALAR);
        }
        return v;
    }
    case DL_EX_BOOLOP: {
        const DlValue *a = flow_eval(F, e->items[0]);
        flow_sync(F, e->items[0], e->items[0], a, "bool"); /* `t and ...` tests t */
        if (flow_is_tensor(a) && dl_value_on_device(a)) F->operand_tested = e;
        bool cuda_checked = F->place.cuda_checked; /* `use_gpu and net.cuda()` may not run */
        /* `step % N == 0 and bool(finished.all())`: what follows a periodic guard's `and` runs
         * when the guard lets it, now and then (autonmt's early stop) */
        bool every_iteration = F->place.every_iteration;
        if (every_iteration && e->name && flow_streq(e->name, "and") &&
            flow_periodic_guard(F, e->items[0], 0))
            F->place.every_iteration = false;
        const DlValue *b = flow_eval(F, e->items[1]);
        F->place.every_iteration = every_iteration;
        F->place.cuda_checked = cuda_checked;
        if (e->name && flow_streq(e->name, "and") &&
            (flow_says_cuda_available(a) || flow_says_cuda_available(b)))
            return flow_says_cuda_available(a) ? a : b; /* `x and torch.cuda.is_available()` */
        return dl_value_join(F->arena, a, b);
    }
    case DL_EX_COND: {
        if (e->item_count < 2 || !e->object) return flow_unknown();
        /* `1 if out[0, 0] == 17 else 0` tests a tensor as `if` does: the host waits for it
         * (3DVG-Transformer's predict loop) */
        const DlValue *test = flow_eval(F, e->items[0]);
        if (e->items[0] != F->operand_tested) flow_sync(F, e->items[0], e->items[0], test, "if");
        /* `"cuda" if cuda and torch.cuda.is_available() else "cpu"` after `cuda = False` */
        if (flow_never_holds(F, e->items[0])) return flow_eval(F, e->items[1]);
        /* `torch.load(p) if torch.cuda.is_available() else torch.load(p, map_location="cpu")`
         * (MuseTalk): each arm runs where its test says */
        int gpu = flow_gpu_branch(F, e->items[0]);
        /* `x.numpy() if not train_on_gpu else x.cpu().numpy()` (Udacity's CIFAR-10 test loop):
         * the arm that runs without CUDA, where what the GPU branch moved is still here */
        int cuda_test = flow_cuda_availability_test(F, e->items[0]);
        DlPlace saved = F->place;
        bool saved_without_cuda = F->without_cuda;
        if (gpu > 0) F->place.cuda_checked = true;
        F->without_cuda = saved_without_cuda || cuda_test < 0;
        const DlValue *a = flow_eval(F, e->object);
        F->place = saved;
        if (gpu < 0) F->place.cuda_checked = true;
        F->without_cuda = saved_without_cuda || cuda_test > 0;
        const DlValue *b = flow_eval(F, e->items[1]);
        F->place = saved;
        F->without_cuda = saved_without_cuda;
        if (a->kind == DL_KIND_STRING && b->kind == DL_KIND_STRING) {
            /* "cuda" if cond else "cpu": a device chosen at run time */
            DlDeviceTag ta = flow_device_of_string(a->literal),
                        tb = flow_device_of_string(b->literal);
            if (ta && tb && ta != tb) return flow_named_device(F, NULL, e->span);
        }
        return dl_value_join(F->arena, a, b);
    }
    case DL_EX_COMP:
        return flow_eval_comprehension(F, e);
    case DL_EX_STARRED:
        return e->object ? flow_eval(F, e->object) : flow_unknown();
    case DL_EX_AWAIT:
        if (e->object) flow_eval(F, e->object);
        return flow_unknown();
    case DL_EX_WALRUS: {
        const DlValue *v = e->object ? flow_eval(F, e->object) : flow_unknown();
        if (dl_expr_extra(e)->target) flow_bind(F, dl_expr_extra(e)->target, v);
        return v;
    }
    default:
        return flow_unknown();
    }
}

const DlValue *flow_eval(Flow *F, const DlExpr *e) {
    if (!e) return flow_unknown();
    const DlValue *v = flow_eval_inner(F, e);
    /* C++: the compiler says it is a tensor (`batch.data`, a field), even where the flow does
     * not know where it lives */
    if ((!v || v->kind == DL_KIND_UNKNOWN) && (e->flags & DL_EXF_TENSOR_TYPED)) {
        DlValue *t = flow_mk(F, DL_KIND_TENSOR);
        t->var = e->kind == DL_EX_NAME ? e->name : NULL;
        return t;
    }
    return v ? v : flow_unknown();
}
