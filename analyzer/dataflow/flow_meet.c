/* Operands that meet in one operation: the cpu/device mismatch facts handed to the rules, and
 * the device of the result. */
#include "dataflow/flow_internal.h"

bool flow_cpu_side(const DlValue *v) {
    /* made with `device=` a variable that holds the CPU: where the variable points */
    if (dl_value_is_cpu_tensor(v)) return !(v->flags & DL_VF_DEVICE_VARIABLE);
    if (v->kind == DL_KIND_MODULE && v->dev == DL_DEV_CPU && (v->flags & DL_VF_CONSTRUCTED) &&
        !(v->flags & DL_VF_MOVED))
        return true;
    if (v->kind == DL_KIND_LOSS && v->dev == DL_DEV_CPU && (v->flags & DL_VF_CPU_WEIGHT))
        return true;
    return false;
}

bool flow_real_device(const DlValue *v) { /* where real data lives: never meta */
    return v->dev == DL_DEV_CUDA || v->dev == DL_DEV_NAMED;
}

bool flow_two_gpu_indices(const DlValue *a, const DlValue *b) {
    return a->dev == DL_DEV_CUDA && b->dev == DL_DEV_CUDA && a->dev_name && b->dev_name &&
           strchr(a->dev_name, ':') && strchr(b->dev_name, ':') &&
           strcmp(a->dev_name, b->dev_name) != 0;
}

/* Two known devices that differ: "cuda:0" and "cuda:1", meta and a real device; a module moved
 * whole to one GPU written out and a tensor on another (`model.to("cuda:4")(x.to("cuda:2"))`). */
bool flow_devices_conflict(const DlOperand *ops, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            const DlValue *a = ops[i].value, *b = ops[j].value;
            if ((dl_value_module_on_gpu_index(a) && flow_is_tensor(b)) ||
                (flow_is_tensor(a) && dl_value_module_on_gpu_index(b))) {
                if (flow_two_gpu_indices(a, b)) return true;
                continue;
            }
            if (!flow_is_tensor(a) || !flow_is_tensor(b)) continue;
            if ((a->dev == DL_DEV_META && flow_real_device(b)) ||
                (flow_real_device(a) && b->dev == DL_DEV_META))
                return true;
            if (flow_two_gpu_indices(a, b)) return true;
        }
    return false;
}

/* On an accelerator named by its literal type ("mps", "xpu:0"), not CUDA: such a tensor is on
 * it even where CUDA is known to be absent (`elif torch.backends.mps.is_available():`). */
bool flow_on_a_named_accelerator(const DlValue *v) {
    return v->dev == DL_DEV_NAMED && dl_is_accelerator_type_name(v->dev_name);
}

/* A device named by a name the file imports from another that binds it to the CPU (`from
 * devcfg import device`, `device = "cpu"` there): a module moved to it while the project was
 * summarised kept the name (nfsp-pytorch's `self.network = network.to(device)`), a tensor moved
 * to it here is on the CPU; both are where that name says. */
static bool imported_name_for_the_cpu(Flow *F, const DlValue *v) {
    if (v->dev != DL_DEV_NAMED || !v->dev_name || strpbrk(v->dev_name, ".([") ||
        flow_lookup(F, v->dev_name))
        return false;
    const char *q = flow_import(F, v->dev_name);
    const DlValue *d = q ? flow_imported_global(F, q) : NULL;
    if (!d) return false;
    if (d->kind == DL_KIND_DEVICE) return d->dev == DL_DEV_CPU;
    return d->kind == DL_KIND_STRING && d->literal &&
           flow_device_of_string(d->literal) == DL_DEV_CPU;
}

