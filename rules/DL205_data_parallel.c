/* DL205 data-parallel: nn.DataParallel, which PyTorch recommends replacing with
 * DistributedDataParallel. */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/files.h"
#include "dataflow/torch_api.h"
#include "rules/facts.h"
#include "rules/options.h"

static const char doc[] =
    "## What it does\n"
    "Finds `nn.DataParallel(model)`, also through a project subclass of it (`class\n"
    "MyDataParallel(nn.DataParallel)`, written to forward attribute reads to the module).\n\n"
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
    "- `DistributedDataParallel` (or a project subclass of it), FSDP, or no wrapper;\n"
    "- in a test (a `test_*` function, a method of a `Test*` class, a function of a test file:\n"
    "  `test_*.py`, `*_test.py`, `conftest.py`, in a `tests/` folder), which checks what the\n"
    "  wrapper does (its `module.` keys, its outputs) rather than training with it; a training\n"
    "  script's `def\n"
    "  test(args, model)`, which evaluates with the wrapper, is no test;\n"
    "- a wrapper built in an expression statement, kept by nothing (`nn.DataParallel(net).to(\n"
    "  device) if n_gpu > 1 else net.to(device)`, which moves the model and drops the wrapper);\n"
    "- a wrapper that nothing runs or hands on, only unwraps (also when moved or switched in\n"
    "  mode as it is built, `nn.DataParallel(model, device_ids=[0, 1]).to(device)`, or\n"
    "  later, `model = model.to(f'cuda:{model.device_ids[0]}')`;\n"
    "  `model.module`, `model =\n"
    "  model.module`, or under the flag it was built under: `if is_parallel: net =\n"
    "  nn.DataParallel(net)`, then `if is_parallel: net = net.module`; or under `if\n"
    "  hasattr(model, 'module'):`, true of the wrapper; or bound anew in every arm of a later\n"
    "  `if`/`elif`/`else`, a notebook's later cell loading or building the model; or in a\n"
    "  `try` whose\n"
    "  handlers raise again; or an attribute, `self.model = self.model.module`): built to load a\n"
    "  checkpoint whose keys start with `module.`, it never scatters a batch (a name the\n"
    "  function declares `global` is handed on: the module's other functions run it);\n"
    "- one device given (`device_ids=[0]`, also as the second argument, or a name bound to\n"
    "  such a list, `gpus = [0]` and `device_ids=[i for i in range(len(gpus))]`, or a\n"
    "  parameter whose default is one, `def main(device_ids=[0])`, or `list(range(parallel))`\n"
    "  of a parameter defaulting to 1, or `range(ngpu)` of a name bound to 1 (`ngpu = 1`) or\n"
    "  of an option that defaults to 1 (`--ngpu`, `default=1`), or a list of one in a settings\n"
    "  dict's entry (`params[\"gpu\"] = [0]` at the top of the file) or in a config module of\n"
    "  the project (`cfg.gpu_ids` of `gpu_ids = [0]`); or a project subclass whose\n"
    "  `__init__` hands\n"
    "  DataParallel one device on every path, or skips its `__init__`: Open-Catalyst's\n"
    "  `OCPDataParallel` built with `num_gpus=1 if not self.cpu else 0`): the wrapper then calls\n"
    "  the module itself;\n"
    "- where there is no GPU (the else of `if torch.cuda.is_available():`, the body of `if not\n"
    "  torch.cuda.is_available():`, or the arm of `if cuda:` that moves nothing when the other\n"
    "  builds the wrapper and moves it: `net = nn.DataParallel(net).cuda()`): the wrapper has\n"
    "  no devices and calls the module itself, kept so that `.module` works on both paths;\n"
    "- a wrapper rebuilt around a converted module under `if isinstance(module,\n"
    "  nn.DataParallel):` (sync_batchnorm's `convert_model`): the caller chose it, and is\n"
    "  reported there;\n"
    "- under a switch that is off as shipped: `settings.multi_gpu = False` earlier in the\n"
    "  function, or `MULTI_GPU_TESTING = False` at the top of the file that no function sets\n"
    "  through `global`; the wrapper is never built.\n";

/* Attributes that give something else than the wrapper: its module, its state. (`eval()`,
 * `cuda()`, `to()` give the wrapper itself: `return model.eval()` hands it on.) */
static bool leaves_the_wrapper(const char *attr) {
    static const char *const names[] = {"module",     "load_state_dict", "state_dict",
                                        "parameters", "named_parameters", "modules",
                                        "children",   "buffers",          "device_ids",
                                        "output_device", NULL};
    return dl_name_in_list(attr, names);
}

/* Whether `e` is what holds the wrapper: `name` is a name (`model`) or a dotted attribute
 * (`self.model`, torchxrayvision's emory_hiti baseline). */
static bool holds_it(const DlExpr *e, const char *name, size_t len) {
    if (!e || !e->name) return false;
    size_t n = strlen(e->name);
    if (e->kind == DL_EX_NAME) return n == len && strncmp(e->name, name, len) == 0;
    return e->kind == DL_EX_ATTR && len > n + 1 && name[len - n - 1] == '.' &&
           strncmp(name + len - n, e->name, n) == 0 && holds_it(e->object, name, len - n - 1);
}

