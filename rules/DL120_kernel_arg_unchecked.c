/* DL120 kernel-arg-unchecked: a kernel launched with a tensor's data pointer when nothing on
 * the way checked that the tensor is on the GPU. */
#include <string.h>

#include "rules/facts.h"
#include "rules/kernel.h"

static const char doc[] =
    "## What it does\n"
    "Finds CUDA kernel launches `kernel<<<grid, block>>>(t.data_ptr<float>(), ...)` (also\n"
    "`t.data<T>()`, `static_cast<T *>(t.data_ptr())`) where no check on the way guarantees that\n"
    "`t` is a CUDA tensor: no `TORCH_CHECK(t.is_cuda(), ...)` / "
    "`TORCH_CHECK(t.device().is_cuda())`\n"
    "(or a `CHECK_CUDA(t)`-style macro that expands to one) earlier in the launching function, "
    "and,\n"
    "when `t` is a parameter, not in every caller in the project either.\n\n"
    "## Why is this bad?\n"
    "A kernel dereferences whatever address it is given. Called from Python with a CPU tensor,\n"
    "the extension passes a host pointer to the GPU: an illegal memory access that kills the\n"
    "CUDA context (every later CUDA call fails too), or silently wrong results with unified\n"
    "addressing. The Python-side error *Expected all tensors to be on the same device* never\n"
    "happens, because nothing compares devices.\n\n"
    "## Example\n"
    "```cpp\n"
    "torch::Tensor scale(torch::Tensor x) {\n"
    "  auto out = torch::empty_like(x);\n"
    "  scale_kernel<<<blocks, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(), x.numel());\n"
    "  return out;\n"
    "}\n"
    "```\n\n"
    "## Use instead\n"
    "```cpp\n"
    "#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x \" must be a CUDA tensor\")\n"
    "torch::Tensor scale(torch::Tensor x) {\n"
    "  CHECK_CUDA(x);\n"
    "  auto out = torch::empty_like(x);\n"
    "  scale_kernel<<<blocks, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(), x.numel());\n"
    "  return out;\n"
    "}\n"
    "```\n\n"
    "A function that launches several kernels (one instantiation per size) with the same\n"
    "unchecked tensor is reported once, at its first launch, counting the others: one check at\n"
    "the top fixes them all.\n\n"
    "## When it does not fire\n"
    "- the tensor is checked in the function (`TORCH_CHECK(x.is_cuda(), ...)`, also the\n"
    "  deprecated `AT_ASSERTM(x.type().is_cuda(), ...)`, and the tensor an optional holds,\n"
    "  `CHECK_CUDA(optional_out.value())`), or computed from a checked one\n"
    "  (`x.index_select(0, order)`, `x.toType(torch::kLong)`), or it is a parameter that every\n"
    "  caller in the project checks (the usual binding `.cpp` with `CHECK_INPUT(x)` calling a\n"
    "  launcher in a `.cu`);\n"
    "- the tensor was created on the GPU (`torch::empty({n}, x.options())` of a checked `x`,\n"
    "  `torch::zeros({n}, torch::kCUDA)`, `t.cuda()`);\n"
    "- the tensor is known to be on the CPU: that is DL121 host-pointer-to-kernel.\n";

/* The tensor a local was made like: `torch::empty_like(x)` / `torch::zeros({n}, x.options())`
 * -> x, else NULL. */
static const char *made_like(const DlStmt *decl) {
    const DlExpr *v = decl ? decl->value : NULL;
    if (!v || v->kind != DL_EX_CALL || !v->object) return NULL;
    const char *callee = v->object->kind == DL_EX_ATTR ? v->object->name : NULL;
    if (callee && strlen(callee) > 5 && strcmp(callee + strlen(callee) - 5, "_like") == 0) {
        const DlExpr *a = dl_ir_positional(v, 0);
        if (a && a->kind == DL_EX_NAME) return a->name;
    }
    /* x.contiguous(), x.view(...): the same memory's device */
    static const char *const same_device[] = {"contiguous", "view",   "reshape", "flatten",
                                              "clone",      "detach", "expand",  "transpose",
                                              "permute",    "narrow", "select",  "t"};
    const DlExpr *recv = v->object->kind == DL_EX_ATTR ? v->object->object : NULL;
    for (size_t i = 0; callee && recv && recv->kind == DL_EX_NAME &&
                       i < sizeof same_device / sizeof same_device[0];
         i++)
        if (strcmp(callee, same_device[i]) == 0) return recv->name;
    const DlArg *dev = dl_ir_keyword(v, "device");
    if (dev && dev->value->kind == DL_EX_ATTR && dev->value->name &&
        strcmp(dev->value->name, "device") == 0 && dev->value->object->kind == DL_EX_NAME)
        return dev->value->object->name;
    return NULL;
}

