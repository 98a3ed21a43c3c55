/* Calls into the program and on values: modules, project functions and classes (summaries),
 * tensor and module methods, builtins, and the dispatch that picks among them. */
#define _GNU_SOURCE /* memmem */
#include "dataflow/flow_internal.h"

static bool class_registers_nothing(const DlClassInfo *ci);
static bool class_has_state(const DlClassInfo *from, bool given_no_weight);
static const DlValue *on_the_receivers_device(Flow *F, const DlValue *r, const DlValue *recv);
static DlValue *numpy_array(Flow *F, const DlValue *of);
static bool only_host_tensors(const DlExpr *call, const DlValue *const *argv);
static int argument_index(const DlFunction *fn, int index, const DlExpr *call, bool skip_self);

/* A tensor copied to the host (`x.cpu()`, `x.to("cpu")`) or made there (`torch.zeros(n, 5)`,
 * LatentSync's face detector, which fills it by slices from the device). */
static bool host_copy(const DlValue *v) {
    return v && flow_is_tensor(v) && v->dev == DL_DEV_CPU &&
           (v->origin == DL_ORIGIN_MOVED || v->origin == DL_ORIGIN_FACTORY);
}

/* Host data that is no tensor: a number, a string, a NumPy array (`np.array(spikes)`,
 * `s.cpu().numpy()`), or a list or tuple of such values (a spiking network's per-step
 * `.cpu().numpy()` records, `[spk1, spk2]`). */
static bool plain_host_data(const DlValue *v, int depth) {
    if (!v || depth > 3) return false;
    if (v->kind == DL_KIND_SCALAR || v->kind == DL_KIND_STRING || v->kind == DL_KIND_OTHER)
        return true;
    if (v->kind != DL_KIND_SEQ || (!v->elem && !v->item_count)) return false;
    if (v->elem && !plain_host_data(v->elem, depth + 1)) return false;
    for (uint32_t i = 0; i < v->item_count; i++)
        if (!plain_host_data(v->items[i], depth + 1)) return false;
    return true;
}

/* What a project module's forward (`fi`) returns when that is host copies only (a tensor, or a
 * tuple, list or dict of them) or plain host data (a list of class indices a helper of its
 * builds with `.append(int(row.argmax()))`), rebased for this file; NULL otherwise. */
static const DlValue *host_copies_returned(Flow *F, const DlFunctionInfo *fi) {
    const DlValue *r = fi ? fi->ret : NULL;
    if (!r) return NULL;
    bool all = host_copy(r) || plain_host_data(r, 0);
    if (!all && r->kind == DL_KIND_SEQ && (r->elem || r->item_count)) {
        all = !r->elem || host_copy(r->elem);
        for (uint32_t i = 0; i < r->item_count && all; i++)
            all = host_copy(r->items[i]);
    }
    return all ? flow_rebase(F, r, fi->module) : NULL;
}

/* An item of what a forward returns that is not computed where the module is: a host copy, or a
 * plain Python value (a flag, a count, a name, None), or host data (LMOps' logging losses,
 * `all_logging_losses.append(round(loss.item(), 4))`; a NumPy array). */
static bool kept_as_returned(const DlValue *v) {
    /* also what is computed from host copies there (`acc = out.detach().cpu() == label`:
     * smil_sv_race's accuracy beside the loss) */
    bool computed_on_the_host = v && flow_is_tensor(v) && v->dev == DL_DEV_CPU &&
                                v->origin == DL_ORIGIN_NONE && !(v->flags & DL_VF_MAYBE_CPU);
    return host_copy(v) || computed_on_the_host || v->kind == DL_KIND_NONE ||
           plain_host_data(v, 0);
}

/* A dict written out among what a forward returns, some of whose entries are host values
 * (`{"loss": loss.data.cpu().item(), "n": n}`: a meta-learner's logging state beside its
 * loss). */
static bool dict_keeping_host_values(const DlValue *v) {
    if (!v || !v->entries) return false;
    for (uint32_t k = 0; k < v->entries->count; k++)
        if (kept_as_returned(v->entries->values[k])) return true;
    return false;
}

/* That dict with its host values as returned and the rest not known: an input's entry handed
 * back (`batch["shots"]`), or a tensor the forward computed before its own read back, which
 * waited for it already. */
static const DlValue *host_values_kept(Flow *F, const DlValue *v, const DlFunctionInfo *fi) {
    DlValue *d = dl_value_copy(F->arena, v);
    DlDictEntries *e = dl_value_entries_copy(F->arena, v->entries);
    for (uint32_t k = 0; k < e->count; k++)
        e->values[k] = kept_as_returned(e->values[k]) ? flow_rebase(F, e->values[k], fi->module)
                                                      : flow_unknown();
    d->entries = e;
    d->elem = NULL;
    d->var = NULL;
    d->home = NULL;
    return d;
}

/* A project module's forward returning a tuple written out in which some items are host copies
 * or plain values and the others computed (`return self.lin(x), torch.as_tensor(0)`: DPVO's KL
 * term; `return loss, is_last`), or a list of such tuples: the same with those items as
 * returned and the rest as `computed`; NULL for any other return. */
static const DlValue *kept_host_copies(Flow *F, const DlValue *r, const DlFunctionInfo *fi,
                                      const DlValue *computed, int depth) {
    if (!r || r->kind != DL_KIND_SEQ || depth > 2) return NULL;
    if (!r->items && r->elem) { /* a list of such tuples, one per step (DPVO's trajectory) */
        const DlValue *elem = kept_host_copies(F, r->elem, fi, computed, depth + 1);
        if (!elem) return NULL;
        DlValue *l = dl_value_copy(F->arena, r);
        l->elem = elem;
        l->var = NULL;
        l->home = NULL;
        return l;
    }
    if (!r->items || r->item_count < 2) return NULL;
    bool any = false;
    for (uint32_t i = 0; i < r->item_count && !any; i++)
        any = kept_as_returned(r->items[i]) || dict_keeping_host_values(r->items[i]);
    if (!any) return NULL;
    DlValue *t = dl_value_copy(F->arena, r);
    const DlValue **items = dl_arena_alloc(F->arena, r->item_count * sizeof *items);
    for (uint32_t i = 0; i < r->item_count; i++)
        items[i] = kept_as_returned(r->items[i])           ? flow_rebase(F, r->items[i], fi->module)
                   : dict_keeping_host_values(r->items[i]) ? host_values_kept(F, r->items[i], fi)
                                                           : computed;
    t->items = items;
    t->elem = NULL;
    t->var = NULL;
    t->home = NULL;
    return t;
}

/* Does `e` move something to a device: a `.to(...)` / `.cuda()` call, or a helper named for it
 * (`to_device(...)`, `move_to_device(...)`), anywhere in it? */
static bool moves_to_a_device(const DlExpr *e, int depth) {
    if (!e || depth > 24) return false;
    if (e->kind == DL_EX_CALL && e->object) {
        const DlExpr *c = e->object;
        const char *name = c->kind == DL_EX_ATTR || c->kind == DL_EX_NAME ? c->name : NULL;
        if (name &&
            (flow_streq(name, "to") || flow_streq(name, "cuda") || strstr(name, "to_device")))
            return true;
    }
    if (moves_to_a_device(e->object, depth + 1)) return true;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (moves_to_a_device(e->items[i], depth + 1)) return true;
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (moves_to_a_device(e->args[i].value, depth + 1)) return true;
    return false;
}

/* A wrapper `def inner(self, *args, **kwargs):` that binds its `args` anew to what moved them
 * (`args, kwargs = to_device((args, kwargs), self.device)`). */
static bool wrapper_moves_its_args(const DlFunction *inner) {
    const char *star = NULL;
    for (uint32_t i = 0; i < inner->param_count && !star; i++)
        if (inner->params[i].star == 1) star = inner->params[i].name;
    if (!star) return false;
    for (uint32_t i = 0; i < inner->body.count; i++) {
        const DlStmt *s = inner->body.items[i];
        if (s->kind != DL_ST_ASSIGN || s->target_count != 1 || !moves_to_a_device(s->value, 0))
            continue;
        const DlExpr *t = s->targets[0];
        if (t->kind == DL_EX_NAME && flow_streq(t->name, star)) return true;
        for (uint32_t k = 0; t->kind == DL_EX_TUPLE && k < t->item_count; k++)
            if (t->items[k]->kind == DL_EX_NAME && flow_streq(t->items[k]->name, star)) return true;
    }
    return false;
}

/* `@move_input_tensors_to_device` on a forward: a project decorator whose wrapper moves every
 * tensor argument to the module's device before the body runs (pi-zero), so the module takes
 * its inputs from anywhere. */
static bool decorated_to_move_inputs(Flow *F, const DlFunctionInfo *forward_info) {
    const DlFunction *forward = forward_info->fn;
    /* the decorator's name is the one the forward's own file sees */
    const DlFileFacts *home = dl_project_file(F->env->project, forward_info->module);
    for (uint32_t d = 0; d < forward->decorator_count && home; d++) {
        const DlExpr *dec = forward->decorators[d];
        if (!dec || dec->kind != DL_EX_NAME) continue;
        const char *q = dl_project_import(home, dec->name);
        const DlFunctionInfo *fi =
            dl_project_find_function(F->env->project, home, q ? q : dec->name);
        if (!fi || !fi->fn) continue;
        for (uint32_t i = 0; i < fi->fn->body.count; i++) {
            const DlStmt *s = fi->fn->body.items[i];
            if (s->kind == DL_ST_DEF && s->parts->func && wrapper_moves_its_args(s->parts->func))
                return true;
        }
    }
    return false;
}

/* `self.forward = self.A if flag else self.B` (or `= self.A`) among the statements of the
 * class's `__init__`: the methods A and B of the class, in `out`; how many (0 to 2). */
static uint32_t forward_alternatives(const DlProject *p, const DlClassInfo *ci,
                                     const DlFunctionInfo **out) {
    const DlFunction *init = dl_ir_method_named(ci->cls, "__init__");
    for (uint32_t i = 0; init && i < init->body.count; i++) {
        const DlStmt *s = init->body.items[i];
        if (s->kind != DL_ST_ASSIGN || s->target_count != 1 ||
            !dl_ir_is_self_attr(s->targets[0], "forward") || !s->value)
            continue;
        const DlExpr *picks[2] = {s->value, NULL};
        if (s->value->kind == DL_EX_COND && s->value->item_count >= 2) {
            picks[0] = s->value->object;
            picks[1] = s->value->items[1];
        }
        uint32_t n = 0;
        for (int k = 0; k < 2 && picks[k]; k++) {
            const DlExpr *m = picks[k];
            if (m->kind != DL_EX_ATTR || !m->name || !dl_ir_is_self(m->object)) return 0;
            const DlFunctionInfo *fi = dl_project_method(p, ci, m->name);
            if (!fi || !fi->fn) return 0;
            out[n++] = fi;
        }
        return n;
    }
    return 0;
}

/* The forwards of a module of one project class or another (DlValue.either_cls), in `out`:
 * 2, or 0 when one has none of its own or of a project base. */
static uint32_t either_forward(const DlProject *p, const DlValue *module,
                               const DlFunctionInfo **out) {
    for (int k = 0; k < 2; k++) {
        const DlFunctionInfo *fi =
            module->either_cls[k] ? dl_project_method(p, module->either_cls[k], "forward") : NULL;
        if (!fi || !fi->fn) return 0;
        out[k] = fi;
    }
    return 2;
}

/* The `*args` (or, for a keyword it does not name, the `**kwargs`) of `forward` that collects
 * the argument at parameter `p` (1 + its position, or dl_ir_param_index of `kw`), when the body
 * never names it: `def forward(self, emb, *args): return self.w(emb)` drops what it is handed
 * (pase_voxceleb's heads, called as `model.out_proj(mu, torch.ones(n))`), which meets nothing. */
static bool dropped_by_forward(const DlProject *project, const DlFunction *forward, int p,
                               const char *kw) {
    int collector = -1;
    for (uint32_t k = 0; k < forward->param_count && collector < 0; k++) {
        int star = forward->params[k].star;
        if (kw ? star == 2 && p < 0 : star == 1 && p >= (int)k) collector = (int)k;
    }
    const DlFunctionInfo *info = collector >= 0 ? dl_project_function_of(project, forward) : NULL;
    const DlBlock *body = &forward->body;
    if (!info || !info->module || !info->module->source || !body->count) return false;
    DlSpan span = {body->items[0]->span.start, body->items[body->count - 1]->span.end};
    return !dl_ir_span_mentions(info->module->source, span, forward->params[collector].name);
}

/* An argument that may not meet the module where it is: a CPU tensor, or a tensor on one GPU
 * written out given to a module moved whole to another (`cuda:2` to a `cuda:4` model). */
static bool elsewhere_than_the_module(const DlValue *module, const DlValue *arg) {
    if (dl_value_is_cpu_tensor(arg)) return true;
    /* `self.decoder([ids, labels])`: a list or tuple written out holding one */
    for (uint32_t i = 0; arg->kind == DL_KIND_SEQ && arg->items && i < arg->item_count; i++)
        if (arg->items[i] && dl_value_is_cpu_tensor(arg->items[i])) return true;
    return dl_value_module_on_gpu_index(module) && arg->kind == DL_KIND_TENSOR &&
           flow_two_gpu_indices(module, arg);
}

/* A tensor the code made on the host itself: a factory's or a copy to the CPU (not 0-dim). */
static bool made_on_the_host(const DlValue *v) {
    return dl_value_is_cpu_tensor(v) &&
           (v->origin == DL_ORIGIN_FACTORY || v->origin == DL_ORIGIN_MOVED);
}

/* Among these operands, a tensor the code made on the host, and none on a device (`self(image,
 * text)` with the image moved: the module computes there, whatever the text is). */
static bool only_host_made_among(const DlOperand *ops, uint32_t n) {
    bool host = false;
    for (uint32_t i = 0; i < n; i++) {
        if (dl_value_on_device(ops[i].value)) return false;
        host |= made_on_the_host(ops[i].value);
    }
    return host;
}

static bool attribute_is_state(const DlValue *v);

/* A project module whose own forward reads nothing of its state: every `self.` in it names an
 * attribute holding a plain value (`self.strike`), none a parameter, buffer or submodule (nor
 * one of unknown kind), and it calls no method of self nor hands self on (deep-hedging's
 * BaselineEuropeanCall, whose LSTM its forward never uses): it computes where its inputs
 * are. */
static bool forward_reads_no_state(const DlClassInfo *ci, const DlFunctionInfo *forward) {
    const DlFunction *fn = forward ? forward->fn : NULL;
    const DlSource *src = forward && forward->module ? forward->module->source : NULL;
    if (!fn || !src || fn->owner != ci->cls || ci->maybe_module || !fn->body.count ||
        fn->span.end > src->len || fn->decorator_count)
        return false;
    /* an abstract forward (`pass`, `raise NotImplementedError`) is a subclass's to write */
    bool returns_a_value = false;
    for (uint32_t i = 0; i < fn->body.count; i++)
        returns_a_value |= fn->body.items[i]->kind == DL_ST_RETURN && fn->body.items[i]->value;
    if (!returns_a_value || dl_ir_span_mentions(src, fn->span, "NotImplemented")) return false;
    const char *p = src->text + fn->body.items[0]->span.start, *end = src->text + fn->span.end;
    for (; (p = memmem(p, (size_t)(end - p), "self", 4)) != NULL; p += 4) {
        if (p > src->text && dl_source_name_byte(p[-1])) continue;
        if (p + 4 < end && dl_source_name_byte(p[4])) continue;
        if (p + 5 >= end || p[4] != '.') return false; /* `self` handed on, `self(...)` */
        const char *name = p + 5, *after = name;
        while (after < end && dl_source_name_byte(*after)) after++;
        const char *next = after;
        while (next < end && (*next == ' ' || *next == '\t')) next++;
        if (after == name || (next < end && *next == '(')) return false; /* a method */
        char attr[64];
        if ((size_t)(after - name) >= sizeof attr) return false;
        memcpy(attr, name, (size_t)(after - name));
        attr[after - name] = '\0';
        const DlAttr *a = dl_project_attr(ci, attr);
        if (!a || a->value->kind == DL_KIND_UNKNOWN || attribute_is_state(a->value)) return false;
    }
    return !dl_ir_span_mentions(src, fn->span, "super(");
}

