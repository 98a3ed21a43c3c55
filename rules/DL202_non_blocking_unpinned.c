/* DL202 non-blocking-unpinned: .to(device, non_blocking=True) from pageable host memory. */
#include <string.h>

#include "rules/facts.h"

static const char doc[] =
    "## What it does\n"
    "Finds `.to(device, non_blocking=True)` (or `.cuda(non_blocking=True)`) on a CPU tensor whose\n"
    "memory is known not to be pinned: a batch from a `DataLoader` built without\n"
    "`pin_memory=True` (followed from its construction, through helpers and `**kwargs` dicts),\n"
    "or a tensor created on the CPU and never `.pin_memory()`-ed.\n\n"
    "## Why is this bad?\n"
    "An asynchronous host-to-device copy needs page-locked memory. From pageable memory the\n"
    "driver first copies into a staging buffer, synchronously: `non_blocking=True` does nothing\n"
    "and the expected overlap of copy and compute never happens.\n\n"
    "## Example\n"
    "```python\n"
    "loader = DataLoader(ds, batch_size=256, num_workers=8)\n"
    "for x, y in loader:\n"
    "    x = x.to(device, non_blocking=True)\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "loader = DataLoader(ds, batch_size=256, num_workers=8, pin_memory=True)\n"
    "```\n\n"
    "## When it does not fire\n"
    "- the loader has `pin_memory=True` (directly, in a `**kwargs` dict, or in a helper);\n"
    "- the tensor was `.pin_memory()`-ed;\n"
    "- whether the memory is pinned is unknown (a loader passed in as a parameter, a factory's\n"
    "  `pin_memory=` given a variable).\n";

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL202;
    if (!fact->method || (strcmp(fact->method, "to") != 0 && strcmp(fact->method, "cuda") != 0))
        return;
    const DlValue *v = fact->receiver_value;
    if (!dl_value_in_pageable_memory(v) || dl_ir_non_blocking(fact->call) != 1) return;
    const char *recv = dl_rule_snippet(ctx, fact->receiver->span);
    const char *source = v->origin == DL_ORIGIN_BATCH
                             ? "a batch from a DataLoader built without `pin_memory=True`"
                             : "a tensor in pageable (not pinned) host memory";
    /* a batch is pinned by its loader; a tensor a factory just made can be made on the device */
    const char *advice =
        v->origin == DL_ORIGIN_BATCH
            ? "pass `pin_memory=True` to the DataLoader (or `.pin_memory()` the tensor)"
        : v->origin == DL_ORIGIN_FACTORY
            ? "create it on the device (`device=`), or pinned (`pin_memory=True`) if it must "
              "start on the host"
            : "`.pin_memory()` the tensor where it is made";
    const char *message = dl_arena_printf(
        dl_rule_arena(ctx),
        "`non_blocking=True` has no effect: `%s` is %s (%s), so the copy is synchronous; %s",
        recv, source, dl_rule_where(ctx, v->home, v->dev_span.start), advice);
    dl_report_finding(ctx, &dl_rule_DL202, fact->call->span, fact->call->span, message, NULL);
}

const DlRule dl_rule_DL202 = {
    .code = "DL202",
    .name = "non-blocking-unpinned",
    .severity = DL_SEV_WARNING,
    .fixable = false,
    .default_enabled = true,
    .summary = "`.to(device, non_blocking=True)` from memory that is not pinned (the flag does "
               "nothing)",
    .doc = doc,
    .on_call = on_call,
};