static bool is_holder(const DlExpr *e, const char *name) {
    return holds_it(e, name, strlen(name));
}

/* `hasattr(model, ...)` or `isinstance(model, ...)` of the holder, the rest no call */
static bool probes_the_holder(const DlExpr *e, const char *name) {
    if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_NAME ||
        (strcmp(e->object->name, "hasattr") != 0 && strcmp(e->object->name, "isinstance") != 0) ||
        e->arg_count != 2 || e->args[0].keyword || !is_holder(e->args[0].value, name))
        return false;
    const DlExpr *what = e->args[1].value;
    return what->kind == DL_EX_STRING || what->kind == DL_EX_NAME || what->kind == DL_EX_ATTR ||
           what->kind == DL_EX_TUPLE;
}

/* `hasattr(model, "module")`, `isinstance(model, nn.DataParallel)`: true of the wrapper, so
 * the body of an `if` on it runs */
static bool true_of_the_wrapper(const DlExpr *e, const char *name) {
    if (!e || !probes_the_holder(e, name)) return false;
    const DlExpr *what = e->args[1].value;
    if (strcmp(e->object->name, "hasattr") == 0)
        return what->kind == DL_EX_STRING && what->name && strcmp(what->name, "module") == 0;
    return (what->kind == DL_EX_NAME || what->kind == DL_EX_ATTR) && what->name &&
           strcmp(what->name, "DataParallel") == 0;
}

/* Does `e` run the wrapper held in `name`, or hand it on (where it may run)? Every use but
 * `model.module` and the like (leaves_the_wrapper) counts: `model(x)`, `f(model)`,
 * `model.forward(x)`, `return model.eval()`. */
static bool runs_or_escapes(const DlExpr *e, const char *name, bool as_object, int depth) {
    if (!e || depth > 48) return false;
    if (is_holder(e, name)) return !as_object;
    if (e->kind == DL_EX_NAME) return false;
    if (e->kind == DL_EX_ATTR)
        return runs_or_escapes(e->object, name, e->name && leaves_the_wrapper(e->name), depth + 1);
    /* `hasattr(model, "module")`, `isinstance(model, nn.DataParallel)`: a test of it */
    if (probes_the_holder(e, name)) return false;
    /* `print(model)`, `str(model)`: its description, nothing run (a segmentation script's
     * summary of the wrapper whose head it replaced) */
    static const char *const describers[] = {"print", "str", "repr", "len", NULL};
    if (e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_NAME &&
        dl_name_in_list(e->object->name, describers)) {
        for (uint32_t i = 0; i < e->arg_count; i++)
            if (!is_holder(e->args[i].value, name) &&
                runs_or_escapes(e->args[i].value, name, false, depth + 1))
                return true;
        return false;
    }
    if (runs_or_escapes(e->object, name, false, depth + 1)) return true;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (runs_or_escapes(e->items[i], name, false, depth + 1)) return true;
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (runs_or_escapes(e->args[i].value, name, false, depth + 1)) return true;
    const DlExprExtra *x = (e->flags & DL_EXF_CPP) ? NULL : dl_expr_extra(e);
    return x && (runs_or_escapes(x->target, name, false, depth + 1) ||
                 runs_or_escapes(x->iter, name, false, depth + 1));
}

static bool block_runs(const DlBlock *b, const char *name, int depth);

/* `model.cuda()`, `model.eval()` as statements: the wrapper they give back is dropped */
static bool discarded_method_call(const DlStmt *s, const char *name) {
    const DlExpr *v = s->value;
    if (s->kind != DL_ST_EXPR || !v || v->kind != DL_EX_CALL || !v->object) return false;
    const DlExpr *m = v->object;
    if (m->kind != DL_EX_ATTR || !m->name || strcmp(m->name, "forward") == 0 ||
        strcmp(m->name, "__call__") == 0 || !is_holder(m->object, name))
        return false;
    for (uint32_t i = 0; i < v->arg_count; i++)
        if (runs_or_escapes(v->args[i].value, name, false, 0)) return false;
    return true;
}

static bool stmt_runs(const DlStmt *s, const char *name, int depth) {
    if (depth > 32) return true;
    /* `mdp` alone on a line: a notebook shows the wrapper's repr; nothing runs */
    if (s->kind == DL_ST_EXPR && s->value && s->value->kind == DL_EX_NAME) return false;
    if (!discarded_method_call(s, name) && runs_or_escapes(s->value, name, false, 0)) return true;
    for (uint32_t w = 0; s->kind == DL_ST_WITH && w < s->with_count; w++)
        if (runs_or_escapes(s->withs[w], name, false, 0)) return true;
    if (s->kind == DL_ST_DEF && s->parts->func) /* a closure may run it */
        return block_runs(&s->parts->func->body, name, depth + 1);
    const DlBlock *inner;
    for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
        if (block_runs(inner, name, depth + 1)) return true;
    return false;
}

static bool block_runs(const DlBlock *b, const char *name, int depth) {
    for (uint32_t i = 0; i < b->count; i++)
        if (stmt_runs(b->items[i], name, depth)) return true;
    return false;
}