/* Calling a module (or a loss): its operands meet; the output lives where the module does. */
const DlValue *flow_call_module(Flow *F, const DlExpr *call, const DlExpr *callee_expr,
                                const DlValue *callee, const DlValue *const *argv) {
    /* a project module that defines `__call__` runs that, not forward, with its own calling
     * convention (stable-dreamfusion's Zero123 samples and hands back numpy images): what it
     * returns is what its summary says */
    const DlFunctionInfo *own_call =
        callee->cls ? dl_project_method(F->env->project, callee->cls, "__call__") : NULL;
    if (own_call)
        return on_the_receivers_device(F, flow_call_summary(F, own_call, call, argv, true), callee);
    OperandList ops = {0};
    /* a project module with no parameters, buffers or submodules (a sinusoidal embedding)
     * computes where its inputs are: it has no device of its own for them to meet */
    const DlFunctionInfo *forward_info =
        callee->cls ? dl_project_method(F->env->project, callee->cls, "forward") : NULL;
    bool stateless = (callee->cls && class_registers_nothing(callee->cls) &&
                      !(callee->flags & DL_VF_CONSTRUCTED)) || /* a loss given a weight */
                     (callee->flags & DL_VF_STATELESS) || /* `nn.Dropout(p).to(device)` */
                     /* (not `self(...)` in a class's own method: a subclass's may run) */
                     (callee->kind == DL_KIND_MODULE && callee->cls && callee_expr &&
                      !dl_ir_is_self(callee_expr) &&
                      !(callee_expr->kind == DL_EX_ATTR && dl_ir_is_self(callee_expr->object)) &&
                      forward_reads_no_state(callee->cls, forward_info));
    if (!stateless) flow_add_operand(&ops, callee_expr, callee);
    /* the operands before the arguments': the callee's own, when it was added (not for a value
     * of another kind bound to the name: SPECTRE's `self.acts = []`, then `self.acts(x)`) */
    const uint32_t callee_ops = ops.count;
    /* nn.CTCLoss reads its arguments as F.ctc_loss does */
    bool ctc = callee->kind == DL_KIND_LOSS && callee->literal &&
               flow_streq(callee->literal, "torch.nn.CTCLoss");
    /* a loss whose class depends on the path (`nn.CTCLoss()` if the head is CTC, else
     * `nn.CrossEntropyLoss()`: deep-text-recognition-benchmark) called with four arguments:
     * only CTC's (log_probs, targets, input_lengths, target_lengths) take four */
    if (callee->kind == DL_KIND_LOSS && !callee->literal && call->arg_count == 4 &&
        !dl_ir_keyword(call, "**") && !flow_has_splat(call))
        ctc = true;
    /* a project module's forward that reads an input only on the host (`lengths` for
     * pack_padded_sequence) takes it on the CPU, and one that copies an input to where it
     * computes (pytorch-metric-learning's losses: `labels = c_f.to_device(labels, embeddings)`,
     * PhotoMaker's pipeline: `id_embeds = id_embeds.unsqueeze(0).to(device=device)`) takes it
     * anywhere; looked at only when a CPU tensor (or another GPU's) is passed */
    const DlFunction *forward = NULL;
    uint64_t host_only = 0;
    bool moved_by_decorator = false; /* every argument, keywords into **kwargs too */
    for (uint32_t i = 0; i < call->arg_count && forward_info && !forward; i++)
        if (elsewhere_than_the_module(callee, argv[i])) {
            forward = forward_info->fn;
            host_only = flow_host_only_params_at(F, forward) | flow_params_moved_inside(forward);
            moved_by_decorator = decorated_to_move_inputs(F, forward_info);
        }
    /* no `def forward`, but `self.forward = self.forward_flen if fixed_len else
     * self.forward_vlen` in `__init__` (antibody_task's LSTM_Bi): the inputs every one of those
     * methods reads only on the host, or moves itself */
    const DlFunctionInfo *alternatives[2];
    uint32_t alternative_count = !forward_info && callee->cls
                                     ? forward_alternatives(F->env->project, callee->cls,
                                                            alternatives)
                                     : 0;
    /* ... or a module of one project class or another (`model = SeqLSTM()` if the config says
     * so, else `SeqModel()`: one moves its lengths, the other packs them on the host) */
    if (!forward_info && !callee->cls && callee->either_cls[0])
        alternative_count = either_forward(F->env->project, callee, alternatives);
    for (uint32_t i = 0; i < call->arg_count && alternative_count && !forward; i++)
        if (elsewhere_than_the_module(callee, argv[i])) {
            forward = alternatives[0]->fn;
            host_only = ~UINT64_C(0);
            for (uint32_t a = 0; a < alternative_count; a++)
                host_only &= alternatives[a]->fn->param_count == forward->param_count
                                 ? flow_host_only_params_at(F, alternatives[a]->fn) |
                                       flow_params_moved_inside(alternatives[a]->fn)
                                 : 0;
        }
    /* a module without state whose forward reads an input only as numbers of one element
     * (`x1.mean()`, `x2.std()`): 0-dim values, which meet any device */
    uint64_t reduced = stateless && forward_info && forward_info->fn
                           ? flow_params_reduced_to_scalars(forward_info->fn)
                           : 0;
    unsigned position = 0;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (kw && kw[0] == '*') continue;
        bool meets = !ctc || !dl_torch_argument_meets_no_device("torch.nn.functional.ctc_loss",
                                                                 position, kw);
        if (moved_by_decorator) meets = false;
        if (reduced) {
            int p = kw ? dl_ir_param_index(forward_info->fn, kw) : (int)position + 1;
            if (p >= 0 && p < DL_MAX_PARAM_BITS && (reduced & (UINT64_C(1) << p))) meets = false;
        }
        if (forward) {
            int p = kw ? dl_ir_param_index(forward, kw) : (int)position + 1; /* after self */
            if (p >= 0 && p < DL_MAX_PARAM_BITS && (uint32_t)p < forward->param_count &&
                (host_only & (UINT64_C(1) << p)))
                meets = false;
            /* `model(images, shape=s)` of a forward that takes no `shape`, nor `**kwargs`
             * (salient-OD's scripts run with another model's call): a TypeError before any
             * input meets another */
            bool takes = !kw || p >= 0 || forward != (forward_info ? forward_info->fn : NULL);
            for (uint32_t k = 0; !takes && k < forward->param_count; k++)
                takes = forward->params[k].star == 2;
            if (!takes) meets = false;
            if (forward_info && forward == forward_info->fn &&
                dropped_by_forward(F->env->project, forward, p, kw))
                meets = false;
        }
        if (!kw) position++;
        /* `self.lstm(x, (h0, c0))`: the tensors of a tuple or list written out in the call
         * meet it too (not a dict or list variable, which may carry host-side lengths) */
        const DlExpr *a = call->args[i].value;
        bool display = (a->kind == DL_EX_TUPLE || a->kind == DL_EX_LIST) &&
                       argv[i]->kind == DL_KIND_SEQ && argv[i]->items;
        if (meets && display) flow_add_operand_deep(F, &ops, a, argv[i]);
        else if (meets) flow_add_operand(&ops, a, argv[i]);
    }
    if (stateless) {
        if (ops.count > 1) flow_meet(F, call, ops.items, ops.count, -1);
        DlValue *r = flow_combine(F, call, ops.items, ops.count);
        /* a library layer without state (`nn.InstanceNorm2d(40)(freqs)`) transforms its input
         * where it is, as an elementwise op does: what a CPU factory made stays that factory's */
        if (!(callee->flags & DL_VF_STATELESS)) {
            r->origin = DL_ORIGIN_MODEL;
        } else if (!r->dev && callee->dev && callee->dev != DL_DEV_CPU) {
            /* ... and where its input's place is not known (`self.avg_pool(x)` of what the
             * blocks before it computed: I3D's extract_features), where the module holding it
             * computes */
            flow_take_place(r, callee);
            r->origin = DL_ORIGIN_MODEL;
        }
        /* a tuple its forward writes out keeps its plain values (`return out, self.sizes`) */
        const DlValue *mixed =
            forward_info ? kept_host_copies(F, forward_info->ret, forward_info, r, 0) : NULL;
        return mixed ? mixed : r;
    }
    if (ops.count > 1 && !(callee->flags & DL_VF_SCATTERS))
        flow_meet(F, call, ops.items, ops.count, callee_ops ? 0 : -1);
    /* a project forward that hands back host copies (`return self.net(lq).cpu()`, a dict of
     * `.cpu()` results: mmediting's restorers in test mode, second.pytorch's metric modules):
     * its output is on the CPU wherever the module is */
    const DlValue *copies = host_copies_returned(F, forward_info);
    if (copies) return copies;
    if (callee->flags & DL_VF_SCATTERS) {
        /* `nn.DataParallel(nn.Sequential(Stash(), Pop()))` of a module never moved: with a GPU
         * it still gathers the outputs on its output_device, without one they stay where the
         * module computed them; which one, is not known here */
        bool on_host = callee->dev == DL_DEV_CPU;
        return flow_with_device(F, flow_mk(F, DL_KIND_TENSOR), on_host ? NULL : callee,
                                DL_ORIGIN_MODEL, call->span);
    }
    if (callee->kind == DL_KIND_LOSS) {
        DlValue *r = flow_combine(F, call, ops.items + callee_ops, ops.count - callee_ops);
        r->flags |= DL_VF_ZERO_DIM;
        r->origin = DL_ORIGIN_NONE;
        return r;
    }
    /* outside forward, a module on "the module's device" (self, a part of it) given a tensor
     * the code made on the CPU computes only where that works, on the CPU (an RL agent's
     * `self.forward(torch.from_numpy(state))` then `.numpy()`): where its output is, is not
     * known (a loader's batch is not taken so: the loop may be meant to move it) */
    if (callee->dev == DL_DEV_MODULE && !F->is_forward &&
        only_host_made_among(ops.items + callee_ops, ops.count - callee_ops))
        return flow_mk(F, DL_KIND_TENSOR);
    /* a model on one GPU given a tensor on another raises there: where its output would be is
     * not known (no second finding on the loss of it) */
    if (dl_value_module_on_gpu_index(callee) && flow_devices_conflict(ops.items, ops.count))
        return flow_mk(F, DL_KIND_TENSOR);
    if (callee->dev && callee->dev != DL_DEV_CPU) {
        DlValue *r =
            flow_with_device(F, flow_mk(F, DL_KIND_TENSOR), callee, DL_ORIGIN_MODEL, call->span);
        const DlValue *mixed =
            forward_info ? kept_host_copies(F, forward_info->ret, forward_info, r, 0) : NULL;
        return mixed ? mixed : r;
    }
    if (callee->dev == DL_DEV_CPU) {
        /* an unmoved module: output on the CPU only if its inputs were */
        DlValue *r = flow_combine(F, call, ops.items + callee_ops, ops.count - callee_ops);
        r->origin = DL_ORIGIN_MODEL;
        return r;
    }
    DlValue *r = flow_combine(F, call, ops.items + callee_ops, ops.count - callee_ops);
    r->origin = DL_ORIGIN_MODEL;
    /* a module whose device is not known (a parameter typed `nn.Module`) given CPU inputs: its
     * output is where the module computes, which CPU inputs do not tell (GFSLT-VLP's
     * train_one_epoch: its forward moves them with `.cuda()`, the caller moved the model) */
    if (r->dev == DL_DEV_CPU) {
        r = flow_mk(F, DL_KIND_TENSOR);
        r->origin = DL_ORIGIN_MODEL;
    }
    return r;
}

/* `v` and what it holds (a tuple's items, a sequence's or loader's element), copied to say that
 * their spans are read in `home`, the file whose summary they come from; a part already from a
 * third file keeps its own. Four levels deep: past that a part is dropped. */
static DlValue *rehomed(Flow *F, const DlValue *v, const DlModuleIR *home, int depth) {
    DlValue *c = dl_value_copy(F->arena, v);
    if (!c->home) c->home = home;
    if (depth >= 4) {
        c->elem = NULL;
        c->items = NULL;
        c->item_count = 0;
        c->entries = NULL;
        return c;
    }
    if (v->entries) {
        DlDictEntries *e = dl_value_entries_copy(F->arena, v->entries);
        for (uint32_t i = 0; i < e->count; i++) {
            const DlValue *x = e->values[i];
            if (x && !x->home) e->values[i] = rehomed(F, x, home, depth + 1);
        }
        c->entries = e;
    }
    if (c->elem && !c->elem->home) c->elem = rehomed(F, c->elem, home, depth + 1);
    if (c->item_count) {
        const DlValue **items = dl_arena_alloc(F->arena, c->item_count * sizeof *items);
        for (uint32_t i = 0; i < c->item_count; i++)
            items[i] = !v->items[i] || v->items[i]->home ? v->items[i]
                                                          : rehomed(F, v->items[i], home, depth + 1);
        c->items = items;
    }
    return c;
}

/* A value from a function's summary. Its spans stay where the value was made (a factory in a
 * helper is reported in the helper); `home` records the file when that is another one. */
const DlValue *flow_rebase(Flow *F, const DlValue *v, const DlModuleIR *from) {
    if (!v || (v->kind == DL_KIND_UNKNOWN && !v->dev)) return flow_unknown();
    /* another file's values carry that file's spans, and so do their parts (`wCoeff[0]` of
     * `getWarpCoeff` in model.py, which returns a tuple of two tensors; FEDformer's
     * `data_set, data_loader` returned by data_provider in another file) */
    const DlModuleIR *home = v->home ? v->home : from != F->env->file->module ? from : NULL;
    DlValue *c = home ? rehomed(F, v, home, 0) : dl_value_copy(F->arena, v);
    c->var = NULL;
    if (c->origin == DL_ORIGIN_PLAIN_ATTR) c->origin = DL_ORIGIN_NONE;
    return c;
}

/* Does argument `i` of `call` reach parameter `p`: by its keyword, or as the positional argument
 * at `positional` (a parameter after `*args` or a bare `*` takes keywords only)? Advances
 * `*pos`, the count of positional arguments seen, past a positional one. */
static bool argument_reaches(const DlExpr *call, uint32_t i, const DlParam *p, int positional,
                             uint32_t *pos) {
    const char *kw = call->args[i].keyword;
    if (kw) return strcmp(kw, p->name) == 0;
    return (int)(*pos)++ == positional && !p->star && !p->keyword_only;
}

bool flow_names_options(const DlExpr *e) {
    static const char *const names[] = {"args", "opt",     "opts", "options", "config",   "cfg",
                                        "conf", "hparams", "hp",   "flags",   "settings", NULL};
    return (e->kind == DL_EX_NAME || e->kind == DL_EX_ATTR) && e->name &&
           dl_name_in_list(e->name, names);
}

/* `data.to(args.device)` in a helper handed the caller's options as `args` (a project object, or
 * a name that says options: a tensor of unknown device passed as `x` of `x.device` says nothing):
 * the device the caller names as `<its argument>.device` (`device` the rest of the name,
 * ".device"), when the argument is a name or a dotted one; NULL otherwise. */
static const DlValue *device_of_the_options(Flow *F, const DlExpr *arg, const DlValue *value,
                                            const char *device) {
    const char *owner =
        arg->kind == DL_EX_NAME || arg->kind == DL_EX_ATTR ? dl_ir_dotted(F->arena, arg) : NULL;
    if (!owner || dl_ir_is_self(arg)) return NULL;
    if (value->kind != DL_KIND_INSTANCE && !flow_names_options(arg)) return NULL;
    DlValue *d = flow_mk(F, DL_KIND_DEVICE);
    d->dev = DL_DEV_NAMED;
    d->dev_name = dl_arena_printf(F->arena, "%s%s", owner, device);
    return d;
}

/* `device=param["device"]` with `param` a parameter: the device the caller's dict holds there,
 * when it is a display written out at the top of its file (Latent-ODE's `param = {"device":
 * torch.device("cpu"), ...}` handed to `make_batch_mask(batch, param)`); else `v` as it is. */
static const DlValue *bind_device_of_an_entry(Flow *F, const DlValue *v, const DlFunction *fn,
                                              const DlExpr *call, bool skip_self) {
    const char *name = v->dev_name, *open = strchr(name, '[');
    size_t len = strlen(name);
    if (!call || !open || open == name || name[len - 1] != ']' || strchr(open + 1, '[')) return v;
    const char *param = dl_arena_strndup(F->arena, name, (size_t)(open - name));
    const char *key = dl_arena_strndup(F->arena, open + 1, (size_t)(name + len - 1 - open - 1));
    int index = dl_ir_param_index(fn, param);
    int i = index >= 0 ? argument_index(fn, index, call, skip_self) : -1;
    const DlValue *dev = i >= 0 ? flow_device_of_dict_entry(F, call->args[i].value, key) : NULL;
    if (!dev) return v;
    DlValue *c = dl_value_copy(F->arena, v);
    c->dev = dev->dev;
    c->dev_name = dev->dev_name;
    return c;
}

/* One value of flow_bind_parameter_device (not the parts of a sequence). */
static const DlValue *bind_device_of_value(Flow *F, const DlValue *v, const DlFunction *fn,
                                           const DlExpr *call, const DlValue *const *argv,
                                           bool skip_self) {
    if (v->dev != DL_DEV_NAMED || !v->dev_name) return v;
    /* `device=x.device` with x a parameter: the device of what the caller passes as x */
    const char *name = v->dev_name;
    size_t owner = flow_device_owner_length(name);
    bool of_tensor = owner > 0;
    if (of_tensor) name = dl_arena_strndup(F->arena, name, owner);
    /* `device=self.filter_banks.device`: the device of something the receiver holds, which may
     * be the CPU when the caller never moved it. The caller cannot name it: unknown. */
    const char *dot = strchr(name, '.');
    /* ... unless the call is on self, in a method of the class, and the name is the
     * receiver's device setting: `self.policy_device` there names what it names here (a PPO
     * trainer's `buf = self._collect_one_batch(prompts)`) */
    bool on_self = !of_tensor && call && call->object && call->object->kind == DL_EX_ATTR &&
                   dl_ir_is_self(call->object->object);
    if (dot && fn->owner && !on_self && fn->param_count > 0 && !fn->params[0].star &&
        strlen(fn->params[0].name) == (size_t)(dot - name) &&
        strncmp(fn->params[0].name, name, (size_t)(dot - name)) == 0) {
        DlValue *c = dl_value_copy(F->arena, v);
        c->dev = DL_DEV_UNKNOWN;
        c->dev_name = NULL;
        c->origin = DL_ORIGIN_NONE;
        return c;
    }
    int index = dl_ir_param_index(fn, name);
    if (index < 0 && of_tensor) {
        /* `device=leaf_times.device` with leaf_times a parameter of the class's __init__ (read
         * back through an attribute) or a local of the callee: a tensor the caller cannot
         * name, wherever the caller put it (pyro's CoalescentTimes given CPU times) */
        DlValue *c = dl_value_copy(F->arena, v);
        c->dev = DL_DEV_UNKNOWN;
        c->dev_name = NULL;
        c->origin = DL_ORIGIN_NONE;
        return c;
    }
    if (index < 0) return of_tensor ? v : bind_device_of_an_entry(F, v, fn, call, skip_self);
    const DlParam *p = &fn->params[index];
    const DlValue *dev = NULL;
    bool passed = false;
    int positional = index - (skip_self ? 1 : 0);
    for (uint32_t i = 0, pos = 0; call && i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (kw && kw[0] == '*') return &dl_value_unknown;
        if (argument_reaches(call, i, p, positional, &pos)) {
            if (!of_tensor)
                dev = flow_device_arg(F, call->args[i].value, argv[i]);
            else if (flow_is_tensor(argv[i]) && argv[i]->dev)
                dev = argv[i];
            else if (argv[i]->kind == DL_KIND_UNKNOWN || argv[i]->kind == DL_KIND_INSTANCE)
                dev = device_of_the_options(F, call->args[i].value, argv[i], v->dev_name + owner);
            passed = true;
            break;
        }
    }
    /* (the default only where the construction is known: an instance of unknown making, an
     * input annotated `batch: TorchBatch`, holds what its maker gave) */
    if (call && !passed && !of_tensor && p->default_value &&
        p->default_value->kind == DL_EX_STRING && flow_device_of_string(p->default_value->name)) {
        DlValue *d = flow_mk(F, DL_KIND_DEVICE);
        d->dev = flow_device_of_string(p->default_value->name);
        d->dev_name = p->default_value->name;
        dev = d;
    }
    DlValue *c = dl_value_copy(F->arena, v);
    c->dev = dev ? dev->dev : DL_DEV_UNKNOWN;
    c->dev_name = dev ? dev->dev_name : NULL;
    /* `x.device` of the callee's parameter, bound to this call's argument: where that is,
     * known or not, not where the callee could not tell */
    c->flags = (c->flags & (uint32_t)~DL_VF_DEVICE_OF_UNKNOWN) |
               (dev ? dev->flags & DL_VF_DEVICE_OF_UNKNOWN : 0);
    if (!c->dev) c->origin = DL_ORIGIN_NONE;
    return c;
}

/* A summary's device named after one of the callee's parameters (`def make(n, device):
 * return torch.zeros(n, device=device)`) means whatever this call passes there: the argument's
 * device, else the parameter's literal default, else unknown. So do the items and the element
 * of a returned tuple or list (`return signals, lengths`). */
static const DlValue *bind_parameter_device(Flow *F, const DlValue *v, const DlFunction *fn,
                                           const DlExpr *call, const DlValue *const *argv,
                                           bool skip_self, int depth);

/* An item, element or entry of a returned container: itself a container (a dict in a tuple,
 * `return batch_dict, indices, weights`) is bound through. */
static const DlValue *bind_part(Flow *F, const DlValue *part, const DlFunction *fn,
                                const DlExpr *call, const DlValue *const *argv, bool skip_self,
                                int depth) {
    if (!part) return part;
    if (part->kind == DL_KIND_SEQ)
        return depth < 4 ? bind_parameter_device(F, part, fn, call, argv, skip_self, depth + 1)
                         : part;
    return bind_device_of_value(F, part, fn, call, argv, skip_self);
}

const DlValue *flow_bind_parameter_device(Flow *F, const DlValue *v, const DlFunction *fn,
                                          const DlExpr *call, const DlValue *const *argv,
                                          bool skip_self) {
    return bind_parameter_device(F, v, fn, call, argv, skip_self, 0);
}

static const DlValue *bind_parameter_device(Flow *F, const DlValue *v, const DlFunction *fn,
                                           const DlExpr *call, const DlValue *const *argv,
                                           bool skip_self, int depth) {
    if (v->kind != DL_KIND_SEQ) return bind_device_of_value(F, v, fn, call, argv, skip_self);
    DlValue *c = NULL;
    for (uint32_t i = 0; i < v->item_count; i++) {
        const DlValue *item = v->items[i];
        const DlValue *bound = bind_part(F, item, fn, call, argv, skip_self, depth);
        if (bound != item) c = dl_value_with_item(F->arena, v, c, i, bound);
    }
    const DlValue *elem = bind_part(F, v->elem, fn, call, argv, skip_self, depth);
    if (elem != v->elem) {
        if (!c) c = dl_value_copy(F->arena, v);
        c->elem = elem;
    }
    /* `return {"obs": torch.zeros(n, d, device=device), ...}`: each entry of a dict written
     * out (a replay buffer's `sample(n, device)`) */
    DlDictEntries *entries = NULL;
    for (uint32_t i = 0; v->entries && i < v->entries->count; i++) {
        const DlValue *entry = v->entries->values[i];
        const DlValue *bound = bind_part(F, entry, fn, call, argv, skip_self, depth);
        if (bound == entry) continue;
        if (!entries) entries = dl_value_entries_copy(F->arena, v->entries);
        entries->values[i] = bound;
    }
    if (entries) {
        if (!c) c = dl_value_copy(F->arena, v);
        c->entries = entries;
    }
    return c ? c : v;
}

/* The argument of `call` that reaches parameter `index` of `fn` (by position, after self for a
 * method, or by keyword): its index, or -1 when none does (the parameter keeps its default), or
 * -2 when a splat (`*args`, `**kwargs`) comes first and may pass anything. */
static int argument_index(const DlFunction *fn, int index, const DlExpr *call, bool skip_self) {
    int positional = index - (skip_self ? 1 : 0);
    for (uint32_t i = 0, pos = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (kw && kw[0] == '*') return -2;
        if (argument_reaches(call, i, &fn->params[index], positional, &pos)) return (int)i;
    }
    return -1;
}

