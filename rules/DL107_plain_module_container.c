/* DL107 plain-module-container: an nn.Module keeps submodules or parameters in a plain
 * list/dict, where they are neither registered nor moved. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "rules/facts.h"

static const char doc[] =
    "## What it does\n"
    "Finds an `nn.Module` whose `__init__` stores submodules or `nn.Parameter`s in a plain\n"
    "`list` or `dict` attribute (`self.layers = [nn.Linear(...) for ...]`,\n"
    "`self.heads = {\"a\": nn.Linear(...)}`, or `self.blocks = []` filled with `.append`).\n\n"
    "## Why is this bad?\n"
    "PyTorch only registers modules and parameters assigned directly as attributes or held in\n"
    "`nn.ModuleList` / `nn.ModuleDict` / `nn.ParameterList`. Those in a plain container are\n"
    "invisible: `model.to(device)` leaves them on the CPU, `model.parameters()` (and so the\n"
    "optimizer) skips them, and `state_dict()` does not save them. A container of the module's\n"
    "own registered buffers (`self.stats = [self.mean, self.std]`) is flagged too, with no fix:\n"
    "the buffers are saved and moved under their names, but `.to(device)` replaces each with a\n"
    "moved copy and the container keeps the old tensors.\n\n"
    "## Example\n"
    "```python\n"
    "self.layers = [nn.Linear(d, d) for _ in range(depth)]\n"
    "```\n\n"
    "## Use instead\n"
    "```python\n"
    "self.layers = nn.ModuleList([nn.Linear(d, d) for _ in range(depth)])\n"
    "```\n\n"
    "## Fix safety\n"
    "The fix wraps the container (`nn.ModuleList([...])`, `nn.ModuleDict({...})`, or the\n"
    "Parameter* forms). It is unsafe (`--unsafe-fixes`): the modules join `parameters()` and\n"
    "`state_dict()`, so checkpoints gain keys and older ones need `strict=False`.\n\n"
    "## When it does not fire\n"
    "- `nn.ModuleList`, `nn.ModuleDict`, `nn.Sequential`, `nn.ParameterList`/`ParameterDict`;\n"
    "- a local list that is wrapped before it is stored (`self.layers = nn.ModuleList(layers)`);\n"
    "- a list handed to a call that builds a module, which registers it there\n"
    "  (`self.losses = MultiLoss(self.loss_modules)`, `nn.Sequential(*self.stages)`);\n"
    "- losses built without a weight (`{\"ce\": nn.CrossEntropyLoss()}`), and layers built there\n"
    "  that hold no parameter or buffer (`[nn.ReLU(), nn.GELU()]`, project modules that only\n"
    "  pool, as FEDformer's series decompositions, or keep a plain tensor at most): they hold\n"
    "  nothing to move or save;\n"
    "- lists of numbers, names or tensors that are not parameters, or of the parameters of\n"
    "  submodules it registers (`[self.conv1.weight, self.conv2.weight]`: `.to()` moves them in\n"
    "  place), or of its own, registered where they were assigned (`[self.w_embed,\n"
    "  self.w_classify]`);\n"
    "- a module handed to `__init__` and kept in a one-item list (`self.org_module =\n"
    "  [org_module]`, as LoRA wrappers keep the layer they patch): its owner moves and saves it,\n"
    "  and the list is there so that it is not registered twice;\n"
    "- parameters `__init__` hands, element by element, to the layers it builds in a loop\n"
    "  for an `nn.Sequential` or `nn.ModuleList` (`c_in, c_out = self.curvatures[i],\n"
    "  self.curvatures[i + 1]`, then `layers.append(HypLayer(d, c_in, c_out))`, as HGCN's\n"
    "  encoder does): each layer stores and registers its own;\n"
    "- classes that are not `nn.Module`s;\n"
    "- `__init__` also registers the modules itself (`self.add_module(name, m)`,\n"
    "  `setattr(self, name, m)`, `super().__setattr__(name, m)`, `exec('self.layer{} =\n"
    "  layer'.format(i))`,\n"
    "  `self.register_parameter(name, p)`; or adds them to a\n"
    "  submodule, `self.net.add_module(name, m)`), keeping the list only to iterate over them;\n"
    "- `__init__` gathers the modules' parameters into one `nn.ParameterList`\n"
    "  (`params.extend(adaptor.parameters())`, then `nn.ParameterList(params)`), keeping the\n"
    "  modules only to call them;\n"
    "- the class (or one of its project bases, whose helper `__init__` runs) deletes the\n"
    "  attribute (`del self.x_proj` in `__init__`, once its layers' weights are stacked into\n"
    "  one `nn.Parameter`, as VMamba's SS2D does);\n"
    "- the container is only a table to pick from while the module is built: every read of it\n"
    "  takes one entry (`self.resnet_dict[base_model]`) in `__init__` or in a helper only\n"
    "  `__init__` calls, which keeps the pick in a registered attribute (SimCLR's\n"
    "  `self.backbone = self._get_basemodel(base_model)`), or is filled there and its entries\n"
    "  kept as registered attributes (`self.stage1 = self.stage_list[0]`); the other entries\n"
    "  are never used;\n"
    "- what it holds is registered already: a `nn.Sequential` of the module's own submodules\n"
    "  (`[nn.Sequential(self.stem, self.act), self.body]`) moves with them, and so do layers\n"
    "  `__init__` appends to it and, in the same block, to a list it wraps in an\n"
    "  `nn.Sequential` or `nn.ModuleList` (`self.plain.append(lin)`, `seq.append(lin)`, then\n"
    "  `self.body = nn.Sequential(*seq)`);\n"
    "- the class handles the container itself: its `parameters()` gathers from it (or it builds\n"
    "  an optimizer over each entry's parameters itself) and its `cuda()`, `to()` or `_apply()`\n"
    "  moves what it holds, each its own or a project base class's (epymarl's per-agent\n"
    "  critics; a few-shot project's base module moving and optimizing every network of its\n"
    "  subclasses' `self.net` dict).\n";

/* Whether the class's method `method`, its own or one a project base defines, names
 * `self.<attr>` (Few-Shot-Learning's BaseModule: a `to()` moving every network of the
 * subclasses' `self.net` dict, whose own `parameters()` read it). */
