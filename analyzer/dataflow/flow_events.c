/* What happens at a call besides its value: host syncs, clock reads and queued device work
 * (DL203), loop invariance (DL204), and the call fact the rules read. */
#define _GNU_SOURCE /* memmem */
#include "dataflow/flow_internal.h"
#include "frontend/python.h"

#include <ctype.h>
#include <string.h>

bool flow_is_clock(const char *q) {
    static const char *const clocks[] = {"time.time",
                                         "time.perf_counter",
                                         "time.monotonic",
                                         "time.time_ns",
                                         "time.perf_counter_ns",
                                         "time.monotonic_ns",
                                         "timeit.default_timer",
                                         NULL};
    return strncmp(q, "time", 4) == 0 /* what every clock starts with */ &&
           dl_name_in_list(q, clocks);
}

bool flow_is_synchronize(const char *q, const char *method) {
    const char *torch_member = q && strncmp(q, "torch.", 6) == 0 ? q + 6 : NULL;
    if (torch_member &&
        (flow_streq(torch_member, "cuda.synchronize") ||
         flow_streq(torch_member, "cuda.current_stream") ||
         flow_streq(torch_member, "accelerator.synchronize") ||
         /* Apple's and Intel's GPUs queue their work as CUDA does */
         flow_streq(torch_member, "mps.synchronize") ||
         flow_streq(torch_member, "xpu.synchronize")))
        return true;
    return method && (flow_streq(method, "synchronize") || flow_streq(method, "elapsed_time"));
}

/* Work queued on a device since the last clock read: a call that takes or makes a value on a
 * device (a model on the GPU, a tensor moved there, a helper handed the device). */
bool flow_metadata_method(const char *m) {
    static const char *const list[] = {
        "size",     "element_size", "stride", "is_contiguous", "data_ptr", "get_device",
        "type",     "parameters",   "named_parameters", "state_dict", "train", "eval", NULL};
    /* hooks: `self._register_load_state_dict_pre_hook(f)`, `t.register_hook(f)` only record f */
    return dl_name_in_list(m, list) || flow_is_count_method(m) || strncmp(m, "register_", 9) == 0 ||
           strncmp(m, "_register_", 10) == 0;
}

bool flow_is_count_method(const char *m) {
    static const char *const counts[] = {"numel", "nelement", "dim", "ndimension", NULL};
    return m && dl_name_in_list(m, counts);
}

/* A tensor method that gives a view of the same memory, launching nothing on the device
 * (`reshape`, `flatten` and `contiguous` may copy). */
bool flow_is_view_method(const char *m) {
    static const char *const views[] = {
        "t",      "transpose", "permute",   "view",     "view_as", "unsqueeze", "squeeze",
        "expand", "expand_as", "narrow",    "select",   "detach",  "unflatten", "movedim",
        "swapaxes", "diagonal", "as_strided", "unbind", "split",   "chunk",     NULL};
    return m && dl_name_in_list(m, views);
}

/* `landmark_gt.reshape(n, -1, 2)`, `x.flatten(1)` of a tensor held in a name (or an item of
 * it: `heat[0].flatten()`, an anomaly map's first image): it copies only what is not
 * contiguous, and a tensor kept so is most often a fresh result or a batch moved up,
 * contiguous (PFLD's validation); not one written right after a transpose or a permute. */
static bool reshapes_a_named_tensor(const DlExpr *callee) {
    if (!callee || callee->kind != DL_EX_ATTR || !callee->name ||
        (!flow_streq(callee->name, "reshape") && !flow_streq(callee->name, "flatten")))
        return false;
    const DlExpr *recv = callee->object;
    /* (`heat[0].flatten()`: an item of one by a number written out, contiguous too) */
    if (recv && recv->kind == DL_EX_SUBSCRIPT && recv->item_count == 1 && recv->items[0] &&
        recv->items[0]->kind == DL_EX_NUMBER)
        recv = recv->object;
    return recv && (recv->kind == DL_EX_NAME || recv->kind == DL_EX_ATTR);
}

/* The method the project defines for recv's class (or a project base) that `recv.name(...)`
 * calls, or NULL. */
static const DlFunctionInfo *project_method_of(Flow *F, const DlValue *recv, const char *name) {
    return recv && recv->cls && name &&
                   (recv->kind == DL_KIND_MODULE || recv->kind == DL_KIND_INSTANCE)
               ? dl_project_method(F->env->project, recv->cls, name)
               : NULL;
}

static bool is_project_method(Flow *F, const DlValue *recv, const char *name) {
    return project_method_of(F, recv, name) != NULL;
}

/* `losses.items()`, `outputs.get("loss")`: a list's or a dict's own method, which hands back
 * what it holds and runs no kernel; also of what was taken for a tensor, since no tensor has
 * `items()` (a model's output that is a dict of losses: DDPM trainers). */
bool flow_calls_a_container_method(const DlExpr *call, const DlValue *recv) {
    static const char *const container_methods[] = {"items", "values", "keys", "get", NULL};
    if (!recv || !call->object || call->object->kind != DL_EX_ATTR) return false;
    /* not `batch.to(device)` of a dict-like batch (a `BatchEncoding`), a copy to the device */
    if (flow_is_move_method(call->object->name)) return false;
    return recv->kind == DL_KIND_SEQ || dl_name_in_list(call->object->name, container_methods);
}

/* A method named for logging or showing what it is given (`log_images`, `visualize`,
 * `plot_curves`, `add_image`), not for a log-space computation (`log_prob`, `log_softmax`). */
static bool records_what_it_is_given(const char *m) {
    if (!m) return false;
    static const char *const math[] = {"log_prob", "log_softmax", "logsumexp", "log1p", "logit",
                                       "log_likelihood", "log_det", NULL};
    for (const char *const *w = math; *w; w++)
        if (strncmp(m, *w, strlen(*w)) == 0) return false;
    return strncmp(m, "log", 3) == 0 || strstr(m, "visual") || strncmp(m, "plot", 4) == 0 ||
           strncmp(m, "draw", 4) == 0 || strncmp(m, "add_image", 9) == 0 ||
           strncmp(m, "show", 4) == 0;
}

/* Does the call queue device work? It makes a value on a device, or runs a module, a method
 * or a project function on device values. Builtins (len, print, isinstance) and metadata
 * queries (x.size()) do not. */
bool flow_touches_device(Flow *F, const DlExpr *call, const char *q, const DlValue *recv,
                         const DlValue *const *argv, const DlValue *result) {
    if (dl_torch_wraps_its_tensor(q)) return false; /* `Variable(x.cuda())` */
    /* `best = copy.deepcopy(estimate)`: one copy of a finished value (wire's best image), no
     * work a clock read after it measures */
    if (flow_is_copy(q)) return false;
    if (recv && recv->kind == DL_KIND_STRING) return false; /* `"{:.1f}".format(t)`: a host read */
    if (flow_calls_a_container_method(call, recv)) return false;
    const DlExpr *callee = call->object;
    if (result && result->kind == DL_KIND_TENSOR && dl_value_on_kernel_device(result))
        return !(recv && (flow_is_view_method(callee->name) ||
                          reshapes_a_named_tensor(callee))); /* `Q.t()`: no kernel */
    if (recv) {
        if (flow_metadata_method(callee->name)) return false;
        /* `zero_grad()` sets the gradients to None (set_to_none=True is the default since
         * torch 2.0): no kernel; only `set_to_none=False` zeroes them on the device */
        if (flow_streq(callee->name, "zero_grad")) {
            const DlArg *a = dl_ir_keyword(call, "set_to_none");
            return a && a->value->kind == DL_EX_CONST && flow_streq(a->value->name, "False");
        }
        /* a method of the project's own class, as a project function: it may synchronize
         * inside, and its work is known only by what it returns (checked above) */
        if (is_project_method(F, recv, callee->name)) return false;
        /* `tokenizer.decode(ids[0])`: a tokenizer turns the ids into text on the host, reading
         * them back (CV-VQA-MEDICAL's timed caption), no kernel of its own */
        static const char *const decoders[] = {"decode", "batch_decode", "convert_ids_to_tokens",
                                               "detokenize", NULL};
        if (recv->kind == DL_KIND_UNKNOWN && !recv->dev && dl_name_in_list(callee->name, decoders))
            return false;
        /* `tb_logger.log_registration_visualization(tag, source, warped)`, `vis.plot(x)`: an
         * object of no known kind named for logging or showing what it is given copies it to
         * the host to record it, as a SummaryWriter does (fus-voxelmorph's epoch timer) */
        if (recv->kind == DL_KIND_UNKNOWN && !recv->dev && records_what_it_is_given(callee->name))
            return false;
        /* `self.load_state_dict(...)` in `__init__`, before the module moved itself: nothing
         * has placed it yet, it is on the CPU (Resemblyzer's timed weight load) */
        if (F->in_init && recv->dev == DL_DEV_MODULE && !(recv->flags & DL_VF_MOVED) &&
            callee->kind == DL_EX_ATTR && dl_ir_is_self(callee->object))
            return false;
        /* `model.load_state_dict(best_model_wts)`: copies of the weights, blocking from the host
         * and a memory copy on the device, not work a clock read after it measures (the
         * fine-tuning tutorial's `time.time() - since` after restoring the best weights; a
         * DQN's target network synced every N steps) */
        if (flow_is_module_like(recv) && flow_streq(callee->name, "load_state_dict")) return false;
        if (dl_value_on_kernel_device(recv) && recv->kind != DL_KIND_UNKNOWN &&
            recv->kind != DL_KIND_DEVICE)
            return true;
    } else if (!q && callee->kind == DL_EX_NAME && !flow_lookup(F, callee->name)) {
        return false; /* a builtin */
    }
    /* a project function may synchronise inside (`.item()` for its logs): not known here */
    if (q && !dl_torch_owns(q)) return false;
    if (!q && !recv) {
        const DlValue *fv =
            callee->kind == DL_EX_NAME
                ? flow_lookup(F, callee->name) ? flow_lookup(F, callee->name)->value : NULL
                : NULL;
        if (!fv || fv->kind == DL_KIND_FUNCTION || fv->kind == DL_KIND_UNKNOWN) return false;
        /* `early_stopping(val_loss, model)`: an instance of a project class (no module) run
         * through its own `__call__`, a project method as above (ViT-vs-Raw-IQ's early stopper
         * copies the state dict) */
        if (fv->kind == DL_KIND_INSTANCE && fv->cls &&
            dl_project_method(F->env->project, fv->cls, "__call__"))
            return false;
    }
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (dl_value_on_kernel_device(argv[i]) && argv[i]->kind != DL_KIND_UNKNOWN &&
            argv[i]->kind != DL_KIND_DEVICE)
            return true;
    return false;
}

/* `dist.init_process_group("nccl", ...)` (or `backend="nccl"`): NCCL runs only on GPUs, so
 * the process fails there without one (BackgroundMattingV2's DDP workers). */
static bool joins_an_nccl_group(const DlExpr *call, const char *q) {
    return flow_streq(q, "torch.distributed.init_process_group") && dl_ir_names_nccl_backend(call);
}

/* The project function or method a call runs, when its summary is known. */
static const DlFunctionInfo *project_callee(Flow *F, const DlExpr *call, const DlValue *recv,
                                            const char *method) {
    const DlFunctionInfo *fi = recv ? project_method_of(F, recv, method) : NULL;
    if (fi) return fi;
    /* `pipe(x)`, `self.pipeline(prompt)` (an attribute of a plain object, HunyuanDiT's
     * sampler; a module's own submodules are not looked up: a layer that waits is rare, and
     * every `self.conv(x)` would pay for it): calling an instance of a project class runs its
     * __call__ (the pipeline, returning images on the host); a module's, its forward */
    const DlExpr *callee = call->object;
    if (!callee || (!recv && callee->kind != DL_EX_NAME)) return NULL;
    const DlValue *fv = NULL;
    if (recv && recv->kind != DL_KIND_INSTANCE) {
        /* of a module, only a plain object its class holds (SSD's `self.post_processor(...)`,
         * whose __call__ keeps the boxes that pass with `torch.nonzero`), found among the
         * class's attributes without building the key of every `self.conv(x)` */
        if (recv->kind != DL_KIND_MODULE || !recv->cls || !dl_ir_is_self(callee->object))
            return NULL;
        const DlAttr *held = dl_project_attr(recv->cls, callee->name);
        if (!held || held->value->kind != DL_KIND_INSTANCE) return NULL;
        fv = held->value;
    } else {
        const char *key = flow_key_of(F, callee);
        const Binding *b = key ? flow_lookup(F, key) : NULL;
        fv = b ? b->value : NULL;
    }
    if (!fv) return NULL;
    if (callee->kind == DL_EX_NAME && fv->kind == DL_KIND_FUNCTION && fv->cls)
        return (const DlFunctionInfo *)fv->cls;
    fi = project_method_of(F, fv, "__call__");
    if (!fi && fv->kind == DL_KIND_MODULE) fi = project_method_of(F, fv, "forward");
    return fi;
}

/* `writer.add_scalar(tag, value, step)` (or `add_scalars`) of TensorBoard's SummaryWriter, not
 * a project's own method of that name: it reads a tensor value with `.item()`. */
static bool logs_a_scalar(Flow *F, const DlValue *recv, const char *method) {
    return method && recv && method[0] == 'a' &&
           (flow_streq(method, "add_scalar") || flow_streq(method, "add_scalars")) &&
           !is_project_method(F, recv, method);
}

