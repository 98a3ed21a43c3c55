/* DL205 data-parallel: nn.DataParallel, which PyTorch recommends replacing with
 * DistributedDataParallel. */
#include <string.h>

#include "rules/facts.h"

static const char doc[] =
    "## What it does\n"
    "Finds `nn.DataParallel(model)`.\n\n"
    "## Why is this bad?\n"
    "`DataParallel` runs one process with a thread per GPU: it scatters every batch from GPU 0,\n"
    "replicates the model every step and gathers the outputs back on GPU 0, so GPU 0 is\n"
    "overloaded and the GIL serialises the work. PyTorch's documentation recommends\n"
    "`DistributedDataParallel` even on a single machine; it is faster on every setup.\n\n"
    "## Example\n"
    "```python\n"
    "model = nn.DataParallel(model).cuda()\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "torch.distributed.init_process_group(\"nccl\")\n"
    "local_rank = int(os.environ[\"LOCAL_RANK\"])\n"
    "torch.cuda.set_device(local_rank)\n"
    "model = nn.parallel.DistributedDataParallel(model.cuda(), device_ids=[local_rank])\n"
    "```\n\n"
    "## When it does not fire\n"
    "- `DistributedDataParallel`, FSDP, or no wrapper.\n";

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL205;
    const char *q = fact->qualified;
    if (!q || (strcmp(q, "torch.nn.DataParallel") != 0 && strcmp(q, "torch.nn.parallel.DataParallel") != 0 &&
               strcmp(q, "torch.nn.parallel.data_parallel.DataParallel") != 0))
        return;
    dl_report_finding(ctx, &dl_rule_DL205, fact->call->span, fact->call->span,
                      "`nn.DataParallel` replicates the model and funnels every batch through "
                      "GPU 0 each step; use `DistributedDataParallel` (one process per GPU), "
                      "which is faster even on one machine",
                      NULL);
}

const DlRule dl_rule_DL205 = {
    .code = "DL205",
    .name = "data-parallel",
    .severity = DL_SEV_WARNING,
    .fixable = false,
    .default_enabled = true,
    .summary = "`nn.DataParallel`: prefer `DistributedDataParallel`",
    .doc = doc,
    .on_call = on_call,
};