static bool method_names(DlRuleContext *ctx, const DlClassInfo *c, const char *method,
                         const char *attr) {
    const DlFunctionInfo *m = dl_project_method(dl_rule_project(ctx), c, method);
    if (!m || !m->fn || !m->module) return false;
    const char *text = dl_rule_text_in(ctx, m->module, m->fn->span);
    char needle[160];
    snprintf(needle, sizeof needle, "self.%s", attr);
    return strstr(text, needle) != NULL;
}

/* The class handles the container itself: its `parameters()` gathers from it (or it builds
 * the optimizers over it itself) and its mover (`cuda()`, `to()`, `_apply()`) moves what it
 * holds (epymarl's per-agent critics, kept in a list on purpose), each its own or a project
 * base's. */
/* A method of the class or of its first project bases builds optimizers over the container's
 * parameters itself (Few-Shot-Learning's BaseModule: `for key, value in self.net.items():`,
 * then `torch.optim.SGD(value.parameters(), ...)`, one optimizer a network). */
static bool optimizes_the_container(DlRuleContext *ctx, const DlClassInfo *c, const char *attr) {
    char needle[160];
    snprintf(needle, sizeof needle, "self.%s", attr);
    for (int depth = 0; c && depth < 8; c = c->base, depth++)
        for (uint32_t k = 0; k < c->method_count; k++) {
            const DlFunctionInfo *m = c->methods[k];
            if (!m || !m->fn || !m->module) continue;
            const char *text = dl_rule_text_in(ctx, m->module, m->fn->span);
            if (strstr(text, needle) && strstr(text, ".parameters()") && strstr(text, "optim."))
                return true;
        }
    return false;
}

static bool class_manages_the_container(DlRuleContext *ctx, const DlClassInfo *c,
                                        const char *attr) {
    return (method_names(ctx, c, "parameters", attr) || optimizes_the_container(ctx, c, attr)) &&
           (method_names(ctx, c, "cuda", attr) || method_names(ctx, c, "to", attr) ||
            method_names(ctx, c, "_apply", attr));
}

/* The list `name` gathers layers for a registered container: `__init__` (block `b`, or one in it)
 * binds `self.<x> = nn.Sequential(*name)` or `nn.ModuleList(name)`. */
