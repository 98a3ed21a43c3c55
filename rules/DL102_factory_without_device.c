/* DL102 factory-without-device: a tensor created without device= (so on the CPU) meets a
 * tensor on another device. */
#include <ctype.h>
#include <string.h>

#include "dataflow/torch_api.h"
#include "rules/fixes.h"
#include "rules/mismatch.h"

static const char doc[] =
    "## What it does\n"
    "Finds tensor factories (`torch.zeros`, `ones`, `empty`, `full`, `rand`, `randn`, `randint`,\n"
    "`arange`, `linspace`, `eye`, `tensor`, `as_tensor`, `from_numpy`, the legacy\n"
    "`torch.FloatTensor(...)`, ...) called without `device=` whose result then meets a tensor\n"
    "on another device: inside `forward`, a training or evaluation loop, or any function whose\n"
    "other operands are on a device. Meeting includes being handed to a layer, also inside a\n"
    "tuple (`self.lstm(x, (h0, c0))` with `h0 = torch.zeros(...)`), and in-place writes\n"
    "(`torch.zeros(n, k).scatter_(1, y, 1)` with `y` on the GPU). When the arms of an `if`\n"
    "each make the tensor on the CPU, each factory is reported.\n\n"
    "## Why is this bad?\n"
    "A factory without `device=` creates on the CPU (unless `torch.set_default_device` or a\n"
    "`with torch.device(...)` block says otherwise). Inside `forward` the inputs are on the\n"
    "model's device, so `x + torch.zeros(...)` fails with *Expected all tensors to be on the\n"
    "same device* as soon as the model runs on a GPU.\n\n"
    "## Example\n"
    "```python\n"
    "def forward(self, x):\n"
    "    mask = torch.ones(x.size(0), 1)\n"
    "    return self.fc(x) * mask\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "def forward(self, x):\n"
    "    mask = torch.ones(x.size(0), 1, device=x.device)  # or x.new_ones(...)\n"
    "    return self.fc(x) * mask\n"
    "```\n\n"
    "## Fix safety\n"
    "The fix passes `device=` naming the other operand's device (`device=x.device`, or the\n"
    "device variable it was moved with); offered when that can be named at the factory. For\n"
    "`torch.from_numpy`, `torch.frombuffer` and the legacy constructors (`torch.FloatTensor(n)`,\n"
    "`torch.Tensor(data)`), which take no `device=`, it appends `.to(...)` instead.\n\n"
    "## When it does not fire\n"
    "- the factory has `device=`, or is `*_like(x)` / `x.new_*(...)` (they follow `x`);\n"
    "- its data is a tensor: `torch.tensor(t)`, `torch.as_tensor(t)`, `torch.sparse_coo_tensor(i,\n"
    "  v)` and `torch.complex(re, im)` are made where their tensors are (a CPU tensor among them\n"
    "  is reported where it was made); so is `torch.as_tensor(p)` of a parameter that may\n"
    "  be a number or a tensor (`best_f: float | Tensor`), as it keeps a tensor where it is;\n"
    "  and `torch.Tensor(t)` of a tensor is an alias of it, where it is (the typed\n"
    "  constructors, `torch.FloatTensor(t)`, make CPU tensors);\n"
    "- `torch.set_default_device(...)` is called in the file, or the factory is inside\n"
    "  `with torch.device(...)`;\n"
    "- it is a parameter's default that the test in front of the use catches (`def\n"
    "  forward(self, pose, trans=torch.zeros(1))`, then `if trans is None or\n"
    "  bool(torch.norm(trans) == 0): ... else: verts + trans`): the other arm has what a\n"
    "  caller gave;\n"
    "- the tensor is 0-dim: `torch.tensor(0.5)`, `torch.tensor(2.0 / torch.pi)`,\n"
    "  `torch.tensor(cfg[\"mean\"] * 1.0)`, `torch.tensor(self.config.hidden_size ** 0.5)` (a\n"
    "  name for one size or count, `*_size`, `*_dim`, `*_len`, `num_*`, `n_*`, `seqlen*`, is an\n"
    "  int), a setting read with a number as its default (`params.get(\"num_segments\", 2)`),\n"
    "  a parameter annotated as a number (`t: float | None`, `n: Optional[int]`), a method of\n"
    "  the class whose returns are numbers and arithmetic of its attributes and parameters, one\n"
    "  at least a number written out (`return .0` or `return self.upper * step / self.end`), one\n"
    "  element of a 1-D tensor such as `torch.randint(lo, hi, (1,))[0]` (or of one made from data\n"
    "  whose rank is not known, `torch.tensor(cfg[\"point_cloud_range\"])[0]`), a dimension's "
    "length\n"
    "  (`torch.tensor(t.shape[0])`, `t.size(0)`, `t.numel()`), a size with no dimension\n"
    "  (`torch.ones([])`), a whole-tensor\n"
    "  reduction such as `torch.max(t)`. 0-dim CPU tensors may meet CUDA tensors;\n"
    "- it is read as a number or moved by PyTorch itself: a size, scale factor or padding\n"
    "  (`F.interpolate(x, (h, w))`, `F.pad(x, (p, p))`), `torch.roll`'s shifts and dims,\n"
    "  `ctc_loss`'s targets and lengths, or\n"
    "  a shape for `torch.broadcast_tensors(x, torch.empty(shape))`, which checks no devices;\n"
    "- it is passed to a project module whose `forward` (its `__call__`, if the class\n"
    "  defines one; or a method of its class that either hands it to) reads it only on the\n"
    "  host: the lengths of\n"
    "  `pack_padded_sequence`, `.tolist()`, `len(...)`, `int(...)`, only indexes with it\n"
    "  (`x[tokens.argmax(dim=-1)]`), hands it back as it came, or copies it to the CPU\n"
    "  before any other use (`counts = counts.to(\"cpu\")`), or copies it to where it\n"
    "  computes (`labels = labels.to(x.device)`, `labels = to_device(labels, embeddings)`,\n"
    "  a pipeline's `id_embeds = id_embeds.unsqueeze(0).to(device=device)`; a cast such as\n"
    "  `.to(torch.long)` is not a copy);\n"
    "- it is kept in an attribute that the class's own `cuda()`, `to()` or `_apply()` moves\n"
    "  (CDAN's RandomLayer: `self.random_matrix = [v.cuda() for v in self.random_matrix]`);\n"
    "- it is given to a diffusers pipeline (`pipe(prompt, latents=latents)`), which copies\n"
    "  the tensors it is given to its execution device;\n"
    "- the factory is inside `with torch.cuda.device(i):` (DL110 reports it);\n"
    "- it is in the `forward` of a module with no parameters, buffers or submodules made to\n"
    "  transform data (in a module named for transforms or augmentation, or built into a\n"
    "  `Compose([...])` of its own file): it runs where the data it is given is;\n"
    "- the meeting is in the `else` of `if torch.cuda.is_available():` (or the body of `if not\n"
    "  torch.cuda.is_available():`), which runs only where the module and the device are the\n"
    "  CPU, and where nothing is on CUDA (a tensor moved under an earlier check was not moved);\n"
    "  so is the `else` of `if self.use_cuda:`, a flag the class's own `cuda()` sets True (and\n"
    "  a move in its body, `eyes_ = eyes_.cuda()`, is where the module is);\n"
    "- everything stays on the CPU, or the other operand's device is unknown.\n";