void flow_meet(Flow *F, const DlExpr *site, const DlOperand *ops, uint32_t n, int callee) {
    if (!flow_reporter(F)) return;
    bool cpu = false, dev = false;
    /* "the module's device" is a device only where the module runs on its inputs (forward and
     * the Lightning steps), and only in a project that moves things to devices at all, not in a
     * notebook whose modules stay on the CPU (one that names no device: ABSA-Transformer's
     * clustering test, whose forward calls layers built at its top level), nor in a script
     * that no other file reads and that names none (a trajectory project's prototypes, which
     * declare a `--use_cuda` option and never read it). A Python file that names none and runs
     * as no script may still be a layer another project imports (road-extraction-rl's FRN). */
    bool module_device = F->is_forward && F->env->project->uses_devices;
    /* (asked only where an operand is on the module's device: it may scan the file's text) */
    for (uint32_t i = 0; i < n && module_device; i++)
        if (ops[i].value && ops[i].value->dev == DL_DEV_MODULE) {
            module_device = !flow_script_modules_stay_on_the_cpu(F);
            break;
        }
    /* ... but not against a copy to the host made there, in a module without state
     * (YOLOv2's loss: `pred.cpu() - target`): its author computes on the host, and where the
     * inputs are is the caller's choice, which the call site checks */
    if (module_device && F->owner && !flow_class_has_state(F->owner))
        for (uint32_t i = 0; i < n; i++)
            if (flow_is_tensor(ops[i].value) && ops[i].value->dev == DL_DEV_CPU &&
                ops[i].value->origin == DL_ORIGIN_MOVED)
                module_device = false;
    for (uint32_t i = 0; i < n; i++) {
        const DlValue *v = ops[i].value;
        if (flow_cpu_side(v))
            cpu = true;
        else if (dl_value_on_device(v) && v->kind != DL_KIND_LOSS &&
                 (v->dev != DL_DEV_MODULE || module_device) &&
                 (!F->without_cuda || flow_on_a_named_accelerator(v)) &&
                 !imported_name_for_the_cpu(F, v))
            dev = true;
    }
    if ((!cpu || !dev) && !flow_devices_conflict(ops, n)) return;
    DlMeetFact fact = {site, ops, n, callee, &F->place};
    dl_rule_dispatch_meet(F->env->report, &fact);
}

/* Every CPU tensor among the operands (0-dim ones aside, unless all are) was made with `device=`
 * a variable (DL_VF_DEVICE_VARIABLE): so is what they make (`self.ub - self.lb`). */
static bool every_cpu_operand_on_a_variable(const DlOperand *ops, uint32_t n, bool all_zero) {
    for (uint32_t i = 0; i < n; i++) {
        const DlValue *v = ops[i].value;
        if (!flow_is_tensor(v) || v->dev != DL_DEV_CPU) continue;
        if (!all_zero && (v->flags & DL_VF_ZERO_DIM)) continue;
        if (!(v->flags & DL_VF_DEVICE_VARIABLE)) return false;
    }
    return true;
}

/* A device a variable names (`device`, chosen as "cuda" when there is one) and the GPU written
 * out (`.cuda()`), or two such variables: where the operation runs, with a GPU, they are one
 * device (FEAT's model moved to `device` by a helper, its batch by `.cuda()`); not two GPUs
 * written out with their indices, nor a named accelerator of another kind ("mps"). */
static bool one_device_named_two_ways(const DlValue *a, const DlValue *b) {
    if (!flow_real_device(a) || !flow_real_device(b)) return false;
    if (a->dev == DL_DEV_CUDA && b->dev == DL_DEV_CUDA) return false;
    if ((a->dev == DL_DEV_NAMED && dl_is_accelerator_type_name(a->dev_name)) ||
        (b->dev == DL_DEV_NAMED && dl_is_accelerator_type_name(b->dev_name)))
        return false;
    return (a->dev == DL_DEV_NAMED || !a->dev_name || !strchr(a->dev_name, ':')) &&
           (b->dev == DL_DEV_NAMED || !b->dev_name || !strchr(b->dev_name, ':'));
}

/* Device of the result of an op over tensors: the shared device, ignoring 0-dim operands (a GPU
 * written out where another operand is on a device variable: one_device_named_two_ways);
 * UNKNOWN when they disagree (the op would fail; do not cascade). */