static bool wrapped_in_a_module_container(const DlBlock *b, const char *name, int depth) {
    for (uint32_t i = 0; depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        const DlExpr *v = s->kind == DL_ST_ASSIGN ? s->value : NULL;
        if (v && v->kind == DL_EX_CALL && v->object && v->object->name &&
            (strcmp(v->object->name, "Sequential") == 0 ||
             strcmp(v->object->name, "ModuleList") == 0) &&
            v->arg_count == 1 && v->args[0].value) {
            const DlExpr *a = v->args[0].value;
            if (a->kind == DL_EX_STARRED) a = a->object;
            if (a && a->kind == DL_EX_NAME && strcmp(a->name, name) == 0) return true;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; s->kind != DL_ST_DEF && (inner = dl_stmt_block(s, k)); k++)
            if (wrapped_in_a_module_container(inner, name, depth + 1)) return true;
    }
    return false;
}

/* Whether the layer built by `call` in the loop body `body` is handed an element of the container
 * (`indexed`, `self.<attr>[`): written out in its arguments, or through a name the body binds to
 * one (`c_in, c_out = self.curvatures[i], self.curvatures[i + 1]`). */
static bool hands_an_element(DlRuleContext *ctx, const DlClassInfo *c, const DlBlock *body,
                             const DlExpr *call, const char *indexed) {
    for (uint32_t a = 0; a < call->arg_count; a++) {
        const DlExpr *v = call->args[a].value;
        if (!v) continue;
        if (strstr(dl_rule_text_in(ctx, c->module, v->span), indexed)) return true;
        if (v->kind != DL_EX_NAME) continue;
        for (uint32_t k = 0; k < body->count; k++) {
            const DlStmt *s = body->items[k];
            if (s->kind != DL_ST_ASSIGN || s->target_count != 1 || !s->value ||
                !strstr(dl_rule_text_in(ctx, c->module, s->value->span), indexed))
                continue;
            const DlExpr *t = s->targets[0];
            if (t->kind == DL_EX_NAME && strcmp(t->name, v->name) == 0) return true;
            for (uint32_t j = 0; (t->kind == DL_EX_TUPLE || t->kind == DL_EX_LIST) &&
                                 j < t->item_count; j++)
                if (t->items[j]->kind == DL_EX_NAME && strcmp(t->items[j]->name, v->name) == 0)
                    return true;
        }
    }
    return false;
}

/* A loop of `__init__` (in `b`, the body, or a block in it) that reads `self.<attr>[...]` and
 * appends a layer it builds to a list that becomes a registered container: each element is
 * handed to a layer that stores it, which registers it (HGCN's curvatures, `c_in, c_out =
 * self.curvatures[i], self.curvatures[i + 1]`, given to each HyperbolicGraphConvolution in
 * `nn.Sequential(*hgc_layers)`): `.to()` moves them in place and `state_dict()` has them. */
static bool elements_handed_to_registered_layers(DlRuleContext *ctx, const DlClassInfo *c,
                                                 const DlBlock *init, const DlBlock *b,
                                                 const char *attr, int depth) {
    char indexed[160];
    if (snprintf(indexed, sizeof indexed, "self.%s[", attr) >= (int)sizeof indexed) return false;
    for (uint32_t i = 0; depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_FOR &&
            strstr(dl_rule_text_in(ctx, c->module, s->span), indexed) != NULL) {
            const DlBlock *body = &s->parts->body;
            for (uint32_t k = 0; k < body->count; k++) {
                const DlExpr *e = body->items[k]->kind == DL_ST_EXPR ? body->items[k]->value
                                                                      : NULL;
                if (e && e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_ATTR &&
                    e->object->name && strcmp(e->object->name, "append") == 0 &&
                    e->object->object && e->object->object->kind == DL_EX_NAME &&
                    e->arg_count == 1 && e->args[0].value &&
                    e->args[0].value->kind == DL_EX_CALL &&
                    hands_an_element(ctx, c, body, e->args[0].value, indexed) &&
                    wrapped_in_a_module_container(init, e->object->object->name, 0))
                    return true;
            }
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (elements_handed_to_registered_layers(ctx, c, init, inner, attr, depth + 1))
                return true;
    }
    return false;
}

/* `L.append(name)` among the statements of `b` (or of a block in it), with `L` a list that
 * `init` wraps in a registered container (`self.body = nn.Sequential(*L)`). */
