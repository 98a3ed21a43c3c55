/* DL121 host-pointer-to-kernel: a CUDA kernel is given memory that lives on the host. */
#include <string.h>

#include "rules/facts.h"
#include "rules/kernel.h"

static const char doc[] =
    "## What it does\n"
    "Finds kernel launches `kernel<<<grid, block>>>(...)` with an argument that points to host\n"
    "memory: the data of a tensor known to be on the CPU (a factory without a device,\n"
    "`.cpu()`, `torch::from_blob` of a host buffer), a local array (`float buf[16]`), the address\n"
    "of a local variable (`&sum`), or a `malloc`/`new[]`/`std::vector::data()` buffer.\n\n"
    "## Why is this bad?\n"
    "Device code cannot dereference host addresses (outside of managed or mapped memory): the\n"
    "kernel faults with an illegal memory access, and the CUDA context is lost for the rest of\n"
    "the process.\n\n"
    "## Example\n"
    "```cpp\n"
    "float partial[256];\n"
    "reduce_kernel<<<1, 256>>>(x.data_ptr<float>(), partial, n);\n"
    "```\n\n"
    "## Use instead\n"
    "```cpp\n"
    "auto partial = torch::empty({256}, x.options());\n"
    "reduce_kernel<<<1, 256>>>(x.data_ptr<float>(), partial.data_ptr<float>(), n);\n"
    "```\n\n"
    "## When it does not fire\n"
    "- the pointer comes from `cudaMalloc`, or from a tensor on the GPU (also a\n"
    "  `torch::from_blob(ptr, sizes, options)` view whose options name the GPU);\n"
    "- scalars passed by value (`int n`, `float alpha`);\n"
    "- a tensor whose device is unknown: that is DL120 kernel-arg-unchecked.\n";

static const char *host_buffer_kind(const DlExpr *value) {
    if (!value) return NULL;
    if (value->kind == DL_EX_CALL && value->object) {
        const DlExpr *f = value->object;
        const char *callee = dl_expr_callee(value) ? dl_expr_callee(value) : "";
        if (f->kind == DL_EX_NAME && f->name &&
            (strcmp(f->name, "malloc") == 0 || strcmp(f->name, "calloc") == 0 ||
             strcmp(f->name, "realloc") == 0 || strcmp(f->name, "new") == 0))
            return f->name;
        if (f->kind == DL_EX_ATTR && f->name && strcmp(f->name, "data") == 0 &&
            strncmp(callee, "std::", 5) == 0)
            return "a std:: container's data()";
    }
    return NULL;
}

/* Why argument `arg` is host memory, or NULL. */
static const char *host_pointer(DlRuleContext *ctx, const DlCallFact *fact, uint32_t i) {
    DlArena *arena = dl_rule_arena(ctx);
    const DlValue *v = fact->arg_tensors ? fact->arg_tensors[i] : NULL;
    if (v && (dl_value_is_cpu_tensor(v) || (v->kind == DL_KIND_TENSOR && v->dev == DL_DEV_CPU)))
        return dl_arena_printf(arena, "the data of `%s`, a CPU tensor%s%s%s",
                               dl_rule_text(ctx, fact->arg_tensor_exprs[i]->span),
                               v->dev_why ? " (" : "", v->dev_why ? v->dev_why : "",
                               v->dev_why ? ")" : "");
    const DlExpr *arg = fact->call->args[i].value;
    const DlFunction *fn = fact->place ? fact->place->function : NULL;
    if (arg->kind == DL_EX_UNARY && arg->name && strcmp(arg->name, "&") == 0 && arg->object &&
        arg->object->kind == DL_EX_NAME && dl_kernel_local_decl(fn, arg->object->name))
        return dl_arena_printf(arena, "the address of the local variable `%s`", arg->object->name);
    const char *direct = host_buffer_kind(arg);
    if (direct) return dl_arena_printf(arena, "a host buffer from %s", direct);
    if (arg->kind != DL_EX_NAME || !arg->name) return NULL;
    const DlStmt *decl = dl_kernel_local_decl(fn, arg->name);
    if (!decl) return NULL;
    const char *type = dl_expr_ctype(decl->targets[0]);
    if (type && strchr(type, '['))
        return dl_arena_printf(arena, "the local array `%s` (%s)", arg->name, type);
    const char *kind = host_buffer_kind(decl->value);
    if (kind) return dl_arena_printf(arena, "`%s`, a host buffer from %s", arg->name, kind);
    return NULL;
}

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL121;
    const DlExpr *call = fact->call;
    if (!(call->flags & DL_EXF_KERNEL_LAUNCH)) return;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *why = host_pointer(ctx, fact, i);
        if (!why) continue;
        const DlExpr *arg = call->args[i].value;
        const char *message = dl_arena_printf(
            dl_rule_arena(ctx),
            "`%s` passed to the kernel `%s` is host memory (%s): device code cannot read it (an "
            "illegal memory access); allocate it on the GPU (`torch::empty(..., x.options())` or "
            "`cudaMalloc`) and copy what the kernel needs",
            dl_rule_text(ctx, arg->span), dl_rule_text(ctx, call->object->span), why);
        dl_report_finding(ctx, &dl_rule_DL121, call->span, arg->span, message, NULL);
    }
}

const DlRule dl_rule_DL121 = {
    .code = "DL121",
    .name = "host-pointer-to-kernel",
    .severity = DL_SEV_ERROR,
    .fixable = false,
    .default_enabled = true,
    .summary = "A CUDA kernel is given a pointer to host memory",
    .doc = doc,
    .on_call = on_call,
};
