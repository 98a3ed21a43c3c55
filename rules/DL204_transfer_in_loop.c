/* DL204 transfer-in-loop: a loop-invariant tensor or the model moved to the device in every
 * iteration of a training loop. */
#define _GNU_SOURCE /* memmem */
#include <string.h>

#include "rules/facts.h"

static const char doc[] =
    "## What it does\n"
    "Finds `.to(device)` / `.cuda()` inside a loop over a data loader applied, every iteration,\n"
    "to something the loop never changes: a tensor made before the loop (class weights, a mask,\n"
    "a lookup table) or the model itself.\n\n"
    "## Why is this bad?\n"
    "A tensor's `.to()` copies it host-to-device again on every step (and allocates a new device\n"
    "tensor each time); a module's `.to()` walks all its parameters every step. Move it once,\n"
    "before the loop; a tensor built from constants can be made on the device instead (a fresh\n"
    "accumulator, `torch.zeros((), device=device)`, which one made before the loop cannot be).\n\n"
    "## Example\n"
    "```python\n"
    "class_weights = torch.tensor([1.0, 3.0])\n"
    "for x, y in loader:\n"
    "    loss = F.cross_entropy(model(x.to(device)), y.to(device), "
    "weight=class_weights.to(device))\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "class_weights = torch.tensor([1.0, 3.0]).to(device)\n"
    "for x, y in loader:\n"
    "    loss = F.cross_entropy(model(x.to(device)), y.to(device), weight=class_weights)\n"
    "```\n\n"
    "## When it does not fire\n"
    "- the batch (it changes every iteration) or anything the loop reassigns, changes in place\n"
    "  (`U.copy_(...)`) or writes into (`U[ind, :] = codes`);\n"
    "- moves under a periodic guard, in an `except` handler (a fallback when the body fails),\n"
    "  or in the outer epoch loop;\n"
    "- `.to(dtype)` casts that do not move;\n"
    "- a tensor already on that device (made there before the loop): `.to()` returns it as it\n"
    "  is, copying nothing (a tensor on `cuda`, the current device, counts as on `cuda:0`);\n"
    "- a tensor made without `device=` in a file that sets the default device to a GPU\n"
    "  (`torch.set_default_device('cuda')`, `torch.set_default_tensor_type(\n"
    "  'torch.cuda.FloatTensor')`): it is made there, and `.cuda()` copies nothing.\n";

/* "cuda" is the current device, which is GPU 0 unless the program picks another: a tensor made
 * by `.cuda()` and moved to `torch.device("cuda:0")` is not shown to be copied (GeneFace). */
static bool default_gpu_pair(const DlValue *a, const DlValue *b) {
    if (a->dev != DL_DEV_CUDA || b->dev != DL_DEV_CUDA || !a->dev_name || !b->dev_name)
        return false;
    return (strcmp(a->dev_name, "cuda") == 0 && strcmp(b->dev_name, "cuda:0") == 0) ||
           (strcmp(a->dev_name, "cuda:0") == 0 && strcmp(b->dev_name, "cuda") == 0);
}

/* A tensor already on the device it is moved to: `.to()` returns it as it is, copying nothing
 * (Marigold's trainers move an embedding made on the device in __init__ again each step). */
static bool already_there(const DlValue *v, const DlValue *to) {
    /* a value of unknown kind moved there before the loop (`labels = fno(u).to(device)`, `fno`
     * a parameter, DeepONet's fine-tuning): moving it again copies nothing either */
    return (v->kind == DL_KIND_TENSOR || v->kind == DL_KIND_UNKNOWN) &&
           (to->dev == DL_DEV_NAMED || to->dev == DL_DEV_CUDA) &&
           v->dev_name && (dl_value_same_device(v, to) || default_gpu_pair(v, to));
}

/* The file sets the default device to a GPU for its own code (`torch.set_default_device('cuda')`,
 * `torch.set_default_tensor_type('torch.cuda.FloatTensor')`), a test file's setting included:
 * the line of a `set_default_` call names CUDA. */
static bool sets_a_gpu_default_here(DlRuleContext *ctx) {
    const DlModuleIR *m = dl_rule_module(ctx);
    if (m->sets_a_gpu_default) return true;
    const DlSource *src = dl_rule_source(ctx);
    if (!m->sets_default_device || !src || !src->text) return false;
    const char *end = src->text + src->len;
    for (const char *p = src->text; (p = memmem(p, (size_t)(end - p), "set_default_", 12));
         p += 12) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (memmem(p, (size_t)((eol ? eol : end) - p), "cuda", 4)) return true;
    }
    return false;
}

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL204;
    if (!fact->method || (strcmp(fact->method, "to") != 0 && strcmp(fact->method, "cuda") != 0))
        return;
    if (!fact->place->batch_loop || !fact->place->every_iteration || !fact->receiver_invariant)
        return;
    const DlValue *v = fact->receiver_value;
    if (!v || (v->kind != DL_KIND_TENSOR && v->kind != DL_KIND_MODULE && v->kind != DL_KIND_UNKNOWN))
        return;
    if (v->kind == DL_KIND_TENSOR && (v->origin == DL_ORIGIN_BATCH || (v->flags & DL_VF_WHOLE_BATCH)))
        return;
    const DlValue *to = fact->target_device;
    if (!to || to->dev == DL_DEV_CPU || to->dev == DL_DEV_UNKNOWN || already_there(v, to)) return;
    /* `target.to(f.device)`, `target` made on the device and `f` a feature of unknown place
     * (Camera-Trap's `clf.forward(images)`): matching a device it most likely has, not a copy
     * known to happen */
    if ((to->flags & DL_VF_DEVICE_OF_UNKNOWN) && v->dev_name &&
        (v->dev == DL_DEV_NAMED || v->dev == DL_DEV_CUDA))
        return;
    /* made where the file's default device puts it, on a GPU (MahalanobisLoss's unit test
     * after `torch.set_default_tensor_type('torch.cuda.FloatTensor')`) */
    if (v->kind == DL_KIND_TENSOR && v->dev == DL_DEV_UNKNOWN && sets_a_gpu_default_here(ctx))
        return;
    const char *recv = dl_rule_snippet(ctx, fact->receiver->span);
    const char *what = v->kind == DL_KIND_MODULE    ? "the model"
                       : v->origin == DL_ORIGIN_FACTORY ? "a tensor built from constants"
                                                        : "a value the loop never changes";
    /* a tensor built from constants may be a fresh accumulator (`loss = torch.tensor(0.0)
     * .to(device)` then `loss += ...`, transfuser), which one made before the loop cannot
     * replace: made on the device, it is neither copied nor shared between steps */
    const char *advice = v->kind == DL_KIND_TENSOR && v->origin == DL_ORIGIN_FACTORY
                             ? "make it there instead (`device=` in the factory), or once before "
                               "the loop"
                             : "move it once, before the loop";
    const char *message = dl_arena_printf(
        dl_rule_arena(ctx),
        "`%s` moves %s (`%s`) to the device in every iteration of the loop at %s; %s",
        dl_rule_snippet(ctx, fact->call->span), what, recv,
        dl_rule_where(ctx, NULL, fact->place->batch_loop->span.start), advice);
    dl_report_finding(ctx, &dl_rule_DL204, fact->call->span, fact->call->span, message, NULL);
}

const DlRule dl_rule_DL204 = {
    .code = "DL204",
    .name = "transfer-in-loop",
    .severity = DL_SEV_WARNING,
    .fixable = false,
    .default_enabled = true,
    .summary = "A loop-invariant tensor or the model moved to the device in every iteration",
    .doc = doc,
    .on_call = on_call,
};