/* The project function or method `call` runs: a method of a project object (project_callee),
 * or a function of the project named by `q`; NULL for torch's own and for what is not known. */
static const DlFunctionInfo *project_function_called(Flow *F, const DlExpr *call, const char *q,
                                                     const DlValue *recv, const char *method) {
    const DlFunctionInfo *fi = project_callee(F, call, recv, method);
    if (!fi && q && !recv && !dl_torch_owns(q))
        fi = dl_project_find_function(F->env->project, F->env->file, q);
    return fi;
}

/* A number, a string, None, host data (a NumPy array), or a list or tuple of only such:
 * nothing of it is on a device (PML-SchNet's atom counts, `[2, 3]`, whose forward reads a
 * tensor of them with `.tolist()` when it is given one). */
static bool holds_no_tensor(const DlValue *v, int depth) {
    if (!v || depth > 4) return false;
    switch (v->kind) {
    case DL_KIND_SCALAR:
    case DL_KIND_STRING:
    case DL_KIND_NONE:
    case DL_KIND_OTHER:
        return true;
    case DL_KIND_SEQ:
        if (!v->elem && !v->item_count) return false; /* what it holds is not known */
        if (v->elem && !holds_no_tensor(v->elem, depth + 1)) return false;
        for (uint32_t i = 0; i < v->item_count; i++)
            if (!holds_no_tensor(v->items[i], depth + 1)) return false;
        return true;
    default:
        return false;
    }
}

static bool reads_first(const DlFunctionInfo *fi, DlSpan read);
static bool work_or_upload_unread(Flow *F);

/* A project function that reads a device value back on every call (a trainer's `_train_step`
 * ending with `self.total += loss.item()`, DlFunctionInfo.host_read), called in every iteration
 * of a batch loop: the loop waits for the device there (DL201, at the call). `fi`: what the call
 * runs (project_function_called). */
static void host_read_in_callee(Flow *F, const DlExpr *call, const DlFunctionInfo *fi,
                                const DlValue *const *argv) {
    if (!flow_reporter(F)) return;
    if (!fi || !fi->host_read.end) return;
    /* read only under a flag off by default, which this call leaves off; or only where a flag
     * is false, which this call sets (`self.step_loss(x, train=True)`) */
    if (fi->host_read_when > 0 && !flow_call_switches_on(fi, fi->host_read_when - 1, call))
        return;
    /* ... or passes it a flag the batch loop computes from the step (`collect_scalars=
     * is_log_step` of `is_log_step = step % log_every == 0`): on log steps only */
    if (fi->host_read_when > 0 &&
        flow_periodic_guard(F, flow_argument_expr(fi, fi->host_read_when - 1, call), 0))
        return;
    if (fi->host_read_when < 0 && flow_call_sets_true(fi, -fi->host_read_when - 1, call)) return;
    /* what it reads back is the argument it is given (or made from it where it is: hamer's
     * renderer scales its `image` on `image.device` first), and that is on the CPU (MDM's
     * length estimator given the loader's `cap_lens`): nothing to wait for; unless the
     * function moves that parameter itself (`image = image.cuda()`) */
    int16_t param = fi->host_read_parameter;
    const DlValue *read = param ? flow_argument_for(fi, param - 1, call, argv) : NULL;
    if (read && flow_is_tensor(read) && read->dev == DL_DEV_CPU && param - 1 < DL_MAX_PARAM_BITS &&
        !(flow_params_moved_inside(fi->fn) & (UINT64_C(1) << (param - 1))))
        return;
    if (read && holds_no_tensor(read, 0)) return;
    /* one that reads first, before it queues anything (WaveRNN's `get_step()`, `return
     * self.step.data.item()`), right after a read that waited (`loss.item()`): nothing is
     * left to wait for */
    bool nothing_pending = !work_or_upload_unread(F) && reads_first(fi, fi->host_read);
    DlSyncFact fact = {.site = call,
                       .tensor = call,
                       .value = flow_unknown(),
                       .how = "call",
                       .place = &F->place,
                       .callee_read = fi->host_read,
                       .callee_home = fi->module,
                       .nothing_pending = nothing_pending};
    dl_rule_dispatch_sync(F->env->report, &fact);
}

/* `model.to(swa_device)` of a module already on a device: to the device it is on, nothing to
 * do; to the CPU, a copy the host waits for; either way nothing is left running (swa_gaussian
 * moves its SWAG model back and forth around each evaluation). */
static bool moves_a_placed_module(const char *method, const DlValue *recv) {
    return method && recv && flow_is_module_like(recv) && recv->dev &&
           recv->dev != DL_DEV_CPU && flow_is_move_method(method);
}

/* `outputs.append(out)`: a list (or an object of unknown type, whose `append` is almost always
 * a list's) keeps a reference to the tensor; nothing is queued on the device or waited for
 * (FairMOT's test_emb.py appends each label it has just read). */
static bool stores_a_reference(const char *method, const DlValue *recv) {
    static const char *const methods[] = {"append", "extend", "insert", NULL};
    return method && recv && (recv->kind == DL_KIND_SEQ || recv->kind == DL_KIND_UNKNOWN) &&
           !recv->dev && dl_name_in_list(method, methods);
}

/* Code devlint does not see (a project helper, another library, a method of an unknown
 * object) may wait for the device itself: after it, no work is known to be pending. */
bool flow_may_synchronize(Flow *F, const DlExpr *call, const char *q, const DlValue *recv) {
    if (is_project_method(F, recv, call->object->name)) return true;
    if (recv) return recv->kind == DL_KIND_UNKNOWN && !recv->dev;
    if (q) return !dl_torch_owns(q);
    const DlExpr *callee = call->object;
    if (callee->kind != DL_EX_NAME) return true;
    const Binding *b = flow_lookup(F, callee->name);
    if (!b) return !flow_import(F, callee->name) ? false : true; /* builtins */
    return !b->value || b->value->kind == DL_KIND_FUNCTION || b->value->kind == DL_KIND_UNKNOWN;
}

/* The clock and the device queue, for DL203: "<device-work>" is bound to the last device
 * work queued and not yet waited for; a clock reading remembers which one was pending, and the
 * statement it was read in (aux_span). */
const DlValue *flow_clock_read(Flow *F, const DlExpr *call) {
    const Binding *work = flow_state_find(F->st, "<device-work>");
    DlValue *c = flow_mk(F, DL_KIND_CLOCK);
    c->dev_span = call->span;
    c->aux_span = F->stmt_span;
    c->elem = work ? work->value : NULL;
    return c;
}

/* All the work pending when `clock` was read is a little arithmetic queued in the statement
 * that reads it, after the device was last waited for: `print(..., train_l_sum / n,
 * time.time() - start)` once the epoch's evaluation has read its accuracy. What the interval
 * measured was waited for. */
static bool only_arithmetic_in_the_clock_statement(const DlValue *clock) {
    const DlValue *work = clock->elem;
    return work->literal && work->aux_span.start == clock->aux_span.start &&
           work->aux_span.end == clock->aux_span.end;
}

/* All the work pending when `end` was read is elementwise arithmetic queued after a wait that
 * came after `start` (SparseConvNet's training loop reads `.item()`, then adds
 * `stats['loss'] += loss * n`): the interval measured the work up to that wait, and what is
 * left is a few microseconds. (Arithmetic pending since before `start` is what the interval
 * times: `start = time.time(); y = x * 2; time.time() - start` is reported.) */
static bool only_arithmetic_since_a_wait_in_the_interval(const DlValue *end, const DlValue *start) {
    const DlValue *work = end->elem;
    return work->literal && work->aux_span.start >= start->aux_span.end &&
           (!start->elem || start->elem->aux_span.start != work->aux_span.start);
}

/* `end - start`: device work queued after `start` and still pending when `end` was read. */
/* `name = time.time()` among the statements of `b` (and the blocks in it, not nested defs)
 * that start at or after the byte `from`. */
static bool clock_read_into_after(const DlBlock *b, const char *name, uint32_t from, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->span.start >= from && s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
            s->targets[0]->kind == DL_EX_NAME && flow_streq(s->targets[0]->name, name) &&
            s->value && s->value->kind == DL_EX_CALL)
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (clock_read_into_after(inner, name, from, depth + 1)) return true;
    }
    return false;
}

/* The work pending at `end` was queued by a statement after the one reading `end`, so by an
 * earlier round of the loop around them, and the clock `start` names was read again after that
 * statement (`data_time = time.time() - end` at the top of an iteration, the model called,
 * then `end = time.time()`: Scene-Graph-Benchmark's loading time): it was pending at `start`
 * too, and the interval holds only the host's work. */
static bool queued_before_start_in_an_earlier_round(Flow *F, const DlExpr *site,
                                                    const DlValue *end) {
    const DlValue *work = end->elem;
    const DlExpr *start = site->kind == DL_EX_BINOP && site->item_count == 2 ? site->items[1]
                                                                              : NULL;
    if (!work || !work->dev_span.end || work->dev_span.start < end->aux_span.end || !start ||
        start->kind != DL_EX_NAME)
        return false;
    const DlBlock *body = F->fn ? &F->fn->body : &F->env->file->module->body;
    return clock_read_into_after(body, start->name, work->dev_span.end, 0);
}

void flow_timing(Flow *F, const DlExpr *site, const DlValue *end, const DlValue *start) {
    if (!flow_reporter(F) || !end->elem || end->elem == start->elem) return;
    if (queued_before_start_in_an_earlier_round(F, site, end)) return;
    if (only_arithmetic_in_the_clock_statement(end)) return;
    if (only_arithmetic_since_a_wait_in_the_interval(end, start)) return;
    DlTimingFact fact = {site, end->dev_span, start->dev_span, end->elem->dev_span, &F->place};
    dl_rule_dispatch_timing(F->env->report, &fact);
}

/* "<unread-work>" is bound to this while device work may have been queued since the host last
 * surely waited for the device (a read of a value known on the device, a synchronize, a
 * blocking copy from the host); unlike "<device-work>", a call that only may wait
 * (flow_may_synchronize) does not clear it. A host read with none is not a wait of its own
 * (DL201). */
static const DlValue unread_work_marker = {.kind = DL_KIND_OTHER};

/* What "<unread-work>" holds as a batch loop starts while work queued before it is unread: the
 * first iteration's first read waits for it, once. A read with only this pending is no wait of
 * every iteration; an iteration that leaves work unread after its last read makes it the
 * plain marker again where the loop's paths meet (flow_state_join), and the next round of the
 * body reports that read. */
static const DlValue unread_before_the_loop = {.kind = DL_KIND_OTHER};

/* What "<unread-work>" holds after a blocking copy from the host to the device, with no other
 * work unread: the copy has finished, so a read of it right after waits for nothing (byol's
 * `y.to(device).detach().cpu()`); but a project function given it may queue work of its own
 * before it reads it back, so a call's read (DL201 at the call) still counts it. */
static const DlValue unread_upload_marker = {.kind = DL_KIND_OTHER};

const DlValue *flow_unread_work_marker(void) {
    return &unread_work_marker;
}

const DlValue *flow_unread_upload_marker(void) {
    return &unread_upload_marker;
}

const DlValue *flow_unread_before_the_loop(void) {
    return &unread_before_the_loop;
}

/* What "<unread-work>" holds after `y.cpu()` of a value of unknown device copied it while
 * work was pending: that copy waited if `y` was on the device; a read of a device value
 * with nothing queued since shows it was (Flow.unknown_read_site). */
static const char *const unknown_read_literal = "<read of unknown device>";

bool flow_is_unknown_read_mark(const DlValue *v) {
    return v && v->literal == unknown_read_literal;
}

/* A tensor or module on a device (CUDA, a named accelerator, a module's), or a sequence of
 * them: what a call given it, or giving it back, may have queued work for. */
static bool on_the_device(const DlValue *v) {
    for (int depth = 0; v && depth < 4; depth++, v = v->elem) {
        if ((flow_is_tensor(v) || flow_is_module_like(v)) && dl_value_on_device(v)) return true;
        if (v->kind != DL_KIND_SEQ) return false;
        for (uint32_t i = 0; i < v->item_count; i++)
            if (v->items[i] && (flow_is_tensor(v->items[i]) || flow_is_module_like(v->items[i])) &&
                dl_value_on_device(v->items[i]))
                return true;
    }
    return false;
}

/* A builtin that only arranges what it is given (`zip(meters, losses)`, `len(xs)`), queuing
 * nothing on the device; not `sum` or `max`, which add or compare tensors. */
static bool arranges_only(Flow *F, const DlExpr *callee) {
    static const char *const builtins[] = {"zip",  "enumerate", "len",      "list", "tuple",
                                           "dict", "iter",      "reversed", "isinstance",
                                           "hasattr", "getattr", "id",      "type", NULL};
    return callee && callee->kind == DL_EX_NAME && dl_name_in_list(callee->name, builtins) &&
           !flow_lookup(F, callee->name);
}

/* `x.cpu()`, `x.detach().cpu().numpy()`, `loss.item()`: a copy on the host, whatever `x` is; and
 * what NumPy does with it after (`obs.data.cpu().numpy().copy()`, `...numpy()[:, 0]`). */
