/* The dataflow engine's statements and entry point (see flow.h): assignments and binding,
 * branches joined, loops run to a fixpoint with their batch-loop context, with-blocks, and
 * the initial state of a function (parameters, the class's attributes). */
#define _GNU_SOURCE /* memmem */
#include "dataflow/flow_internal.h"

#include <ctype.h>
#include <string.h>

/* A value as bound to `key`: remembers the name for messages, names a device variable. */
const DlValue *flow_as_bound(Flow *F, const char *key, const DlValue *v, const DlExpr *target) {
    if (v->kind == DL_KIND_UNKNOWN && !v->dev) return v;
    bool name_device = v->kind == DL_KIND_DEVICE && v->dev == DL_DEV_NAMED && !v->dev_name;
    bool name_var = !v->var && (v->kind == DL_KIND_TENSOR || flow_is_module_like(v) ||
                                v->kind == DL_KIND_LOADER);
    bool plain_attr = F->in_init && (flow_is_tensor(v) || v->kind == DL_KIND_SEQ) &&
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

static void note_return(Flow *F, const DlExpr *value);

/* `lin.w.weight = nn.Parameter(torch.eye(n, device=device))`, `model.head = head.cuda()`: a
 * module constructed here gets a part that is on a device. It is no longer "never moved":
 * where its other parts are is not known here (speechbrain's linear test). */
static void placed_in_module(Flow *F, const DlExpr *target, const DlValue *v) {
    /* `cell.weight_hh.data = gru.weight_hh_l0.data`: a parameter's storage rebound to a tensor
     * that may be on a device (WaveRNN's GRUCell sharing a moved GRU's weights) */
    bool data_rebound = target->name && flow_streq(target->name, "data") &&
                        (flow_is_tensor(v) || v->kind == DL_KIND_UNKNOWN) &&
                        !dl_value_is_cpu_tensor(v);
    if (!data_rebound && (!(flow_is_tensor(v) || flow_is_module_like(v)) || !dl_value_on_device(v)))
        return;
    const DlExpr *root = target->object;
    for (int depth = 0; root && root->kind == DL_EX_ATTR && depth < 16; depth++)
        root = root->object;
    if (!root || root->kind != DL_EX_NAME || dl_ir_is_self(root)) return;
    const Binding *b = flow_lookup(F, root->name);
    if (!b || !b->value || !flow_is_module_like(b->value) ||
        !(b->value->flags & DL_VF_CONSTRUCTED))
        return;
    flow_bind_moved_elsewhere(F, root->name, b->value);
}

void flow_bind(Flow *F, const DlExpr *target, const DlValue *v) {
    if (!target) return;
    switch (target->kind) {
    case DL_EX_NAME:
    case DL_EX_ATTR:
    case DL_EX_SUBSCRIPT: {
        const char *key = flow_key_of(F, target);
        if (target->kind == DL_EX_SUBSCRIPT) {
            const DlValue *into = flow_eval(F, target->object);
            flow_index_fact(F, target, into, true, NULL);
            /* `adj[i, j] = not adj[i, j]`, `x[mask] = 0`: a kernel writes into the tensor; not
             * into what a model gave (`outputs[key] = round(outputs[key].item(), 4)`,
             * Nystromformer's dict of losses) */
            /* (`buf[i] = torch.from_numpy(row)`: a copy from the host, which PyTorch makes
             * blocking, so it waits for the work queued before it: an RL benchmark's buffer
             * filled row by row in the timed loop) */
            if (flow_is_tensor(into) && dl_value_on_device(into) &&
                into->origin != DL_ORIGIN_MODEL) {
                if (dl_value_is_cpu_tensor(v)) flow_upload_finished(F);
                else flow_device_work(F, target, true);
            }
            /* d[k] = v: a container of that value; self.layers[i] = m etc. */
            const char *base = flow_key_of(F, target->object);
            const DlExpr *k0 = target->item_count == 1 ? target->items[0] : NULL;
            if (base && k0 && k0->kind == DL_EX_STRING && k0->name &&
                flow_streq(k0->name, "pin_memory")) {
                const Binding *b = flow_lookup(F, base);
                if (b && b->value && b->value->kind == DL_KIND_SEQ) {
                    DlValue *d = dl_value_copy(F->arena, b->value);
                    d->flags &= (uint32_t) ~(DL_VF_PIN_KNOWN | DL_VF_PINNED); /* unknown now */
                    flow_state_set(F->st, base, d);
                }
            }
            if (base && target->item_count < 2 &&
                !(k0 && (k0->kind == DL_EX_STRING || k0->kind == DL_EX_NUMBER ||
                         k0->kind == DL_EX_OTHER))) {
                /* batch[k] = v.to(device) for k in ...: a whole batch's parts are no longer
                 * known to be where the loader put them; not `gt[:, 2] = ...` or `x[1:] = ...`,
                 * a write into the tensor where it is (SimREC's boxes) */
                const Binding *b = flow_lookup(F, base);
                if (b && b->value && flow_is_tensor(b->value) &&
                    b->value->origin == DL_ORIGIN_BATCH) { /* a part may be a dict too */
                    DlValue *changed = dl_value_copy(F->arena, b->value);
                    changed->dev = DL_DEV_UNKNOWN;
                    changed->origin = DL_ORIGIN_NONE;
                    flow_state_set(F->st, base, changed);
                }
            }
            if (base) {
                const Binding *b = flow_lookup(F, base);
                if (b && b->value && b->value->kind == DL_KIND_SEQ) {
                    DlValue *s = dl_value_copy(F->arena, b->value);
                    s->elem = s->elem ? dl_value_join(F->arena, s->elem, v) : v;
                    if (flow_adds_unregistered_state(v)) s->flags |= DL_VF_HAS_MODULES;
                    flow_state_set(F->st, base, s);
                }
                /* `self.nn_dict[k] = v` of a module container (nn.ModuleDict, nn.ModuleList)
                 * given a module built elsewhere (ESPnet's beam search keeping the model's
                 * decoder): the container is where that module is, as after `append` */
                if (b && b->value && b->value->kind == DL_KIND_MODULE &&
                    !(b->value->flags & DL_VF_MOVED) && !flow_module_built_here(v))
                    flow_bind_moved_elsewhere(F, base, b->value);
            }
            /* `minibatch["imu"] = minibatch["imu"].to(device)`: an entry of a dict (or list)
             * batch moved. The batch is now a container of parts on different devices: handed
             * on whole (`model(minibatch)`), it may be read only where it was moved
             * (har-with-imu-transformer); its other entries are still where the loader put
             * them */
            if (base && k0 && (k0->kind == DL_EX_STRING || k0->kind == DL_EX_NUMBER) &&
                flow_is_tensor(v) && dl_value_on_device(v)) {
                const Binding *b = flow_lookup(F, base);
                if (b && b->value && flow_is_tensor(b->value) &&
                    b->value->origin == DL_ORIGIN_BATCH && (b->value->flags & DL_VF_WHOLE_BATCH)) {
                    DlValue *part = dl_value_copy(F->arena, b->value);
                    part->var = NULL;
                    part->flags &= (uint32_t)~DL_VF_WHOLE_BATCH;
                    DlValue *parts = flow_mk(F, DL_KIND_SEQ);
                    parts->elem = part;
                    flow_state_set(F->st, base, parts);
                } else if (b && b->value && flow_is_tensor(b->value) &&
                           b->value->origin == DL_ORIGIN_BATCH && k0->kind == DL_EX_NUMBER) {
                    /* `inputs = sample["input"]`, then `inputs[0] = inputs[0].cuda()`: a part
                     * of the batch that is a list of tensors (sgnn's collate), whose items are
                     * moved one by one; where each is now is not known */
                    DlValue *changed = dl_value_copy(F->arena, b->value);
                    changed->dev = DL_DEV_UNKNOWN;
                    changed->origin = DL_ORIGIN_NONE;
                    flow_state_set(F->st, base, changed);
                }
            }
        }
        /* a submodule, or a parameter (`self.w_embed = nn.Parameter(...)`), assigned to self
         * is registered there: a list that names it again (SGFormer's `self.params =
         * [self.w_embed, self.w_classify]`) holds nothing unregistered */
        bool registers = flow_is_module_like(v) ||
                         (flow_is_tensor(v) && (v->flags & DL_VF_REGISTERED));
        /* ... and so is one assigned to such a submodule (`self.enc.head = nn.Linear(4, 2)`,
         * then `self.heads = [self.enc.head]`: Active_learning's pretrained model's `fc`) */
        bool on_a_held_submodule = false;
        if (key && registers && strncmp(key, "self.", 5) == 0 && strchr(key + 5, '.') &&
            (target->kind == DL_EX_ATTR || target->kind == DL_EX_SUBSCRIPT)) {
            /* the nearest owner bound here: `self.backbone` of `self.backbone.fc`, and of
             * `self.backbone.classifier[3]` (a part of it the file never bound) */
            const DlExpr *owner = target->object;
            const char *owner_key = NULL;
            const Binding *ob = NULL;
            for (int up = 0; owner && up < 8 && !ob; up++, owner = owner->object) {
                if (owner->kind != DL_EX_ATTR && owner->kind != DL_EX_SUBSCRIPT) break;
                owner_key = flow_key_of(F, owner);
                ob = owner_key ? flow_lookup(F, owner_key) : NULL;
            }
            /* a value of a kind not known stored on self and given a module (a torchvision
             * model's `self.backbone.fc = nn.Linear(512, n)`) is a module too */
            bool direct = ob && owner_key && strncmp(owner_key, "self.", 5) == 0 &&
                          !strchr(owner_key + 5, '.');
            on_a_held_submodule =
                ob && ob->value &&
                ((flow_is_module_like(ob->value) && (ob->value->flags & DL_VF_HELD_ELSEWHERE)) ||
                 (direct && ob->value->kind == DL_KIND_UNKNOWN));
        }
        if (key && registers && strncmp(key, "self.", 5) == 0 && F->owner &&
            (F->owner->is_module || F->owner->maybe_module) &&
            (!strchr(key + 5, '.') || on_a_held_submodule)) {
            DlValue *held = dl_value_copy(F->arena, v); /* registered as a submodule */
            held->flags |= DL_VF_HELD_ELSEWHERE;
            v = held;
        }
        if (key && target->kind == DL_EX_ATTR && flow_is_tensor(v) &&
            !(v->flags & DL_VF_REGISTERED) && strncmp(key, "self.", 5) == 0) {
            /* `self.queue = normalize(self.queue)` after `register_buffer("queue", ...)`:
             * nn.Module.__setattr__ stores a tensor given to a buffer's name in the buffer */
            const Binding *old = flow_lookup(F, key);
            if (old && old->value && flow_is_tensor(old->value) &&
                (old->value->flags & DL_VF_REGISTERED)) {
                DlValue *kept = dl_value_copy(F->arena, v);
                kept->flags |= DL_VF_REGISTERED;
                v = kept;
            }
        }
        if (key) flow_state_set(F->st, key, flow_as_bound(F, key, v, target));
        if (target->kind == DL_EX_ATTR) placed_in_module(F, target, v);
        /* `self.bias.data = self.bias.data.to(device)`: the tensor is where its data now is
         * (Training-Free-Graph-Matching's lazily built bias) */
        if (target->kind == DL_EX_ATTR && flow_streq(target->name, "data") && flow_is_tensor(v)) {
            const char *owner = flow_key_of(F, target->object);
            const Binding *ob = owner ? flow_lookup(F, owner) : NULL;
            if (ob && ob->value && flow_is_tensor(ob->value)) {
                DlValue *moved = dl_value_copy(F->arena, ob->value);
                moved->dev = v->dev;
                moved->dev_name = v->dev_name;
                moved->dev_span = v->dev_span;
                moved->origin = v->origin;
                flow_state_set(F->st, owner, moved);
            }
        }
        return;
    }
    case DL_EX_TUPLE:
    case DL_EX_LIST: {
        for (uint32_t i = 0; i < target->item_count; i++) {
            const DlExpr *t = target->items[i];
            const DlValue *part = flow_unknown();
            if (v->kind == DL_KIND_SEQ && v->items && v->item_count == target->item_count)
                part = v->items[i];
            else if (v->kind == DL_KIND_SEQ && v->elem)
                part = v->elem;
            else if (flow_is_tensor(v) && !(v->flags & DL_VF_UNPACKED) &&
                     v->origin != DL_ORIGIN_BATCH) {
                DlValue *c = dl_value_copy(F->arena, v); /* rows of a tensor, a model's output */
                c->flags |= DL_VF_UNPACKED;
                part = c;
            } else if (flow_is_tensor(v))
                part = v;
            if (t->kind == DL_EX_STARRED) {
                flow_bind(F, t->object, flow_unknown());
                continue;
            }
            /* `for imgs, labels, class_names, img_paths in loader:`: parts named for names
             * and paths are the lists of strings the collate made of them (miniCLIP's); not
             * `captions` or `texts`, which a loader often gives as token ids (image-cap's) */
            if (flow_is_tensor(part) && part->origin == DL_ORIGIN_BATCH &&
                t->kind == DL_EX_NAME && flow_is_name_or_path_field(t->name)) {
                flow_bind(F, t, flow_mk(F, DL_KIND_STRING));
                continue;
            }
            if (flow_is_tensor(part) && part->origin == DL_ORIGIN_BATCH) {
                DlValue *c = dl_value_copy(F->arena, part);
                c->dev_span = t->span; /* each unpacked batch tensor is its own finding */
                c->home = NULL;
                c->var = NULL;
                /* `x, y = batch` takes a batch apart; `step, batch` of enumerate(loader) (or
                 * zip's items) is still the whole batch, of unknown structure; so is each
                 * graph batch of a pair from torch_geometric's loaders (graph_table_
                 * recognition's `data, _ = data`), which moves in place as a whole batch does
                 * (see flow_eval_subscript's `data[0]`) */
                bool graph_batch = (v->flags & DL_VF_WHOLE_BATCH) &&
                                   F->env->file->module->mentions_torch_geometric;
                if (flow_is_tensor(v) && !graph_batch) c->flags &= (uint32_t)~DL_VF_WHOLE_BATCH;
                part = c;
            }
            flow_bind(F, t, part);
        }
        return;
    }
    case DL_EX_STARRED:
        flow_bind(F, target->object, flow_unknown());
        return;
    default:
        return;
    }
}

/* A keyword that Tensor.to(), Module.to(), .cuda() or .cpu() takes; pymatgen's
 * `structure.to(filename="x.cif")` writes a file instead (chgnet). */
static bool move_keyword(const char *kw) {
    static const char *const keywords[] = {"device", "dtype", "non_blocking", "copy",
                                           "memory_format", "tensor", NULL};
    return kw[0] == '*' || dl_name_in_list(kw, keywords);
}

const DlExpr *flow_move_call_of(const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR) return NULL;
    if (!flow_is_move_method(e->object->name)) return NULL;
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (e->args[i].keyword && !move_keyword(e->args[i].keyword)) return NULL;
    return e;
}

/* The `for` statement whose loop variable `e` is, when it iterates over tensors. */
const DlStmt *flow_seq_loop_of(Flow *F, const DlExpr *e) {
    if (!e || e->kind != DL_EX_NAME) return NULL;
    for (int i = F->seq_loop_count; i-- > 0;)
        if (strcmp(F->seq_loop_vars[i].name, e->name) == 0) return F->seq_loop_vars[i].loop;
    return NULL;
}

void flow_discard(Flow *F, const DlStmt *s, const DlExpr *call, const DlValue *recv,
                  const DlStmt *loop, const DlExpr *comprehension) {
    if (!flow_reporter(F)) return;
    DlDiscardFact fact = {s,    call->object->object, call, recv, call->object->name,
                          loop || comprehension, loop, comprehension};
    dl_rule_dispatch_discard(F->env->report, &fact);
}

/* Where the bare `x.to(...)` / `.cuda()` / `.cpu()` statement `mv` moves to (its arguments
 * evaluated), or NULL when that is not known. */
static const DlValue *statement_move_target(Flow *F, const DlExpr *mv) {
    const DlValue *argv[16] = {0};
    for (uint32_t i = 0; i < mv->arg_count && i < 16; i++)
        argv[i] = flow_eval(F, mv->args[i].value);
    return mv->arg_count <= 16 ? flow_move_target(F, mv, mv->object->name, argv) : NULL;
}

/* `x.to(d)`, `x.cpu()` with nothing but the device (no dtype, no copy=) to where `x` already
 * is: the call returns `x` itself, so throwing its result away loses nothing
 * (`t = torch.tensor(a, device=model.device); t.to(model.device)`). */
static bool moves_to_where_it_is(Flow *F, const DlExpr *mv, const DlValue *recv) {
    if (mv->arg_count > 1 || (mv->arg_count == 1 && mv->args[0].keyword &&
                              strcmp(mv->args[0].keyword, "device") != 0))
        return false;
    const DlValue *to = statement_move_target(F, mv);
    if (!to || !to->dev || to->dev != recv->dev) return false;
    if (to->dev == DL_DEV_CPU) return true;
    return to->dev_name && recv->dev_name && strcmp(to->dev_name, recv->dev_name) == 0;
}

/* `model.to(device).eval()` (or `.train()`): a tensor has neither, so what moved is a module,
 * in place, as a bare `model.to(device)` is. The move call, or NULL. */
static const DlExpr *move_then_mode(const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR ||
        !(flow_streq(e->object->name, "eval") || flow_streq(e->object->name, "train")))
        return NULL;
    const DlExpr *mv = flow_move_call_of(e->object->object);
    return mv && mv->object->name && !flow_streq(mv->object->name, "cpu") ? mv : NULL;
}

/* After the bare `name.to(device)` statement `s`, is the next mention of `name` in the same
 * function (or script) a tensor's own method on it (`img = img.unsqueeze(0)`, `img.view(...)`,
 * `img.shape`), which no module has? Then the value of unknown kind was a tensor, whose move
 * the statement threw away (a dataset item taken as `img, _ = train_loader.dataset[1]`). */
static bool next_used_as_a_tensor(Flow *F, const DlStmt *s, const char *name) {
    static const char *const tensor_only[] = {
        "unsqueeze", "squeeze", "view", "permute", "reshape", "numpy", "item", "tolist",
        "transpose", "flatten", "dim", "shape", "size", "unsqueeze_", NULL};
    const DlSource *src = F->src;
    uint32_t end = F->fn ? F->fn->span.end : (uint32_t)src->len;
    if (end > src->len || s->span.end >= end) return false;
    size_t n = strlen(name);
    const char *text = src->text;
    for (const char *p = text + s->span.end; p + n <= text + end; p++) {
        if (memcmp(p, name, n) != 0 || (p > text && (dl_source_name_byte(p[-1]) || p[-1] == '.')) ||
            dl_source_name_byte(p[n]))
            continue;
        const char *line = dl_source_line_start_of(text, p);
        if (memchr(line, '#', (size_t)(p - line))) continue; /* in a comment */
        const char *q = p + n;
        while (q < text + end && (*q == ' ' || *q == '\t')) q++;
        if (*q == '=' && q[1] != '=') { /* rebound: `name = name.unsqueeze(0)` still tells */
            q++;
            while (q < text + end && (*q == ' ' || *q == '\t')) q++;
            if ((size_t)(text + end - q) <= n || memcmp(q, name, n) != 0) return false;
            q += n;
        }
        if (*q != '.') return false;
        q++;
        for (const char *const *m = tensor_only; *m; m++) {
            size_t k = strlen(*m);
            if ((size_t)(text + end - q) > k && memcmp(q, *m, k) == 0 && !dl_source_name_byte(q[k]))
                return true;
        }
        return false;
    }
    return false;
}

void flow_exec_expr_stmt(Flow *F, const DlStmt *s) {
    const DlExpr *e = s->value;
    if (!e) return;
    const DlExpr *mv = flow_move_call_of(e);
    const DlExpr *then_mode = move_then_mode(e);
    /* of a name or an attribute only: evaluated here and again below, without events */
    if (then_mode && (then_mode->object->object->kind == DL_EX_NAME ||
                      then_mode->object->object->kind == DL_EX_ATTR)) {
        const DlValue *recv = flow_eval(F, then_mode->object->object);
        if (recv->kind == DL_KIND_UNKNOWN) mv = then_mode;
    }
    if (mv) {
        const DlValue *recv = flow_eval(F, mv->object->object);
        flow_note_gpu_required(F, mv, recv);
        if (flow_is_tensor(recv) && !(recv->flags & DL_VF_WHOLE_BATCH)) {
            if (moves_to_where_it_is(F, mv, recv)) return;
            flow_discard(F, s, mv, recv, flow_seq_loop_of(F, mv->object->object), NULL);
            const char *key = flow_key_of(F, mv->object->object);
            if (key) {
                DlValue *marked = dl_value_copy(F->arena, recv);
                marked->flags |= DL_VF_MOVE_DISCARDED;
                flow_state_set(F->st, key, marked);
            }
        } else if (recv->kind == DL_KIND_UNKNOWN && mv->object->object->kind == DL_EX_NAME &&
                   !then_mode && next_used_as_a_tensor(F, s, mv->object->object->name)) {
            /* a value used next as a tensor: its move is thrown away (DL101) */
            DlValue *t = flow_mk(F, DL_KIND_TENSOR);
            flow_discard(F, s, mv, t, NULL, NULL);
            t->flags |= DL_VF_MOVE_DISCARDED;
            flow_state_set(F->st, mv->object->object->name, t);
            return;
        } else if (recv->kind == DL_KIND_UNKNOWN) {
            /* a bare x.to(device) on an unknown value is read as a module moved in place */
            const char *key = flow_key_of(F, mv->object->object);
            const DlValue *target = statement_move_target(F, mv);
            if (key && target) {
                DlValue *m = flow_mk(F, DL_KIND_MODULE);
                m->dev = target->dev;
                m->dev_name = target->dev_name;
                m->flags |= DL_VF_MOVED;
                m->dev_span = mv->span;
                m->dev_why = flow_short_text(F, mv->span);
                m->var = key;
                flow_state_set(F->st, key, m);
            }
            return;
        }
    }
    if (e->kind == DL_EX_COMP && e->object && flow_move_call_of(e->object)) {
        /* [t.to(device) for t in tensors] as a statement: the list is thrown away */
        const DlValue *iter =
            dl_expr_extra(e)->iter ? flow_eval(F, dl_expr_extra(e)->iter) : flow_unknown();
        const DlValue *elem = flow_element_of(F, iter, e->span);
        const DlExpr *mvc = e->object;
        bool receiver_is_target =
            dl_expr_extra(e)->target && mvc->object->object &&
            mvc->object->object->kind == DL_EX_NAME &&
            dl_expr_extra(e)->target->kind == DL_EX_NAME &&
            strcmp(mvc->object->object->name, dl_expr_extra(e)->target->name) == 0;
        if (receiver_is_target && flow_is_tensor(elem)) flow_discard(F, s, mvc, elem, NULL, e);
        return;
    }
    flow_eval(F, e);
}

void flow_exec_assign(Flow *F, const DlStmt *s) {
    const DlValue *v = s->value ? flow_eval(F, s->value) : flow_unknown();
    if (s->annotation && v->kind == DL_KIND_UNKNOWN) {
        const char *q = flow_qualify(F, s->annotation);
        if (q && flow_streq(q, "torch.Tensor")) v = flow_mk(F, DL_KIND_TENSOR);
    }
    for (uint32_t i = 0; i < s->target_count; i++) {
        /* `G = G.to("cuda:0")` (a DGL graph moves the features it holds), `batch = next(it)`:
         * a name bound anew holds another object, and what was known of the old one's parts
         * (`G.ndata["h"]`, a CPU tensor stored there) is not known of it */
        if (s->targets[i]->kind == DL_EX_NAME) flow_state_forget_parts(F->st, s->targets[i]->name);
        flow_bind(F, s->targets[i], v);
    }
}

/* After `TORCH_CHECK(x.is_cuda(), ...)` (or `x.device().is_cuda()`, several joined with &&)
 * execution goes on only with x on a CUDA device. */
static void flow_exec_check(Flow *F, const DlStmt *s, const DlExpr *cond, int depth) {
    if (!cond || depth > 16) return;
    /* `assert use_gpu, "Code works on GPU"` after `use_gpu = torch.cuda.is_available()`
     * (PerClusterQuantization's scripts): what follows runs only with a GPU */
    if (flow_says_cuda_available(flow_eval(F, cond)) && !F->try_depth && !F->comp_count)
        F->place.cuda_checked = true;
    if (cond->kind == DL_EX_BOOLOP && cond->name && flow_streq(cond->name, "and")) {
        for (uint32_t i = 0; i < cond->item_count; i++) flow_exec_check(F, s, cond->items[i], depth + 1);
        return;
    }
    const DlExpr *x = dl_ir_cuda_check_subject(cond);
    if (!x) return;
    const DlValue *v = flow_eval(F, x);
    if (v->kind != DL_KIND_TENSOR && v->kind != DL_KIND_UNKNOWN) return;
    if (v->dev == DL_DEV_CUDA) return;
    /* `assert m.device.type == "cuda"`: a model, a pipeline, setfit's AbsaModel have a
     * `.device` too; only `is_cuda` (a tensor's) says the value is a tensor */
    if (v->kind == DL_KIND_UNKNOWN && cond->kind == DL_EX_COMPARE && !(cond->flags & DL_EXF_CPP))
        return;
    DlValue *checked = dl_value_copy(F->arena, v);
    checked->kind = DL_KIND_TENSOR;
    checked->dev = DL_DEV_CUDA;
    checked->dev_name = "cuda";
    checked->origin = DL_ORIGIN_INPUT;
    checked->dev_span = s->span;
    checked->dev_why = flow_short_text(F, s->span);
    checked->home = NULL;
    flow_bind(F, x, checked);
}

void flow_exec_augassign(Flow *F, const DlStmt *s) {
    const DlExpr *t = s->targets[0];
    const DlValue *tv = flow_eval(F, t);
    const DlValue *v = flow_eval(F, s->value);
    if (flow_is_tensor(tv) && flow_is_tensor(v)) {
        /* the target of an in-place op may not be a cpu tensor when the operand is on a
         * device, 0-dim or not (`cpu_total += cuda_loss` fails) */
        const DlValue *target = tv;
        if ((tv->flags & DL_VF_ZERO_DIM) && tv->dev == DL_DEV_CPU && dl_value_on_device(v)) {
            DlValue *c = dl_value_copy(F->arena, tv);
            c->flags &= (uint32_t)~DL_VF_ZERO_DIM;
            target = c;
        }
        DlOperand ops[2] = {{t, target}, {s->value, v}};
        flow_meet(F, s->value, ops, 2, -1);
        /* `self.weight_scale += torch.tensor(c).log()`: a tensor's `+=` works in place, so a
         * parameter stays the parameter (registered, moving with its module) */
        flow_bind(F, t, (tv->flags & DL_VF_REGISTERED) ? tv : flow_combine(F, s->value, ops, 2));
        return;
    }
    if (tv->kind == DL_KIND_SCALAR && v->kind == DL_KIND_SCALAR) return;
    if (tv->kind == DL_KIND_SEQ) {
        /* `targets += [torch.tensor(label, device=self.device)]`: the list grows by the other's
         * items, as with `append` (VKuzia's collate function, whose batches are then on the
         * device) */
        const char *key = flow_key_of(F, t);
        if (key && v->kind == DL_KIND_SEQ && v->elem) {
            DlValue *grown = dl_value_copy(F->arena, tv);
            grown->elem = tv->elem ? dl_value_join(F->arena, tv->elem, v->elem) : v->elem;
            grown->items = NULL;
            grown->item_count = 0;
            grown->flags |= v->flags & DL_VF_HAS_MODULES;
            flow_state_set(F->st, key, grown);
        }
        return;
    }
    /* `param_loss /= args.num_params`: a tensor's op= with a number (or what may be one) works
     * in place; it stays that tensor, where it was (mtt-distillation's grand loss) */
    if (flow_is_tensor(tv) && (v->kind == DL_KIND_SCALAR || v->kind == DL_KIND_UNKNOWN)) return;
    flow_bind(F, t, flow_is_tensor(v) && tv->kind == DL_KIND_SCALAR ? v : flow_unknown());
}

bool flow_names_in(const DlExpr *e, const char *name, int depth) {
    if (!e || depth > 16) return false;
    if (e->kind == DL_EX_NAME) return strcmp(e->name, name) == 0;
    if (e->object && flow_names_in(e->object, name, depth + 1)) return true;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (flow_names_in(e->items[i], name, depth + 1)) return true;
    return false;
}

/* The last name of a method call's receiver: "optimizer" for `optimizer.step()`, "train_env"
 * for `self.train_env.step(a)`; NULL when the receiver is not a name or attribute. */
static const char *receiver_name(const DlExpr *call) {
    const DlExpr *r = call->object->object;
    return r && (r->kind == DL_EX_NAME || r->kind == DL_EX_ATTR) ? r->name : NULL;
}

/* An optimizer step: optimizer.step(), grad_scaler.step(optimizer) (not env.step(action), nor
 * `scheduler.step()`: a learning-rate schedule steps once per epoch as often as once per
 * batch). */