/* The tensor whose device local `name` has, following `made_like` a few hops: `name` itself
 * when it was not made like another. */
static const char *tensor_root(const DlFunction *fn, const char *name) {
    for (int hops = 0; hops < 8; hops++) {
        const char *like = made_like(dl_kernel_local_decl(fn, name));
        if (!like || strcmp(like, name) == 0) break;
        name = like;
    }
    return name;
}

/* Checked in this function before `before`, or (a parameter) by every caller, or made like a
 * tensor that is. */
static bool guarded(DlRuleContext *ctx, const DlFunction *fn, const char *name, uint32_t before,
                    int depth) {
    if (depth > 4) return false;
    if (dl_kernel_checked_before(fn, name, before)) return true;
    int p = dl_kernel_param_index(fn, name);
    if (p >= 0) return dl_kernel_callers_check(ctx, fn, p, 3);
    const char *like = made_like(dl_kernel_local_decl(fn, name));
    return like && strcmp(like, name) != 0 && guarded(ctx, fn, like, before, depth + 1);
}

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL120;
    const DlExpr *call = fact->call;
    if (!(call->flags & DL_EXF_KERNEL_LAUNCH) || !fact->arg_tensors) return;
    const DlFunction *fn = fact->place ? fact->place->function : NULL;
    DlArena *arena = dl_rule_arena(ctx);
    /* one finding per launch, naming every unchecked tensor by where it comes from: for
     * `y = torch::empty_like(x)` or `xc = x.contiguous()` that is x, fixed by the same check */
    const char *names = NULL, *first = NULL, *seen[16];
    const DlExpr *key = NULL;
    int count = 0, later_launches = 0;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const DlValue *v = fact->arg_tensors[i];
        const DlExpr *t = fact->arg_tensor_exprs[i];
        if (!v || !t) continue;
        if (dl_value_on_device(v) || dl_value_is_cpu_tensor(v) || v->dev == DL_DEV_CPU) continue;
        if (t->kind == DL_EX_NAME && guarded(ctx, fn, t->name, call->span.start, 0)) continue;
        const char *name =
            t->kind == DL_EX_NAME ? tensor_root(fn, t->name) : dl_rule_text(ctx, t->span);
        /* a function launching many kernels (one per template size) is fixed by one check:
         * reported at its first launch that hands the tensor on, counting the others */
        int earlier = 0, later = 0;
        if (t->kind == DL_EX_NAME)
            dl_kernel_launches_passing(fn, name, tensor_root, call->span.start, &earlier, &later);
        if (earlier) continue;
        if (later > later_launches) later_launches = later;
        bool again = false;
        for (int j = 0; j < count && j < 16; j++)
            again |= strcmp(seen[j], name) == 0;
        if (again) continue;
        if (count < 16) seen[count] = name;
        names = names ? dl_arena_printf(arena, "%s, `%s`", names, name)
                      : dl_arena_printf(arena, "`%s`", name);
        if (!first) first = name, key = call->args[i].value;
        count++;
    }
    if (!count) return;
    const char *message = dl_arena_printf(
        arena,
        "the kernel `%s` gets the data of %s but nothing checks that %s on the GPU: a CPU tensor "
        "here is a host pointer in device code (an illegal memory access); check first, e.g. "
        "`TORCH_CHECK(%s.is_cuda(), \"%s must be a CUDA tensor\")`%s",
        dl_rule_text(ctx, call->object->span), names, count > 1 ? "they are" : "it is", first,
        first,
        later_launches == 0   ? ""
        : later_launches == 1 ? " before this launch and the later one that hands it on"
                              : dl_arena_printf(arena,
                                                " before this launch and the %d later ones that "
                                                "hand it on",
                                                later_launches));
    dl_report_finding(ctx, &dl_rule_DL120, call->span, key->span, message, NULL);
}

const DlRule dl_rule_DL120 = {
    .code = "DL120",
    .name = "kernel-arg-unchecked",
    .severity = DL_SEV_ERROR,
    .fixable = false,
    .default_enabled = true,
    .summary = "A kernel gets a tensor's data pointer with no check that the tensor is on the GPU",
    .doc = doc,
    .on_call = on_call,
};