static bool copied_to_the_host(const DlExpr *e) {
    static const char *const copies[] = {"cpu", "numpy", "item", "tolist", NULL};
    for (int depth = 0; e && depth < 12; depth++) {
        if (e->kind == DL_EX_SUBSCRIPT || e->kind == DL_EX_ATTR) {
            e = e->object;
            continue;
        }
        if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR) return false;
        if (dl_name_in_list(e->object->name, copies)) return true;
        e = e->object->object;
    }
    return false;
}

/* Whether the function's text names a model: `model` anywhere but in an option that holds
 * the model's name (`args.model`, `opt.model`, `cfg.model`: awesome-semantic-segmentation's
 * `save_pred(args, epoch, mask)` formats it into a file name). */
static bool mentions_a_model(const DlFunctionInfo *fi) {
    static const char *const options[] = {"args.", "opt.", "opts.", "cfg.", "config.", NULL};
    const DlSource *src = fi->module->source;
    DlSpan span = fi->fn->span;
    if (span.end > src->len) return true;
    const char *start = src->text + span.start, *end = src->text + span.end, *at = start;
    while ((at = memmem(at, (size_t)(end - at), "model", 5))) {
        bool option = false;
        for (const char *const *o = options; *o && !option; o++) {
            size_t n = strlen(*o);
            const char *before = at - n;
            option = (size_t)(at - start) >= n && memcmp(before, *o, n) == 0 &&
                     (before == start || !dl_source_name_byte(before[-1])) &&
                     !dl_source_name_byte(at[5]);
        }
        if (!option) return true;
        at += 5;
    }
    return false;
}

/* A Python function whose text names none of `words` and no model. */
static bool text_names_none_of(const DlFunctionInfo *fi, const char *const *words) {
    return fi->module->language == DL_LANG_PYTHON && fi->module->source &&
           !dl_project_function_mentions(fi, words) && !mentions_a_model(fi);
}

/* A helper whose text names neither torch nor a device nor a model (Social-STGCNN's
 * `nodes_rel_to_nodes_abs(nodes, init_node)`, NumPy on arrays copied off the device): it
 * queues nothing on the device. */
static bool computes_with_numpy_only(const DlFunctionInfo *fi) {
    static const char *const device_words[] = {"torch", "cuda", ".to(", "net", "forward",
                                               "F.", "nn.", NULL};
    return text_names_none_of(fi, device_words);
}

/* A helper that returns a tensor it made on the host and whose text names no device nor a
 * model (`get_weights4class(method, n, counts)`: class weights from NumPy, then
 * `torch.tensor(w).float()`): torch serves it to wrap host data, and it queues nothing on the
 * device. */
static bool makes_host_tensors_only(const DlFunctionInfo *fi) {
    static const char *const device_words[] = {"cuda", ".to(", "device", "net", "forward",
                                               "F.", "nn.", NULL};
    return fi->ret && fi->ret->kind == DL_KIND_TENSOR && fi->ret->dev == DL_DEV_CPU &&
           text_names_none_of(fi, device_words);
}

/* A project function given a tensor, or a value of unknown kind (Informer's
 * `self._process_one_batch(data, batch_x, ...)`, which moves the batch and runs the model):
 * it may queue work whatever devlint knows of its result; not a meter's `update(loss.item())`,
 * nor `iou_between(pred.cpu(), gt.cpu())`, given tensors on the CPU only. */
static bool project_call_given_tensors(const DlExpr *call, const DlFunctionInfo *fi,
                                       const DlValue *const *argv) {
    if (!fi) return false;
    /* a caller that copies what it hands over to the host (`decode(log_probs.cpu(),
     * idx_to_char)`) hands a host function host data: its other arguments of unknown kind (a
     * vocabulary) are no tensors for the device either (a CTC decoder in an OCR evaluation) */
    bool copied = false;
    for (uint32_t i = 0; i < call->arg_count && !copied; i++)
        copied = copied_to_the_host(call->args[i].value);
    bool tensors = false;
    for (uint32_t i = 0; i < call->arg_count && !tensors; i++)
        tensors = ((flow_is_tensor(argv[i]) && argv[i]->dev != DL_DEV_CPU) ||
                   (argv[i]->kind == DL_KIND_UNKNOWN && !copied)) &&
                  !copied_to_the_host(call->args[i].value);
    return tensors && !computes_with_numpy_only(fi) && !makes_host_tensors_only(fi);
}

/* A function whose body is only `pass`, a docstring, `...` or a bare `return` (read in the
 * text of its file, `src`: a `match` statement is lowered as another statement too). */
static bool does_nothing(const DlFunction *fn, const DlSource *src) {
    for (uint32_t i = 0; i < fn->body.count; i++) {
        const DlStmt *s = fn->body.items[i];
        const DlExpr *v = s->value;
        bool pass = src && s->span.end <= src->len && s->span.end - s->span.start == 4 &&
                    memcmp(src->text + s->span.start, "pass", 4) == 0;
        bool empty = (s->kind == DL_ST_OTHER && !v && !s->target_count && pass) ||
                     (s->kind == DL_ST_EXPR && v &&
                      (v->kind == DL_EX_STRING || (v->kind == DL_EX_CONST &&
                                                   flow_streq(v->name, "Ellipsis")))) ||
                     (s->kind == DL_ST_RETURN &&
                      (!v || (v->kind == DL_EX_CONST && flow_streq(v->name, "None"))));
        if (!empty) return false;
    }
    return fn->body.count > 0;
}

static bool any_on_the_device(const DlValue *const *argv, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (on_the_device(argv[i])) return true;
    return false;
}

/* `torch.save(model.state_dict(), path)` of a module on the device: its tensors are copied to
 * the host as `torch.save(model, path)` copies them (fast-neural-style's checkpoint). */
static bool saves_a_device_modules_state(Flow *F, const DlExpr *save) {
    const DlExpr *obj = save->arg_count && !save->args[0].keyword ? save->args[0].value : NULL;
    if (!obj || obj->kind != DL_EX_CALL || obj->arg_count || !obj->object ||
        obj->object->kind != DL_EX_ATTR || !flow_streq(obj->object->name, "state_dict"))
        return false;
    const char *key = flow_key_of(F, obj->object->object);
    const Binding *b = key ? flow_lookup(F, key) : NULL;
    return b && b->value && flow_is_module_like(b->value) && on_the_device(b->value);
}

/* `read` (a span in fi's file) is in fi's first statement, after a docstring, and copies a
 * name or an element of it (`k[0].cpu()`, not `(x * mask).sum().item()`, which computes
 * first): before the function can have queued any work of its own. */
static bool reads_first(const DlFunctionInfo *fi, DlSpan read) {
    const DlBlock *body = &fi->fn->body;
    uint32_t i = dl_ir_body_start(body);
    if (i >= body->count || read.start < body->items[i]->span.start ||
        read.end > body->items[i]->span.end)
        return false;
    const DlSource *src = fi->module->source;
    if (!src || read.end > src->len) return false;
    const char *p = src->text + read.start, *end = src->text + read.end;
    if (p == end || !(isalpha((unsigned char)*p) || *p == '_')) return false;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_')) p++;
    while (p < end && *p == '[') { /* `[0]`, `[:, 0]`: indices, no calls */
        while (p < end && *p != ']' && *p != '(') p++;
        if (p == end || *p != ']') return false;
        p++;
    }
    return p < end && *p == '.'; /* then the copy: `.cpu()`, `.item()`, `.tolist()` */
}

/* Whether work is marked unread already (most calls of a step come after the first). */
static bool work_unread(Flow *F) {
    const Binding *b = flow_state_find(F->st, "<unread-work>");
    return b && b->value == &unread_work_marker;
}

/* work_unread, or a finished upload a called function may compute with before it reads
 * (unread_upload_marker). */
static bool work_or_upload_unread(Flow *F) {
    const Binding *b = flow_state_find(F->st, "<unread-work>");
    return b && (b->value == &unread_work_marker || b->value == &unread_upload_marker);
}

static bool names_a_placer(const DlSource *src);
static bool runs_as_a_script(const DlModuleIR *m);

/* A blocking copy from the host waits for all the work queued before it (before the loop
 * too), so a read after it with nothing queued since copies finished values: what it leaves is
 * a finished upload (unread_upload_marker), where nothing else was unread; not the mark of a
 * read of unknown device, which a later read tells the place of (flow_sync). */
void flow_upload_finished(Flow *F) {
    flow_state_set(F->st, "<device-work>", NULL);
    const Binding *unread = flow_state_find(F->st, "<unread-work>");
    if (!unread || !unread->value || unread->value == &unread_work_marker ||
        unread->value == &unread_before_the_loop)
        flow_state_set(F->st, "<unread-work>", &unread_upload_marker);
}

void flow_device_work(Flow *F, const DlExpr *site, bool elementwise) {
    /* a script (or notebook) of a project that names no device anywhere, run by no trainer
     * it names, computes on the host: "the module's device" of its forwards is the CPU, no
     * work to wait for (a CPU-only neural-ODE script timing its vector field); not a file of
     * layers another project may import and run on a GPU */
    if (!F->env->project->uses_devices) {
        if (!F->host_only_project) {
            const DlModuleIR *m = F->env->file->module;
            F->host_only_project = m->source && !m->sets_default_device &&
                                           !F->env->project->default_device_set &&
                                           !F->default_device && !names_a_placer(m->source) &&
                                           (dl_source_is_notebook(m->source) ||
                                            runs_as_a_script(m))
                                       ? 1
                                       : -1;
        }
        if (F->host_only_project > 0) return;
    }
    if (!work_unread(F)) flow_state_set(F->st, "<unread-work>", &unread_work_marker);
    const Binding *pending = flow_state_find(F->st, "<device-work>");
    const DlValue *earlier = pending ? pending->value : NULL;
    DlValue *w = flow_mk(F, DL_KIND_OTHER);
    w->dev_span = site->span;
    /* of all the work pending since the device was last waited for: the statement the oldest
     * was queued in, and "elementwise" while every one is (neither is compared by
     * dl_value_equal, so a loop's states still settle) */
    w->aux_span = earlier ? earlier->aux_span : F->stmt_span;
    w->literal = elementwise && (!earlier || earlier->literal) ? "elementwise" : NULL;
    if (earlier) w->flags |= earlier->flags & DL_VF_QUEUED_BEFORE_LOOP;
    flow_state_set(F->st, "<device-work>", w);
}

static void add_loop_key(Flow *F, LoopBindings *lb, const char *key) {
    if (lb->count == lb->cap) { /* grows in the arena: the old arrays are a few words */
        uint32_t cap = lb->cap ? lb->cap * 2 : 16;
        const char **keys = dl_arena_alloc(F->arena, cap * sizeof *keys);
        uint32_t *hashes = dl_arena_alloc(F->arena, cap * sizeof *hashes);
        if (lb->count) {
            memcpy(keys, lb->keys, lb->count * sizeof *keys);
            memcpy(hashes, lb->hashes, lb->count * sizeof *hashes);
        }
        lb->keys = keys;
        lb->hashes = hashes;
        lb->cap = cap;
    }
    lb->keys[lb->count] = key;
    lb->hashes[lb->count++] = flow_key_hash(key);
}

/* The keys assignment target `t` (a name, attribute or nested tuple of them) binds. */
static void gather_target_keys(Flow *F, LoopBindings *lb, const DlExpr *t, int depth) {
    if (!t || depth > 16) return;
    if (t->kind == DL_EX_TUPLE || t->kind == DL_EX_LIST) {
        for (uint32_t i = 0; i < t->item_count; i++)
            gather_target_keys(F, lb, t->items[i], depth + 1);
        return;
    }
    if (t->kind == DL_EX_STARRED) {
        gather_target_keys(F, lb, t->object, depth + 1);
        return;
    }
    const char *k = flow_key_of(F, t);
    if (k) add_loop_key(F, lb, k);
    /* `U[ind, :] = out.data[i]` writes into U: its contents change with the loop (DPSH's code
     * buffer, moved with `U.cuda()` after the writes) */
    if (t->kind == DL_EX_SUBSCRIPT) {
        const DlExpr *base = t->object;
        while (base && base->kind == DL_EX_SUBSCRIPT)
            base = base->object;
        const char *written = base ? flow_key_of(F, base) : NULL;
        if (written) add_loop_key(F, lb, written);
    }
}

/* The name an address or view of an array is taken from: `ph` of
 * `ph.__array_interface__['data'][0]` or `ph.ctypes.data`. */
static const DlExpr *root_name(const DlExpr *e) {
    for (int depth = 0; e && depth < 8; depth++) {
        if (e->kind == DL_EX_NAME) return e;
        if (e->kind != DL_EX_ATTR && e->kind != DL_EX_SUBSCRIPT && e->kind != DL_EX_CALL)
            return NULL;
        e = e->object;
    }
    return NULL;
}

/* A call whose result is dropped may fill what it is given (`np.copyto(buf, data[i])`, a C
 * library's `lib.getBatch(ph_addr)` writing through the address of `ph`: TransE-pytorch's
 * batches): each name it is given, and the array a name given holds the address of, may change
 * in every iteration. Not torch's own functions, nor `print`. */