static const char *const gives_itself_back[] = {"to",    "cuda", "cpu",    "eval", "train",
                                                "float", "half", "double", NULL};

/* `model = model.to(f'cuda:{model.device_ids[0]}')`: the wrapper held in `name`, moved or
 * switched in mode and bound to it again, nothing run on the way (a notebook's cell that tries
 * DataParallel and builds the model anew in a later one) */
static bool moves_the_holder(const DlStmt *s, const char *name) {
    const DlExpr *v = s->value;
    if (s->kind != DL_ST_ASSIGN || s->target_count != 1 || !is_holder(s->targets[0], name) ||
        !v || v->kind != DL_EX_CALL || !v->object || v->object->kind != DL_EX_ATTR ||
        !dl_name_in_list(v->object->name, gives_itself_back) || !is_holder(v->object->object, name))
        return false;
    for (uint32_t i = 0; i < v->arg_count; i++)
        if (runs_or_escapes(v->args[i].value, name, false, 0)) return false;
    return true;
}

/* `value` is the wrapper `call` builds, or it moved or switched in mode, which gives it back:
 * `nn.DataParallel(model, device_ids=[0, 1]).to(device)` (R-DTI's feature extractors). */
static bool gives_the_wrapper(const DlExpr *value, const DlExpr *call) {
    for (int depth = 0; value && value != call && depth < 8; depth++) {
        if (value->kind != DL_EX_CALL || !value->object || value->object->kind != DL_EX_ATTR ||
            !dl_name_in_list(value->object->name, gives_itself_back))
            return false;
        value = value->object->object;
    }
    return value && value == call;
}

/* Where following the wrapper from its assignment got in a block. */
typedef enum {
    NOT_HERE, /* the assignment is not in this block */
    RUNS,     /* something after it runs the wrapper or hands it on */
    DROPPED,  /* the name is bound anew before anything does */
    OPEN,     /* neither, up to the block's end: what follows the block decides */
} Followed;

/* `name = ...`, `name, other = ...` */
static bool rebinds(const DlStmt *s, const char *name) {
    if (s->kind != DL_ST_ASSIGN) return false;
    for (uint32_t t = 0; t < s->target_count; t++) {
        const DlExpr *e = s->targets[t];
        if (is_holder(e, name)) return true;
        for (uint32_t i = 0; (e->kind == DL_EX_TUPLE || e->kind == DL_EX_LIST) && i < e->item_count; i++)
            if (e->items[i]->kind == DL_EX_NAME && strcmp(e->items[i]->name, name) == 0) return true;
    }
    return false;
}

/* `flag` and `args.parallel`: the same name or attribute chain; or the same test written
 * twice of such names, subscripts with constant keys and literals (`config["n_gpu"] > 1`). */
static bool same_reference(const DlExpr *a, const DlExpr *b, int depth) {
    if (!a || !b || a->kind != b->kind || depth > 8) return false;
    if (a->kind == DL_EX_NAME) return strcmp(a->name, b->name) == 0;
    if (a->kind == DL_EX_NUMBER || a->kind == DL_EX_STRING || a->kind == DL_EX_CONST)
        return a->name && b->name && strcmp(a->name, b->name) == 0;
    if (a->kind == DL_EX_SUBSCRIPT || a->kind == DL_EX_COMPARE) {
        if (a->item_count != b->item_count ||
            (a->kind == DL_EX_SUBSCRIPT && !same_reference(a->object, b->object, depth + 1)) ||
            (a->kind == DL_EX_COMPARE && (!a->name || !b->name || strcmp(a->name, b->name))))
            return false;
        for (uint32_t i = 0; i < a->item_count; i++)
            if (!same_reference(a->items[i], b->items[i], depth + 1)) return false;
        return true;
    }
    return a->kind == DL_EX_ATTR && a->name && b->name && strcmp(a->name, b->name) == 0 &&
           same_reference(a->object, b->object, depth + 1);
}

/* Every `except` of the try statement `t` ends by raising. */
static bool every_handler_raises(const DlStmt *t) {
    for (uint32_t h = 0; h < t->parts->handler_count; h++) {
        const DlBlock *b = &t->parts->handlers[h];
        if (!b->count || b->items[b->count - 1]->kind != DL_ST_RAISE) return false;
    }
    return true;
}

/* The statements of `b` from `from` on, until one runs the wrapper or binds its name anew;
 * the wrapper's own assignment (reached again in a loop) is skipped. A wrapper built under
 * `if guard:` is let go under a later `if guard:` that binds its name anew before it runs
 * (Cheap-Conv's `forgiving_state_restore`: `if is_parallel: net = nn.DataParallel(net)`, the
 * checkpoint loaded, then `if is_parallel: net = net.module`): where it was not built, that
 * branch does not run either. */
