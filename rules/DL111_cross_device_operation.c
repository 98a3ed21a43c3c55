/* DL111 cross-device-operation: two values on known, different devices meet in one operation,
 * and no more specific rule (DL102-DL106) explains why. */
#include "rules/mismatch.h"

static const char doc[] =
    "## What it does\n"
    "Finds an operation (arithmetic, a torch function, a tensor method, a module call) whose\n"
    "operands are on known, different devices, when no more specific rule names the cause: a\n"
    "tensor brought back with `.cpu()` and combined with a GPU tensor, `\"cuda:0\"` meeting\n"
    "`\"cuda:1\"` (a model moved to `\"cuda:4\"` called on a batch moved to `\"cuda:2\"`), a\n"
    "`meta` tensor meeting a CUDA one. Also the one operand PyTorch wants on the CPU whatever\n"
    "the rest: the lengths of `pack_padded_sequence(x, lengths)`, moved to a device\n"
    "(`lengths.to(device)`), which raises *'lengths' argument should be a 1D CPU int64 tensor*\n"
    "since PyTorch 1.7.\n\n"
    "## Why is this bad?\n"
    "PyTorch requires the operands of one operation on one device (0-dim CPU tensors excepted):\n"
    "the line raises *Expected all tensors to be on the same device*.\n\n"
    "## Example\n"
    "```python\n"
    "baseline = scores.cpu()\n"
    "delta = model(x.to(device)) - baseline\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "delta = model(x.to(device)) - baseline.to(device)\n"
    "```\n\n"
    "## When it does not fire\n"
    "- one operand is a 0-dim CPU tensor (`torch.tensor(0.5)`, `x.sum()` of a CPU tensor), or\n"
    "  may be one: a table indexed by a variable (`sigmas[step_index]`);\n"
    "- a device is unknown (`cuda` and a device variable may be the same device; the output\n"
    "  of `nn.DataParallel` around a module never moved, gathered on GPU 0 when there is one);\n"
    "- a project module that holds nothing a device could (numbers, strings, and attributes\n"
    "  its methods only index or compare: a CTC decoder's `self.labels[i]`) is called with a\n"
    "  CPU tensor: it computes where its input is;\n"
    "- a more specific rule reports it: a factory without `device=` (DL102), a loss weight\n"
    "  (DL103), a data-loader batch (DL104), an unmoved model (DL105), a plain module\n"
    "  attribute (DL106).\n";

static bool owned_by_specific_rule(const DlMeetFact *fact) {
    for (uint32_t i = 0; i < fact->count; i++) /* a thrown-away .to() (DL101) is the cause */
        if (fact->operands[i].value->flags & DL_VF_MOVE_DISCARDED) return true;
    if (dl_meet_cpu_operand(fact, DL_ORIGIN_FACTORY) || dl_meet_cpu_operand(fact, DL_ORIGIN_BATCH) ||
        dl_meet_cpu_operand(fact, DL_ORIGIN_PLAIN_ATTR))
        return true;
    if (fact->callee >= 0) {
        const DlValue *c = fact->operands[fact->callee].value;
        if (c->kind == DL_KIND_LOSS && (c->flags & DL_VF_CPU_WEIGHT)) return true;
        if (c->kind == DL_KIND_MODULE && c->dev == DL_DEV_CPU && (c->flags & DL_VF_CONSTRUCTED) &&
            !(c->flags & DL_VF_MOVED))
            return true;
    }
    return false;
}

/* The two operands that disagree: a cpu tensor and a device operand, or two devices. */
static bool pick(const DlMeetFact *fact, const DlOperand **a, const DlOperand **b) {
    *a = NULL;
    for (uint32_t i = 0; i < fact->count; i++)
        if (dl_value_is_cpu_tensor(fact->operands[i].value)) *a = &fact->operands[i];
    if (*a) {
        *b = dl_meet_device_operand(fact);
        return *b != NULL;
    }
    for (uint32_t i = 0; i < fact->count; i++)
        for (uint32_t j = i + 1; j < fact->count; j++) {
            const DlValue *x = fact->operands[i].value, *y = fact->operands[j].value;
            bool module_and_tensor =
                (dl_value_module_on_gpu_index(x) && y->kind == DL_KIND_TENSOR) ||
                (x->kind == DL_KIND_TENSOR && dl_value_module_on_gpu_index(y));
            if (!module_and_tensor && (x->kind != DL_KIND_TENSOR || y->kind != DL_KIND_TENSOR))
                continue;
            bool meta_x = x->dev == DL_DEV_META, meta_y = y->dev == DL_DEV_META;
            if ((meta_x && y->dev && !meta_y) || (meta_y && x->dev && !meta_x) ||
                (x->dev == DL_DEV_CUDA && y->dev == DL_DEV_CUDA)) {
                *a = &fact->operands[i];
                *b = &fact->operands[j];
                return true;
            }
        }
    return false;
}