static void gather_filled_arguments(Flow *F, LoopBindings *lb, const DlExpr *call) {
    const char *q = call->object ? flow_qualify(F, call->object) : NULL;
    if ((q && dl_torch_owns(q)) || !call->object ||
        (call->object->kind == DL_EX_NAME && flow_streq(call->object->name, "print")))
        return;
    const DlModuleIR *m = F->env->file->module;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const DlExpr *a = call->args[i].value;
        if (!a || a->kind != DL_EX_NAME || !a->name) continue;
        add_loop_key(F, lb, a->name);
        const DlExpr *bound = F->fn ? dl_ir_last_assignment(&F->fn->body, a->name, call->span.start)
                                    : NULL;
        if (!bound) bound = dl_ir_last_assignment(&m->body, a->name, UINT32_MAX);
        const DlExpr *array = bound && bound->kind != DL_EX_NAME ? root_name(bound) : NULL;
        if (array && array->name) add_loop_key(F, lb, array->name);
    }
}

static void gather_block_keys(Flow *F, LoopBindings *lb, const DlBlock *b, int depth) {
    if (depth > 64) {
        lb->binds_all = true;
        return;
    }
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        for (uint32_t t = 0; t < s->target_count; t++) gather_target_keys(F, lb, s->targets[t], 0);
        if (s->kind == DL_ST_EXPR && s->value && s->value->kind == DL_EX_CALL)
            gather_filled_arguments(F, lb, s->value);
        /* x.copy_(...), x.add_(...): changed in place; so is a list or dict the loop appends
         * to or updates (`loss_list.append(...)`, then `torch.tensor(loss_list)`: a tensor of
         * what the steps so far gave, not a constant) */
        static const char *const mutators[] = {"append", "extend", "insert", "update",
                                               "pop",    "remove", "clear",  "setdefault", NULL};
        if (s->kind == DL_ST_EXPR && s->value && s->value->kind == DL_EX_CALL &&
            s->value->object->kind == DL_EX_ATTR) {
            const char *m = s->value->object->name;
            if (*m && (m[strlen(m) - 1] == '_' || dl_name_in_list(m, mutators))) {
                const char *recv = flow_key_of(F, s->value->object->object);
                if (recv) add_loop_key(F, lb, recv);
            }
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            gather_block_keys(F, lb, inner, depth + 1);
    }
}

static const LoopBindings *loop_bindings(Flow *F, const DlStmt *loop) {
    for (int i = 0; i < DL_LOOP_BINDINGS_KEPT; i++)
        if (F->loop_bindings[i].loop == loop) return &F->loop_bindings[i];
    LoopBindings *lb = &F->loop_bindings[F->loop_bindings_next];
    F->loop_bindings_next = (F->loop_bindings_next + 1) % DL_LOOP_BINDINGS_KEPT;
    *lb = (LoopBindings){.loop = loop};
    if (loop->kind == DL_ST_FOR && loop->target_count)
        gather_target_keys(F, lb, loop->targets[0], 0);
    gather_block_keys(F, lb, &loop->parts->body, 0);
    return lb;
}

/* Is `key` (re)bound anywhere in the batch loop (its target or its body)? */
bool flow_loop_binds(Flow *F, const DlStmt *loop, const char *key) {
    const LoopBindings *lb = loop_bindings(F, loop);
    if (lb->binds_all) return true;
    uint32_t hash = flow_key_hash(key);
    for (uint32_t i = 0; i < lb->count; i++)
        if (lb->hashes[i] == hash && strcmp(lb->keys[i], key) == 0) return true;
    return false;
}

/* Does `e` denote the same value in every iteration of `loop`: no name or attribute it
 * reads is (re)bound by the loop? (`luma.to(device)`, `torch.tensor([0.3, 0.6]).to(device)`) */
bool flow_expr_invariant(Flow *F, const DlStmt *loop, const DlExpr *e, int depth) {
    if (!e) return true;
    if (depth > 16) return false;
    if (e->kind == DL_EX_NAME)
        for (int i = 0; i < F->comp_count; i++) /* a comprehension's own variable */
            if (strcmp(F->comp_names[i], e->name) == 0) return false;
    const char *key = flow_key_of(F, e);
    if (key) {
        if (flow_loop_binds(F, loop, key)) return false;
        /* `batch["image"]` and `batch.x` change with `batch`, which the loop may bind (its
         * target) without ever binding the key itself */
        if (e->kind == DL_EX_ATTR && strchr(key, '.'))
            return flow_expr_invariant(F, loop, e->object, depth + 1);
        if (e->kind == DL_EX_SUBSCRIPT) {
            if (!flow_expr_invariant(F, loop, e->object, depth + 1)) return false;
            for (uint32_t i = 0; i < e->item_count; i++)
                if (!flow_expr_invariant(F, loop, e->items[i], depth + 1)) return false;
        }
        return true;
    }
    switch (e->kind) {
    case DL_EX_NUMBER:
    case DL_EX_STRING:
    case DL_EX_CONST:
        return true;
    case DL_EX_CALL: {
        /* torch's own functions and tensor methods are pure; next(it), helpers, are not */
        const char *q = flow_qualify(F, e->object);
        /* `torch.Tensor(n, 1).uniform_(-20, 20)`: a method that draws random numbers gives
         * new values each time (torchdyn's hypersolver tutorial) */
        static const char *const draws[] = {
            "uniform_",   "normal_", "random_",     "bernoulli_",  "bernoulli", "exponential_",
            "geometric_", "cauchy_", "log_normal_", "multinomial", NULL};
        bool pure = (q && dl_torch_owns(q) && !dl_torch_is_random(q)) ||
                    (!q && e->object->kind == DL_EX_ATTR &&
                     dl_tensor_method_keeps_device(e->object->name) &&
                     !dl_name_in_list(e->object->name, draws));
        if (!pure) return false;
        for (uint32_t i = 0; i < e->arg_count; i++)
            if (!flow_expr_invariant(F, loop, e->args[i].value, depth + 1)) return false;
        return q || flow_expr_invariant(F, loop, e->object->object, depth + 1);
    }
    case DL_EX_ATTR:
        return flow_expr_invariant(F, loop, e->object, depth + 1);
    case DL_EX_TUPLE:
    case DL_EX_LIST:
    case DL_EX_BINOP:
    case DL_EX_UNARY:
    case DL_EX_SUBSCRIPT:
        if (e->object && !flow_expr_invariant(F, loop, e->object, depth + 1)) return false;
        for (uint32_t i = 0; i < e->item_count; i++)
            if (!flow_expr_invariant(F, loop, e->items[i], depth + 1)) return false;
        return true;
    default:
        return false;
    }
}

/* `model = nn.DataParallel(model).cuda()` run whatever the machine (not in a branch, a
 * conditional expression, after `and` or in a try): without a GPU it fails there, so what
 * follows runs only with one, as after `assert torch.cuda.is_available()` (ActionCLIP's test
 * script, rethinking-network-pruning's `model.cuda()`). */
void flow_note_gpu_required(Flow *F, const DlExpr *call, const DlValue *recv) {
    if (!dl_ir_moves_to_cuda(call) || F->try_depth || F->comp_count) return;
    bool placed =
        flow_is_tensor(recv) || flow_is_module_like(recv) || recv->kind == DL_KIND_UNKNOWN;
    /* an object of a project class whose `.cuda()` comes from a base devlint cannot see (a
     * ScriptModule, MinkowskiEngine's MinkowskiNetwork: PointDSC's FCGF), not its own */
    const DlClassInfo *cls = recv->kind == DL_KIND_INSTANCE ? recv->cls : NULL;
    if (!placed && cls && !cls->has_own_to && !dl_project_method(F->env->project, cls, "cuda"))
        placed = true;
    if (placed) F->place.cuda_checked = true;
}

/* Adds to `found` (two at most, each once) the parameters read_parameter (below) finds in
 * `e`. */
static void read_parameters_from(Flow *F, const DlExpr *e, uint32_t before, int depth, int locals,
                                 int16_t found[2]) {
    for (; e && depth < 16; depth++) {
        const char *method = e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_ATTR
                                 ? e->object->name
                                 : NULL;
        /* `float(true.size(0))`, `int(x.shape[0])`: a shape, kept on the host, reads nothing
         * back (adversarial_robustness_pytorch's accuracy); `query_labels.cuda()`: where the
         * move puts it, whatever the parameter's device (easy-few-shot-learning's
         * `(torch.max(...)[1] == query_labels.cuda()).sum().item()`) */
        if (method && (flow_metadata_method(method) || flow_streq(method, "cuda") ||
                       flow_streq(method, "to")))
            return;
        if (e->kind == DL_EX_ATTR && e->name &&
            (flow_streq(e->name, "shape") || flow_streq(e->name, "ndim")))
            return;
        /* `(preds.argmax(1) == true).sum().float() / float(true.size(0))`: what either operand
         * reads */
        if (e->kind == DL_EX_BINOP || e->kind == DL_EX_COMPARE) {
            for (uint32_t i = 0; i < e->item_count && i < 2; i++)
                read_parameters_from(F, e->items[i], before, depth + 1, locals, found);
            return;
        }
        if (e->kind == DL_EX_NAME) {
            int i = F->fn ? dl_ir_param_index(F->fn, e->name) : -1;
            if (i < 0 && F->fn && locals++ < 4) { /* a local: what it was bound to */
                const DlExpr *value = dl_ir_last_binding(&F->fn->body, e->name, before);
                if (value && value->span.start < before) {
                    before = value->span.start;
                    e = value;
                    continue;
                }
            }
            int16_t read = (int16_t)(i >= 0 && i < INT16_MAX ? i + 1 : 0);
            if (read && found[0] != read && found[1] != read) found[found[0] ? 1 : 0] = read;
            return;
        }
        if (e->kind == DL_EX_CALL) e = e->object && e->object->kind == DL_EX_ATTR ? e->object : NULL;
        if (e && (e->kind == DL_EX_ATTR || e->kind == DL_EX_SUBSCRIPT)) e = e->object;
    }
}

/* The parameters (two at most) read_parameter finds in `e`: both operands of
 * `(preds.argmax(1) == true)`, either of which a caller may hand on the device. */
static void read_parameters(Flow *F, const DlExpr *e, int16_t found[2]) {
    found[0] = found[1] = 0;
    read_parameters_from(F, e, e ? e->span.start : 0, 0, 0, found);
}

/* The parameter (1 + its index) a value read on the host is computed from by methods,
 * attributes, subscripts and arithmetic (`y_pred.double().data.cpu()`, `(a == b).sum() / n`),
 * through the locals bound so on the way (`preds = outputs.argmax(1)`, `correct =
 * preds.eq(labels)`, then `correct.float().mean().item()`: Landmark2019's accuracy), or 0. */
static int16_t read_parameter(Flow *F, const DlExpr *e) {
    int16_t found[2];
    read_parameters(F, e, found);
    return found[0];
}

/* "The module's device" is the CPU: nothing in the project names a device, or this file, which
 * no other file may read (so its modules are built and run here; a file that only shares a
 * class name with it may: Popular-RL-Algorithms' PPO scripts each define their own `PPO`),
 * names none and hands its modules to no trainer that places them (its ppo_gae_discrete.py,
 * whose PPO module is never moved, reads `self.v(s).detach().numpy()`), or a notebook that
 * names none (ABSA-Transformer's clustering test). */
/* `device=model.device` after a `device` keyword at `p`: the value's own device handed on. */
static bool handed_a_values_own_device(const char *p, const char *end) {
    if (p >= end || *p != '=' || (p + 1 < end && p[1] == '=')) return false;
    const char *v = p + 1, *stop = v;
    while (stop < end && *stop != ',' && *stop != ')' && *stop != '\n') stop++;
    while (stop > v && (stop[-1] == ' ' || stop[-1] == '\t')) stop--;
    return stop - v > 7 && memcmp(stop - 7, ".device", 7) == 0;
}

/* Whether the text may place something on a device: `.to(`, a `"meta"` device, `cuda` other
 * than in a seed or a query (`torch.cuda.manual_seed(seed)`, `torch.cuda.is_available()`),
 * `device` other than a value's own read (`device=model.device`); outside comments. Less than
 * DlModuleIR.mentions_devices, which any of those words sets (CS224n's sanity checks seed CUDA
 * and build inputs on `model.device` of a model nothing moves). */
static bool may_place_on_a_device(const DlSource *src) {
    if (dl_source_mentions_outside_comments(src, ".to(") ||
        dl_source_mentions_outside_comments(src, "\"meta\""))
        return true;
    static const char *const queries[] = {".manual_seed", ".is_available", ".device_count",
                                          ".empty_cache", NULL};
    const char *end = src->text + src->len;
    for (const char *p = src->text; (p = memmem(p, (size_t)(end - p), "cuda", 4)); p += 4) {
        const char *line = dl_source_line_start_of(src->text, p);
        if (memchr(line, '#', (size_t)(p - line))) continue;
        bool query = false;
        for (int q = 0; queries[q] && !query; q++)
            query = (size_t)(end - p - 4) >= strlen(queries[q]) &&
                    memcmp(p + 4, queries[q], strlen(queries[q])) == 0;
        if (!query) return true;
    }
    for (const char *p = src->text; (p = memmem(p, (size_t)(end - p), "device", 6)); p += 6) {
        const char *line = dl_source_line_start_of(src->text, p);
        if (memchr(line, '#', (size_t)(p - line))) continue;
        if (p > src->text && p[-1] == '.' && !(p - src->text >= 6 && !memcmp(p - 6, "torch.", 6)))
            continue; /* `model.device`: a value's own */
        if (handed_a_values_own_device(p + 6, end)) continue;
        return true;
    }
    return false;
}

/* `word` written outside the command line's option declarations (`help='Use GPU or not'`
 * describes an option; only reading it can place anything). */