static bool is_optimizer_step(const DlExpr *e) {
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR) return false;
    if (!flow_streq(e->object->name, "step")) return false;
    /* `schedulers['gen'].step()`, `poseaug_dict['scheduler_G'].step()`: an entry of a dict of
     * schedulers, or one keyed as one (PoseAug's epoch loop) */
    const DlExpr *r = e->object->object;
    if (r && r->kind == DL_EX_SUBSCRIPT && r->item_count == 1 && !e->arg_count) {
        const DlExpr *key = r->items[0];
        const DlExpr *dict = r->object;
        if ((key->kind == DL_EX_STRING && key->name && strstr(key->name, "sched")) ||
            (dict && (dict->kind == DL_EX_NAME || dict->kind == DL_EX_ATTR) && dict->name &&
             strstr(dict->name, "sched")))
            return false;
    }
    const char *name = receiver_name(e);
    if (e->arg_count) return name && strstr(name, "scaler"); /* grad_scaler.step(optimizer) */
    /* a progress tracker's or profiler's step (`rtpt.step()`, Object-Centric-Concept-Bottlenecks'
     * embedding export; `pbar.step()`, `prof.step()`): no training */
    static const char *const trackers[] = {"rtpt", "pbar", "progress", "prof", "timer", NULL};
    for (const char *const *t = trackers; name && *t; t++)
        if (strstr(name, *t)) return false;
    return !name || !strstr(name, "sched");
}

/* `.backward()` or an optimizer step: loss.backward(), fabric.backward(loss), optimizer.step(). */
static bool is_training_step(const DlExpr *e) {
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR) return false;
    return flow_streq(e->object->name, "backward") || is_optimizer_step(e);
}

/* A write of an output to a file: an image (`save_image(out, path)`, `cv2.imwrite`,
 * `imageio.imwrite`, `plt.imsave`, `Image.fromarray(a).save(path)`), audio (`sf.write`,
 * `torchaudio.save`) or an array (`np.save`, `np.savetxt`, `a.tofile(path)`, `torch.save`,
 * `pickle.dump`); or a
 * display of it (`plt.show()`,
 * `cv2.imshow`, an Open3D window, `input()` to go on). Not a log line (`f.write`). */
static bool is_output_write(const DlExpr *e) {
    if (e->kind != DL_EX_CALL || !e->object) return false;
    static const char *const writers[] = {"save_image", "imwrite",    "imsave",      "mimsave",
                                          "mimwrite",   "write_png",  "write_jpeg",  "write_video",
                                          "tofile",     "savetxt",
                                          /* h5py's `group.create_dataset(name, data=a)` */
                                          "create_dataset", NULL};
    const DlExpr *callee = e->object;
    const char *name = callee->kind == DL_EX_NAME || callee->kind == DL_EX_ATTR ? callee->name
                                                                               : NULL;
    if (!name) return false;
    if (dl_name_in_list(name, writers)) return true;
    /* a helper named for it (BASNet's `save_output(name, pred, dir)`, `utils.saveimg(img,
     * path)`), not one that saves a model (`save_checkpoint`, `save_model`) */
    if ((strstr(name, "save") || strncmp(name, "write_", 6) == 0) && !strstr(name, "model") &&
        !strstr(name, "checkpoint") && !strstr(name, "ckpt") && !strstr(name, "state") &&
        !strstr(name, "log") && !flow_streq(name, "save"))
        return true;
    /* PIL's `image.save(path, format="GIF", append_images=frames, save_all=True)`: an image
     * file, not torch.save (which takes neither keyword) */
    if (callee->kind == DL_EX_ATTR && flow_streq(name, "save") &&
        (dl_ir_keyword(e, "format") || dl_ir_keyword(e, "save_all") ||
         dl_ir_keyword(e, "quality")))
        return true;
    /* shown to a person, who paces the loop (F3Net's viewer: `plt.show()` then `input()`) */
    if (callee->kind == DL_EX_NAME && flow_streq(name, "input")) return true;
    if (callee->kind != DL_EX_ATTR || !callee->object) return false;
    const DlExpr *recv = callee->object;
    /* `cv2.imshow`, also as `import cv2 as cv` (faster-rcnn-pytorch's detect script) */
    bool opencv =
        recv->kind == DL_EX_NAME && (flow_streq(recv->name, "cv2") || flow_streq(recv->name, "cv"));
    /* `plt.pause(0.001)` draws the figure and runs the GUI loop, as `plt.show()` does
     * (PyTorch's transfer-learning tutorial's `imshow`) */
    if ((recv->kind == DL_EX_NAME && flow_streq(recv->name, "plt") &&
         (flow_streq(name, "show") || flow_streq(name, "pause"))) ||
        (opencv && (flow_streq(name, "imshow") || flow_streq(name, "waitKey"))))
        return true;
    /* Open3D's windows, which block until the person closes them (PointNet12's part
     * segmentation viewer: `vis.run()`; `open3d.visualization.draw_geometries([pcd])`) */
    static const char *const viewers[] = {"vis", "viewer", "visualizer", NULL};
    if (flow_streq(name, "draw_geometries") ||
        (flow_streq(name, "run") && recv->kind == DL_EX_NAME &&
         dl_name_in_list(recv->name, viewers)))
        return true;
    /* a visdom client's plots (`vis.scatter(X=out[i].cpu(), win=...)`, `viz.images(...)`):
     * shown in the browser as each one comes (MSN's point-cloud validation) */
    static const char *const visdom_clients[] = {"vis", "viz", "visdom", NULL};
    static const char *const visdom_plots[] = {"scatter", "images", "image", "line",
                                               "heatmap", "histogram", "bar", "surf",
                                               "mesh", "video", NULL};
    const char *client = recv->kind == DL_EX_NAME || recv->kind == DL_EX_ATTR ? recv->name : NULL;
    if (client && dl_name_in_list(client, visdom_clients) && dl_name_in_list(name, visdom_plots))
        return true;
    /* `transforms.ToPILImage()(out.cpu()).save(path)`: the transform built and applied */
    const DlExpr *maker = recv->kind == DL_EX_CALL ? recv->object : NULL;
    if (maker && maker->kind == DL_EX_CALL && maker->object &&
        (maker->object->kind == DL_EX_ATTR || maker->object->kind == DL_EX_NAME) &&
        flow_streq(name, "save"))
        return flow_streq(maker->object->name, "ToPILImage");
    if (maker && (maker->kind == DL_EX_ATTR || maker->kind == DL_EX_NAME) &&
        flow_streq(name, "save"))
        return flow_streq(maker->name, "fromarray") || flow_streq(maker->name, "to_pil_image") ||
               /* interactive_pipe's `Image(arr).save(path)` (blind-deblurring's infer) */
               flow_streq(maker->name, "Image");
    if (recv->kind != DL_EX_NAME) return false;
    /* `img = Image.fromarray(a)` then `img.save(path)` (volsdf's evaluation), also under the
     * tensor's own name (practice-SRCNN's `data = toimg(data.squeeze())`, `data.save(path)`):
     * a tensor has no `save`, and a loop that trains nothing saves an output with it */
    if (flow_streq(name, "save") && e->arg_count >= 1) return true;
    /* `pickle.dump({"y_pred": y_pred}, handle)` (MonoScene's generate_output) */
    if (flow_streq(name, "dump") &&
        (flow_streq(recv->name, "pickle") || flow_streq(recv->name, "cPickle") ||
         flow_streq(recv->name, "pkl") || flow_streq(recv->name, "joblib")))
        return true;
    static const char *const array_savers[] = {"save", "savez", "savez_compressed", NULL};
    if ((flow_streq(recv->name, "np") || flow_streq(recv->name, "numpy") ||
         flow_streq(recv->name, "torch") || flow_streq(recv->name, "torchaudio")) &&
        dl_name_in_list(name, array_savers))
        return true;
    return flow_streq(name, "write") &&
           (flow_streq(recv->name, "sf") || flow_streq(recv->name, "soundfile") ||
            flow_streq(recv->name, "wavfile"));
}

/* `next(it)`, `next(data_iter, None)`: a batch drawn by hand. */
static bool is_next_call(const DlExpr *e) {
    return e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_NAME &&
           flow_streq(e->object->name, "next");
}

/* Whether a statement of the block, or of the blocks nested in it (not a nested def's or
 * class's body), holds an expression `match` finds; inner loops only `into_loops` (an inner
 * loop's training steps are its own; an episode's environment steps are the iteration's). */
static bool block_has(const DlBlock *b, bool (*match)(const DlExpr *), bool into_loops,
                      int depth) {
    if (depth > 16) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (!into_loops && (s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE)) continue;
        if (dl_ir_expr_any(s->value, match)) return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_has(inner, match, into_loops, depth + 1)) return true;
    }
    return false;
}

static bool block_any_outside_loops(const DlBlock *b, bool (*match)(const DlExpr *), int depth) {
    return block_has(b, match, false, depth);
}

/* block_any_outside_loops with a match that takes a context. */
static bool block_any_outside_loops_with(const DlBlock *b, bool (*match)(const DlExpr *, void *),
                                         void *ctx, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE) continue;
        if (dl_ir_expr_any_with(s->value, match, ctx)) return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_any_outside_loops_with(inner, match, ctx, depth + 1)) return true;
    }
    return false;
}

static bool compares_options(Flow *F, const DlExpr *e);
static bool context_exit_waits(Flow *F, const DlExpr *w);

/* Whether every iteration of a loop whose body is `b` waits for the device on purpose, with
 * `torch.cuda.synchronize()` (an event's or stream's `synchronize()`, an alias of it): in the
 * body, a `with` or `try` of it, or under a test of the device (`if device.type == "cuda":`,
 * where the other path queues nothing on a GPU), or on leaving a `with` (context_exit_waits);
 * not under a periodic guard nor in an inner loop. A loop timed so waits every step by its own
 * choice: its reads add no wait of note. */
static bool synchronizes_every_iteration(Flow *F, const DlBlock *b, int depth) {
    const DlSource *src = F->src;
    for (uint32_t i = 0; depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        const DlExpr *e = s->value;
        if (s->kind == DL_ST_EXPR && e && e->kind == DL_EX_CALL && e->object) {
            const char *method = e->object->kind == DL_EX_ATTR ? e->object->name : NULL;
            const char *q = flow_qualify(F, e->object);
            if ((q && flow_is_synchronize(q, NULL)) ||
                (method && flow_streq(method, "synchronize")) ||
                (!e->arg_count && flow_names_a_synchronize_alias(F, e->object)))
                return true;
        }
        /* (not `if device == cpu_device:`, where it runs only without a GPU) */
        bool device_test = s->kind == DL_ST_IF && e &&
                           (dl_ir_span_mentions(src, e->span, "cuda") ||
                            dl_ir_span_mentions(src, e->span, "device")) &&
                           !dl_ir_span_mentions(src, e->span, "cpu");
        for (uint32_t k = 0; s->kind == DL_ST_WITH && k < s->with_count; k++)
            if (context_exit_waits(F, s->withs[k])) return true;
        if ((s->kind == DL_ST_WITH || s->kind == DL_ST_TRY || device_test) &&
            synchronizes_every_iteration(F, &s->parts->body, depth + 1))
            return true;
    }
    return false;
}

/* Whether every iteration of a loop whose body is `b` writes or shows an output
 * (is_output_write, also through a helper of the project that does: calls_a_helper_that_writes):
 * in the body or in a loop, `with` or `try` of it, in both arms of an `if`
 * (XVFI's test loop, which writes its frames whichever `args.phase` says), or under a comparison
 * of the options (compares_options: the same every iteration); not only in a branch (`if wrong:
 * plt.savefig(...)`, SUMBT's attention maps of the dialogs it got wrong). */
/* Whether `e` tests one of `fn`'s parameters or the run's options (`if file_path:`, `if save is
 * not None:`, `if cfg.TEST.SAVE_BOXED_IMAGE:`): the same on every call of a run. */
static bool tests_a_parameter(const DlFunction *fn, const DlExpr *e, int depth) {
    static const char *const options[] = {"args", "opt",     "opts",     "options", "cfg", "config",
                                          "conf", "hparams", "settings", "flags",   NULL};
    if (!e || depth > 8) return false;
    if (e->kind == DL_EX_ATTR) {
        const DlExpr *root = e;
        while (root && root->kind == DL_EX_ATTR)
            root = root->object;
        return root && root->kind == DL_EX_NAME &&
               (dl_name_in_list(root->name, options) || dl_ir_param_index(fn, root->name) >= 0);
    }
    if (e->kind == DL_EX_NAME) return dl_ir_param_index(fn, e->name) >= 0;
    if (e->kind == DL_EX_UNARY) return tests_a_parameter(fn, e->object, depth + 1);
    if (e->kind == DL_EX_COMPARE && e->item_count == 2 && e->name &&
        dl_ir_tests_membership_or_identity(e->name))
        return tests_a_parameter(fn, e->items[0], depth + 1);
    return false;
}

/* Whether every call of `fn` writes or shows an output: at the top of `b`, in a block of it, in
 * both arms of an `if`, or under a test of one of its parameters, which its caller sets (NCDSSM's
 * `if file_path: plt.savefig(file_path)`); not under a periodic test (`if step % n == 0:`). */
static bool writes_on_every_call(const DlFunction *fn, const DlBlock *b, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_IF) {
            bool then_writes = writes_on_every_call(fn, &s->parts->body, depth + 1);
            if (then_writes && (tests_a_parameter(fn, s->value, 0) ||
                                writes_on_every_call(fn, &s->parts->orelse, depth + 1)))
                return true;
            continue;
        }
        if (dl_ir_expr_any(s->value, is_output_write)) return true;
        /* `self.make_gif(frames, path)`: a method of its class that writes on every call (a
         * video predictor's rollout, whose GIF writer is a method of its own) */
        const DlExpr *v = s->kind == DL_ST_EXPR ? s->value : NULL;
        if (v && v->kind == DL_EX_CALL && v->object && v->object->kind == DL_EX_ATTR &&
            fn->owner && dl_ir_is_self(v->object->object) && depth < 8) {
            const DlFunction *m = dl_ir_method_named(fn->owner, v->object->name);
            if (m && m != fn && writes_on_every_call(m, &m->body, depth + 8)) return true;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (writes_on_every_call(fn, inner, depth + 1)) return true;
    }
    return false;
}

/* `show(x[i])`, `visualize_attention(...)`: a function of the project that writes or shows an
 * output on every call (writes_on_every_call: not only every N steps) and trains
 * nothing (rony31416's notebook helper ending in `plt.show()`; not DM-VTON's `train_batch`, which
 * steps its optimizers and saves an image every `sample_step`). */
static bool calls_a_helper_that_writes(Flow *F, const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object) return false;
    const DlFunctionInfo *fi = NULL;
    if (e->object->kind == DL_EX_ATTR && e->object->object) {
        /* `drawer.draw_heatmap(cam, path)`: a method of the project class of an object the
         * function holds (XGrad-CAM's drawer, ending in `cv2.imwrite`) */
        const char *key = flow_key_of(F, e->object->object);
        const Binding *b = key ? flow_lookup(F, key) : NULL;
        const DlValue *v = b ? b->value : NULL;
        if (v && v->cls && (v->kind == DL_KIND_INSTANCE || v->kind == DL_KIND_MODULE))
            fi = dl_project_method(F->env->project, v->cls, e->object->name);
    } else if (e->object->kind == DL_EX_NAME) {
        const char *q = flow_qualify(F, e->object);
        fi = dl_project_find_function(F->env->project, F->env->file, q ? q : e->object->name);
    }
    return fi && fi->fn && fi->fn != F->fn &&
           !block_has(&fi->fn->body, is_training_step, true, 0) &&
           writes_on_every_call(fi->fn, &fi->fn->body, 0);
}

static bool option_operand(Flow *F, const DlExpr *e, bool *named, int depth);

/* `if frame_id > 0:` (`!= 0`, `>= 1`) of a count: every iteration but the first passes
 * (FairMOT-X's tracking loop shows and writes each frame after the first). */
static bool always_holds(const DlExpr *cond);

static bool passes_all_but_the_first(const DlExpr *e) {
    if (!e || e->kind != DL_EX_COMPARE || e->item_count != 2 || !e->name) return false;
    const DlExpr *count = e->items[0], *bound = e->items[1];
    if (count->kind != DL_EX_NAME || bound->kind != DL_EX_NUMBER || !bound->name) return false;
    return ((flow_streq(e->name, ">") || flow_streq(e->name, "!=")) &&
            flow_streq(bound->name, "0")) ||
           (flow_streq(e->name, ">=") && flow_streq(bound->name, "1"));
}

/* `if self.result_fig:`, `if args.save_images:`, `if not quiet:`: a switch of the run the batch
 * loop does not set (an attribute of self or of an option or parameter, or a parameter), the same
 * on every iteration (RED-CNN's test loop saves every figure under it). */
static bool tests_an_option(Flow *F, const DlExpr *e) {
    if (e && e->kind == DL_EX_UNARY && flow_streq(e->name, "not")) e = e->object;
    if (!e || (e->kind != DL_EX_NAME && e->kind != DL_EX_ATTR) || !F->place.batch_loop)
        return false;
    const char *key = flow_key_of(F, e);
    if (!key || flow_loop_binds(F, F->place.batch_loop, key)) return false;
    if (e->kind == DL_EX_ATTR && dl_ir_is_self(e->object)) return true;
    /* not a parameter off unless a caller turns it on (`save_txt=False`: YOLOv5's `test()`,
     * whose loop reads its statistics back every batch whether or not it writes labels) */
    int p = e->kind == DL_EX_NAME && F->fn ? dl_ir_param_index(F->fn, e->name) : -1;
    const DlExpr *off = p >= 0 ? F->fn->params[p].default_value : NULL;
    if (off && off->kind == DL_EX_CONST && off->name &&
        (flow_streq(off->name, "False") || flow_streq(off->name, "None")))
        return false;
    bool named = false;
    return option_operand(F, e, &named, 0) && named;
}

/* `embeddings[ids] = out` into a NumPy memory map, a file on disk (`np.memmap(path, mode="w+",
 * ...)` bound to the name in this function or returned by a helper named for it: ANCE-style
 * retrieval scripts precomputing a collection's embeddings). */
static bool writes_into_a_memmap(Flow *F, const DlStmt *s) {
    if (s->kind != DL_ST_ASSIGN || s->target_count != 1 || s->targets[0]->kind != DL_EX_SUBSCRIPT)
        return false;
    const DlExpr *base = s->targets[0]->object;
    if (!base || base->kind != DL_EX_NAME || !F->fn) return false;
    const DlExpr *made = dl_ir_last_binding(&F->fn->body, base->name, s->span.start);
    const DlExpr *callee = made && made->kind == DL_EX_CALL ? made->object : NULL;
    const char *name = callee && (callee->kind == DL_EX_NAME || callee->kind == DL_EX_ATTR)
                           ? callee->name
                           : NULL;
    return name && strstr(name, "memmap");
}

/* `open(path, "w")` (or "a", also `codecs.open` / `io.open`): a file opened for writing. */
static bool opens_for_writing(const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object || !e->object->name ||
        !flow_streq(e->object->name, "open"))
        return false;
    const DlArg *kw = dl_ir_keyword(e, "mode");
    const DlExpr *mode = kw ? kw->value : NULL;
    if (!mode && e->arg_count >= 2 && !e->args[1].keyword) mode = e->args[1].value;
    return mode && mode->kind == DL_EX_STRING && mode->name &&
           (strchr(mode->name, 'w') || strchr(mode->name, 'a'));
}

/* Whether `name` is bound to a file opened for writing before `before` in block `b`: `f_out =
 * open(path, "w")`, or `with open(path, "w") as f_out:`. */
static bool bound_to_a_file_opened_for_writing(const DlBlock *b, const char *name,
                                               uint32_t before, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
            s->targets[0]->kind == DL_EX_NAME && flow_streq(s->targets[0]->name, name) &&
            opens_for_writing(s->value))
            return true;
        for (uint32_t w = 0; s->kind == DL_ST_WITH && w < s->with_count; w++)
            if (w < s->target_count && s->targets[w] && s->targets[w]->kind == DL_EX_NAME &&
                flow_streq(s->targets[w]->name, name) && opens_for_writing(s->withs[w]))
                return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (bound_to_a_file_opened_for_writing(inner, name, before, depth + 1)) return true;
    }
    return false;
}

/* `f_out.write(f"{i}\t{score[idx]}\n")` (or `file.writelines(...)`: MAE_plant_disease's
 * per-image scores, or `print(..., file=f_out)`) into a file the function opened for writing:
 * an inference loop's predictions written out (MultimediaEventCoreference's test loops). */
static bool writes_to_an_opened_file(const DlExpr *e, void *ctx) {
    Flow *F = ctx;
    /* `json.dump(dics, json_file)` (or YAML's) into such a file (occluded-person-reid's keypoint
     * export) */
    const DlBlock *scope = F->fn ? &F->fn->body : &F->env->file->module->body;
    if (e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_ATTR &&
        e->object->object && e->object->object->kind == DL_EX_NAME &&
        (flow_streq(e->object->object->name, "json") || flow_streq(e->object->object->name, "yaml")) &&
        (flow_streq(e->object->name, "dump") || flow_streq(e->object->name, "safe_dump"))) {
        const DlExpr *file = dl_ir_positional(e, 1);
        return file && file->kind == DL_EX_NAME &&
               bound_to_a_file_opened_for_writing(scope, file->name, e->span.start, 0);
    }
    /* `print(line, file=f)`: f.write(line) */
    const DlArg *to = e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_NAME &&
                              flow_streq(e->object->name, "print")
                          ? dl_ir_keyword(e, "file")
                          : NULL;
    if (to)
        return to->value->kind == DL_EX_NAME &&
               bound_to_a_file_opened_for_writing(scope, to->value->name, e->span.start, 0);
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR ||
        (!flow_streq(e->object->name, "write") && !flow_streq(e->object->name, "writelines") &&
         !flow_streq(e->object->name, "append_data")) ||
        !e->object->object || e->object->object->kind != DL_EX_NAME)
        return false;
    const char *name = e->object->object->name;
    /* a video's frames, `vwrite.write(frame)` of `vwrite = cv2.VideoWriter(...)` (AtLoc's
     * saliency maps), `writer.append_data(frame)` of `imageio.get_writer(...)` */
    const DlExpr *made = dl_ir_last_assignment(scope, name, e->span.start);
    const char *maker = made && made->kind == DL_EX_CALL && made->object &&
                                (made->object->kind == DL_EX_NAME ||
                                 made->object->kind == DL_EX_ATTR)
                            ? made->object->name
                            : NULL;
    if (maker && (flow_streq(maker, "VideoWriter") || flow_streq(maker, "get_writer")))
        return true;
    /* (a script's top level too: `writer = open("codes.tsv", "w")` in its `__main__` block) */
    return bound_to_a_file_opened_for_writing(scope, name, e->span.start, 0);
}

static bool writes_each_iteration(Flow *F, const DlBlock *b, int depth) {
    if (depth > 16) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_IF) {
            bool then_writes = writes_each_iteration(F, &s->parts->body, depth + 1);
            if (then_writes && (compares_options(F, s->value) || tests_an_option(F, s->value) ||
                                passes_all_but_the_first(s->value) ||
                                always_holds(s->value)))
                return true;
            if (then_writes && s->parts->orelse.count &&
                writes_each_iteration(F, &s->parts->orelse, depth + 1))
                return true;
            continue;
        }
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (dl_ir_expr_any(s->value, is_output_write) || writes_into_a_memmap(F, s) ||
            dl_ir_expr_any_with(s->value, writes_to_an_opened_file, F))
            return true;
        if ((s->kind == DL_ST_EXPR || s->kind == DL_ST_ASSIGN) &&
            calls_a_helper_that_writes(F, s->value))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (writes_each_iteration(F, inner, depth + 1)) return true;
    }
    return false;
}

/* A `continue` (or, `with_break`, a `break`) of this loop's body, not of a loop nested in it
 * nor of a nested def: a path that ends the iteration early, which the state at the body's end
 * does not hold; too deep to tell, taken to be there. */
static bool ends_an_iteration_early(const DlBlock *b, bool with_break, int depth) {
    if (depth > 16) return true;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_CONTINUE || (with_break && s->kind == DL_ST_BREAK)) return true;
        if (s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE || s->kind == DL_ST_DEF ||
            s->kind == DL_ST_CLASS)
            continue;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (ends_an_iteration_early(inner, with_break, depth + 1)) return true;
    }
    return false;
}

/* `break`, `return`, `raise`: a statement that leaves the loop it ends. */
/* `assert 0, "GPU NOT available"`, `assert False`: raises whenever it runs, as `raise` does
 * (WASB-SBDT's detectors refuse to run without a GPU so). */
static bool always_fails(const DlStmt *s) {
    const DlExpr *c = s->kind == DL_ST_CHECK ? s->value : NULL;
    return c && c->name && !(c->flags & DL_EXF_CPP) &&
           ((c->kind == DL_EX_NUMBER && flow_streq(c->name, "0")) ||
            (c->kind == DL_EX_CONST && flow_streq(c->name, "False")));
}

static bool leaves_the_loop(const DlStmt *s) {
    return s->kind == DL_ST_BREAK || s->kind == DL_ST_RETURN || s->kind == DL_ST_RAISE ||
           always_fails(s);
}

/* `env.step(action)`, `self.train_env.step(actions)`: a simulator stepped with what the policy
 * chose, which it reads on the host. */
static bool is_environment_step(const DlExpr *e) {
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR || !e->arg_count ||
        !flow_streq(e->object->name, "step"))
        return false;
    const char *name = receiver_name(e);
    return name && strstr(name, "env");
}

bool flow_function_steps_an_environment(const DlFunction *fn) {
    return fn && block_has(&fn->body, is_environment_step, true, 0);
}

/* `linear_sum_assignment(cost)` (SciPy's Hungarian matching, a DETR matcher's): an algorithm
 * that runs on the host, on a cost matrix read back to it in the same step. */
static bool is_host_solver(const DlExpr *e) {
    if (e->kind != DL_EX_CALL || !e->object) return false;
    const DlExpr *c = e->object;
    return (c->kind == DL_EX_NAME || c->kind == DL_EX_ATTR) &&
           flow_streq(c->name, "linear_sum_assignment");
}

bool flow_function_solves_on_the_host(const DlFunction *fn) {
    return fn && block_has(&fn->body, is_host_solver, true, 0);
}

/* `for _ in range(1):` (votenet's self-test of a layer): one pass, no loop over batches. */
static bool runs_at_most_once(const DlExpr *iter) {
    if (!iter || iter->kind != DL_EX_CALL || !iter->object || iter->object->kind != DL_EX_NAME ||
        !flow_streq(iter->object->name, "range") || iter->arg_count != 1 || iter->args[0].keyword)
        return false;
    const DlExpr *n = iter->args[0].value;
    return n->kind == DL_EX_NUMBER && n->name && (flow_streq(n->name, "0") || flow_streq(n->name, "1"));
}

/* `for x, y in test_loader: ...; break` (DSW's one test batch every 100 steps): a body that
 * ends by leaving the loop, and never goes round again with `continue`, runs once. One that
 * skips with `continue` and trains nothing is a search for the one batch it uses
 * (P-Wave-RealQuant's export: `if ratio < 0.1: continue`, then `torch.onnx.export(...)` and
 * `break`): each round's test is what decides, no wait of a loop of steps. */
/* A statement of `b` itself leaves the loop (the last, or one before the end, whose rest never
 * runs: ReadNet's `break` left in for debugging), or the last is a `with` whose body ends so
 * (`with torch.no_grad(): ...; break`: pointnet_segmentation's one-batch test). */
static bool ends_by_leaving(const DlBlock *b, int depth) {
    if (!b->count || depth > 8) return false;
    for (uint32_t i = 0; i + 1 < b->count; i++)
        if (leaves_the_loop(b->items[i])) return true;
    const DlStmt *last = b->items[b->count - 1];
    if (last->kind == DL_ST_WITH) return ends_by_leaving(&last->parts->body, depth + 1);
    return leaves_the_loop(last);
}

static bool body_ends_the_loop(const DlStmt *loop) {
    const DlBlock *body = &loop->parts->body;
    return ends_by_leaving(body, 0) &&
           (!ends_an_iteration_early(body, false, 0) ||
            !block_any_outside_loops(body, is_training_step, 0));
}

static bool block_assigns(const DlBlock *b, const char *name, int depth);

/* A bound of a few, up to 16: a number written out (not `if total > 500: break` over samples
 * counted, a partial evaluation of many batches), a parameter defaulting to one
 * (`num_examples=6`), or a local bound once to one. */
static bool a_few(Flow *F, const DlExpr *bound) {
    if (bound->kind == DL_EX_NAME && F->fn) {
        int p = dl_ir_param_index(F->fn, bound->name);
        const char *name = bound->name;
        bound = p >= 0 ? F->fn->params[p].default_value : NULL;
        /* a local the function binds once to a number (`max_batches = 5`) */
        if (p < 0) bound = flow_bound_once(&F->fn->body, name, UINT32_MAX);
    }
    return bound && bound->kind == DL_EX_NUMBER && bound->name &&
           strtol(bound->name, NULL, 10) <= 16 && !strchr(bound->name, '.');
}

/* `for i, (x,) in enumerate(loader): ...; if i == 2: break`, or a counter set before the loop
 * and counted up in it (`row_i += 1`), or the length of a list it appends to (`if
 * len(collected) >= num_examples: break`), in a loop that steps no optimizer (a `backward()`
 * alone checks the gradients): it shows or checks the first few batches and stops
 * (Gastrointestinal-Polyp-Segmentation's plot of three predictions, a DDPM's smoke test), no
 * loop of steps. */
/* `counter += 1` somewhere in `b` (nested blocks and loops too, not nested defs). */
static bool counts_up(const DlBlock *b, const char *counter, int depth) {
    for (uint32_t k = 0; depth < 16 && k < b->count; k++) {
        const DlStmt *t = b->items[k];
        if (t->kind == DL_ST_DEF || t->kind == DL_ST_CLASS) continue;
        if (t->kind == DL_ST_AUGASSIGN && t->target_count && t->targets[0]->kind == DL_EX_NAME &&
            flow_streq(t->targets[0]->name, counter) && t->value &&
            t->value->kind == DL_EX_NUMBER && flow_streq(t->value->name, "1"))
            return true;
        const DlBlock *inner;
        for (uint32_t i = 0; (inner = dl_stmt_block(t, i)); i++)
            if (counts_up(inner, counter, depth + 1)) return true;
    }
    return false;
}

