/* DL104 batch-not-moved: a batch from a DataLoader reaches a device model/op unmoved. */
#include <string.h>

#include "rules/fixes.h"
#include "rules/mismatch.h"

static const char doc[] =
    "## What it does\n"
    "Finds a batch taken from a `DataLoader`, a dataset or an iterator (`for x, y in loader:`,\n"
    "`enumerate(loader)`, `tqdm(loader)`, `next(iter(loader))`, tuples, lists and dicts of\n"
    "tensors included) that reaches a model, a loss or an operation on a device without being\n"
    "moved there.\n\n"
    "## Why is this bad?\n"
    "A `DataLoader` yields CPU tensors. Moving the model does not move the data: the first\n"
    "forward pass fails with *Expected all tensors to be on the same device*.\n\n"
    "## Example\n"
    "```python\n"
    "model = Net().to(device)\n"
    "for images, labels in train_loader:\n"
    "    logits = model(images)\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "for images, labels in train_loader:\n"
    "    images, labels = images.to(device), labels.to(device)\n"
    "    logits = model(images)\n"
    "```\n\n"
    "## Fix safety\n"
    "The fix moves the batch as the first statement of its loop (`x = x.to(device)`).\n\n"
    "## When it does not fire\n"
    "- the batch is moved first (`x = x.to(device)`, `batch = [t.to(device) for t in batch]`,\n"
    "  a dict comprehension over `batch.items()`);\n"
    "- the model is not on a device (everything on the CPU), or its device is unknown, or it\n"
    "  is a project module whose `forward` reads none of its own parameters, buffers or\n"
    "  submodules (only plain values of `self`): it computes where its inputs are;\n"
    "- a Lightning `training_step` (Lightning moves the batch itself);\n"
    "- a dict batch's text fields (`batch[\"prompt\"]`, `\"caption\"`, `\"text\"`, "
    "`\"question\"`, `\"path\"`...),\n"
    "  which are collated into lists of strings;\n"
    "- the loader's collate function puts the batch on the device (a project function, or the\n"
    "  dataset's own method: `collate_fn=dataset.collate_fn`; also bound or wrapped:\n"
    "  `functools.partial(collate, device=d)`, `lambda b: collate(b, device)`);\n"
    "- a parameter named like a loader (`def train(train_loader)`) in a file that builds a\n"
    "  loader class of the project's own (no base, its own `__iter__`: airbench's\n"
    "  `CifarLoader`, which slices tensors loaded onto the GPU): which one it is handed, and\n"
    "  where its batches are, is not known; so is a parameter annotated `DataLoader` in a file\n"
    "  that hands its loaders to Lightning Fabric (`fabric.setup_dataloaders(...)`, whose\n"
    "  loaders move each batch to the device);\n"
    "- the loader's dataset is a `TensorDataset` of tensors already on the device (or a part\n"
    "  of one, `random_split(ds, ...)`, `Subset(ds, idx)`), whose\n"
    "  batches are there too, or a tensor not known to be on the CPU (`DataLoader(triplets,\n"
    "  64)` of graph tensors a caller moved: the default collate stacks its rows there); also\n"
    "  through a parameter named like a loader that the script hands only such loaders of its\n"
    "  top level (`def test(loader)` called as `test(test_loader)`);\n"
    "- the model's forward moves or converts that input itself (`labels.to(x.device)`,\n"
    "  `torch.from_numpy(waves[i])`), or reads it only on the host (lengths for\n"
    "  `pack_padded_sequence`, `labels.squeeze().tolist()`, `np.unique(labels)`, a reshape of\n"
    "  it read so, `boxes = boxes.squeeze(0)`, a size given to torch:\n"
    "  `F.interpolate(x, size=shape)`), or only indexes with it (`x[~masking_pos]`,\n"
    "  `x[tokens.argmax(dim=-1)]`: a CUDA tensor takes CPU indices), or hands it back as it\n"
    "  came (`return out, lengths`);\n"
    "- a dict batch handed on whole after one of its entries is moved\n"
    "  (`batch[\"imu\"] = batch[\"imu\"].to(device)`, then `model(batch)`): the model may read\n"
    "  only that one; an entry not moved is still reported where it is read.\n";