static Followed scan_after(const DlBlock *b, uint32_t from, const char *name, const DlExpr *call,
                           const DlExpr *guard) {
    for (uint32_t j = from; j < b->count; j++) {
        const DlStmt *t = b->items[j];
        if (t->kind == DL_ST_ASSIGN && gives_the_wrapper(t->value, call)) continue;
        if (moves_the_holder(t, name)) continue;
        if (guard && t->kind == DL_ST_IF && same_reference(t->value, guard, 0) &&
            scan_after(&t->parts->body, 0, name, call, NULL) == DROPPED)
            return DROPPED;
        /* `try: model.load_state_dict(ckpt); model = model.module` whose handlers all raise
         * again (torchxrayvision's emory_hiti): after it the name holds the module, or what
         * follows does not run */
        if (t->kind == DL_ST_TRY && t->parts->handler_count &&
            scan_after(&t->parts->body, 0, name, call, NULL) == DROPPED &&
            every_handler_raises(t) && !block_runs(&t->parts->finalbody, name, 0))
            return DROPPED;
        /* `if hasattr(model, "module"): model = model.module` (NYU's breast-cancer classifier
         * unwrapping what its helper built) */
        if (t->kind == DL_ST_IF && true_of_the_wrapper(t->value, name) &&
            scan_after(&t->parts->body, 0, name, call, NULL) == DROPPED)
            return DROPPED;
        /* `if resume: model = torch.load(...)` `else: model = Net(cfg)` (a notebook's later
         * cell): every arm, an `elif` one too, binds the name anew before it runs */
        if (t->kind == DL_ST_IF && t->parts->orelse.count &&
            !runs_or_escapes(t->value, name, false, 0) &&
            scan_after(&t->parts->body, 0, name, call, NULL) == DROPPED &&
            scan_after(&t->parts->orelse, 0, name, call, NULL) == DROPPED)
            return DROPPED;
        if (stmt_runs(t, name, 0)) return RUNS;
        if (rebinds(t, name)) return DROPPED;
    }
    return OPEN;
}

/* `b` itself (not a block nested in it) holds the assignment of `call`. */
static bool assigns_at_top(const DlBlock *b, const DlExpr *call) {
    for (uint32_t i = 0; i < b->count; i++)
        if (b->items[i]->kind == DL_ST_ASSIGN && gives_the_wrapper(b->items[i]->value, call))
            return true;
    return false;
}

/* From the assignment `name = nn.DataParallel(...)` (the call `call`) in `b` or a block nested
 * in it, over what runs after it: the rest of its block, then the rest of each enclosing one
 * (a loop's whole body too, which runs again). */
static Followed follow(DlArena *arena, const DlBlock *b, const DlExpr *call, const char **name,
                       int depth) {
    if (depth > 32) return NOT_HERE;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        Followed f = NOT_HERE;
        const char *held =
            s->kind == DL_ST_ASSIGN && gives_the_wrapper(s->value, call) && s->target_count == 1
                ? dl_ir_dotted(arena, s->targets[0])
                : NULL;
        if (held) {
            *name = held;
            f = OPEN;
        } else if (s->kind != DL_ST_DEF && s->kind != DL_ST_CLASS) {
            const DlBlock *inner;
            for (uint32_t k = 0; f == NOT_HERE && (inner = dl_stmt_block(s, k)); k++)
                f = follow(arena, inner, call, name, depth + 1);
            /* a loop comes back: its condition, then its body from the top */
            bool loop = s->kind == DL_ST_FOR || s->kind == DL_ST_WHILE;
            if (f == OPEN && loop &&
                (runs_or_escapes(s->value, *name, false, 0) ||
                 scan_after(&s->parts->body, 0, *name, call, NULL) == RUNS))
                return RUNS;
            /* built in the body of `if flag:` itself, not deeper nor in its else */
            if (f == OPEN && s->kind == DL_ST_IF && assigns_at_top(&s->parts->body, call))
                return scan_after(b, i + 1, *name, call, s->value);
        }
        if (f != OPEN) {
            if (f != NOT_HERE) return f;
            continue;
        }
        return scan_after(b, i + 1, *name, call, NULL);
    }
    return NOT_HERE;
}

/* `model = nn.DataParallel(model)` at module level, and `def train(epoch): ... output =
 * model(data)` reading that global (micronet's quantization scripts): a def of the module runs
 * `name` without binding it itself. */
static bool a_function_runs_the_global(const DlBlock *module_body, const char *name) {
    for (uint32_t i = 0; i < module_body->count; i++) {
        const DlStmt *s = module_body->items[i];
        if (s->kind != DL_ST_DEF || !s->parts->func) continue;
        const DlBlock *b = &s->parts->func->body;
        bool local = dl_ir_param_index(s->parts->func, name) >= 0;
        for (uint32_t j = 0; !local && j < b->count; j++) local = rebinds(b->items[j], name);
        if (!local && block_runs(b, name, 0)) return true;
    }
    return false;
}

/* The wrapper, once built, is never run nor handed on before its name is bound anew or the
 * function (the script) ends: built to load a checkpoint whose keys start with `module.` (RAFT's
 * demo and evaluate) or to read such keys (SparseR-CNN's checkpoint test), it never scatters a
 * batch. */
/* The value of an expression statement of `b` (or a block nested in it) gives the wrapper
 * `call`, in either arm of a conditional: `nn.DataParallel(net).to(device) if n_gpu > 1 else
 * net.to(device)` (a video-prediction script's, which moves the model and drops the wrapper). */
