/* DL301 hardcoded-cuda: CUDA named literally in a file that never checks for a GPU. */
#include <string.h>

#include "dataflow/torch_api.h"
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
    "- the file checks `torch.cuda.is_available()` anywhere, tests included (`@pytest.mark.\n"
    "  skipif(not torch.cuda.is_available(), ...)`);\n"
    "- in a function that runs only where CUDA is in use: a class's own `cuda()` or `to()`\n"
    "  (a tensor-like wrapper forwarding the request), or one that tests where its input is\n"
    "  (`if x.is_cuda:`, `if \"cuda\" in str(self.device):`);\n"
    "- devices held in variables (`.to(device)`).\n";

/* Code that runs only where CUDA is already in use: a tensor-like class's own `cuda()` (or
 * `to()`), forwarding the caller's request (openfold's Rotation.cuda), or a function that tests
 * where its input is (`if rgb.is_cuda: mask = mask.cuda()`, `if "cuda" in str(self.device)`). */
static bool runs_only_on_request(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlFunction *fn = fact->place->function;
    if (!fn) return false;
    static const char *const device_api[] = {"cuda", "to", "_apply", NULL};
    if (dl_name_in_list(fn->name, device_api)) return true;
    const DlSource *src = dl_rule_source(ctx);
    return dl_ir_span_mentions(src, fn->span, ".is_cuda") ||
           dl_ir_span_mentions(src, fn->span, "\"cuda\" in ") ||
           dl_ir_span_mentions(src, fn->span, "'cuda' in ");
}

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL301;
    if (dl_rule_code_mentions(ctx, "is_available")) return;
    if (runs_only_on_request(ctx, fact)) return;
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