/* In `b`, a part of the body of `loop`: `if <counter> == <a few>: break` (or `>=`, `>`, or
 * `return`, which also leaves from a loop nested in it: the transfer-learning tutorial's
 * `visualize_model` counts the images it shows in an inner loop over the batch). */
static bool stop_after_a_few_in(Flow *F, const DlStmt *loop, const DlExpr *index,
                                const DlBlock *b, bool nested_loop, bool written_out, int depth) {
    const DlBlock *body = &loop->parts->body;
    for (uint32_t i = 0; depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlBlock *inner;
        if (s->kind != DL_ST_IF || s->parts->orelse.count || !s->parts->body.count) {
            bool loop_in_it = s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE;
            for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
                if (stop_after_a_few_in(F, loop, index, inner, nested_loop || loop_in_it,
                                        written_out, depth + 1))
                    return true;
            continue;
        }
        const DlStmt *last = s->parts->body.items[s->parts->body.count - 1];
        if (last->kind != DL_ST_RETURN && (nested_loop || last->kind != DL_ST_BREAK)) continue;
        const DlExpr *c = s->value;
        if (!c || c->kind != DL_EX_COMPARE || c->item_count != 2 || !c->name ||
            !(flow_streq(c->name, "==") || flow_streq(c->name, ">=") || flow_streq(c->name, ">")))
            continue;
        const DlExpr *counter = c->items[0], *bound = c->items[1];
        /* a dry run of training steps: a handful, written out */
        if (!a_few(F, bound) ||
            (written_out && (bound->kind != DL_EX_NUMBER || strtol(bound->name, NULL, 10) > 5)))
            continue;
        /* `len(collected)` of a list the loop appends to */
        if (counter->kind == DL_EX_CALL && counter->object &&
            counter->object->kind == DL_EX_NAME && flow_streq(counter->object->name, "len") &&
            counter->arg_count == 1 && !counter->args[0].keyword &&
            counter->args[0].value->kind == DL_EX_NAME) {
            const char *appended =
                dl_arena_printf(F->arena, "%s.append(", counter->args[0].value->name);
            if (dl_ir_span_mentions(F->src, loop->span, appended)) return true;
            continue;
        }
        if (counter->kind != DL_EX_NAME) continue;
        if (index && !nested_loop && flow_streq(index->name, counter->name)) return true;
        /* `row += 1` (in the body, or in a loop nested in it: one per image shown) */
        if (counts_up(body, counter->name, 0) && !block_assigns(body, counter->name, 0))
            return true;
    }
    return false;
}

/* A loop that steps an optimizer counts too when the few are a handful written out (`if i >= 2:
 * break`: a dry run of two training steps that prints what it computes), not a parameter's
 * default nor a step budget (`if step > 10: break`). */
static bool stops_after_a_few(Flow *F, const DlStmt *loop) {
    if (loop->kind != DL_ST_FOR) return false;
    bool steps = block_any_outside_loops(&loop->parts->body, is_optimizer_step, 0);
    const DlExpr *target = loop->target_count ? loop->targets[0] : NULL;
    /* (through a progress bar: `tqdm(enumerate(valid_loader))`, a segmentation trainer's
     * two-batch validation) */
    const DlExpr *iter = loop->value;
    while (iter && iter->kind == DL_EX_CALL && iter->arg_count && !iter->args[0].keyword &&
           iter->object &&
           (iter->object->kind == DL_EX_NAME || iter->object->kind == DL_EX_ATTR) &&
           flow_streq(iter->object->name, "tqdm"))
        iter = iter->args[0].value;
    const DlExpr *index = target && target->kind == DL_EX_TUPLE && target->item_count == 2 &&
                                  target->items[0]->kind == DL_EX_NAME && iter &&
                                  iter->kind == DL_EX_CALL && iter->object &&
                                  iter->object->kind == DL_EX_NAME &&
                                  flow_streq(iter->object->name, "enumerate")
                              ? target->items[0]
                              : NULL;
    return stop_after_a_few_in(F, loop, index, &loop->parts->body, false, steps, 0);
}

static bool switched_on_in_the_file(const DlSource *src, const char *name, bool attributes);

/* `range(n)` or `range(0, n)` of a parameter `n` whose default is 0, which nothing in the file
 * sets (deep-kernel-transfer's `correct(self, x, N=0)`, called as `self.correct(x)`): the loop
 * runs only for a caller that asks for it, as `if verbose:` of a parameter off by default. */
static bool counts_to_a_parameter_left_at_zero(Flow *F, const DlExpr *iter) {
    if (!F->fn || !iter || iter->kind != DL_EX_CALL || !iter->object ||
        iter->object->kind != DL_EX_NAME || !flow_streq(iter->object->name, "range"))
        return false;
    const DlExpr *n = NULL;
    if (iter->arg_count == 1 && !iter->args[0].keyword) n = iter->args[0].value;
    const DlExpr *start = iter->arg_count == 2 ? iter->args[0].value : NULL;
    if (start && !iter->args[0].keyword && !iter->args[1].keyword && start->kind == DL_EX_NUMBER &&
        start->name && flow_streq(start->name, "0"))
        n = iter->args[1].value;
    if (!n || n->kind != DL_EX_NAME) return false;
    int p = dl_ir_param_index(F->fn, n->name);
    const DlExpr *d = p >= 0 ? F->fn->params[p].default_value : NULL;
    return d && d->kind == DL_EX_NUMBER && d->name && flow_streq(d->name, "0") &&
           !switched_on_in_the_file(F->src, n->name, true);
}

/* `for x in [a, b]:`, or over a name bound to such a list (`epsilon = [0.01, 0.02, ...]`, then
 * `for eps in epsilon:`, `for i in range(len(epsilon)):` or `enumerate(epsilon)`: SACNet's
 * adversarial images, one per strength): each case it lists is run once, no loop of steps. */
static bool over_listed_cases(Flow *F, const DlExpr *iter) {
    for (int depth = 0; iter && depth < 6; depth++) {
        if (iter->kind == DL_EX_LIST || iter->kind == DL_EX_TUPLE) return true;
        if (iter->kind == DL_EX_NAME) {
            const DlBlock *body = F->fn ? &F->fn->body : &F->env->file->module->body;
            const char *name = iter->name;
            iter = dl_ir_last_assignment(body, name, iter->span.start);
            /* `MODES = ("fp16", "bf16", "fp32")` at the top of the file, bound there once and
             * not in the function (a validation script's checks, one per mode) */
            if (!iter && F->fn && !flow_bindings_of(body, name, 0))
                iter = flow_bound_once(&F->env->file->module->body, name, UINT32_MAX);
            /* not `pairs = []`, which a loop fills before (bindsnet's reservoir readout) */
            if (iter && (iter->kind == DL_EX_LIST || iter->kind == DL_EX_TUPLE) &&
                !iter->item_count)
                return false;
            continue;
        }
        /* range(len(x)), enumerate(x), len(x): over what x lists */
        if (iter->kind != DL_EX_CALL || !iter->object || iter->object->kind != DL_EX_NAME ||
            iter->arg_count != 1 || iter->args[0].keyword)
            return false;
        const char *callee = iter->object->name;
        if (!flow_streq(callee, "range") && !flow_streq(callee, "enumerate") &&
            !flow_streq(callee, "len"))
            return false;
        iter = iter->args[0].value;
    }
    return false;
}

/* `range(1, 5)`, `range(3)`: at most 16 iterations, counted with numbers written out. */
static bool counts_a_few_written_out(const DlExpr *iter) {
    if (!iter || iter->kind != DL_EX_CALL || !iter->object || iter->object->kind != DL_EX_NAME ||
        !flow_streq(iter->object->name, "range") || iter->arg_count < 1 || iter->arg_count > 2)
        return false;
    long bounds[2] = {0, 0};
    for (uint32_t i = 0; i < iter->arg_count; i++) {
        const DlExpr *a = iter->args[i].value;
        if (iter->args[i].keyword || a->kind != DL_EX_NUMBER || !a->name || strchr(a->name, '.'))
            return false;
        bounds[iter->arg_count == 1 ? 1 : i] = strtol(a->name, NULL, 0);
    }
    return bounds[1] - bounds[0] <= 16;
}

/* `range(n)`, or a progress bar over one: `tqdm.trange(n)`, `trange(n)`, `tqdm(range(n))`
 * (seistorch's full-batch inversion loops). */
static bool counts_passes(const DlExpr *iter) {
    if (!iter || iter->kind != DL_EX_CALL || !iter->object) return false;
    const DlExpr *callee = iter->object;
    const char *name =
        callee->kind == DL_EX_NAME || callee->kind == DL_EX_ATTR ? callee->name : NULL;
    if (!name) return false;
    if (flow_streq(name, "range") && callee->kind == DL_EX_NAME) return true;
    if (flow_streq(name, "trange")) return true;
    return flow_streq(name, "tqdm") && iter->arg_count && !iter->args[0].keyword &&
           counts_passes(iter->args[0].value);
}

/* `for epoch in range(num_epochs):` (or over `trange(num_epochs)`: counts_passes) whose body
 * trains on the whole data at once (full-batch training, Optuna_hyperparameter_Chem's
 * objective): the loop's own name, or the count it runs to, says each pass is an epoch, so a
 * read there is once per epoch. Not a loop named for steps, nor one that draws a batch each
 * pass (`next(it)`, or indices picked at random). */
/* `np.random.choice(len(obs), 5)`, `np.random.randint(n, size=b)`, `torch.randperm(n)[:b]`,
 * `random.sample(...)`: a random pick of indices, a mini-batch drawn by hand (seistorch's
 * five-shot inversion steps). */
static bool draws_random_indices(const DlExpr *e) {
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR) return false;
    static const char *const pickers[] = {"choice",   "randint", "permutation",
                                          "randperm", "sample",  NULL};
    const DlExpr *owner = e->object->object;
    const char *owner_name =
        owner && (owner->kind == DL_EX_NAME || owner->kind == DL_EX_ATTR) ? owner->name : NULL;
    return dl_name_in_list(e->object->name, pickers) && owner_name &&
           (strstr(owner_name, "random") || flow_streq(owner_name, "torch"));
}

/* `range(num_epochs)`, `trange(args.epochs)`: a count of passes named for epochs. */
static bool counts_epochs(const DlExpr *iter) {
    while (iter && iter->kind == DL_EX_CALL && iter->arg_count && !iter->args[0].keyword &&
           iter->object && iter->object->kind == DL_EX_NAME &&
           flow_streq(iter->object->name, "tqdm"))
        iter = iter->args[0].value;
    if (!iter || iter->kind != DL_EX_CALL || !iter->arg_count) return false;
    const DlExpr *bound = iter->args[iter->arg_count - 1].value;
    if (iter->args[iter->arg_count - 1].keyword || !bound) return false;
    const char *name = bound->kind == DL_EX_NAME || bound->kind == DL_EX_ATTR ? bound->name : NULL;
    /* `self.train_config['epochs']`, a count read from a config dict (GADBench's detectors) */
    if (bound->kind == DL_EX_SUBSCRIPT && bound->item_count == 1 && bound->items[0] &&
        bound->items[0]->kind == DL_EX_STRING)
        name = bound->items[0]->name;
    if (!name) return false;
    /* a count of epochs (`num_epochs`, `args.epochs`, `n_epoch`), not of the steps in one
     * (`batches_per_epoch`, `epoch_iters`, `steps_per_epoch`) */
    size_t n = strlen(name);
    bool ends_epochs = (n >= 6 && strcmp(name + n - 6, "epochs") == 0) ||
                       (n >= 5 && strcmp(name + n - 5, "epoch") == 0);
    return ends_epochs && !strstr(name, "per_epoch") && !strstr(name, "batch") &&
           !strstr(name, "step") && !strstr(name, "iter");
}

/* A call of a helper named for drawing a batch (`generate_batch(n, device)`, `get_batch()`,
 * `next_batch()`): a mini-batch each pass. */
static bool draws_a_batch(const DlExpr *e) {
    if (e->kind != DL_EX_CALL || !e->object) return false;
    const char *name = e->object->kind == DL_EX_NAME || e->object->kind == DL_EX_ATTR
                           ? e->object->name
                           : NULL;
    return name && strstr(name, "batch") && !strstr(name, "norm");
}

/* ... by a name that says it draws one (`get_batch`, `next_batch`, `sample_batch`; not
 * `batch_stats`, nor `prepare_batch`, which moves the one it is given). */
static bool gets_a_batch(const DlExpr *e) {
    if (!draws_a_batch(e)) return false;
    static const char *const draws[] = {"get_batch",  "next_batch",     "sample_batch",
                                        "load_batch", "generate_batch", "make_batch",
                                        "fetch_batch", "random_batch",  "draw_batch", NULL};
    const char *name = e->object->name;
    size_t n = strlen(name);
    for (const char *const *d = draws; *d; d++) {
        size_t k = strlen(*d);
        if (n >= k && strcmp(name + n - k, *d) == 0 && (n == k || name[n - k - 1] == '_'))
            return true;
    }
    return false;
}

/* Questions about a loop's body that its text alone answers (block_has): a loop is asked them
 * in every run of its function (two summary rounds and the analysis) and in each round of a
 * loop around it, so each is worked out once and kept in the loop's parts, two bits a
 * question (asked, holds). Threads reading one shared file's loop each write the same
 * answer. */
typedef enum {
    BODY_OPTIMIZER_STEP, /* outside the body's inner loops, as every question not "_ANYWHERE" */
    BODY_OPTIMIZER_STEP_ANYWHERE,
    BODY_TRAINING_STEP,
    BODY_NEXT_CALL,
    BODY_DRAWS_A_BATCH,
    BODY_GETS_A_BATCH,
    BODY_ENVIRONMENT_STEP_ANYWHERE,
    BODY_HOST_SOLVER_ANYWHERE,
} LoopBodyQuestion;

static bool loop_body_has(const DlStmt *loop, LoopBodyQuestion q) {
    static const struct {
        bool (*match)(const DlExpr *);
        bool into_loops;
    } questions[] = {
        [BODY_OPTIMIZER_STEP] = {is_optimizer_step, false},
        [BODY_OPTIMIZER_STEP_ANYWHERE] = {is_optimizer_step, true},
        [BODY_TRAINING_STEP] = {is_training_step, false},
        [BODY_NEXT_CALL] = {is_next_call, false},
        [BODY_DRAWS_A_BATCH] = {draws_a_batch, false},
        [BODY_GETS_A_BATCH] = {gets_a_batch, false},
        [BODY_ENVIRONMENT_STEP_ANYWHERE] = {is_environment_step, true},
        [BODY_HOST_SOLVER_ANYWHERE] = {is_host_solver, true},
    };
    const DlBlock *body = &loop->parts->body;
    if (loop->parts == &dl_stmt_no_parts) /* read-only, and no body to ask about */
        return block_has(body, questions[q].match, questions[q].into_loops, 0);
    uint32_t *memo = &((DlStmtParts *)loop->parts)->body_facts;
    uint32_t asked = UINT32_C(1) << (2 * q), holds = asked << 1;
    uint32_t known = __atomic_load_n(memo, __ATOMIC_RELAXED);
    if (known & asked) return (known & holds) != 0;
    bool has = block_has(body, questions[q].match, questions[q].into_loops, 0);
    __atomic_fetch_or(memo, asked | (has ? holds : 0), __ATOMIC_RELAXED);
    return has;
}

/* `np.random.permutation(n)`, `torch.randperm(n)`: a random order of all n rows. */
static bool is_a_permutation(const DlExpr *e) {
    return draws_random_indices(e) && (flow_streq(e->object->name, "permutation") ||
                                       flow_streq(e->object->name, "randperm"));
}

/* The names the statements of `b` (not those in its loops) bind to a permutation. */
typedef struct Permutations {
    const char *names[8];
    uint32_t count;
} Permutations;

static void collect_permutations(const DlBlock *b, Permutations *p, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE) continue;
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME &&
            s->value && is_a_permutation(s->value) && p->count < 8)
            p->names[p->count++] = s->targets[0]->name;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            collect_permutations(inner, p, depth + 1);
    }
}

/* A part of a permutation taken (`torch.randperm(n)[:b]`, `x[perm[:b]]` of `perm =
 * np.random.permutation(n)`: a slice lowers to an OTHER item), or another random pick. */
static bool picks_random_rows(const DlExpr *e, void *ctx) {
    if (draws_random_indices(e) && !is_a_permutation(e)) return true;
    if (e->kind != DL_EX_SUBSCRIPT || !e->object) return false;
    const Permutations *p = ctx;
    bool of_a_permutation = is_a_permutation(e->object);
    for (uint32_t i = 0; !of_a_permutation && i < p->count; i++)
        of_a_permutation = e->object->kind == DL_EX_NAME && flow_streq(e->object->name, p->names[i]);
    for (uint32_t i = 0; of_a_permutation && i < e->item_count; i++)
        if (e->items[i]->kind == DL_EX_OTHER) return true;
    return false;
}

/* Whether the body `b` of a loop draws a mini-batch of random rows; not a permutation of all of
 * them used whole (DGI's corruption, `features[:, np.random.permutation(n), :]`, each epoch on
 * the whole graph). */
static bool draws_random_rows(const DlBlock *b) {
    Permutations p = {0};
    collect_permutations(b, &p, 0);
    return block_any_outside_loops_with(b, picks_random_rows, &p, 0);
}

static bool full_batch_epoch_loop(const DlStmt *s) {
    const DlExpr *var = s->target_count == 1 ? s->targets[0] : NULL;
    /* the loop's name says each pass is an epoch, or the count it runs to does (`for t in
     * range(num_epochs):`, score-matching-variants), unless its own name says steps */
    /* (the loop's own name may be an attribute: `for self.ep in range(epoch):`, amoshyc's
     * human-pose-estimation) */
    bool epochs = var && (var->kind == DL_EX_NAME || var->kind == DL_EX_ATTR) && var->name &&
                  (strstr(var->name, "epoch") ||
                   (counts_epochs(s->value) && !strstr(var->name, "step") &&
                    !strstr(var->name, "iter") && !strstr(var->name, "batch")));
    return epochs && counts_passes(s->value) &&
           !loop_body_has(s, BODY_NEXT_CALL) &&
           !loop_body_has(s, BODY_DRAWS_A_BATCH) &&
           !draws_random_rows(&s->parts->body);
}

/* A test not of `counter`, the loop's count of passes: one that does not name it, or a part
 * of an `and`/`or` that does not (`iteration > 0 and abs(prev - loss.item()) < tol`). */
static bool tests_what_it_computed(const DlSource *src, const DlExpr *e, const char *counter,
                                   int depth) {
    if (e->kind == DL_EX_BOOLOP && depth < 8) {
        for (uint32_t i = 0; i < e->item_count; i++)
            if (tests_what_it_computed(src, e->items[i], counter, depth + 1)) return true;
        return false;
    }
    return !counter || !flow_span_names_word(src, e->span, counter, false);
}

/* A statement of `b` or of a block in it, outside its inner loops and defs, for which `match`
 * holds. */
static bool stmt_any_outside_loops(const DlBlock *b, bool (*match)(const DlStmt *, void *),
                                   void *ctx, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE || s->kind == DL_ST_DEF ||
            s->kind == DL_ST_CLASS)
            continue;
        if (match(s, ctx)) return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (stmt_any_outside_loops(inner, match, ctx, depth + 1)) return true;
    }
    return false;
}

/* What stops_on_what_it_computed asks about: the file's text and the loop's count. */
typedef struct {
    const DlSource *src;
    const char *counter;
} CountedLoop;

/* `if cond: ... break` (or `return`) whose test is of what the iteration computed, not of the
 * loop's count of passes. */
static bool stops_on_what_it_computed(const DlStmt *s, void *ctx) {
    const CountedLoop *loop = ctx;
    if (s->kind != DL_ST_IF || !s->value || !s->parts->body.count) return false;
    DlStmtKind last = s->parts->body.items[s->parts->body.count - 1]->kind;
    return (last == DL_ST_BREAK || last == DL_ST_RETURN) &&
           tests_what_it_computed(loop->src, s->value, loop->counter, 0);
}

static bool names_a_batch(const DlExpr *target) {
    return target->kind == DL_EX_NAME && target->name && strstr(target->name, "batch");
}

/* `batch = shared_buffer.sample(n)`, `x_batch, y_batch = draw(...)`: a name for a batch bound
 * to what a call gives. */
static bool binds_a_batch(const DlStmt *s, void *ctx) {
    (void)ctx;
    if (s->kind != DL_ST_ASSIGN || !s->value || s->value->kind != DL_EX_CALL) return false;
    for (uint32_t t = 0; t < s->target_count; t++) {
        const DlExpr *target = s->targets[t];
        if (names_a_batch(target)) return true;
        for (uint32_t k = 0; (target->kind == DL_EX_TUPLE || target->kind == DL_EX_LIST) &&
                             k < target->item_count;
             k++)
            if (names_a_batch(target->items[k])) return true;
    }
    return false;
}

/* `for it in range(max_iter):` over the same data every pass (no batch drawn, nor a name for
 * one bound: `batch = replay.sample(n)`) that stops early on what a pass computed (`if
 * abs(prev - loss.item()) < tol: break`, a counterfactual's `if validity > 0.99: break`): a
 * search that must read each pass back to know whether to stop, not a loop of training steps
 * over batches. */
/* (also `while i <= max_itr:` counting its passes in `counter`, `i += 1`) */
static bool searches_until_it_stops(Flow *F, const DlStmt *s, const char *counter) {
    const DlExpr *var = s->kind == DL_ST_FOR && s->target_count == 1 ? s->targets[0] : NULL;
    if (var) counter = var->kind == DL_EX_NAME ? var->name : NULL;
    CountedLoop loop = {F->src, counter};
    return (s->kind == DL_ST_WHILE || counts_passes(s->value)) &&
           !loop_body_has(s, BODY_NEXT_CALL) &&
           !loop_body_has(s, BODY_DRAWS_A_BATCH) &&
           !draws_random_rows(&s->parts->body) &&
           !stmt_any_outside_loops(&s->parts->body, binds_a_batch, NULL, 0) &&
           stmt_any_outside_loops(&s->parts->body, stops_on_what_it_computed, &loop, 0);
}

/* A call, in the statements of `b` outside its loops, of a function of the project that takes
 * one training step itself (`loss = train_tree(input_batches[idx], ...)`, whose body runs
 * `optimizer.step()` outside any loop of its own: the GTS math-word-problem solvers); not one
 * that runs a loop of steps (`train_epoch(model, loader)`), a pass each call, nor one that only
 * runs backward (a Grad-CAM helper explaining one sample). */
static bool calls_a_step_helper(const DlExpr *e, void *ctx) {
    Flow *F = ctx;
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_NAME) return false;
    /* the function the name is bound to here, a star import's too */
    const DlValue *fv = flow_eval_name(F, e->object);
    const DlFunctionInfo *fi = fv->kind == DL_KIND_FUNCTION ? fv->cls : NULL;
    return fi && fi->fn && !fi->fn->owner &&
           block_any_outside_loops(&fi->fn->body, is_optimizer_step, 0);
}

/* `while True:` or `while 1:`: a loop only a `break` (or a return) ends. */
static bool runs_until_broken(const DlExpr *cond) {
    return cond && ((cond->kind == DL_EX_CONST && flow_streq(cond->name, "True")) ||
                    (cond->kind == DL_EX_NUMBER && flow_streq(cond->name, "1")));
}

/* A loop whose every iteration is a training/eval step: over a data loader (enumerate and
 * tqdm keep it one), one whose body trains, or a `while` whose condition tests a counter the
 * body increments (or a `while True:` whose body trains). */
bool flow_is_batch_loop(Flow *F, const DlStmt *s, const DlValue *iter) {
    /* `for step in range(steps):` whose body runs backward()/optimizer.step() is a training
     * loop too (synthetic data, one fixed batch); but in a test, only a loop over a data loader
     * is: a backward() (`for case, want in zip(inputs, outputs)`) checks gradients, an
     * optimizer step checks the optimizer step by step (bitsandbytes' test_optim) */
    if (s->kind == DL_ST_FOR &&
        (runs_at_most_once(s->value) || counts_to_a_parameter_left_at_zero(F, s->value)))
        return false;
    /* `for dtype in [torch.float, torch.half]:` runs once per case it lists, each checked with
     * a backward() (SpikeGPT's surrogate gradient check): no loop of steps */
    if (s->kind == DL_ST_FOR && over_listed_cases(F, s->value)) return false;
    /* `for order in range(1, 5):` running backward() once per order and stepping no optimizer
     * (Seq2Seq-PyTorch's BLEU-order gradient diagnostics): a few cases written out; not a few
     * evaluation batches drawn each round (nanoGPT's `for k in range(10): X, Y =
     * get_batch(...)`) */
    if (s->kind == DL_ST_FOR && counts_a_few_written_out(s->value) &&
        !loop_body_has(s, BODY_OPTIMIZER_STEP) &&
        !loop_body_has(s, BODY_DRAWS_A_BATCH) &&
        !loop_body_has(s, BODY_NEXT_CALL))
        return false;
    if (body_ends_the_loop(s) || stops_after_a_few(F, s)) return false;
    /* over a loader that yields the whole dataset as one batch: the body runs once */
    if (s->kind == DL_ST_FOR && iter && iter->kind == DL_KIND_LOADER &&
        (iter->flags & DL_VF_ONE_BATCH))
        return false;
    /* ... or one that draws a mini-batch each pass (`data = data_source.get_batch(n, i)`:
     * ProdLDA's evaluation loop, whose model runs in a helper) */
    if (s->kind == DL_ST_FOR)
        return iter && (iter->kind == DL_KIND_LOADER ||
                        (!full_batch_epoch_loop(s) && !searches_until_it_stops(F, s, NULL) &&
                         !dl_ir_in_test_function(F->fn) &&
                         (loop_body_has(s, BODY_OPTIMIZER_STEP) ||
                          loop_body_has(s, BODY_TRAINING_STEP) ||
                          loop_body_has(s, BODY_GETS_A_BATCH) ||
                          block_any_outside_loops_with(&s->parts->body, calls_a_step_helper,
                                                       F, 0))));
    /* `while step < max_steps: ... step += 1` that trains or draws batches (`next(it)`); a
     * utility's `while tot < n:` that draws sizes (`tot += k`) is no training loop */
    if (!loop_body_has(s, BODY_TRAINING_STEP) &&
        !loop_body_has(s, BODY_NEXT_CALL))
        return false;
    /* `while True:` that trains, left by a `break` once a count is reached (a step budget
     * rather than epochs: stable-baselines-style learners, GAN trainers) */
    if (runs_until_broken(s->value) && loop_body_has(s, BODY_TRAINING_STEP))
        return true;
    for (uint32_t i = 0; i < s->parts->body.count; i++) {
        const DlStmt *b = s->parts->body.items[i];
        if (b->kind == DL_ST_AUGASSIGN && b->targets[0]->kind == DL_EX_NAME &&
            flow_streq(b->op, "+=") && flow_names_in(s->value, b->targets[0]->name, 0))
            return !searches_until_it_stops(F, s, b->targets[0]->name);
    }
    return false;
}

/* `for m in (model, ema): m.to(device)`: modules move in place, so a loop that moves its
 * variable on every pass moved each module the literal lists (nanotron's tests). */
/* A copy of the module `m` of a list the loop moved, moved where the loop's variable went. */
static const DlValue *moved_where(Flow *F, const DlValue *m, const DlValue *moved) {
    DlValue *c = dl_value_copy(F->arena, m);
    c->flags |= DL_VF_MOVED;
    c->flags &= (uint32_t) ~(DL_VF_CPU_WEIGHT | DL_VF_CONSTRUCTED);
    flow_take_place(c, moved);
    return c;
}

static void move_listed_modules(Flow *F, const DlStmt *s) {
    const DlExpr *var = s->targets[0], *seq = s->value;
    /* `for model, path in zip(models, paths):`: the first of what is zipped */
    if (var->kind == DL_EX_TUPLE && var->item_count >= 1 && seq && seq->kind == DL_EX_CALL &&
        seq->object && seq->object->kind == DL_EX_NAME && flow_streq(seq->object->name, "zip") &&
        seq->arg_count >= 1 && !seq->args[0].keyword) {
        var = var->items[0];
        seq = seq->args[0].value;
    }
    /* `for name, model in models.items():`, `for model in models.values():`: a dict's values */
    const char *view = seq && seq->kind == DL_EX_CALL && !seq->arg_count && seq->object &&
                               seq->object->kind == DL_EX_ATTR
                           ? seq->object->name
                           : NULL;
    if (view && flow_streq(view, "items") && var->kind == DL_EX_TUPLE && var->item_count == 2) {
        var = var->items[1];
        seq = seq->object->object;
    } else if (view && flow_streq(view, "values")) {
        seq = seq->object->object;
    }
    if (var->kind != DL_EX_NAME || !seq) return;
    const Binding *b = flow_lookup(F, var->name);
    const DlValue *moved = b ? b->value : NULL;
    if (!moved || !flow_is_module_like(moved) || !(moved->flags & DL_VF_MOVED)) return;
    /* `models = [Net() for _ in range(k)]`, then `for model in models: model.cuda()`: the
     * list's modules (COLA_pytorch's evaluation of several checkpoints) */
    const char *list_key = seq->kind == DL_EX_NAME ? flow_key_of(F, seq) : NULL;
    const Binding *lb = list_key ? flow_lookup(F, list_key) : NULL;
    if (lb && lb->value && lb->value->kind == DL_KIND_SEQ && lb->value->elem &&
        flow_is_module_like(lb->value->elem) && !lb->value->items) {
        DlValue *list = dl_value_copy(F->arena, lb->value);
        list->elem = moved_where(F, lb->value->elem, moved);
        /* a dict's modules by key too (`models['ResidualFusion']` after the loop) */
        if (lb->value->entries) {
            DlDictEntries *e = dl_value_entries_copy(F->arena, lb->value->entries);
            for (uint32_t i = 0; i < e->count; i++)
                if (e->values[i] && flow_is_module_like(e->values[i]))
                    e->values[i] = moved_where(F, e->values[i], moved);
            list->entries = e;
        }
        flow_state_set(F->st, list_key, list);
        return;
    }
    if (seq->kind != DL_EX_LIST && seq->kind != DL_EX_TUPLE) return;
    for (uint32_t i = 0; i < seq->item_count; i++) {
        const char *key = flow_key_of(F, seq->items[i]);
        const Binding *ib = key ? flow_lookup(F, key) : NULL;
        if (!ib || !ib->value || !flow_is_module_like(ib->value)) continue;
        DlValue *m = dl_value_copy(F->arena, ib->value);
        m->flags |= DL_VF_MOVED;
        m->flags &= (uint32_t)~DL_VF_CPU_WEIGHT;
        flow_take_place(m, moved);
        flow_state_set(F->st, key, m);
    }
}