/* What a call passes for parameter `index` of `fn`, or NULL. */
static const DlValue *argument_for(const DlFunction *fn, int index, const DlExpr *call,
                                   const DlValue *const *argv, bool skip_self) {
    int i = argument_index(fn, index, call, skip_self);
    return i >= 0 ? argv[i] : NULL;
}

const DlExpr *flow_argument_expr(const DlFunctionInfo *fi, int index, const DlExpr *call) {
    if (index < 0 || (uint32_t)index >= fi->fn->param_count) return NULL;
    int i = argument_index(fi->fn, index, call, fi->owner != NULL);
    return i >= 0 ? call->args[i].value : NULL;
}

bool flow_call_switches_on(const DlFunctionInfo *fi, int index, const DlExpr *call) {
    if (index < 0 || (uint32_t)index >= fi->fn->param_count) return true;
    int i = argument_index(fi->fn, index, call, fi->owner != NULL);
    if (i == -2) return true; /* `**kwargs`: may pass anything */
    if (i == -1) return false; /* left at its default */
    return !flow_off_constant(call->args[i].value);
}

static bool true_constant(const DlExpr *a) {
    return a && a->name &&
           ((a->kind == DL_EX_CONST && flow_streq(a->name, "True")) ||
            (a->kind == DL_EX_NUMBER && strtod(a->name, NULL) != 0));
}

bool flow_call_sets_true(const DlFunctionInfo *fi, int index, const DlExpr *call) {
    if (index < 0 || (uint32_t)index >= fi->fn->param_count) return false;
    int i = argument_index(fi->fn, index, call, fi->owner != NULL);
    if (i == -2) return false;
    return true_constant(i >= 0 ? call->args[i].value : fi->fn->params[index].default_value);
}

const DlValue *flow_argument_for(const DlFunctionInfo *fi, int index, const DlExpr *call,
                                 const DlValue *const *argv) {
    if (index < 0 || (uint32_t)index >= fi->fn->param_count) return NULL;
    return argument_for(fi->fn, index, call, argv, fi->owner != NULL);
}

/* `r`, placed where the tensors among `argv` are, when every one is on one known device (0-dim
 * ones aside) and no argument is of a kind not known; else `r`. */
static const DlValue *on_its_arguments_device(Flow *F, const DlValue *r, const DlValue *const *argv,
                                              uint32_t n) {
    const DlValue *where = NULL;
    for (uint32_t i = 0; i < n; i++) {
        const DlValue *a = argv[i];
        if (a->kind == DL_KIND_UNKNOWN || (flow_is_tensor(a) && !a->dev)) return r;
        if (!flow_is_tensor(a) || (a->flags & DL_VF_ZERO_DIM)) continue;
        if (!where) where = a;
        else if (a->dev != where->dev ||
                 (a->dev_name != where->dev_name &&
                  (!a->dev_name || !where->dev_name || strcmp(a->dev_name, where->dev_name) != 0)))
            return r;
    }
    if (!where) return r;
    DlValue *c = dl_value_copy(F->arena, r);
    flow_take_place(c, where);
    c->origin = DL_ORIGIN_NONE;
    return c;
}

/* A helper that copies to the host what it computes (dataflowr's `to_img(x)`: `x =
 * x.cpu().data.numpy()`, then NumPy on it; an underwater saliency model's MAE loss, `pred =
 * pred.type(torch.FloatTensor)`, a legacy CPU type): what it returns is not on its arguments'
 * device. */
static bool copies_to_the_host(const DlFunctionInfo *fi) {
    static const char *const copies[] = {
        ".cpu()", ".numpy()", ".type(torch.FloatTensor)", ".type(torch.DoubleTensor)",
        ".type(torch.LongTensor)", ".type(torch.IntTensor)", NULL};
    return dl_project_function_mentions(fi, copies);
}

/* A statement of `b` (or of a block in it) that rebinds a parameter of `fn` to a copy of it on
 * a device: `x = x.cuda()`, `x = x.to(device)`. */
static bool block_moves_a_parameter(const DlFunction *fn, const DlBlock *b, int depth) {
    if (depth > 8) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *v = s->kind == DL_ST_ASSIGN && s->target_count == 1 ? s->value : NULL;
        const DlExpr *t = v ? s->targets[0] : NULL;
        if (v && t->kind == DL_EX_NAME && v->kind == DL_EX_CALL && v->object->kind == DL_EX_ATTR &&
            (flow_streq(v->object->name, "cuda") || flow_streq(v->object->name, "to")) &&
            v->object->object->kind == DL_EX_NAME && flow_streq(v->object->object->name, t->name) &&
            dl_ir_param_index(fn, t->name) >= 0)
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_moves_a_parameter(fn, inner, depth + 1)) return true;
    }
    return false;
}

/* Arithmetic of `fn`'s parameters and numbers (`x * scale`, `(x - mean) / std`, `-x`), naming
 * one parameter at least. */
static bool arithmetic_of_parameters(const DlFunction *fn, const DlExpr *e, int depth) {
    if (!e || depth > 8) return false;
    switch (e->kind) {
    case DL_EX_NAME:
        return dl_ir_param_index(fn, e->name) >= 0;
    case DL_EX_UNARY:
        return (flow_streq(e->name, "-") || flow_streq(e->name, "+")) &&
               arithmetic_of_parameters(fn, e->object, depth + 1);
    case DL_EX_BINOP: {
        bool left_number = e->items[0]->kind == DL_EX_NUMBER;
        bool right_number = e->items[1]->kind == DL_EX_NUMBER;
        if (left_number && right_number) return false;
        return (left_number || arithmetic_of_parameters(fn, e->items[0], depth + 1)) &&
               (right_number || arithmetic_of_parameters(fn, e->items[1], depth + 1));
    }
    default:
        return false;
    }
}

/* A helper whose body is one `return` of arithmetic on its parameters (VideoPose3D-style
 * `def scale(x, s): return x * s`): its summary, computed with the parameters unknown, knows
 * nothing; a call of it gives a tensor where the tensors it is handed are (a docstring aside). */
static bool returns_arithmetic_of_parameters(const DlFunction *fn) {
    const DlBlock *b = &fn->body;
    uint32_t first = dl_ir_body_start(b);
    if (b->count != first + 1) return false;
    const DlStmt *s = b->items[first];
    return s->kind == DL_ST_RETURN && arithmetic_of_parameters(fn, s->value, 0);
}

/* Parameter `index` of `fn` moved in place by a statement of the function's own block (not a
 * branch, not a loop): `model.to(config['device'])`, `net.cuda()`. */
static bool moves_parameter_in_place(const DlFunction *fn, uint32_t index) {
    const char *name = fn->params[index].name;
    for (uint32_t i = 0; i < fn->body.count; i++) {
        const DlStmt *s = fn->body.items[i];
        if (s->kind == DL_ST_RETURN || s->kind == DL_ST_RAISE) return false;
        const DlExpr *v = s->kind == DL_ST_EXPR ? s->value : NULL;
        if (v && v->kind == DL_EX_CALL && v->object && v->object->kind == DL_EX_ATTR &&
            (flow_streq(v->object->name, "to") || flow_streq(v->object->name, "cuda")) &&
            v->object->object && v->object->object->kind == DL_EX_NAME &&
            flow_streq(v->object->object->name, name))
            return true;
    }
    return false;
}

/* `train_model(model, loader, config)` whose first statement is `model.to(config['device'])`:
 * the module handed in is moved in place, for every name bound to it (UP-Fall's `for name,
 * model in models.items(): train_model(model, ...)`). Where to is not known here. */
static void modules_moved_by_the_callee(Flow *F, const DlFunctionInfo *fi, const DlExpr *call,
                                        const DlValue *const *argv, bool skip_self) {
    for (uint32_t p = skip_self ? 1 : 0; fi->fn && p < fi->fn->param_count && p < 8; p++) {
        int i = argument_index(fi->fn, (int)p, call, skip_self);
        if (i < 0 || !flow_is_module_like(argv[i]) || (argv[i]->flags & DL_VF_MOVED) ||
            !moves_parameter_in_place(fi->fn, p))
            continue;
        const DlExpr *a = call->args[i].value;
        if (a->kind == DL_EX_NAME || a->kind == DL_EX_ATTR) flow_move_module(F, call, a, argv[i], NULL);
    }
}

/* Whether every `return` among the statements of `b` (and the blocks in them, not nested defs)
 * returns the name `name`; `*count` counts them. */
static bool every_return_is(const DlBlock *b, const char *name, int *count, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_RETURN) {
            if (!s->value || s->value->kind != DL_EX_NAME || !flow_streq(s->value->name, name))
                return false;
            (*count)++;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (!every_return_is(inner, name, count, depth + 1)) return false;
    }
    return true;
}

/* A helper that gives back the object it is handed, unchanged in kind (`def load(model, path):
 * model.load_state_dict(...); return model`): the argument, as the caller has it now (a
 * DataParallel wrapper stays one: Res-BiDAF's checkpoint loader). Not one that rebinds the
 * parameter or moves it (`model.to(device)` inside: what its summary says). NULL otherwise. */
static const DlValue *gives_back_its_argument(Flow *F, const DlFunctionInfo *fi,
                                              const DlExpr *call, const DlValue *const *argv,
                                              bool skip_self) {
    const DlFunction *fn = fi->fn;
    const DlBlock *body = fn ? &fn->body : NULL;
    const DlStmt *last = body && body->count ? body->items[body->count - 1] : NULL;
    if (!last || last->kind != DL_ST_RETURN || !last->value || last->value->kind != DL_EX_NAME)
        return NULL;
    const char *name = last->value->name;
    int param = dl_ir_param_index(fn, name), returns = 0;
    if (param < 0 || fn->params[param].star || !every_return_is(body, name, &returns, 0) ||
        dl_ir_last_assignment(body, name, UINT32_MAX))
        return NULL;
    char moved[3][64];
    snprintf(moved[0], sizeof moved[0], "%s.to(", name);
    snprintf(moved[1], sizeof moved[1], "%s.cuda(", name);
    snprintf(moved[2], sizeof moved[2], "%s.cpu(", name);
    const char *const moves[] = {moved[0], moved[1], moved[2], NULL};
    if (dl_project_function_mentions(fi, moves)) return NULL;
    int i = argument_index(fn, param, call, skip_self);
    if (i < 0) return NULL;
    const DlExpr *a = call->args[i].value;
    if (a && (a->kind == DL_EX_NAME || a->kind == DL_EX_ATTR)) {
        const char *key = flow_key_of(F, a);
        const Binding *b = key ? flow_lookup(F, key) : NULL;
        if (b && b->value) return b->value;
    }
    return argv[i];
}

const DlValue *flow_call_summary(Flow *F, const DlFunctionInfo *fi, const DlExpr *call,
                                 const DlValue *const *argv, bool skip_self) {
    modules_moved_by_the_callee(F, fi, call, argv, skip_self);
    /* `self.expand(v, 0.5, 4.0, 20, 0.18, device)` of a @staticmethod: no self to skip, the
     * first argument is its first parameter (megnetorch's Gaussian expansion) */
    if (skip_self && fi->fn && flow_is_static(fi->fn)) skip_self = false;
    const DlValue *items =
        fi->yields_items_of ? argument_for(fi->fn, fi->yields_items_of - 1, call, argv, skip_self)
                            : NULL;
    if (items) return items;
    flow_forget_items_written(F, fi, call, argv, skip_self);
    const DlValue *given = gives_back_its_argument(F, fi, call, argv, skip_self);
    if (given && given->kind != DL_KIND_UNKNOWN) return given;
    const DlValue *v = flow_rebase(F, fi->ret, fi->module);
    const DlValue *r = flow_bind_parameter_device(F, v, fi->fn, call, argv, skip_self);
    /* a plain helper that computes a tensor from its arguments (dgcnn's `cal_loss(logits,
     * label)`), where its summary could not say where: on the device of the tensors it is
     * given, when they agree; not one that moves what it is given (Self-Attention-GAN's
     * `tensor2var(x)`: `if torch.cuda.is_available(): x = x.cuda()`, then `Variable(x)`) */
    /* (a method too, that reads nothing of self: AnimeGANv3's `self.sigm_out_scale(x)`,
     * arithmetic and a clamp of its argument) */
    static const char *const reads_self[] = {"self.", "self(", "self[", "(self)", NULL};
    bool plain = !skip_self || !dl_project_function_mentions(fi, reads_self);
    /* ... and so is each tensor of a tuple it returns (`return loss0, loss`: U-2-Net's
     * `muti_bce_loss_fusion`, whose caller unpacks `loss2, loss` and reads `loss.item()`) */
    bool tensor = r->kind == DL_KIND_TENSOR && !r->dev;
    bool tuple = r->kind == DL_KIND_SEQ && r->items && r->item_count <= 16;
    bool computes_where_given = plain && (tensor || tuple) && !copies_to_the_host(fi) &&
                                !block_moves_a_parameter(fi->fn, &fi->fn->body, 0);
    if (computes_where_given && tensor) r = on_its_arguments_device(F, r, argv, call->arg_count);
    if (computes_where_given && tuple) {
        DlValue *placed = NULL;
        for (uint32_t i = 0; i < r->item_count; i++) {
            const DlValue *item = r->items[i];
            if (!item || item->kind != DL_KIND_TENSOR || item->dev) continue;
            const DlValue *moved = on_its_arguments_device(F, item, argv, call->arg_count);
            if (moved != item) placed = dl_value_with_item(F->arena, r, placed, i, moved);
        }
        if (placed) r = placed;
    }
    if (!skip_self && r->kind == DL_KIND_UNKNOWN && returns_arithmetic_of_parameters(fi->fn)) {
        const DlValue *tensor = flow_mk(F, DL_KIND_TENSOR);
        const DlValue *placed = on_its_arguments_device(F, tensor, argv, call->arg_count);
        if (placed != tensor) r = placed;
    }
    /* a factory's module (`get_loss("l1")` returning `MaskedL1()`), summarised before its
     * class's attributes were known: one whose class has no state has nothing to move */
    const DlClassInfo *built = r->kind == DL_KIND_MODULE ? r->cls : NULL;
    if (built && (r->flags & DL_VF_CONSTRUCTED) && built->attrs_done &&
        !class_has_state(built, true)) {
        DlValue *c = dl_value_copy(F->arena, r);
        c->flags &= (uint32_t)~DL_VF_CONSTRUCTED;
        r = c;
    }
    return r;
}

/* Whether the __init__ of `ci` or of one of its project bases passes its library base what could
 * be a weight (`super().__init__(weight=w)`); one that only hands on its own `*args` and
 * `**kwargs` does not when the construction gives no weight (`given_no_weight`). */
static bool chain_hands_base_arguments(const DlClassInfo *ci, bool given_no_weight) {
    for (int depth = 0; ci && depth < 8; depth++, ci = ci->base)
        if (ci->init_hands_base_arguments &&
            !(given_no_weight && ci->init_forwards_base_arguments))
            return true;
    return false;
}

/* A direct subclass of a library module (`class Head(nn.Linear)`) has that module's state;
 * `class MaskedLoss(nn.CrossEntropyLoss)` has none unless an __init__ on the way from `from`, the
 * class built, hands the loss a weight. */
static bool subclasses_library_module(const DlClassInfo *ci, const DlClassInfo *from,
                                      bool given_no_weight) {
    if (ci->base) return false; /* a project base: decided there */
    if (ci->weightless_library_base) return false; /* `class GLU(nn.GLU)` */
    if (ci->stateless_library_base && !chain_hands_base_arguments(from, given_no_weight))
        return false;
    return ci->library_state_base;
}

/* An attribute a device could hold: a module, a parameter or buffer, a plain list of modules. */
static bool attribute_is_state(const DlValue *v) {
    /* (not a 0-dim buffer, `register_buffer("step_size", torch.tensor(s))`: on the CPU it may
     * meet CUDA tensors, Accel-RF's samplers) */
    return (flow_is_module_like(v) && !flow_module_without_state(v)) ||
           (flow_is_tensor(v) && (v->flags & DL_VF_REGISTERED) &&
            !(v->flags & DL_VF_ZERO_DIM)) ||
           (v->kind == DL_KIND_SEQ && (v->flags & DL_VF_HAS_MODULES));
}

bool flow_class_known_stateless(const DlClassInfo *from, bool given_no_weight, int depth) {
    if (depth > 4) return false;
    const DlClassInfo *ci = from;
    for (int level = 0; ci && level < 8; level++, ci = ci->base) {
        if (!ci->attrs_done || ci->maybe_module ||
            subclasses_library_module(ci, from, given_no_weight))
            return false;
        for (uint32_t i = 0; i < ci->attr_count; i++) {
            const DlAttr *a = &ci->attrs[i];
            if (strcmp(a->name, "<moved>") == 0) continue;
            if (a->name[0] == '<' || attribute_is_state(a->value)) return false;
            if (a->value->kind == DL_KIND_UNKNOWN && !ci->unknown_attrs_are_data) return false;
            if (flow_is_module_like(a->value) && a->value->cls &&
                !flow_class_known_stateless(a->value->cls, false, depth + 1))
                return false;
        }
    }
    return true;
}

/* Whether an instance of `from` has state to move; `given_no_weight`: one built with no
 * argument that could be a weight (flow_call_may_give_a_weight). */
static bool class_has_state(const DlClassInfo *from, bool given_no_weight) {
    const DlClassInfo *ci = from;
    for (int depth = 0; ci && depth < 8; depth++, ci = ci->base) {
        if (!ci->attrs_done) return true;
        for (uint32_t i = 0; i < ci->attr_count; i++) {
            const DlValue *v = ci->attrs[i].value;
            /* `self.criterion = nn.BCEWithLogitsLoss(weight=weight)`, `weight=None` in
             * `__init__`, of `SigmoidLoss()`: a loss given no weight holds nothing */
            if (given_no_weight && v->kind == DL_KIND_LOSS && (v->flags & DL_VF_WEIGHT_BY_PARAM))
                continue;
            if (ci->attrs[i].name[0] != '<' && attribute_is_state(v)) return true;
        }
        if (subclasses_library_module(ci, from, given_no_weight)) return true;
    }
    return false;
}

bool flow_class_has_state(const DlClassInfo *from) { return class_has_state(from, false); }

/* Whether every attribute the class and its project bases (eight levels at most) keep passes
 * `ok`; false when one of them is not known well enough to tell: its attributes not computed
 * yet, a base devlint cannot see, a subclass of a library module. */
static bool every_attribute(const DlClassInfo *from,
                            bool (*ok)(const DlClassInfo *owner, const DlAttr *attr)) {
    const DlClassInfo *ci = from;
    for (int depth = 0; ci && depth < 8; depth++, ci = ci->base) {
        if (!ci->attrs_done || ci->maybe_module || subclasses_library_module(ci, from, false))
            return false;
        for (uint32_t i = 0; i < ci->attr_count; i++)
            if (!ok(ci, &ci->attrs[i])) return false;
    }
    return true;
}

/* A number, string, None, dtype or device. An attribute of unknown kind (another library's
 * layer) may be a module, unless the class's methods only read it as data (`self.labels[i]`:
 * unknown_attrs_are_data). */
static bool holds_no_device_state(const DlClassInfo *owner, const DlAttr *attr) {
    const DlValue *v = attr->value;
    if (strcmp(attr->name, "<moved>") == 0) return true;
    if (attr->name[0] == '<') return false;
    if (v->kind == DL_KIND_UNKNOWN && owner->unknown_attrs_are_data) return true;
    return v->kind == DL_KIND_SCALAR || v->kind == DL_KIND_STRING || v->kind == DL_KIND_NONE ||
           v->kind == DL_KIND_DTYPE || v->kind == DL_KIND_DEVICE;
}

/* holds_no_device_state (a number, a string, a device...), or a plain dict or list of modules
 * (`self.loss_mapper = {"clip": CLIPLoss(args)}`, CLIPasso's Loss): what it holds is not
 * registered, so it is not the module's to move (DL107 says so), nor a device of its own. */
static bool holds_nothing_registered(const DlClassInfo *owner, const DlAttr *attr) {
    const DlValue *v = attr->value;
    /* an item of a container (`loss_mapper[clip]`) is registered only by a registered one */
    if (strchr(attr->name, '[')) return true;
    return holds_no_device_state(owner, attr) ||
           (v->kind == DL_KIND_SEQ && (v->flags & DL_VF_HAS_MODULES) &&
            !(v->flags & DL_VF_REGISTERED) && attr->name[0] != '<');
}