DlValue *flow_combine(Flow *F, const DlExpr *site, const DlOperand *ops, uint32_t n) {
    const DlValue *dev = NULL;
    bool all_zero = true, conflict = false;
    uint32_t rank_not_known = 0, tensors = 0;
    bool any_maybe_cpu = false;
    for (uint32_t i = 0; i < n; i++) {
        const DlValue *v = ops[i].value;
        if (!flow_is_tensor(v)) continue;
        tensors++;
        if (v->flags & DL_VF_MAYBE_CPU) any_maybe_cpu = true;
        if (!(v->flags & DL_VF_ZERO_DIM)) all_zero = false;
        rank_not_known |= v->flags & DL_VF_DATA_RANK;
    }
    /* A cpu operand meeting a device operand is a bug reported on its own; the result is
     * taken to live on the device side, so the next, independent bug is reported too. An
     * operand whose device is not known (`h * mask`, mask a parameter) does not hide the other
     * one's device: if the operation runs, the result is on it (the unknown operand was there,
     * or a 0-dim CPU tensor). Not so for a CPU operand, which a 0-dim CUDA one could join. */
    bool saw_unknown = false;
    for (int pass = 0; pass < 2 && !dev; pass++)
        for (uint32_t i = 0; i < n; i++) {
            const DlValue *v = ops[i].value;
            if (!flow_is_tensor(v)) continue;
            if (!all_zero && (v->flags & DL_VF_ZERO_DIM)) continue;
            if (pass == 0 && v->dev == DL_DEV_CPU) continue;
            if (v->dev == DL_DEV_UNKNOWN) {
                saw_unknown = true;
                continue;
            }
            if (!dev)
                dev = v;
            else if (one_device_named_two_ways(dev, v)) {
                if (v->dev == DL_DEV_CUDA) dev = v; /* the one written out */
            } else if (dev->dev != v->dev ||
                       ((dev->dev == DL_DEV_NAMED || dev->dev == DL_DEV_CUDA) && dev->dev_name &&
                        v->dev_name && strcmp(dev->dev_name, v->dev_name) != 0))
                conflict = true;
        }
    /* what a CPU tensor made with one of unknown device, or what such a tensor makes with
     * others of unknown device, may be on the CPU */
    bool maybe_cpu = (saw_unknown && dev && dev->dev == DL_DEV_CPU) || (!dev && any_maybe_cpu);
    if (maybe_cpu) conflict = true;
    DlValue *r = flow_mk(F, DL_KIND_TENSOR);
    if (maybe_cpu) r->flags |= DL_VF_MAYBE_CPU;
    if (dev && !conflict) {
        flow_take_place(r, dev);
        r->origin = dev->origin == DL_ORIGIN_FACTORY || dev->origin == DL_ORIGIN_BATCH ||
                            dev->origin == DL_ORIGIN_PLAIN_ATTR
                        ? dev->origin
                        : DL_ORIGIN_NONE;
        r->aux_span = dev->aux_span;
        r->var = NULL;
        if (dev->dev == DL_DEV_CPU && every_cpu_operand_on_a_variable(ops, n, all_zero))
            r->flags |= DL_VF_DEVICE_VARIABLE;
    }
    /* 0-dim tensors give a 0-dim tensor, on a device known or not (`lam * F.mse_loss(a, b)`):
     * added to a device's loss, it does not hide that device */
    if (all_zero && tensors) r->flags |= DL_VF_ZERO_DIM;
    /* broadcasting keeps the largest rank: with one not known, the result's is not known */
    if (!(r->flags & DL_VF_ZERO_DIM)) r->flags |= rank_not_known;
    (void)site;
    return r;
}

/* `predicted.cpu() == labels`: an operator whose operands are a CPU tensor (not 0-dim) and one
 * on a device raises there (DL111), so nothing after it reads its result back. Only for Python's
 * operators: a module's or a loss's inputs may be left on the CPU on purpose (CTC's targets and
 * lengths, the lengths of pack_padded_sequence). */
void flow_mark_operator_that_fails(DlValue *r, const DlOperand *ops, uint32_t n) {
    if (!dl_value_on_device(r) || r->dev == DL_DEV_CPU) return;
    for (uint32_t i = 0; i < n; i++)
        if (flow_is_tensor(ops[i].value) && !(ops[i].value->flags & DL_VF_ZERO_DIM) &&
            flow_cpu_side(ops[i].value))
            r->flags |= DL_VF_MADE_WHERE_DEVICES_MEET;
}

/* Collects tensor operands of an expression, looking into list/tuple displays (torch.cat). */

void flow_add_operand(OperandList *l, const DlExpr *e, const DlValue *v) {
    if (l->count >= 32 || !v) return;
    if (v->kind == DL_KIND_TENSOR || flow_is_module_like(v))
        l->items[l->count++] = (DlOperand){e, v};
}

void flow_add_operand_deep(Flow *F, OperandList *l, const DlExpr *e, const DlValue *v) {
    if (v->kind == DL_KIND_SEQ && v->items && e &&
        (e->kind == DL_EX_LIST || e->kind == DL_EX_TUPLE) && e->item_count == v->item_count) {
        for (uint32_t i = 0; i < v->item_count; i++)
            flow_add_operand(l, e->items[i], v->items[i]);
        return;
    }
    if (v->kind == DL_KIND_SEQ && v->elem) {
        flow_add_operand(l, e, v->elem);
        return;
    }
    flow_add_operand(l, e, v);
}
