/* DL113 cuda-in-worker: a Dataset's __getitem__ or a collate_fn touches CUDA while the
 * DataLoader runs it in worker processes. */
#include <string.h>

#include "dataflow/torch_api.h"
#include "rules/facts.h"

static const char doc[] =
    "## What it does\n"
    "Finds `Dataset.__getitem__` methods and `collate_fn` functions that create tensors on CUDA\n"
    "or move them there, when a `DataLoader(..., num_workers=N)` with `N > 0` runs them.\n\n"
    "## Why is this bad?\n"
    "Workers are forked processes; CUDA cannot be re-initialised in a forked subprocess\n"
    "(*Cannot re-initialize CUDA in forked subprocess*). Spawned workers (the `spawn` start\n"
    "method) do not fail, but each creates its own CUDA context (hundreds of MB of GPU memory\n"
    "each) and the transfers serialise.\n\n"
    "## Example\n"
    "```python\n"
    "def __getitem__(self, i):\n"
    "    return self.images[i].cuda(), self.labels[i]\n"
    "loader = DataLoader(ds, batch_size=64, num_workers=4)\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "def __getitem__(self, i):\n"
    "    return self.images[i], self.labels[i]\n"
    "...\n"
    "for images, labels in loader:\n"
    "    images = images.to(device, non_blocking=True)   # with pin_memory=True\n"
    "```\n\n"
    "## When it does not fire\n"
    "- `num_workers=0` or absent (the main process loads), or not known to be positive;\n"
    "- the workers are spawned, not forked: `DataLoader(..., multiprocessing_context=\"spawn\")`\n"
    "  (or \"forkserver\"), or the loader's file calls `set_start_method(\"spawn\")` (at top level or\n"
    "  in a function: `torch.multiprocessing.set_start_method(\"spawn\", force=True)` under\n"
    "  `if __name__ == \"__main__\":`); a start method set in another file is not seen;\n"
    "- the dataset stays on the CPU and the training loop moves the batch; a move to `x.device`\n"
    "  of an item whose device is not known follows that item, which nothing put on a GPU;\n"
    "- the device is an attribute that `__init__` stores from a parameter defaulting to `None`\n"
    "  (`def __init__(self, device=None): self.device = device`): an instance built without one\n"
    "  creates on the CPU, and which device an instance holds is not known.\n";

static bool to_accelerator(const DlValue *dev) {
    /* not `x.device` of a tensor whose device is not known: maybe the CPU */
    return dev && (dev->dev == DL_DEV_CUDA ||
                   (dev->dev == DL_DEV_NAMED && !(dev->flags & DL_VF_DEVICE_OF_UNKNOWN)));
}

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL113;
    if (!fact->place->in_worker) return;
    bool moves = fact->method && (strcmp(fact->method, "cuda") == 0 ||
                                  (strcmp(fact->method, "to") == 0 && to_accelerator(fact->target_device)));
    bool creates = fact->qualified && dl_torch_factory(fact->qualified) &&
                   to_accelerator(fact->target_device);
    if (!moves && !creates) return;
    const DlFunction *fn = fact->place->function;
    const char *message = dl_arena_printf(
        dl_rule_arena(ctx),
        "`%s` puts a tensor on the GPU inside `%s`, which DataLoader workers (num_workers > 0) "
        "run in forked processes where CUDA cannot be initialised; return CPU tensors and move "
        "the batch in the training loop",
        dl_rule_snippet(ctx, fact->call->span), fn ? fn->name : "the worker");
    dl_report_finding(ctx, &dl_rule_DL113, fact->call->span, fact->call->span, message, NULL);
}

const DlRule dl_rule_DL113 = {
    .code = "DL113",
    .name = "cuda-in-worker",
    .severity = DL_SEV_ERROR,
    .fixable = false,
    .default_enabled = true,
    .summary = "A Dataset's `__getitem__` or a `collate_fn` uses CUDA while DataLoader workers run "
               "it",
    .doc = doc,
    .on_call = on_call,
};