/* The class (or a project base) registers parts under names its attributes do not show:
 * `setattr(self, "block{}".format(i), block)`, `self.add_module(name, layer)` (continual-
 * learning's conv nets, which also keep a plain list), or an assignment run as text,
 * `exec('self.layer{} = {}'.format(i + 1, 'layer'))` (DomainAdaptation's ResNets), which goes
 * through nn.Module's `__setattr__` too. */
static bool registers_by_name(const DlClassInfo *ci) {
    static const char *const ways[] = {"setattr(self", "add_module(", "register_module(",
                                       "register_buffer(", "register_parameter(", "exec('self.",
                                       "exec(\"self.", "exec(f'self.", "exec(f\"self.", NULL};
    for (int depth = 0; ci && depth < 8; depth++, ci = ci->base) {
        const DlSource *src = ci->module ? ci->module->source : NULL;
        for (const char *const *w = ways; src && *w; w++)
            if (dl_ir_span_mentions_in_code(src, ci->cls->span, *w)) return true;
    }
    return false;
}

/* A module with nothing registered: no parameter, buffer or submodule of its own, only plain
 * values and plain containers (holds_nothing_registered), no base a library module, and no
 * part registered by name (registers_by_name). */
static bool class_registers_nothing(const DlClassInfo *ci) {
    return every_attribute(ci, holds_nothing_registered) && !registers_by_name(ci);
}

/* One whose modules are all in plain containers (class_registers_nothing, and a container
 * holding modules): `.to()` reaches none of them (DL107 says so). */
static bool keeps_modules_only_unregistered(const DlClassInfo *ci) {
    if (!class_registers_nothing(ci)) return false;
    for (int depth = 0; ci && depth < 8; depth++, ci = ci->base)
        for (uint32_t i = 0; i < ci->attr_count; i++)
            if (ci->attrs[i].value->kind == DL_KIND_SEQ &&
                (ci->attrs[i].value->flags & DL_VF_HAS_MODULES))
                return true;
    return false;
}

/* Every module or parameter the class (and its project bases) keeps came from outside
 * (`self.inner = inner`): none is built in its __init__. */
static bool state_is_given(const DlClassInfo *ci) {
    bool any = false;
    for (int depth = 0; ci && depth < 8; depth++, ci = ci->base) {
        if (!ci->attrs_done) return false;
        for (uint32_t i = 0; i < ci->attr_count; i++) {
            const DlValue *v = ci->attrs[i].value;
            if (ci->attrs[i].name[0] == '<' || !attribute_is_state(v)) continue;
            bool built_here = v->dev != DL_DEV_UNKNOWN || (v->flags & DL_VF_CONSTRUCTED);
            if (built_here || v->kind == DL_KIND_SEQ) return false;
            any = true;
        }
    }
    return any;
}

/* Not a parameter, buffer, layer or list of them that `__init__` built itself. */
static bool not_built_here(const DlClassInfo *owner, const DlAttr *attr) {
    (void)owner;
    const DlValue *a = attr->value;
    if (attr->name[0] == '<') return false;
    bool built_here =
        a->dev != DL_DEV_UNKNOWN || (a->flags & DL_VF_CONSTRUCTED) || a->kind == DL_KIND_SEQ;
    return !(attribute_is_state(a) && built_here);
}

/* A project module that builds no state of its own (`MockModel(posterior)`: its __init__ only
 * keeps what it is given, no parameter, buffer or layer): where it computes depends on what
 * it was given, so a wrapper given it is not known to be anywhere. */
static bool builds_no_state(const DlValue *v) {
    return v->kind == DL_KIND_MODULE && v->cls && every_attribute(v->cls, not_built_here);
}

/* Not something that may hold a module (dl_project_attr_may_hold_modules), or of unknown kind
 * but only read as data. */
static bool holds_no_module(const DlClassInfo *owner, const DlAttr *attr) {
    const DlValue *v = attr->value;
    if (attr->name[0] == '<') return false;
    if (v->kind == DL_KIND_UNKNOWN && owner->unknown_attrs_are_data) return true;
    /* a submodule with nothing to move: a library loss given no weight
     * (`nn.CrossEntropyLoss(reduction="none")`), or a project module known to hold no state
     * (pytorch-metric-learning's distances and reducers) */
    if (v->kind == DL_KIND_LOSS && !(v->flags & DL_VF_CPU_WEIGHT) && !v->cls) return true;
    if (v->kind == DL_KIND_MODULE && v->cls && flow_class_known_stateless(v->cls, false, 1))
        return true;
    return !dl_project_attr_may_hold_modules(v);
}

/* Data an __init__ parameter stored as an attribute of unknown kind (`self.num_classes =
 * num_classes`, a base's `self.weight_regularizer = weight_regularizer`) holds in the instance
 * `call` builds: the argument given for it, or the parameter's default when none is (a number,
 * a string, None, True or False). */
static bool given_data(Flow *F, const DlClassInfo *built, const DlClassInfo *owner,
                       const char *name, const DlExpr *call, const DlValue *const *argv) {
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (kw && kw[0] == '*') return false; /* `**cfg`: what it gives is not known */
        if (kw && strcmp(kw, name) == 0)
            return argv[i]->kind == DL_KIND_SCALAR || argv[i]->kind == DL_KIND_NONE ||
                   argv[i]->kind == DL_KIND_STRING;
    }
    const DlFunctionInfo *init = dl_project_method(F->env->project, owner, "__init__");
    if (!init || init->owner != owner) return false;
    int p = dl_ir_param_index(init->fn, name);
    if (p < 1 || init->fn->params[p].star) return false;
    if (owner == built) { /* positional arguments reach the class's own __init__ */
        uint32_t position = 0;
        for (uint32_t i = 0; i < call->arg_count; i++) {
            if (call->args[i].keyword) continue;
            if (call->args[i].value->kind == DL_EX_STARRED) return false;
            if (++position == (uint32_t)p)
                return argv[i]->kind == DL_KIND_SCALAR || argv[i]->kind == DL_KIND_NONE ||
                       argv[i]->kind == DL_KIND_STRING;
        }
    }
    const DlExpr *d = init->fn->params[p].default_value;
    return d && (d->kind == DL_EX_NUMBER || d->kind == DL_EX_STRING || d->kind == DL_EX_CONST);
}

/* A module with project bases whose only state is tensors, which a method of the class or of
 * a base copies to where a variable says (BoTorch's Normalize, whose base's `_to(X)` does
 * `self._coefficient = self.coefficient.to(X)`; pytorch-metric-learning's ArcFaceLoss, whose
 * `cast_types` does `self.W.data = c_f.to_device(self.W.data, device=device)`): it follows its
 * inputs wherever they are. Attributes of unknown kind are what `call` gave them. A class
 * without bases is decided with its attributes (project.c forward_follows_its_input, the same
 * test but for attributes only read as data, which are known only here). */
static bool copies_its_tensors_to_its_input(Flow *F, const DlClassInfo *ci, const DlExpr *call,
                                            const DlValue *const *argv) {
    if (!ci->base) return false;
    bool copies = false;
    const DlClassInfo *c = ci;
    for (int depth = 0; c && depth < 8 && !copies; depth++, c = c->base)
        copies = c->copies_own_state;
    if (!copies) return false;
    c = ci;
    for (int depth = 0; c && depth < 8; depth++, c = c->base) {
        if (!c->attrs_done || c->maybe_module || subclasses_library_module(c, ci, false)) return false;
        for (uint32_t i = 0; i < c->attr_count; i++) {
            const DlAttr *a = &c->attrs[i];
            if (holds_no_module(c, a)) continue;
            if (a->value->kind == DL_KIND_UNKNOWN && argv && a->name[0] != '<' &&
                given_data(F, ci, c, a->name, call, argv))
                continue;
            return false;
        }
    }
    return true;
}

/* `SimplifiedMoE(device)`: a device passed by position to the __init__ parameter named for one
 * (`def __init__(self, device)`), the same as `device=device`. */
static const DlValue *device_by_position(Flow *F, const DlExpr *call, const DlClassInfo *ci,
                                         const DlValue *const *argv) {
    const DlFunctionInfo *init = dl_project_method(F->env->project, ci, "__init__");
    if (!init) return NULL;
    unsigned position = 0;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        if (call->args[i].keyword) {
            if (call->args[i].keyword[0] == '*') return NULL; /* positions no longer known */
            continue;
        }
        uint32_t p = ++position; /* after self */
        if (p >= init->fn->param_count) return NULL;
        if (init->fn->params[p].star) return NULL;
        if (!flow_name_says_device(F, init->fn->params[p].name)) continue;
        const DlValue *d = flow_device_arg(F, call->args[i].value, argv[i]); /* "cuda", a device */
        return d && d->kind == DL_KIND_DEVICE && d->dev ? d : NULL;
    }
    return NULL;
}

/* Whether a statement of `fn`'s body names `name` as a whole word, not as an attribute
 * (`device`, not `torch.device` nor `self.device_ids`). */
static bool body_reads_name(const DlSource *src, const DlFunction *fn, const char *name) {
    for (uint32_t k = 0; k < fn->body.count; k++) {
        DlSpan span = fn->body.items[k]->span;
        if (span.end > src->len) return false;
        if (flow_span_names_word(src, span, name, false)) return true;
    }
    return false;
}

/* The device an __init__ builds on when the call leaves its device parameter out: attorch's
 * `Linear(8, 16)` of `def __init__(..., device='cuda')` handing it to `nn.Linear.__init__`.
 * Only a default written out (`'cuda'`, `0`), and only a parameter the body reads. */
static const DlValue *device_by_default(Flow *F, const DlExpr *call, const DlClassInfo *ci) {
    const DlFunctionInfo *init = dl_project_method(F->env->project, ci, "__init__");
    const DlSource *src = init && init->module ? init->module->source : NULL;
    if (!src) return NULL;
    if (flow_has_splat(call)) return NULL;
    unsigned positional = 0;
    for (uint32_t i = 0; i < call->arg_count; i++)
        positional += !call->args[i].keyword;
    for (uint32_t p = 1; p < init->fn->param_count; p++) {
        const DlParam *param = &init->fn->params[p];
        if (param->star) return NULL;
        if (!flow_name_says_device(F, param->name) || !param->default_value) continue;
        if (p <= positional || dl_ir_keyword(call, param->name)) return NULL; /* given */
        /* not flow_device_arg: the default's span is in the class's file */
        const DlValue *dev = flow_device_of_literal(F, param->default_value);
        if (!dev || !body_reads_name(src, init->fn, param->name)) return NULL;
        return dev->dev != DL_DEV_CPU && dev->dev_name ? dev : NULL;
    }
    return NULL;
}

/* `MaskedLoss(weight=w)` of a loss subclass with no __init__ of its own: the arguments go to
 * the loss, which then holds a weight to move. */
static bool weight_for_library_base(Flow *F, const DlExpr *call, const DlClassInfo *ci) {
    const DlClassInfo *root = ci;
    for (int depth = 0; root->base && depth < 8; depth++)
        root = root->base;
    if (!root->stateless_library_base || dl_project_method(F->env->project, ci, "__init__"))
        return false;
    return flow_call_may_give_a_weight(F, call);
}

/* `t.view(-1)`, `t.reshape(-1)`, `t.flatten()`, `t.ravel()`: a 1-D tensor, whose elements are
 * 0-dim (`for i in ids.view(-1)` yields numbers that index any device's tensor). */
static bool flattens(const char *m, const DlExpr *call) {
    if (flow_streq(m, "flatten") || flow_streq(m, "ravel")) return call->arg_count == 0;
    if (!flow_streq(m, "view") && !flow_streq(m, "reshape")) return false;
    if (call->arg_count != 1 || call->args[0].keyword) return false;
    const DlExpr *a = call->args[0].value;
    return a->kind == DL_EX_UNARY && a->name && flow_streq(a->name, "-") && a->object &&
           a->object->kind == DL_EX_NUMBER && a->object->name && flow_streq(a->object->name, "1");
}

/* A project subclass of nn.DataParallel (StyleTTS2's MyDataParallel, which forwards attribute
 * reads to the module it wraps), directly or through project bases. */
static bool wraps_like_data_parallel(const DlClassInfo *ci) {
    for (int depth = 0; ci && depth < 8; depth++, ci = ci->base)
        if (ci->data_parallel_base) return true;
    return false;
}

/* The parameter of `init` that `if affine:` or `if self.affine:` (`self.affine = affine`
 * stored before it) tests, or -1. */
static int flag_parameter(const DlFunction *init, const DlExpr *test, uint32_t before) {
    const char *name = test && test->kind == DL_EX_NAME ? test->name : NULL;
    if (test && test->kind == DL_EX_ATTR && dl_ir_is_self(test->object) && test->name) {
        char key[128];
        if (snprintf(key, sizeof key, "self.%s", test->name) >= (int)sizeof key) return -1;
        const DlExpr *stored = dl_ir_last_assignment(&init->body, key, before);
        name = stored && stored->kind == DL_EX_NAME ? stored->name : NULL;
    }
    for (uint32_t p = 1; name && p < init->param_count; p++)
        if (!init->params[p].star && flow_streq(init->params[p].name, name)) return (int)p;
    return -1;
}

/* Whether `call` turns off the flag parameter `p` of `init`: False, None or 0, given or left
 * at its default. */
static bool call_turns_off(const DlFunction *init, int p, const DlExpr *call) {
    if (p < 0 || (uint32_t)p >= init->param_count) return false; /* `if layers == 18:` */
    int i = argument_index(init, p, call, true);
    if (i == -2) return false;
    return flow_off_constant(i >= 0 ? call->args[i].value : init->params[p].default_value);
}

/* `self.register_buffer("mean", None)`: a buffer that holds nothing until a method assigns it
 * a tensor (RevIN's statistics, computed from its input where the input is). */
static bool registers_an_empty_buffer(const DlStmt *st, const char *name) {
    const DlExpr *c = st->value;
    return c && c->kind == DL_EX_CALL && c->arg_count == 2 && c->object &&
           c->object->kind == DL_EX_ATTR && flow_streq(c->object->name, "register_buffer") &&
           dl_ir_is_self(c->object->object) && c->args[0].value &&
           c->args[0].value->kind == DL_EX_STRING && flow_streq(c->args[0].value->name, name) &&
           c->args[1].value && c->args[1].value->kind == DL_EX_CONST &&
           flow_streq(c->args[1].value->name, "None");
}

/* Whether `word` stands in `init`'s top-level statements only inside the bodies of `if`s whose
 * flag `call` turns off, and in one at least (1); in none (0); elsewhere too (-1). */
static int only_under_off_flags(const DlSource *src, const DlFunction *init, const DlExpr *call,
                                const char *word) {
    int found = 0;
    for (uint32_t i = 0; i < init->body.count; i++) {
        const DlStmt *st = init->body.items[i];
        if (!dl_ir_span_mentions(src, st->span, word)) continue;
        bool off = st->kind == DL_ST_IF &&
                   call_turns_off(init, flag_parameter(init, st->value, st->span.start), call);
        const DlStmtParts *parts = st->parts;
        if (!off || dl_ir_span_mentions(src, st->value->span, word) ||
            (parts->orelse.count &&
             dl_ir_span_mentions(src, (DlSpan){parts->orelse.items[0]->span.start, st->span.end},
                                 word)))
            return -1;
        found = 1;
    }
    return found;
}

/* Whether every piece of state of `ci` is made in `__init__` only under a flag the construction
 * turns off: `RevIN(n_vars, affine=False)`, whose parameters exist only `if self.affine:` (the
 * Informer / PatchTST family's normalisation layer, built in every step): nothing to move. A
 * piece's name must stand in __init__ only inside such an `if`'s body, and no other method may
 * assign it; or a method of the class assigns it (`if self.affine: self._init_params()`) that
 * __init__ calls only there and no other method calls. */
static bool state_switched_off(Flow *F, const DlExpr *call, const DlClassInfo *ci) {
    (void)F;
    const DlFunction *init = ci->cls ? dl_ir_method_named(ci->cls, "__init__") : NULL;
    const DlSource *src = ci->module ? ci->module->source : NULL;
    if (!init || !src || ci->base || subclasses_library_module(ci, ci, true)) return false;
    uint32_t pieces = 0;
    for (uint32_t a = 0; a < ci->attr_count; a++) {
        const char *name = ci->attrs[a].name;
        if (name[0] == '<') return false;
        if (!attribute_is_state(ci->attrs[a].value)) continue;
        bool empty = false;
        for (uint32_t i = 0; i < init->body.count && !empty; i++)
            empty = registers_an_empty_buffer(init->body.items[i], name);
        if (empty) continue;
        pieces++;
        int in_init = only_under_off_flags(src, init, call, name);
        if (in_init < 0) return false;
        char key[128];
        if (snprintf(key, sizeof key, "self.%s", name) >= (int)sizeof key) return false;
        uint32_t setters = 0;
        for (uint32_t m = 0; m < ci->cls->method_count; m++) {
            const DlFunction *setter = ci->cls->methods[m];
            if (setter == init || !dl_ir_last_assignment(&setter->body, key, UINT32_MAX))
                continue;
            /* `self._init_params()` only under the flag, and called by no other method */
            char called[128];
            if (in_init ||
                snprintf(called, sizeof called, "self.%s(", setter->name) >= (int)sizeof called ||
                only_under_off_flags(src, init, call, called) != 1)
                return false;
            for (uint32_t k = 0; k < ci->cls->method_count; k++)
                if (ci->cls->methods[k] != init &&
                    dl_ir_span_mentions(src, ci->cls->methods[k]->span, called))
                    return false;
            setters++;
        }
        if (!in_init && !setters) return false;
    }
    return pieces > 0;
}

/* An instance of a project class that is not a module (nor a dataset). */
static DlValue *instance_of(Flow *F, const DlClassInfo *ci) {
    DlValue *v = flow_mk(F, DL_KIND_INSTANCE);
    v->cls = ci;
    if (ci->has_own_to) v->flags |= DL_VF_OWN_TO;
    return v;
}

/* What a wrapper whose state is given is handed, that leaves where it computes unknown: a
 * value not known (a parameter), a plain function, a module that builds no state, or a dict or
 * list of one of them (`scorers = {"decoder": model.decoder}`). */
static bool gives_state_from_elsewhere(const DlValue *a) {
    if (a->kind == DL_KIND_SEQ && a->entries) {
        for (uint32_t k = 0; k < a->entries->count; k++)
            if (a->entries->values[k] && gives_state_from_elsewhere(a->entries->values[k]))
                return true;
        return false;
    }
    if (a->kind == DL_KIND_SEQ && a->elem) a = a->elem;
    return a->kind == DL_KIND_UNKNOWN || a->kind == DL_KIND_FUNCTION || builds_no_state(a);
}