/* Whether the factory called in `call_text` takes no `device=` (dl_torch_factory_takes_no_device:
 * `torch.from_numpy(a)`, `torch.FloatTensor(n)`), read from the name before its parenthesis. */
static bool takes_no_device(DlArena *arena, const char *call_text) {
    const char *open = strchr(call_text, '(');
    if (!open) return false;
    const char *name = open;
    while (name > call_text && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
        name--;
    return dl_torch_factory_takes_no_device(dl_arena_strndup(arena, name, (size_t)(open - name)));
}

static void report_factory(DlRuleContext *ctx, const DlMeetFact *fact, const DlValue *v,
                           const DlOperand *dev) {
    extern const DlRule dl_rule_DL102;
    DlArena *arena = dl_rule_arena(ctx);
    const char *line = dl_rule_where(ctx, NULL, fact->site->span.start);
    const char *site = v->home ? dl_arena_printf(arena, "%s %s", dl_rule_source(ctx)->path, line)
                               : line;
    const char *call_text = dl_rule_text_in(ctx, v->home, v->dev_span);
    bool no_device = takes_no_device(arena, call_text);
    const char *message = dl_arena_printf(
        arena, "`%s` creates a tensor on the cpu%s that meets another device at %s (`%s`): %s; %s",
        v->dev_why ? v->dev_why : call_text, no_device ? "" : " (no `device=`)", site,
        dl_rule_snippet(ctx, fact->site->span),
        dl_meet_describe(ctx, dev),
        no_device ? "copy it there with `.to(...)`"
                  : "create it there with `device=` (or a `*_like` / `new_*` factory)");
    DlFix *fix = NULL;
    const char *where = dl_device_expression(ctx, dev);
    if (where && !dl_fix_can_name_at(ctx, where, v->dev_span, dev->expr ? dev->expr->span
                                                                          : fact->site->span))
        where = NULL; /* `device` of another def, or bound after the factory */
    if (!v->home && where && no_device) {
        const char *text = dl_arena_printf(arena, "%s.to(%s)", call_text, where);
        fix = dl_rule_fix_replace(ctx, dl_arena_printf(arena, "Copy it to the device: `.to(%s)`",
                                                       where),
                                  v->dev_span, text);
    } else if (!v->home && where) {
        fix = dl_fix_add_keyword_at(ctx, v->dev_span, "device", where);
    }
    dl_report_finding_in(ctx, &dl_rule_DL102, v->home, v->dev_span, v->dev_span, message, fix);
}

static bool factory_on_the_cpu(const DlValue *v) {
    return dl_value_is_cpu_tensor(v) && v->origin == DL_ORIGIN_FACTORY &&
           !(v->flags & DL_VF_MOVE_DISCARDED) && /* DL101 explains it */
           !(v->flags & DL_VF_CUDA_CONTEXT);     /* DL110 says why it is on the cpu */
}

/* Every factory-made CPU operand is reported, not only the first: `self.lstm(x, (h0, c0))`
 * has two, and `--fix` mends both. So is each factory of an `if`/`else` that made the operand
 * on its path: a fix of one would leave the other. The same factory twice (`t * t`) is one. */
static void on_meet(DlRuleContext *ctx, const DlMeetFact *fact) {
    const DlOperand *dev = dl_meet_device_operand(fact);
    if (!dev) return;
    enum { MAX_REPORTED = 16 };
    const DlValue *reported[MAX_REPORTED];
    uint32_t n_reported = 0;
    for (uint32_t i = 0; i < fact->count; i++) {
        const DlValue *v = fact->operands[i].value;
        if (!factory_on_the_cpu(v)) continue;
        for (const DlValue *f = v; f && n_reported < MAX_REPORTED;
             f = dl_value_other_factory(f)) {
            if (!factory_on_the_cpu(f)) continue;
            bool seen = false;
            for (uint32_t j = 0; j < n_reported && !seen; j++)
                seen = reported[j]->dev_span.start == f->dev_span.start &&
                       reported[j]->home == f->home;
            if (seen) continue;
            reported[n_reported++] = f;
            report_factory(ctx, fact, f, dev);
        }
    }
}

const DlRule dl_rule_DL102 = {
    .code = "DL102",
    .name = "factory-without-device",
    .severity = DL_SEV_ERROR,
    .fixable = true,
    .default_enabled = true,
    .summary = "A tensor created without `device=` (on the CPU) meets a tensor on another device",
    .doc = doc,
    .on_meet = on_meet,
};