#define DL_ACCUMULATORS_KEPT 8

/* The names a loop adds to with `name += ...` (in its body, four blocks deep at most) that hold
 * a number as it starts, DL_ACCUMULATORS_KEPT at most. */
static void gather_number_accumulators(Flow *F, const DlBlock *b, const char **keys,
                                       uint32_t *count, int depth) {
    for (uint32_t i = 0; b && depth < 4 && i < b->count && *count < DL_ACCUMULATORS_KEPT; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_AUGASSIGN && s->target_count == 1 &&
            s->targets[0]->kind == DL_EX_NAME) {
            const char *name = s->targets[0]->name;
            const Binding *bound = flow_state_find(F->st, name);
            bool seen = false;
            for (uint32_t k = 0; k < *count && !seen; k++) seen = flow_streq(keys[k], name);
            if (!seen && bound && bound->value && bound->value->kind == DL_KIND_SCALAR)
                keys[(*count)++] = name;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            gather_number_accumulators(F, inner, keys, count, depth + 1);
    }
}

/* Marks (or unmarks) the device work pending now as queued before the loop: marked as an
 * iteration starts, it stays marked in the work queued after it (flow_device_work), so an
 * iteration that ends with it unmarked waited on every path. */
static void mark_work_queued_before_the_loop(Flow *F, bool marked) {
    const Binding *work = flow_state_find(F->st, "<device-work>");
    if (!work || !work->value || !(work->value->flags & DL_VF_QUEUED_BEFORE_LOOP) == !marked)
        return;
    DlValue *w = dl_value_copy(F->arena, work->value);
    if (marked) w->flags |= DL_VF_QUEUED_BEFORE_LOOP;
    else w->flags &= ~(uint32_t)DL_VF_QUEUED_BEFORE_LOOP;
    flow_state_set(F->st, "<device-work>", w);
}

/* Whether `s` is a loop that steps an optimizer itself, or holds one in its branches (an
 * `if` per model type, PDEBench's). */
static bool runs_optimizer_steps(const DlStmt *s, int depth) {
    if (depth > 8) return false;
    if (s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE)
        return loop_body_has(s, BODY_OPTIMIZER_STEP);
    if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) return false;
    const DlBlock *inner;
    for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
        for (uint32_t i = 0; i < inner->count; i++)
            if (runs_optimizer_steps(inner->items[i], depth + 1)) return true;
    return false;
}

/* After `s`, in an iteration of a batch loop that trains nothing itself: an inner loop of
 * optimizer steps (PDEBench's inverse problems: a hundred Adam steps fit each sample's initial
 * condition, in the branch of its model type) makes what the iteration reads after it read once
 * per those steps, as after an epoch; not an inner loop that only gathers gradients for the
 * iteration's own step (PyCIL's GEM: one backward() per earlier task) */
static void after_inner_optimization(Flow *F, const DlStmt *s) {
    if (F->place.every_iteration && !F->place.trains_itself && runs_optimizer_steps(s, 0))
        F->place.every_iteration = false;
}

/* Whether a statement of `b` (at any depth) assigns `name` with `=`. */
static bool block_assigns(const DlBlock *b, const char *name, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        for (uint32_t t = 0; s->kind == DL_ST_ASSIGN && t < s->target_count; t++)
            if (s->targets[t]->kind == DL_EX_NAME && flow_streq(s->targets[t]->name, name))
                return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_assigns(inner, name, depth + 1)) return true;
    }
    return false;
}

/* `while count < n_maps and count < batch_size:` in a batch loop, with `count` set before that
 * loop and only counted up (`count += 1`) in it: the while runs n_maps times in all, in the
 * first iterations, not in every one (atrous-monodepth's image dumps). */
static bool counts_across_the_batch_loop(Flow *F, const DlExpr *cond) {
    if (cond && cond->kind == DL_EX_BOOLOP && flow_streq(cond->name, "and"))
        return counts_across_the_batch_loop(F, cond->items[0]) ||
               counts_across_the_batch_loop(F, cond->items[1]);
    if (!cond || cond->kind != DL_EX_COMPARE || cond->item_count != 2 || !cond->name ||
        (!flow_streq(cond->name, "<") && !flow_streq(cond->name, "<=")))
        return false;
    const DlExpr *counter = cond->items[0];
    const DlStmt *loop = F->place.batch_loop;
    return counter->kind == DL_EX_NAME && !block_assigns(&loop->parts->body, counter->name, 0) &&
           !(loop->kind == DL_ST_FOR && loop->target_count &&
             dl_ir_target_names(loop->targets[0], counter->name)) &&
           flow_loop_binds(F, loop, counter->name); /* counted up in it */
}

/* Forgets what was known of the parts of every name a loop's target binds (`data[0]` of
 * `for i, (data, target) in enumerate(loader)`): each round's item is a new one. */
static void forget_parts_of_names_bound(Flow *F, const DlExpr *t, int depth) {
    if (!t || depth > 8) return;
    if (t->kind == DL_EX_NAME) {
        flow_state_forget_parts(F->st, t->name);
        return;
    }
    if (t->kind == DL_EX_STARRED) {
        forget_parts_of_names_bound(F, t->object, depth + 1);
        return;
    }
    if (t->kind != DL_EX_TUPLE && t->kind != DL_EX_LIST) return;
    for (uint32_t k = 0; k < t->item_count; k++)
        forget_parts_of_names_bound(F, t->items[k], depth + 1);
}

/* The name a `for` counts with from 0: `i` of `for i in range(n)`, `range(0, n)` or `for i, x in
 * enumerate(xs)` (not one given another start); NULL for any other loop. */
static const char *index_counted_from_zero(const DlStmt *s) {
    const DlExpr *it = s->kind == DL_ST_FOR ? s->value : NULL;
    const DlExpr *t = s->kind == DL_ST_FOR && s->target_count == 1 ? s->targets[0] : NULL;
    if (!it || !t || it->kind != DL_EX_CALL || !it->object || it->object->kind != DL_EX_NAME ||
        dl_ir_keyword(it, "start"))
        return NULL;
    const char *callee = it->object->name;
    bool one = it->arg_count == 1 && !it->args[0].keyword;
    bool two = it->arg_count == 2 && !it->args[0].keyword && !it->args[1].keyword;
    /* the start: range's first argument of two, enumerate's second */
    bool range = flow_streq(callee, "range"), enumerate = flow_streq(callee, "enumerate");
    const DlExpr *start = two && range ? it->args[0].value
                          : two && enumerate ? it->args[1].value
                                             : NULL;
    bool from_zero = one || (start && start->kind == DL_EX_NUMBER && flow_streq(start->name, "0"));
    if (range && from_zero && t->kind == DL_EX_NAME) return t->name;
    if (enumerate && from_zero && t->kind == DL_EX_TUPLE && t->item_count == 2 &&
        t->items[0]->kind == DL_EX_NAME)
        return t->items[0]->name;
    return NULL;
}

void flow_exec_loop(Flow *F, const DlStmt *s) {
    const DlValue *iter = NULL;
    bool seq_loop = false;
    if (s->kind == DL_ST_FOR) {
        iter = flow_eval(F, s->value);
        /* `for t in tensors:` and `for k, v in tensor_dict.items():` */
        const DlValue *elem = flow_element_of(F, iter, s->span);
        const DlExpr *t = s->targets[0];
        const DlExpr *var = t->kind == DL_EX_NAME ? t
                            : (t->kind == DL_EX_TUPLE && t->item_count == 2 &&
                               t->items[1]->kind == DL_EX_NAME && elem->kind == DL_KIND_SEQ &&
                               elem->item_count == 2 && flow_is_tensor(elem->items[1]))
                                ? t->items[1]
                                : NULL;
        seq_loop = iter->kind == DL_KIND_SEQ && var && F->seq_loop_count < 16 &&
                   (var != t || flow_is_tensor(elem));
        if (seq_loop) {
            F->seq_loop_vars[F->seq_loop_count].name = var->name;
            F->seq_loop_vars[F->seq_loop_count++].loop = s;
        }
    } else {
        flow_eval(F, s->value);
    }
    DlPlace saved_place = F->place;
    if (flow_is_batch_loop(F, s, iter)) {
        F->place.batch_loop = s;
        F->place.every_iteration = true;
        /* an episode rolled out in the iteration (`while not done: ... env.step(a.item())`)
         * waits at every step of it: a read per episode adds no wait worth one */
        F->place.steps_environment = loop_body_has(s, BODY_ENVIRONMENT_STEP_ANYWHERE);
        /* a matching solved on the host each step (DETR's Hungarian matcher): its cost matrix
         * must reach the host every step, as an action must reach the simulator */
        /* (this and synchronizes_each_step are read by DL201 only: asked where it reports) */
        F->place.solves_on_the_host =
            flow_reporter(F) && loop_body_has(s, BODY_HOST_SOLVER_ANYWHERE);
        F->place.trains_itself = loop_body_has(s, BODY_TRAINING_STEP);
        /* an inference loop that writes what it computes to files (a style transfer's images,
         * a saliency map per input) or shows it: each iteration reads its output back to write
         * or show it, which is the loop's purpose, so a read there adds no wait of its own */
        /* (a `backward()` with no optimizer step in the loop trains nothing either: a saliency
         * map's gradients, Grad-CAM's in FedAvg's gradcam.py) */
        bool steps = loop_body_has(s, BODY_OPTIMIZER_STEP_ANYWHERE);
        F->place.exports_outputs = (!F->place.trains_itself || !steps) &&
                                   writes_each_iteration(F, &s->parts->body, 0);
        F->place.synchronizes_each_step =
            flow_reporter(F) && synchronizes_every_iteration(F, &s->parts->body, 0);
    }
    /* what it reads, a caller that leaves the count at 0 never reads */
    if (s->kind == DL_ST_FOR && counts_to_a_parameter_left_at_zero(F, s->value))
        F->place.every_iteration = false;
    if (s->kind == DL_ST_WHILE && F->place.batch_loop && F->place.batch_loop != s &&
        counts_across_the_batch_loop(F, s->value))
        F->place.every_iteration = false;
    F->loop_depth++;
    /* A loop goes round until its state holds, a loop nested in it too in the outer loop's
     * first round (what one step of it leaves to the next: a write its next read waits for),
     * but not in the outer loop's later rounds: there it starts from what its rounds left the
     * first time. Going round there too ran a batch loop's body four times in an epoch loop
     * (1.5 % of a run's instructions over the generated corpus's sample went to the fourth) */
    int rounds = F->loop_depth > 2 || (F->loop_depth == 2 && F->later_round) ? 1 : DL_LOOP_ROUNDS;
    bool was_later_round = F->later_round;
    const char *outer_first_round = F->first_round_index;
    /* (a loop gone round once stands for every round: no first round of its own) */
    const char *counted = rounds > 1 ? index_counted_from_zero(s) : NULL;
    bool outer_narrowed = F->first_round_narrowed, narrowed = false;
    F->first_round_narrowed = false;
    const Binding *entry_work = flow_state_find(F->st, "<device-work>");
    bool entry_marked = entry_work && entry_work->value &&
                        (entry_work->value->flags & DL_VF_QUEUED_BEFORE_LOOP);
    /* accumulators: `loss = 0.0` before the loop, `loss += criterion(...)` in it; the number
     * joined with the tensor is unknown, but after a loop run at least once it is the tensor */
    const char *scalar_keys[DL_ACCUMULATORS_KEPT];
    const DlValue *body_tensors[DL_ACCUMULATORS_KEPT];
    uint32_t scalar_count = 0;
    gather_number_accumulators(F, &s->parts->body, scalar_keys, &scalar_count, 0);
    DlFlowState *head = flow_state_copy(F->st);
    /* work queued before a batch loop: read back once, by the first iteration */
    const Binding *unread = flow_state_find(head, "<unread-work>");
    bool unread_marked = F->place.batch_loop == s && rounds > 1 && unread &&
                         unread->value == flow_unread_work_marker();
    if (unread_marked) flow_state_set(head, "<unread-work>", flow_unread_before_the_loop());
    bool body_waits = false;               /* every path through the body waited for the device */
    const DlValue *body_work = NULL;       /* and what it queued after its last wait */
    bool body_reads_last = false;          /* the body read back all it queued, or may have */
    const DlValue *body_unread = NULL;     /* "<unread-work>" then */
    bool every_iteration = F->place.every_iteration; /* a filter in the body turns it off */
    for (int round = 0; round < rounds; round++) {
        DlFlowState *saved = F->st;
        F->st = flow_state_copy(head);
        if (F->loop_depth == 1) F->later_round = round > 0;
        F->first_round_index = counted && round == 0 ? counted : outer_first_round;
        F->place.every_iteration = every_iteration;
        mark_work_queued_before_the_loop(F, true);
        if (F->place.batch_loop == s) F->place.generated = false; /* each iteration anew */
        if (iter) {
            /* each round's item is a new one: what the last round stored in its parts
             * (`batch["graph"] = batch["graph"].to(device)`) is not this one's */
            const DlExpr *t = s->targets[0];
            forget_parts_of_names_bound(F, t, 0);
            flow_bind(F, t, flow_element_of(F, iter, t->span));
        }
        flow_exec_block(F, &s->parts->body);
        const Binding *work = flow_state_find(F->st, "<device-work>");
        body_work = work ? work->value : NULL;
        body_waits = !F->st->dead &&
                     (!body_work || !(body_work->flags & DL_VF_QUEUED_BEFORE_LOOP));
        const Binding *unread_left = flow_state_find(F->st, "<unread-work>");
        body_unread = unread_left ? unread_left->value : NULL;
        body_reads_last = !F->st->dead && (!body_unread || flow_is_unknown_read_mark(body_unread));
        /* the first round's: later ones start from the number joined with it, unknown */
        for (uint32_t k = 0; round == 0 && k < scalar_count; k++) {
            const Binding *b = flow_state_find(F->st, scalar_keys[k]);
            body_tensors[k] = !F->st->dead && b && b->value && flow_is_tensor(b->value) ? b->value
                                                                                    : NULL;
        }
        F->st->dead = false; /* break/continue end an iteration, not the loop */
        DlFlowState *next = flow_state_copy(head);
        flow_state_join(F->arena, next, F->st);
        dl_flow_state_free(F->st);
        F->st = saved;
        bool stable = flow_state_equal(next, head);
        dl_flow_state_free(head);
        head = next;
        /* a first round that took only the first arm of `if i == 0:` has not run the other */
        bool first_only = round == 0 && F->first_round_narrowed;
        narrowed |= F->first_round_narrowed;
        F->first_round_narrowed = false;
        if (stable && !first_only) break;
    }
    F->first_round_narrowed = outer_narrowed || narrowed;
    F->loop_depth--;
    F->later_round = was_later_round;
    F->first_round_index = outer_first_round;
    F->place = saved_place;
    if (F->place.batch_loop && F->place.batch_loop != s) after_inner_optimization(F, s);
    if (seq_loop) F->seq_loop_count--;
    bool was_dead = F->st->dead;
    flow_state_replace(F->st, head);
    F->st->dead = was_dead;
    unread = flow_state_find(F->st, "<unread-work>");
    if (unread && unread->value == flow_unread_before_the_loop())
        flow_state_set(F->st, "<unread-work>", flow_unread_work_marker());
    /* a loop whose every iteration waits for the device (`error.item()` each round of a
     * k-means) leaves queued only what its last iteration queued after that wait: a timed loop
     * runs at least once (DL203; denoiser's streaming loop reads each frame's RMS) */
    for (uint32_t k = 0; k < scalar_count; k++) {
        const Binding *b = body_tensors[k] ? flow_state_find(F->st, scalar_keys[k]) : NULL;
        if (b && b->value && b->value->kind == DL_KIND_UNKNOWN)
            flow_state_set(F->st, scalar_keys[k], body_tensors[k]);
    }
    if (body_waits && flow_state_find(F->st, "<device-work>"))
        flow_state_set(F->st, "<device-work>", body_work);
    else if (!entry_marked) /* the mark is this loop's: an enclosing loop's body sets its own */
        mark_work_queued_before_the_loop(F, false);
    /* likewise a loop whose iterations end by reading back what they queued (PhyDNet's decoder
     * loop, `predictions.append(output_image.cpu())`): a read after it waits for nothing */
    if (body_reads_last && flow_state_find(F->st, "<unread-work>") &&
        !ends_an_iteration_early(&s->parts->body, true, 0))
        flow_state_set(F->st, "<unread-work>", body_unread);
    if (s->kind == DL_ST_FOR) move_listed_modules(F, s);
    flow_exec_block(F, &s->parts->orelse);
}

const DlValue *flow_torch_device_context(Flow *F, const DlExpr *with) {
    if (!with || with->kind != DL_EX_CALL) return NULL;
    const char *q = flow_qualify(F, with->object);
    if (!q || !flow_streq(q, "torch.device")) return NULL;
    const DlValue *v = flow_eval(F, with);
    return v->kind == DL_KIND_DEVICE ? v : NULL;
}

/* `with pytest.raises(...)` / `with self.assertRaises(...)`: a test that expects the body to
 * fail, a device mismatch included. */
static bool expects_an_error(Flow *F, const DlExpr *w) {
    if (!w || w->kind != DL_EX_CALL || !w->object) return false;
    const DlExpr *callee = w->object;
    if (callee->kind == DL_EX_ATTR &&
        (flow_streq(callee->name, "assertRaises") || flow_streq(callee->name, "assertRaisesRegex")))
        return true;
    const char *q = flow_qualify(F, callee);
    return q && flow_streq(q, "pytest.raises");
}

/* `with init_on_device(device):`, `with init_on_device_and_dtype(device=d, dtype=t):`: a
 * project's or library's context named for a device and given one builds what its body
 * constructs there, as `with torch.device(d):` does (accelerate, nanotron). Not torch.cuda's
 * own contexts, which only pick the current GPU (DL110). Where the device it is given is not
 * known, neither is where the body's modules and factories are. */
static const DlValue *constructs_on_a_device(Flow *F, const DlExpr *w, const char *q) {
    if (!w || w->kind != DL_EX_CALL || !w->object) return NULL;
    const DlExpr *callee = w->object;
    const char *name =
        callee->kind == DL_EX_NAME || callee->kind == DL_EX_ATTR ? callee->name : NULL;
    if (!name || !strstr(name, "device") || (q && strncmp(q, "torch.cuda.", 11) == 0)) return NULL;
    const DlArg *kw = dl_ir_keyword(w, "device");
    const DlExpr *arg = kw ? kw->value : dl_ir_positional(w, 0);
    if (!arg) return NULL;
    const DlValue *v = flow_eval(F, arg);
    const DlValue *dev = flow_device_arg(F, arg, v);
    if (dev && dev->kind == DL_KIND_DEVICE) return dev;
    DlValue *unknown = flow_mk(F, DL_KIND_DEVICE);
    unknown->dev = DL_DEV_UNKNOWN;
    return unknown;
}

/* `with EventStorage(start) as storage:` of a project class whose `__enter__` returns `self`
 * (detectron2's event storage): the name is the instance, whose methods are the project's. */
static bool enters_as_itself(Flow *F, const DlValue *context) {
    if (!context || context->kind != DL_KIND_INSTANCE || !context->cls) return false;
    const DlFunctionInfo *enter = dl_project_method(F->env->project, context->cls, "__enter__");
    if (!enter || !enter->fn) return false;
    const DlBlock *b = &enter->fn->body;
    for (uint32_t i = 0; i < b->count; i++)
        if (b->items[i]->kind == DL_ST_RETURN) return dl_ir_is_self(b->items[i]->value);
    return false;
}

/* Among the statements of `b` (of `src`): an expression that calls a `synchronize()`. */
static bool calls_synchronize_in(const DlSource *src, const DlBlock *b) {
    for (uint32_t i = 0; i < b->count; i++)
        if (b->items[i]->kind == DL_ST_EXPR &&
            dl_ir_span_mentions(src, b->items[i]->span, "synchronize("))
            return true;
    return false;
}

/* `with timer():` of a project `@contextmanager` whose code after its `yield` (or the
 * `finally:` around it) calls `torch.cuda.synchronize()`, or `with Timer():` of a project
 * class whose `__exit__` does: leaving the block waits for the device. */
static bool context_exit_waits(Flow *F, const DlExpr *w) {
    if (!w || w->kind != DL_EX_CALL || !w->object) return false;
    const char *q = flow_qualify(F, w->object); /* (NULL for a name the file defines) */
    if (!q && w->object->kind == DL_EX_NAME) q = w->object->name;
    if (!q || dl_torch_owns(q)) return false; /* (`torch.no_grad()`: no project's) */
    const DlProject *p = F->env->project;
    const DlFunctionInfo *fi = dl_project_find_function(p, F->env->file, q);
    if (!fi) {
        const DlClassInfo *ci = dl_project_find_class(p, F->env->file, q);
        const DlFunctionInfo *exit = ci ? dl_project_method(p, ci, "__exit__") : NULL;
        return exit && calls_synchronize_in(exit->module->source, &exit->fn->body);
    }
    const DlSource *src = fi->module->source;
    const DlBlock *body = &fi->fn->body;
    for (uint32_t i = 0; i < body->count; i++) {
        const DlStmt *st = body->items[i];
        if (!dl_ir_span_mentions(src, st->span, "yield")) continue;
        if (st->kind == DL_ST_TRY && calls_synchronize_in(src, &st->parts->finalbody)) return true;
        const DlBlock rest = {body->items + i + 1, body->count - i - 1};
        return calls_synchronize_in(src, &rest);
    }
    return false;
}

void flow_exec_with(Flow *F, const DlStmt *s) {
    const DlValue *saved_default = F->default_device;
    const DlExpr *saved_cuda = F->place.cuda_context;
    bool expected_to_fail = false;
    for (uint32_t i = 0; i < s->with_count; i++)
        expected_to_fail |= expects_an_error(F, s->withs[i]);
    if (expected_to_fail) { /* its body is run for its effects, but nothing in it is reported */
        DlFlowEnv quiet = *F->env;
        quiet.report = NULL;
        const DlFlowEnv *saved_env = F->env;
        F->env = &quiet;
        for (uint32_t i = 0; i < s->with_count; i++) {
            flow_eval(F, s->withs[i]);
            if (s->targets[i]) flow_bind(F, s->targets[i], flow_unknown());
        }
        flow_exec_block(F, &s->parts->body);
        F->env = saved_env;
        return;
    }
    for (uint32_t i = 0; i < s->with_count; i++) {
        const DlValue *dev = flow_torch_device_context(F, s->withs[i]);
        if (dev) {
            F->default_device = dev;
            continue;
        }
        const DlExpr *w = s->withs[i];
        const char *q = w && w->kind == DL_EX_CALL ? flow_qualify(F, w->object) : NULL;
        if (q && flow_streq(q, "torch.cuda.device")) F->place.cuda_context = w; /* DL110 */
        const DlValue *dev_here = constructs_on_a_device(F, w, q);
        if (dev_here) F->default_device = dev_here;
        const DlValue *context = flow_eval(F, s->withs[i]);
        /* `device = torch.device(d)` then `with device:`, as `with torch.device(d):` */
        if (!dev_here && w && (w->kind == DL_EX_NAME || w->kind == DL_EX_ATTR) &&
            context->kind == DL_KIND_DEVICE)
            F->default_device = context;
        if (s->targets[i])
            flow_bind(F, s->targets[i], enters_as_itself(F, context) ? context : flow_unknown());
    }
    flow_exec_block(F, &s->parts->body);
    F->default_device = saved_default;
    F->place.cuda_context = saved_cuda;
    for (uint32_t i = 0; i < s->with_count; i++)
        if (context_exit_waits(F, s->withs[i])) { /* as a synchronize after the body */
            flow_state_set(F->st, "<device-work>", NULL);
            flow_state_set(F->st, "<unread-work>", NULL);
        }
}

void flow_exec_try(Flow *F, const DlStmt *s) {
    DlFlowState *before = flow_state_copy(F->st);
    F->try_depth++;
    flow_exec_block(F, &s->parts->body);
    F->try_depth--;
    flow_exec_block(F, &s->parts->orelse);
    DlFlowState *after = F->st;
    /* a handler runs when the body fails, not in every iteration of a loop around it (T2M-GPT's
     * `except: index_motion = torch.ones(1, 1).cuda().long()`, a fallback for a rare sample) */
    bool every_iteration = F->place.every_iteration;
    F->place.every_iteration = false;
    for (uint32_t i = 0; i < s->parts->handler_count; i++) {
        F->st = flow_state_copy(before);
        flow_state_join(F->arena, F->st, after);
        flow_exec_block(F, &s->parts->handlers[i]);
        flow_state_join(F->arena, after, F->st);
        dl_flow_state_free(F->st);
    }
    F->place.every_iteration = every_iteration;
    F->st = after;
    dl_flow_state_free(before);
    bool was_dead = F->st->dead;
    F->st->dead = false;
    flow_exec_block(F, &s->parts->finalbody);
    F->st->dead = was_dead || F->st->dead;
}

/* `if step % 100 == 0:` / `if i == 0:` / `if is_last_batch:`-style conditions run their body
 * on some iterations only. */
bool flow_periodic_condition(const DlExpr *e, int depth) {
    if (!e || depth > 16) return false;
    if (e->kind == DL_EX_BINOP && flow_streq(e->name, "%")) return true;
    if (e->kind == DL_EX_COMPARE) return true;
    if (e->kind == DL_EX_BOOLOP)
        return flow_periodic_condition(e->items[0], depth + 1) ||
               flow_periodic_condition(e->items[1], depth + 1);
    if (e->kind == DL_EX_UNARY) return flow_periodic_condition(e->object, depth + 1);
    return false;
}

/* `name[0] != "img_0022"`, `idx != 7`: a value compared unequal with an id written out (a
 * number, or a name with digits in it), so that where they are equal one item passes; not a
 * kind (`p_type[0] != "freeform"`: MICCAI19-MedVQA's evaluation of one question type, many
 * batches), nor a size (`x.size(0) != 32`, `len(batch) != bs`), which passes most. */
static bool picks_one_value(const DlExpr *e) {
    if (!e || e->kind != DL_EX_COMPARE || e->item_count != 2 || !flow_streq(e->name, "!="))
        return false;
    for (int side = 0; side < 2; side++) {
        const DlExpr *literal = e->items[side], *other = e->items[1 - side];
        bool id = literal->kind == DL_EX_NUMBER ||
                  (literal->kind == DL_EX_STRING && literal->name &&
                   strpbrk(literal->name, "0123456789"));
        if (!id) continue;
        while (other->kind == DL_EX_SUBSCRIPT ||
               (other->kind == DL_EX_ATTR && !flow_streq(other->name, "shape") &&
                !flow_streq(other->name, "ndim")))
            other = other->object;
        if (other->kind == DL_EX_NAME) return true; /* not a call: no len(), no .size() */
    }
    return false;
}

/* `if trans is None or bool(torch.norm(trans) == 0):`, `if betas is None or betas.numel() ==
 * 1:` of a parameter whose default is a tensor factory (`trans=torch.zeros(1)`: smplpytorch's
 * SMPL_Layer, manopth's ManoLayer): the test is written to catch the default, so its else has
 * what a caller gave. The parameter's name, or NULL. */
static const char *catches_the_default(Flow *F, const DlExpr *cond) {
    if (!F->fn || !cond || cond->kind != DL_EX_BOOLOP || !flow_streq(cond->name, "or") ||
        cond->item_count != 2)
        return NULL;
    const DlExpr *none_test = cond->items[0];
    if (none_test->kind != DL_EX_COMPARE || !flow_streq(none_test->name, "is") ||
        none_test->item_count != 2)
        return NULL;
    const DlExpr *name = NULL;
    for (int k = 0; k < 2; k++)
        if (none_test->items[k]->kind == DL_EX_NAME &&
            none_test->items[1 - k]->kind == DL_EX_CONST &&
            flow_streq(none_test->items[1 - k]->name, "None"))
            name = none_test->items[k];
    if (!name || !dl_ir_span_mentions(F->src, cond->items[1]->span, name->name)) return NULL;
    int p = dl_ir_param_index(F->fn, name->name);
    const DlExpr *d = p >= 0 ? F->fn->params[p].default_value : NULL;
    return d && d->kind == DL_EX_CALL ? name->name : NULL;
}

/* `if isinstance(x, PIL.Image.Image):` (or np.ndarray, str, ...: any type but torch's tensor and
 * module classes and the project's): in that branch x is not a tensor. The key narrowed, or NULL. */