const DlValue *flow_instantiate(Flow *F, const DlExpr *call, const DlClassInfo *ci,
                               const DlValue *const *argv) {
    /* a class whose file comes later (or that is defined further down) is known before use */
    if (F->env->recorder) dl_project_ensure_class_attributes(F->env->recorder, ci);
    if (ci->is_module && wraps_like_data_parallel(ci)) return flow_data_parallel(F, call, argv);
    if (ci->is_module) {
        DlValue *m = flow_mk(F, DL_KIND_MODULE);
        m->dev = flow_construction_device(F);
        /* only a module with parameters, buffers or submodules has anything to move */
        if ((class_has_state(ci, !flow_call_may_give_a_weight(F, call)) &&
             !state_switched_off(F, call, ci)) ||
            weight_for_library_base(F, call, ci))
            m->flags |= DL_VF_CONSTRUCTED;
        m->dev_span = call->span;
        m->dev_why = flow_short_text(F, call->span);
        m->cls = ci;
        /* `GraphNorm(16, device=device)`: built where its constructor was told, as torch's own
         * modules are (its __init__ hands the device on) */
        const DlValue *dev = argv ? flow_device_keyword(F, call, argv) : NULL;
        if (!dev && argv) dev = device_by_position(F, call, ci, argv); /* SimplifiedMoE(device) */
        if (!dev) dev = device_by_default(F, call, ci);
        if (dev) {
            m->dev = dev->dev;
            m->dev_name = dev->dev_name;
            m->flags |= DL_VF_MOVED;
            m->flags &= (uint32_t)~DL_VF_CONSTRUCTED;
        }
        /* `GraphSequential(*modules)` of `class GraphSequential(nn.Sequential)` whose
         * `__init__` hands its arguments on (or that has none): where those modules are, as
         * nn.Sequential's (VulDetectArtifact's GNN-LRP explainer wrapping a moved model's
         * children) */
        if (argv && !dev && ci->container_library_base &&
            (ci->init_forwards_base_arguments || !dl_ir_method_named(ci->cls, "__init__"))) {
            flow_contents_decide(F, m, call, argv);
            return m;
        }
        /* `DiscreteSteerer(generator)`, `Wrapper(backbone.to(device))`,
         * `MockModel(MockPosterior(mean_on_gpu))`: built from a tensor on a device, or from a
         * module or object that was moved, its state is there too; wrapping a module
         * whose place is not known (a parameter, `PadToMinM(module)`), its place is not known */
        for (uint32_t i = 0; argv && i < call->arg_count && !dev; i++) {
            const DlValue *a = argv[i];
            if (a->kind == DL_KIND_SEQ && a->elem && flow_is_module_like(a->elem))
                a = a->elem; /* `_Model(blocks)`: a list of modules, each moved */
            if ((flow_is_tensor(a) && dl_value_on_device(a)) ||
                (flow_is_module_like(a) && (dl_value_on_device(a) || (a->flags & DL_VF_MOVED) ||
                                            a->dev == DL_DEV_UNKNOWN)) ||
                (a->kind == DL_KIND_INSTANCE && (a->flags & DL_VF_MOVED))) {
                flow_mark_moved_elsewhere(m);
                break;
            }
        }
        /* `PadToMinM(module)`: a wrapper whose only state is the modules it is given holds them
         * where they are, and where a module given as a parameter is, is not known */
        /* (or given a plain function for it, whatever `__init__`'s annotation says:
         * `ReconstructionLoss(loss_f)` of `def __init__(self, loss_func: nn.Module)`, PonderNCA's
         * notebook) */
        /* (or a dict or list of such modules: ESPnet's `BatchBeamSearch(scorers=scorers)`
         * of `scorers = {"decoder": model.decoder}`, a model's own decoder) */
        if (argv && !dev && (m->flags & DL_VF_CONSTRUCTED) && state_is_given(ci))
            for (uint32_t i = 0; i < call->arg_count; i++) {
                if (!gives_state_from_elsewhere(argv[i])) continue;
                flow_mark_moved_elsewhere(m);
                break;
            }
        /* CLIPasso's `Loss(args)`, whose modules sit in a plain dict (`self.loss_mapper =
         * {"clip": CLIPLoss(args)}`, each built on the device it is given): moving it would
         * move nothing, and they are where they were built, not where it is */
        if (!dev && (m->flags & DL_VF_CONSTRUCTED) && keeps_modules_only_unregistered(ci))
            flow_mark_moved_elsewhere(m);
        /* a module whose __init__ moves itself (self.to(device)) is not "never moved" */
        const DlAttr *self_dev = dl_project_attr(ci, "<moved>");
        if (self_dev || copies_its_tensors_to_its_input(F, ci, call, argv)) {
            m->flags |= DL_VF_MOVED;
            m->dev = DL_DEV_UNKNOWN;
        }
        return m;
    }
    if (ci->is_dataset) {
        DlValue *d = flow_loader_value(F, call->span);
        d->cls = ci;
        /* `DiffDataset(t.to(device), ...)`: it holds tensors placed on a device */
        for (uint32_t i = 0; argv && i < call->arg_count; i++)
            if (flow_is_tensor(argv[i]) && dl_value_on_device(argv[i])) d->flags |= DL_VF_MOVED;
        return d;
    }
    DlValue *v = instance_of(F, ci);
    /* `MockPosterior(mean=mean_on_gpu)`: what it holds was placed on a device, as a moved
     * instance's is; where each of its tensors is, is not known here */
    for (uint32_t i = 0; argv && i < call->arg_count; i++)
        if (flow_is_tensor(argv[i]) && dl_value_on_device(argv[i])) v->flags |= DL_VF_MOVED;
    return v;
}

bool flow_is_static(const DlFunction *fn) {
    for (uint32_t i = 0; i < fn->decorator_count; i++) {
        const DlExpr *d = fn->decorators[i];
        if (d->kind == DL_EX_NAME && flow_streq(d->name, "staticmethod")) return true;
    }
    return false;
}

/* A helper method that __init__ calls runs inline, on __init__'s state (what it stores on
 * self counts as __init__'s). Returns what it returns. */
const DlValue *flow_inline_method(Flow *F, const DlFunction *fn, const DlValue *const *argv,
                                  const DlExpr *call) {
    if (F->inline_depth >= DL_INLINE_DEPTH) return flow_unknown();
    const DlFunctionInfo *facts = fn->facts;
    bool foreign = facts && facts->module != F->env->file->module;
    const DlFunction *saved_fn = F->fn;
    const DlValue *saved_ret = F->ret, *saved_ret_without_cuda = F->ret_without_cuda;
    F->fn = fn;
    F->ret = NULL;
    F->ret_without_cuda = NULL;
    F->inline_depth++;
    F->foreign_inline += foreign;
    uint32_t saved_returns = F->returns, saved_waited = F->waited_returns;
    uint32_t saved_uploads = F->upload_returns, saved_gpu_returns = F->gpu_returns;
    uint32_t argi = 0;
    bool splat = false;
    for (uint32_t k = 0; k < call->arg_count; k++)
        splat |= call->args[k].keyword && call->args[k].keyword[0] == '*';
    for (uint32_t i = flow_is_static(fn) ? 0 : 1; i < fn->param_count; i++) {
        const DlParam *p = &fn->params[i];
        const DlValue *v = NULL;
        while (argi < call->arg_count && call->args[argi].keyword)
            argi++;
        if (argi < call->arg_count && !p->star && !p->keyword_only) v = argv[argi++];
        for (uint32_t k = 0; !v && k < call->arg_count; k++)
            if (call->args[k].keyword && strcmp(call->args[k].keyword, p->name) == 0) v = argv[k];
        /* left at a literal default (`device=None`: the default device, the CPU) */
        const DlExpr *d = p->default_value;
        if (!v && !splat && !p->star && d &&
            (d->kind == DL_EX_CONST || d->kind == DL_EX_NUMBER || d->kind == DL_EX_STRING))
            v = flow_eval(F, d);
        flow_state_set(F->st, p->name, v ? v : flow_unknown());
    }
    bool was_dead = F->st->dead;
    int16_t saved_flag = F->only_when_flag; /* the inlined method's own tests of its flags */
    const char *saved_index = F->first_round_index; /* its names are not the loop's */
    F->first_round_index = NULL;
    flow_exec_block(F, &fn->body);
    F->only_when_flag = saved_flag;
    F->first_round_index = saved_index;
    F->st->dead = was_dead;
    const DlValue *ret = flow_returned(F) ? flow_returned(F) : flow_unknown();
    F->foreign_inline -= foreign;
    F->inline_depth--;
    F->returns = saved_returns; /* the inlined method's returns are not the function's */
    F->waited_returns = saved_waited;
    F->upload_returns = saved_uploads;
    F->gpu_returns = saved_gpu_returns;
    F->fn = saved_fn;
    F->ret = saved_ret;
    F->ret_without_cuda = saved_ret_without_cuda;
    return ret;
}

/* `solver = solver.to(device)` on a project class with its own to(): that method moves what it
 * holds (in place, as a module's does), so the instance is marked moved and the devices its
 * constructor gave its attributes no longer hold (flow_eval_attr). */
const DlValue *flow_move_instance(Flow *F, const DlExpr *call, const DlExpr *recv_expr,
                                  const DlValue *recv, const DlFunctionInfo *to,
                                  const DlValue *const *argv) {
    const DlValue *ret = flow_call_summary(F, to, call, argv, true);
    const DlValue *moved = flow_mark_instance_moved(F, recv_expr, recv);
    return ret->kind == DL_KIND_INSTANCE && ret->cls == recv->cls ? moved : ret;
}

/* The instance `recv_expr` names, marked moved in place, as every name bound to it sees it. */
const DlValue *flow_mark_instance_moved(Flow *F, const DlExpr *recv_expr, const DlValue *recv) {
    DlValue *moved = dl_value_copy(F->arena, recv);
    moved->flags |= DL_VF_MOVED;
    const char *key = flow_key_of(F, recv_expr);
    if (key) flow_state_set(F->st, key, moved);
    return moved;
}

/* `net` of `net.eval().cuda()`: the module behind methods that hand it back (`type(dst)` too,
 * for a module), which the move at the end of the chain moves (Yolact_minimal's export
 * script). */
static const DlExpr *module_behind_chain(const DlExpr *e) {
    for (int depth = 0; depth < 8 && e && e->kind == DL_EX_CALL && e->object &&
                        e->object->kind == DL_EX_ATTR && e->object->object &&
                        (dl_module_method_returns_self(e->object->name) ||
                         flow_streq(e->object->name, "type"));
         depth++)
        e = e->object->object;
    return e;
}

/* `model.fc = nn.Linear(...)`, then `model.cuda()`: a module assigned to an attribute of a
 * module is registered there, and moving the parent moves it; what was bound for it is
 * forgotten, so `model.fc` is read as the moved module's part (an exercise's replaced head). */
static void forget_submodules(Flow *F, const char *key) {
    size_t n = strlen(key);
    for (uint32_t i = 0; i < F->st->count; i++) {
        Binding *b = &F->st->items[i];
        if (b->value && flow_is_module_like(b->value) && strncmp(b->key, key, n) == 0 &&
            b->key[n] == '.')
            b->value = NULL;
    }
}

/* Moving a module in place: every name bound to it sees the new device. */
const DlValue *flow_move_module(Flow *F, const DlExpr *call, const DlExpr *recv_expr,
                                const DlValue *recv, const DlValue *target) {
    DlValue *m = dl_value_copy(F->arena, recv);
    m->flags |= DL_VF_MOVED;
    m->flags &= (uint32_t)~DL_VF_CPU_WEIGHT;
    m->dev = target ? target->dev : DL_DEV_UNKNOWN;
    m->dev_name = target ? target->dev_name : NULL;
    m->dev_span = call->span;
    m->dev_why = flow_short_text(F, call->span);
    m->home = NULL; /* moved here, in the file being analysed */
    const char *key = flow_key_of(F, module_behind_chain(recv_expr));
    if (key) flow_state_set(F->st, key, m);
    /* not `self.to(device)`: what self's attributes hold is the class's, moved with it */
    if (key && !flow_streq(key, "self")) forget_submodules(F, key);
    return m;
}

const DlValue *flow_move_target(Flow *F, const DlExpr *call, const char *method,
                                const DlValue *const *argv) {
    if (flow_streq(method, "cpu")) {
        DlValue *d = flow_mk(F, DL_KIND_DEVICE);
        d->dev = DL_DEV_CPU;
        return d;
    }
    if (flow_streq(method, "cuda")) {
        const DlExpr *a = dl_ir_positional(call, 0);
        if (a) {
            const DlValue *d = flow_device_arg(F, a, argv[0]);
            if (d && d->dev == DL_DEV_NAMED) return d;
        }
        DlValue *d = flow_mk(F, DL_KIND_DEVICE);
        d->dev = DL_DEV_CUDA;
        d->dev_name =
            a && a->kind == DL_EX_NUMBER ? dl_arena_join(F->arena, "cuda:", '\0', a->name) : "cuda";
        return d;
    }
    const DlValue *dev = flow_device_keyword(F, call, argv);
    if (dev) return dev;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        if (call->args[i].keyword) continue;
        return flow_device_arg(F, call->args[i].value, argv[i]);
    }
    return NULL;
}

/* The first argument of `.to(...)` names no device: a string of no device type ("km"), or a
 * unit of a units library (`u.solRad` of `from astropy import units as u`). */
static bool converts_to_no_device(Flow *F, const DlExpr *call) {
    const DlExpr *a = dl_ir_positional(call, 0);
    if (!a || dl_ir_keyword(call, "device")) return false;
    if (a->kind == DL_EX_STRING)
        return a->name && !a->item_count && !flow_device_of_string(a->name) &&
               !dl_is_accelerator_type_name(a->name);
    if (a->kind != DL_EX_ATTR) return false;
    const char *q = flow_qualify(F, a);
    static const char *const unit_libraries[] = {"astropy.", "pint.", "unyt.", NULL};
    for (const char *const *lib = unit_libraries; q && *lib; lib++)
        if (strncmp(q, *lib, strlen(*lib)) == 0) return true;
    return false;
}

bool flow_is_move_method(const char *m) {
    return flow_streq(m, "to") || flow_streq(m, "cuda") || flow_streq(m, "cpu");
}

/* Whether `recv.m()` hands back the receiver itself, so a parameter stays one: an in-place
 * method (`nn.Parameter(torch.empty(n)).normal_()`), or a cast to the dtype it already has
 * (`nn.Parameter(torch.ones(d)).float()`: a factory without dtype= makes float32). */
static bool returns_the_receiver(Flow *F, const char *m, const DlExpr *recv_expr) {
    static const char *const float32_factories[] = {"torch.ones",  "torch.zeros", "torch.randn",
                                                     "torch.rand",  "torch.empty", "torch.eye",
                                                     NULL};
    if (*m && m[strlen(m) - 1] == '_') return true;
    if (!flow_streq(m, "float") || !recv_expr || recv_expr->kind != DL_EX_CALL) return false;
    const char *q = flow_qualify(F, recv_expr->object);
    if (!dl_torch_is_parameter(q)) return false;
    const DlExpr *data = dl_ir_positional(recv_expr, 0);
    if (!data || data->kind != DL_EX_CALL || dl_ir_keyword(data, "dtype")) return false;
    const char *factory = flow_qualify(F, data->object);
    return factory && dl_name_in_list(factory, float32_factories);
}

/* "torch.cuda.FloatTensor": CUDA; "torch.LongTensor": the CPU; anything else UNKNOWN. */
static DlDeviceTag legacy_type_name_device(const char *q) {
    static const char *const scalars[] = {"Float", "Double", "Half", "BFloat16", "Byte", "Char",
                                          "Short", "Int",    "Long", "Bool",     NULL};
    if (!q || strncmp(q, "torch.", 6) != 0) return DL_DEV_UNKNOWN;
    const char *rest = q + 6;
    bool cuda = strncmp(rest, "cuda.", 5) == 0;
    if (cuda) rest += 5;
    size_t n = strlen(rest);
    if (n <= 6 || strcmp(rest + n - 6, "Tensor") != 0) return DL_DEV_UNKNOWN;
    char scalar[16];
    if (n - 6 >= sizeof scalar) return DL_DEV_UNKNOWN;
    memcpy(scalar, rest, n - 6);
    scalar[n - 6] = '\0';
    if (!dl_name_in_list(scalar, scalars)) return DL_DEV_UNKNOWN;
    return cuda ? DL_DEV_CUDA : DL_DEV_CPU;
}

DlDeviceTag flow_legacy_type_device(Flow *F, const DlExpr *call) {
    const DlExpr *a = dl_ir_positional(call, 0);
    const DlArg *dtype = a ? NULL : dl_ir_keyword(call, "dtype");
    if (a && a->kind == DL_EX_STRING) return legacy_type_name_device(a->name); /* 'torch.cuda.FloatTensor' */
    return legacy_type_name_device(flow_qualify(F, a ? a : dtype ? dtype->value : NULL));
}

/* `dtype` last bound, in the function, to `x.type()` or `x.data.type()` (no argument: the
 * tensor's type name, which names its device). */
static bool names_a_type_read_from_a_tensor(Flow *F, const DlExpr *a) {
    const DlExpr *bound =
        F->fn ? dl_ir_last_assignment(&F->fn->body, a->name, a->span.start) : NULL;
    return bound && bound->kind == DL_EX_CALL && !bound->arg_count && bound->object &&
           bound->object->kind == DL_EX_ATTR && flow_streq(bound->object->name, "type");
}

/* `t.type(name)` where the type is computed (`'torch{}.FloatTensor'.format(self.cuda)`,
 * `x.type(y.type())`) rather than a dtype or a type written out: the copy is on whichever device
 * that type names, not known here. */
static bool type_chosen_at_run_time(Flow *F, const DlExpr *call, const DlValue *const *argv) {
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (kw && strcmp(kw, "dtype") != 0) continue;
        const DlExpr *a = call->args[i].value;
        const DlValue *v = argv[i];
        if (a->kind == DL_EX_STRING || v->kind == DL_KIND_DTYPE) return false;
        /* `dtype` names a dtype, unless the file binds it to a CUDA tensor type (dataflowr's
         * `dtypeFloat = torch.cuda.FloatTensor` when a GPU is there, else torch.FloatTensor) */
        /* ... or to a tensor's type name (`dtype = x.data.type()`, 'torch.cuda.FloatTensor'
         * for a CUDA `x`: densecap's proposal masks) */
        if (a->kind == DL_EX_NAME && names_a_type_read_from_a_tensor(F, a)) return true;
        /* ... or, a parameter, in a file that reads tensors' type names (`dtype =
         * offset.data.type()`, then `self._get_p(offset, dtype)`: Lac-GwcNet's deformable
         * refinement) */
        if (a->kind == DL_EX_NAME && a->name && strstr(a->name, "dtype") && F->fn &&
            dl_ir_param_index(F->fn, a->name) >= 0 && dl_source_mentions(F->src, ".type()"))
            return true;
        if ((a->kind == DL_EX_NAME || a->kind == DL_EX_ATTR) && a->name && strstr(a->name, "dtype"))
            return dl_source_mentions(F->src, dl_arena_printf(F->arena, "%s = torch.cuda.",
                                                              a->name));
        const char *q = flow_qualify(F, a);
        if (q && strncmp(q, "torch.", 6) == 0) return false; /* torch.float16, torch.FloatTensor */
        return true;
    }
    return false;
}

/* `x.to(device)` of the run's device variable, a name the function does not bind (`device =
 * 'cpu'` at the top of a CPU-only script, the neural-ODE ion-channel project's): where that
 * variable points, as a factory's `device=device` is (DL_VF_DEVICE_VARIABLE); not a name for the
 * host itself (`x.to(cpu)`), nor one the function binds to the CPU on purpose. */
static bool moved_to_the_runs_device_variable(Flow *F, const DlExpr *call) {
    const DlArg *kw = dl_ir_keyword(call, "device");
    const DlExpr *a = kw ? kw->value : dl_ir_positional(call, 0);
    if (!a || a->kind != DL_EX_NAME || !a->name || strstr(a->name, "cpu") ||
        strstr(a->name, "CPU") || !flow_name_says_device(F, a->name))
        return false;
    return !F->fn || !flow_bindings_of(&F->fn->body, a->name, 0);
}