static bool mentions_outside_options(const DlSource *src, const char *word) {
    const char *end = src->text + src->len;
    size_t n = strlen(word);
    for (const char *p = src->text; (p = memmem(p, (size_t)(end - p), word, n)); p += n)
        if (!dl_python_in_an_option_declaration(src, p)) return true;
    return false;
}

/* The text names what may place modules on a device without naming one: a GPU, an
 * accelerator, a trainer (Lightning's, Accelerate's `prepare(`). */
static bool names_a_placer(const DlSource *src) {
    static const char *const placers[] = {"gpu", "GPU", "accelerat", "Trainer", "lightning",
                                          "prepare(", "setup(", NULL};
    for (const char *const *w = placers; *w; w++)
        if (mentions_outside_options(src, *w)) return true;
    return false;
}

bool flow_modules_stay_on_the_cpu(Flow *F) {
    if (!F->env->project->uses_devices) return true;
    const DlFileFacts *f = F->env->file;
    /* nothing imports a notebook, whatever names it shares with the project's files */
    bool alone = f->module->read_by_no_other_file ||
                 (f->module->source && dl_source_is_notebook(f->module->source));
    /* (a method of a class the file defines is the class's, which another file may build and
     * move by name: a registry's `@META_ARCH_REGISTRY.register()` class reads `y.device` and
     * places nothing itself) */
    if (!alone || (f->module->mentions_devices &&
                   (F->owner || may_place_on_a_device(f->module->source))))
        return false;
    return !names_a_placer(f->module->source);
}

/* The file runs as a script: a top-level `if __name__ == "__main__":`, a loop, or a call as a
 * statement (`print(field(0.0, x))`). */
static bool runs_as_a_script(const DlModuleIR *m) {
    for (uint32_t i = 0; m->source && i < m->body.count; i++) {
        const DlStmt *s = m->body.items[i];
        if (s->kind == DL_ST_IF && s->value &&
            dl_ir_span_mentions(m->source, s->value->span, "__name__") &&
            dl_ir_span_mentions(m->source, s->value->span, "__main__"))
            return true;
        if (s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE ||
            (s->kind == DL_ST_EXPR && s->value && s->value->kind == DL_EX_CALL))
            return true;
    }
    return false;
}

bool flow_script_modules_stay_on_the_cpu(Flow *F) {
    const DlModuleIR *m = F->env->file->module;
    if (!m->source) return false;
    bool notebook = dl_source_is_notebook(m->source);
    if (!notebook && F->env->project->uses_devices &&
        (!m->read_by_no_other_file || (m->mentions_devices && F->owner)))
        return false; /* (what flow_modules_stay_on_the_cpu would say, before the scan below) */
    return (notebook || runs_as_a_script(m)) && flow_modules_stay_on_the_cpu(F);
}

/* A read back of a value whose device is not known, with work pending in an iteration of a
 * batch loop: if a read of a device value follows with nothing queued since, this one was the
 * iteration's wait (Flow.unknown_read_site). */
static void mark_unknown_read(Flow *F, const DlExpr *site, const DlExpr *tensor) {
    DlValue *m = flow_mk(F, DL_KIND_OTHER);
    m->literal = unknown_read_literal;
    m->dev_span = site->span;
    m->aux_span = F->place.batch_loop->span; /* its loop's: another loop's read is no wait */
    F->unknown_read_site = site;
    F->unknown_read_tensor = tensor;
    flow_state_set(F->st, "<unread-work>", m);
}

/* Host syncs: reading a device tensor's value on the CPU. */
void flow_sync(Flow *F, const DlExpr *site, const DlExpr *tensor, const DlValue *v,
               const char *how) {
    /* the host waits for the device whenever it reads a tensor's value (wherever it lives) */
    const Binding *unread = flow_state_find(F->st, "<unread-work>");
    bool nothing_pending = !unread || !unread->value || unread->value == &unread_before_the_loop ||
                           unread->value == &unread_upload_marker;
    /* all that is pending is elementwise arithmetic queued in this very statement, after an
     * earlier read in it (deepvecfont's log line: `f"{loss.item()}, ... {w * l['vggpt']:.6f}"`):
     * a one-element product, not the step's work (as DL203 has it for a clock) */
    const Binding *work = flow_state_find(F->st, "<device-work>");
    bool read_in_this_statement = F->read_stmt_span.end &&
                                  F->read_stmt_span.start == F->stmt_span.start &&
                                  F->read_stmt_span.end == F->stmt_span.end;
    if (!nothing_pending && read_in_this_statement && work && work->value &&
        work->value->literal &&
        flow_streq(work->value->literal, "elementwise") &&
        work->value->aux_span.start == F->stmt_span.start &&
        work->value->aux_span.end == F->stmt_span.end)
        nothing_pending = true;
    const DlValue *after_unknown_read =
        unread && flow_is_unknown_read_mark(unread->value) ? unread->value : NULL;
    /* a read in the batch loop after the one that read back (Trainer.train's validation loop
     * after its training loop, Improved-ArcFace): that read was its own loop's wait, and what
     * waits here is this loop's work, not known to be nothing */
    if (after_unknown_read &&
        (!F->place.batch_loop ||
         after_unknown_read->aux_span.start != F->place.batch_loop->span.start ||
         after_unknown_read->aux_span.end != F->place.batch_loop->span.end))
        after_unknown_read = NULL;
    bool device_read = flow_is_tensor(v) && dl_value_on_device(v);
    bool device_unknown = v->kind == DL_KIND_UNKNOWN || (flow_is_tensor(v) && !v->dev);
    bool explicit_read = flow_streq(how, "item") || flow_streq(how, "tolist") ||
                         flow_streq(how, "cpu");
    if (flow_is_tensor(v) || v->kind == DL_KIND_UNKNOWN)
        flow_state_set(F->st, "<device-work>", NULL);
    if (device_read) {
        flow_state_set(F->st, "<unread-work>", NULL);
        F->read_stmt_span = F->stmt_span;
    }
    /* `model(data)["features"].cpu()`, the model a parameter: what is copied to the host is of
     * unknown device, but one writes `.cpu()` for what is on a device; the copy waited, and a
     * read right after it (`label.cpu()`) waits for nothing (PyCIL's replace_fc). That read
     * shows the iteration works on the device: the first such read before it (`.item()` and
     * `.tolist()` too: BERT-NER's `tmp_eval_loss.item()`, then `logits.cpu()`) is reported,
     * as its wait. */
    /* a test of what is surely a tensor (`if torch.isnan(loss) or torch.isinf(loss):`) reads
     * it as `.item()` does: where the device is, it waits (ddpm-sandbox's NaN guard) */
    bool tests_a_tensor = flow_is_tensor(v) && (flow_streq(how, "if") || flow_streq(how, "bool") ||
                                                flow_streq(how, "not"));
    if (device_unknown && (explicit_read || tests_a_tensor) && !after_unknown_read) {
        if (!nothing_pending && F->place.batch_loop && F->place.every_iteration) {
            mark_unknown_read(F, site, tensor);
        } else if (flow_streq(how, "cpu")) {
            flow_state_set(F->st, "<unread-work>", NULL);
        }
    }
    if (after_unknown_read && device_read) {
        nothing_pending = true;
        const DlExpr *first = F->unknown_read_site;
        if (first && first->span.start == after_unknown_read->dev_span.start &&
            first->span.end == after_unknown_read->dev_span.end && flow_reporter(F) &&
            !(v->dev == DL_DEV_MODULE && flow_modules_stay_on_the_cpu(F))) {
            DlSyncFact fact = {.site = first,
                               .tensor = F->unknown_read_tensor,
                               .value = v,
                               .how = "first-read",
                               .place = &F->place,
                               .callee_read = tensor->span};
            dl_rule_dispatch_sync(F->env->report, &fact);
        }
    }
    /* summary mode: a parameter of unknown device read back on every call; also as a number
     * (CLAM's Accuracy_Logger.log: `Y_hat = int(Y_hat)`), which a caller counts only when it
     * hands a tensor on the device */
    int16_t *param = F->env->reads_parameter_back;
    bool number_read = flow_streq(how, "int") || flow_streq(how, "float");
    if (param && !param[1] && F->place.every_iteration && !F->place.batch_loop &&
        device_unknown && (explicit_read || number_read)) {
        int16_t reads[2];
        read_parameters(F, tensor, reads);
        for (int k = 0; k < 2 && reads[k] && !param[1]; k++) {
            int slot = param[0] ? 1 : 0;
            if (reads[k] != param[0]) {
                param[slot] = reads[k];
                F->env->parameter_read[slot] = site->span;
                if (F->env->parameter_copied) F->env->parameter_copied[slot] = explicit_read;
            }
        }
    }
    if (!flow_is_tensor(v) || !dl_value_on_device(v)) return;
    if (v->dev == DL_DEV_MODULE && flow_modules_stay_on_the_cpu(F)) return;
    if (v->flags & DL_VF_MADE_WHERE_DEVICES_MEET) return; /* it raised before (DL111) */
    /* summary mode: the first explicit read on every call (DlFlowEnv.host_read); not `if x:`
     * or `print(x)` of a parameter, which may hold anything (a forward's `mode` string), nor
     * one in a batch loop of its own (an `evaluate(model, loader)`), reported there */
    DlSpan *first = F->env->host_read;
    /* not one that rolls out an episode (beyond-nanogpt's `get_batch`: `a = action.item()`,
     * then `env.step([a])`): the simulator needs each action on the host, as inline (DL201) */
    int16_t *when = F->env->host_read_when;
    /* a read on every call takes the place of one only under a flag (Flow.only_when_flag) */
    bool free_slot = first && (!first->end || (when && *when && !F->only_when_flag));
    if (free_slot && F->place.every_iteration && !F->place.batch_loop && explicit_read &&
        !flow_function_steps_an_environment(F->fn) && !flow_function_solves_on_the_host(F->fn)) {
        *first = site->span;
        if (F->env->host_read_parameter) *F->env->host_read_parameter = read_parameter(F, tensor);
        if (when) *when = F->only_when_flag;
    }
    if (!flow_reporter(F)) return;
    DlSyncFact fact = {.site = site,
                       .tensor = tensor,
                       .value = v,
                       .how = how,
                       .place = &F->place,
                       .nothing_pending = nothing_pending,
                       .without_cuda = F->without_cuda && !flow_on_a_named_accelerator(v)};
    dl_rule_dispatch_sync(F->env->report, &fact);
}

/* A list of tensors on a device handed to NumPy (`np.mean(losses)` after
 * `losses.append(loss.data)`): NumPy converts each item with `__array__`, which raises for a
 * tensor on a device (DL108). No wait is counted: the call fails before it reads anything.
 * Only a list the code appends to, out of a `try` (whose handler may be the fallback: jet
 * classification's `except:` around `np.average(losses)`), of tensors not taken from a model's
 * output as it is or unpacked (its forward may hand back host data devlint cannot see: a
 * spiking network's firing rates, a `torch.load`ed model's); not a tuple or list written out,
 * whose items are as often numbers (`np.array([kl_div, wacc * 100])` of what a forward returns
 * with `.item()`). */
static void sync_items(Flow *F, const DlExpr *site, const DlExpr *list, const DlValue *v,
                       const char *how) {
    if (v->kind != DL_KIND_SEQ || v->items || !v->elem || F->try_depth || !flow_reporter(F)) return;
    const DlValue *item = v->elem;
    if (!flow_is_tensor(item) || !dl_value_on_device(item) || item->origin == DL_ORIGIN_MODEL ||
        (item->flags & DL_VF_UNPACKED))
        return;
    if (item->dev == DL_DEV_MODULE && flow_modules_stay_on_the_cpu(F)) return;
    DlSyncFact fact = {.site = site,
                       .tensor = list,
                       .value = item,
                       .how = how,
                       .place = &F->place,
                       .without_cuda = F->without_cuda && !flow_on_a_named_accelerator(item),
                       .of_items = true};
    dl_rule_dispatch_sync(F->env->report, &fact);
}

/* NumPy functions that make an array of a list first: each item goes through `__array__`. */
static const char *numpy_of_items(const char *q) {
    static const char *const functions[] = {
        "array",  "asarray",     "mean",   "sum",    "std",     "var",        "average",
        "median", "max",         "min",    "amax",   "amin",    "stack",      "vstack",
        "hstack", "concatenate", "argmax", "argmin", "nanmean", "percentile", NULL};
    if (strncmp(q, "numpy.", 6) != 0) return NULL;
    for (int i = 0; functions[i]; i++)
        if (strcmp(q + 6, functions[i]) == 0) return functions[i];
    return NULL;
}

/* An input of the forward of a module with nothing on a device (a `Preprocess` transform that
 * does `np.array(x)` on the PIL images a dataset hands it): no device says where it is, and
 * what numpy or pyplot is given may well not be a tensor. */
static bool input_of_a_stateless_module(Flow *F, const DlValue *v) {
    /* or what it computes from one (`input.mul(255).to(torch.uint8)`): with no state of its
     * own, all that is on "the module's device" there came in as an input */
    return v->dev == DL_DEV_MODULE && F->owner && F->owner->is_module &&
           !flow_class_has_state(F->owner);
}

/* `float(t)`, `int(t)`, `bool(t)`: Python's builtins (not names bound here) reading a value on
 * the host. */