static bool thrown_away(const DlBlock *b, const DlExpr *call, int depth) {
    for (uint32_t i = 0; depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->span.start > call->span.start || s->span.end < call->span.end) continue;
        if (s->kind == DL_ST_EXPR) {
            const DlExpr *v = s->value;
            if (v && v->kind == DL_EX_COND && v->item_count == 2)
                return gives_the_wrapper(v->object, call) || gives_the_wrapper(v->items[1], call);
            return gives_the_wrapper(v, call);
        }
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) return false;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (thrown_away(inner, call, depth + 1)) return true;
        return false;
    }
    return false;
}

static bool never_run(DlRuleContext *ctx, const DlCallFact *fact) {
    const DlFunction *fn = fact->place->function;
    const DlBlock *body = fn ? &fn->body : &dl_rule_module(ctx)->body;
    if (thrown_away(body, fact->call, 0)) return true;
    const char *name = NULL;
    Followed f = follow(dl_rule_arena(ctx), body, fact->call, &name, 0);
    if (f == OPEN && !fn && name && a_function_runs_the_global(body, name)) return false;
    /* `global unet2` then `unet2 = nn.DataParallel(...)`: the module's name, which other
     * functions run (TRMD's `prepare()`) */
    if (f == OPEN && fn && name && dl_text_declares_global(dl_rule_text(ctx, fn->span), name))
        return false;
    /* an attribute (`self.model`) is read by other methods too: only one bound anew here */
    if (f == OPEN && name && strchr(name, '.')) return false;
    return f == DROPPED || f == OPEN;
}

/* `MyDataParallel(model)` where `class MyDataParallel(nn.DataParallel)` (to forward attribute
 * reads to the module): the same wrapper. */
static bool builds_a_project_data_parallel(DlRuleContext *ctx, const DlCallFact *fact) {
    if (!fact->qualified || !fact->result || !(fact->result->flags & DL_VF_SCATTERS)) return false;
    const DlProject *p = dl_rule_project(ctx);
    const DlClassInfo *c =
        dl_project_find_class(p, dl_project_file(p, dl_rule_module(ctx)), fact->qualified);
    for (int depth = 0; c && depth < 8; depth++, c = c->base) { /* through project bases */
        /* a copy of mmcv's MMDataParallel kept in the project (sd-webui-controlnet's
         * annotator/mmpkg): what its OpenMMLab tools run one GPU with, as mmcv's own */
        if (strcmp(c->cls->name, "MMDataParallel") == 0) return false;
        if (c->single_process_data_parallel_base) return true;
    }
    return false;
}

/* A test wraps a model to check what the wrapper does (its `module.` keys, its outputs), not to
 * train faster: a function in a test file (dl_path_is_a_test_file), a
 * `test_*` function, a method of a `Test*` class. Not a training script's `def test(args,
 * model)`, which evaluates on the test split with the wrapper. */
static bool in_a_test(DlRuleContext *ctx, const DlFunction *fn) {
    if (!fn || !dl_ir_in_test_function(fn)) return false;
    bool test_file = dl_path_is_a_test_file(dl_rule_source(ctx)->path);
    for (const DlFunction *f = fn; f && !test_file; f = f->parent)
        test_file = strncmp(f->name, "test_", 5) == 0 ||
                    (f->owner && dl_ir_names_a_test_class(f->owner->name));
    return test_file;
}

/* `if isinstance(module, torch.nn.DataParallel): ... DataParallelWithCallback(mod)`: the wrapper
 * the caller chose, rebuilt around a converted module (sync_batchnorm's convert_model); the
 * choice is reported where the caller made it. */
static bool tests_for_data_parallel(const DlExpr *cond) {
    if (!cond || cond->kind != DL_EX_CALL || !cond->object || cond->object->kind != DL_EX_NAME ||
        strcmp(cond->object->name, "isinstance") != 0 || cond->arg_count != 2)
        return false;
    const DlExpr *type = cond->args[1].value;
    return type && (type->kind == DL_EX_NAME || type->kind == DL_EX_ATTR) && type->name &&
           strstr(type->name, "DataParallel");
}

static bool rewraps_a_data_parallel(const DlBlock *b, DlSpan call, int depth) {
    for (uint32_t i = 0; b && depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->span.start > call.start || s->span.end < call.end) continue;
        if (s->kind == DL_ST_IF && tests_for_data_parallel(s->value) &&
            s->parts->body.count && s->parts->body.items[0]->span.start <= call.start &&
            s->parts->body.items[s->parts->body.count - 1]->span.end >= call.end)
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (rewraps_a_data_parallel(inner, call, depth + 1)) return true;
    }
    return false;
}

/* The span of a block's statements (empty for an empty block). */
static DlSpan block_span(const DlBlock *b) {
    DlSpan span = {0, 0};
    if (b->count) {
        span.start = b->items[0]->span.start;
        span.end = b->items[b->count - 1]->span.end;
    }
    return span;
}