const DlValue *flow_eval_tensor_method(Flow *F, const DlExpr *call, const DlExpr *recv_expr,
                                       const DlValue *recv, const char *m,
                                       const DlValue *const *argv) {
    /* `batch.get("id", ids)` of a dict batch a loader gives: that entry, as `batch["id"]` is
     * (flow_eval_subscript), where the batch is, or strings for a text field (uda_trainer's
     * sample ids, read with `.tolist()` where the batch stays on the host) */
    if (flow_streq(m, "get") && (recv->flags & DL_VF_WHOLE_BATCH) && call->arg_count >= 1 &&
        !call->args[0].keyword && call->args[0].value->kind == DL_EX_STRING &&
        call->args[0].value->name) {
        if (flow_is_text_field_name(call->args[0].value->name)) return flow_mk(F, DL_KIND_STRING);
        DlValue *entry = dl_value_copy(F->arena, recv);
        entry->var = NULL;
        entry->flags &= (uint32_t) ~(DL_VF_WHOLE_BATCH | DL_VF_ONE_DIM);
        return entry;
    }
    /* `t.type()` with no argument names the tensor's type, a string (`'torch.cuda.FloatTensor'`:
     * satvit's focal loss compares `self.alpha.type() != input.data.type()`) */
    if (flow_streq(m, "type") && call->arg_count == 0) return flow_mk(F, DL_KIND_STRING);
    /* `t.type(torch.cuda.FloatTensor)` moves as `.cuda()` does */
    DlDeviceTag legacy = flow_streq(m, "type") ? flow_legacy_type_device(F, call) : DL_DEV_UNKNOWN;
    if (!legacy && flow_streq(m, "type") && type_chosen_at_run_time(F, call, argv)) {
        DlValue *r = dl_value_copy(F->arena, recv);
        r->var = NULL;
        r->dev = DL_DEV_UNKNOWN;
        r->dev_name = NULL;
        r->origin = DL_ORIGIN_NONE;
        r->flags &= (uint32_t)~DL_VF_REGISTERED;
        return r;
    }
    if (legacy || flow_is_move_method(m)) {
        DlValue *cast_to = legacy ? flow_mk(F, DL_KIND_DEVICE) : NULL;
        if (cast_to) {
            cast_to->dev = legacy;
            cast_to->dev_name = legacy == DL_DEV_CUDA ? "cuda" : NULL;
        }
        const DlValue *target = cast_to ? cast_to : flow_move_target(F, call, m, argv);
        if (!target) {
            DlValue *c = dl_value_copy(F->arena, recv); /* .to(dtype) */
            c->var = NULL;
            return c;
        }
        DlValue *r = flow_with_device(F, recv, target, DL_ORIGIN_MOVED, call->span);
        r->var = NULL;
        r->items = NULL;
        if (r->dev == DL_DEV_CPU && moved_to_the_runs_device_variable(F, call))
            r->flags |= DL_VF_DEVICE_VARIABLE;
        return r;
    }
    if (dl_torch_is_new_factory_method(m)) {
        const DlValue *dev = flow_device_keyword(F, call, argv);
        DlValue *r =
            dev ? flow_with_device(F, flow_mk(F, DL_KIND_TENSOR), dev, DL_ORIGIN_NONE, call->span)
                : flow_with_device(F, flow_mk(F, DL_KIND_TENSOR), recv, DL_ORIGIN_NONE, call->span);
        if (!dev) r->dev_name = recv->dev_name;
        return r;
    }
    /* a number, a list; `.numpy()` a NumPy array, whose methods give host data (OTHER) */
    if (dl_tensor_method_to_host(m))
        return flow_streq(m, "numpy") ? numpy_array(F, recv) : flow_mk(F, DL_KIND_SCALAR);
    if (dl_tensor_method_combines(m)) {
        OperandList ops = {0};
        flow_add_operand(&ops, recv_expr, recv);
        for (uint32_t i = 0; i < call->arg_count; i++)
            if (!call->args[i].keyword) flow_add_operand(&ops, call->args[i].value, argv[i]);
        if (ops.count > 1) flow_meet(F, call, ops.items, ops.count, -1);
        /* `enc.scatter_(1, idx, 1)` writes into `enc` and returns it, where it is (a
         * Kindergarten-VQ-VAE quantizer then moves it to the device it is on) */
        if (*m && m[strlen(m) - 1] == '_' && recv->dev) {
            /* ... unless that raised (a CPU target written with a device operand: reported
             * at the call, as DL102 for `torch.zeros(n, c).scatter_(1, labels, 1)`): no second
             * finding where the result is used (Multimodal-sentiment's one-hot labels) */
            for (uint32_t i = 1; dl_value_is_cpu_tensor(recv) && i < ops.count; i++) {
                const DlValue *v = ops.items[i].value;
                if (dl_value_on_kernel_device(v) && (v->dev != DL_DEV_MODULE || F->is_forward))
                    return flow_mk(F, DL_KIND_TENSOR);
            }
            DlValue *r = dl_value_copy(F->arena, recv);
            r->var = NULL;
            r->origin = DL_ORIGIN_NONE; /* what a call returns, not the factory's own tensor */
            return r;
        }
        return flow_combine(F, call, ops.items, ops.count);
    }
    if (flow_streq(m, "pin_memory")) {
        DlValue *r = dl_value_copy(F->arena, recv);
        r->var = NULL;
        r->flags |= DL_VF_PIN_KNOWN | DL_VF_PINNED;
        return r;
    }
    /* x.add_(...) is x (a C++ call can lower to an empty method name) */
    if (dl_tensor_method_keeps_device(m) || (*m && m[strlen(m) - 1] == '_')) {
        DlValue *r = dl_value_copy(F->arena, recv);
        r->var = NULL;
        if (!returns_the_receiver(F, m, recv_expr)) r->flags &= (uint32_t)~DL_VF_REGISTERED;
        if (!dl_tensor_method_keeps_shape(m))
            r->flags &= (uint32_t) ~(DL_VF_ONE_DIM | DL_VF_DATA_RANK);
        if (flattens(m, call)) r->flags |= DL_VF_ONE_DIM;
        if (dl_tensor_method_reduces(m) &&
            (call->arg_count == 0 || flow_whole_norm(call, flow_streq(m, "norm"), 1)))
            r->flags |= DL_VF_ZERO_DIM;
        return r;
    }
    if (flow_streq(m, "items") || flow_streq(m, "values")) {
        /* a batch that is a dict of tensors */
        DlValue *s = flow_mk(F, DL_KIND_SEQ);
        if (flow_streq(m, "values")) {
            s->elem = recv;
        } else {
            DlValue *pair = flow_mk(F, DL_KIND_SEQ);
            const DlValue **items = dl_arena_alloc(F->arena, 2 * sizeof *items);
            items[0] = flow_unknown();
            items[1] = recv;
            pair->items = items;
            pair->item_count = 2;
            s->elem = pair;
        }
        return s;
    }
    if (flow_streq(m, "split") || flow_streq(m, "chunk") || flow_streq(m, "unbind") ||
        flow_streq(m, "tensor_split")) {
        DlValue *s = flow_mk(F, DL_KIND_SEQ), *part = dl_value_copy(F->arena, recv);
        part->var = NULL;
        part->flags &= (uint32_t) ~(DL_VF_WHOLE_BATCH | DL_VF_REGISTERED);
        if (flow_streq(m, "unbind")) { /* one dimension less: a 1-D tensor's are numbers */
            if (recv->flags & DL_VF_ONE_DIM) part->flags |= DL_VF_ZERO_DIM;
            part->flags &= (uint32_t)~DL_VF_ONE_DIM;
        }
        s->elem = part;
        return s;
    }
    if (flow_streq(m, "size") || flow_is_count_method(m))
        return flow_mk(F, DL_KIND_OTHER);
    return flow_unknown();
}

/* Methods only tensors have (modules share float()/half()/to()/cuda()...): calling one tells
 * that an unknown receiver is a tensor. */
bool flow_tensor_only_method(const char *m) {
    static const char *const list[] = {
        "detach",     "view",   "reshape", "permute", "transpose",   "unsqueeze", "squeeze",
        "contiguous", "clone",  "flatten", "expand",  "repeat",      "softmax",   "log_softmax",
        "sigmoid",    "argmax", "argmin",  "abs",     "exp",         "log",       "sqrt",
        "norm",       "mean",   "sum",     "clamp",   "masked_fill", "t",
        /* `output.max(1, keepdim=True)[1].eq(target.view_as(pred))` (TRADES' evaluation) */
        "eq",         "ne",     "view_as", "topk",    "gather",      "index_select",
        /* casts a module lacks (it has float(), half(), double() and bfloat16() only):
         * parti's `attn_mask = attn_mask.bool()` of a tokenizer's mask */
        "bool",       "long",   "int",     "byte",    "short",       NULL};
    return dl_name_in_list(m, list);
}

/* The index of the parameter of `ci`'s __init__ that ends up in `self.<attr>`: stored there
 * itself (`self.device = device`), or handed to the base's __init__ that stores it
 * (`super().__init__(env_name, device)`, the base in another file: deep_neuroevolution's
 * environment managers); -1 when none does. */
static int parameter_stored_as(const DlClassInfo *ci, const char *attr, int depth) {
    const DlFunction *init = ci && ci->cls ? dl_ir_method_named(ci->cls, "__init__") : NULL;
    if (!init || depth > 4) return -1;
    for (uint32_t i = 0; i < init->body.count; i++) {
        const DlStmt *s = init->body.items[i];
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
            dl_ir_is_self_attr(s->targets[0], attr) && s->value && s->value->kind == DL_EX_NAME)
            return dl_ir_param_index(init, s->value->name);
    }
    const DlFunction *base_init =
        ci->base && ci->base->cls ? dl_ir_method_named(ci->base->cls, "__init__") : NULL;
    int stored = base_init ? parameter_stored_as(ci->base, attr, depth + 1) : -1;
    if (stored < 1) return -1;
    for (uint32_t i = 0; i < init->body.count; i++) {
        const DlExpr *c = init->body.items[i]->kind == DL_ST_EXPR ? init->body.items[i]->value
                                                                    : NULL;
        if (!c || c->kind != DL_EX_CALL || !c->object || c->object->kind != DL_EX_ATTR ||
            strcmp(c->object->name ? c->object->name : "", "__init__") != 0 || !c->object->object ||
            c->object->object->kind != DL_EX_CALL || !c->object->object->object ||
            c->object->object->object->kind != DL_EX_NAME ||
            strcmp(c->object->object->object->name, "super") != 0)
            continue;
        int a = argument_index(base_init, stored, c, true); /* super() passes self */
        const DlExpr *v = a >= 0 ? c->args[a].value : NULL;
        return v && v->kind == DL_EX_NAME ? dl_ir_param_index(init, v->name) : -1;
    }
    return -1;
}

int flow_init_parameter_stored_as(const DlClassInfo *ci, const char *attr) {
    return parameter_stored_as(ci, attr, 0);
}

/* The parameter's name, when the receiver `recv_expr` was built in this scope by a project
 * class whose
 * __init__ stores the device attribute `attr` from a parameter that the construction gives the
 * CPU, written out or by its default (`encoder = KMStatEncoder(dt=dt, device="cpu")`, whose
 * `encode` makes `torch.tensor(feats, device=self.device)`: multimodal-affect-fusion's
 * feature extraction; survivalmodel's `BaseModel(bins_num=10, device="cpu")`). */
static const char *receiver_built_for_the_cpu(Flow *F, const DlExpr *recv_expr,
                                              const DlClassInfo *ci, const char *attr) {
    if (!recv_expr || recv_expr->kind != DL_EX_NAME || !ci || !ci->cls) return NULL;
    const DlBlock *body = F->fn ? &F->fn->body : &F->env->file->module->body;
    const DlExpr *built = dl_ir_last_assignment(body, recv_expr->name, recv_expr->span.start);
    if (!built || built->kind != DL_EX_CALL) return NULL;
    const DlFunction *init = dl_ir_method_named(ci->cls, "__init__");
    if (!init) return NULL;
    int param = parameter_stored_as(ci, attr, 0);
    if (param < 1 || init->params[param].star) return NULL;
    if (flow_has_splat(built)) return NULL; /* `Encoder(**cfg)` may pass anything */
    int i = argument_index(init, param, built, true);
    const DlExpr *given = i >= 0 ? built->args[i].value : init->params[param].default_value;
    /* (also `Skeleton(offsets, device=torch.device("cpu"))`: motion-diffusion's preprocessing) */
    const DlValue *d = given ? flow_device_written_out(F, given) : NULL;
    return d && d->dev == DL_DEV_CPU ? init->params[param].name : NULL;
}

/* `r` (and the parts it holds, a few levels deep) with the device named `self.<attr>` taken
 * for the CPU (receiver_built_for_the_cpu). */
static const DlValue *on_the_cpu_the_receiver_holds(Flow *F, const DlValue *r, const char *named,
                                                    const char *param, int depth) {
    if (!r || depth > 3) return r;
    bool here = (flow_is_tensor(r) || r->kind == DL_KIND_DEVICE) && r->dev == DL_DEV_NAMED &&
                r->dev_name &&
                (strcmp(r->dev_name, named) == 0 || strcmp(r->dev_name, param) == 0);
    bool parts = r->kind == DL_KIND_SEQ && (r->elem || r->item_count || r->entries);
    if (!here && !parts) return r;
    DlValue *c = dl_value_copy(F->arena, r);
    if (here) {
        c->dev = DL_DEV_CPU;
        c->dev_name = "cpu";
        return c;
    }
    if (r->elem) c->elem = on_the_cpu_the_receiver_holds(F, r->elem, named, param, depth + 1);
    if (r->item_count) {
        const DlValue **items = dl_arena_alloc(F->arena, r->item_count * sizeof *items);
        for (uint32_t i = 0; i < r->item_count; i++)
            items[i] = on_the_cpu_the_receiver_holds(F, r->items[i], named, param, depth + 1);
        c->items = items;
    }
    if (r->entries) {
        DlDictEntries *e = dl_value_entries_copy(F->arena, r->entries);
        for (uint32_t i = 0; i < e->count; i++)
            e->values[i] = on_the_cpu_the_receiver_holds(F, e->values[i], named, param, depth + 1);
        c->entries = e;
    }
    return c;
}

/* What a method of the receiver's class returns, with a device the receiver holds as
 * `self.<attr>` resolved where its construction says the CPU. */
static const DlValue *where_the_receiver_was_built(Flow *F, const DlValue *r, const DlExpr *recv_expr,
                                                   const DlClassInfo *ci) {
    static const char *const attrs[] = {"device", "_device", "__device", NULL};
    for (const char *const *a = attrs; *a; a++) {
        const char *param = receiver_built_for_the_cpu(F, recv_expr, ci, *a);
        if (param)
            r = on_the_cpu_the_receiver_holds(F, r, dl_arena_join(F->arena, "self", '.', *a),
                                              param, 0);
    }
    return r;
}

/* A method's result "on the module's device" (`self.inv_freq.device`) is on its receiver's:
 * where `model.to(device)` put it, and not known for a module built here and never moved (the
 * caller's module is another one). speechbrain's notebook plots `RelPosEncXL(64).make_pe()`. */
static const DlValue *on_the_receivers_device(Flow *F, const DlValue *r, const DlValue *recv) {
    /* any other receiver (a loaded model, one offloaded on some paths) keeps "the module's
     * device": calling it is still device work to time (DL203) */
    bool placed = recv->dev == DL_DEV_CUDA || recv->dev == DL_DEV_NAMED ||
                  recv->dev == DL_DEV_META ||
                  /* `model = model.to("cpu")` before validation (Noise2Noise's train.py) */
                  (recv->dev == DL_DEV_CPU && (recv->flags & DL_VF_MOVED));
    bool never_moved = recv->dev == DL_DEV_CPU && (recv->flags & DL_VF_CONSTRUCTED) &&
                       !(recv->flags & DL_VF_MOVED);
    if (!placed && !never_moved) return r;
    /* a tuple written out (`return torch.matmul(self.basis, spec), spec`): each of its items */
    if (r->kind == DL_KIND_SEQ && r->items && r->item_count) {
        const DlValue **items = dl_arena_alloc(F->arena, r->item_count * sizeof *items);
        bool changed = false;
        for (uint32_t i = 0; i < r->item_count; i++) {
            items[i] = r->items[i] ? on_the_receivers_device(F, r->items[i], recv) : NULL;
            changed |= items[i] != r->items[i];
        }
        if (!changed) return r;
        DlValue *t = dl_value_copy(F->arena, r);
        t->items = items;
        return t;
    }
    if (r->dev != DL_DEV_MODULE) return r;
    DlValue *c = dl_value_copy(F->arena, r);
    if (placed) {
        flow_take_place(c, recv);
    } else {
        c->dev = DL_DEV_UNKNOWN;
        c->dev_name = NULL;
    }
    return c;
}

/* `load_state_dict(sd, assign=True)`: the module keeps the given tensors instead of copying
 * them into its own. */
static bool assigns_the_state(const DlExpr *call) {
    const DlArg *a = dl_ir_keyword(call, "assign");
    return a && a->value->kind == DL_EX_CONST && flow_streq(a->value->name, "True");
}

/* `params.get("num_segments", 2)`: a lookup whose default is a number reads a number. */
static bool get_with_number_default(const DlExpr *call, const char *m) {
    const DlExpr *fallback = dl_ir_positional(call, 1);
    return flow_streq(m, "get") && call->arg_count == 2 && fallback &&
           fallback->kind == DL_EX_NUMBER;
}

/* `from_pretrained` and its kind: a library base's way to build an instance from saved state. */
static bool is_alternative_constructor(const char *m) {
    static const char *const constructors[] = {"from_pretrained", "from_config",
                                               "from_single_file", NULL};
    return m && dl_name_in_list(m, constructors);
}

/* `IdPipeline.from_pretrained(...)`: a project class that is not a module, built by a
 * constructor its library base gives it, is an instance of that class, whose methods the calls
 * on it run (a pipeline's __call__); where its state is, is not known. A module class's
 * loaded weights are left unknown, as before. */
static const DlValue *loaded_instance(Flow *F, const DlClassInfo *ci) {
    return ci->is_module || ci->is_dataset ? flow_unknown() : instance_of(F, ci);
}

/* The same, for a qualified name (`pipeline.IdPipeline.from_pretrained`). A diffusers pipeline
 * is an object, not a module: its __call__ copies the tensors it is given (latents,
 * embeddings) to its execution device. */
static const DlValue *alternative_constructor(Flow *F, const char *q) {
    const char *dot = strrchr(q, '.');
    if (!dot || !is_alternative_constructor(dot + 1)) return flow_unknown();
    char *class_name = dl_arena_strndup(F->arena, q, (size_t)(dot - q));
    if (strncmp(q, "diffusers.", 10) == 0 && strstr(class_name, "Pipeline"))
        return flow_mk(F, DL_KIND_INSTANCE); /* of a class the project does not define */
    const DlClassInfo *ci = dl_project_find_class(F->env->project, F->env->file, class_name);
    return ci ? loaded_instance(F, ci) : flow_unknown();
}

/* `def train(model, loader, criterion, optimizer, device)`: a parameter named for a loss
 * function (`criterion`, `loss_fn`, `loss_func`, `loss_function`, `crit`, and those names
 * after a prefix: gaze-estimation's `cls_criterion`, `reg_crit`), whose class the caller
 * chooses. */
static bool names_a_loss_function(const char *name) {
    static const char *const names[] = {"criterion", "loss_fn", "loss_func", "loss_function",
                                        "crit", NULL};
    if (dl_name_in_list(name, names)) return true;
    size_t n = strlen(name);
    for (const char *const *w = names; *w; w++) {
        size_t k = strlen(*w);
        if (n > k + 1 && name[n - k - 1] == '_' && strcmp(name + n - k, *w) == 0) return true;
    }
    return false;
}

static bool names_a_loss_parameter(Flow *F, const char *name) {
    return names_a_loss_function(name) && F->fn && dl_ir_param_index(F->fn, name) >= 0;
}

/* `self.criterion(outputs, labels)` in a method of a trainer whose loss function was handed to
 * it (`self.criterion = criterion` in __init__): an attribute so named, not a method, holding
 * nothing known. */
static bool calls_a_loss_attribute(Flow *F, const DlExpr *callee, const DlValue *recv,
                                   const Binding *b) {
    if (!dl_ir_is_self(callee->object) || !names_a_loss_function(callee->name) || !recv->cls ||
        dl_project_method(F->env->project, recv->cls, callee->name))
        return false;
    const DlAttr *a = dl_project_attr(recv->cls, callee->name);
    const DlValue *held = b && b->value ? b->value : a ? a->value : NULL;
    return held && held->kind == DL_KIND_UNKNOWN && !held->dev;
}

/* What such a parameter gives back: a 0-dim loss where its tensor arguments are (MQBench's
 * `loss = criterion(outputs, labels)` of labels moved to the device, then `loss.item()` every
 * batch). Its arguments do not meet: a loss of the project may move its targets itself. */
static const DlValue *loss_of_a_parameter(Flow *F, const DlExpr *call, const DlValue *const *argv) {
    OperandList ops = {0};
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (!call->args[i].keyword || call->args[i].keyword[0] != '*')
            flow_add_operand(&ops, call->args[i].value, argv[i]);
    DlValue *r = flow_combine(F, call, ops.items, ops.count);
    r->flags |= DL_VF_ZERO_DIM;
    r->origin = DL_ORIGIN_NONE;
    return r;
}

/* A parameter of unknown kind the function trains or switches mode as a module
 * (`opt = torch.optim.Adam(model_net.parameters())`, `model.train()`): a module its caller
 * built, wherever that put it (FLAVR's and XVFI's `train(model, loader, ...)`). */
static bool trained_parameter(Flow *F, const char *name) {
    if (!F->fn || dl_ir_param_index(F->fn, name) < 0) return false;
    static const char *const uses[] = {"parameters()", "train()", "eval()", "zero_grad()", NULL};
    for (const char *const *u = uses; *u; u++) {
        const char *text = dl_arena_printf(F->arena, "%s.%s", name, *u);
        if (dl_ir_span_mentions(F->src, F->fn->span, text)) return true;
    }
    return false;
}

