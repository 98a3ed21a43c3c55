/* DL302 hardcoded-device-index: a fixed GPU index, or "cuda" without a per-rank device in a
 * distributed script. */
#include <ctype.h>
#include <string.h>

#include "rules/portability.h"

static const char doc[] =
    "## What it does\n"
    "Finds `\"cuda:1\"`-style device literals, and in a distributed script (one that calls\n"
    "`init_process_group`) without `torch.cuda.set_device(local_rank)`: `.to(\"cuda\")`,\n"
    "`.cuda()` and `torch.load` without `map_location`. Off by default: enable it with\n"
    "`--select DL302` (or `DL3`).\n\n"
    "## Why is this bad?\n"
    "A fixed index breaks on machines with fewer GPUs and ignores `CUDA_VISIBLE_DEVICES`\n"
    "conventions. In a distributed job, `\"cuda\"` means the *current* device, which is GPU 0 in\n"
    "every process unless each rank calls `torch.cuda.set_device(local_rank)`: all ranks pile\n"
    "onto GPU 0 and run out of memory or deadlock in NCCL.\n\n"
    "## Example\n"
    "```python\n"
    "dist.init_process_group(\"nccl\")\n"
    "model = Net().cuda()\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "dist.init_process_group(\"nccl\")\n"
    "local_rank = int(os.environ[\"LOCAL_RANK\"])\n"
    "torch.cuda.set_device(local_rank)\n"
    "model = Net().cuda()\n"
    "```\n\n"
    "## When it does not fire\n"
    "- `torch.cuda.set_device(...)` is called in the file, or devices are built from the rank\n"
    "  (`f\"cuda:{local_rank}\"`, `torch.device(\"cuda\", local_rank)`);\n"
    "- scripts that are not distributed and use plain `\"cuda\"` or `\"cuda:0\"` (GPU 0\n"
    "  exists wherever a GPU does);\n"
    "- a higher index used where the code counts the GPUs (`if torch.cuda.device_count() >=\n"
    "  2:` in the same function, or at the top level of the script).\n";

static bool indexed_cuda(const char *s) {
    if (strncmp(s, "cuda:", 5) != 0 || !s[5]) return false;
    for (const char *p = s + 5; *p; p++)
        if (!isdigit((unsigned char)*p)) return false;
    return true;
}

/* A script whose processes may be ranks of one job: there, "cuda:0" is every rank's GPU. */
static bool distributed_file(DlRuleContext *ctx) {
    return dl_rule_file_mentions(ctx, "init_process_group") ||
           dl_rule_file_mentions(ctx, "torch.distributed") ||
           dl_rule_file_mentions(ctx, "local_rank") || dl_rule_file_mentions(ctx, "LOCAL_RANK");
}

/* Does a fixed index need reporting? "cuda:0" exists wherever a GPU does: only a distributed
 * script misuses it. A higher index chosen where the code counts the GPUs (`if
 * torch.cuda.device_count() >= 2:`) cannot be missing. */
static bool index_may_fail(DlRuleContext *ctx, const DlCallFact *fact, const char *literal) {
    if (strcmp(literal, "cuda:0") == 0) return distributed_file(ctx);
    const DlFunction *fn = fact->place->function;
    return fn ? !dl_ir_span_mentions(dl_rule_source(ctx), fn->span, "device_count(")
              : !dl_rule_scope_mentions(ctx, fact->place, "device_count(");
}

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL302;
    DlArena *arena = dl_rule_arena(ctx);
    DlDeviceLiteral lit;
    bool has_lit = dl_call_device_literal(fact, &lit);
    if (has_lit && indexed_cuda(lit.text)) {
        if (!index_may_fail(ctx, fact, lit.text)) return;
        const char *message = dl_arena_printf(
            arena,
            "`\"%s\"` hard-codes a GPU index: it fails on machines with fewer GPUs and every "
            "process of a distributed job uses that GPU; derive the index from the local rank or "
            "configuration",
            lit.text);
        dl_report_finding_in(ctx, &dl_rule_DL302, lit.home, lit.span, lit.span, message, NULL);
        return;
    }
    if (!dl_rule_file_mentions(ctx, "init_process_group") || dl_rule_file_mentions(ctx, "set_device")) return;
    bool cuda_call = fact->method && strcmp(fact->method, "cuda") == 0 && fact->call->arg_count == 0;
    bool cuda_to = has_lit && strcmp(lit.text, "cuda") == 0;
    bool load = fact->qualified && strcmp(fact->qualified, "torch.load") == 0 &&
                !dl_ir_keyword(fact->call, "map_location") && !dl_ir_positional(fact->call, 1);
    if (!cuda_call && !cuda_to && !load) return;
    const char *message = dl_arena_printf(
        arena,
        "`%s` in a distributed script that never calls `torch.cuda.set_device(local_rank)`: "
        "\"cuda\" is GPU 0 in every rank; set the device per rank first",
        dl_rule_snippet(ctx, fact->call->span));
    dl_report_finding(ctx, &dl_rule_DL302, fact->call->span, fact->call->span, message, NULL);
}

const DlRule dl_rule_DL302 = {
    .code = "DL302",
    .name = "hardcoded-device-index",
    .severity = DL_SEV_INFO,
    .fixable = false,
    .default_enabled = false,
    .summary = "A hard-coded GPU index, or \"cuda\" in a distributed script without "
               "`set_device(local_rank)`",
    .doc = doc,
    .on_call = on_call,
};