static bool reads_as_a_number(Flow *F, const DlExpr *call) {
    const DlExpr *callee = call->object;
    return callee && callee->kind == DL_EX_NAME && callee->name &&
           callee->name[0] && strchr("fib", callee->name[0]) &&
           (flow_streq(callee->name, "float") || flow_streq(callee->name, "int") ||
            flow_streq(callee->name, "bool")) &&
           !flow_lookup(F, callee->name);
}

void flow_sync_facts(Flow *F, const DlExpr *call, const char *q, const DlExpr *recv_expr,
                     const DlValue *recv, const DlValue *const *argv) {
    if (recv && recv_expr) {
        const char *m = call->object->name;
        /* `"{:.0f}".format(t)` formats on the host, as an f-string does */
        if (recv->kind == DL_KIND_STRING && flow_streq(m, "format")) {
            for (uint32_t k = 0; k < call->arg_count; k++)
                flow_sync(F, call->args[k].value, call->args[k].value, argv[k], "format");
            return;
        }
        /* `writer.add_scalar(tag, loss, step)` of a device tensor: TensorBoard's SummaryWriter
         * reads it with `.item()` (Swin-Unet's trainer logs its losses so every step) */
        if (logs_a_scalar(F, recv, m)) {
            for (uint32_t k = 0; k < call->arg_count; k++)
                if (flow_is_tensor(argv[k]) && dl_value_on_kernel_device(argv[k]))
                    flow_sync(F, call, call->args[k].value, argv[k], "add_scalar");
            return;
        }
        /* `x.numpy()` of an input of a module with nothing on a device, as `np.asarray(x)`
         * (LaneGCN's PostProcess reads the raw batch's `gt_preds` so) */
        if (flow_streq(m, "numpy") && input_of_a_stateless_module(F, recv)) return;
        /* `t.type(torch.FloatTensor)` copies to the host as `.cpu()` does, and so does
         * `v.to(cpu_device)` with `cpu_device = torch.device("cpu")` (torchvision's detection
         * `evaluate`, copied into tracking_wo_bnw) */
        const DlValue *to = flow_streq(m, "to") && !flow_is_module_like(recv)
                                ? flow_call_target_device(F, call, NULL, m, recv, argv)
                                : NULL;
        /* `out.to("cpu", non_blocking=True)`: PyTorch copies into pinned memory and returns
         * at once, without waiting (arcface-pytorch's training loop) */
        bool async_copy = to && dl_ir_non_blocking(call) == 1;
        if (flow_streq(m, "item") || flow_streq(m, "tolist") || flow_streq(m, "numpy") ||
            flow_streq(m, "cpu") || (to && to->dev == DL_DEV_CPU && !async_copy) ||
            (flow_streq(m, "type") && flow_legacy_type_device(F, call) == DL_DEV_CPU))
            flow_sync(F, call, recv_expr, recv, to ? "cpu" : m);
        return;
    }
    const DlExpr *a0 = dl_ir_positional(call, 0);
    if (!a0 || !call->arg_count) return;
    const DlValue *v0 = argv[0];
    if (q) {
        static const char *const host[][2] = {{"numpy.asarray", "np.asarray"},
                                              {"numpy.array", "np.array"},
                                              {"matplotlib.pyplot.plot", "plt.plot"},
                                              {"matplotlib.pyplot.imshow", "plt.imshow"},
                                              {"matplotlib.pyplot.scatter", "plt.scatter"},
                                              {"matplotlib.pyplot.hist", "plt.hist"}};
        const char *of_items = numpy_of_items(q);
        if (of_items && !call->args[0].keyword && argv[0]->kind == DL_KIND_SEQ) {
            sync_items(F, call, a0, argv[0], dl_arena_join(F->arena, "np", '.', of_items));
            return;
        }
        /* `torch.tensor(losses)` of a list of device tensors reads each on the host, one by
         * one, and makes a CPU tensor of the numbers (pKaSchNet's validation) */
        if (flow_streq(q, "torch.tensor") && !call->args[0].keyword &&
            argv[0]->kind == DL_KIND_SEQ) {
            sync_items(F, call, a0, argv[0], "torch.tensor");
            return;
        }
        for (size_t i = 0; i < sizeof host / sizeof host[0]; i++)
            if (flow_streq(q, host[i][0])) {
                for (uint32_t k = 0; k < call->arg_count; k++) {
                    if (call->args[k].keyword || input_of_a_stateless_module(F, argv[k])) continue;
                    if (argv[k]->kind == DL_KIND_SEQ) /* `plt.plot(losses)` */
                        sync_items(F, call, call->args[k].value, argv[k], host[i][1]);
                    else
                        flow_sync(F, call, call->args[k].value, argv[k], host[i][1]);
                }
                return;
            }
        return;
    }
    if (call->object->kind != DL_EX_NAME || flow_lookup(F, call->object->name)) return;
    const char *name = call->object->name;
    if (flow_streq(name, "print")) {
        for (uint32_t k = 0; k < call->arg_count; k++) {
            if (call->args[k].keyword) continue;
            /* `print((epoch, loss))`: a tuple written out prints each item's repr */
            const DlExpr *a = call->args[k].value;
            const DlValue *v = argv[k];
            bool written_out = (a->kind == DL_EX_TUPLE || a->kind == DL_EX_LIST) &&
                               v->kind == DL_KIND_SEQ && v->items && v->item_count == a->item_count;
            for (uint32_t i = 0; written_out && i < a->item_count; i++)
                if (flow_is_tensor(v->items[i]))
                    flow_sync(F, call, a->items[i], v->items[i], "print");
            if (!written_out) flow_sync(F, call, a, v, "print");
        }
    } else if (reads_as_a_number(F, call)) {
        flow_sync(F, call, a0, v0, name);
    }
}

const DlValue *flow_call_target_device(Flow *F, const DlExpr *call, const char *q,
                                       const char *method, const DlValue *recv,
                                       const DlValue *const *argv) {
    if (method && recv &&
        (flow_is_tensor(recv) || flow_is_module_like(recv) || recv->kind == DL_KIND_UNKNOWN) &&
        flow_is_move_method(method))
        return flow_move_target(F, call, method, argv);
    if (q && dl_torch_factory(q)) return flow_device_keyword(F, call, argv);
    if (q && dl_torch_is_module_class(q)) return flow_device_keyword(F, call, argv);
    return NULL;
}

/* Can code in F's function read the name `key` starts with: a parameter of the function, a
 * name it assigns, or any name where the function is nested in another (a closure) or where
 * there is no function? A method's state also holds what its class's attributes were built
 * from (`__init__`'s `device`), which the method's own code cannot name (LaFTer's
 * `load_weights`). */
static bool readable_here(Flow *F, const char *key) {
    if (!F->fn || F->fn->parent) return true;
    size_t n = strcspn(key, ".[");
    char root[128];
    if (n == 0 || n >= sizeof root) return false;
    memcpy(root, key, n);
    root[n] = '\0';
    for (uint32_t i = 0; i < F->fn->param_count; i++)
        if (flow_streq(F->fn->params[i].name, root)) return true;
    return dl_ir_last_assignment(&F->fn->body, root, F->fn->span.end) != NULL;
}

/* A name bound to a device variable here (locals first, then globals), preferring `device`. */
const char *flow_device_in_scope(Flow *F) {
    const DlFlowState *scopes[2] = {F->st, F->env->globals};
    for (int k = 0; k < 2; k++) {
        const DlFlowState *st = scopes[k];
        if (!st) continue;
        const char *found = NULL;
        for (uint32_t i = 0; i < st->count; i++) {
            const DlValue *v = st->items[i].value;
            if (!v || v->kind != DL_KIND_DEVICE || v->dev != DL_DEV_NAMED) continue;
            if (k == 0 && !readable_here(F, st->items[i].key)) continue;
            if (flow_streq(st->items[i].key, "device")) return "device";
            /* a key that is code (dl_ir_is_dotted_name): a subscript's key
             * `modelVars['device']` is kept as `modelVars[device]`, which written as code would
             * read a name `device` (isic2019's eval.py) */
            /* and one whose own name says device: `cfg.dev_dir = args.dev` (NCRFpp: the dev
             * set's path, taken for a device by the option's name) is no map_location */
            if (!found && dl_ir_is_dotted_name(st->items[i].key) &&
                flow_name_says_device(F, st->items[i].key))
                found = st->items[i].key;
        }
        if (found) return found;
    }
    return NULL;
}

/* `t.data_ptr<float>()`, `t.data<float>()`, `(float *)t.data_ptr()`: the tensor t. */
static const DlExpr *data_pointer_of(const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR) return NULL;
    const char *m = e->object->name;
    if (!m || (!flow_streq(m, "data_ptr") && !flow_streq(m, "data") &&
               !flow_streq(m, "const_data_ptr") && !flow_streq(m, "mutable_data_ptr")))
        return NULL;
    /* a tensor's accessor, not std::vector::data() */
    if (dl_expr_callee(e) && strncmp(dl_expr_callee(e), "at::", 4) != 0) return NULL;
    const DlExpr *t = e->object->object;
    return t && (t->kind == DL_EX_NAME || t->kind == DL_EX_ATTR) ? t : NULL;
}

static void flow_launch_tensors(Flow *F, const DlExpr *call, DlCallFact *fact) {
    if (!call->arg_count) return;
    const DlValue **values = dl_arena_alloc(F->arena, call->arg_count * sizeof *values);
    const DlExpr **exprs = dl_arena_alloc(F->arena, call->arg_count * sizeof *exprs);
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const DlExpr *arg = call->args[i].value;
        const DlExpr *t = data_pointer_of(arg);
        if (t) {
            exprs[i] = t;
            values[i] = flow_eval(F, t);
            continue;
        }
        if (arg->kind != DL_EX_NAME) continue;
        /* a pointer variable that holds a tensor's data */
        const DlValue *p = flow_eval(F, arg);
        if (p->kind != DL_KIND_OTHER || !p->elem || p->elem->kind != DL_KIND_TENSOR || !p->var ||
            strchr(p->var, '.'))
            continue;
        DlExpr *name = dl_arena_alloc(F->arena, sizeof *name);
        name->kind = DL_EX_NAME;
        name->name = p->var;
        name->span = arg->span;
        exprs[i] = name;
        values[i] = p->elem;
    }
    fact->arg_tensors = values;
    fact->arg_tensor_exprs = exprs;
}

/* `restore_transform`, `inv_transform`, `denorm_transform`, `to_pil_transform`: named for
 * undoing the normalisation for display, which ends in a PIL image as often as not (the C^3
 * framework's `Compose([DeNormalize(...), ToPILImage()])`), not a tensor where it was. */
static bool undoes_a_transform(const char *name) {
    static const char *const words[] = {"restore", "inv", "denorm", "pil", "PIL", "untransform",
                                        NULL};
    for (const char *const *w = words; *w; w++)
        if (strstr(name, *w)) return true;
    return false;
}

/* `T.Resize(4)(x)` (a torchvision transform built and called; not one that makes a PIL image
 * or takes one) or `TF.hflip(x)` (torchvision.transforms.functional's, not its `to_pil_image`
 * or `pil_to_tensor`): what it gives back is where its tensor is. */
static bool torchvision_transform(Flow *F, const DlExpr *callee, const char *q) {
    const char *built =
        callee->kind == DL_EX_CALL && callee->object ? flow_qualify(F, callee->object) : NULL;
    return (built && strncmp(built, "torchvision.transforms.", 23) == 0 && !strstr(built, "PIL") &&
            !strstr(built, "ToTensor")) ||
           (q && strncmp(q, "torchvision.transforms.functional.", 34) == 0 && !strstr(q, "pil") &&
            !strstr(q, "to_"));
}

/* Data on the host: written out (`[i // 128 for i in range(n)]`, `(h, w)`, `3.0`), a size
 * (`scores.shape[1]`: trlx's `max_len`), or held in a value known not to be a tensor. */
static bool host_data(const DlExpr *data, const DlValue *v) {
    DlExprKind k = data->kind;
    if (k == DL_EX_LIST || k == DL_EX_TUPLE || k == DL_EX_NUMBER || k == DL_EX_COMP) return true;
    if (k == DL_EX_SUBSCRIPT && data->object && data->object->kind == DL_EX_ATTR &&
        data->object->name && strcmp(data->object->name, "shape") == 0)
        return true;
    /* `[50256] + seq`: a list written out, extended (pplm's token ids) */
    if (k == DL_EX_BINOP && data->name && strcmp(data->name, "+") == 0 && data->item_count == 2 &&
        (data->items[0]->kind == DL_EX_LIST || data->items[1]->kind == DL_EX_LIST))
        return true;
    return v->kind == DL_KIND_SCALAR || v->kind == DL_KIND_SEQ || v->kind == DL_KIND_OTHER;
}

/* `sum(x.item() for x in xs)`, `max(...)`, `list(...)`: a builtin that runs the generator it is
 * given at once (not Python's own name rebound in the file). */
static bool runs_a_generator_now(Flow *F, const DlExpr *call, uint32_t i) {
    static const char *const consumers[] = {"sum", "max",    "min",   "any",  "all", "list",
                                            "tuple", "set",  "sorted", "dict", NULL};
    const DlExpr *a = call->args[i].value;
    const DlExpr *callee = call->object;
    return a && a->kind == DL_EX_COMP && a->name && strcmp(a->name, "gen") == 0 && callee &&
           callee->kind == DL_EX_NAME && dl_name_in_list(callee->name, consumers) &&
           !flow_lookup(F, callee->name);
}