static bool moves_to_a_gpu(const DlSource *src, DlSpan span) {
    return dl_ir_span_mentions(src, span, ".cuda(") || dl_ir_span_mentions(src, span, ".to(");
}

/* `DataParallel` in `span`, not as the end of `DistributedDataParallel`: an arm that builds DDP
 * around a moved model (`DistributedDataParallel(model.to(device), ...)`: unimatch's) is the
 * distributed run's, and the other arm's DataParallel runs on GPUs too. */
static bool mentions_data_parallel_itself(const DlSource *src, DlSpan span) {
    static const char word[] = "DataParallel", distributed[] = "Distributed";
    const size_t n = sizeof word - 1, d = sizeof distributed - 1;
    const char *from = src->text + span.start, *end = src->text + span.end;
    for (const char *p = from; (p = memmem(p, (size_t)(end - p), word, n)); p += n)
        if ((size_t)(p - src->text) < d || memcmp(p - d, distributed, d) != 0) return true;
    return false;
}

/* `if cuda: net = nn.DataParallel(net).cuda()` / `else: net = nn.DataParallel(net)`: the call is
 * in the arm that moves nothing to a GPU, where the other arm builds the wrapper and moves it
 * (Knowledge-Distillation-Zoo's `define_tsnet`): that arm runs without one, as the else of `if
 * torch.cuda.is_available():` does. */
static bool in_the_arm_without_a_gpu(const DlSource *src, const DlBlock *b, DlSpan call,
                                     int depth) {
    for (uint32_t i = 0; b && depth < 32 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->span.start > call.start || s->span.end < call.end) continue;
        if (s->kind == DL_ST_IF && s->parts->orelse.count) {
            DlSpan then = block_span(&s->parts->body), orelse = block_span(&s->parts->orelse);
            bool in_then = then.start <= call.start && call.end <= then.end;
            bool in_else = orelse.start <= call.start && call.end <= orelse.end;
            DlSpan own = in_then ? then : orelse, other = in_then ? orelse : then;
            if ((in_then || in_else) && !moves_to_a_gpu(src, own) && moves_to_a_gpu(src, other) &&
                mentions_data_parallel_itself(src, other))
                return true;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (in_the_arm_without_a_gpu(src, inner, call, depth + 1)) return true;
    }
    return false;
}

/* Whether `ids` gives one device: `[0]`; a name bound to such a list in the function or at the
 * top of the file (EEG-Conformer's `gpus = [0]`); `[i for i in range(len(gpus))]` of one;
 * `range(1)`. */
/* `1`, `0`, `1 if not self.cpu else 0`: at most one device's worth. */
static bool at_most_one(const DlExpr *e, int depth) {
    if (!e || depth > 4) return false;
    if (e->kind == DL_EX_NUMBER) return e->name && (!strcmp(e->name, "0") || !strcmp(e->name, "1"));
    return e->kind == DL_EX_COND && e->item_count == 2 && at_most_one(e->object, depth + 1) &&
           at_most_one(e->items[1], depth + 1);
}

/* `cfg.gpu_ids` of `import cfg`, a module of the project binding `gpu_ids = [0]`; or
 * `params['gpu']` of `params['gpu'] = [0]` at the top of the file: a list of one item. */
static bool one_item_list_elsewhere(DlRuleContext *ctx, const DlExpr *ids) {
    const DlModuleIR *m = dl_rule_module(ctx);
    if (ids->kind == DL_EX_SUBSCRIPT && ids->item_count == 1 && m) {
        /* (the entry's last binding at the top of the file, a list or tuple written out) */
        const char *text = dl_rule_text(ctx, ids->span);
        const DlExpr *last = NULL;
        for (uint32_t i = 0; i < m->body.count; i++) {
            const DlStmt *s = m->body.items[i];
            if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->value &&
                strcmp(dl_rule_text(ctx, s->targets[0]->span), text) == 0)
                last = s->value;
        }
        return last && (last->kind == DL_EX_LIST || last->kind == DL_EX_TUPLE) &&
               last->item_count == 1;
    }
    if (ids->kind != DL_EX_ATTR || !ids->object || ids->object->kind != DL_EX_NAME) return false;
    const DlProject *p = dl_rule_project(ctx);
    const DlFileFacts *file = p && m ? dl_project_file(p, m) : NULL;
    for (uint32_t i = 0; file && i < file->import_count; i++) {
        const char *alias = file->imports[i].alias;
        if (!alias || strcmp(alias, ids->object->name) != 0 || !file->imports[i].qualified)
            continue;
        const char *q =
            dl_arena_join(dl_rule_arena(ctx), file->imports[i].qualified, '.', ids->name);
        const DlValue *v = dl_project_find_global(p, q);
        return v && v->kind == DL_KIND_SEQ && v->items && v->item_count == 1;
    }
    return false;
}

/* Every binding of `name` in `b` (nested blocks too, not defs) is `name = 1` or another
 * at_most_one; `*bindings` counts them. A `gpu_count = torch.cuda.device_count()` on another
 * path, an augmented assignment or a loop's target binds it otherwise. */