static const char *narrowed_to_other_type(Flow *F, const DlExpr *cond) {
    if (!cond || cond->kind != DL_EX_CALL || !cond->object || cond->object->kind != DL_EX_NAME ||
        !flow_streq(cond->object->name, "isinstance") || cond->arg_count != 2 ||
        cond->args[0].keyword || cond->args[1].keyword)
        return NULL;
    const DlExpr *type = cond->args[1].value;
    if (type->kind != DL_EX_NAME && type->kind != DL_EX_ATTR) return NULL; /* a tuple of types */
    const char *q = flow_qualify(F, type);
    const char *name = q ? q : type->kind == DL_EX_NAME ? type->name : NULL;
    if (!name || strncmp(name, "torch", 5) == 0 || strstr(name, "Tensor") || strstr(name, "Module") ||
        dl_project_find_class(F->env->project, F->env->file, name))
        return NULL;
    return flow_key_of(F, cond->args[0].value);
}

/* `if torch.is_tensor(x):`, `if isinstance(x, torch.Tensor):` (`if not ...` with `*sign` -1):
 * the key of what is tested for a tensor, or NULL. Where the test fails, `x` is some other
 * value (ppg-vc's lengths, a tensor or a list: `np.array(ilens)` in the else). */
static const char *tested_for_a_tensor(Flow *F, const DlExpr *cond, int *sign) {
    *sign = 1;
    while (cond && cond->kind == DL_EX_UNARY && flow_streq(cond->name, "not")) {
        *sign = -*sign;
        cond = cond->object;
    }
    if (!cond || cond->kind != DL_EX_CALL || !cond->object || !cond->arg_count ||
        cond->args[0].keyword)
        return NULL;
    /* named `is_tensor` before it is qualified: asked of every `if` */
    const char *callee =
        cond->arg_count == 1 && cond->object->name && strcmp(cond->object->name, "is_tensor") == 0
            ? flow_qualify(F, cond->object)
            : NULL;
    bool is_tensor = callee && strcmp(callee, "torch.is_tensor") == 0;
    bool instance = cond->object->kind == DL_EX_NAME &&
                    flow_streq(cond->object->name, "isinstance") && cond->arg_count == 2 &&
                    !cond->args[1].keyword;
    if (instance) {
        const char *type = flow_qualify(F, cond->args[1].value);
        instance = type && strcmp(type, "torch.Tensor") == 0;
    }
    return is_tensor || instance ? flow_key_of(F, cond->args[0].value) : NULL;
}

/* Does the file name an accelerator other than CUDA ("mps", "xpu", ...), which a device that
 * is not "cuda" may be? */
static bool names_another_accelerator(const DlSource *src) {
    static const char *const others[] = {"\"mps", "'mps", ".mps", "\"xpu", "'xpu", ".xpu",
                                         "\"npu", "'npu", "torch_npu", "\"hpu", "'hpu",
                                         "habana", "\"xla", "'xla", "torch_xla", NULL};
    for (int i = 0; others[i]; i++)
        if (dl_source_mentions(src, others[i])) return true;
    return false;
}

/* Whether the file names CUDA other than to ask whether it is there (`print("CUDA available:",
 * torch.cuda.is_available())` in a benchmark that runs on "cpu" and "mps": Autoformer-MLX's). */
static bool names_cuda_beyond_asking(const DlSource *src) {
    uint32_t named = 0, asked = 0;
    for (const char *p = src->text, *end = p + src->len;
         (p = memmem(p, (size_t)(end - p), "cuda", 4)); p += 4) {
        named++;
        asked += (size_t)(end - p) >= 17 && memcmp(p, "cuda.is_available", 17) == 0;
    }
    return named > asked;
}

/* `if self.device == _CPU_DEVICE:`, `if device.type == "cpu":`: the device a condition
 * compares with the CPU, by the name values moved to it carry ("device", "args.device"); NULL
 * for any other condition. `*equal` says whether the body runs when they are equal (`==`, `is`)
 * or when not (`!=`). */
static const char *compared_with_cpu(Flow *F, const DlExpr *cond, bool *equal) {
    if (!cond || cond->kind != DL_EX_COMPARE || cond->item_count != 2 || !cond->name) return NULL;
    bool eq = strcmp(cond->name, "==") == 0 || strcmp(cond->name, "is") == 0;
    if (!eq && strcmp(cond->name, "!=") != 0 && strcmp(cond->name, "is not") != 0) return NULL;
    for (int side = 0; side < 2; side++) {
        const DlExpr *cpu = cond->items[side], *device = cond->items[1 - side];
        /* "cpu", torch.device("cpu"), or a name bound to either (names and attributes only
         * are evaluated again: they report nothing) */
        if (cpu->kind == DL_EX_CALL && cpu->arg_count == 1 && !cpu->args[0].keyword &&
            cpu->object && cpu->object->name && strcmp(cpu->object->name, "device") == 0)
            cpu = cpu->args[0].value;
        bool is_cpu = cpu->kind == DL_EX_STRING && flow_device_of_string(cpu->name) == DL_DEV_CPU;
        if (!is_cpu && (cpu->kind == DL_EX_NAME || cpu->kind == DL_EX_ATTR)) {
            const DlValue *v = flow_eval(F, cpu);
            is_cpu = v->kind == DL_KIND_DEVICE && v->dev == DL_DEV_CPU;
        }
        /* `if device == "cuda": ... else: labels.type(torch.LongTensor)` (P-Wave-CNN): the
         * else of a test for "cuda" is the CPU's path, as the body of one for "cpu" is; a device
         * "cuda:1" would take it too, which code written so does not expect */
        bool is_cuda = !is_cpu && cpu->kind == DL_EX_STRING && cpu->name &&
                       flow_streq(cpu->name, "cuda");
        if (!is_cpu && !is_cuda) continue;
        if (device->kind == DL_EX_ATTR && device->name && strcmp(device->name, "type") == 0)
            device = device->object; /* `device.type == "cpu"` */
        if (is_cuda && (device->kind != DL_EX_NAME && device->kind != DL_EX_ATTR)) continue;
        /* not where the file may choose another accelerator (`"cuda" if ... else "mps" if ...
         * else "cpu"`: RLHFSummarise's reward model), which the else would run on */
        if (is_cuda && names_another_accelerator(F->src)) continue;
        if (is_cuda && flow_eval(F, device)->kind != DL_KIND_DEVICE) {
            const char *key = flow_key_of(F, device);
            if (!key || !flow_name_says_device(F, key)) continue;
        }
        *equal = is_cuda ? !eq : eq;
        /* `self.device` holds the device __init__ was given ("device"): values moved to it
         * name that one */
        if (device->kind != DL_EX_NAME && device->kind != DL_EX_ATTR) return NULL;
        const DlValue *held = flow_eval(F, device);
        if (held->kind == DL_KIND_DEVICE && held->dev == DL_DEV_NAMED && held->dev_name)
            return held->dev_name;
        return flow_key_of(F, device);
    }
    return NULL;
}

/* What a branch that runs only on the CPU changed: values moved to the compared device are on
 * the CPU there, and after the branch they are what they were. */
typedef struct NarrowedToCpu {
    const char *keys[32];
    const DlValue *before[32], *narrowed[32];
    uint32_t count;
} NarrowedToCpu;

/* Every tensor or module on the device (`dev`, `dev_name`) is on the CPU in this branch; with
 * `forget_origin`, the copies no longer say why they were there. Undone by undo_narrowing. */
static void narrow_device_to_cpu(Flow *F, DlDeviceTag dev, const char *dev_name,
                                 bool forget_origin, NarrowedToCpu *out) {
    out->count = 0;
    for (uint32_t i = 0; i < F->st->count && out->count < 32; i++) {
        const Binding *b = &F->st->items[i];
        const DlValue *v = b->value;
        if (!v || !(flow_is_tensor(v) || flow_is_module_like(v)) || v->dev != dev ||
            !(v->dev_name == dev_name ||
              (v->dev_name && dev_name && strcmp(v->dev_name, dev_name) == 0)))
            continue;
        DlValue *c = dl_value_copy(F->arena, v);
        c->dev = DL_DEV_CPU;
        c->dev_name = NULL;
        if (forget_origin) c->origin = DL_ORIGIN_NONE;
        out->keys[out->count] = b->key;
        out->before[out->count] = v;
        out->narrowed[out->count++] = c;
    }
    for (uint32_t i = 0; i < out->count; i++) flow_state_set(F->st, out->keys[i], out->narrowed[i]);
}

static const DlExpr *without_not(const DlExpr *cond, int *sign);

/* What `torch.device(x)` is made of, `x`; `e` itself for anything else. */
static const DlExpr *inside_torch_device(Flow *F, const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || e->arg_count != 1 || e->args[0].keyword || !e->object)
        return e;
    const char *q = flow_qualify(F, e->object);
    return q && flow_streq(q, "torch.device") ? e->args[0].value : e;
}

/* `"cuda"` or `torch.device("cuda:0")` (1), `"cpu"` or `torch.device("cpu")` (-1), else 0. */
static int names_cuda_or_cpu(Flow *F, const DlExpr *e) {
    e = inside_torch_device(F, e);
    if (!e || e->kind != DL_EX_STRING || !e->name) return 0;
    DlDeviceTag tag = flow_device_of_string(e->name);
    return tag == DL_DEV_CUDA ? 1 : tag == DL_DEV_CPU ? -1 : 0;
}

/* `flag if ... else ...` choosing CUDA when `flag` holds and the CPU when not: `"cuda" if flag
 * else "cpu"`, also inside `torch.device(...)` or with `torch.device(...)` arms. */
static bool chooses_cuda_by(Flow *F, const DlExpr *v, const char *flag) {
    v = inside_torch_device(F, v);
    return v && v->kind == DL_EX_COND && v->item_count == 2 &&
           flow_streq(flow_text(F, v->items[0]->span), flag) &&
           names_cuda_or_cpu(F, v->object) > 0 && names_cuda_or_cpu(F, v->items[1]) < 0;
}

/* The name of a statement of `b` (or of a block in it, not a nested def) that binds a device
 * chosen by `flag` (chooses_cuda_by), or NULL. */
static const char *device_named_for(Flow *F, const DlBlock *b, const char *flag, int depth) {
    for (uint32_t i = 0; b && depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME &&
            chooses_cuda_by(F, s->value, flag))
            return s->targets[0]->name;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) {
            const char *found = device_named_for(F, inner, flag, depth + 1);
            if (found) return found;
        }
    }
    return NULL;
}

/* `if opts.use_gpu:` where `device = torch.device("cuda" if opts.use_gpu else "cpu")`: the
 * branch where the flag fails runs on the CPU, as one under `if device == "cpu":` does
 * (P2PaLA's `else: y_gt.type(torch.FloatTensor)`). The name values moved to that device carry,
 * as compared_with_cpu gives it, with `*equal` true when the body is the CPU's branch. */
static const char *device_chosen_by_flag(Flow *F, const DlExpr *cond, bool *equal) {
    int sign;
    const DlExpr *flag = without_not(cond, &sign);
    if (flag->kind != DL_EX_NAME && flag->kind != DL_EX_ATTR) return NULL;
    const char *text = flow_text(F, flag->span);
    const char *name = device_named_for(F, F->fn ? &F->fn->body : NULL, text, 0);
    if (!name) name = device_named_for(F, &F->env->file->module->body, text, 0);
    const Binding *b = name ? flow_lookup(F, name) : NULL;
    if (!b || !b->value || b->value->kind != DL_KIND_DEVICE || b->value->dev != DL_DEV_NAMED ||
        !b->value->dev_name)
        return NULL;
    *equal = sign < 0;
    return b->value->dev_name;
}

/* Values moved to the device a condition compared with the CPU ("device"). */
static void narrow_to_cpu(Flow *F, const char *device_key, NarrowedToCpu *out) {
    narrow_device_to_cpu(F, DL_DEV_NAMED, device_key, false, out);
}

static void undo_narrowing(DlFlowState *st, const NarrowedToCpu *n) {
    for (uint32_t i = 0; i < n->count; i++) {
        const Binding *b = flow_state_find(st, n->keys[i]);
        if (b && b->value == n->narrowed[i]) flow_state_set(st, n->keys[i], n->before[i]);
    }
}

/* `cond` is `x OP "text"` or `"text" OP x` (`device_type == "cuda"`, whatever x holds). */
static bool compares_a_string(const DlExpr *cond, const char *op, const char *text) {
    if (!cond || cond->kind != DL_EX_COMPARE || cond->item_count != 2 || !cond->name ||
        !flow_streq(cond->name, op))
        return false;
    for (int side = 0; side < 2; side++)
        if (cond->items[side]->kind == DL_EX_STRING && cond->items[side]->name &&
            flow_streq(cond->items[side]->name, text))
            return true;
    return false;
}

/* `if losses:` of a list the code fills with device tensors (pKaSchNet's validation: the
 * losses appended in the loop, then `if losses: vl = torch.stack(losses).mean(); vl.item()`):
 * the list is empty only where nothing was appended, so a wait in the body leaves nothing
 * pending on either path. */
static bool tests_a_list_of_device_tensors(Flow *F, const DlExpr *cond) {
    if (!cond || cond->kind != DL_EX_NAME) return false;
    const Binding *b = flow_lookup(F, cond->name);
    const DlValue *v = b ? b->value : NULL;
    return v && v->kind == DL_KIND_SEQ && !v->items && v->elem && flow_is_tensor(v->elem) &&
           dl_value_on_device(v->elem);
}

/* `not c`: c, with *sign -1; any other condition: itself, with *sign 1. */
static const DlExpr *without_not(const DlExpr *cond, int *sign) {
    bool negated =
        cond->kind == DL_EX_UNARY && cond->name && flow_streq(cond->name, "not") && cond->object;
    *sign = negated ? -1 : 1;
    return negated ? cond->object : cond;
}

/* `if x.is_cuda:` (*sign 1) or `if not x.is_cuda:` (-1): the key of the tensor tested, which is
 * on the CPU in the branch where the test fails (faster-rcnn's gridgen: `.type(torch.FloatTensor)`
 * in the else of `if x.is_cuda:`); NULL for any other condition. */
static const char *tested_for_cuda(Flow *F, const DlExpr *cond, int *sign) {
    cond = without_not(cond, sign);
    if (cond->kind != DL_EX_ATTR || !cond->name || !flow_streq(cond->name, "is_cuda") ||
        !cond->object || (cond->object->kind != DL_EX_NAME && cond->object->kind != DL_EX_ATTR))
        return NULL;
    return flow_key_of(F, cond->object);
}

/* The tensor bound to `key` is on the CPU in this branch, and so is every tensor or module known
 * to be on the same device as it (a forward's other inputs): undone by undo_narrowing. */
static void narrow_key_to_cpu(Flow *F, const char *key, NarrowedToCpu *out) {
    out->count = 0;
    const Binding *tested = key ? flow_state_find(F->st, key) : NULL;
    const DlValue *t = tested ? tested->value : NULL;
    if (!t || !flow_is_tensor(t) || !dl_value_on_device(t)) return;
    narrow_device_to_cpu(F, t->dev, t->dev_name, true, out);
}

/* `torch.cuda.device_count() > 0` (or `>= 1`, `!= 0`): 1, a test for a GPU written as a count
 * (atomai's load_weights); `== 0`, `< 1`, `<= 0`: -1; 0 otherwise. Not `> 1`: its else branch
 * may still have one GPU. */
static int gpu_count_test(Flow *F, const DlExpr *cond) {
    if (cond->kind != DL_EX_COMPARE || cond->item_count != 2 || !cond->name) return 0;
    const DlExpr *count = cond->items[0], *bound = cond->items[1];
    if (count->kind != DL_EX_CALL || count->arg_count || !count->object ||
        bound->kind != DL_EX_NUMBER || !bound->name)
        return 0;
    const char *q = flow_qualify(F, count->object);
    if (!q || !flow_streq(q, "torch.cuda.device_count")) return 0;
    static const char *const tests[][3] = {{">", "0", "1"},  {">=", "1", "1"}, {"!=", "0", "1"},
                                           {"==", "0", "-"}, {"<", "1", "-"},  {"<=", "0", "-"}};
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (flow_streq(cond->name, tests[i][0]) && flow_streq(bound->name, tests[i][1]))
            return tests[i][2][0] == '1' ? 1 : -1;
    return 0;
}

/* `torch.cuda.device_count() > 1` (or `>= 2`): a branch that runs only with several GPUs
 * (colorful_image_colorization's DataParallel resume); its else may still have one. */
static bool several_gpus_test(Flow *F, const DlExpr *cond) {
    if (cond->kind != DL_EX_COMPARE || cond->item_count != 2 || !cond->name) return false;
    const DlExpr *count = cond->items[0], *bound = cond->items[1];
    if (count->kind != DL_EX_CALL || count->arg_count || !count->object ||
        bound->kind != DL_EX_NUMBER || !bound->name)
        return false;
    const char *q = flow_qualify(F, count->object);
    if (!q || !flow_streq(q, "torch.cuda.device_count")) return false;
    long n = strtol(bound->name, NULL, 10);
    return (flow_streq(cond->name, ">") && n >= 1) || (flow_streq(cond->name, ">=") && n >= 2);
}

/* ... also as one operand of an `and` (`args.parallel and torch.cuda.device_count() > 1`). */
static bool needs_several_gpus(Flow *F, const DlExpr *cond) {
    if (cond && cond->kind == DL_EX_BOOLOP && cond->name && flow_streq(cond->name, "and")) {
        for (uint32_t i = 0; i < cond->item_count; i++)
            if (several_gpus_test(F, cond->items[i])) return true;
        return false;
    }
    return cond && several_gpus_test(F, cond);
}

/* `self.use_cuda` of a class whose own `cuda()` sets it True (alter-siamese's losses override
 * `cuda()` with `self.use_cuda = True`, and `__init__` sets it False): the flag says the module
 * was moved to a GPU, what a device test in its forward says. */
static bool set_by_its_own_cuda(Flow *F, const DlExpr *cond) {
    if (cond->kind != DL_EX_ATTR || !cond->name || !dl_ir_is_self(cond->object) || !F->owner)
        return false;
    /* a plain object's `cuda()` (wavenet-speech's batch loader) runs only where the program
     * calls it, which `model.cuda()` says nothing of: the flag tells nothing then */
    if (!F->owner->is_module && !F->owner->maybe_module) return false;
    const DlClass *c = F->owner->cls;
    for (uint32_t m = 0; m < c->method_count; m++) {
        const DlFunction *fn = c->methods[m];
        if (!flow_streq(fn->name, "cuda")) continue;
        for (uint32_t i = 0; i < fn->body.count; i++) {
            const DlStmt *s = fn->body.items[i];
            if (s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
                dl_ir_is_self_attr(s->targets[0], cond->name) && s->value &&
                s->value->kind == DL_EX_CONST && flow_streq(s->value->name, "True"))
                return true;
        }
    }
    return false;
}

/* `self.cuda()`, `self.to(...)` as a statement: the module moving itself. */
static bool moves_self(const DlStmt *s) {
    const DlExpr *c = s->kind == DL_ST_EXPR ? s->value : NULL;
    return c && c->kind == DL_EX_CALL && c->object && c->object->kind == DL_EX_ATTR &&
           c->object->name && dl_ir_is_self(c->object->object) &&
           (flow_streq(c->object->name, "cuda") || flow_streq(c->object->name, "to"));
}

/* `if self.gpu:` (*sign 1; `if not self.gpu:` -1) in a method of a module that moves itself
 * only under the same test (`if self.gpu: self.cuda()` in `__init__` or a method building it,
 * `if self.para_dict['GPU']: self.cuda()`: gv20's classifiers), and nowhere else: the branch
 * where the flag fails runs with the module on the CPU. */
static bool flag_the_module_moves_under(Flow *F, const DlExpr *cond, int *sign) {
    const DlExpr *flag = without_not(cond, sign);
    const char *text = F->src->text;
    uint32_t n = flag->span.end - flag->span.start;
    /* read in the source, not copied: this runs for every `if` of a module's methods */
    if (!F->owner || !F->owner->is_module || flag->kind == DL_EX_CALL ||
        !memmem(text + flag->span.start, n, "self.", 5))
        return false;
    const DlClass *cls = F->owner->cls;
    bool under_flag = false;
    for (uint32_t m = 0; m < cls->method_count; m++) {
        const DlBlock *body = &cls->methods[m]->body;
        for (uint32_t i = 0; i < body->count; i++) {
            const DlStmt *s = body->items[i];
            if (moves_self(s)) return false; /* moved whatever the flag says */
            if (s->kind != DL_ST_IF || !s->value) continue;
            DlSpan test = s->value->span;
            bool same = !s->parts->orelse.count && test.end - test.start == n &&
                        memcmp(text + test.start, text + flag->span.start, n) == 0;
            for (uint32_t k = 0; k < s->parts->body.count; k++)
                if (moves_self(s->parts->body.items[k])) {
                    if (!same) return false;
                    under_flag = true;
                }
        }
    }
    return under_flag;
}

/* `torch.cuda.is_available()` as the condition: 1; `not torch.cuda.is_available()`: -1; the
 * same of a GPU count (gpu_count_test) and of a flag the module's own `cuda()` sets; else 0. */
static bool bound_to(Flow *F, const DlExpr *cond, const char *literal);

static int cuda_availability_test(Flow *F, const DlExpr *cond) {
    int sign;
    cond = without_not(cond, &sign);
    /* `args.cuda = True`, then `if args.cuda and not torch.cuda.is_available(): raise ...`: the
     * switch the function itself turns on leaves the test of CUDA (a DICOM denoiser's
     * inference) */
    if (cond->kind == DL_EX_BOOLOP && flow_streq(cond->name, "and") && cond->item_count == 2) {
        for (int k = 0; k < 2; k++)
            if (bound_to(F, cond->items[1 - k], "True")) {
                int test = cuda_availability_test(F, cond->items[k]);
                if (test) return sign * test;
            }
    }
    /* `if args.disable_cuda or not torch.cuda.is_available():`: its `else` runs only where CUDA
     * is (ProtoTree's `init_tree` loads without a map_location there) */
    if (cond->kind == DL_EX_BOOLOP && flow_streq(cond->name, "or")) {
        for (uint32_t i = 0; i < cond->item_count; i++)
            if (cuda_availability_test(F, cond->items[i]) < 0) return -sign;
        return 0;
    }
    int count_test = gpu_count_test(F, cond);
    if (count_test) return sign * count_test;
    if (set_by_its_own_cuda(F, cond)) return sign;
    if (cond->kind == DL_EX_NAME || cond->kind == DL_EX_ATTR) { /* `if use_cuda:` */
        const char *key = flow_key_of(F, cond);
        const Binding *b = key ? flow_lookup(F, key) : NULL;
        return b && flow_says_cuda_available(b->value) ? sign : 0;
    }
    if (cond->kind != DL_EX_CALL || cond->arg_count || !cond->object) return 0;
    const char *q = flow_qualify(F, cond->object);
    return q && flow_streq(q, "torch.cuda.is_available") ? sign : 0;
}

/* `torch.device("cpu")`: a device made from one string written out. */
static bool device_of_one_string(Flow *F, const DlExpr *call) {
    const char *q = flow_qualify(F, call->object);
    const DlExpr *a = dl_ir_positional(call, 0);
    return q && flow_streq(q, "torch.device") && call->arg_count == 1 && a &&
           a->kind == DL_EX_STRING;
}

/* A device chosen elsewhere compared with "cuda" (`device == "cuda"`, `device.type == 'cuda'`):
 * 1, the branch runs where there is a GPU (-1 for `!=`); compared with "cpu": -1, the else
 * branch does (1 for `!=`); 0 otherwise. Wav2Lip's `_load` reads a checkpoint without
 * map_location only `if device == 'cuda':`. What runs without CUDA is not said: a device other
 * than "cuda" may be "cuda:1". */
static int device_compared_with_cuda(Flow *F, const DlExpr *cond) {
    if (!cond || cond->kind != DL_EX_COMPARE || cond->item_count != 2 || !cond->name) return 0;
    bool eq = flow_streq(cond->name, "==");
    if (!eq && !flow_streq(cond->name, "!=")) return 0;
    for (int side = 0; side < 2; side++) {
        const DlExpr *literal = cond->items[side], *device = cond->items[1 - side];
        /* `device == torch.device("cpu")` (latent_ode's datasets) as `device == "cpu"` */
        if (literal->kind == DL_EX_CALL && device_of_one_string(F, literal))
            literal = dl_ir_positional(literal, 0);
        const char *text = literal->kind == DL_EX_STRING ? literal->name : NULL;
        /* `cuda_device = torch.device("cuda")`, then `if device == cuda_device:` (AnimeGAN's
         * inference loop) */
        if (literal->kind == DL_EX_NAME) {
            const DlValue *named = flow_eval(F, literal);
            if (named->kind == DL_KIND_DEVICE &&
                (named->dev == DL_DEV_CPU || named->dev == DL_DEV_CUDA))
                text = named->dev_name;
        }
        if (!text) continue;
        DlDeviceTag tag = flow_device_of_string(text);
        /* `if device == 'GPU':` (deepCR's constructor takes 'CPU' or 'GPU') */
        if (flow_streq(text, "GPU") || flow_streq(text, "gpu")) tag = DL_DEV_CUDA;
        if (tag != DL_DEV_CPU && tag != DL_DEV_CUDA) continue;
        if (device->kind == DL_EX_ATTR && device->name && flow_streq(device->name, "type"))
            device = device->object;
        if (device->kind != DL_EX_NAME && device->kind != DL_EX_ATTR) continue;
        const char *key = flow_key_of(F, device);
        if (flow_eval(F, device)->kind != DL_KIND_DEVICE && !(key && flow_name_says_device(F, key)))
            continue;
        int sign = tag == DL_DEV_CUDA ? 1 : -1;
        return eq ? sign : -sign;
    }
    return 0;
}

/* flow_gpu_branch, given what cuda_availability_test said of the condition. */
/* `torch.cuda.is_available() and args.use_gpu`: the body runs only with a GPU (CLIPasso's
 * `get_mask_u2net`), though its else runs with one too (the flag off). */
static bool conjunction_needs_a_gpu(Flow *F, const DlExpr *cond) {
    if (!cond || cond->kind != DL_EX_BOOLOP || !cond->name || !flow_streq(cond->name, "and"))
        return false;
    for (uint32_t i = 0; i < cond->item_count; i++)
        if (cuda_availability_test(F, cond->items[i]) > 0) return true;
    return false;
}

static int gpu_branch_of(Flow *F, const DlExpr *cond, int cuda_test) {
    return cuda_test ? cuda_test : device_compared_with_cuda(F, cond);
}

int flow_cuda_availability_test(Flow *F, const DlExpr *cond) {
    return cuda_availability_test(F, cond);
}

int flow_gpu_branch(Flow *F, const DlExpr *cond) {
    return gpu_branch_of(F, cond, cuda_availability_test(F, cond));
}

/* The file's text binds or passes `name` with anything but False, None or 0 (`name=True`,
 * `name=args.flag`, `name = True`): MakeItTalk calls `__train_speaker_aware__(...,
 * use_residual=True)`; a caller in another file is not seen. With `attributes` false, an
 * attribute of that name (`self.callback = callback`) is no binding of it. */
static bool switched_on_in_the_file(const DlSource *src, const char *name, bool attributes) {
    size_t n = strlen(name);
    const char *p = src->text, *end = src->text + src->len;
    while ((p = memmem(p, (size_t)(end - p), name, n)) != NULL) {
        const char *q = p + n;
        bool starts = p == src->text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        if (!attributes && p > src->text && p[-1] == '.') starts = false;
        p = q;
        if (!starts) continue;
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        if (q >= end || *q != '=' || (q + 1 < end && q[1] == '=')) continue;
        q++;
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        size_t rest = (size_t)(end - q);
        bool off = (rest >= 5 && memcmp(q, "False", 5) == 0) ||
                   (rest >= 4 && memcmp(q, "None", 4) == 0) || (rest >= 1 && *q == '0');
        if (!off) return true;
    }
    return false;
}

/* A parameter's default that leaves a feature off, or an argument that does: False, None or
 * 0. */
bool flow_off_constant(const DlExpr *d) {
    return d && d->name &&
           ((d->kind == DL_EX_CONST &&
             (flow_streq(d->name, "False") || flow_streq(d->name, "None"))) ||
            (d->kind == DL_EX_NUMBER && flow_streq(d->name, "0")));
}

/* `self.callback` that `__init__` only stores from a parameter defaulting to None (or False,
 * 0: `self.verbose = verbose`), which no other statement of the class assigns and nothing in
 * the file passes (smoothing-adversarial's DDN, built as `DDN(steps=..., device=...)`): the
 * feature is off as shipped, so what `if self.callback:` reads is not read every iteration
 * (DL201). Its body is still analysed: a caller in another file may switch it on
 * (DeepCTR-Torch's `if self.gpus:` wraps the model in DataParallel for users that pass
 * `gpus=`). */
static bool optional_attribute_never_given(Flow *F, const DlExpr *cond) {
    const DlParam *stored = cond ? flow_parameter_stored_in(F, cond) : NULL;
    const char *param = stored && flow_off_constant(stored->default_value) ? stored->name : NULL;
    /* not a device (`if self.device: x = x.to(self.device)`), which a caller elsewhere sets */
    if (!param || flow_name_says_device(F, param) || flow_name_says_device(F, cond->name) ||
        switched_on_in_the_file(F->src, param, false))
        return false;
    const DlSpan span = F->owner->cls->span;
    const char *text = F->src->text + span.start, *end = F->src->text + span.end;
    char assign[160];
    int n = snprintf(assign, sizeof assign, "self.%s", cond->name);
    if (n <= 0 || (size_t)n >= sizeof assign) return false;
    int assignments = 0;
    for (const char *p = text; (p = memmem(p, (size_t)(end - p), assign, (size_t)n)); p += n) {
        const char *q = p + n;
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        if (q + 1 < end && q[0] == '=' && q[1] != '=') assignments++;
    }
    return assignments == 1;
}

