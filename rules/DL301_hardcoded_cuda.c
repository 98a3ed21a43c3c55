/* DL301 hardcoded-cuda: CUDA named literally in a file that never checks for a GPU. */
#include <string.h>

#include "rules/portability.h"

static const char doc[] =
    "## What it does\n"
    "Finds `.cuda()` and `\"cuda\"` device strings (`.to(\"cuda\")`, `torch.device(\"cuda\")`,\n"
    "`device=\"cuda\"`, `map_location=\"cuda\"`, `torch.set_default_device(\"cuda\")`, or a\n"
    "`DEVICE = \"cuda\"` constant that such calls use) in a file that never calls\n"
    "`torch.cuda.is_available()`. Off by default: enable it with `--select DL301` (or `DL3`).\n\n"
    "## Why is this bad?\n"
    "The script fails on a machine without a GPU (CI runners, laptops, Apple silicon) with\n"
    "*Torch not compiled with CUDA enabled* or *No CUDA GPUs are available*.\n\n"
    "## Example\n"
    "```python\n"
    "model = Net().cuda()\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "device = torch.device(\"cuda\" if torch.cuda.is_available() else \"cpu\")\n"
    "model = Net().to(device)\n"
    "```\n\n"
    "## When it does not fire\n"
    "- the file checks `torch.cuda.is_available()` anywhere;\n"
    "- devices held in variables (`.to(device)`).\n";

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL301;
    if (dl_rule_file_mentions(ctx, "is_available")) return;
    DlSpan at;
    const DlModuleIR *home = NULL;
    const char *what;
    DlDeviceLiteral lit;
    if (fact->method && strcmp(fact->method, "cuda") == 0) {
        at = fact->call->span;
        what = "`.cuda()`";
    } else if (dl_call_device_literal(fact, &lit) && strncmp(lit.text, "cuda", 4) == 0) {
        at = lit.span;
        home = lit.home;
        what = dl_arena_printf(dl_rule_arena(ctx), "`\"%s\"`", lit.text);
    } else {
        return;
    }
    const char *message = dl_arena_printf(
        dl_rule_arena(ctx),
        "%s assumes a GPU, and this file never checks `torch.cuda.is_available()`: it fails on "
        "machines without CUDA; pick the device once (`device = torch.device(\"cuda\" if "
        "torch.cuda.is_available() else \"cpu\")`) and use `.to(device)`",
        what);
    dl_report_finding_in(ctx, &dl_rule_DL301, home, at, at, message, NULL);
}

const DlRule dl_rule_DL301 = {
    .code = "DL301",
    .name = "hardcoded-cuda",
    .severity = DL_SEV_INFO,
    .fixable = false,
    .default_enabled = false,
    .summary = "`.cuda()` or `\"cuda\"` used without a GPU availability check",
    .doc = doc,
    .on_call = on_call,
};