static bool every_binding_at_most_one(const DlBlock *b, const char *name, int *bindings,
                                      int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        bool binds = false;
        for (uint32_t t = 0; t < s->target_count; t++)
            binds |= (s->kind == DL_ST_ASSIGN || s->kind == DL_ST_AUGASSIGN ||
                      s->kind == DL_ST_FOR || s->kind == DL_ST_WITH) &&
                     dl_ir_target_names(s->targets[t], name);
        if (binds) {
            if (s->kind != DL_ST_ASSIGN || s->target_count != 1 ||
                s->targets[0]->kind != DL_EX_NAME || !at_most_one(s->value, 0))
                return false;
            (*bindings)++;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (!every_binding_at_most_one(inner, name, bindings, depth + 1)) return false;
    }
    return true;
}

/* `ids` lists one device, in `fn` (run by `call` when it is known: a subclass's __init__ by the
 * construction, whose arguments are read). */
static bool lists_one_device(DlRuleContext *ctx, const DlFunction *fn, const DlExpr *call,
                             const DlExpr *ids, int depth) {
    if (!ids || depth > 4) return false;
    if (ids->kind == DL_EX_LIST || ids->kind == DL_EX_TUPLE) return ids->item_count == 1;
    /* `args.gpu_ids` of `add_argument("--gpu_ids", nargs="+", type=int, default=[0])`: one
     * device as shipped */
    const DlExpr *option = dl_rule_option_default(ctx, dl_rule_module(ctx), ids);
    if (option) return lists_one_device(ctx, NULL, NULL, option, depth + 1);
    if (one_item_list_elsewhere(ctx, ids)) return true;
    if (ids->kind == DL_EX_NAME) {
        const DlExpr *bound = fn ? dl_ir_last_assignment(&fn->body, ids->name, ids->span.start)
                                 : NULL;
        const DlModuleIR *m = dl_rule_module(ctx);
        /* a parameter whose default gives one (simple_bev's `def main(..., device_ids=[0])`,
         * "1 device only for now"): as shipped, one device */
        int param = !bound && fn ? dl_ir_param_index(fn, ids->name) : -1;
        if (param >= 0 && fn->params[param].default_value)
            return lists_one_device(ctx, NULL, NULL, fn->params[param].default_value, depth + 1);
        /* (not a name a function of the file declares `global`, which it may bind anew; a
         * `global net` elsewhere says nothing of `gpus`) */
        if (!bound && m && m->source && !dl_text_declares_global(m->source->text, ids->name))
            bound = dl_ir_last_assignment(&m->body, ids->name, UINT32_MAX);
        return lists_one_device(ctx, fn, call, bound, depth + 1);
    }
    if (ids->kind == DL_EX_COMP && ids->name && strcmp(ids->name, "list") == 0) {
        const DlExprExtra *x = dl_expr_extra(ids);
        return x && lists_one_device(ctx, fn, call, x->iter, depth + 1);
    }
    /* range(len(gpus)), range(1), list(range(n)) */
    if (ids->kind == DL_EX_CALL && ids->object && ids->object->kind == DL_EX_NAME &&
        ids->arg_count == 1 && !ids->args[0].keyword) {
        const DlExpr *a = ids->args[0].value;
        if (strcmp(ids->object->name, "list") == 0)
            return lists_one_device(ctx, fn, call, a, depth + 1);
        if (strcmp(ids->object->name, "range") != 0) return false;
        if (a->kind == DL_EX_NUMBER) return a->name && strcmp(a->name, "1") == 0;
        /* `range(parallel)` of a parameter that defaults to 1 (perceptual-advex's evaluation) */
        int param = a->kind == DL_EX_NAME && fn ? dl_ir_param_index(fn, a->name) : -1;
        /* `range(num_gpus)` in OCPDataParallel's __init__, built with `num_gpus=1 if not
         * self.cpu else 0` (MDsim's trainer) */
        const DlExpr *given = param >= 0 && call
                                  ? dl_ir_argument_for(call, fn, (uint32_t)param, 1)
                                  : NULL;
        if (at_most_one(given, 0) &&
            !dl_ir_last_assignment(&fn->body, a->name, a->span.start))
            return true;
        if (param >= 0) {
            const DlExpr *d = fn->params[param].default_value;
            return d && d->kind == DL_EX_NUMBER && d->name && strcmp(d->name, "1") == 0 &&
                   !dl_ir_last_assignment(&fn->body, a->name, a->span.start);
        }
        /* `range(ngpu)` of a name bound to one (DCGAN's `ngpu = 1`, in the function or at the
         * top of the file), or of an option that defaults to one (`--ngpu`, `default=1`) */
        const DlExpr *option = dl_rule_option_default(ctx, dl_rule_module(ctx), a);
        if (option) return at_most_one(option, 0);
        if (a->kind == DL_EX_NAME) {
            const DlModuleIR *m = dl_rule_module(ctx);
            int bindings = 0;
            if (fn && !every_binding_at_most_one(&fn->body, a->name, &bindings, 0)) return false;
            if (!bindings && m && !dl_rule_file_mentions(ctx, "global ") &&
                !every_binding_at_most_one(&m->body, a->name, &bindings, 0))
                return false;
            return bindings > 0;
        }
        return a->kind == DL_EX_CALL && a->object && a->object->kind == DL_EX_NAME &&
               strcmp(a->object->name, "len") == 0 && a->arg_count == 1 &&
               lists_one_device(ctx, fn, call, a->args[0].value, depth + 1);
    }
    return false;
}