/* `if verbose:` of a parameter whose default is False (or None, 0), while summarising the
 * function for its callers: what it reads there is not read on every call (beyond-nanogpt's
 * `loss_fn(..., verbose=False)`, whose training loop never passes it). */
/* So too in the function's own analysis where no other file imports its file, so that every
 * call is in the file (mvgrl's `train(dataset, verbose=False)`, called as `train(dataset)`). */
static bool off_by_default_in_a_summary(Flow *F, const DlExpr *cond) {
    if (!F->fn || !cond || cond->kind != DL_EX_NAME) return false;
    int p = dl_ir_param_index(F->fn, cond->name);
    if (p < 0 || !flow_off_constant(F->fn->params[p].default_value) ||
        switched_on_in_the_file(F->src, cond->name, true))
        return false;
    if (F->env->host_read) return true;
    const DlModuleIR *m = F->env->file->module;
    bool every_call_seen = m->imported_by_no_other_file ||
                           (m->source && dl_source_is_notebook(m->source));
    return every_call_seen && flow_every_call_leaves_the_default(F, F->fn, (uint32_t)p);
}

/* The same test of a parameter off by default that a call in the file does switch on
 * (Audio-Recognition-ESC50's `computeBatchLoss(..., evaluation=False)`, called with
 * `evaluation=True` by its evaluation loop only): 1 + the parameter, for the summary to say
 * that what it reads there is read only by calls that pass it on (Flow.only_when_flag). */
/* `if train:` of a parameter, in summary mode: 1 + the parameter, or 0. */
static int16_t parameter_tested(Flow *F, const DlExpr *cond) {
    if (!F->env->host_read || !F->fn || !cond || cond->kind != DL_EX_NAME) return 0;
    int p = dl_ir_param_index(F->fn, cond->name);
    return p >= 0 && p < INT16_MAX ? (int16_t)(p + 1) : 0;
}

static int16_t flag_switched_on_by_a_caller(Flow *F, const DlExpr *cond) {
    if (!F->env->host_read || !F->fn || !cond || cond->kind != DL_EX_NAME) return 0;
    int p = dl_ir_param_index(F->fn, cond->name);
    return p >= 0 && p < INT16_MAX && flow_off_constant(F->fn->params[p].default_value)
               ? (int16_t)(p + 1)
               : 0;
}

/* `if False:`, `if 0:`: code switched off (deep_sort's debug timing prints); it never runs. */
static bool never_true(const DlExpr *cond) {
    return cond && cond->name &&
           ((cond->kind == DL_EX_CONST && strcmp(cond->name, "False") == 0) ||
            (cond->kind == DL_EX_NUMBER && strcmp(cond->name, "0") == 0));
}

/* A block whose last statement leaves the loop, or the program: `break`, `return`, `raise`,
 * `sys.exit(1)`. It runs at most once per loop (ai-toolkit's NaN check prints every loss with
 * `.item()`, then exits): what it reads on the host is not read every iteration. */
static bool ends_the_loop(const DlBlock *b) {
    if (!b->count) return false;
    const DlStmt *last = b->items[b->count - 1];
    if (leaves_the_loop(last)) return true;
    if (last->kind != DL_ST_EXPR || !last->value || last->value->kind != DL_EX_CALL) return false;
    const DlExpr *callee = last->value->object;
    if (!callee || !callee->name) return false;
    static const char *const exits[] = {"exit", "quit", "_exit", NULL};
    bool named = callee->kind == DL_EX_NAME ||
                 (callee->kind == DL_EX_ATTR && callee->object &&
                  callee->object->kind == DL_EX_NAME &&
                  (flow_streq(callee->object->name, "sys") || flow_streq(callee->object->name, "os")));
    return named && dl_name_in_list(callee->name, exits);
}

/* Is `name` bound in `b` (or a block in it) to a periodic condition (`display = interval and
 * it % interval == 0`)? */
static bool block_binds_periodic_flag(const DlBlock *b, const char *name, int depth) {
    if (!b || depth > 16) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *t = b->items[i];
        if (t->kind == DL_ST_DEF || t->kind == DL_ST_CLASS) continue;
        if (t->kind == DL_ST_ASSIGN && t->target_count == 1 && t->targets[0]->kind == DL_EX_NAME &&
            flow_streq(t->targets[0]->name, name) && flow_periodic_condition(t->value, 0))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(t, k)); k++)
            if (block_binds_periodic_flag(inner, name, depth + 1)) return true;
    }
    return false;
}

/* Does `e` take a remainder (`num % den == 0`, `not step % every`)? */
static bool takes_a_remainder(const DlExpr *e, int depth) {
    if (!e || depth > 8) return false;
    if (e->kind == DL_EX_BINOP && flow_streq(e->name, "%")) return true;
    if (e->kind == DL_EX_COMPARE || e->kind == DL_EX_BOOLOP)
        return e->item_count == 2 && (takes_a_remainder(e->items[0], depth + 1) ||
                                      takes_a_remainder(e->items[1], depth + 1));
    return e->kind == DL_EX_UNARY && takes_a_remainder(e->object, depth + 1);
}

/* flow_exec_if's walk of a branch for a call given the path its test asks about. */
typedef struct WritesPath {
    Flow *F;
    const char *path; /* the argument's text */
} WritesPath;

static bool call_given_the_path(const DlExpr *e, void *ctx) {
    const WritesPath *w = ctx;
    for (uint32_t i = 0; e->kind == DL_EX_CALL && i < e->arg_count; i++) {
        const DlExpr *a = e->args[i].value;
        if (a && (a->kind == DL_EX_NAME || a->kind == DL_EX_ATTR) &&
            flow_streq(flow_text(w->F, a->span), w->path))
            return true;
    }
    return false;
}

/* `if not os.path.exists(out_file):` whose branch writes that file (`torch.onnx.export(model,
 * x, out_file)`, `torch.save(obj, out_file)`, also in a block of it: `if simplify:
 * onnx.save(m, out_file)`): it runs until the file is there, on the first iteration of a loop
 * (an anti-spoofing demo exports its model so, then runs the export). */
static bool runs_until_it_writes(Flow *F, const DlStmt *s) {
    const DlExpr *c = s->value;
    if (!c || c->kind != DL_EX_UNARY || !flow_streq(c->name, "not")) return false;
    c = c->object;
    if (!c || c->kind != DL_EX_CALL || c->arg_count != 1 || !c->object) return false;
    const char *q = flow_qualify(F, c->object);
    const DlExpr *path = c->args[0].value;
    if (!q || (!flow_streq(q, "os.path.exists") && !flow_streq(q, "os.path.isfile")) ||
        !path || (path->kind != DL_EX_NAME && path->kind != DL_EX_ATTR))
        return false;
    WritesPath w = {F, flow_text(F, path->span)};
    return block_any_outside_loops_with(&s->parts->body, call_given_the_path, &w, 0);
}

/* `return True` (`literal` "True"), `return False`. */
static bool returns_the_constant(const DlStmt *s, const char *literal) {
    return s && s->kind == DL_ST_RETURN && s->value && s->value->kind == DL_EX_CONST &&
           flow_streq(s->value->name, literal);
}

/* `divisible_by(step, 100)`: a project function (or a method of a project object) whose body
 * (after a docstring) only returns a remainder test (lucidrains' `return (num % den) == 0`, or
 * `if ...: return True` then `return False`) is a periodic condition too. */
static bool calls_a_remainder_test(Flow *F, const DlExpr *e) {
    if (e->kind != DL_EX_CALL || !e->object) return false;
    const DlFunctionInfo *fi = NULL;
    if (e->object->kind == DL_EX_NAME) {
        const char *q = flow_qualify(F, e->object);
        fi = dl_project_find_function(F->env->project, F->env->file, q ? q : e->object->name);
    } else if (e->object->kind == DL_EX_ATTR && e->object->object &&
               (e->object->object->kind == DL_EX_NAME || e->object->object->kind == DL_EX_ATTR)) {
        /* `logger.log_val()`, a method of a project object returning `self._step %
         * self._val_every == 0` (linevd's LogWriter); names and attributes evaluate to what
         * they hold, reporting nothing */
        const DlValue *recv = flow_eval(F, e->object->object);
        if (recv->kind == DL_KIND_INSTANCE && recv->cls)
            fi = dl_project_method(F->env->project, recv->cls, e->object->name);
    }
    const DlBlock *body = fi && fi->fn ? &fi->fn->body : NULL;
    if (!body) return false;
    uint32_t i = 0;
    while (i < body->count && body->items[i]->kind == DL_ST_EXPR && body->items[i]->value &&
           body->items[i]->value->kind == DL_EX_STRING)
        i++;
    if (i + 1 == body->count && body->items[i]->kind == DL_ST_RETURN &&
        takes_a_remainder(body->items[i]->value, 0))
        return true;
    /* `if self._step % self._val_every == 0: return True` then `return False` (linevd's
     * LogWriter.log_val) */
    const DlStmt *test = i + 2 == body->count ? body->items[i] : NULL;
    const DlStmt *last = test ? body->items[i + 1] : NULL;
    return test && test->kind == DL_ST_IF && !test->parts->orelse.count &&
           takes_a_remainder(test->value, 0) && test->parts->body.count == 1 &&
           returns_the_constant(test->parts->body.items[0], "True") &&
           returns_the_constant(last, "False");
}

/* An operand of a test made of the running function's options: a parameter (not `self`) the
 * batch loop never binds, an attribute of one (`args.model_class`), a literal, or a list of
 * them. `*named` is set where one names a parameter. */
static bool option_operand(Flow *F, const DlExpr *e, bool *named, int depth) {
    if (!e || depth > 8) return false;
    switch (e->kind) {
    case DL_EX_NUMBER:
    case DL_EX_STRING:
    case DL_EX_CONST:
        return true;
    case DL_EX_NAME:
        if (dl_ir_is_self(e) || !F->fn || dl_ir_param_index(F->fn, e->name) < 0 ||
            flow_loop_binds(F, F->place.batch_loop, e->name))
            return false;
        *named = true;
        return true;
    case DL_EX_ATTR: {
        const char *key = flow_key_of(F, e);
        return key && option_operand(F, e->object, named, depth + 1) &&
               !flow_loop_binds(F, F->place.batch_loop, key);
    }
    case DL_EX_LIST:
    case DL_EX_TUPLE:
    case DL_EX_SET:
        for (uint32_t i = 0; i < e->item_count; i++)
            if (!option_operand(F, e->items[i], named, depth + 1)) return false;
        return true;
    default:
        return false;
    }
}

/* A name for something that only records the run: a logger, a summary writer, a callback. */
static bool names_a_recorder(const DlExpr *e) {
    static const char *const words[] = {"log",   "writer",  "callback", "hook",    "wandb",
                                        "board", "monitor", "tracker",  "summary", "recorder",
                                        "vis",   "viz",     NULL};
    const char *name = e && (e->kind == DL_EX_NAME || e->kind == DL_EX_ATTR) ? e->name : NULL;
    for (int i = 0; name && words[i]; i++)
        if (strstr(name, words[i])) return true;
    return false;
}

/* `if args.model_class in ["bert-crf", "bert-lstm-crf"]:` in a batch loop: a comparison of the
 * function's options, the same in every iteration, so a branch it guards runs in every one or
 * in none; no periodic guard (`if criterion is not None:` too). Not `if log_writer is not
 * None:`, an optional recorder a caller often leaves off (Diffusion-Policies' agents are handed
 * `None`). */
static bool compares_options(Flow *F, const DlExpr *e) {
    if (!e || e->kind != DL_EX_COMPARE || !F->place.batch_loop || !e->name) return false;
    if ((flow_streq(e->name, "is") || flow_streq(e->name, "is not")) && e->item_count &&
        names_a_recorder(e->items[0]))
        return false;
    bool named = false;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (!option_operand(F, e->items[i], &named, 0)) return false;
    if (e->object && !option_operand(F, e->object, &named, 0)) return false;
    return named;
}

/* Whether block `b` binds `name` to None before `before` (in its statements or blocks nested
 * in them, defs and classes aside). */
static bool binds_none_before(const DlBlock *b, const char *name, uint32_t before, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        for (uint32_t t = 0; s->kind == DL_ST_ASSIGN && t < s->target_count; t++)
            if (s->targets[t]->kind == DL_EX_NAME && flow_streq(s->targets[t]->name, name) &&
                s->value && s->value->kind == DL_EX_CONST && flow_streq(s->value->name, "None"))
                return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (binds_none_before(inner, name, before, depth + 1)) return true;
    }
    return false;
}

/* `if wandb_logger:` of a recorder the function leaves None unless an option asks for one (a
 * parameter defaulting to None, or `wandb_logger = None` before the batch loop, then
 * `wandb_logger = wandb.init(...)` under the option): as `if wandb_logger is not None:`. Not
 * a flag named so (`log=True`), the same in every iteration. */
static bool tests_an_optional_recorder(Flow *F, const DlExpr *e) {
    if (!e || e->kind != DL_EX_NAME || !F->fn || !F->place.batch_loop || !names_a_recorder(e))
        return false;
    int k = dl_ir_param_index(F->fn, e->name);
    if (k >= 0) {
        const DlExpr *d = F->fn->params[k].default_value;
        return d && d->kind == DL_EX_CONST && flow_streq(d->name, "None");
    }
    return binds_none_before(&F->fn->body, e->name, F->place.batch_loop->span.start, 0);
}

/* `all([a, b])`, or `any([a])` of one test: the list (or tuple) of tests, else NULL. */
static const DlExpr *tests_listed(const DlExpr *e) {
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_NAME ||
        e->arg_count != 1 || e->args[0].keyword)
        return NULL;
    const DlExpr *list = e->args[0].value;
    if (!list || (list->kind != DL_EX_LIST && list->kind != DL_EX_TUPLE) || !list->item_count)
        return NULL;
    if (flow_streq(e->object->name, "all")) return list;
    return flow_streq(e->object->name, "any") && list->item_count == 1 ? list : NULL;
}

/* A periodic guard, written out or through flags the batch loop computes each step
 * (nvdiffrast's samples: `display_image = display_interval and (it % display_interval == 0)`
 * then `if display_image or save_mp4:`). */
bool flow_periodic_guard(Flow *F, const DlExpr *e, int depth) {
    if (!e || depth > 16) return false;
    if (compares_options(F, e)) return false;
    if (tests_an_optional_recorder(F, e)) return true;
    if (e->kind == DL_EX_NAME && F->place.batch_loop)
        return block_binds_periodic_flag(&F->place.batch_loop->parts->body, e->name, 0);
    if (e->kind == DL_EX_BOOLOP)
        return flow_periodic_guard(F, e->items[0], depth + 1) ||
               flow_periodic_guard(F, e->items[1], depth + 1);
    if (e->kind == DL_EX_UNARY) return flow_periodic_guard(F, e->object, depth + 1);
    /* `all([monitor and i == monitor_idx])` (a conjunction written as a list), `any([...])`
     * of one test: as the test itself */
    const DlExpr *listed = tests_listed(e);
    for (uint32_t i = 0; listed && i < listed->item_count; i++)
        if (flow_periodic_guard(F, listed->items[i], depth + 1)) return true;
    if (listed) return false;
    if (calls_a_remainder_test(F, e)) return true;
    return flow_periodic_condition(e, depth);
}

/* Whether block `b` sets the flag `name` to what turns its test off (False when `negated` is
 * off, True when it is on): in its own statements, or in a `for` or `with` block in it (EEG
 * decoding's `for i, label in enumerate(labels.tolist()): ... image_reconstructed = True`), which
 * runs when the branch does. */
static bool block_turns_off(const DlBlock *b, const char *name, bool negated, int depth) {
    for (uint32_t i = 0; depth < 4 && i < b->count; i++) {
        const DlStmt *t = b->items[i];
        if (t->kind == DL_ST_FOR || t->kind == DL_ST_WITH) {
            const DlBlock *inner;
            for (uint32_t k = 0; (inner = dl_stmt_block(t, k)); k++)
                if (block_turns_off(inner, name, negated, depth + 1)) return true;
            continue;
        }
        if (t->kind != DL_ST_ASSIGN || t->target_count != 1 || !t->value ||
            t->targets[0]->kind != DL_EX_NAME || !flow_streq(t->targets[0]->name, name))
            continue;
        const DlExpr *v = t->value;
        const char *lit = v->kind == DL_EX_CONST || v->kind == DL_EX_NUMBER ? v->name : NULL;
        bool falsy = lit && (flow_streq(lit, "0") || flow_streq(lit, "False") ||
                             flow_streq(lit, "None"));
        bool truthy = lit && (flow_streq(lit, "1") || flow_streq(lit, "True"));
        return negated ? truthy : falsy;
    }
    return false;
}

/* `if flag: ... flag = 0` (or `if not done: ... done = True`): the branch turns its own test
 * off, so in a loop it runs once, on the first iteration that reaches it (Super-SloMo's
 * validation keeps the first batch's images so). */
static bool runs_once(const DlStmt *s) {
    const DlExpr *c = s->value;
    bool negated = c && c->kind == DL_EX_UNARY && flow_streq(c->name, "not");
    if (negated) c = c->object;
    if (!c || c->kind != DL_EX_NAME) return false;
    return block_turns_off(&s->parts->body, c->name, negated, 0);
}

/* `settings.multi_gpu = False` earlier in the function, not bound anew since: `if
 * settings.multi_gpu:` never runs (pytracking's training settings build their DataParallel
 * wrapper only when the flag is on). Only this function's own bindings, not its parameters'
 * defaults: a module-level flag may be set through `global` elsewhere. `literal` is "False" or
 * "True" (`beamsearch = True` at the top of TSP_Transformer's notebooks: the `if` always runs,
 * and the path past it without it does not exist). */
static const DlValue *switch_as_shipped(Flow *F, const DlExpr *cond);

static bool bound_to(Flow *F, const DlExpr *cond, const char *literal) {
    /* `if load_model is True:` (or `== True`) after `load_model = False`: LapIRN's resume */
    if (cond && cond->kind == DL_EX_COMPARE && cond->item_count == 2 &&
        (flow_streq(cond->name, "is") || flow_streq(cond->name, "==")) &&
        cond->items[1]->kind == DL_EX_CONST && flow_streq(cond->items[1]->name, "True"))
        cond = cond->items[0];
    const DlValue *v = switch_as_shipped(F, cond);
    return v && v->kind == DL_KIND_SCALAR && v->literal && strcmp(v->literal, literal) == 0;
}

const DlExpr *flow_bound_once(const DlBlock *b, const char *name, uint32_t before) {
    return flow_bindings_of(b, name, 0) == 1 ? dl_ir_last_assignment(b, name, before) : NULL;
}

/* How many statements of `b` (nested blocks too, not nested defs) bind `name`: assignments
 * (one of a tuple's names too), `+=`, a loop's target. */
uint32_t flow_bindings_of(const DlBlock *b, const char *name, int depth) {
    uint32_t n = 0;
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_ASSIGN || s->kind == DL_ST_AUGASSIGN || s->kind == DL_ST_FOR)
            for (uint32_t t = 0; t < s->target_count; t++)
                n += dl_ir_target_names(s->targets[t], name);
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            n += flow_bindings_of(inner, name, depth + 1);
    }
    return n;
}

/* What the name or attribute `cond` is bound to, as bound_to reads it, or NULL. A name bound
 * more than once in its scope (`d_path = ""`, then set in a search loop) is no switch. */
static const DlValue *switch_as_shipped(Flow *F, const DlExpr *cond) {
    if (!cond || (cond->kind != DL_EX_NAME && cond->kind != DL_EX_ATTR)) return NULL;
    /* `def get_net_results(loader, in_dist=False)`: a default, which a caller may override;
     * also when `__init__` stores it (`self.centralized = centralized`: maddpg-zoo's agents,
     * built `centralized=True` in another file) */
    if (cond->kind == DL_EX_NAME && F->fn && dl_ir_param_index(F->fn, cond->name) >= 0)
        return NULL;
    if (cond->kind == DL_EX_ATTR && flow_parameter_stored_in(F, cond)) return NULL;
    const char *key = flow_key_of(F, cond);
    const Binding *b = key ? flow_state_find(F->st, key) : NULL;
    /* `MULTI_GPU_TESTING = False` at the top of a script that no function sets `global`
     * (video_interpolation's test scripts): the switch as shipped */
    if (!b && key && cond->kind == DL_EX_NAME && F->env->globals &&
        !flow_enclosing_binds(F, key) &&
        !dl_text_declares_global(F->src->text, key))
        b = flow_state_find(F->env->globals, key);
    if (b && cond->kind == DL_EX_NAME &&
        ((F->fn && flow_bindings_of(&F->fn->body, cond->name, 0) > 1) ||
         flow_bindings_of(&F->env->file->module->body, cond->name, 0) > 1))
        return NULL;
    return b ? b->value : NULL;
}

/* `if INIT_PATH is not None:` after `INIT_PATH = None`, `if MODE == "vq":` after `MODE =
 * "gumbel"` (Kindergarten-VQ-VAE's analysis scripts): a switch as shipped that the test
 * rules out, so the branch never runs. */
static bool ruled_out_as_shipped(Flow *F, const DlExpr *cond) {
    if (!cond || cond->kind != DL_EX_COMPARE || cond->item_count != 2 || !cond->name) return false;
    const DlExpr *l = cond->items[0], *r = cond->items[1];
    if (flow_streq(cond->name, "is not") && r->kind == DL_EX_CONST && flow_streq(r->name, "None")) {
        const DlValue *v = switch_as_shipped(F, l);
        return v && v->kind == DL_KIND_NONE;
    }
    bool equal = flow_streq(cond->name, "=="), unequal = flow_streq(cond->name, "!=");
    if (!equal && !unequal) return false;
    if (l->kind == DL_EX_STRING) {
        const DlExpr *t = l;
        l = r;
        r = t;
    }
    if (r->kind != DL_EX_STRING || !r->name) return false;
    const DlValue *v = switch_as_shipped(F, l);
    if (!v || v->kind != DL_KIND_STRING || !v->literal) return false;
    return equal ? strcmp(v->literal, r->name) != 0 : strcmp(v->literal, r->name) == 0;
}

static bool bound_to_false(Flow *F, const DlExpr *cond) {
    return bound_to(F, cond, "False");
}

/* A call of a random number generator: `random.random()`, `np.random.rand()`, `torch.rand(1)`. */
static bool draws_a_random_number(Flow *F, const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object) return false;
    const char *q = flow_qualify(F, e->object);
    const char *name = q ? q : e->object->name;
    return name && (strstr(name, "random") || flow_streq(name, "torch.rand"));
}

/* The test of a guard whose else runs now and then: `if step % N != 0: ... else: <every N>`,
 * `if random.random() > rate: ... else: <a sample>` (zijundeng's validation images). */
static bool rare_else(Flow *F, const DlExpr *e) {
    if (!e || e->kind != DL_EX_COMPARE || e->item_count != 2 || !e->name) return false;
    const DlExpr *l = e->items[0], *r = e->items[1];
    if (flow_streq(e->name, "!="))
        return (l->kind == DL_EX_BINOP && flow_streq(l->name, "%")) ||
               (r->kind == DL_EX_BINOP && flow_streq(r->name, "%"));
    if (flow_streq(e->name, ">") || flow_streq(e->name, ">=")) return draws_a_random_number(F, l);
    if (flow_streq(e->name, "<") || flow_streq(e->name, "<=")) return draws_a_random_number(F, r);
    return false;
}

/* `if i % 10 != 0 or i == 0: continue` (seq2seq_retrosynthesis' generator): the test of a skip
 * that lets every N-th iteration through (rare_else), alone or in an `or`, which only skips more. */
static bool skips_all_but_every_nth(Flow *F, const DlExpr *e) {
    if (e && e->kind == DL_EX_BOOLOP && flow_streq(e->name, "or")) {
        for (uint32_t i = 0; i < e->item_count; i++)
            if (skips_all_but_every_nth(F, e->items[i])) return true;
        return false;
    }
    /* `if not should_evaluate: continue` of `should_evaluate = step % N == 0 or ...`, `if not
     * (step % 10 == 0): continue` (a plant-disease sanity check's evaluation every N steps) */
    if (e && e->kind == DL_EX_UNARY && e->name && flow_streq(e->name, "not") && e->object &&
        e->object->kind != DL_EX_UNARY)
        return flow_periodic_guard(F, e->object, 0);
    return rare_else(F, e);
}

/* `torch.isnan(loss)`, `torch.isinf(loss).any()`, `math.isnan(x)`, `not torch.isfinite(loss)`,
 * or an `or` of such: a test for a broken value, whose branch runs on a bad batch only, not on
 * every iteration (agcrn-traffic-prediction's NaN report before `continue`). */
static bool tests_for_a_bad_value(Flow *F, const DlExpr *e, bool negated, int depth) {
    if (!e || depth > 4) return false;
    if (e->kind == DL_EX_BOOLOP && e->name && flow_streq(e->name, "or") && !negated) {
        for (uint32_t i = 0; i < e->item_count; i++)
            if (!tests_for_a_bad_value(F, e->items[i], false, depth + 1)) return false;
        return e->item_count > 0;
    }
    if (e->kind == DL_EX_UNARY && e->name && flow_streq(e->name, "not"))
        return tests_for_a_bad_value(F, e->object, !negated, depth + 1);
    if (e->kind != DL_EX_CALL || !e->object) return false;
    /* `.any()` / `.all()` of the elementwise test */
    if (e->object->kind == DL_EX_ATTR && e->object->object && !e->arg_count &&
        (flow_streq(e->object->name, "any") || flow_streq(e->object->name, "all")))
        return tests_for_a_bad_value(F, e->object->object, negated, depth + 1);
    const char *q = flow_qualify(F, e->object);
    if (!q) return false;
    const char *dot = strrchr(q, '.');
    const char *fn = dot ? dot + 1 : q;
    bool lib = strncmp(q, "torch.", 6) == 0 || strncmp(q, "math.", 5) == 0 ||
               strncmp(q, "numpy.", 6) == 0;
    if (!lib) return false;
    if (!negated) return flow_streq(fn, "isnan") || flow_streq(fn, "isinf");
    return flow_streq(fn, "isfinite");
}

/* `if zero_triu:` in a private method (`def _rel_shift(self, x, zero_triu=False)`, Transformer-
 * XL's relative attention, copied into many models) that every call in its file leaves at its
 * default: the branch never runs. (A private method is the class's own: other files do not call
 * it, and a subclass that passes the flag would say so in its file.) */
static bool left_off_by_every_call_of_a_private_method(Flow *F, const DlExpr *cond) {
    if (!F->fn || !F->owner || !cond || cond->kind != DL_EX_NAME || !F->fn->name ||
        F->fn->name[0] != '_' || F->fn->name[1] == '_')
        return false;
    int p = dl_ir_param_index(F->fn, cond->name);
    return p > 0 && flow_off_constant(F->fn->params[p].default_value) &&
           !flow_bindings_of(&F->fn->body, cond->name, 0) &&
           flow_every_method_call_leaves_the_default(F, F->fn, (uint32_t)p);
}

/* A test that fails as the program is shipped: `False`, a switch bound to False or None that
 * the test rules out, an `and` with such a part (`cuda and torch.cuda.is_available()` after
 * `cuda = False`), `not` of a switch bound to True (`not force_cpu` after `force_cpu = True`). */
static bool never_holds(Flow *F, const DlExpr *cond, int depth) {
    if (!cond || depth > 4 || (cond->flags & DL_EXF_CPP)) return false;
    if (never_true(cond) || ruled_out_as_shipped(F, cond) ||
        (bound_to_false(F, cond) && !set_by_its_own_cuda(F, cond)) ||
        left_off_by_every_call_of_a_private_method(F, cond))
        return true;
    if (cond->kind == DL_EX_BOOLOP && flow_streq(cond->name, "and")) {
        for (uint32_t i = 0; i < cond->item_count; i++)
            if (never_holds(F, cond->items[i], depth + 1)) return true;
        return false;
    }
    if (cond->kind == DL_EX_UNARY && flow_streq(cond->name, "not") && cond->object)
        return bound_to(F, cond->object, "True") && !set_by_its_own_cuda(F, cond->object);
    return false;
}

bool flow_never_holds(Flow *F, const DlExpr *cond) {
    return never_holds(F, cond, 0);
}

/* A test that always holds: `True`, or a remainder by 1 tested for 0 (`if total_step % 1 == 0:`,
 * PoseTransfer's every-step log, a period set to 1 in the code), or one of those `or` anything
 * (`if i % 1 == 0 or i == len(loader) - 1:`, Satellite-Image-Road-Segmentation's eval). */
static bool always_holds(const DlExpr *cond) {
    if (cond && cond->kind == DL_EX_BOOLOP && flow_streq(cond->name, "or") &&
        cond->item_count == 2)
        return always_holds(cond->items[0]) || always_holds(cond->items[1]);
    if (!cond || (cond->flags & DL_EXF_CPP) || !cond->name) return false;
    if (cond->kind == DL_EX_CONST) return strcmp(cond->name, "True") == 0;
    if (cond->kind != DL_EX_COMPARE || strcmp(cond->name, "==") != 0 || cond->item_count != 2)
        return false;
    const DlExpr *rem = cond->items[0], *zero = cond->items[1];
    return rem && zero && rem->kind == DL_EX_BINOP && flow_streq(rem->name, "%") &&
           rem->item_count == 2 && rem->items[1] && rem->items[1]->kind == DL_EX_NUMBER &&
           flow_streq(rem->items[1]->name, "1") && zero->kind == DL_EX_NUMBER &&
           flow_streq(zero->name, "0");
}