static bool also_appended_to_a_wrapped_list(const DlBlock *init, const DlBlock *b,
                                            const char *name, int depth) {
    for (uint32_t i = 0; depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        const DlExpr *e = s->kind == DL_ST_EXPR ? s->value : NULL;
        if (e && e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_ATTR &&
            e->object->name && strcmp(e->object->name, "append") == 0 && e->object->object &&
            e->object->object->kind == DL_EX_NAME && e->arg_count == 1 && e->args[0].value &&
            e->args[0].value->kind == DL_EX_NAME && strcmp(e->args[0].value->name, name) == 0 &&
            wrapped_in_a_module_container(init, e->object->object->name, 0))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; s->kind != DL_ST_DEF && (inner = dl_stmt_block(s, k)); k++)
            if (also_appended_to_a_wrapped_list(init, inner, name, depth + 1)) return true;
    }
    return false;
}

/* Every `self.<attr>.append(layer)` of `__init__` (in `b`, or a block in it; one at least) has
 * the same `layer` appended in the same block to a list that `__init__` wraps in an
 * `nn.Sequential` or `nn.ModuleList` (`self.plain.append(lin)`, `seq.append(lin)`, then
 * `self.body = nn.Sequential(*seq)`): the plain list holds modules registered there, which
 * move and save with it. `*appends` counts them. */
static bool appends_only_registered_layers(const DlBlock *init, const DlBlock *b, const char *attr,
                                           int *appends, int depth) {
    for (uint32_t i = 0; depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        const DlExpr *e = s->kind == DL_ST_EXPR ? s->value : NULL;
        if (e && e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_ATTR &&
            e->object->name && strcmp(e->object->name, "append") == 0 &&
            dl_ir_is_self_attr(e->object->object, attr)) {
            const DlExpr *a = e->arg_count == 1 ? e->args[0].value : NULL;
            if (!a || a->kind != DL_EX_NAME ||
                !also_appended_to_a_wrapped_list(init, b, a->name, 0))
                return false;
            (*appends)++;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; s->kind != DL_ST_DEF && (inner = dl_stmt_block(s, k)); k++)
            if (!appends_only_registered_layers(init, inner, attr, appends, depth + 1))
                return false;
    }
    return true;
}

/* `[...]` -> `nn.ModuleList([...])`, `{...}` -> `nn.ModuleDict({...})` (Parameter* for
 * parameters). Unsafe: the modules join parameters() and state_dict() (new checkpoint keys). */
static DlFix *container_fix(DlRuleContext *ctx, const DlValue *v) {
    if (!v->dev_span.end) return NULL;
    const char *rhs = dl_rule_text(ctx, v->dev_span);
    bool dict = rhs[0] == '{';
    if (rhs[0] != '[' && !dict) return NULL;
    bool params = v->elem && v->elem->kind == DL_KIND_TENSOR;
    const char *kind = params ? (dict ? "ParameterDict" : "ParameterList")
                              : (dict ? "ModuleDict" : "ModuleList");
    bool empty = strcmp(rhs, "[]") == 0 || strcmp(rhs, "{}") == 0;
    DlArena *arena = dl_rule_arena(ctx);
    const char *text = empty ? dl_arena_printf(arena, "%s.%s()", dl_rule_nn_name(ctx), kind)
                             : dl_arena_printf(arena, "%s.%s(%s)", dl_rule_nn_name(ctx), kind, rhs);
    DlFix *fix = dl_rule_fix_replace(
        ctx, dl_arena_printf(arena, "Use `%s.%s`", dl_rule_nn_name(ctx), kind), v->dev_span, text);
    fix->unsafe = true;
    return fix;
}

/* Whether the class's text deletes `self.<name>` (`del self.x_proj`, also among others: `del
 * self.loss_fn, self.init_parameters`): VMamba's SS2D builds a tuple of Linear layers in
 * __init__ only to stack their weights into one Parameter, then deletes it, so the module keeps
 * no plain container. */
static bool deletes_attribute(const char *class_text, const char *name) {
    size_t n = strlen(name);
    for (const char *p = strstr(class_text, "del self."); p; p = strstr(p + 1, "del self.")) {
        const char *q = p + strlen("del ");
        for (;;) { /* each `self.<x>` of the statement, comma after comma */
            if (strncmp(q, "self.", 5) != 0) break;
            q += 5;
            if (strncmp(q, name, n) == 0 && !isalnum((unsigned char)q[n]) && q[n] != '_')
                return true;
            while (isalnum((unsigned char)*q) || *q == '_')
                q++;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q != ',') break;
            q++;
            while (*q == ' ' || *q == '\t')
                q++;
        }
    }
    return false;
}

/* Whether class `c` or one of its project bases deletes `self.<name>`: a helper of a base
 * (VMamba's `SS2Dv2.__initv2__`, called from the module's `__init__`) may build a list only to
 * stack its weights into a parameter and delete it. */
