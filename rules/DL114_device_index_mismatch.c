/* DL114 device-index-mismatch: a CPU tensor indexed (or mask-assigned) with a device tensor. */
#include <string.h>

#include "rules/mismatch.h"

static const char doc[] =
    "## What it does\n"
    "Finds a CPU tensor indexed, or assigned through a mask or index, with a tensor that is on a\n"
    "device: `cpu_table[idx_on_gpu]`, `cpu_scores[mask_on_gpu] = 0`.\n\n"
    "## Why is this bad?\n"
    "The index must be on the CPU, or on the indexed tensor's device. The line raises\n"
    "*indices should be either on cpu or on the same device as the indexed tensor*. (The reverse,\n"
    "a CUDA tensor indexed with CPU indices, is legal.)\n\n"
    "## Example\n"
    "```python\n"
    "class_names_emb = torch.randn(1000, 64)\n"
    "picked = class_names_emb[preds]          # preds on the GPU\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "picked = class_names_emb[preds.cpu()]    # or keep the table on the device\n"
    "```\n\n"
    "## When it does not fire\n"
    "- a device tensor indexed with CPU indices or Python ints;\n"
    "- an index that is one element of a 1-D device tensor (`for i in ids.view(-1):\n"
    "  cpu_states[i] = 0`, also of the indices `torch.where(mask)[0]` or\n"
    "  `mask.nonzero(as_tuple=True)[0]` gives): PyTorch reads a 0-dim integer index as a\n"
    "  number, wherever it is;\n"
    "  so is an element of per-sample vectors zipped together (`for label, p in zip(labels,\n"
    "  preds): confusion[label][p] += 1`), whose rank is not known;\n"
    "- an index made on a parameter's device (`torch.randint(n, (k,), device=x.device)`), which\n"
    "  may be the CPU the caller's tensor is on;\n"
    "- both on the same device, or either device unknown.\n";

static void on_index(DlRuleContext *ctx, const DlIndexFact *fact) {
    extern const DlRule dl_rule_DL114;
    if (!dl_value_is_cpu_tensor(fact->object_value)) return;
    const DlValue *idx = fact->index_value;
    if (idx->dev != DL_DEV_CUDA && idx->dev != DL_DEV_NAMED && idx->dev != DL_DEV_META) return;
    /* `torch.randint(..., device=x.device)` of a parameter `x`: where the caller's tensor is,
     * which may be the CPU (TabularS3L's dataset corrupts a row of its own CPU table) */
    if (dl_on_a_parameters_device(fact->place->function, idx)) return;
    const char *obj = dl_rule_snippet(ctx, fact->object->span);
    const char *index = dl_rule_snippet(ctx, fact->index->span);
    DlExprKind k = fact->index->kind;
    bool bare = k == DL_EX_NAME || k == DL_EX_ATTR || k == DL_EX_CALL || k == DL_EX_SUBSCRIPT;
    const char *message = dl_arena_printf(
        dl_rule_arena(ctx), "%s but is %s `%s`, which is %s; move the index (`%s%s%s.cpu()`) or the "
                            "tensor",
        dl_rule_describe(ctx, obj, fact->object_value),
        fact->store ? "assigned through the index" : "indexed with", index,
        dl_rule_placement(ctx, idx),
        bare ? "" : "(", index, bare ? "" : ")");
    dl_report_finding(ctx, &dl_rule_DL114, fact->site->span, fact->site->span, message, NULL);
}

const DlRule dl_rule_DL114 = {
    .code = "DL114",
    .name = "device-index-mismatch",
    .severity = DL_SEV_ERROR,
    .fixable = false,
    .default_enabled = true,
    .summary = "A CPU tensor indexed or mask-assigned with a tensor on a device",
    .doc = doc,
    .on_index = on_index,
};