static void on_meet(DlRuleContext *ctx, const DlMeetFact *fact) {
    extern const DlRule dl_rule_DL111;
    if (owned_by_specific_rule(fact)) return;
    const DlOperand *a, *b;
    if (!pick(fact, &a, &b)) return;
    const char *message = dl_arena_printf(
        dl_rule_arena(ctx), "operands on different devices meet in `%s`: %s, but %s",
        dl_rule_snippet(ctx, fact->site->span), dl_meet_describe(ctx, a), dl_meet_describe(ctx, b));
    dl_report_finding(ctx, &dl_rule_DL111, fact->site->span, fact->site->span, message, NULL);
}

/* `pack_padded_sequence(x, lengths)` reads its lengths on the host: since PyTorch 1.7 a tensor
 * of lengths on a device raises *'lengths' argument should be a 1D CPU int64 tensor, but got 1D
 * cuda:0 Long tensor*, wherever the input is. */
static bool packs_padded_sequences(const char *qualified) {
    static const char packer[] = "pack_padded_sequence";
    size_t n = qualified ? strlen(qualified) : 0, k = sizeof packer - 1;
    return n >= k && strcmp(qualified + n - k, packer) == 0 &&
           (n == k || (qualified[n - k - 1] == '.' && strncmp(qualified, "torch.", 6) == 0));
}

/* The move that put `v` on its device binds `name` itself: `x_lens = x_lens.to(DEVICE)`, `feats,
 * lens = feats.to(d), lens.to(d)`, `lens = batch["len"].cuda()`; not a value handed back by a
 * call given moved tensors (a decoder's `decode_lengths = out[3]`, as often a list). */
static bool moved_into_the_name(DlRuleContext *ctx, const DlValue *v, const char *name) {
    const DlSource *src = dl_rule_source(ctx);
    if (v->home || v->dev_span.end <= v->dev_span.start || v->dev_span.start > src->len)
        return false;
    const char *text = src->text, *at = text + v->dev_span.start;
    const char *line = dl_source_line_start_of(text, at);
    const char *eq = NULL; /* the last `=` before the move that is an assignment's */
    for (const char *p = line; p < at; p++)
        if (*p == '=' && (p + 1 >= at || p[1] != '=') &&
            (p == line || !strchr("=!<>+-*/%&|^:", p[-1])))
            eq = p;
    if (!eq) return false;
    size_t n = strlen(name);
    for (const char *p = line; p + n <= eq; p++)
        if (memcmp(p, name, n) == 0 && (p == line || !dl_source_name_byte(p[-1])) &&
            !dl_source_name_byte(p[n]) && (p == line || p[-1] != '.'))
            return true;
    return false;
}

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL111;
    if (!packs_padded_sequences(fact->qualified) || fact->method || fact->without_cuda) return;
    const DlExpr *call = fact->call;
    unsigned position = 0;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        bool lengths = kw ? strcmp(kw, "lengths") == 0 : position++ == 1;
        if (!lengths) continue;
        const DlValue *v = fact->args[i];
        /* a value of unknown kind moved to a device (`lens.to(device)` of a parameter) is a
         * tensor here: nothing else both moves and is a valid `lengths`. Only what the code
         * itself moved under that name (also then halved: `x_lens = x_lens // 2`), see
         * moved_into_the_name */
        if (!v || (v->kind != DL_KIND_TENSOR && v->kind != DL_KIND_UNKNOWN) ||
            (v->origin != DL_ORIGIN_MOVED && v->origin != DL_ORIGIN_NONE) ||
            (v->flags & (DL_VF_UNPACKED | DL_VF_DEVICE_OF_UNKNOWN)) ||
            (v->dev != DL_DEV_CUDA && v->dev != DL_DEV_NAMED) ||
            dl_on_a_parameters_device(fact->place->function, v))
            return;
        const DlExpr *arg = call->args[i].value;
        if (arg->kind != DL_EX_NAME || !moved_into_the_name(ctx, v, arg->name)) return;
        const char *message = dl_arena_printf(
            dl_rule_arena(ctx),
            "`pack_padded_sequence` takes its lengths on the CPU (a 1D int64 tensor or a list), "
            "but `%s` is %s; pass `%s.cpu()`",
            arg->name, dl_rule_placement(ctx, v), arg->name);
        dl_report_finding(ctx, &dl_rule_DL111, arg->span, arg->span, message, NULL);
        return;
    }
}

const DlRule dl_rule_DL111 = {
    .code = "DL111",
    .name = "cross-device-operation",
    .severity = DL_SEV_ERROR,
    .fixable = false,
    .default_enabled = true,
    .summary = "Two values on known, different devices meet in one operation",
    .doc = doc,
    .on_meet = on_meet,
    .on_call = on_call,
};