static bool deleted_by_the_class_or_a_base(DlRuleContext *ctx, const DlClassInfo *c,
                                           const char *name, int depth) {
    if (!c || depth > 8) return false;
    if (deletes_attribute(dl_rule_text_in(ctx, c->module, c->cls->span), name)) return true;
    if (deleted_by_the_class_or_a_base(ctx, c->base, name, depth + 1)) return true;
    for (uint8_t k = 0; k < c->later_base_count; k++)
        if (deleted_by_the_class_or_a_base(ctx, c->later_bases[k], name, depth + 1)) return true;
    return false;
}

/* Whether __init__ registers the parameters of the modules it gathers itself, in one
 * `nn.ParameterList` (continual_rl's progress-and-compress: `self._adaptor_params.extend(
 * adaptor.parameters())`, then `self._adaptor_params = nn.ParameterList(...)`): the plain dict
 * of those modules is kept to call them, and `.to()` moves their parameters in place. */
static bool registers_gathered_parameters(DlRuleContext *ctx, const DlClassInfo *c) {
    for (uint32_t k = 0; k < c->cls->method_count; k++) {
        const DlFunction *m = c->cls->methods[k];
        if (strcmp(m->name, "__init__") != 0) continue;
        const char *text = dl_rule_text_in(ctx, c->module, m->span);
        return strstr(text, "ParameterList(") && strstr(text, ".parameters())");
    }
    return false;
}

/* The method of `cls` whose text holds the byte `at` of the class's text (`class_text` starts
 * at the class's first byte), or NULL. */
static const DlFunction *method_at(const DlClass *cls, uint32_t at) {
    for (uint32_t k = 0; k < cls->method_count; k++) {
        const DlFunction *m = cls->methods[k];
        if (m->span.start - cls->span.start <= at && at < m->span.end - cls->span.start) return m;
    }
    return NULL;
}

/* Is `m` `__init__`, or a method only `__init__` calls (`self._get_basemodel(name)`)? */
static bool runs_only_while_built(const DlClass *cls, const char *class_text, const DlFunction *m) {
    if (!m) return false;
    if (strcmp(m->name, "__init__") == 0) return true;
    char call[128];
    int n = snprintf(call, sizeof call, "self.%s(", m->name);
    if (n <= 0 || (size_t)n >= sizeof call) return false;
    bool called = false;
    for (const char *p = strstr(class_text, call); p; p = strstr(p + 1, call)) {
        const DlFunction *caller = method_at(cls, (uint32_t)(p - class_text));
        if (!caller || strcmp(caller->name, "__init__") != 0) return false;
        called = true;
    }
    return called;
}

/* Is the container `self.<name>` only a table to pick from while the module is built: every
 * read of it is an entry (`self.resnet_dict[base_model]`) in `__init__` or a helper only
 * `__init__` calls, whose pick `__init__` keeps in a registered attribute (SimCLR's
 * `self.backbone = self._get_basemodel(base_model)`), and every other use fills it there? The
 * entries left are never used. */
static bool only_picked_from_while_built(const DlClass *cls, const char *class_text,
                                         const char *name) {
    char attr[128];
    int n = snprintf(attr, sizeof attr, "self.%s", name);
    if (n <= 0 || (size_t)n >= sizeof attr) return false;
    bool picked = false;
    for (const char *p = strstr(class_text, attr); p; p = strstr(p + 1, attr)) {
        char next = p[n];
        if (isalnum((unsigned char)next) || next == '_') continue; /* `self.<name>_other` */
        const char *q = p + n;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '=' && q[1] != '=') continue; /* its assignment */
        /* filled while built (`self.stage_list.append(stage)` in a loop, then `self.stage1 =
         * self.stage_list[0]`: HJL-re-id's HRNet) */
        bool fills = strncmp(q, ".append(", 8) == 0 || strncmp(q, ".extend(", 8) == 0;
        if ((*q != '[' && !fills) ||
            !runs_only_while_built(cls, class_text, method_at(cls, (uint32_t)(p - class_text))))
            return false;
        picked |= !fills;
    }
    return picked;
}

