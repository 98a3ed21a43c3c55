/* DL108 numpy-on-device: a tensor on a device handed to NumPy or matplotlib, which need host
 * memory. */
#include <string.h>

#include "rules/facts.h"

static const char doc[] =
    "## What it does\n"
    "Finds `t.numpy()`, `np.asarray(t)`, `np.array(t)` and `plt.plot(t)` / `plt.imshow(t)` (and\n"
    "the other pyplot data functions) where `t` is known to be on a device, and NumPy or pyplot\n"
    "functions handed a list of such tensors the code appends to (`np.mean(losses)` after\n"
    "`losses.append(loss.data)`, `np.array`, `np.concatenate`, `np.sum`, `plt.plot`, ...).\n\n"
    "## Why is this bad?\n"
    "NumPy arrays live in host memory. `t.numpy()` on a CUDA tensor raises\n"
    "`TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the\n"
    "tensor to host memory first.` — usually at the end of an evaluation that took an hour.\n\n"
    "## Example\n"
    "```python\n"
    "preds = model(images.to(device)).argmax(dim=1)\n"
    "all_preds.append(preds.numpy())\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "all_preds.append(preds.cpu().numpy())        # .detach() first if it requires grad\n"
    "```\n\n"
    "## Fix safety\n"
    "The fix inserts `.cpu()` (`.detach().cpu()` for a model's output, which may require grad).\n"
    "It copies the tensor to the host, which is what the call needs anyway.\n\n"
    "## When it does not fire\n"
    "- `.cpu().numpy()`, `.detach().cpu().numpy()`, `.numpy(force=True)`, `.tolist()`,\n"
    "  `.item()`;\n"
    "- a list NumPy is handed that is written out (`np.array([kl_div, acc * 100])`, often of\n"
    "  numbers), or whose items are a model's outputs (its forward may return host data), or\n"
    "  inside a `try` (its handler may be the fallback);\n"
    "- tensors on the CPU, or whose device is unknown (a parameter's default bound before the\n"
    "  tensor was moved: `def plot(data=X_train)` ahead of `X_train = X_train.to(device)`; the\n"
    "  input of a module with no parameters or buffers, such as a transform handed images; one\n"
    "  moved to `x.device` of a parameter or local `x` whose device is not known);\n"
    "- a module's outputs where nothing places the module: no file of the project names a\n"
    "  device, or the file that builds and runs it, which no other file reads, names none and\n"
    "  hands it to no trainer or accelerator, or names CUDA only to seed it or to build its\n"
    "  inputs on `model.device` (a sanity-check script for a model it never moves);\n"
    "- a module's own buffers read in its `__init__`, before anything can move it;\n"
    "- in a branch that runs only when the device they were moved to is the CPU\n"
    "  (`if self.device == torch.device(\"cpu\"):`, or the `else` of\n"
    "  `if device.type != \"cpu\":`, or of `if use_gpu:` with `device =\n"
    "  torch.device(\"cuda\" if use_gpu else \"cpu\")`), or only without a GPU: the `else` of\n"
    "  `if torch.cuda.is_available():` (or of `if train_on_gpu:` with `train_on_gpu =\n"
    "  torch.cuda.is_available()`), also as an expression (`t.numpy() if not train_on_gpu else\n"
    "  t.cpu().numpy()`).\n";

static void on_sync(DlRuleContext *ctx, const DlSyncFact *fact) {
    extern const DlRule dl_rule_DL108;
    bool numpy = strcmp(fact->how, "numpy") == 0;
    if (!numpy && strncmp(fact->how, "np.", 3) != 0 && strncmp(fact->how, "plt.", 4) != 0) return;
    if (numpy && dl_ir_keyword(fact->site, "force")) return; /* .numpy(force=True) copies */
    /* the else of `if torch.cuda.is_available():` (or of `if train_on_gpu:`), whose branch
     * moved it: this one runs only where nothing went to the GPU */
    if (fact->without_cuda) return;
    /* moved to `x.device` of a tensor `x` whose device is not known: maybe the CPU */
    if (fact->value->flags & DL_VF_DEVICE_OF_UNKNOWN) return;
    /* in the constructor, before anything can move the module, its buffers are where they
     * were made (animatable_nerf's EasyMocapSMPL reads `self.posedirs` back in __init__) */
    const DlFunction *fn = fact->place->function;
    if (fact->value->dev == DL_DEV_MODULE && fn && fn->owner && strcmp(fn->name, "__init__") == 0)
        return;
    DlArena *arena = dl_rule_arena(ctx);
    const char *t = dl_rule_text(ctx, fact->tensor->span);
    if (fact->of_items) { /* `np.mean(losses)`: no one place to copy each item at */
        const char *message = dl_arena_printf(
            arena,
            "`%s` converts each item of `%s` to an array, but they are %s; copy each to the host "
            "where it is made (`.item()` for a number, `.cpu()` for a tensor)",
            fact->how, t, dl_rule_placement(ctx, fact->value));
        dl_report_finding(ctx, &dl_rule_DL108, fact->site->span, fact->site->span, message, NULL);
        return;
    }
    size_t tl = strlen(t);
    bool detached = tl > 9 && strcmp(t + tl - 9, ".detach()") == 0;
    const char *move = fact->value->origin == DL_ORIGIN_MODEL && !detached ? ".detach().cpu()"
                                                                           : ".cpu()";
    const char *where = dl_rule_describe(ctx, t, fact->value);
    bool plain = fact->tensor->kind == DL_EX_NAME || fact->tensor->kind == DL_EX_ATTR ||
                 fact->tensor->kind == DL_EX_CALL || fact->tensor->kind == DL_EX_SUBSCRIPT;
    /* `(x * m).cpu()`, not `x * m.cpu()`, which would copy `m` only */
    const char *message = dl_arena_printf(
        arena, "`%s` needs host memory but %s; copy it first: `%s%s%s%s`",
        numpy ? "numpy()" : fact->how, where, plain ? "" : "(", t, plain ? "" : ")", move);
    DlSpan at = fact->tensor->span;
    DlFix *fix = NULL;
    if (plain) {
        const char *text = dl_arena_printf(arena, "%s%s", t, move);
        fix = dl_rule_fix_replace(ctx, dl_arena_printf(arena, "Copy to the host: `%s`", text), at,
                                  text);
    }
    dl_report_finding(ctx, &dl_rule_DL108, fact->site->span, fact->site->span, message, fix);
}

const DlRule dl_rule_DL108 = {
    .code = "DL108",
    .name = "numpy-on-device",
    .severity = DL_SEV_ERROR,
    .fixable = true,
    .default_enabled = true,
    .summary = "`.numpy()`, `np.asarray`/`np.array` or `plt.plot` on a tensor that is on a device",
    .doc = doc,
    .on_sync = on_sync,
};