/* `super().__init__(module=module, device_ids=[self.src_device])`, `super(X, self).__init__(m,
 * ids)`, `nn.DataParallel.__init__(self, m, ids)`: a call of the base's __init__ in `e`, with the
 * devices it is given in *ids (NULL: none, all the GPUs); `super(nn.DataParallel, self)`,
 * which skips DataParallel's own __init__ (and so its devices), sets *skips. */
static bool calls_base_init(const DlExpr *e, const DlExpr **ids, bool *skips) {
    if (!e || e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR ||
        !e->object->name || strcmp(e->object->name, "__init__") != 0)
        return false;
    const DlExpr *owner = e->object->object;
    bool via_super = owner && owner->kind == DL_EX_CALL && owner->object &&
                     owner->object->kind == DL_EX_NAME && strcmp(owner->object->name, "super") == 0;
    bool explicit_base = owner && owner->kind == DL_EX_ATTR && owner->name &&
                         strcmp(owner->name, "DataParallel") == 0;
    if (!via_super && !explicit_base) return false;
    const DlExpr *first = via_super && owner->arg_count ? owner->args[0].value : NULL;
    *skips = first && first->kind == DL_EX_ATTR && first->name &&
             strcmp(first->name, "DataParallel") == 0;
    const DlArg *kw = dl_ir_keyword(e, "device_ids");
    /* positional: (module, device_ids), after `self` when the base is named */
    *ids = kw ? kw->value : dl_ir_positional(e, explicit_base ? 2 : 1);
    return true;
}

/* Every call of DataParallel's __init__ in `b` (and the blocks in it) gives one device, or skips
 * it; *seen counts them. */
static bool base_inits_use_one_device(DlRuleContext *ctx, const DlFunction *init,
                                      const DlExpr *call, const DlBlock *b, int *seen, int depth) {
    for (uint32_t i = 0; depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *ids = NULL;
        bool skips = false;
        if (s->kind == DL_ST_EXPR && calls_base_init(s->value, &ids, &skips)) {
            (*seen)++;
            if (!skips && !(ids && lists_one_device(ctx, init, call, ids, 0))) return false;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (!base_inits_use_one_device(ctx, init, call, inner, seen, depth + 1)) return false;
    }
    return true;
}

/* A project subclass of DataParallel whose __init__ hands its base one device on every path
 * (Open-Catalyst's OCPDataParallel, copied into MDsim: `device_ids=[self.src_device]`, or no
 * DataParallel init at all on the CPU): it calls the module as it is. */
static bool subclass_uses_one_device(DlRuleContext *ctx, const DlCallFact *fact) {
    if (!fact->qualified) return false;
    const DlProject *p = dl_rule_project(ctx);
    const DlClassInfo *c =
        dl_project_find_class(p, dl_project_file(p, dl_rule_module(ctx)), fact->qualified);
    for (int depth = 0; c && depth < 8 && !c->single_process_data_parallel_base; depth++)
        c = c->base;
    const DlFunction *init = c ? dl_ir_method_named(c->cls, "__init__") : NULL;
    int seen = 0;
    return init && base_inits_use_one_device(ctx, init, fact->call, &init->body, &seen, 0) &&
           seen > 0;
}

static void on_call(DlRuleContext *ctx, const DlCallFact *fact) {
    extern const DlRule dl_rule_DL205;
    if (!dl_torch_is_single_process_data_parallel(fact->qualified) &&
        !builds_a_project_data_parallel(ctx, fact))
        return;
    if (in_a_test(ctx, fact->place->function)) return;
    if (never_run(ctx, fact)) return;
    /* `MMDataParallel`-style single-GPU use, `DataParallel(model, device_ids=[0])`: with one
     * device it calls the module on its inputs, replicating and gathering nothing (Cream's
     * mmdet test script) */
    const DlArg *ids = dl_ir_keyword(fact->call, "device_ids");
    const DlExpr *ids_value = ids ? ids->value : dl_ir_positional(fact->call, 1);
    if (ids_value && lists_one_device(ctx, fact->place->function, NULL, ids_value, 0)) return;
    if (!dl_torch_is_single_process_data_parallel(fact->qualified) &&
        subclass_uses_one_device(ctx, fact))
        return;
    /* in the else of `if torch.cuda.is_available():`: without a GPU, DataParallel has no
     * devices and calls the module as it is (kept so `.module` works on both paths:
     * pytorch-retinanet) */
    if (fact->without_cuda) return;
    const DlFunction *fn = fact->place->function;
    const DlModuleIR *module = dl_rule_module(ctx);
    const DlBlock *body = fn ? &fn->body : module ? &module->body : NULL;
    if (module && in_the_arm_without_a_gpu(module->source, body, fact->call->span, 0)) return;
    if (fn && rewraps_a_data_parallel(&fn->body, fact->call->span, 0)) return;
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