/* Does a statement at the top of `body` (the `if` `s`'s) bind a name (`name = ...`) that the
 * current state, the path that skips `body`, has no binding for, and that the code after `s`
 * reads (so that path fails there)? */
static bool binds_what_the_other_path_lacks(Flow *F, const DlStmt *s, const DlBlock *body) {
    uint32_t scope_end = F->fn ? F->fn->span.end : (uint32_t)F->src->len;
    for (uint32_t i = 0; i < body->count; i++) {
        const DlStmt *a = body->items[i];
        for (uint32_t t = 0; a->kind == DL_ST_ASSIGN && t < a->target_count; t++)
            if (a->targets[t]->kind == DL_EX_NAME && !flow_state_find(F->st, a->targets[t]->name) &&
                flow_span_names_word(F->src, (DlSpan){s->span.end, scope_end},
                                     a->targets[t]->name, true))
                return true;
    }
    return false;
}

/* `i == 0` (or `0 == i`) of the name `index`. */
static bool tests_for_zero(const DlExpr *e, const char *index) {
    if (!e || e->kind != DL_EX_COMPARE || e->item_count != 2 || !flow_streq(e->name, "=="))
        return false;
    const DlExpr *a = e->items[0], *b = e->items[1];
    if (a && a->kind == DL_EX_NUMBER) {
        const DlExpr *swap = a;
        a = b;
        b = swap;
    }
    return a && b && a->kind == DL_EX_NAME && flow_streq(a->name, index) &&
           b->kind == DL_EX_NUMBER && flow_streq(b->name, "0");
}

void flow_exec_if(Flow *F, const DlStmt *s) {
    /* `if i == 0: out = y` / `else: out = torch.cat((out, y), 1)` in the first round of `for i
     * in range(n)`: only the first arm runs there, replacing the placeholder made before the
     * loop (`out = torch.Tensor()`: a Tacotron's conv bank) */
    if (F->first_round_index && tests_for_zero(s->value, F->first_round_index)) {
        F->first_round_narrowed = true;
        DlPlace saved_place = F->place;
        F->place.every_iteration = false; /* (the first round's own: it runs once) */
        flow_exec_block(F, &s->parts->body);
        F->place = saved_place;
        return;
    }
    if (never_holds(F, s->value, 0)) {
        flow_exec_block(F, &s->parts->orelse);
        return;
    }
    if (always_holds(s->value)) {
        flow_exec_block(F, &s->parts->body);
        return;
    }
    const DlValue *cond = flow_eval(F, s->value);
    /* `if torch.isnan(loss) or torch.isinf(loss):` (ai-toolkit): the `or` waited for the
     * device, and the test of what it gives is reported with it, once */
    if (s->value != F->operand_tested) {
        flow_sync(F, s->value, s->value, cond, "if");
    } else { /* it waited all the same, for the last operand too: nothing is pending after */
        flow_state_set(F->st, "<device-work>", NULL);
        if (flow_is_tensor(cond) && dl_value_on_device(cond)) {
            flow_state_set(F->st, "<unread-work>", NULL);
            F->read_stmt_span = F->stmt_span;
        }
    }
    bool cpu_when_equal = false;
    const char *cpu_device = compared_with_cpu(F, s->value, &cpu_when_equal);
    if (!cpu_device) cpu_device = device_chosen_by_flag(F, s->value, &cpu_when_equal);
    NarrowedToCpu on_cpu = {0};
    DlFlowState *saved = F->st;
    F->st = flow_state_copy(saved);
    const char *narrowed = narrowed_to_other_type(F, s->value);
    if (narrowed) flow_state_set(F->st, narrowed, flow_mk(F, DL_KIND_OTHER));
    int tensor_sign;
    const char *tensor_tested = tested_for_a_tensor(F, s->value, &tensor_sign);
    if (tensor_tested && tensor_sign < 0)
        flow_state_set(F->st, tensor_tested, flow_mk(F, DL_KIND_OTHER));
    if (cpu_device && cpu_when_equal) narrow_to_cpu(F, cpu_device, &on_cpu);
    int cuda_sign;
    const char *cuda_tested = tested_for_cuda(F, s->value, &cuda_sign);
    NarrowedToCpu not_cuda = {0};
    if (cuda_tested && cuda_sign < 0) narrow_key_to_cpu(F, cuda_tested, &not_cuda);
    int flag_sign = 0;
    bool module_flag = flag_the_module_moves_under(F, s->value, &flag_sign);
    NarrowedToCpu module_off = {0};
    if (module_flag && flag_sign < 0)
        narrow_device_to_cpu(F, DL_DEV_MODULE, NULL, false, &module_off);
    DlPlace saved_place = F->place;
    if (F->place.every_iteration &&
        (flow_periodic_guard(F, s->value, 0) || ends_the_loop(&s->parts->body) || runs_once(s) ||
         tests_for_a_bad_value(F, s->value, false, 0) ||
         off_by_default_in_a_summary(F, s->value) || optional_attribute_never_given(F, s->value)))
        F->place.every_iteration = false;
    /* `if not self.training:` in a method: each branch runs in one mode of the module, not on
     * every call (kaggle-hubmap's forward reads back only in eval mode, and its training loop
     * calls `model.train()`) */
    bool mode_branch =
        !F->place.batch_loop && strstr(flow_text(F, s->value->span), "self.training") != NULL;
    if (mode_branch) F->place.every_iteration = false;
    bool always = bound_to(F, s->value, "True") && !(s->value->flags & DL_EXF_CPP);
    int cuda_test = cuda_availability_test(F, s->value);
    int gpu_branch = gpu_branch_of(F, s->value, cuda_test);
    bool saved_without_cuda = F->without_cuda;
    /* `if device == "cpu":` is the CPU's path as `if not torch.cuda.is_available():` is: what a
     * `.cuda()` under `if device != 'cpu':` before it moved is not moved there (MOON's
     * `compute_accuracy` reads `.numpy()` only on that path) */
    F->without_cuda = saved_without_cuda || cuda_test < 0 || (cpu_device && cpu_when_equal);
    if (gpu_branch > 0 || (!gpu_branch && conjunction_needs_a_gpu(F, s->value)) ||
        needs_several_gpus(F, s->value))
        F->place.cuda_checked = true;
    int16_t saved_flag = F->only_when_flag;
    if (!F->only_when_flag) F->only_when_flag = flag_switched_on_by_a_caller(F, s->value);
    /* a branch of an inference loop that writes or shows an output (`if draw_path is not
     * None:` ... `drawer.draw_heatmap(cam, path)`): when it runs, it must read that output
     * back, so its reads add no wait (what the loop reads outside it still does) */
    if (F->place.batch_loop && F->place.every_iteration && !F->place.exports_outputs &&
        !F->place.trains_itself && writes_each_iteration(F, &s->parts->body, 0))
        F->place.exports_outputs = true;
    flow_exec_block(F, &s->parts->body);
    F->only_when_flag = saved_flag;
    bool then_needs_gpu = F->place.cuda_checked;
    F->without_cuda = saved_without_cuda;
    F->place = saved_place;
    undo_narrowing(F->st, &on_cpu);
    undo_narrowing(F->st, &not_cuda);
    undo_narrowing(F->st, &module_off);
    DlFlowState *then_state = F->st;
    F->st = saved;
    if (module_flag && flag_sign > 0)
        narrow_device_to_cpu(F, DL_DEV_MODULE, NULL, false, &module_off);
    if (cpu_device && !cpu_when_equal) narrow_to_cpu(F, cpu_device, &on_cpu);
    if (cuda_tested && cuda_sign > 0) narrow_key_to_cpu(F, cuda_tested, &not_cuda);
    if (tensor_tested && tensor_sign > 0)
        flow_state_set(F->st, tensor_tested, flow_mk(F, DL_KIND_OTHER));
    const char *default_caught = catches_the_default(F, s->value);
    if (default_caught) flow_state_set(F->st, default_caught, flow_unknown());
    /* `if device.type == "cuda": torch.cuda.synchronize()`: without CUDA nothing is pending,
     * after the `if` (no else) or in its else (`if use_cuda: ...synchronize() else: time.time()`,
     * LLMs-from-scratch's throughput timer) */
    const Binding *then_work = flow_state_find(then_state, "<device-work>");
    /* not `if device.type == "mps": torch.mps.synchronize()`, which waits only for Apple's,
     * in a file that may run on CUDA too (one that never names it, or only asks whether it is
     * there, runs on MPS or the CPU: EuroSAT_Classifier's latency benchmark) */
    bool another_accelerator = (compares_a_string(s->value, "==", "mps") ||
                                compares_a_string(s->value, "==", "xpu")) &&
                               names_cuda_beyond_asking(F->src);
    /* (the test written out, or a name the function binds to it once: `is_cuda =
     * self.device.type == "cuda"`, then `if is_cuda:`) */
    const DlExpr *device_test = s->value->kind == DL_EX_NAME && F->fn
                                    ? flow_bound_once(&F->fn->body, s->value->name, s->span.start)
                                    : NULL;
    if (!device_test) device_test = s->value;
    bool synced_when_cuda = then_work && !then_work->value && !another_accelerator &&
                            (strstr(flow_text(F, device_test->span), "cuda") ||
                             strstr(flow_text(F, device_test->span), "device") ||
                             tests_a_list_of_device_tensors(F, s->value));
    /* ... and a read after it waits for nothing (mamba-hybrid-lm's timed step: `if device_type
     * == "cuda": torch.cuda.synchronize()`, then `loss.item()`) */
    const Binding *then_unread = flow_state_find(then_state, "<unread-work>");
    bool read_when_cuda = synced_when_cuda && then_unread && !then_unread->value &&
                          (gpu_branch > 0 || (cpu_device && !cpu_when_equal) ||
                           ((compares_a_string(device_test, "==", "cuda") ||
                             compares_a_string(device_test, "!=", "cpu")) &&
                            !names_another_accelerator(F->src)));
    if (synced_when_cuda && s->parts->orelse.count) flow_state_set(F->st, "<device-work>", NULL);
    if (read_when_cuda && s->parts->orelse.count) flow_state_set(F->st, "<unread-work>", NULL);
    F->without_cuda = saved_without_cuda || cuda_test > 0 || (cpu_device && !cpu_when_equal);
    if (gpu_branch < 0) F->place.cuda_checked = true;
    if (mode_branch || rare_else(F, s->value)) F->place.every_iteration = false;
    if (!always) flow_exec_block(F, &s->parts->orelse);
    bool else_needs_gpu = F->place.cuda_checked;
    F->place = saved_place;
    F->without_cuda = saved_without_cuda;
    /* `model.cuda(args.gpu)` in one branch and `model.cuda()` in the other (bts' main_worker):
     * whichever runs fails without a GPU, so what follows runs only with one; a branch that
     * ends (returns, raises) does not go on */
    bool then_goes_on = !then_state->dead, else_goes_on = !F->st->dead;
    /* `if train: return loss`, then `return loss.item()`: what the function does after runs
     * only when the parameter is false (Flow.only_when_flag, negative) */
    if (!F->only_when_flag && !s->parts->orelse.count && s->parts->body.count &&
        s->parts->body.items[s->parts->body.count - 1]->kind == DL_ST_RETURN)
        F->only_when_flag = (int16_t)-parameter_tested(F, s->value);
    if ((then_needs_gpu || !then_goes_on) && (else_needs_gpu || !else_goes_on) &&
        (then_goes_on || else_goes_on) && s->parts->orelse.count)
        F->place.cuda_checked = true;
    /* the last arm of an `if`/`elif` chain with no else (a `match` without `case _:`) that
     * needs a GPU and binds a name the path past it leaves unbound: `case 'C': model =
     * TypeC().to("cuda")`, where a type no arm takes fails at the next read of `model`
     * (Conv-TasNet's test scripts); what follows runs only with a GPU when every arm does */
    if (then_needs_gpu && then_goes_on && !s->parts->orelse.count &&
        binds_what_the_other_path_lacks(F, s, &s->parts->body))
        F->place.cuda_checked = true;
    if (cpu_device && !cpu_when_equal) undo_narrowing(F->st, &on_cpu);
    if (cuda_tested && cuda_sign > 0) undo_narrowing(F->st, &not_cuda);
    if (module_flag && flag_sign > 0) undo_narrowing(F->st, &module_off);
    if (s->parts->orelse.count) synced_when_cuda = false;
    /* work queued only under a remainder test (`if step % every == 0:` logging an image
     * grid) is pending on few iterations: a read after it waits on those only, as after the
     * test not taken (an SRGAN trainer's second `loss.item()` of its step); only after a read
     * that waited (after one of a value of unknown place, whether the next read is the step's
     * wait is flow_sync's to tell, with the branch's work joined) */
    /* (so is work queued only to repair a NaN, `if np.isnan(pb).any(): pa =
     * torch.nan_to_num(pa)`: on the rare iteration that meets one; and work queued until a file
     * is written, runs_until_it_writes) */
    const Binding *then_pending = flow_state_find(then_state, "<unread-work>");
    bool rare_branch = takes_a_remainder(s->value, 0) ||
                       dl_ir_span_mentions(F->src, s->value->span, "isnan(") ||
                       dl_ir_span_mentions(F->src, s->value->span, "isinf(");
    const Binding *unread_before =
        F->place.batch_loop && F->place.every_iteration && !s->parts->orelse.count && !always &&
                then_pending && then_pending->value && (rare_branch || runs_until_it_writes(F, s))
            ? flow_state_find(F->st, "<unread-work>")
            : NULL;
    /* (after a read that waited, or a blocking upload with nothing else unread) */
    const DlValue *unread_kept = unread_before ? unread_before->value : NULL;
    bool waited_before_the_guard =
        unread_before && (!unread_kept || unread_kept == flow_unread_upload_marker());
    if (always) { /* the path past it without it does not exist */
        flow_state_replace(F->st, then_state);
    } else {
        if (gpu_branch > 0) flow_state_prefer_the_gpu_path(F->st, then_state);
        if (gpu_branch < 0) flow_state_prefer_the_gpu_path(then_state, F->st);
        if (cuda_test < 0) flow_state_forget_the_cpu_bound_only_without_cuda(then_state, F->st);
        if (cuda_test > 0) flow_state_forget_the_cpu_bound_only_without_cuda(F->st, then_state);
        flow_state_join(F->arena, F->st, then_state);
        if (synced_when_cuda) flow_state_set(F->st, "<device-work>", NULL);
        if (synced_when_cuda && read_when_cuda) flow_state_set(F->st, "<unread-work>", NULL);
        if (waited_before_the_guard) flow_state_set(F->st, "<unread-work>", unread_kept);
        if (then_state->dead && F->st->dead) F->st->dead = true;
        dl_flow_state_free(then_state);
    }
    /* `if name[0] != "img_0022": continue` (Bayesian-CSRNet's density plot): the rest of the
     * iteration runs for the one item it picks, as the body of `if name[0] == "img_0022":`
     * would */
    if (F->place.batch_loop && F->place.every_iteration && !s->parts->orelse.count &&
        s->parts->body.count && s->parts->body.items[s->parts->body.count - 1]->kind ==
                                    DL_ST_CONTINUE &&
        (picks_one_value(s->value) || skips_all_but_every_nth(F, s->value)))
        F->place.every_iteration = false;
    /* `if torch.cuda.is_available(): ... else: raise RuntimeError("GPU is required")` (or `if
     * not torch.cuda.is_available(): sys.exit(1)`): what follows runs only with a GPU (LoFTR's
     * demo) */
    if ((gpu_branch > 0 && ends_the_loop(&s->parts->orelse)) ||
        (gpu_branch < 0 && ends_the_loop(&s->parts->body)))
        F->place.cuda_checked = true;
}

/* `exit()`, `quit()`, `sys.exit(1)`, `os._exit(0)`: nothing after it runs (resnet1d's test
 * script exits right after building its model, before its loops). */
static bool exits_the_program(Flow *F, const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object) return false;
    /* a notebook's top level: `exit()` in a cell (Colab's "restart the runtime" idiom) ends
     * that cell's run, and the cells after it are run next (min-decision-transformer's) */
    if (!F->fn && dl_source_is_notebook(F->src)) return false;
    const DlExpr *callee = e->object;
    if (callee->kind == DL_EX_NAME)
        return (flow_streq(callee->name, "exit") || flow_streq(callee->name, "quit")) &&
               !flow_lookup(F, callee->name) && !flow_import(F, callee->name);
    const char *q = callee->kind == DL_EX_ATTR ? flow_qualify(F, callee) : NULL;
    return q && (flow_streq(q, "sys.exit") || flow_streq(q, "os._exit"));
}

void flow_exec_stmt(Flow *F, const DlStmt *s) {
    if (F->env->budget) { /* the work cap (DlFlowEnv.budget) */
        size_t n = F->st->count + (F->env->globals ? F->env->globals->count : 0);
        bool loop = s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE;
        size_t cost = 1 + n + (loop ? (size_t)DL_LOOP_ROUNDS * n * n : 0);
        if (*F->env->budget < cost) {
            *F->env->budget = 0;
            F->st->dead = true;
            return;
        }
        *F->env->budget -= cost;
    }
    DlSpan saved_span = F->stmt_span;
    F->stmt_span = s->span;
    switch (s->kind) {
    case DL_ST_EXPR:
        flow_exec_expr_stmt(F, s);
        if (exits_the_program(F, s->value)) F->st->dead = true;
        break;
    case DL_ST_ASSIGN:
        flow_exec_assign(F, s);
        break;
    case DL_ST_AUGASSIGN:
        flow_exec_augassign(F, s);
        break;
    case DL_ST_RETURN: {
        const DlValue *v = s->value ? flow_eval(F, s->value) : flow_mk(F, DL_KIND_NONE);
        const DlValue **into = F->without_cuda ? &F->ret_without_cuda : &F->ret;
        *into = *into ? dl_value_join(F->arena, *into, v) : v;
        note_return(F, s->value);
        F->st->dead = true;
        break;
    }
    case DL_ST_RAISE:
    case DL_ST_BREAK:
    case DL_ST_CONTINUE:
        F->st->dead = true;
        break;
    case DL_ST_IF:
        flow_exec_if(F, s);
        if (F->place.batch_loop) after_inner_optimization(F, s);
        break;
    case DL_ST_FOR:
    case DL_ST_WHILE:
        flow_exec_loop(F, s);
        break;
    case DL_ST_WITH:
        flow_exec_with(F, s);
        break;
    case DL_ST_TRY:
        flow_exec_try(F, s);
        break;
    case DL_ST_DEF: {
        const DlFunctionInfo *fi = dl_project_function_of(F->env->project, s->parts->func);
        DlValue *v = flow_mk(F, DL_KIND_FUNCTION);
        v->cls = fi;
        if (!fi) v->kind = DL_KIND_OTHER;
        flow_state_set(F->st, s->parts->func->name, v);
        break;
    }
    case DL_ST_CLASS: {
        const DlClassInfo *ci = dl_project_class_of(F->env->project, s->parts->cls);
        DlValue *v = flow_mk(F, DL_KIND_CLASS);
        v->cls = ci;
        if (!ci) v->kind = DL_KIND_OTHER;
        flow_state_set(F->st, s->parts->cls->name, v);
        break;
    }
    case DL_ST_CHECK:
        flow_exec_check(F, s, s->value, 0);
        /* a notebook's top level: a cell's `assert False` ends that cell's run, and the cells
         * after it are run next (as `exit()` there, exits_the_program) */
        if (always_fails(s) && (F->fn || !dl_source_is_notebook(F->src))) F->st->dead = true;
        break;
    case DL_ST_IMPORT:
        for (uint32_t i = 0; i < s->import_count; i++)
            if (s->imports[i].alias && flow_state_find(F->st, s->imports[i].alias))
                flow_state_set(F->st, s->imports[i].alias, NULL);
        break;
    default:
        break;
    }
    F->stmt_span = saved_span;
}

void flow_exec_block(Flow *F, const DlBlock *b) {
    for (uint32_t i = 0; i < b->count; i++) {
        if (F->st->dead) return;
        flow_exec_stmt(F, b->items[i]);
    }
}

static bool is_none(const DlExpr *e) {
    return e->kind == DL_EX_CONST && flow_streq(e->name, "None");
}

/* X in `X | None`, `None | X` and `Optional[X]`; NULL for any other annotation. */
static const DlExpr *optional_of(Flow *F, const DlExpr *a) {
    if (a->kind == DL_EX_BINOP && flow_streq(a->name, "|") && a->item_count == 2) {
        bool none0 = is_none(a->items[0]), none1 = is_none(a->items[1]);
        return none0 != none1 ? a->items[none0 ? 1 : 0] : NULL;
    }
    if (a->kind != DL_EX_SUBSCRIPT || a->item_count != 1) return NULL;
    const char *q = flow_qualify(F, a->object);
    const char *name = q ? q : a->object->kind == DL_EX_NAME ? a->object->name : NULL;
    bool optional = name && (flow_streq(name, "typing.Optional") || flow_streq(name, "Optional"));
    return optional ? a->items[0] : NULL;
}

/* The plain type an annotation names ("int", "float", "bool", "str"), seen through a union with
 * None (`learn_bounds: bool | None`, `Optional[float]`) and a union of numbers (`int | float`);
 * NULL for anything else. */
static const char *plain_annotation(Flow *F, const DlExpr *a, int depth) {
    if (!a || depth > 8) return NULL;
    const DlExpr *inner = optional_of(F, a);
    if (inner) return plain_annotation(F, inner, depth + 1);
    if (a->kind == DL_EX_BINOP && flow_streq(a->name, "|") && a->item_count == 2) {
        const char *l = plain_annotation(F, a->items[0], depth + 1);
        const char *r = plain_annotation(F, a->items[1], depth + 1);
        bool numbers = l && r && !flow_streq(l, "str") && !flow_streq(r, "str");
        return numbers ? l : NULL;
    }
    if (a->kind == DL_EX_SUBSCRIPT) return NULL;
    const char *q = flow_qualify(F, a);
    const char *plain = q ? q : a->kind == DL_EX_NAME ? a->name : NULL;
    static const char *const plain_types[] = {"int", "float", "bool", "str", NULL};
    return plain && dl_name_in_list(plain, plain_types) ? plain : NULL;
}

/* A container of plain values an annotation names (`list[int]`, `tuple[int, ...]`,
 * `Sequence[float]`, `dict[str, int]`, `torch.Size`), also through a union with None: what
 * BoTorch's transforms keep as indices and batch shapes, which hold no device. */
static bool plain_container_annotation(Flow *F, const DlExpr *a, int depth) {
    if (!a || depth > 8) return false;
    const DlExpr *inner = optional_of(F, a);
    if (inner) return plain_container_annotation(F, inner, depth + 1);
    if (a->kind == DL_EX_BINOP) return false;
    const char *q = flow_qualify(F, a->kind == DL_EX_SUBSCRIPT ? a->object : a);
    const DlExpr *named = a->kind == DL_EX_SUBSCRIPT ? a->object : a;
    const char *name = q ? q : named->kind == DL_EX_NAME ? named->name : NULL;
    if (!name) return false;
    if (a->kind != DL_EX_SUBSCRIPT) return flow_streq(name, "torch.Size");
    static const char *const containers[] = {
        "list",  "tuple", "set", "frozenset", "dict", "typing.List", "typing.Tuple", "typing.Set",
        "typing.Dict", "typing.Sequence", "collections.abc.Sequence", "List", "Tuple", "Set",
        "Dict", "Sequence", NULL};
    if (!dl_name_in_list(name, containers) || !a->item_count) return false;
    for (uint32_t i = 0; i < a->item_count; i++) {
        const DlExpr *item = a->items[i];
        bool ellipsis = item->kind == DL_EX_CONST && flow_streq(item->name, "...");
        if (!ellipsis && !plain_annotation(F, item, depth + 1) &&
            !plain_container_annotation(F, item, depth + 1))
            return false;
    }
    return true;
}

/* `List[Dict[str, Any]]`, `Sequence[Batch]`, `dict`: an annotation naming a list, a tuple or a
 * dict, which no DataLoader is, whatever the parameter's name (open-metric-learning's
 * `training_step(self, batch_multidataloader: List[Dict[str, Any]], ...)`). */
static bool names_a_container(Flow *F, const DlExpr *a) {
    if (!a) return false;
    const DlExpr *inner = optional_of(F, a);
    if (inner) a = inner;
    const DlExpr *named = a->kind == DL_EX_SUBSCRIPT ? a->object : a;
    const char *q = flow_qualify(F, named);
    const char *name = q ? q : named->kind == DL_EX_NAME ? named->name : NULL;
    static const char *const containers[] = {
        "list", "tuple", "dict", "typing.List", "typing.Tuple", "typing.Dict", "typing.Sequence",
        "typing.Mapping", "List", "Tuple", "Dict", "Sequence", "Mapping", NULL};
    return name && dl_name_in_list(name, containers);
}

/* Does the test `cond` compare the name `name` with a number written out (`keep_rate == 1.0`,
 * `p > 0`), alone or joined by `and`/`or`/`not`? */
static bool test_compares_with_a_number(const DlExpr *cond, const char *name, int depth) {
    if (!cond || depth > 8) return false;
    if (cond->kind == DL_EX_UNARY && cond->name && flow_streq(cond->name, "not"))
        return test_compares_with_a_number(cond->object, name, depth + 1);
    if (cond->kind == DL_EX_BOOLOP) {
        for (uint32_t i = 0; i < cond->item_count; i++)
            if (test_compares_with_a_number(cond->items[i], name, depth + 1)) return true;
        return false;
    }
    if (cond->kind != DL_EX_COMPARE || cond->item_count != 2) return false;
    for (int side = 0; side < 2; side++) {
        const DlExpr *n = cond->items[side], *number = cond->items[1 - side];
        if (number->kind == DL_EX_UNARY && number->object) number = number->object; /* `-1` */
        if (n->kind == DL_EX_NAME && n->name && flow_streq(n->name, name) &&
            number->kind == DL_EX_NUMBER)
            return true;
    }
    return false;
}

/* Does a statement of `b` (or of a block inside it, not a nested def) test `name` against a
 * number in an `if` or a `while`? */
static bool tested_against_a_number(const DlBlock *b, const char *name, int depth) {
    for (uint32_t i = 0; b && depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if ((s->kind == DL_ST_IF || s->kind == DL_ST_WHILE) &&
            test_compares_with_a_number(s->value, name, 0))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (tested_against_a_number(inner, name, depth + 1)) return true;
    }
    return false;
}

/* A DataLoader a function is handed (`def train(dataloader)`, not annotated). In a file
 * whose DataLoaders collate their batches onto the device (the torchtext tutorial), or that
 * builds a loader of the project's (airbench's `CifarLoader`, NLP-Pytorch-Template's
 * DataLoader subclass), or that has a function returning loaders of device batches: which one
 * it is handed, and so where its batches are, is not known. */
static DlValue *loader_of_a_parameter(Flow *F, const DlParam *p) {
    DlValue *l = flow_loader_value(F, p->span);
    l->var = p->name;
    if (flow_file_collates_onto_a_device(F) || flow_file_builds_a_project_loader(F) ||
        flow_file_gets_loaders_off_the_cpu(F))
        l->elem = flow_unknown();
    return l;
}

/* A device parameter every call hands the CPU (flow_every_call_gives_the_cpu): the CPU. */
static DlValue *the_cpu_parameter(Flow *F, const DlParam *p) {
    DlValue *cpu = flow_mk(F, DL_KIND_DEVICE);
    cpu->dev = DL_DEV_CPU;
    cpu->dev_name = "cpu";
    cpu->literal = "cpu";
    cpu->dev_span = p->span;
    cpu->dev_why = p->name;
    return cpu;
}