/* A method that gives back its receiver's data, on its device: an in-place op (`normal_`,
 * `fill_`, `uniform_`), a cast, `detach`, `contiguous`. */
static bool keeps_its_tensor(const char *method) {
    static const char *const keeping[] = {"float", "double", "half",       "long",   "int",
                                          "bool",  "detach", "contiguous", "clone", NULL};
    size_t n = method ? strlen(method) : 0;
    return n > 1 && (method[n - 1] == '_' ? method[n - 2] != '_' : dl_name_in_list(method, keeping));
}

/* `synchronize()` of `synchronize = torch.cuda.synchronize if device_type == "cuda" else
 * lambda: None` (nanoGPT's shape), bound once where the call reads it: a synchronize where
 * there is CUDA, nothing without. */
bool flow_names_a_synchronize_alias(Flow *F, const DlExpr *callee) {
    if (!callee || callee->kind != DL_EX_NAME || !callee->name) return false;
    const DlBlock *scopes[2] = {F->fn ? &F->fn->body : NULL, &F->env->file->module->body};
    for (int k = 0; k < 2; k++) {
        if (!scopes[k] || !flow_bindings_of(scopes[k], callee->name, 0)) continue;
        const DlExpr *v = flow_bound_once(scopes[k], callee->name, UINT32_MAX);
        if (!v || v->kind != DL_EX_COND || v->item_count != 2 || !v->object) return false;
        const DlExpr *arms[2] = {v->object, v->items[1]};
        bool sync = false, nothing = true;
        for (int a = 0; a < 2; a++) {
            const char *q = arms[a] ? flow_qualify(F, arms[a]) : NULL;
            if (q && flow_is_synchronize(q, NULL))
                sync = true;
            else if (!arms[a] || (arms[a]->kind != DL_EX_LAMBDA && arms[a]->kind != DL_EX_CONST))
                nothing = false;
        }
        return sync && nothing;
    }
    return false;
}