/* What calling it gives: a module computes where its inputs are, so given tensors all on one
 * device (`model_net(frames.to(device))`) its output is there; otherwise nothing is known. */
static const DlValue *output_of_a_trained_parameter(Flow *F, const DlExpr *call,
                                                    const DlValue *const *argv) {
    const DlValue *on = NULL;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const DlValue *v = argv[i];
        if (call->args[i].keyword && call->args[i].keyword[0] == '*') return flow_unknown();
        if (!flow_is_tensor(v)) continue;
        if (!dl_value_on_kernel_device(v) || (on && !dl_value_same_device(on, v)))
            return flow_unknown();
        on = v;
    }
    if (!on) return flow_unknown();
    /* a tensor, or a tuple of them taken apart as a module's outputs are (flow_bind) */
    DlValue *r = flow_mk(F, DL_KIND_TENSOR);
    flow_take_place(r, on);
    r->origin = DL_ORIGIN_NONE;
    return r;
}

/* A NumPy array a tensor's `.numpy()` gives: host data, marked as such for its methods; 0-dim
 * when what it is made of is (`x[3].cpu().numpy()`). */
static DlValue *numpy_array(Flow *F, const DlValue *of) {
    DlValue *a = flow_mk(F, DL_KIND_OTHER);
    a->literal = "numpy.ndarray";
    if (of) a->flags |= of->flags & DL_VF_ZERO_DIM;
    return a;
}

/* Does a statement of `b` (or of a block in it) store, in an attribute or an item, a module
 * built with `name` as an argument (`blk.attn.qkv = _LoRA_qkv(qkv, w_a, w_b)`)? */
static bool block_stores_a_module_built_with(Flow *F, const DlBlock *b, const char *name,
                                             int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *v = s->value;
        bool stored = s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
                      (s->targets[0]->kind == DL_EX_ATTR || s->targets[0]->kind == DL_EX_SUBSCRIPT);
        if (stored && v && v->kind == DL_EX_CALL && v->object) {
            bool given = false;
            for (uint32_t a = 0; a < v->arg_count && !given; a++)
                given = v->args[a].value && v->args[a].value->kind == DL_EX_NAME &&
                        flow_streq(v->args[a].value->name, name);
            const char *q = given ? flow_qualify(F, v->object) : NULL;
            const DlClassInfo *ci =
                given && (q || v->object->kind == DL_EX_NAME)
                    ? dl_project_find_class(F->env->project, F->env->file, q ? q : v->object->name)
                    : NULL;
            if (given && ((ci && ci->is_module) || (q && dl_torch_is_module_class(q))))
                return true;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_stores_a_module_built_with(F, inner, name, depth + 1)) return true;
    }
    return false;
}

/* A module appended to a plain list and also handed to a module stored in an attribute (LoRA's
 * `self.w_As.append(w_a)`, then `blk.attn.qkv = _LoRA_qkv(qkv, w_a, w_b)` in the model this
 * module keeps: SAMed): registered there, the list only indexes it. */
static bool handed_to_a_stored_module(Flow *F, const DlExpr *e) {
    return e && e->kind == DL_EX_NAME && F->fn &&
           block_stores_a_module_built_with(F, &F->fn->body, e->name, 0);
}

/* A method of a NumPy array that gives host data again. */
static bool numpy_array_method(const char *m) {
    static const char *const methods[] = {
        "flatten", "ravel", "reshape", "squeeze", "astype", "tolist", "copy", "transpose", "mean",
        "sum",     "max",   "min",     "argmax",  "argmin", "round",  "item", "clip",      NULL};
    return dl_name_in_list(m, methods);
}

/* `append(module)`, `insert(i, module)`, `add_module(name, module)`, `extend(modules)` of a
 * library container (nn.Sequential, nn.ModuleList) given a module that was not built right
 * here: one from elsewhere, whose device the container now shares. */
static bool adds_a_module_from_elsewhere(const char *m, const DlExpr *call,
                                         const DlValue *const *argv) {
    int at = flow_streq(m, "append") || flow_streq(m, "extend") ? 0
             : flow_streq(m, "insert") || flow_streq(m, "add_module") ||
                     flow_streq(m, "register_module")
                 ? 1
                 : -1;
    if (at < 0 || call->arg_count != (uint32_t)at + 1 || call->args[at].keyword) return false;
    const DlValue *added = argv[at];
    if (flow_streq(m, "extend")) added = added && added->kind == DL_KIND_SEQ ? added->elem : NULL;
    return !added || !flow_module_built_here(added);
}

const DlValue *flow_eval_method_call(Flow *F, const DlExpr *call, const DlExpr *recv_expr,
                                     const DlValue *recv, const char *m,
                                     const DlValue *const *argv) {
    /* `super(Encoder, self).__setattr__(name, layer)` in `__init__`: nn.Module's own
     * `__setattr__`, which registers what it is given as `setattr(self, name, layer)` does
     * (ISIC2018paperBaseline's ENet encoder, whose list then only aliases its layers) */
    if (flow_streq(m, "__setattr__") && F->in_init && call->arg_count >= 2 && recv_expr &&
        recv_expr->kind == DL_EX_CALL && recv_expr->object &&
        recv_expr->object->kind == DL_EX_NAME && flow_streq(recv_expr->object->name, "super")) {
        flow_state_set(F->st, "self.<registers>", flow_mk(F, DL_KIND_OTHER));
        return flow_mk(F, DL_KIND_NONE);
    }
    if (recv->kind != DL_KIND_TENSOR && !flow_is_module_like(recv) &&
        get_with_number_default(call, m) &&
        !(recv->cls && dl_project_method(F->env->project, recv->cls, m)))
        return flow_mk(F, DL_KIND_SCALAR);
    if (recv->kind == DL_KIND_CLASS && recv->cls && is_alternative_constructor(m) &&
        !dl_project_method(F->env->project, recv->cls, m))
        return loaded_instance(F, recv->cls); /* a class of this file */
    /* `loss_dict.items()` of what a loss handed in returned, taken for a tensor: a tensor has
     * no `items()`, so it is a dict of such tensors (DBNet's train helper, which then writes
     * each entry back as a number: `loss_dict[key] = value.item()`) */
    const char *dict_key = recv->kind == DL_KIND_TENSOR && !call->arg_count &&
                                   (flow_streq(m, "items") || flow_streq(m, "keys") ||
                                    flow_streq(m, "values"))
                               ? flow_key_of(F, recv_expr)
                               : NULL;
    if (dict_key) {
        DlValue *d = flow_mk(F, DL_KIND_SEQ);
        d->elem = recv;
        flow_state_set(F->st, dict_key, d);
        recv = d;
    }
    switch (recv->kind) {
    case DL_KIND_TENSOR:
        return flow_eval_tensor_method(F, call, recv_expr, recv, m, argv);
    case DL_KIND_MODULE:
    case DL_KIND_LOSS:
        /* `model.to_empty(device=d)`: a module on the meta device given storage on d, in place */
        if (flow_is_move_method(m) || flow_streq(m, "to_empty"))
            return flow_move_module(F, call, recv_expr, recv, flow_move_target(F, call, m, argv));
        if (flow_streq(m, "load_state_dict") && assigns_the_state(call)) {
            /* `model.load_state_dict(sd, assign=True)` (a model built on the meta device): its
             * parameters are now the state dict's tensors, wherever those are */
            const char *key = flow_key_of(F, recv_expr);
            if (key && flow_is_module_like(recv)) flow_bind_moved_elsewhere(F, key, recv);
            return flow_unknown();
        }
        if (dl_module_method_returns_self(m)) return recv;
        if (flow_streq(m, "forward")) return flow_call_module(F, call, recv_expr, recv, argv);
        /* `self.register_parameter(f"sigma_{i}", p)` for each of a list's parameters: the
         * list's parameters are registered too (MONAI's GaussianFilter); so are the modules
         * added to a submodule of self (`self.net.add_module(name, layer)` for each of
         * `self.layers`, an nn.Sequential: ActiveLearning_Baseline's MLN) */
        if ((flow_streq(m, "add_module") || flow_streq(m, "register_module") ||
             flow_streq(m, "register_parameter")) &&
            F->in_init && (dl_ir_is_self(recv_expr) || dl_ir_is_self_attr(recv_expr, NULL))) {
            flow_state_set(F->st, "self.<registers>", flow_mk(F, DL_KIND_OTHER));
            return flow_mk(F, DL_KIND_NONE);
        }
        if (flow_streq(m, "register_buffer") && F->in_init && dl_ir_is_self(recv_expr)) {
            const DlExpr *name = dl_ir_positional(call, 0);
            if (name && name->kind == DL_EX_STRING && name->name && call->arg_count >= 2) {
                DlValue *b = flow_is_tensor(argv[1]) ? dl_value_copy(F->arena, argv[1])
                                                     : flow_mk(F, DL_KIND_TENSOR);
                b->flags |= DL_VF_REGISTERED;
                flow_state_set(F->st, dl_arena_join(F->arena, "self", '.', name->name), b);
            }
            return flow_mk(F, DL_KIND_NONE);
        }
        if (recv->cls) {
            const DlFunctionInfo *fi = dl_project_method(F->env->project, recv->cls, m);
            if (fi) {
                if (F->in_init && dl_ir_is_self(recv_expr))
                    return flow_inline_method(F, fi->fn, argv, call);
                /* `self.forward(torch.from_numpy(state))` outside forward: as `self(...)` */
                if (flow_streq(m, "forward") && recv->dev == DL_DEV_MODULE && !F->is_forward &&
                    only_host_tensors(call, argv))
                    return flow_mk(F, DL_KIND_TENSOR);
                return on_the_receivers_device(
                    F,
                    where_the_receiver_was_built(F, flow_call_summary(F, fi, call, argv, true),
                                                 recv_expr, recv->cls),
                    recv);
            }
        }
        if (adds_a_module_from_elsewhere(m, call, argv)) {
            /* `model.append(deepcopy(layer))` for each layer of `backbone.to(device)`: the
             * container holds modules built elsewhere, and is where they are (the neural
             * style tutorial's `model.add_module(name, layer)` of `cnn.children()`) */
            const char *key = flow_key_of(F, recv_expr);
            if (key && !(recv->flags & DL_VF_MOVED)) flow_bind_moved_elsewhere(F, key, recv);
            return flow_mk(F, DL_KIND_NONE);
        }
        return flow_unknown();
    case DL_KIND_SEQ:
        if (flow_streq(m, "append") && call->arg_count == 1) {
            const char *key = flow_key_of(F, recv_expr);
            if (key) {
                DlValue *s = dl_value_copy(F->arena, recv);
                s->elem = recv->elem ? dl_value_join(F->arena, recv->elem, argv[0]) : argv[0];
                if (recv->items && recv->item_count < 16) {
                    /* a list written out, one more item at its end (`out = [img, label]`, then
                     * `out.append(idx)`: a dataset's sample, its tensors where they were) */
                    const DlValue **items =
                        dl_arena_alloc(F->arena, (recv->item_count + 1) * sizeof *items);
                    memcpy(items, recv->items, recv->item_count * sizeof *items);
                    items[recv->item_count] = argv[0];
                    s->items = items;
                    s->item_count++;
                } else {
                    s->items = NULL;
                    s->item_count = 0;
                }
                if (flow_adds_unregistered_state(argv[0]) &&
                    !handed_to_a_stored_module(F, call->args[0].value))
                    s->flags |= DL_VF_HAS_MODULES;
                flow_state_set(F->st, key, s);
            }
            return flow_mk(F, DL_KIND_NONE);
        }
        /* `self.sizes.copy()`: a shallow copy holds the same items (a list of ints a forward
         * returns beside its scores: WSOL-Metric's seed evaluation) */
        if (flow_streq(m, "copy") && call->arg_count == 0) return recv;
        if (flow_streq(m, "values") && recv->elem) {
            DlValue *s = flow_mk(F, DL_KIND_SEQ);
            s->elem = recv->elem;
            return s;
        }
        if (flow_streq(m, "items") && recv->elem) {
            DlValue *s = flow_mk(F, DL_KIND_SEQ), *pair = flow_mk(F, DL_KIND_SEQ);
            const DlValue **items = dl_arena_alloc(F->arena, 2 * sizeof *items);
            items[0] = flow_unknown();
            items[1] = recv->elem;
            pair->items = items;
            pair->item_count = 2;
            s->elem = pair;
            return s;
        }
        return flow_unknown();
    case DL_KIND_INSTANCE:
    case DL_KIND_LOADER:
        if (recv->cls) {
            const DlFunctionInfo *fi = dl_project_method(F->env->project, recv->cls, m);
            if (fi) {
                if (F->in_init && dl_ir_is_self(recv_expr))
                    return flow_inline_method(F, fi->fn, argv, call);
                if (recv->kind == DL_KIND_INSTANCE && flow_is_move_method(m))
                    return flow_move_instance(F, call, recv_expr, recv, fi, argv);
                return where_the_receiver_was_built(F, flow_call_summary(F, fi, call, argv, true),
                                                    recv_expr, recv->cls);
            }
            /* `pipe.to(device)` of a project class whose `to` its library base gives it (a
             * diffusers pipeline moves its modules in place and returns itself): still that
             * instance, whose own methods (`__call__`) its calls run */
            if (recv->kind == DL_KIND_INSTANCE && flow_is_move_method(m))
                return flow_mark_instance_moved(F, recv_expr, recv);
        }
        /* a library container that moves in place (torch_geometric's Data): itself */
        if (recv->kind == DL_KIND_INSTANCE && (recv->flags & DL_VF_OWN_TO) &&
            flow_is_move_method(m))
            return flow_mark_instance_moved(F, recv_expr, recv);
        return flow_unknown();
    case DL_KIND_UNKNOWN:
        if (flow_streq(m, "to") && call->arg_count && !call->args[0].keyword &&
            flow_is_tensor(argv[0])) {
            /* `self.S.to(pts)` with a tensor: only a tensor takes another's dtype and device */
            DlValue *t = flow_mk(F, DL_KIND_TENSOR);
            flow_take_place(t, argv[0]);
            return t;
        }
        /* `q.to("km")`, `(r * u.AU).to(u.solRad)`: an argument that names no device (a string
         * of no device type, a name of another library) is no move of a tensor but some other
         * object's conversion (astropy's units: SuNeRF's video scripts) */
        if (flow_streq(m, "to") && converts_to_no_device(F, call)) return flow_unknown();
        if (flow_is_move_method(m)) {
            /* x.to(device) on something of unknown kind: a tensor copy or the module itself;
             * either way the result lives on the target device */
            const DlValue *target = flow_move_target(F, call, m, argv);
            if (!target) return flow_unknown();
            DlValue *r = flow_with_device(F, flow_unknown(), target, DL_ORIGIN_MOVED, call->span);
            r->kind = DL_KIND_UNKNOWN;
            return r;
        }
        if (recv->dev && dl_module_method_returns_self(m)) return recv; /* x.to(d).eval() */
        if (flow_tensor_only_method(m)) { /* x.detach(), x.view(...): x is a tensor */
            DlValue *t = flow_mk(F, DL_KIND_TENSOR);
            flow_take_place(t, recv);
            /* `pred.eq(target)`: with the tensors it is given, as a method of a known tensor */
            if (dl_tensor_method_combines(m)) {
                OperandList ops = {0};
                flow_add_operand(&ops, call->object->object, t);
                for (uint32_t i = 0; i < call->arg_count; i++)
                    if (flow_is_tensor(argv[i])) flow_add_operand(&ops, call->args[i].value, argv[i]);
                if (ops.count > 1) return flow_combine(F, call, ops.items, ops.count);
            }
            return t;
        }
        /* `y.numpy()`: a NumPy array on the host, whatever `y` was (only a CPU tensor converts) */
        if (flow_streq(m, "numpy")) return numpy_array(F, recv);
        return flow_unknown();
    case DL_KIND_OTHER:
        /* `a.flatten().tolist()` of a NumPy array: host data all the way (ManyDG's labels); not
         * of any other value known to be no tensor (a PyG batch's field) */
        if (recv->literal && flow_streq(recv->literal, "numpy.ndarray") && numpy_array_method(m))
            return numpy_array(F, NULL);
        return flow_unknown();
    default:
        return flow_unknown();
    }
}

/* The `for` statement of `b` (at any depth, not in a nested def) whose body holds `span`. */
static const DlStmt *loop_around(const DlBlock *b, DlSpan span, int depth) {
    for (uint32_t i = 0; depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS || s->span.start > span.start ||
            s->span.end < span.end)
            continue;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) {
            const DlStmt *deeper = loop_around(inner, span, depth + 1);
            if (deeper) return deeper;
        }
        if (s->kind == DL_ST_FOR) return s;
    }
    return NULL;
}

/* `for name in ['v_template', 'shapedirs']: setattr(self, name, getattr(self, name).to(device))`
 * in __init__ (CalciferZh's SMPL model and its many copies): each attribute the list names is
 * moved, as `self.v_template = self.v_template.to(device)` moves it. */
static void move_listed_attributes(Flow *F, const DlExpr *call) {
    const DlExpr *attr = dl_ir_positional(call, 1), *value = dl_ir_positional(call, 2);
    const DlExpr *mv = value ? flow_move_call_of(value) : NULL;
    if (!attr || attr->kind != DL_EX_NAME || !F->fn || mv != value) return;
    const DlStmt *loop = loop_around(&F->fn->body, call->span, 0);
    if (!loop) return;
    const DlExpr *got = mv->object->object;
    /* `_tensor = getattr(self, name)`, then `setattr(self, name, _tensor.to(device))` (SMPL's
     * own form) */
    if (got && got->kind == DL_EX_NAME)
        got = dl_ir_last_assignment(&loop->parts->body, got->name, call->span.start);
    const DlExpr *got_name = got && got->kind == DL_EX_CALL ? dl_ir_positional(got, 1) : NULL;
    if (!got_name || !got->object || got->object->kind != DL_EX_NAME ||
        !flow_streq(got->object->name, "getattr") || !dl_ir_is_self(dl_ir_positional(got, 0)) ||
        got_name->kind != DL_EX_NAME || !flow_streq(got_name->name, attr->name))
        return;
    const DlExpr *names = loop->value;
    if (loop->target_count != 1 || loop->targets[0]->kind != DL_EX_NAME ||
        !flow_streq(loop->targets[0]->name, attr->name) || !names ||
        (names->kind != DL_EX_LIST && names->kind != DL_EX_TUPLE))
        return;
    const DlValue *argv[16] = {0};
    for (uint32_t i = 0; i < mv->arg_count && i < 16; i++)
        argv[i] = flow_eval(F, mv->args[i].value);
    const DlValue *target =
        mv->arg_count <= 16 ? flow_move_target(F, mv, mv->object->name, argv) : NULL;
    if (!target) return;
    for (uint32_t i = 0; i < names->item_count; i++) {
        const DlExpr *item = names->items[i];
        if (item->kind != DL_EX_STRING || !item->name) continue;
        const char *key = dl_arena_printf(F->arena, "self.%s", item->name);
        const Binding *b = flow_lookup(F, key);
        if (!b || !b->value || !flow_is_tensor(b->value)) continue;
        flow_state_set(F->st, key,
                       flow_with_device(F, b->value, target, DL_ORIGIN_MOVED, mv->span));
    }
}