/* Whether the class registers a buffer named `name` (`self.register_buffer("name", ...)`). */
static bool registers_buffer(const char *class_text, const char *name, size_t n) {
    static const char call[] = "register_buffer(";
    for (const char *p = strstr(class_text, call); p; p = strstr(p + 1, call)) {
        const char *q = p + sizeof call - 1;
        while (*q == ' ' || *q == '\n' || *q == '\t')
            q++;
        if ((*q == '"' || *q == '\'') && strncmp(q + 1, name, n) == 0 && q[1 + n] == *q)
            return true;
    }
    return false;
}

/* Is the container a list or tuple of registered buffers of the class, by their names
 * (SynergyNet's `self.data_param = [self.param_mean, self.param_std, ...]`)? The buffers are
 * saved and moved under their names; it is the list that keeps the tensors `.to()` replaces. */
static bool holds_only_registered_buffers(const char *rhs, const char *class_text) {
    if (rhs[0] != '[' && rhs[0] != '(') return false;
    const char *p = rhs + 1;
    int items = 0;
    for (;;) {
        while (isspace((unsigned char)*p) || *p == '\\')
            p++;
        if (*p == ']' || *p == ')') return items > 0;
        if (strncmp(p, "self.", 5) != 0) return false;
        const char *name = p + 5;
        size_t n = 0;
        while (isalnum((unsigned char)name[n]) || name[n] == '_')
            n++;
        if (n == 0 || !registers_buffer(class_text, name, n)) return false;
        items++;
        p = name + n;
        while (isspace((unsigned char)*p) || *p == '\\')
            p++;
        if (*p == ',') p++;
        else if (*p != ']' && *p != ')') return false;
    }
}

static void on_class(DlRuleContext *ctx, const DlClassFact *fact) {
    extern const DlRule dl_rule_DL107;
    const DlClassInfo *c = fact->info;
    /* modules also registered one by one (self.add_module(name, m), setattr(self, name, m))
     * are kept in a list only for iteration: nothing is lost */
    if (!c->is_module || dl_project_attr(c, "<registers>")) return;
    if (registers_gathered_parameters(ctx, c)) return;
    for (uint32_t i = 0; i < c->attr_count; i++) {
        const DlValue *v = c->attrs[i].value;
        if (v->kind != DL_KIND_SEQ || !(v->flags & DL_VF_HAS_MODULES) || !v->aux_span.end) continue;
        const char *class_text = dl_rule_text_in(ctx, c->module, c->cls->span);
        if (deleted_by_the_class_or_a_base(ctx, c, c->attrs[i].name, 0) ||
            only_picked_from_while_built(c->cls, class_text, c->attrs[i].name) ||
            class_manages_the_container(ctx, c, c->attrs[i].name))
            continue;
        const DlFunction *init = dl_ir_method_named(c->cls, "__init__");
        if (init && elements_handed_to_registered_layers(ctx, c, &init->body, &init->body,
                                                         c->attrs[i].name, 0))
            continue;
        int appends = 0;
        if (init &&
            appends_only_registered_layers(&init->body, &init->body, c->attrs[i].name, &appends,
                                           0) &&
            appends)
            continue;
        if (v->dev_span.end &&
            holds_only_registered_buffers(dl_rule_text(ctx, v->dev_span), class_text)) {
            const char *message = dl_arena_printf(
                dl_rule_arena(ctx),
                "`self.%s` keeps registered buffers in a plain container: `%s.to(device)` "
                "replaces each buffer with a moved copy and the container keeps the old tensors, "
                "on the device they were built on; read the buffers by name (`self.<buffer>`) "
                "where they are used",
                c->attrs[i].name, c->cls->name);
            dl_report_finding(ctx, &dl_rule_DL107, v->aux_span, v->aux_span, message, NULL);
            continue;
        }
        const char *message = dl_arena_printf(
            dl_rule_arena(ctx),
            "`self.%s` keeps modules or parameters in a plain container: they are not registered, "
            "so `%s.to(device)` does not move them and `parameters()` / `state_dict()` miss them; "
            "use `nn.ModuleList` / `nn.ModuleDict` (or `nn.ParameterList`)",
            c->attrs[i].name, c->cls->name);
        dl_report_finding(ctx, &dl_rule_DL107, v->aux_span, v->aux_span, message,
                          container_fix(ctx, v));
    }
}

const DlRule dl_rule_DL107 = {
    .code = "DL107",
    .name = "plain-module-container",
    .severity = DL_SEV_ERROR,
    .fixable = true,
    .default_enabled = true,
    .summary = "An nn.Module keeps submodules or parameters in a plain list or dict",
    .doc = doc,
    .on_class = on_class,
};