const DlValue *flow_eval_call(Flow *F, const DlExpr *call) {
    const DlValue *stack_argv[16];
    const DlValue **argv = call->arg_count <= 16
                               ? stack_argv
                               : dl_arena_alloc(F->arena, call->arg_count * sizeof *argv);
    const DlExpr *callee = call->object;
    const char *q = flow_qualify(F, callee);
    if (callee && callee->kind == DL_EX_NAME && !call->arg_count &&
        flow_names_a_synchronize_alias(F, callee))
        q = "torch.cuda.synchronize";
    const DlValue *recv = NULL;
    if (!q && callee && callee->kind == DL_EX_ATTR) {
        const DlExpr *saved = F->move_receiver;
        /* `torch.FloatTensor(n).normal_().cuda()`: an in-place fill or a cast on the way to the
         * move keeps the factory's tensor, which is moved all the same (StackGAN's noise) */
        bool passes_the_move = F->move_receiver == call && keeps_its_tensor(callee->name);
        F->move_receiver =
            flow_is_move_method(callee->name) || passes_the_move ? callee->object : NULL;
        recv = flow_eval(F, callee->object);
        F->move_receiver = saved;
    }
    bool immediately_moved = F->move_receiver == call;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const DlExpr *saved = F->consumed_generator;
        F->consumed_generator = runs_a_generator_now(F, call, i) ? call->args[i].value : NULL;
        argv[i] = flow_eval(F, call->args[i].value);
        F->consumed_generator = saved;
    }

    const DlValue *result = flow_resolve_call(F, call, q, recv, argv);
    if (q && flow_streq(q, "torch.cuda.is_available")) result = flow_cuda_available_value(F);
    /* `self.cell_transforms(img)` of a transform devlint does not see (a torchvision Compose
     * handed in): it crops, flips and casts a tensor where it is (cellpose's datasets) */
    /* (and torchvision's own, on a tensor: `T.Resize(4)(x)`, `TF.hflip(x)`) */
    if (result->kind == DL_KIND_UNKNOWN && !result->dev && call->arg_count >= 1 &&
        !call->args[0].keyword && flow_is_tensor(argv[0]) && callee &&
        (torchvision_transform(F, callee, q) ||
         (call->arg_count == 1 && (callee->kind == DL_EX_ATTR || callee->kind == DL_EX_NAME) &&
          callee->name && strstr(callee->name, "transform") &&
          !undoes_a_transform(callee->name)))) {
        DlValue *kept = dl_value_copy(F->arena, argv[0]);
        kept->var = NULL;
        kept->flags &= (uint32_t)~(DL_VF_ONE_DIM | DL_VF_ZERO_DIM);
        result = kept;
    }
    if (flow_is_module_like(result)) flow_lists_registered_by(F, call, argv);
    const char *method = recv ? callee->name : NULL;
    /* `self.metrics(samples)` outside forward: an attribute of self that holds a value of
     * unknown kind is what runs, not a method of self; given nothing on the device, self's
     * device says nothing of where it computes (what it gives back does). In forward such an
     * attribute is a submodule (`self.encoder = RobertaModel.from_pretrained(...)`) */
    const DlValue *worked_on = recv;
    if (recv && !F->is_forward && dl_ir_is_self(callee->object) &&
        !any_on_the_device(argv, call->arg_count)) {
        const char *key = flow_key_of(F, callee);
        const Binding *held = key ? flow_lookup(F, key) : NULL;
        if (held && held->value && held->value->kind == DL_KIND_UNKNOWN && !held->value->dev)
            worked_on = NULL;
    }
    flow_sync_facts(F, call, q, recv ? callee->object : NULL, recv, argv);

    bool host_read = method && (flow_streq(method, "item") || flow_streq(method, "tolist") ||
                                flow_streq(method, "numpy") || flow_streq(method, "cpu"));
    /* `"{:06f}".format(loss)` reads what it formats on the host, and queues nothing (EMOPIA's
     * progress line, before `[l.item() for l in losses]`) */
    if (method && recv && recv->kind == DL_KIND_STRING && flow_streq(method, "format"))
        host_read = true;
    /* `float(loss.data)`, `int(n)` of a tensor: the builtins read its value, and queue nothing
     * (OpenOOD's evaluators, between `.item()` and `pred.cpu()`) */
    if (!recv && call->arg_count == 1 && flow_is_tensor(argv[0]) && reads_as_a_number(F, call))
        host_read = true;
    /* `print(epoch, loss.data[0], err, file=log)` of a device tensor: Python's print reads it on
     * the host, waiting, and queues nothing (convex_adversarial's trainer, then
     * `losses.update(...)`); a print of plain strings waits for nothing */
    if (!recv && callee->kind == DL_EX_NAME && flow_streq(callee->name, "print") &&
        !flow_lookup(F, "print"))
        for (uint32_t i = 0; i < call->arg_count && !host_read; i++)
            host_read =
                !call->args[i].keyword && flow_is_tensor(argv[i]) && dl_value_on_device(argv[i]);
    /* a copy to the host (`loss.item()`, `x.cpu()`, `model.to("cpu")`) waits for the work
     * queued before it: like a synchronize, for the clock reads after it (DL203); so does a
     * blocking copy from the host (`model.to(device)`, `x.cuda()`), after which PyTorch
     * synchronizes the stream (not with `non_blocking=True`) */
    /* `np.mean(losses)`, `torch.tensor(losses)` of a list of device tensors: each is read on
     * the host (flow_sync_facts) */
    if (!recv && q && call->arg_count && !call->args[0].keyword &&
        argv[0]->kind == DL_KIND_SEQ && !argv[0]->items && argv[0]->elem &&
        flow_is_tensor(argv[0]->elem) && dl_value_on_device(argv[0]->elem) &&
        (flow_streq(q, "torch.tensor") || numpy_of_items(q)))
        host_read = true;
    bool waits_for_the_device = host_read;
    if (!waits_for_the_device && method && flow_streq(method, "to") && recv &&
        dl_value_on_device(recv)) {
        const DlValue *to = flow_call_target_device(F, call, q, method, recv, argv);
        /* `output.to(cpu_device)` is a host read as `output.cpu()` is: nothing is left unread
         * after it (MonoFlex's evaluation, whose visualiser reads the same step's outputs) */
        waits_for_the_device = host_read =
            to && to->dev == DL_DEV_CPU && dl_ir_non_blocking(call) != 1; /* (not an async copy) */
    }
    /* `torch.nonzero(scores > t)`, `x.nonzero()`, `torch.unique(labels)`: an output whose size
     * depends on the data, which the host waits for to allocate it (SSD's post-processor;
     * `dense.to_sparse()` finds its indices with nonzero: bindsnet's spike records);
     * of a tensor whose device is not known (a parameter), it may, as a call devlint does not
     * see may (flow_may_synchronize) */
    if (!waits_for_the_device && (flow_is_tensor(result) || result->kind == DL_KIND_UNKNOWN) &&
        result->dev != DL_DEV_CPU && result->dev != DL_DEV_META) {
        static const char *const sized_by_data[] = {"nonzero",       "argwhere",
                                                    "unique",        "masked_select",
                                                    "unique_consecutive", "to_sparse", NULL};
        const char *name = q && strncmp(q, "torch.", 6) == 0 && !strchr(q + 6, '.') ? q + 6
                           : recv && (flow_is_tensor(recv) || recv->kind == DL_KIND_UNKNOWN)
                               ? method
                               : NULL;
        /* most calls are ruled out by the first letter, before any comparison */
        waits_for_the_device = name && name[0] && strchr("naumt", name[0]) &&
                               dl_name_in_list(name, sized_by_data);
        /* `torch.where(cond)` of one argument is `torch.nonzero(cond, as_tuple=True)`
         * (dgcnn's scannet loop) */
        if (!waits_for_the_device && name && name[0] == 'w' && flow_streq(name, "where") &&
            call->arg_count == 1 && !call->args[0].keyword)
            waits_for_the_device = true;
        /* `torch.repeat_interleave(ids, counts)` with a tensor of counts and no
         * `output_size=`: the host reads the total back to size the output (a VMC sampler's
         * batch ids, sjdu10's vmc_utils) */
        if (!waits_for_the_device && name && name[0] == 'r' &&
            flow_streq(name, "repeat_interleave") && !dl_ir_keyword(call, "output_size")) {
            bool function = name != method;
            uint32_t counts = function ? 1 : 0, position = 0;
            for (uint32_t i = 0; i < call->arg_count && !waits_for_the_device; i++) {
                const char *kw = call->args[i].keyword;
                bool repeats = kw ? flow_streq(kw, "repeats")
                                  : position++ == counts || (function && call->arg_count == 1);
                waits_for_the_device = repeats && flow_is_tensor(argv[i]);
            }
        }
    }
    /* `writer.add_scalar(tag, acc, step)` with a device tensor: TensorBoard's SummaryWriter
     * reads it with `.item()` (VoiceCraft's validation logs its accuracies so) */
    bool logged_on_the_host = false;
    if (!waits_for_the_device && logs_a_scalar(F, recv, method))
        for (uint32_t i = 0; i < call->arg_count && !waits_for_the_device; i++)
            waits_for_the_device = logged_on_the_host =
                flow_is_tensor(argv[i]) && dl_value_on_kernel_device(argv[i]);
    /* `model.generate(ids)` of a model whose class the project does not define (Hugging Face's
     * GenerationMixin): its decoding loop asks the host after every token whether all
     * sequences are done (`unfinished_sequences.max() == 0`), so the work is done when it
     * returns. A project's own `generate` is analysed as any other method. */
    if (!waits_for_the_device && method && flow_streq(method, "generate") &&
        !is_project_method(F, recv, method)) {
        waits_for_the_device = true;
        if (F->place.batch_loop && F->place.every_iteration) F->place.generated = true;
    }
    /* `trainer.fit(model, datamodule=dm)` of Lightning's Trainer: its loops read the logged
     * metrics back at every epoch end and save checkpoints, so its work is done when it
     * returns (trackastra's training script times the whole fit) */
    if (!waits_for_the_device && method && method[0] != '_' && recv &&
        (flow_streq(method, "fit") || flow_streq(method, "validate") ||
         flow_streq(method, "test") || flow_streq(method, "predict")) &&
        !is_project_method(F, recv, method) && callee->object &&
        (callee->object->kind == DL_EX_NAME || callee->object->kind == DL_EX_ATTR) &&
        callee->object->name && strstr(callee->object->name, "trainer") &&
        dl_source_mentions(F->src, "lightning"))
        waits_for_the_device = true;
    /* a project function or method that waits for the device before it returns (a decoder's
     * `inference` ending with a host read): nothing it queued is pending after it */
    bool blocking_copy_from_unknown = false, reads_back = false, reads_unknown_back = false;
    const DlFunctionInfo *called = project_function_called(F, call, q, recv, method);
    const DlFunctionInfo *project_fn = NULL;
    if (!waits_for_the_device) {
        const DlFunctionInfo *fi = called;
        project_fn = fi;
        waits_for_the_device = fi && fi->returns_waited;
        /* one that copies what it is given to the host (RocAucMeter's `update(targets,
         * outputs)` doing `y_pred.cpu()`), given a device tensor: a read, as if written here */
        for (int k = 0; fi && k < 2 && fi->reads_parameter_back[k] && !reads_back; k++) {
            const DlValue *a = flow_argument_for(fi, fi->reads_parameter_back[k] - 1, call, argv);
            reads_back = a && flow_is_tensor(a) && dl_value_on_device(a);
            waits_for_the_device |= reads_back;
            /* a function (not a method: a model's forward) given a value whose device is
             * not known (the output of a model handed in as a parameter): as `.item()` of it
             * written here, the iteration's wait if a read of a device value follows with
             * nothing queued since (spikingjelly's `cal_correct`, then `loss.item()`) */
            const Binding *unread = flow_state_find(F->st, "<unread-work>");
            bool unknown = a && (a->kind == DL_KIND_UNKNOWN || (flow_is_tensor(a) && !a->dev));
            if (unknown && !fi->fn->owner && fi->parameter_copied[k] && !fi->host_read.end &&
                F->place.batch_loop && F->place.every_iteration && work_or_upload_unread(F) &&
                !(unread && flow_is_unknown_read_mark(unread->value)))
                reads_unknown_back = true;
            /* the loop waits there (DL201, at the call), unless nothing was pending */
            if (reads_back && !fi->host_read.end && F->place.batch_loop &&
                F->place.every_iteration && flow_reporter(F)) {
                /* a function that reads the parameter back first, before it queues anything,
                 * given what a blocking copy just uploaded (vqa-project's forward, `K =
                 * int(K[0].cpu().numpy())`): the copy waited, and so nothing is pending */
                bool nothing_pending = !work_or_upload_unread(F) ||
                                       (!work_unread(F) && reads_first(fi, fi->parameter_read[k]));
                DlSyncFact fact = {.site = call,
                                   .tensor = call,
                                   .value = flow_unknown(),
                                   .how = "call",
                                   .place = &F->place,
                                   .callee_read = fi->parameter_read[k],
                                   .callee_home = fi->module,
                                   .nothing_pending = nothing_pending};
                dl_rule_dispatch_sync(F->env->report, &fact);
            }
        }
        /* one that hands back a blocking copy (OpenIBL's `_parse_data` returning
         * `torch.stack(imgs).cuda()`) is that copy, as if written here */
        blocking_copy_from_unknown = fi && fi->returns_blocking_upload;
    }
    if (F->place.batch_loop && F->place.every_iteration)
        host_read_in_callee(F, call, called, argv);
    /* one that reads a device value back on every call and queues nothing after it (a
     * `set_forward_loss` ending with `labels.cpu().numpy()`): nothing is pending after the
     * call, so a read right after it waits for nothing (few-shot-hypernets' BayesHMAML) */
    if (called && called->host_read.end && called->returns_waited) reads_back = true;
    /* `torch.save(model, path)`: serializing copies every CUDA tensor to the host, waiting for
     * it, and queues nothing on the device (DCEVAE's scripts read the clock right after) */
    bool serializes = q && flow_streq(q, "torch.save");
    /* a project helper named for saving (`save_both(G, D, ...)` calling `save_model(...)`,
     * which ends in torch.save: AnimeGANs' best-checkpoint branch) queues nothing either; it
     * waits only as far as its own torch.save does, which the flow does not see */
    bool saves = called && called->fn && called->fn->name &&
                 strncmp(called->fn->name, "save", 4) == 0;
    if (serializes && !waits_for_the_device &&
        (any_on_the_device(argv, call->arg_count) || saves_a_device_modules_state(F, call)))
        waits_for_the_device = reads_back = true;
    /* `scheduler.step(metrics=val_loss)`: an LR scheduler launches nothing on the device, and
     * ReduceLROnPlateau reads its metric with `float()`, which waits for it (pytorch-speech-
     * commands reads the clock right after) */
    bool schedules = recv && recv->kind == DL_KIND_OTHER &&
                     flow_is_lr_scheduler_class(recv->literal) && flow_streq(method, "step");
    if (schedules && !waits_for_the_device && any_on_the_device(argv, call->arg_count))
        waits_for_the_device = true;
    /* `net = nn.DataParallel(net)`: the wrapper keeps the module and launches nothing until it
     * is called (pytorch-mgpu-cifar10's "Data time" timer around it) */
    /* (and `Variable(t)`, which hands back `t` itself in any PyTorch since 0.4: no work, and
     * what was pending or finished stays so: `y = Variable(y.cuda())`, then `y.cpu()`) */
    bool wraps = q && (dl_torch_is_single_process_data_parallel(q) || dl_torch_is_variable(q));
    /* a project method whose body is `pass` (a hook left empty: pytorch-cifar-models'
     * `model.module.update_meters(x)`) */
    if (called && does_nothing(called->fn, called->module ? called->module->source : NULL))
        wraps = true;
    /* one that synchronizes before it returns, where there is a GPU (tutel's
     * `system.record_time()`: `if is_cuda: torch.cuda.synchronize()`, then the clock): the
     * host surely waited, and a read after it copies finished values */
    static const char *const synchronizes[] = {"synchronize()", NULL};
    if (called && called->returns_waited && dl_project_function_mentions(called, synchronizes))
        reads_back = true;
    /* the same copy of a tensor whose device is not known (`batch.cuda()` of a list's item):
     * from the host it waits, on the device it is the tensor itself; it queues nothing */
    /* `.cuda(non_blocking=True)` of a tensor in pageable memory: the copy is synchronous
     * (DL202 says so), a blocking copy as any other */
    /* a blocking copy from the host: it has finished when it returns, so what it gives back is
     * no work a later read waits for (`y.to(device).cpu()` after the iteration's read of the
     * model's output copies finished values: byol's embed_dataset) */
    bool finished_upload = false;
    bool pageable = dl_value_in_pageable_memory(recv) && dl_ir_non_blocking(call) == 1 && method &&
                    (flow_streq(method, "cuda") || flow_streq(method, "to"));
    if (!waits_for_the_device && !blocking_copy_from_unknown && recv &&
        (flow_blocking_upload(call) || pageable)) {
        bool from_host =
            recv->dev == DL_DEV_CPU && (flow_is_tensor(recv) || flow_is_module_like(recv));
        bool from_unknown = !recv->dev && (flow_is_tensor(recv) || recv->kind == DL_KIND_UNKNOWN);
        const DlValue *to = from_host || from_unknown
                                ? flow_call_target_device(F, call, q, method, recv, argv)
                                : NULL;
        if (from_host) waits_for_the_device = finished_upload = to && dl_value_on_device(to);
        else blocking_copy_from_unknown = to && dl_value_on_kernel_device(to);
    }
    /* `torch.tensor(host_list, device=d)`: made on the host and copied to the device with a
     * blocking copy, as `x.to(d)` is (GPTQ's `g_idx`) */
    if (!waits_for_the_device && q && call->arg_count && !call->args[0].keyword &&
        dl_value_on_kernel_device(result) && dl_torch_factory_data_arguments(q) == 1)
        waits_for_the_device = finished_upload = host_data(call->args[0].value, argv[0]);
    if (method && recv) flow_note_gpu_required(F, call, recv);
    /* `x.clone()` with nothing pending (x just copied from the host, or read back): a copy of
     * finished values, which a read right after it waits no longer for than it would for x (a
     * re-identification trainer's `data.clone().detach().cpu()` after `data.to(device)`): no
     * work queued, no work unread; the step's wait is at the read of what its model computes */
    bool copies_finished = recv && method && flow_is_tensor(recv) &&
                           (flow_streq(method, "clone") || flow_streq(method, "contiguous")) &&
                           !work_unread(F);
    /* `torch.cuda.set_device(opts.local_rank)` run whatever the machine fails without a GPU as
     * `.cuda()` does (UNITER's training and inference scripts, at the top of `main`), and so
     * do `torch.cuda.current_device()` (BSRGAN's test script logs it), the queries of a GPU's
     * properties (PARE's scripts log `torch.cuda.get_device_properties(device)`, which raises
     * for the CPU) and `torch.cuda.synchronize()` */
    if (q && (dl_torch_call_needs_a_gpu(q) || joins_an_nccl_group(call, q)) && !F->try_depth &&
        !F->comp_count)
        F->place.cuda_checked = true;
    /* `torch.load(path, map_location="cuda:0")` fails without a GPU as `.cuda()` does
     * (med-vqa's main loads its classifier so, before the model's checkpoint) */
    if (q && flow_streq(q, "torch.load") && !F->try_depth && !F->comp_count &&
        dl_ir_names_cuda_device(dl_ir_map_location(call)))
        F->place.cuda_checked = true;
    /* a project function that fails without a GPU before it returns (DivideMix's
     * `create_model()` ending with `model.cuda()`): what follows runs only with one */
    if (project_fn && project_fn->requires_gpu && !F->try_depth && !F->comp_count)
        F->place.cuda_checked = true;
    if (q && flow_is_clock(q))
        result = flow_clock_read(F, call);
    else if (flow_is_synchronize(q, method) || waits_for_the_device) {
        flow_state_set(F->st, "<device-work>", NULL);
        /* the device read back, or waited for on purpose (a read of a value known on the
         * device is flow_sync's); a blocking copy that also waits is not a read */
        if (flow_is_synchronize(q, method) || reads_back)
            flow_state_set(F->st, "<unread-work>", NULL);
    } else if (blocking_copy_from_unknown || stores_a_reference(method, recv) ||
               moves_a_placed_module(method, recv) || serializes || saves || schedules || wraps)
        ; /* neither work nor a wait: what was pending stays pending */
    else if (!host_read && flow_touches_device(F, call, q, worked_on, argv, result)) {
        /* `torch.round(score * 1000)`, `x.float()`: elementwise, one tensor's own shape, a
         * little arithmetic as an operator's is (DL203's "in the clock's statement") */
        const char *op = q && strncmp(q, "torch.", 6) == 0 && !strchr(q + 6, '.') ? q + 6
                         : recv                                                   ? method
                                                                                  : NULL;
        if (!copies_finished) flow_device_work(F, call, op && dl_tensor_method_keeps_shape(op));
    }
    else if (!host_read && flow_may_synchronize(F, call, q, recv))
        flow_state_set(F->st, "<device-work>", NULL);
    /* a call given or giving back something on the device may have queued work there (a
     * model's forward, a project method returning its outputs), whatever it does besides */
    /* (not a project function that waits before it returns, `get_item(x)` ending with
     * `.cpu().item()`: given a value of unknown place, it leaves nothing queued either) */
    if (!host_read && !reads_back && !logged_on_the_host && !finished_upload &&
        !(project_fn && project_fn->returns_waited &&
          (project_fn->reads_parameter_back[0] || project_fn->host_read.end)) &&
        (on_the_device(worked_on) || on_the_device(result) ||
         any_on_the_device(argv, call->arg_count) ||
         project_call_given_tensors(call, called, argv)) &&
        !work_unread(F) && !flow_is_synchronize(q, method) && !arranges_only(F, callee) && !wraps &&
        !saves && !copies_finished &&
        !stores_a_reference(method, recv) && !flow_calls_a_container_method(call, recv) &&
        !(method && recv &&
          (flow_metadata_method(method) || flow_is_view_method(method) ||
           reshapes_a_named_tensor(callee))))
        flow_state_set(F->st, "<unread-work>", &unread_work_marker);
    if (finished_upload) flow_upload_finished(F);
    /* its read comes after whatever work it queued itself */
    if (reads_unknown_back) {
        mark_unknown_read(F, call, call);
        flow_state_set(F->st, "<device-work>", NULL);
    }

    /* C++: `const float *p = t.data_ptr<float>();` p points into t, for the kernel launch that
     * gets p */
    const DlExpr *pointee = data_pointer_of(call);
    if (pointee && recv && recv->kind == DL_KIND_TENSOR) {
        DlValue *p = flow_mk(F, DL_KIND_OTHER);
        p->elem = recv;
        p->var = dl_ir_dotted(F->arena, pointee);
        result = p;
    }
    if (!flow_reporter(F)) return result;
    if (!q && !recv && callee->kind == DL_EX_NAME) q = callee->name; /* builtins, local functions */
    DlCallFact fact = {0};
    fact.call = call;
    fact.qualified = q;
    fact.method = method;
    fact.receiver = recv ? callee->object : NULL;
    fact.receiver_value = recv;
    fact.args = argv;
    fact.result = result;
    fact.target_device = flow_call_target_device(F, call, q, method, recv, argv);
    fact.immediately_moved = immediately_moved;
    fact.without_cuda = F->without_cuda;
    fact.place = &F->place;
    if (q && flow_streq(q, "torch.load")) fact.device_in_scope = flow_device_in_scope(F);
    /* a device passed by position (`torch.zeros(n, device)`, `torch.zeros_like(x, device)`):
     * not the data of torch.tensor, nor the tensor of torch.empty_like(p_device, ...) */
    DlFactoryKind factory = q ? dl_torch_factory(q) : DL_FACTORY_NONE;
    if (factory == DL_FACTORY_PLAIN || factory == DL_FACTORY_LIKE) {
        unsigned data = factory == DL_FACTORY_LIKE ? 1 : dl_torch_factory_data_arguments(q);
        unsigned position = 0;
        for (uint32_t i = 0; i < call->arg_count && i < 32; i++) {
            if (call->args[i].keyword) continue;
            if (position++ >= data && flow_positional_device(F, call->args[i].value, argv[i]))
                fact.positional_devices |= 1u << i;
        }
    }
    if (method && F->place.batch_loop)
        fact.receiver_invariant = flow_expr_invariant(F, F->place.batch_loop, callee->object, 0);
    if (call->flags & DL_EXF_KERNEL_LAUNCH) flow_launch_tensors(F, call, &fact);
    dl_rule_dispatch_call(F->env->report, &fact);
    return result;
}