/* `x = x.to(device)` as the first statement of the loop that binds `x`. */
/* Whether the loop target `t` (`x`, `(x, y)`, `i, (x, y)`) binds `name`. */
static bool loop_binds_name(const DlExpr *t, const char *name) {
    if (!t) return false;
    if (t->kind == DL_EX_NAME) return t->name && strcmp(t->name, name) == 0;
    if (t->kind != DL_EX_TUPLE && t->kind != DL_EX_LIST) return false;
    for (uint32_t i = 0; i < t->item_count; i++)
        if (loop_binds_name(t->items[i], name)) return true;
    return false;
}

static DlFix *move_fix(DlRuleContext *ctx, const DlMeetFact *fact, const DlOperand *cpu,
                       const DlOperand *dev) {
    const DlStmt *loop = fact->place ? fact->place->batch_loop : NULL;
    if (!loop || loop->kind != DL_ST_FOR || !loop->parts->body.count ||
        cpu->expr->kind != DL_EX_NAME)
        return NULL;
    DlSpan target = loop->targets[0]->span, bound = cpu->value->dev_span;
    if (bound.start < target.start || bound.end > target.end) return NULL; /* not this loop's */
    /* the name must be one the loop binds: `rgb = batch["rgb"]` in the body binds it after
     * the body's first statement, where `rgb = rgb.to(device)` would read it unbound */
    if (!loop_binds_name(loop->targets[0], cpu->expr->name)) return NULL;
    const char *where = dl_device_expression(ctx, dev);
    if (!where || cpu->value->home) return NULL;
    if (!dl_fix_can_name_at(ctx, where, loop->parts->body.items[0]->span,
                            dev->expr ? dev->expr->span : fact->site->span))
        return NULL;
    const char *name = cpu->expr->name;
    const char *code = dl_arena_printf(dl_rule_arena(ctx), "%s = %s.to(%s)", name, name, where);
    return dl_rule_fix_insert_before(
        ctx, dl_arena_printf(dl_rule_arena(ctx), "Move the batch: `%s`", code),
        loop->parts->body.items[0]->span, code);
}

static void on_meet(DlRuleContext *ctx, const DlMeetFact *fact) {
    extern const DlRule dl_rule_DL104;
    const DlOperand *cpu = dl_meet_cpu_operand(fact, DL_ORIGIN_BATCH);
    const DlOperand *dev = dl_meet_device_operand(fact);
    if (!cpu || !dev) return;
    const DlExpr *e = cpu->expr;
    const char *name = dl_rule_text(ctx, e->span);
    bool plain = e->kind == DL_EX_NAME || e->kind == DL_EX_ATTR;
    const char *advice = plain ? dl_arena_printf(dl_rule_arena(ctx), "move the batch first: `%s = %s.to(device)`", name, name)
                               : "move the batch to the device first";
    const char *message = dl_arena_printf(
        dl_rule_arena(ctx), "`%s` is %s (%s) still on the cpu, but %s; %s", name,
        cpu->value->dev_why ? cpu->value->dev_why : "a batch",
        dl_rule_where(ctx, cpu->value->home, cpu->value->dev_span.start),
        dl_meet_describe(ctx, dev), advice);
    dl_report_finding(ctx, &dl_rule_DL104, cpu->expr->span, cpu->value->dev_span, message,
                      move_fix(ctx, fact, cpu, dev));
}

const DlRule dl_rule_DL104 = {
    .code = "DL104",
    .name = "batch-not-moved",
    .severity = DL_SEV_ERROR,
    .fixable = true,
    .default_enabled = true,
    .summary = "A batch from a data loader reaches a model or op on a device without being moved",
    .doc = doc,
    .on_meet = on_meet,
};