const DlValue *flow_eval_builtin(Flow *F, const DlExpr *call, const char *name,
                                 const DlValue *const *argv, bool *handled) {
    *handled = true;
    const DlValue *a0 = call->arg_count ? argv[0] : flow_unknown();
    if (flow_streq(name, "enumerate")) {
        /* enumerate(loader) is still a loop over batches; enumerate(list) is not */
        DlValue *l = flow_mk(F, DL_KIND_SEQ);
        if (a0->kind == DL_KIND_LOADER) *l = *a0;
        DlValue *pair = flow_mk(F, DL_KIND_SEQ);
        const DlValue **items = dl_arena_alloc(F->arena, 2 * sizeof *items);
        items[0] = flow_mk(F, DL_KIND_SCALAR);
        items[1] = flow_element_of(F, a0, call->span);
        pair->items = items;
        pair->item_count = 2;
        l->elem = pair;
        l->items = NULL;
        l->item_count = 0;
        return l;
    }
    /* `xs, ys, lens = zip(*batch)` (a collate function's): each is a tuple of the items'
     * parts, no tensor itself, whatever the parts are */
    if (flow_streq(name, "zip") && call->arg_count == 1 && call->args[0].keyword &&
        flow_streq(call->args[0].keyword, "*")) {
        DlValue *column = flow_mk(F, DL_KIND_SEQ);
        column->elem = flow_element_of(F, flow_element_of(F, a0, call->span), call->span);
        DlValue *l = flow_mk(F, DL_KIND_SEQ);
        l->elem = column;
        return l;
    }
    if (flow_streq(name, "zip")) {
        DlValue *l = flow_mk(F, DL_KIND_SEQ);
        DlValue *tuple = flow_mk(F, DL_KIND_SEQ);
        uint32_t n = call->arg_count;
        for (uint32_t i = 0; i < n; i++)
            if (argv[i]->kind == DL_KIND_LOADER)
                l->kind = DL_KIND_LOADER; /* zip(loader_a, loader_b) */
        const DlValue **items = dl_arena_alloc(F->arena, (n ? n : 1) * sizeof *items);
        for (uint32_t i = 0; i < n; i++) {
            items[i] = flow_element_of(F, argv[i], call->span);
            /* tensors zipped together are mostly per-sample vectors (`zip(labels, preds)`),
             * whose elements are 0-dim; their rank is not known */
            if (flow_is_tensor(argv[i]) && flow_is_tensor(items[i]) &&
                !(items[i]->flags & DL_VF_ZERO_DIM)) {
                DlValue *row = dl_value_copy(F->arena, items[i]);
                row->flags |= DL_VF_ROW;
                items[i] = row;
            }
        }
        tuple->items = items;
        tuple->item_count = n;
        l->elem = tuple;
        return l;
    }
    /* `annotations = list()`: an empty list, as `[]` (pointpillar3d's collate function) */
    if ((flow_streq(name, "list") || flow_streq(name, "tuple")) && !call->arg_count) {
        DlValue *empty = flow_mk(F, DL_KIND_SEQ);
        empty->dev_span = call->span;
        return empty;
    }
    if (flow_streq(name, "iter") || flow_streq(name, "tqdm") || flow_streq(name, "list") ||
        flow_streq(name, "tuple") || flow_streq(name, "reversed") || flow_streq(name, "sorted"))
        return a0;
    if (flow_streq(name, "next")) return flow_element_of(F, a0, call->span);
    if (flow_streq(name, "len") || flow_streq(name, "int") || flow_streq(name, "float") ||
        flow_streq(name, "bool"))
        return flow_mk(F, DL_KIND_SCALAR);
    /* `round(loss.item(), 4)`: a number of a number (of a tensor, torch.round's tensor) */
    if (flow_streq(name, "round") && a0->kind == DL_KIND_SCALAR) return a0;
    if (flow_streq(name, "range")) {
        DlValue *r = flow_mk(F, DL_KIND_SEQ);
        r->elem = flow_mk(F, DL_KIND_SCALAR);
        return r;
    }
    if (flow_streq(name, "str")) return flow_mk(F, DL_KIND_STRING);
    if (flow_streq(name, "dict") && !dl_ir_positional(call, 0)) {
        DlValue *d = flow_mk(F, DL_KIND_SEQ);
        /* loader options with a collate function of their own: where that puts the batches,
         * and so whether pinning would matter, is for the loader to say (DL202 stays silent) */
        if (!dl_ir_keyword(call, "collate_fn")) d->flags |= flow_loader_pin_flags(call, argv);
        if (flow_device_keyword(F, call, argv)) d->flags |= DL_VF_HOLDS_DEVICE;
        bool all_tensors = call->arg_count > 0;
        const DlValue *elem = NULL;
        for (uint32_t i = 0; i < call->arg_count; i++) { /* dict(X_baseline=x_on_gpu) */
            if (flow_is_tensor(argv[i]) && dl_value_on_device(argv[i]))
                d->flags |= DL_VF_HOLDS_DEVICE;
            all_tensors = all_tensors && flow_is_tensor(argv[i]) && call->args[i].keyword &&
                          call->args[i].keyword[0] != '*';
            if (all_tensors) elem = dl_value_join(F->arena, elem, argv[i]);
        }
        /* `dict(lq=lq.cpu(), output=out.cpu())`: what a key reads is one of the tensors */
        if (all_tensors) d->elem = elem;
        return d;
    }
    /* `exec('self.layer{} = {}'.format(i + 1, 'layer'))` in `__init__` (or a helper it calls):
     * an assignment to an attribute of self run as text, which nn.Module's `__setattr__`
     * registers as `setattr(self, ...)` would (DomainAdaptation's ResNets) */
    if (flow_streq(name, "exec") && F->in_init && call->arg_count >= 1 && !call->args[0].keyword) {
        const char *text = flow_text(F, call->args[0].value->span);
        if (strstr(text, "'self.") || strstr(text, "\"self."))
            flow_state_set(F->st, "self.<registers>", flow_mk(F, DL_KIND_OTHER));
        return flow_mk(F, DL_KIND_OTHER);
    }
    if (flow_streq(name, "setattr") && F->in_init && call->arg_count >= 3) {
        const DlExpr *obj = dl_ir_positional(call, 0);
        if (dl_ir_is_self(obj)) {
            flow_state_set(F->st, "self.<registers>", flow_mk(F, DL_KIND_OTHER));
            move_listed_attributes(F, call);
        }
        return flow_mk(F, DL_KIND_OTHER);
    }
    if (flow_streq(name, "isinstance") || flow_streq(name, "print") ||
        flow_streq(name, "super") || flow_streq(name, "hasattr") ||
        flow_streq(name, "getattr") || flow_streq(name, "setattr"))
        return flow_mk(F, DL_KIND_OTHER);
    *handled = false;
    return flow_unknown();
}

/* `print(m)`, `len(m)`, `isinstance(m, T)`: builtins that look at a module and keep nothing. */
static bool reads_only(const DlExpr *call) {
    static const char *const builtins[] = {"print", "len", "isinstance", "issubclass", "repr",
                                           "str", "id", "type", "hash", "hasattr", "getattr",
                                           "vars", "dir", "format", NULL};
    const DlExpr *callee = call->object;
    return callee && callee->kind == DL_EX_NAME && dl_name_in_list(callee->name, builtins);
}

bool flow_is_copy(const char *q) {
    return q && (flow_streq(q, "copy.deepcopy") || flow_streq(q, "copy.copy"));
}

/* The module `e` names, handed to code devlint does not model: see flow_escape_modules. */
static void escape_module(Flow *F, const DlExpr *e) {
    const char *key = flow_key_of(F, e);
    const Binding *b = key ? flow_lookup(F, key) : NULL;
    const DlValue *v = b ? b->value : NULL;
    if (!v || v->kind != DL_KIND_MODULE || (v->flags & DL_VF_HELD_ELSEWHERE)) return;
    DlValue *c = dl_value_copy(F->arena, v);
    c->flags |= DL_VF_HELD_ELSEWHERE;
    if (!(v->flags & DL_VF_CONSTRUCTED)) { /* only where it is kept is new */
        if (c->flags != v->flags) flow_state_set(F->st, key, c);
        return;
    }
    c->flags &= (uint32_t)~DL_VF_CONSTRUCTED;
    c->dev = DL_DEV_UNKNOWN;
    flow_state_set(F->st, key, c);
}

/* `models = {'vae': vae, 'discriminator': disc}` (or a list, a tuple) written out a line before
 * the call it is handed to, as `name`: the modules it names go with it (Sequential-GCN's
 * `train_vaal(models, ...)`, which takes them out and moves them). */
static const DlExpr *display_bound_to(Flow *F, const DlExpr *name, uint32_t before) {
    if (!name || name->kind != DL_EX_NAME) return NULL;
    const DlBlock *body = F->fn ? &F->fn->body : &F->env->file->module->body;
    const DlExpr *d = dl_ir_last_assignment(body, name->name, before);
    return d && (d->kind == DL_EX_DICT || d->kind == DL_EX_LIST || d->kind == DL_EX_TUPLE) ? d
                                                                                           : NULL;
}

/* A constructed module handed to a function devlint does not model (`fabric.setup(model)`,
 * `accelerator.prepare(model)`, a project helper) may be moved there: it is no longer known to
 * be "never moved". torch's own functions do not move their arguments. Any module handed to such
 * a function but a builtin that only reads it may be registered there too (held elsewhere). */
void flow_escape_modules(Flow *F, const DlExpr *call, const DlValue *const *argv,
                         const char *qualified) {
    if (qualified && dl_torch_owns(qualified)) return;
    /* `print(model)`, `str(model)`: the model stays where it is (dgcnn's `print(str(model))`
     * before `nn.DataParallel(model)`) */
    if (reads_only(call)) return;
    /* `q_target = copy.deepcopy(q_net)`: the copy is a module of its own; the original stays
     * where it was (a DQN never moved keeps computing on the host) */
    if (flow_is_copy(qualified)) return;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const DlExpr *arg = call->args[i].value;
        const DlExpr *display =
            argv[i]->kind == DL_KIND_SEQ ? display_bound_to(F, arg, call->span.start) : NULL;
        if (argv[i]->kind == DL_KIND_MODULE) escape_module(F, arg);
        for (uint32_t k = 0; display && k < display->item_count; k++) {
            if (display->kind == DL_EX_DICT && k % 2 == 0) continue; /* a key */
            if (display->items[k]) escape_module(F, display->items[k]);
        }
    }
}

/* `list(self.convs.values())`, `tuple(layers)`: the container a module list is built from. */
static const DlExpr *container_listed(const DlExpr *a) {
    for (int depth = 0; depth < 4 && a->kind == DL_EX_CALL && a->object; depth++) {
        const DlExpr *f = a->object;
        bool copy = f->kind == DL_EX_NAME && f->name &&
                    (flow_streq(f->name, "list") || flow_streq(f->name, "tuple")) &&
                    a->arg_count == 1 && !a->args[0].keyword;
        bool values = f->kind == DL_EX_ATTR && f->name && flow_streq(f->name, "values") &&
                      !a->arg_count && f->object;
        if (!copy && !values) break;
        a = copy ? a->args[0].value : f->object;
    }
    return a;
}

/* A module of the list, now also the container's (`nn.Sequential(*layers).to(device)` moves
 * `layers[0]` too, HeavyBallNODE's notebooks): where it is goes with the container. */
static const DlValue *handed_over(Flow *F, const DlValue *v) {
    if (!v || !flow_is_module_like(v)) return v;
    DlValue *m = dl_value_copy(F->arena, v);
    m->dev = DL_DEV_UNKNOWN;
    m->dev_name = NULL;
    m->flags &= (uint32_t) ~(DL_VF_CONSTRUCTED | DL_VF_CPU_WEIGHT);
    m->flags |= DL_VF_HELD_ELSEWHERE;
    return m;
}

static void hand_over_listed_modules(Flow *F, DlValue *list) {
    list->elem = handed_over(F, list->elem);
    if (!list->item_count) return;
    const DlValue **items = dl_arena_alloc(F->arena, list->item_count * sizeof *items);
    for (uint32_t i = 0; i < list->item_count; i++)
        items[i] = handed_over(F, list->items[i]);
    list->items = items;
}

void flow_lists_registered_by(Flow *F, const DlExpr *call, const DlValue *const *argv) {
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const DlValue *v = argv[i];
        bool peel = call->args[i].value->kind == DL_EX_CALL;
        if (!peel && (v->kind != DL_KIND_SEQ || !(v->flags & DL_VF_HAS_MODULES))) continue;
        const DlExpr *listed = peel ? container_listed(call->args[i].value) : call->args[i].value;
        const char *key = flow_key_of(F, listed);
        /* `nn.ModuleList(list(self.convs.values()))` registers what the dict holds (monodepth2's
         * PoseCNN) */
        if (key && listed != call->args[i].value) {
            const Binding *b = flow_lookup(F, key);
            v = b && b->value ? b->value : v;
        }
        if (v->kind != DL_KIND_SEQ || !(v->flags & DL_VF_HAS_MODULES)) continue;
        if (!key) continue;
        DlValue *c = dl_value_copy(F->arena, v);
        c->flags &= (uint32_t)~DL_VF_HAS_MODULES;
        c->flags |= DL_VF_HANDED_OVER;
        hand_over_listed_modules(F, c);
        flow_state_set(F->st, key, c);
        /* the same list stored before it was registered (robomimic's MLP: `self.nets =
         * layers`, then `self._model = nn.Sequential(*layers)`; the attribute holds a copy
         * made where the list was built) holds registered modules too */
        for (uint32_t k = 0; v->dev_span.end && k < F->st->count; k++) {
            const DlValue *held = F->st->items[k].value;
            if (!held || held == c || held->kind != DL_KIND_SEQ ||
                !(held->flags & DL_VF_HAS_MODULES) || held->dev_span.start != v->dev_span.start ||
                held->dev_span.end != v->dev_span.end)
                continue;
            DlValue *h = dl_value_copy(F->arena, held);
            h->flags &= (uint32_t)~DL_VF_HAS_MODULES;
            h->flags |= DL_VF_HANDED_OVER;
            F->st->items[k].value = h;
        }
    }
}

/* The call's arguments hold tensors, all of them made on the host by the code (not 0-dim, not
 * a loader's batch, which the loop may have moved in ways not seen): a list of `.cpu()` copies
 * too. */
static bool only_host_tensors(const DlExpr *call, const DlValue *const *argv) {
    uint32_t tensors = 0;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const DlValue *v = argv[i];
        if (v->kind == DL_KIND_SEQ && v->elem) v = v->elem;
        if (v->kind == DL_KIND_SEQ && v->items && v->item_count) v = v->items[0];
        if (made_on_the_host(v)) tensors++;
        else if (flow_is_tensor(v) || v->kind == DL_KIND_UNKNOWN || flow_is_module_like(v))
            return false;
    }
    return tensors > 0;
}

/* `transform(x)`, `self.transform(x)` of an instance of a project class (not a module) that
 * defines `__call__` (fluowhy's `GreyTransform(torch.float, device)`, which moves what it is
 * given to the device it holds): what its `__call__` returns, a value on the device the
 * instance holds not known here; NULL for anything else. */
static const DlValue *call_of_an_instance(Flow *F, const DlExpr *call, const DlValue *v,
                                          const DlValue *const *argv) {
    const DlClassInfo *ci = v && v->kind == DL_KIND_INSTANCE ? v->cls : NULL;
    if (!ci || ci->is_module) return NULL;
    const DlFunctionInfo *fi = dl_project_method(F->env->project, ci, "__call__");
    if (!fi || !fi->fn) return NULL;
    const DlValue *r = flow_call_summary(F, fi, call, argv, true);
    if (r->dev == DL_DEV_NAMED && r->dev_name && strncmp(r->dev_name, "self.", 5) == 0) {
        DlValue *c = dl_value_copy(F->arena, r);
        c->dev = DL_DEV_UNKNOWN;
        c->dev_name = NULL;
        return c;
    }
    return r;
}

const DlValue *flow_resolve_call(Flow *F, const DlExpr *call, const char *q, const DlValue *recv,
                                 const DlValue *const *argv) {
    const DlExpr *callee = call->object;
    flow_escape_modules(F, call, argv, q);
    if (q) {
        if (dl_torch_owns(q) || strncmp(q, "tqdm", 4) == 0 ||
            strncmp(q, "pytorch_lightning", 17) == 0 || strncmp(q, "lightning", 9) == 0 ||
            flow_streq(q, "sklearn.model_selection.train_test_split"))
            return flow_eval_library_call(F, call, q, argv);
        if (dl_torch_is_data_parallel(q)) return flow_data_parallel(F, call, argv); /* mmcv's */
        if (dl_torch_is_graph_container(q)) return flow_graph_container(F);
        /* `fast_model = copy.deepcopy(model)`: a copy of what it is given, of its class and
         * where it is (InterIITDevRevKGP's meta-learning copies of a project model) */
        if (flow_is_copy(q) && call->arg_count >= 1 && !call->args[0].keyword) {
            DlValue *c = dl_value_copy(F->arena, argv[0]);
            c->var = NULL;
            return c;
        }
        const DlClassInfo *ci = dl_project_find_class(F->env->project, F->env->file, q);
        if (ci) return flow_instantiate(F, call, ci, argv);
        const DlFunctionInfo *fi = dl_project_find_function(F->env->project, F->env->file, q);
        if (fi) return flow_call_summary(F, fi, call, argv, false);
        /* an alias another file binds (`π0 = PiZero`, re-exported by a package) */
        const DlValue *alias = callee->kind == DL_EX_NAME ? flow_imported_global(F, q) : NULL;
        if (alias && alias->kind == DL_KIND_CLASS && alias->cls)
            return flow_instantiate(F, call, alias->cls, argv);
        if (alias && alias->kind == DL_KIND_FUNCTION && alias->cls)
            return flow_call_summary(F, alias->cls, call, argv, false);
        /* `np.sum(self.items) / len(self.items)` (simple_bev's SimplePool.mean): NumPy
         * computes on the host and gives back arrays and NumPy scalars, never a tensor (given
         * a tensor on the device it reads it back first: flow_sync's) */
        if (strncmp(q, "numpy.", 6) == 0) return flow_mk(F, DL_KIND_OTHER);
        return alternative_constructor(F, q);
    }
    if (recv) {
        /* self.encoder(x): an attribute holding a module is called, not a method */
        const char *key = flow_key_of(F, callee);
        const Binding *b = key ? flow_lookup(F, key) : NULL;
        /* ... but one of a kind not known, handed in (`self.metrics = metrics`) and given only
         * host tensors outside forward (Graph-DiT's sampling metrics, given `.cpu()` samples):
         * its output is where it computes, which is not known */
        if (b && b->value && b->value->kind == DL_KIND_UNKNOWN && !b->value->dev &&
            !F->is_forward && only_host_tensors(call, argv))
            return flow_unknown();
        if (b && b->value &&
            (flow_is_module_like(b->value) || (b->value->kind == DL_KIND_UNKNOWN && b->value->dev)))
            return flow_call_module(F, call, callee, b->value, argv);
        /* `g_ema.style(noise)`: a submodule of a project module called from outside it, which
         * computes where the module is (rosinality's projector) */
        if (recv->kind == DL_KIND_MODULE && recv->cls &&
            (callee->object->kind == DL_EX_NAME || callee->object->kind == DL_EX_ATTR) &&
            !dl_project_method(F->env->project, recv->cls, callee->name)) {
            const DlAttr *a = dl_project_attr(recv->cls, callee->name);
            if (a && a->value->kind == DL_KIND_MODULE)
                return flow_call_module(F, call, callee, flow_eval_attr(F, callee), argv);
        }
        if (calls_a_loss_attribute(F, callee, recv, b)) return loss_of_a_parameter(F, call, argv);
        const DlValue *called = b ? call_of_an_instance(F, call, b->value, argv) : NULL;
        if (called) return called;
        return flow_eval_method_call(F, call, callee->object, recv, callee->name, argv);
    }

    if (callee && callee->kind == DL_EX_NAME) {
        const Binding *b = flow_lookup(F, callee->name);
        if (!b) {
            bool handled;
            const DlValue *r = flow_eval_builtin(F, call, callee->name, argv, &handled);
            if (handled) return r;
        }
    }
    const DlValue *fv = flow_eval(F, callee);
    if (fv->kind == DL_KIND_CLASS && fv->cls) return flow_instantiate(F, call, fv->cls, argv);
    if (fv->kind == DL_KIND_FUNCTION && fv->cls)
        return flow_call_summary(F, fv->cls, call, argv, false);
    if (flow_is_module_like(fv)) return flow_call_module(F, call, callee, fv, argv);
    const DlValue *called = call_of_an_instance(F, call, fv, argv);
    if (called) return called;
    if (fv->kind == DL_KIND_UNKNOWN && fv->dev) { /* something moved with .to(): a module */
        DlValue *m = dl_value_copy(F->arena, fv);
        m->kind = DL_KIND_MODULE;
        return flow_call_module(F, call, callee, m, argv);
    }
    if (fv->kind == DL_KIND_UNKNOWN && callee && callee->kind == DL_EX_NAME &&
        names_a_loss_parameter(F, callee->name))
        return loss_of_a_parameter(F, call, argv);
    if (fv->kind == DL_KIND_UNKNOWN && !fv->dev && callee && callee->kind == DL_EX_NAME &&
        trained_parameter(F, callee->name))
        return output_of_a_trained_parameter(F, call, argv);
    return flow_unknown();
}