const DlValue *flow_param_value(Flow *F, const DlFunction *fn, uint32_t i) {
    const DlParam *p = &fn->params[i];
    if (p->star) return flow_unknown();
    if (i == 0 && F->owner && flow_streq(p->name, "self")) {
        DlValue *self = flow_mk(F, F->owner->is_module ? DL_KIND_MODULE : DL_KIND_INSTANCE);
        if (F->owner->is_module) {
            self->dev = DL_DEV_MODULE;
            /* a container of self (`self.name_to_module = {"": self, "fc": self.fc}`) holds
             * what moves with self anyway: nothing new to register (DL107) */
            self->flags |= DL_VF_REGISTERED | DL_VF_HELD_ELSEWHERE;
        }
        self->cls = F->owner;
        self->var = "self";
        return self;
    }
    if (p->annotation) {
        const char *q = flow_qualify(F, p->annotation);
        /* jaxtyping's `Float[Tensor, "n 3"]` (nerfstudio): a tensor of that shape and dtype */
        const DlExpr *a = p->annotation;
        if (!q && a->kind == DL_EX_SUBSCRIPT && a->item_count >= 2 &&
            (a->object->kind == DL_EX_NAME || a->object->kind == DL_EX_ATTR)) {
            const char *first = flow_qualify(F, a->items[0]);
            if (first && flow_streq(first, "torch.Tensor")) q = first;
        }
        if (q && flow_streq(q, "torch.Tensor")) {
            DlValue *t = flow_mk(F, DL_KIND_TENSOR);
            if (F->is_forward) t->dev = DL_DEV_MODULE, t->origin = DL_ORIGIN_INPUT;
            t->var = p->name;
            t->dev_span = p->span;
            t->dev_why = dl_arena_join(F->arena, "an input of", ' ', fn->name);
            return t;
        }
        /* `criterion: nn.CTCLoss`: which loss it is says what its call reads (CTC's lengths
         * may stay on the CPU) */
        if (q && dl_torch_is_loss_class(q)) {
            DlValue *loss = flow_mk(F, DL_KIND_LOSS);
            loss->literal = q;
            return loss;
        }
        if (q && dl_torch_is_module_class(q)) return flow_mk(F, DL_KIND_MODULE);
        const DlClassInfo *ci = dl_project_find_class(
            F->env->project, F->env->file,
            q ? q : (p->annotation->kind == DL_EX_NAME ? p->annotation->name : ""));
        if (ci && ci->is_module) {
            DlValue *m = flow_mk(F, DL_KIND_MODULE);
            m->cls = ci;
            return m;
        }
        /* `model: DepthPipeline`, a project class that is no module (Marigold's pipeline, whose
         * `__call__` moves its input itself): an instance of it; one whose base devlint cannot
         * see may be a module, and stays unknown unless calling it runs its own `__call__` */
        if (ci && !ci->is_dataset &&
            (!ci->maybe_module || dl_project_method(F->env->project, ci, "__call__"))) {
            DlValue *v = flow_mk(F, DL_KIND_INSTANCE);
            v->cls = ci;
            if (ci->has_own_to) v->flags |= DL_VF_OWN_TO;
            return v;
        }
        /* `device: torch.device`: a device, the CPU when every call hands it the CPU */
        if (q && flow_streq(q, "torch.device"))
            return flow_every_call_gives_the_cpu(F, fn, i) ? the_cpu_parameter(F, p)
                                                           : flow_named_device(F, p->name, p->span);
        /* `preferences: np.ndarray` (imitation's preference loss): host data, no tensor */
        const DlExpr *ann = p->annotation;
        const char *array = flow_qualify(F, ann->kind == DL_EX_SUBSCRIPT ? ann->object : ann);
        if (array && (flow_streq(array, "numpy.ndarray") ||
                      flow_streq(array, "numpy.typing.NDArray")))
            return flow_mk(F, DL_KIND_OTHER);
        /* `dim: int`, `name: str`: a plain value, which no device holds (`device: str` and
         * `gpu: int` name a device, below) */
        const char *plain = plain_annotation(F, p->annotation, 0);
        if (plain && !flow_name_says_device(F, p->name)) {
            if (flow_streq(plain, "int") || flow_streq(plain, "float") || flow_streq(plain, "bool"))
                return flow_mk(F, DL_KIND_SCALAR);
            if (flow_streq(plain, "str")) return flow_mk(F, DL_KIND_STRING);
        }
        /* `val_loader: DataLoader`: torch's own, of batches on the CPU unless a collate moves
         * them (a file's other loaders say nothing of this one); in a file that hands its
         * loaders to Lightning Fabric (`fabric.setup_dataloaders(...)`, whose loaders move
         * each batch to the device), one of those as likely */
        if (q && dl_torch_is_dataloader(q)) {
            DlValue *l = flow_loader_value(F, p->span);
            if (dl_source_mentions(F->src, "setup_dataloaders(")) l->elem = flow_unknown();
            return l;
        }
        if (q && dl_torch_is_graph_container(q)) return flow_graph_container(F);
        if (plain_container_annotation(F, p->annotation, 0) &&
            !flow_name_says_device(F, p->name)) {
            DlValue *s = flow_mk(F, DL_KIND_SEQ);
            s->elem = flow_mk(F, DL_KIND_SCALAR);
            return s;
        }
    }
    /* `device_in_use`, `device_name`: a device too, which every call may hand the CPU
     * (CAT-Transformer's notebooks); not `device_ids`, `device_map` */
    static const char *const device_words[] = {"device_in_use", "device_to_use", "device_used",
                                               "device_name", "device_str", NULL};
    bool says_device = flow_name_says_device(F, p->name);
    if ((says_device || dl_name_in_list(p->name, device_words)) &&
        flow_every_call_gives_the_cpu(F, fn, i))
        return the_cpu_parameter(F, p); /* a CPU-only script's `evaluate(..., "cpu")` */
    if (says_device && (!p->default_value || p->default_value->kind != DL_EX_CONST))
        return flow_named_device(F, p->name, p->span);
    if (flow_streq(p->name, "optimizer") || flow_streq(p->name, "optim") ||
        flow_streq(p->name, "opt") || strstr(p->name, "_optimizer"))
        return flow_mk(F, DL_KIND_OPTIMIZER);
    if (flow_name_says_loader(p->name) && !names_a_container(F, p->annotation)) {
        /* `def test(loader)` that the script calls only as `test(test_loader)`: that loader */
        const DlValue *given = flow_loader_given(F, fn, i);
        if (given) return given;
        DlValue *l = loader_of_a_parameter(F, p);
        /* ... or one every call in the file hands a loader of the whole dataset in one batch
         * (a model's `train_model(train_loader, test_loader, ...)`: its test loop runs once) */
        if (flow_every_call_hands_one_batch(F, fn, i)) l->flags |= DL_VF_ONE_BATCH;
        return l;
    }
    if (p->default_value) {
        /* evaluated once, at import time: a tensor default lives on the CPU for the whole run */
        const DlValue *d = flow_eval(F, p->default_value);
        /* `def plot(train_data=X_train)` in a notebook that later does `X_train =
         * X_train.to(device)`: the module-level state read here is the one at the end, and the
         * default kept what X_train was when the def ran */
        bool placed_later = d->kind == DL_KIND_TENSOR && d->dev != DL_DEV_CPU && !d->home &&
                            d->dev_span.start > fn->span.end;
        if (placed_later) return flow_unknown();
        if (d->kind == DL_KIND_TENSOR || d->kind == DL_KIND_SCALAR) return d;
        return flow_unknown();
    }
    if (F->is_forward && !flow_streq(fn->name, "forward")) {
        /* Lightning steps: (self, batch, batch_idx, ...): the batch arrives on the module's
         * device, the rest are indices */
        if (i != 1) return flow_unknown();
        DlValue *b = flow_mk(F, DL_KIND_TENSOR);
        b->dev = DL_DEV_MODULE;
        b->origin = DL_ORIGIN_INPUT;
        b->flags |= DL_VF_WHOLE_BATCH;
        b->var = p->name;
        b->dev_span = p->span;
        b->dev_why = dl_arena_join(F->arena, "the batch of", ' ', fn->name);
        return b;
    }
    /* `def forward(self, vals, keep_rate):` then `if keep_rate == 1.0: return vals`
     * (DA-GCN's edge dropout): a number, or a tensor of one element (the test of any other
     * fails), and either meets a tensor on any device */
    if (F->is_forward && tested_against_a_number(&fn->body, p->name, 0))
        return flow_mk(F, DL_KIND_SCALAR);
    if (F->is_forward) {
        DlValue *t = flow_mk(F, DL_KIND_TENSOR);
        t->dev = DL_DEV_MODULE;
        /* an input forward reads only on the host (LinearStyleTransfer's masks, resized with
         * `cv2.resize(mask.numpy(), ...)`): where the caller keeps it, not known here */
        if (F->host_only_of == fn && i < DL_MAX_PARAM_BITS &&
            (F->host_only_inputs & (UINT64_C(1) << i)))
            t->dev = DL_DEV_UNKNOWN;
        t->origin = DL_ORIGIN_INPUT;
        t->var = p->name;
        t->dev_span = p->span;
        t->dev_why = dl_arena_join(F->arena, "an input of", ' ', fn->name);
        return t;
    }
    /* `def generate(model, n, device)` that its file calls only as `generate(Net(device), ...)`:
     * an instance of that module, whose forward says what its inputs meet */
    const DlClassInfo *given = flow_module_class_given(F, fn, i);
    if (given) {
        DlValue *m = flow_mk(F, DL_KIND_MODULE);
        m->cls = given;
        m->var = p->name;
        return m;
    }
    return flow_unknown();
}

/* On the device of a plain name other than self (`tensor.device`): a parameter or a local of
 * the method that made it. */
static bool device_of_a_local(const DlValue *v) {
    size_t owner = v->dev == DL_DEV_NAMED ? flow_device_owner_length(v->dev_name) : 0;
    return owner && !memchr(v->dev_name, '.', owner) &&
           !(owner == 4 && strncmp(v->dev_name, "self", 4) == 0);
}

/* Whether a `cuda()` or `to()` that `c` defines (or an `_apply()`, with `apply_too`) writes
 * `format` filled with `attr` (`"self.%s ="`): the text is made only for a class that has
 * such a method, as most have none and this runs for each attribute a method is seeded with. */
static bool own_move_method_mentions(const DlClassInfo *c, const char *format, const char *attr,
                                     bool apply_too, DlArena *arena) {
    const char *text = NULL;
    for (uint32_t k = 0; k < c->cls->method_count; k++) {
        const DlFunction *m = c->cls->methods[k];
        if (strcmp(m->name, "cuda") != 0 && strcmp(m->name, "to") != 0 &&
            !(apply_too && strcmp(m->name, "_apply") == 0))
            continue;
        if (!text) text = dl_arena_printf(arena, format, attr);
        if (dl_ir_span_mentions(c->module->source, m->span, text)) return true;
    }
    return false;
}

/* Whether a `cuda()`, `to()` or `_apply()` that `c` defines rebinds `self.<attr>` (CDAN's
 * RandomLayer: `def cuda(self): super().cuda(); self.random_matrix = [v.cuda() for v in
 * self.random_matrix]`): the class moves that attribute itself, to where a method cannot tell. */
static bool moved_by_its_own_move_method(const DlClassInfo *c, const char *attr, DlArena *arena) {
    return own_move_method_mentions(c, "self.%s =", attr, true, arena);
}

/* Whether a `cuda()` or `to()` that `c` defines moves `self.<attr>` in place
 * (`self.w.to(device=self.device)`). */
static bool moved_in_place_by_its_own_move_method(const DlClassInfo *c, const char *attr,
                                                  DlArena *arena) {
    return own_move_method_mentions(c, "self.%s.to(", attr, false, arena) ||
           own_move_method_mentions(c, "self.%s.cuda(", attr, false, arena);
}

/* A copy of `v` (a container, nested up to `depth`) whose parameters made in it (registered
 * tensors not read from an attribute, as a buffer would be) are on the module's device, or `v`
 * itself when it holds none. */
static const DlValue *parameters_on_the_module(Flow *F, const DlValue *v, int depth) {
    if (!v || depth > 4) return v;
    if (flow_is_tensor(v)) {
        if (!(v->flags & DL_VF_REGISTERED) || (v->flags & DL_VF_HELD_ELSEWHERE)) return v;
        DlValue *r = dl_value_copy(F->arena, v);
        r->dev = DL_DEV_MODULE;
        r->dev_name = NULL;
        r->origin = DL_ORIGIN_NONE;
        return r;
    }
    if (v->kind != DL_KIND_SEQ) return v;
    DlValue *r = NULL;
    const DlValue *elem = parameters_on_the_module(F, v->elem, depth + 1);
    if (elem != v->elem) {
        r = dl_value_copy(F->arena, v);
        r->elem = elem;
    }
    for (uint32_t i = 0; i < v->item_count; i++) {
        const DlValue *item = parameters_on_the_module(F, v->items[i], depth + 1);
        if (item != v->items[i]) r = dl_value_with_item(F->arena, v, r, i, item);
    }
    return r ? r : v;
}

/* A string the class body binds and no method rebinds (`K_CPU = "cpu"`, then
 * `t.to(self.K_CPU)`): `self.K_CPU` reads it. */
static void seed_class_strings(Flow *F, const DlClassInfo *c) {
    const DlBlock *body = &c->cls->body;
    for (uint32_t i = 0; i < body->count; i++) {
        const DlStmt *st = body->items[i];
        if (st->kind != DL_ST_ASSIGN || st->target_count != 1 || !st->value) continue;
        const DlExpr *t = st->targets[0], *e = st->value;
        if (t->kind != DL_EX_NAME || e->kind != DL_EX_STRING || !e->name || e->item_count)
            continue;
        if (dl_project_attr(c, t->name)) continue; /* __init__ sets `self.<name>` too */
        const char *key = dl_arena_join(F->arena, "self", '.', t->name);
        DlValue *v = flow_mk(F, DL_KIND_STRING);
        v->literal = e->name;
        v->dev_span = e->span;
        flow_state_set(F->st, key, v);
    }
}

void flow_seed_attributes(Flow *F, const DlClassInfo *c, int depth) {
    if (!c || depth > 8) return;
    flow_seed_attributes(F, c->base, depth + 1);
    bool same_file = c->module == F->env->file->module;
    for (uint32_t i = 0; i < c->attr_count; i++) {
        const DlValue *v = c->attrs[i].value, *registered;
        if (c->attrs[i].name[0] == '<') continue;
        if (v->kind == DL_KIND_INSTANCE && (v->flags & DL_VF_OWN_TO) &&
            !(v->flags & DL_VF_MOVED) &&
            moved_in_place_by_its_own_move_method(c, c->attrs[i].name, F->arena)) {
            /* an instance with its own to() that the class's to() moves in place (a
             * from-scratch framework's layer, `self.w.to(device=device)` of its weight
             * `Param`): what it holds may have moved since __init__ */
            DlValue *r = dl_value_copy(F->arena, v);
            r->flags |= DL_VF_MOVED;
            v = r;
        } else if ((flow_is_tensor(v) || (v->kind == DL_KIND_SEQ && flow_is_tensor(v->elem))) &&
            moved_by_its_own_move_method(c, c->attrs[i].name, F->arena)) {
            DlValue *r = dl_value_copy(F->arena, v);
            DlValue *t = dl_value_copy(F->arena, flow_is_tensor(v) ? v : v->elem);
            t->dev = DL_DEV_UNKNOWN;
            t->dev_name = NULL;
            t->origin = DL_ORIGIN_NONE;
            if (flow_is_tensor(v)) r = t;
            else r->elem = t, r->items = NULL, r->item_count = 0;
            v = r;
        } else if (F->owner->is_module && (v->flags & DL_VF_REGISTERED) &&
            (flow_is_tensor(v) || flow_is_module_like(v))) {
            DlValue *r = dl_value_copy(F->arena, v);
            r->dev = DL_DEV_MODULE;
            r->dev_name = NULL;
            r->origin = DL_ORIGIN_NONE;
            r->flags &= (uint32_t) ~(DL_VF_CPU_WEIGHT | DL_VF_CONSTRUCTED);
            v = r;
        } else if (!F->owner->is_module && F->owner->maybe_module && flow_is_tensor(v) &&
                   (v->flags & DL_VF_REGISTERED)) {
            /* a parameter or buffer of a class whose base devlint cannot see (torch_geometric's
             * MessagePassing): only a module holds one, and it moves with the module, to where
             * is not known here */
            DlValue *r = dl_value_copy(F->arena, v);
            r->dev = DL_DEV_UNKNOWN;
            r->dev_name = NULL;
            r->origin = DL_ORIGIN_NONE;
            v = r;
        } else if (F->owner->is_module && flow_is_module_like(v) && (v->flags & DL_VF_MOVED) &&
                   (v->dev == DL_DEV_CUDA || v->dev == DL_DEV_META)) {
            /* a submodule pinned to a device in __init__ (model parallelism: `.to("cuda:1")`) */
            DlValue *r = dl_value_copy(F->arena, v);
            r->flags &= (uint32_t) ~(DL_VF_CPU_WEIGHT | DL_VF_CONSTRUCTED);
            v = r;
        } else if (F->owner->is_module && flow_is_module_like(v)) {
            /* a submodule assigned in __init__ is registered: it moves with self */
            DlValue *r = dl_value_copy(F->arena, v);
            r->dev = DL_DEV_MODULE;
            r->dev_name = NULL;
            r->flags &= (uint32_t) ~(DL_VF_CPU_WEIGHT | DL_VF_CONSTRUCTED);
            v = r;
        } else if (F->owner->is_module && v->kind == DL_KIND_SEQ && v->elem &&
                   flow_is_tensor(v->elem) && (v->elem->flags & DL_VF_REGISTERED) &&
                   (v->elem->flags & DL_VF_HELD_ELSEWHERE)) {
            /* `self.w_conv = [self.conv1.weight, ...]`: its submodules' parameters, which move
             * with self */
            DlValue *r = dl_value_copy(F->arena, v);
            DlValue *e = dl_value_copy(F->arena, v->elem);
            e->dev = DL_DEV_MODULE;
            e->dev_name = NULL;
            e->origin = DL_ORIGIN_NONE;
            r->elem = e;
            r->items = NULL;
            r->item_count = 0;
            v = r;
        } else if (F->owner->is_module && v->kind == DL_KIND_SEQ &&
                   dl_project_attr(c, "<registers>") &&
                   dl_ir_span_mentions(c->module->source, c->cls->span, "register_parameter(") &&
                   (registered = parameters_on_the_module(F, v, 0)) != v) {
            /* `self.layers = [(nn.Parameter(...), nn.Parameter(...))]`, each one also given to
             * `self.register_parameter(name, w)`: `.to()` moves a parameter in place, so the
             * list holds them where the module is (realcrane's mixture-of-experts decoder) */
            v = registered;
        } else if (F->owner->is_module && v->kind == DL_KIND_SEQ &&
                   ((v->flags & DL_VF_HAS_MODULES) ||
                    dl_value_any_part(v->elem, flow_is_module_like))) {
            /* a plain list of modules (DL107), or of submodules registered as attributes too
             * (also in pairs: `self.modules.append((a, b))` with each one registered by
             * register_module, sd-scripts' hypernetwork): its elements' device is not known here */
            DlValue *r = dl_value_copy(F->arena, v);
            r->elem = NULL;
            r->items = NULL;
            r->item_count = 0;
            v = r;
        } else if (!F->owner->is_module && flow_is_module_like(v) &&
                   (F->owner->maybe_module ||
                    (F->owner->has_own_to && v->dev == DL_DEV_CPU && !(v->flags & DL_VF_MOVED)))) {
            /* the owner may be a module: then this one is registered and moves with it; or
             * the owner defines its own to() (an RL agent moving its actor and critics): where
             * a module it built is when a method runs is not known */
            DlValue *r = dl_value_copy(F->arena, v);
            r->dev = DL_DEV_UNKNOWN;
            r->dev_name = NULL;
            r->flags &= (uint32_t) ~(DL_VF_CPU_WEIGHT | DL_VF_CONSTRUCTED);
            v = r;
        } else if (F->owner->is_module && flow_is_tensor(v) && v->dev == DL_DEV_CPU &&
                   !(v->flags & DL_VF_ZERO_DIM) && same_file && v->aux_span.end) {
            DlValue *r = dl_value_copy(F->arena, v);
            r->origin = DL_ORIGIN_PLAIN_ATTR;
            v = r;
        } else if (flow_is_tensor(v) && device_of_a_local(v)) {
            /* `self.tensor = torch.as_tensor(tensor, device=tensor.device)` in __init__: where
             * the caller's `tensor` was, which a method cannot name (mmdetection3d's boxes) */
            DlValue *r = dl_value_copy(F->arena, v);
            r->dev = DL_DEV_UNKNOWN;
            r->dev_name = NULL;
            r->origin = DL_ORIGIN_NONE;
            v = r;
        } else if (!same_file) {
            /* a base class's in another file (FEDformer's Exp_Basic, whose __init__ stores
             * `self.device` and `self.model`): as it left them, its spans read in its file */
            v = flow_rebase(F, v, c->module);
        }
        flow_state_set(F->st, dl_arena_join(F->arena, "self", '.', c->attrs[i].name), v);
    }
    if (same_file) seed_class_strings(F, c);
}

/* A statement of `b` (nested blocks too, not nested defs) loops over a parameter of `fn`. */
static bool loops_over_a_parameter(const DlFunction *fn, const DlBlock *b, int depth) {
    for (uint32_t i = 0; b && depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_FOR && s->value && s->value->kind == DL_EX_NAME &&
            dl_ir_param_index(fn, s->value->name) >= 0)
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (loops_over_a_parameter(fn, inner, depth + 1)) return true;
    }
    return false;
}

/* A method that runs on the module's inputs where the module is: `forward`, and the steps
 * Lightning calls with a batch it moved (plain modules copy the names: `training_step(self,
 * batch)` of the classic image-classification tutorials). Not a step that loops over what it is
 * given (`validation_step(self, loader)`: for batch in loader): a helper over a whole loader,
 * read as any other method (deep-uncertainty's loss-landscape CNNs). */
bool flow_is_forward_like(const DlFunction *fn) {
    static const char *const steps[] = {"training_step", "validation_step", "test_step",
                                        "predict_step", NULL};
    return flow_streq(fn->name, "forward") ||
           (dl_name_in_list(fn->name, steps) && !loops_over_a_parameter(fn, &fn->body, 0));
}

/* `@triton.jit` (also `@triton.jit(...)`, `@jit` imported from triton): the body is Triton's
 * language, where `ptr.to(tl.pointer_type(tl.uint64))` casts a pointer and every value lives
 * on the GPU already; nothing in it is PyTorch's placement. */
static bool is_triton_kernel(Flow *F, const DlFunction *fn) {
    for (uint32_t i = 0; i < fn->decorator_count; i++) {
        const DlExpr *d = fn->decorators[i];
        if (d && d->kind == DL_EX_CALL) d = d->object;
        const char *q = d ? flow_qualify(F, d) : NULL;
        if (q && strncmp(q, "triton.", 7) == 0) return true;
        /* `triton = MagicMock()` where the import fails: the name still says what it is */
        const char *dotted = d ? dl_ir_dotted(F->arena, d) : NULL;
        if (dotted && strncmp(dotted, "triton.", 7) == 0) return true;
    }
    return false;
}

bool flow_blocking_upload(const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR) return false;
    const char *m = e->object->name;
    return (flow_streq(m, "cuda") || flow_streq(m, "to")) && dl_ir_non_blocking(e) == 0;
}

/* A return (or the end of the function, `value` NULL): after a wait for the device, nothing
 * queued since? Or handing back a blocking copy, nothing known queued? */
static void note_return(Flow *F, const DlExpr *value) {
    if (F->st->dead) return;
    const Binding *work = flow_state_find(F->st, "<device-work>");
    F->returns++;
    /* only the return's own elementwise arithmetic queued since the wait (`return loss /
     * len(loader)` after the plots' `.cpu()` reads: pruning scripts' `run_validation`): a
     * kernel of a few elements, which a clock read after the call does not mismeasure */
    bool own_arithmetic = work && work->value && work->value->literal && value &&
                          work->value->aux_span.start == F->stmt_span.start &&
                          work->value->aux_span.end == F->stmt_span.end &&
                          strcmp(work->value->literal, "elementwise") == 0;
    if (work && (!work->value || own_arithmetic)) F->waited_returns++;
    if ((!work || !work->value) && flow_blocking_upload(value)) F->upload_returns++;
    if (F->place.cuda_checked) F->gpu_returns++;
}

/* `X.to(device)` or `X.cuda()` as a statement of a function of the file that binds no local
 * `X`: the in-place move of the module-level `X`, whose name that statement gives. */
static const char *global_moved_by(const DlFunction *g, const DlStmt *s) {
    const DlExpr *c = s->kind == DL_ST_EXPR ? s->value : NULL;
    if (!c || c->kind != DL_EX_CALL || !c->object || c->object->kind != DL_EX_ATTR ||
        !c->object->object || c->object->object->kind != DL_EX_NAME ||
        !(flow_streq(c->object->name, "to") || flow_streq(c->object->name, "cuda")))
        return NULL;
    const char *name = c->object->object->name;
    if (dl_ir_param_index(g, name) >= 0 || dl_ir_last_assignment(&g->body, name, UINT32_MAX))
        return NULL;
    return name;
}

/* A module built at the top of the file and moved in place by a function of it (`net =
 * nn.Conv2d(...)`, then `def load(path): ...; net.to(device)`, which the script runs first:
 * ZYFZYF/Image-Style-Transfer's transfer.py): what the functions read of it may have been
 * moved, to where is not known. */
static void moves_in_block(Flow *F, const DlFunction *g, const DlBlock *b, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue; /* their own functions */
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            moves_in_block(F, g, inner, depth + 1);
        const char *name = global_moved_by(g, s);
        const Binding *bound = name ? flow_state_find(F->st, name) : NULL;
        if (!bound || !bound->value || !flow_is_module_like(bound->value) ||
            (bound->value->flags & DL_VF_MOVED))
            continue;
        DlValue *moved = dl_value_copy(F->arena, bound->value);
        moved->flags |= DL_VF_MOVED;
        moved->flags &= (uint32_t) ~(DL_VF_CPU_WEIGHT | DL_VF_CONSTRUCTED);
        moved->dev = DL_DEV_UNKNOWN;
        moved->dev_name = NULL;
        flow_state_set(F->st, name, moved);
    }
}

static void moves_in_functions(Flow *F) {
    const DlModuleIR *m = F->env->file->module;
    for (uint32_t k = 0; k < m->function_count; k++)
        moves_in_block(F, m->functions[k], &m->functions[k]->body, 0);
}

/* A module class with no parameters, buffers or submodules (flow_class_known_stateless) made
 * to transform data: defined in a module named for transforms or augmentation
 * (`datasets/transforms.py`'s BackgroundNoise, audio-tagging), or built in a `Compose([...])`
 * of its own file (`T.Compose([T.ToTensor(), Circle_Crop()])`, fixmatch). Its forward runs
 * where the data it is given is, a DataLoader's worker as often as a model's device: its
 * inputs are not "the module's device". */
/* `schnetpack/transform/atomistic.py`: a folder of the path named `transform(s)` or
 * `augment(ation)(s)` as a whole (not `transformer/`, a model's). */
static bool in_a_transforms_folder(const char *path) {
    static const char *const folders[] = {"transform", "transforms", "augment", "augmentation",
                                          "augmentations", NULL};
    for (const char *p = path, *slash; p && (slash = strchr(p, '/')); p = slash + 1)
        for (int i = 0; folders[i]; i++)
            if ((size_t)(slash - p) == strlen(folders[i]) &&
                strncasecmp(p, folders[i], (size_t)(slash - p)) == 0)
                return true;
    return false;
}

static bool a_stateless_data_transform(const DlFlowEnv *env, const DlClassInfo *owner) {
    const DlModuleIR *m = owner->module;
    if (!m || !m->source || !owner->cls || !owner->cls->name ||
        !flow_class_known_stateless(owner, false, 0))
        return false;
    const char *name = m->module_name ? m->module_name : "";
    if (strcasestr(name, "transform") || strcasestr(name, "augment")) return true;
    if (in_a_transforms_folder(m->source->path)) return true;
    (void)env;
    const char *text = m->source->text, *end = text + m->source->len;
    size_t n = strlen(owner->cls->name);
    for (const char *c = text; (c = memmem(c, (size_t)(end - c), "Compose(", 8)) != NULL; c += 8) {
        const char *close = memmem(c, (size_t)(end - c), "])", 2);
        const char *in = close ? memmem(c, (size_t)(close - c), owner->cls->name, n) : NULL;
        if (in && in + n < end && in[n] == '(' && !dl_source_name_byte(in[-1])) return true;
    }
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
    F.st = flow_state_new();
    F.place.function = fn;
    F.place.every_iteration = env->host_read != NULL; /* each call of it (DlFlowEnv.host_read) */
    if (fn) {
        F.in_init = owner && flow_streq(fn->name, "__init__");
        F.is_forward = owner && owner->is_module && flow_is_forward_like(fn) &&
                       !a_stateless_data_transform(env, owner);
        const DlFunctionInfo *fi = fn->facts;
        F.place.in_worker =
            (owner && owner->loaded_with_workers &&
             (flow_streq(fn->name, "__getitem__") || flow_streq(fn->name, "__getitems__") ||
              flow_streq(fn->name, "__iter__") || flow_streq(fn->name, "__call__"))) ||
            (fi && fi->collate_with_workers);
        /* a helper only __init__ runs is read inside __init__ (flow_inline_method), with the
         * attributes as they are at its call: what __init__ leaves at its end may come later
         * (`self.split_by_runs()` reading NumPy data that `self.format_data()` then moves) */
        bool seeded = owner && !F.in_init && owner->attrs_done &&
                      !(fi && fi->runs_only_in_init);
        if (seeded) flow_seed_attributes(&F, owner, 0);
        if (F.is_forward && flow_streq(fn->name, "forward")) {
            F.host_only_of = fn;
            DlFunctionInfo *cached = owner->attrs_done ? (DlFunctionInfo *)fi : NULL;
            if (cached && cached->host_only_known) {
                F.host_only_inputs = cached->host_only_params;
            } else {
                F.host_only_inputs = flow_host_only_params(F.env->project, fn);
                if (cached) {
                    cached->host_only_params = F.host_only_inputs;
                    cached->host_only_known = true;
                }
            }
        }
        for (uint32_t i = 0; i < fn->param_count; i++)
            flow_state_set(F.st, fn->params[i].name, flow_param_value(&F, fn, i));
        if (!is_triton_kernel(&F, fn)) flow_exec_block(&F, &fn->body);
        note_return(&F, NULL); /* falling off the end */
        if (env->returns_waited)
            *env->returns_waited = F.returns && F.waited_returns == F.returns;
        if (env->returns_blocking_upload)
            *env->returns_blocking_upload = F.returns && F.upload_returns == F.returns;
        if (env->requires_gpu) *env->requires_gpu = F.returns && F.gpu_returns == F.returns;
    } else {
        flow_exec_block(&F, &env->file->module->body);
        moves_in_functions(&F);
    }
    if (out_state) {
        F.st->dead = false;
        *out_state = F.st;
    } else {
        dl_flow_state_free(F.st);
    }
    flow_enclosing_bindings_free(&F);
    return flow_returned(&F);
}

const DlValue *flow_returned(const Flow *F) {
    return F->ret ? F->ret : F->ret_without_cuda;
}
