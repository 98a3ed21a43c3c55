/* Calls into PyTorch itself: factories, loss and module constructors, DataLoader (pinning,
 * workers), and torch functions that combine tensors. */
#include "dataflow/flow_internal.h"

#include <ctype.h>

bool flow_is_lr_scheduler_class(const char *q) {
    static const char prefix[] = "torch.optim.lr_scheduler.";
    return q && strncmp(q, prefix, sizeof prefix - 1) == 0 && q[sizeof prefix - 1] >= 'A' &&
           q[sizeof prefix - 1] <= 'Z';
}

/* `torch.norm(t, 2)`, `t.norm(p=2)`: a norm of every element, its order given but no `dim`, is
 * 0-dim as `t.norm()` is; `positional` counts the tensor when it is an argument. */
bool flow_whole_norm(const DlExpr *call, bool is_norm, unsigned positional) {
    return is_norm && !dl_ir_keyword(call, "dim") && !dl_ir_positional(call, positional) &&
           !flow_has_splat(call);
}

DlValue *flow_loader_value(Flow *F, DlSpan span) {
    DlValue *v = flow_mk(F, DL_KIND_LOADER);
    v->dev_span = span;
    v->dev_why = flow_short_text(F, span);
    return v;
}

/* A positional factory argument that is a device: a device value, or an unknown value whose
 * name says device (`torch.zeros(n, device)`). */
bool flow_positional_device(Flow *F, const DlExpr *e, const DlValue *v) {
    if (v->kind == DL_KIND_DEVICE) return true;
    if (v->kind != DL_KIND_UNKNOWN) return false;
    const char *key = flow_key_of(F, e);
    return key && flow_name_says_device(F, key);
}

/* Another file of the project sets the default device to a GPU, and this code runs in a
 * function, which that file's process may call (M3D-RPN's losses, after `init_torch()`); not
 * the top of a file, nor its `if __name__ == "__main__":` block, which run as a script of
 * their own (RIFE's old IFNet test blocks). */
static bool default_set_elsewhere(const Flow *F) {
    return F->env->project->default_device_set && F->fn;
}

/* Where a module or tensor built now lives: the CPU, unless a default device is in force
 * (`with torch.device(d):`, or `torch.set_default_device` somewhere in the file, or in the
 * project for a function). */
DlDeviceTag flow_construction_device(Flow *F) {
    if (F->default_device) return F->default_device->dev;
    if (F->env->file->module->sets_default_device || default_set_elsewhere(F))
        return DL_DEV_UNKNOWN;
    return DL_DEV_CPU;
}

/* torch.tensor(x) of a Python number (a literal, arithmetic on numbers, a scalar variable):
 * a 0-dim tensor. Lists, tuples and comprehensions give 1-D or more. */
/* A C++ arithmetic type as the compiler spelled it ("double", "const int64_t", "float &"). */
static bool flow_arithmetic_ctype(const char *t) {
    static const char *const types[] = {"double", "float", "int", "long", "int64_t", "int32_t",
                                        "size_t", "unsigned int", "long long", "bool", "short",
                                        "uint32_t", "uint64_t", "int8_t", "uint8_t", "int16_t"};
    if (strncmp(t, "const ", 6) == 0) t += 6;
    size_t n = strlen(t);
    while (n && (t[n - 1] == '&' || t[n - 1] == ' ')) n--;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i]) == n && strncmp(t, types[i], n) == 0) return true;
    return false;
}

/* `torch.pi`, `math.e`, `np.inf`: the libraries' numeric constants, plain Python floats. */
static bool is_numeric_constant(Flow *F, const DlExpr *e) {
    static const char *const constants[] = {
        "torch.pi", "torch.e",  "torch.inf", "torch.nan", "math.pi", "math.e",
        "math.tau", "math.inf", "math.nan",  "numpy.pi",  "numpy.e", "numpy.inf",
        "numpy.nan", NULL};
    if (e->kind != DL_EX_ATTR && e->kind != DL_EX_NAME) return false; /* `from math import pi` */
    const char *q = flow_qualify(F, e);
    return q && dl_name_in_list(q, constants);
}

/* A name that by convention holds a number: `hidden_size`, `head_dim`, `max_len`, `num_heads`,
 * `n_layers`, `d_model`, `seqlen_k`, `eps` (not a plural of a size, which may be a list or a
 * tensor: `kernel_sizes`, `cu_seqlens_k`). */
static bool names_a_count(const char *name) {
    static const char *const suffixes[] = {"_size", "_dim", "_len", "_length", NULL};
    static const char *const prefixes[] = {"num_", "n_", NULL};
    static const char *const sequence_lengths[] = {"seqlen", "seq_len", NULL};
    if (!name) return false;
    if (strcmp(name, "d_model") == 0 || strcmp(name, "dim") == 0) return true;
    /* a tolerance (monosdf's `torch.tensor(self.eps + 1.0)`, eps from its config) */
    if (strcmp(name, "eps") == 0 || strcmp(name, "epsilon") == 0) return true;
    for (const char *const *x = sequence_lengths; *x; x++) {
        const char *at = strstr(name, *x);
        if (at && at[strlen(*x)] != 's') return true;
    }
    size_t n = strlen(name);
    for (const char *const *x = suffixes; *x; x++) {
        size_t k = strlen(*x);
        if (n > k && strcmp(name + n - k, *x) == 0) return true;
    }
    for (const char *const *x = prefixes; *x; x++)
        if (strncmp(name, *x, strlen(*x)) == 0 && n > strlen(*x)) return true;
    return false;
}

/* `params["mean"] * 1.0`: a setting looked up by name and multiplied by (or added to) a float
 * literal. A list or tuple cannot be, so what a config file holds there is a number (TTS's
 * `torch.tensor(model.flat_start_params["mean"] * 1.0)`). */
static bool float_arithmetic_on_a_setting(const DlExpr *e) {
    if (e->item_count != 2) return false;
    for (int side = 0; side < 2; side++) {
        const DlExpr *lit = e->items[side], *other = e->items[1 - side];
        bool float_literal = lit && lit->kind == DL_EX_NUMBER && lit->name &&
                             strpbrk(lit->name, ".eE") && !strpbrk(lit->name, "xXjJ");
        bool setting = other && other->kind == DL_EX_SUBSCRIPT && other->item_count == 1 &&
                       other->items[0]->kind == DL_EX_STRING;
        if (float_literal && setting) return true;
    }
    return false;
}

/* `torch.finfo(x.dtype).min`, `torch.iinfo(torch.int32).max`, `np.finfo(np.float32).eps`: a
 * number (transformers' attention clamps its scores with
 * `torch.max(w, torch.tensor(torch.finfo(w.dtype).min))`). */
static bool reads_a_type_limit(Flow *F, const DlExpr *e) {
    static const char *const limits[] = {"min",  "max",        "eps",             "tiny",
                                         "bits", "resolution", "smallest_normal", NULL};
    static const char *const infos[] = {"torch.finfo", "torch.iinfo", "numpy.finfo",
                                        "numpy.iinfo", NULL};
    if (e->kind != DL_EX_ATTR || !e->object || e->object->kind != DL_EX_CALL ||
        !dl_name_in_list(e->name, limits))
        return false;
    const char *q = flow_qualify(F, e->object->object);
    return q && dl_name_in_list(q, infos);
}

/* A name or attribute whose value is not known here (a parameter of unknown kind, an unbound
 * global, `self.opt.context_frames`). */
static bool unknown_name(Flow *F, const DlExpr *e) {
    if (!e || (e->kind != DL_EX_NAME && e->kind != DL_EX_ATTR)) return false;
    const char *key = flow_key_of(F, e);
    if (!key) return false;
    const Binding *b = flow_lookup(F, key);
    return !b || !b->value || b->value->kind == DL_KIND_UNKNOWN;
}

/* `self.d_k` in a method of the class whose `__init__` sets it once, at its top level: the
 * expression it is set to (`feature_dim // num_heads`), read with `__init__`'s names of unknown
 * kind; NULL otherwise. */
static const DlExpr *attribute_set_in_init(Flow *F, const DlExpr *e) {
    if (e->kind != DL_EX_ATTR || !e->name || !dl_ir_is_self(e->object) || !F->owner) return NULL;
    const DlFunction *init = dl_ir_method_named(F->owner->cls, "__init__");
    if (!init || init == F->fn) return NULL;
    const DlExpr *found = NULL;
    for (uint32_t i = 0; i < init->body.count; i++) {
        const DlStmt *s = init->body.items[i];
        for (uint32_t t = 0; s->kind == DL_ST_ASSIGN && t < s->target_count; t++) {
            const DlExpr *x = s->targets[t];
            if (x->kind != DL_EX_ATTR || !dl_ir_is_self(x->object) || !flow_streq(x->name, e->name))
                continue;
            if (found || s->target_count != 1) return NULL; /* set twice */
            found = s->value;
        }
    }
    return found;
}

/* `random.gauss(0, 1)`, `np.random.normal(scale=0.2)`, `np.random.rand()`: one number drawn,
 * no `size=` (nor, for NumPy's samplers, the positional size after their two parameters)
 * (TD3torch's exploration noise, `torch.tensor(np.random.normal(scale=0.2))`). */
static bool draws_one_random_number(const char *q, const DlExpr *call) {
    if (strncmp(q, "random.", 7) == 0) return !strchr(q + 7, '.');
    if (strncmp(q, "numpy.random.", 13) != 0 || strchr(q + 13, '.')) return false;
    if (dl_ir_keyword(call, "size")) return false;
    const char *f = q + 13;
    uint32_t positional = 0;
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (!call->args[i].keyword) positional++;
        else if (call->args[i].keyword[0] == '*') return false;
    /* rand(d0, d1, ...), randn(...), random(size), random_sample(size): a size is all they take */
    static const char *const sized[] = {"rand", "randn", "random", "random_sample", "sample",
                                        "ranf", NULL};
    if (dl_name_in_list(f, sized)) return positional == 0;
    static const char *const two_parameters[] = {"normal",  "uniform", "randint",     "beta",
                                                 "gamma",   "laplace", "exponential", "poisson",
                                                 "lognormal", "logistic", "gumbel",   NULL};
    return dl_name_in_list(f, two_parameters) && positional <= 2;
}

/* `np.mean(rewards)`, `np.sum(x)`: a NumPy reduction of a whole array, one argument and no
 * `axis`, is one number (rl-prompt's reward statistics, `torch.tensor(np.mean(...))`). */
static bool reduces_a_whole_array(const char *q, const DlExpr *call) {
    if (strncmp(q, "numpy.", 6) != 0 || strchr(q + 6, '.')) return false;
    static const char *const reductions[] = {"mean", "sum",  "max",    "min",    "std",
                                             "var",  "prod", "median", "average", "amax",
                                             "amin", "nanmean", "nansum", NULL};
    return dl_name_in_list(q + 6, reductions) && call->arg_count == 1 && !call->args[0].keyword;
}

/* Is `e`, returned by a method, a number written out, or arithmetic of the object's own
 * attributes, the method's parameters and numbers (`self.upper * ((step - self.start) /
 * (self.end - self.start))`)? *literal: it is a number written out. */
static bool number_arithmetic(const DlFunction *fn, const DlExpr *e, bool *literal, int depth) {
    if (!e || depth > 8) return false;
    switch (e->kind) {
    case DL_EX_NUMBER:
        *literal = true;
        return true;
    case DL_EX_UNARY:
        return number_arithmetic(fn, e->object, literal, depth + 1);
    case DL_EX_BINOP:
        return number_arithmetic(fn, e->items[0], literal, depth + 1) &&
               number_arithmetic(fn, e->items[1], literal, depth + 1);
    case DL_EX_NAME:
        return dl_ir_param_index(fn, e->name) > 0;
    case DL_EX_ATTR:
        return e->name && dl_ir_is_self(e->object);
    default:
        return false;
    }
}

/* Does every `return` of `b` (nested defs aside) hand back number_arithmetic? Counts them in
 * *count, and sets *literal when one is a number written out. */
static bool returns_number_arithmetic(const DlFunction *fn, const DlBlock *b, uint32_t *count,
                                      bool *literal, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_RETURN) {
            if (!number_arithmetic(fn, s->value, literal, 0)) return false;
            (*count)++;
            continue;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (!returns_number_arithmetic(fn, inner, count, literal, depth + 1)) return false;
    }
    return true;
}

/* `self.kl_anneal(step)`, a method of the class whose returns are numbers written out and
 * arithmetic of its attributes and parameters, one at least a number written out (`return .0`,
 * `return self.upper`, `return self.upper * (step - self.start) / ...`: Parallel_Tacotron2's
 * KL weight schedule): a number, whatever the attributes' kind, as a schedule that returns `0.`
 * on one path returns a number on the others. */
static bool method_returns_numbers(Flow *F, const DlExpr *call) {
    if (!F->owner || !call->object || call->object->kind != DL_EX_ATTR || !call->object->name ||
        !dl_ir_is_self(call->object->object))
        return false;
    const DlFunction *m = dl_ir_method_named(F->owner->cls, call->object->name);
    uint32_t count = 0;
    bool literal = false;
    return m && m != F->fn && returns_number_arithmetic(m, &m->body, &count, &literal, 0) &&
           count > 0 && literal;
}

bool flow_scalar_expression(Flow *F, const DlExpr *e, int depth) {
    if (!e || depth > 8) return false;
    switch (e->kind) {
    case DL_EX_NUMBER:
        return true;
    case DL_EX_CONST:
        return flow_streq(e->name, "True") || flow_streq(e->name, "False");
    case DL_EX_UNARY:
        return flow_scalar_expression(F, e->object, depth + 1);
    case DL_EX_COND: /* `temp if temp is not None else self.temp`: a number either way */
        return flow_scalar_expression(F, e->object, depth + 1) &&
               flow_scalar_expression(F, e->items[1], depth + 1);
    case DL_EX_BINOP: {
        if (float_arithmetic_on_a_setting(e)) return true;
        bool left = flow_scalar_expression(F, e->items[0], depth + 1);
        bool right = flow_scalar_expression(F, e->items[1], depth + 1);
        /* `dim // heads` of names of unknown kind: a floor division is of integers (a head's
         * size, PointNetLK_Revisited's `self.d_k = feature_dim // num_heads`) */
        if (e->name && flow_streq(e->name, "//") && (left || unknown_name(F, e->items[0])) &&
            (right || unknown_name(F, e->items[1])))
            return true;
        /* `seq_len - context`: a count with a name of unknown kind, counted with it
         * (physical_interaction_video_prediction's `loss /= torch.tensor(seq_len - ctx)`) */
        return (left && right) || (left && unknown_name(F, e->items[1])) ||
               (right && unknown_name(F, e->items[0]));
    }
    case DL_EX_NAME:
    case DL_EX_ATTR: {
        if (dl_expr_ctype(e) && flow_arithmetic_ctype(dl_expr_ctype(e))) return true; /* C++: double eps */
        if (reads_a_type_limit(F, e)) return true; /* torch.finfo(x.dtype).min */
        if (is_numeric_constant(F, e)) return true; /* torch.tensor(2.0 / torch.pi) */
        const char *key = flow_key_of(F, e);
        const Binding *b = key ? flow_lookup(F, key) : NULL;
        if (b && b->value && b->value->kind == DL_KIND_SCALAR) return true;
        const DlExpr *set = attribute_set_in_init(F, e);
        if (set && set != e && flow_scalar_expression(F, set, depth + 1)) return true;
        /* `N = signal.size(-1)` before `torch.tensor(N)` (Complex-Neural-Operator's FrFT): what
         * the name was last bound to in the function, read as the expression it is */
        const DlExpr *bound = e->kind == DL_EX_NAME && F->fn && b && b->value &&
                                      (b->value->kind == DL_KIND_OTHER ||
                                       b->value->kind == DL_KIND_UNKNOWN)
                                  ? dl_ir_last_assignment(&F->fn->body, e->name, e->span.start)
                                  : NULL;
        if (bound && bound != e && flow_scalar_expression(F, bound, depth + 1)) return true;
        bool unknown = !b || !b->value || b->value->kind == DL_KIND_UNKNOWN;
        /* `self.config.hidden_size ** 0.5`, `num_classes`: named for a size or a count */
        if (unknown && names_a_count(e->name)) return true;
        /* `torch.tensor(attn_dim)` where `nn.Linear(d, attn_dim)` says it is an integer */
        return e->kind == DL_EX_NAME && unknown && flow_param_is_layer_size(F, e->name);
    }
    case DL_EX_CALL: {
        const char *q = flow_qualify(F, e->object);
        if (q && strncmp(q, "math.", 5) == 0) return true;
        /* `np.sqrt(self.attention_size)`: NumPy's math of a number is a NumPy scalar, which
         * `torch.tensor` makes 0-dim (D-LSG's attention scale) */
        static const char *const numpy_math[] = {
            "numpy.sqrt", "numpy.log", "numpy.log2", "numpy.log10", "numpy.exp", "numpy.abs",
            "numpy.float32", "numpy.float64", "numpy.power", "numpy.floor", "numpy.ceil", NULL};
        if (q && dl_name_in_list(q, numpy_math) && e->arg_count >= 1 && !e->args[0].keyword) {
            bool numbers = true;
            for (uint32_t i = 0; i < e->arg_count && numbers; i++)
                numbers = !e->args[i].keyword &&
                          (flow_scalar_expression(F, e->args[i].value, depth + 1) ||
                           unknown_name(F, e->args[i].value));
            if (numbers) return true;
        }
        if (q && draws_one_random_number(q, e)) return true;
        if (q && reduces_a_whole_array(q, e)) return true;
        if (method_returns_numbers(F, e)) return true;
        if (e->object->kind == DL_EX_NAME &&
            (flow_streq(e->object->name, "float") || flow_streq(e->object->name, "int") ||
             flow_streq(e->object->name, "len")))
            return true;
        if (e->object->kind != DL_EX_ATTR) return false;
        const char *m = e->object->name;
        /* `kwargs.get("tc_plus", 20.0)`: a setting whose default is a number (bindsnet's
         * learning rules) */
        const DlExpr *fallback = dl_ir_positional(e, 1);
        if (flow_streq(m, "get") && e->arg_count == 2 && fallback &&
            fallback->kind == DL_EX_NUMBER)
            return true;
        /* `t.item()`, `t.numel()`, `t.dim()`, `t.size(0)` (not `t.size()`, a torch.Size) */
        return flow_streq(m, "item") || flow_is_count_method(m) ||
               (flow_streq(m, "size") && e->arg_count == 1);
    }
    case DL_EX_SUBSCRIPT: /* `oft_R.shape[0]`: one dimension's length (not a slice of shape) */
        return e->object->kind == DL_EX_ATTR && flow_streq(e->object->name, "shape") &&
               e->item_count == 1 && e->items[0]->kind != DL_EX_OTHER &&
               e->items[0]->kind != DL_EX_TUPLE; /* a slice is lowered as OTHER */
    default:
        return false;
    }
}

/* A layer's `device` passed by position, after its sizes (`nn.Linear(k, n, False, device,
 * torch.half)`): the device value, or one not known where the argument only names a device. */
static const DlValue *positional_device(Flow *F, const DlExpr *call,
                                        const DlValue *const *argv) {
    unsigned position = 0;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        if (call->args[i].keyword) continue;
        if (position++ < 2) continue; /* the sizes come first */
        if (!flow_positional_device(F, call->args[i].value, argv[i])) continue;
        const DlValue *d = flow_device_arg(F, call->args[i].value, argv[i]);
        return d && d->kind == DL_KIND_DEVICE ? d : flow_mk(F, DL_KIND_DEVICE);
    }
    return NULL;
}

/* `nn.Sequential(a, b)`, `nn.ModuleList(layers)`: a container is where its modules are. Built
 * from modules just constructed (on the CPU), it is a new module never moved; from modules
 * built on a device (`nn.Linear(.., device=d)`) it is there; from anything else (a parameter,
 * `OrderedDict(layers)`) its place is not known. */
bool flow_module_built_here(const DlValue *v) {
    return flow_is_module_like(v) && !(v->flags & DL_VF_MOVED) &&
           ((v->flags & DL_VF_CONSTRUCTED) ||
            (v->dev == DL_DEV_CPU && !(v->flags & DL_VF_HELD_ELSEWHERE)));
}

void flow_contents_decide(Flow *F, DlValue *m, const DlExpr *call, const DlValue *const *argv) {
    bool fresh = true, all_stateless = call->arg_count > 0, all_held = call->arg_count > 0;
    const DlValue *placed = NULL;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        if (call->args[i].keyword && call->args[i].keyword[0] != '*') continue;
        const DlValue *v = argv[i];
        if (v->kind == DL_KIND_SEQ) v = v->elem ? v->elem : flow_unknown();
        if (v->kind == DL_KIND_UNKNOWN && (v->flags & DL_VF_HELD_ELSEWHERE)) {
            fresh = all_stateless = false; /* a child of a registered container */
            continue;
        }
        if (!flow_is_module_like(v)) {
            fresh = all_stateless = all_held = false;
            continue;
        }
        if (flow_adds_unregistered_state(v)) all_held = false;
        bool built_here = flow_module_built_here(v);
        if (!built_here) fresh = false;
        if (v->flags & DL_VF_CONSTRUCTED || !built_here) all_stateless = false;
        if (!placed && v->dev && v->dev != DL_DEV_CPU) placed = v;
    }
    /* `nn.Sequential(self.stem, self.act)` of submodules registered already (or without
     * state): a plain list holding it holds nothing new (LANet's `self.cnn_blocks`) */
    if (all_held) m->flags |= DL_VF_HELD_ELSEWHERE;
    /* `nn.ModuleList(ROIAlign(...) for s in scales)`, every layer without state: nor has it */
    if (fresh && all_stateless) m->flags &= (uint32_t)~DL_VF_CONSTRUCTED;
    if (fresh) return;
    m->flags &= (uint32_t)~DL_VF_CONSTRUCTED;
    if (placed) {
        flow_take_place(m, placed);
    } else {
        m->dev = DL_DEV_UNKNOWN;
        m->dev_name = NULL;
    }
}

/* The factories whose positional arguments are the size (`torch.zeros(2, 3)`,
 * `torch.ones((n,))`). */
static const char *const sized_factories[] = {"torch.zeros", "torch.ones", "torch.empty",
                                              "torch.rand", "torch.randn", NULL};

/* An empty tensor: `torch.empty(0)`, `torch.zeros([0])`, `torch.ones((0,))` (a size of 0 as the
 * first positional argument), `torch.tensor([])` (no data). */
static bool is_empty_placeholder(const char *q, const DlExpr *first) {
    if (!first) return false;
    bool data = flow_streq(q, "torch.tensor") || flow_streq(q, "torch.as_tensor");
    bool sized = dl_name_in_list(q, sized_factories);
    bool zero = first->kind == DL_EX_NUMBER && first->name && strcmp(first->name, "0") == 0;
    bool list = first->kind == DL_EX_LIST || first->kind == DL_EX_TUPLE;
    if (data) return list && first->item_count == 0;
    if (!sized) return false;
    if (zero) return true;
    return list && first->item_count == 1 && first->items[0]->kind == DL_EX_NUMBER &&
           first->items[0]->name && strcmp(first->items[0]->name, "0") == 0;
}

/* A sized factory's size when written as one argument: `size=...`, torch.full's first argument,
 * or the only positional argument of the factories above; NULL otherwise. */
static const DlExpr *written_size(const char *q, const DlExpr *call) {
    const DlArg *size = dl_ir_keyword(call, "size");
    if (size) return size->value;
    if (flow_streq(q, "torch.full")) return dl_ir_positional(call, 0);
    uint32_t positional = 0;
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (!call->args[i].keyword) positional++;
    /* `torch.randint(0, 4, ())`: the size after the bounds */
    if (flow_streq(q, "torch.randint"))
        return positional >= 2 ? dl_ir_positional(call, positional - 1) : NULL;
    if (!dl_name_in_list(q, sized_factories)) return NULL;
    return positional == 1 ? dl_ir_positional(call, 0) : NULL;
}

/* `torch.ones([])`, `torch.zeros(())`, `torch.full((), v)`, `torch.randint(0, 4, ())`: a size
 * with no dimension, a 0-dim tensor (mmpretrain's `nn.Parameter(temperature *
 * torch.ones([]))`). */
static bool sized_with_no_dimension(const char *q, const DlExpr *call) {
    if (!dl_name_in_list(q, sized_factories) && !flow_streq(q, "torch.full") &&
        !flow_streq(q, "torch.randint"))
        return false;
    const DlExpr *size = written_size(q, call);
    return size && (size->kind == DL_EX_LIST || size->kind == DL_EX_TUPLE) && size->item_count == 0;
}

/* A size written out as one dimension: `5`, `(n,)`, `[n]`. */
static bool one_dimension(const DlExpr *size) {
    if (!size) return false;
    if (size->kind == DL_EX_NUMBER) return true;
    return (size->kind == DL_EX_TUPLE || size->kind == DL_EX_LIST) && size->item_count == 1 &&
           size->items[0]->kind != DL_EX_STARRED;
}

/* Data written out as a flat list of numbers or scalar expressions: `torch.tensor([-54.0, 54.0])`,
 * `torch.Tensor([t[1] - p[1], t[0] - p[0]])` (mmagic's renderer, bevfusion's ranges). A name
 * in it may hold a list (a row): taking the tensor for 1-D then only forgoes a finding on an
 * element of it. */
static bool flat_data_literal(const char *q, const DlExpr *call) {
    const char *m = strrchr(q, '.');
    m = m ? m + 1 : q;
    bool data = dl_torch_factory_data_arguments(q) == 1;
    bool legacy = strlen(m) >= 6 && strcmp(m + strlen(m) - 6, "Tensor") == 0;
    const DlExpr *d = dl_ir_positional(call, 0);
    if ((!data && !legacy) || !d || !(d->kind == DL_EX_LIST || (data && d->kind == DL_EX_TUPLE)) ||
        !d->item_count)
        return false;
    for (uint32_t i = 0; i < d->item_count; i++) {
        DlExprKind k = d->items[i]->kind;
        if (k != DL_EX_NUMBER && k != DL_EX_NAME && k != DL_EX_ATTR && k != DL_EX_CALL &&
            k != DL_EX_SUBSCRIPT && k != DL_EX_BINOP && k != DL_EX_UNARY && k != DL_EX_CONST)
            return false;
    }
    return true;
}

/* Data from elsewhere, not written out (`torch.tensor(cfg["voxel_size"])`,
 * `torch.as_tensor(values)`): the rank of the result is not known here (DL_VF_DATA_RANK). */
static bool data_not_written_out(const char *q, const DlExpr *call) {
    if (dl_torch_factory_data_arguments(q) != 1) return false;
    const DlExpr *d = dl_ir_positional(call, 0);
    return d && (d->kind == DL_EX_NAME || d->kind == DL_EX_ATTR || d->kind == DL_EX_SUBSCRIPT ||
                 d->kind == DL_EX_CALL);
}

/* A sized factory whose size is written out as one dimension: `torch.zeros(5)`,
 * `torch.ones((n,))`, `torch.randint(lo, hi, (1,))`, `torch.full([n], v)`, `size=(n,)`; or one
 * made from a flat list (flat_data_literal). */
static bool sized_one_dim(Flow *F, const char *q, const DlExpr *call) {
    if (flat_data_literal(q, call)) return true;
    if (flow_streq(q, "torch.randint") && !dl_ir_keyword(call, "size")) { /* ([low,] high, size) */
        for (uint32_t i = 0; i < call->arg_count; i++) {
            const DlExpr *v = call->args[i].value;
            if (!call->args[i].keyword && (v->kind == DL_EX_TUPLE || v->kind == DL_EX_LIST))
                return one_dimension(v);
        }
        return false;
    }
    const DlExpr *size = written_size(q, call);
    /* `torch.zeros(max_length, device=d)`: one size that is a number (fish-speech's per-position
     * loss sums, whose elements zip yields one by one) */
    return one_dimension(size) ||
           (size && size->kind != DL_EX_TUPLE && size->kind != DL_EX_LIST &&
            flow_scalar_expression(F, size, 0));
}

/* `x.cuda()` of an `x` of unknown kind, handed where only a tensor goes (as the data of
 * `torch.tensor(...)`, `Variable(...)`, `nn.Parameter(...)`): a tensor on the device it was
 * moved to; `v` itself otherwise. Not `x.cpu()` unless `to_the_cpu_too`: a factory's copy of it
 * is made on the CPU as one of host data is, and reported as the factory's. */
static const DlValue *tensor_if_moved(Flow *F, const DlValue *v, bool to_the_cpu_too) {
    if (v->kind != DL_KIND_UNKNOWN || !v->dev || (v->dev == DL_DEV_CPU && !to_the_cpu_too))
        return v;
    DlValue *t = dl_value_copy(F->arena, v);
    t->kind = DL_KIND_TENSOR;
    return t;
}

/* The tensor among a factory's data arguments (dl_torch_factory_data_arguments): a copy of it
 * as the result, with its origin (a CPU factory's data is reported at that factory); unknown
 * device when one of them is a tensor whose device is not known, or when a sparse tensor's
 * indices and values, or a number's parts, are not written out as lists (tensors in practice,
 * of a device not known here); NULL otherwise. Indices and values, or a number's parts, must be
 * on one device: they meet. */
static const DlValue *made_where_its_data_is(Flow *F, const DlExpr *call, const char *q,
                                             const DlValue *const *argv) {
    unsigned wanted = q ? dl_torch_factory_data_arguments(q) : 0, seen = 0;
    const DlValue *from = NULL;
    bool unknown = false, written_out = true;
    OperandList ops = {0};
    /* the data given by keyword too: `torch.sparse_coo_tensor(indices=i, values=v, ...)`
     * (SGFormer), `torch.tensor(data=t)` */
    static const char *const data_keywords[] = {"data", "indices", "values", "real", "imag",
                                                "abs", "angle", NULL};
    for (uint32_t i = 0; i < call->arg_count && seen < wanted; i++) {
        const char *kw = call->args[i].keyword;
        if (kw && !dl_name_in_list(kw, data_keywords)) continue;
        seen++;
        DlExprKind k = call->args[i].value->kind;
        written_out &= k == DL_EX_LIST || k == DL_EX_TUPLE || k == DL_EX_NUMBER;
        const DlValue *a = argv[i];
        /* `torch.tensor(img.cuda())`, `img` of unknown kind: the copy is made where it is
         * (hyperIQA's solver) */
        a = tensor_if_moved(F, a, false);
        if (!flow_is_tensor(a)) continue;
        flow_add_operand(&ops, call->args[i].value, a);
        if (!a->dev)
            unknown = true;
        else if (!from)
            from = a;
    }
    if (ops.count > 1) flow_meet(F, call, ops.items, ops.count, -1);
    /* `torch.as_tensor(best_f)` keeps a tensor where it is (and copies nothing): of a
     * parameter whose kind is not known (`best_f: float | Tensor`), it is made wherever the
     * caller's value is */
    const DlExpr *data = call->arg_count && !call->args[0].keyword ? call->args[0].value : NULL;
    if (q && (flow_streq(q, "torch.as_tensor") || flow_streq(q, "torch.asarray")) && data &&
        data->kind == DL_EX_NAME && F->fn && dl_ir_param_index(F->fn, data->name) >= 0 &&
        argv[0]->kind == DL_KIND_UNKNOWN)
        unknown = true;
    /* `t = torch.as_tensor(len_rows)` of a forward's input: one converted so is likely no tensor
     * (speedyspeech's guided-attention loss is given lists of lengths), so not on the module's
     * device as a forward's tensor inputs are taken to be; where it is made is not known */
    if (q && data && data->kind == DL_EX_NAME && argv[0]->origin == DL_ORIGIN_INPUT &&
        argv[0]->dev == DL_DEV_MODULE &&
        (flow_streq(q, "torch.as_tensor") || flow_streq(q, "torch.asarray") ||
         flow_streq(q, "torch.tensor")))
        unknown = true;
    if (unknown || (!from && wanted >= 2 && !written_out)) return flow_mk(F, DL_KIND_TENSOR);
    if (!from) return NULL;
    DlValue *r = dl_value_copy(F->arena, from);
    r->var = NULL;
    r->items = NULL;
    r->item_count = 0;
    return r;
}

/* Every weight a loss is given is a number or a 0-dim tensor (`nn.BCEWithLogitsLoss(pos_weight=
 * torch.tensor(5.0))`, LMOps' SpeechT5 loss): it mixes with device inputs as a number does, so
 * the loss holds nothing that must move. */
static bool weighs_by_a_number(const DlExpr *call, const DlValue *const *argv) {
    bool any = false;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (kw && !flow_streq(kw, "weight") && !flow_streq(kw, "pos_weight") && kw[0] != '*')
            continue; /* reduction=, ignore_index=, label_smoothing= */
        if (!kw || kw[0] == '*') return false;
        bool number = argv[i]->kind == DL_KIND_SCALAR ||
                      (flow_is_tensor(argv[i]) && (argv[i]->flags & DL_VF_ZERO_DIM));
        if (!number) return false;
        any = true;
    }
    return any;
}

/* Tensor options that may name a device: anything but a dtype written out (`torch::kFloat32`,
 * `at::kInt`) or options built from dtypes only (`TensorOptions().dtype(torch::kFloat)`). */
static bool may_name_a_device(Flow *F, const DlExpr *options) {
    const char *text = flow_text(F, options->span);
    if (strstr(text, "device") || strstr(text, "cuda") || strstr(text, "CUDA")) return true;
    return !strstr(text, "::k") && !strstr(text, "dtype");
}

/* torch.tensor(3.0) / torch.tensor(eps): a 0-dim scalar tensor may meet any device */
static bool makes_a_scalar_tensor(Flow *F, const char *q, const DlExpr *call,
                                  const DlValue *const *argv) {
    if (!q || (!flow_streq(q, "torch.tensor") && !flow_streq(q, "torch.as_tensor") &&
               !flow_streq(q, "torch.scalar_tensor")))
        return false;
    if (flow_scalar_expression(F, dl_ir_positional(call, 0), 0)) return true;
    /* what the flow made of it: a number, or a 0-dim tensor (`torch.tensor(self.schedule.
     * alpha(t))` of `1 - self.betas[t]`: 02456_Group_44's DDPM) */
    const DlValue *v = call->arg_count && !call->args[0].keyword ? argv[0] : NULL;
    return v && (v->kind == DL_KIND_SCALAR || (flow_is_tensor(v) && (v->flags & DL_VF_ZERO_DIM)));
}

/* `torch.LongTensor`, `torch.FloatTensor`: a typed (legacy) constructor of CPU tensors (not
 * `torch.cuda.FloatTensor`; nor `torch.Tensor`, whose name is too short to be taken). */
static bool legacy_cpu_constructor(const char *q) {
    size_t n = strlen(q);
    return strncmp(q, "torch.", 6) == 0 && !strchr(q + 6, '.') && n > 12 &&
           strcmp(q + n - 6, "Tensor") == 0;
}

/* `np.array(0.9)`, `np.float32(x)` of a number: a 0-dim array; or a name last bound so before
 * `at` (`beta_1 = np.array(beta_1)`, the number a parameter's default). */
static bool zero_dim_array(Flow *F, const DlExpr *a, uint32_t at) {
    const char *name = a && a->kind == DL_EX_NAME ? a->name : NULL;
    if (name) {
        const DlBlock *body = F->fn ? &F->fn->body : &F->env->file->module->body;
        a = dl_ir_last_assignment(body, name, at);
    }
    if (!a || a->kind != DL_EX_CALL || a->arg_count != 1 || a->args[0].keyword) return false;
    const char *np = flow_qualify(F, a->object);
    if (!np || (!flow_streq(np, "numpy.array") && !flow_streq(np, "numpy.asarray") &&
                !flow_streq(np, "numpy.float32") && !flow_streq(np, "numpy.float64")))
        return false;
    const DlExpr *x = a->args[0].value;
    if (name && x->kind == DL_EX_NAME && F->fn && strcmp(x->name, name) == 0) {
        int p = dl_ir_param_index(F->fn, name); /* rebound from the parameter itself */
        const DlExpr *d = p >= 0 ? F->fn->params[p].default_value : NULL;
        return d && d->kind == DL_EX_NUMBER;
    }
    return flow_scalar_expression(F, x, 0);
}

const DlValue *flow_eval_factory(Flow *F, const DlExpr *call, DlFactoryKind kind,
                                 const DlValue *const *argv) {
    /* `torch.arange(n, out=positions)` fills `positions` and returns it: no new tensor (ParlAI's
     * positions, made with `tensor.new(n)` where the input is) */
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (call->args[i].keyword && flow_streq(call->args[i].keyword, "out"))
            return flow_is_tensor(argv[i]) ? argv[i] : flow_mk(F, DL_KIND_TENSOR);
    const DlValue *dev = flow_device_keyword(F, call, argv);
    const char *q = flow_qualify(F, call->object);
    bool one_dim = kind == DL_FACTORY_PLAIN && q &&
                   (dl_torch_factory_is_one_dim(q) || sized_one_dim(F, q, call));
    uint32_t rank = one_dim ? DL_VF_ONE_DIM
                    : kind == DL_FACTORY_PLAIN && q && data_not_written_out(q, call)
                        ? DL_VF_DATA_RANK
                        : 0;
    /* C++ `torch::from_blob(ptr, sizes, options)` wraps memory where the options say (a view
     * of a CUDA tensor's data, torchsparse's gather buffers); with no options, or a dtype only
     * (`torch::kFloat32`), host memory */
    if (kind == DL_FACTORY_FROM_CPU && q && flow_streq(q, "torch.from_blob")) {
        if (dev)
            return flow_with_device(F, flow_mk(F, DL_KIND_TENSOR), dev, DL_ORIGIN_NONE, call->span);
        if (call->arg_count >= 3 && may_name_a_device(F, call->args[call->arg_count - 1].value))
            return flow_mk(F, DL_KIND_TENSOR);
    }
    if (kind == DL_FACTORY_FROM_CPU) {
        DlValue *t = flow_mk_tensor(F, DL_DEV_CPU, NULL, DL_ORIGIN_FACTORY, call->span);
        t->flags |= DL_VF_PIN_KNOWN;
        /* `torch.from_numpy(np.array(0.9))`: a 0-dim array makes a 0-dim tensor; also through a
         * name bound so (`beta_1 = np.array(beta_1)` of a parameter defaulting to a number,
         * BASAR's Adam) */
        const DlExpr *a = dl_ir_positional(call, 0);
        if (q && flow_streq(q, "torch.from_numpy") && zero_dim_array(F, a, call->span.start))
            t->flags |= DL_VF_ZERO_DIM;
        /* ... and so does the array of a 0-dim tensor (`torch.from_numpy(x[3].cpu().numpy())`) */
        const DlValue *arr = a && call->arg_count && !call->args[0].keyword ? argv[0] : NULL;
        if (q && flow_streq(q, "torch.from_numpy") && arr && arr->kind == DL_KIND_OTHER &&
            arr->literal && flow_streq(arr->literal, "numpy.ndarray") &&
            (arr->flags & DL_VF_ZERO_DIM))
            t->flags |= DL_VF_ZERO_DIM;
        return t;
    }
    if (kind == DL_FACTORY_LIKE) {
        if (dev)
            return flow_with_device(F, flow_mk(F, DL_KIND_TENSOR), dev, DL_ORIGIN_NONE, call->span);
        const DlValue *src = call->arg_count ? argv[0] : flow_unknown();
        if (!flow_is_tensor(src)) return flow_mk(F, DL_KIND_TENSOR);
        DlValue *r = dl_value_copy(F->arena, src);
        r->origin = DL_ORIGIN_NONE;
        r->var = NULL;
        return r;
    }
    /* `torch.LongTensor(rows, device=device)`: the typed constructors make CPU tensors only,
     * and raise when given a GPU ("legacy constructor expects device type: cpu"), so nothing
     * past the call meets a GPU (PyTorch-Beam-Search-Decoding's decoder inputs) */
    if (dev && dev->dev != DL_DEV_CPU && q && legacy_cpu_constructor(q))
        return flow_mk(F, DL_KIND_TENSOR);
    if (dev) {
        DlValue *r =
            flow_with_device(F, flow_mk(F, DL_KIND_TENSOR), dev, DL_ORIGIN_NONE, call->span);
        r->flags |= rank;
        const DlArg *given = dl_ir_keyword(call, "device");
        /* `torch.tensor(R, device="cpu")` of a number is 0-dim all the same (PaDiM's SVDD) */
        if (r->dev == DL_DEV_CPU && makes_a_scalar_tensor(F, q, call, argv)) r->flags |= DL_VF_ZERO_DIM;
        if (r->dev == DL_DEV_CPU && given &&
            (given->value->kind == DL_EX_NAME || given->value->kind == DL_EX_ATTR))
            r->flags |= DL_VF_DEVICE_VARIABLE;
        return r;
    }
    /* `torch.Tensor(t)` of a tensor: an alias of `t`, where `t` is, whatever its dtype (the
     * base constructor; the typed ones, `torch.FloatTensor(t)`, raise for a GPU tensor) */
    if (q && flow_streq(q, "torch.Tensor") && call->arg_count == 1 && !call->args[0].keyword &&
        flow_is_tensor(argv[0])) {
        DlValue *r = dl_value_copy(F->arena, argv[0]);
        r->var = NULL;
        return r;
    }
    const DlValue *from_data = made_where_its_data_is(F, call, q, argv);
    if (from_data) return from_data;
    for (uint32_t i = 0; i < call->arg_count; i++) /* torch.zeros(n, device): a TypeError */
        if (!call->args[i].keyword && flow_positional_device(F, call->args[i].value, argv[i]))
            return flow_mk(F, DL_KIND_TENSOR);
    if (F->default_device)
        return flow_with_device(F, flow_mk(F, DL_KIND_TENSOR), F->default_device, DL_ORIGIN_NONE,
                                call->span);
    if (F->env->file->module->sets_default_device || default_set_elsewhere(F) ||
        flow_has_splat(call))
        return flow_mk(F, DL_KIND_TENSOR);
    DlValue *t = flow_mk_tensor(F, DL_DEV_CPU, NULL, DL_ORIGIN_FACTORY, call->span);
    t->flags |= rank;
    /* pageable unless pin_memory=True; not known when it is a variable (ChatTTS's
     * `torch.tensor(data, pin_memory=pin_memory)` in a helper) */
    const DlArg *pin = dl_ir_keyword(call, "pin_memory");
    bool pinned = pin && pin->value->kind == DL_EX_CONST && flow_streq(pin->value->name, "True");
    bool written = !pin || pin->value->kind == DL_EX_CONST;
    if (written) t->flags |= DL_VF_PIN_KNOWN | (pinned ? DL_VF_PINNED : 0);
    if (F->place.cuda_context) t->flags |= DL_VF_CUDA_CONTEXT;
    if (makes_a_scalar_tensor(F, q, call, argv)) t->flags |= DL_VF_ZERO_DIM;
    /* `torch.empty(0)`, `torch.tensor([])`: an empty placeholder handed to a function that
     * does not read it (`in_proj_weight` when separate weights are used), not data that meets
     * the device: counted with the 0-dim tensors, which may meet any device */
    if (q && is_empty_placeholder(q, dl_ir_positional(call, 0))) t->flags |= DL_VF_ZERO_DIM;
    if (q && sized_with_no_dimension(q, call)) t->flags |= DL_VF_ZERO_DIM; /* torch.ones([]) */
    return t;
}

/* The call's arguments are only the running function's own parameters splatted, and keywords
 * other than weight= and pos_weight= (flow_call_may_give_a_weight). */
static bool splats_only_parameters(Flow *F, const DlExpr *call) {
    if (!F->fn || !call->arg_count) return false;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        const DlExpr *v = call->args[i].value;
        if (kw && kw[0] != '*') { /* weight= and pos_weight= give one; other keywords do not */
            if (flow_streq(kw, "weight") || flow_streq(kw, "pos_weight")) return false;
            continue;
        }
        if (!kw || v->kind != DL_EX_NAME || dl_ir_param_index(F->fn, v->name) < 1) return false;
    }
    return true;
}

bool flow_call_may_give_a_weight(Flow *F, const DlExpr *call) {
    return dl_call_may_give_a_weight(call, false) && !splats_only_parameters(F, call);
}

const DlValue *flow_eval_loss_ctor(Flow *F, const DlExpr *call, const DlValue *const *argv) {
    DlValue *loss = flow_mk(F, DL_KIND_LOSS);
    loss->literal = flow_qualify(F, call->object); /* which loss: its call reads it */
    loss->dev_span = call->span;
    loss->dev_why = flow_short_text(F, call->span);
    /* given no weight, it holds nothing to move: a layer without state, as nn.ReLU() is (a
     * module that keeps one, GPT's `self.loss_fn = nn.CrossEntropyLoss()`, has none either) */
    if (flow_call_may_give_a_weight(F, call) && !weighs_by_a_number(call, argv) &&
        !(loss->literal && dl_torch_is_loss_without_weight(loss->literal)))
        loss->flags |= DL_VF_CONSTRUCTED;
    else
        loss->dev = DL_DEV_CPU;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (!kw || (!flow_streq(kw, "weight") && !flow_streq(kw, "pos_weight"))) continue;
        const DlExpr *given = call->args[i].value;
        int param = F->fn && flow_streq(F->fn->name, "__init__") && given->kind == DL_EX_NAME
                        ? dl_ir_param_index(F->fn, given->name)
                        : -1;
        const DlExpr *none = param >= 0 ? F->fn->params[param].default_value : NULL;
        if (none && none->kind == DL_EX_CONST && flow_streq(none->name, "None"))
            loss->flags |= DL_VF_WEIGHT_BY_PARAM;
        if (dl_value_is_cpu_tensor(argv[i])) {
            loss->dev = DL_DEV_CPU;
            loss->flags |= DL_VF_CPU_WEIGHT;
            loss->elem = argv[i];
            loss->aux_span = call->args[i].span;
        }
    }
    return loss;
}

/* pin_memory=True / False / absent, also through a `**kwargs` dict: DL_VF_PIN_KNOWN and
 * DL_VF_PINNED on the loader, inherited by its batches. */
uint32_t flow_loader_pin_flags(const DlExpr *call, const DlValue *const *argv) {
    bool splat_known = true, splat_pinned = false;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (!kw) continue;
        if (flow_streq(kw, "pin_memory")) {
            const DlExpr *v = call->args[i].value;
            if (v->kind == DL_EX_CONST && flow_streq(v->name, "True"))
                return DL_VF_PIN_KNOWN | DL_VF_PINNED;
            if (v->kind == DL_EX_CONST && flow_streq(v->name, "False")) return DL_VF_PIN_KNOWN;
            return 0;
        }
        if (flow_streq(kw, "**")) {
            const DlValue *d = argv[i];
            if (!(d->flags & DL_VF_PIN_KNOWN)) splat_known = false;
            if (d->flags & DL_VF_PINNED) splat_pinned = true;
        }
    }
    if (splat_pinned) return DL_VF_PIN_KNOWN | DL_VF_PINNED;
    return splat_known ? DL_VF_PIN_KNOWN : 0;
}

/* num_workers > 0: a literal, or the machine's cpu count. */
static bool workers_counted(Flow *F, const DlExpr *v) {
    if (v->kind == DL_EX_NUMBER) return strtol(v->name, NULL, 10) > 0;
    if (v->kind == DL_EX_NAME || v->kind == DL_EX_ATTR) { /* NUM_WORKERS = 6 */
        const char *key = flow_key_of(F, v);
        const Binding *b = key ? flow_lookup(F, key) : NULL;
        return b && b->value && b->value->kind == DL_KIND_SCALAR && b->value->literal &&
               strtol(b->value->literal, NULL, 10) > 0;
    }
    if (v->kind == DL_EX_CALL) {
        const char *q = flow_qualify(F, v->object);
        return q && (flow_streq(q, "os.cpu_count") || flow_streq(q, "multiprocessing.cpu_count"));
    }
    return false;
}

static bool file_spawns_workers(Flow *F);

/* num_workers > 0 (workers_counted), workers that are forked, not spawned
 * (`multiprocessing_context="spawn"`, or the file's `set_start_method("spawn")`). */
bool flow_uses_workers(Flow *F, const DlExpr *call) {
    const DlArg *a = dl_ir_keyword(call, "num_workers");
    if (!a) return false;
    const DlArg *context = dl_ir_keyword(call, "multiprocessing_context");
    if (context && context->value->kind == DL_EX_STRING && context->value->name &&
        !flow_streq(context->value->name, "fork"))
        return false;
    return workers_counted(F, a->value) && !file_spawns_workers(F);
}

/* A dataset (or callable collate object) or a collate function that DataLoader workers run. */
static void mark(DlClassInfo *cls, DlFunctionInfo *fn) {
    if (cls) __atomic_store_n(&cls->loaded_with_workers, true, __ATOMIC_RELAXED);
    if (fn) __atomic_store_n(&fn->collate_with_workers, true, __ATOMIC_RELAXED);
    dl_project_note_mark(cls, fn); /* for the file's cache entry (driver/check.c) */
}

static bool is_device_tensor(const DlValue *v) {
    return flow_is_tensor(v) && dl_value_on_device(v);
}

/* A dataset item `(image, "a photo")` whose parts include strings: the default collate makes a
 * list of those strings, no tensor to move (MiniCLIP's captions). The loader keeps the item's
 * parts (DlValue.items of a LOADER), for flow_element_of to make its batches of: a list of
 * strings for each text part, a batch tensor on the CPU for the others. NULL when no part is
 * text. */
static const DlValue **text_fields_of(Flow *F, const DlValue *item) {
    if (item->kind != DL_KIND_SEQ || !item->items || item->item_count < 2) return NULL;
    bool text = false;
    for (uint32_t i = 0; i < item->item_count; i++)
        text |= item->items[i]->kind == DL_KIND_STRING;
    return text ? item->items : NULL;
}

/* A project collate function that puts its batches on a device itself (the torchtext
 * tutorials' `collate_batch` ends `return labels.to(device), text.to(device), ...`). */
static bool collates_onto_a_device(const DlFunctionInfo *fi) {
    return fi && fi->ret && dl_value_any_part(fi->ret, is_device_tensor);
}

/* A dataset's __getitem__ returning its items moved to a device: tensors there, or values of
 * unknown kind moved with `.cuda()` / `.to(device)` (`self.data[i:j].long().cuda()`, the data
 * handed to the constructor), which a dataset item moved so can only be. */
static bool item_on_a_device(const DlValue *v) {
    if (!(flow_is_tensor(v) || v->kind == DL_KIND_UNKNOWN) || !dl_value_on_kernel_device(v))
        return false;
    /* not a device the dataset holds (`device=self.device`): the caller cannot name it */
    return !(v->dev == DL_DEV_NAMED && v->dev_name && strncmp(v->dev_name, "self.", 5) == 0);
}

static bool items_on_a_device(const DlFunctionInfo *getitem) {
    return getitem && getitem->ret && dl_value_any_part(getitem->ret, item_on_a_device);
}

/* An item moved to the device the dataset holds (`return x.to(self.device)`, the device handed to
 * its constructor: physical_interaction_video_prediction's PushDataset): on whatever device the
 * instance was given, not known here, but no CPU batch either. */
static bool item_on_its_own_device(const DlValue *v) {
    return (flow_is_tensor(v) || v->kind == DL_KIND_UNKNOWN) && v->dev == DL_DEV_NAMED &&
           v->dev_name && strncmp(v->dev_name, "self.", 5) == 0;
}

static bool items_on_its_own_device(const DlFunctionInfo *getitem) {
    return getitem && getitem->ret && dl_value_any_part(getitem->ret, item_on_its_own_device);
}

/* The project function `name` names here: the file's own, or one it imports (`from utils
 * import f`). */
static const DlFunctionInfo *function_named(Flow *F, const char *name) {
    const char *imported = dl_project_import(F->env->file, name);
    return dl_project_find_function(F->env->project, F->env->file, imported ? imported : name);
}

/* The project function a `collate_fn=` argument runs on each batch: one named
 * (`collate_fn=collate`), one with arguments bound (`functools.partial(collate, device=d)`), or
 * the one a lambda calls on its batch (`lambda b: collate_fn(b, device)`: the visual-grounding
 * project's loaders; the IR keeps no lambda body, so it is read from the text). */
static const DlFunctionInfo *collate_function_given(Flow *F, const DlExpr *given) {
    if (given->kind == DL_EX_NAME) return function_named(F, given->name);
    if (given->kind == DL_EX_CALL && given->object && given->arg_count >= 1 &&
        !given->args[0].keyword && given->args[0].value->kind == DL_EX_NAME) {
        const char *q = flow_qualify(F, given->object);
        if (q && flow_streq(q, "functools.partial"))
            return function_named(F, given->args[0].value->name);
        return NULL;
    }
    if (given->kind != DL_EX_LAMBDA) return NULL;
    const char *text = flow_text(F, given->span);
    const char *colon = text ? strchr(text, ':') : NULL;
    if (!colon) return NULL;
    const char *name = colon + 1;
    while (*name == ' ') name++;
    size_t n = 0;
    while (isalnum((unsigned char)name[n]) || name[n] == '_') n++;
    if (!n || n >= 128 || name[n] != '(') return NULL;
    char callee[128];
    memcpy(callee, name, n);
    callee[n] = '\0';
    return function_named(F, callee);
}

/* `collate_fn=` given a collate function of the project that collates onto a device. */
static bool names_a_collate_onto_a_device(const DlExpr *e, void *ctx) {
    Flow *F = ctx;
    if (e->kind != DL_EX_CALL) return false;
    const DlArg *c = dl_ir_keyword(e, "collate_fn");
    return c && collates_onto_a_device(collate_function_given(F, c->value));
}

typedef bool (*ExprMatch)(const DlExpr *, void *);

/* Whether `match` holds for an expression of a statement of `b` (of the blocks in it, not of
 * nested defs or classes; `with_items`: of its `with` items too). */
static bool block_has_expr(Flow *F, const DlBlock *b, ExprMatch match, bool with_items, int depth) {
    if (depth > 64) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS || s->kind == DL_ST_IMPORT) continue;
        if (dl_ir_expr_any_with(s->value, match, F)) return true;
        for (uint32_t w = 0; with_items && s->kind == DL_ST_WITH && w < s->with_count; w++)
            if (dl_ir_expr_any_with(s->withs[w], match, F)) return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_has_expr(F, inner, match, with_items, depth + 1)) return true;
    }
    return false;
}

/* block_has_expr over the file's top level and each of its functions. */
static bool file_has_expr(Flow *F, ExprMatch match, bool with_items) {
    const DlModuleIR *m = F->env->file->module;
    if (block_has_expr(F, &m->body, match, with_items, 0)) return true;
    for (uint32_t i = 0; i < m->function_count; i++)
        if (block_has_expr(F, &m->functions[i]->body, match, with_items, 0)) return true;
    return false;
}

/* `set_start_method("spawn")` (or "forkserver"; through `torch.multiprocessing`, `mp`...). */
static bool sets_a_spawning_start_method(const DlExpr *e, void *ctx) {
    (void)ctx;
    if (e->kind != DL_EX_CALL || !e->object ||
        (e->object->kind != DL_EX_NAME && e->object->kind != DL_EX_ATTR) || !e->object->name ||
        !flow_streq(e->object->name, "set_start_method"))
        return false;
    const DlExpr *method = dl_ir_positional(e, 0);
    if (!method) {
        const DlArg *a = dl_ir_keyword(e, "method");
        method = a ? a->value : NULL;
    }
    return method && method->kind == DL_EX_STRING && method->name &&
           (flow_streq(method->name, "spawn") || flow_streq(method->name, "forkserver"));
}

/* The file sets the start method to "spawn" at top level or in any function (Modified_DMPfold2's
 * train.py, under `if __name__ == "__main__":`): its DataLoader workers start fresh processes,
 * where CUDA initialises. Most files never name it: their text says so without a walk. */
static bool file_spawns_workers(Flow *F) {
    return dl_source_mentions(F->src, "set_start_method") &&
           file_has_expr(F, sets_a_spawning_start_method, false);
}

bool flow_file_collates_onto_a_device(Flow *F) {
    const DlModuleIR *m = F->env->file->module;
    /* most files name no collate function: their text says so without a walk */
    if (m->source && m->source->text &&
        !dl_ir_span_mentions(m->source, (DlSpan){0, (uint32_t)m->source->len}, "collate_fn"))
        return false;
    return file_has_expr(F, names_a_collate_onto_a_device, true);
}

/* A class of no base but `object` (a sampler subclasses torch's Sampler, a dataset Dataset). */
static bool of_no_base(const DlClassInfo *ci) {
    for (uint32_t i = 0; i < ci->cls->base_count; i++) {
        const DlExpr *b = ci->cls->bases[i];
        if (b->kind != DL_EX_NAME || strcmp(b->name, "object") != 0) return false;
    }
    return true;
}

/* `class DeviceLoader(DataLoader)` with an `__iter__` of its own (NLP-Pytorch-Template's
 * DictDataLoader, which yields batches it made on the device). */
static bool subclasses_the_dataloader(Flow *F, const DlClassInfo *ci) {
    for (uint32_t i = 0; i < ci->cls->base_count; i++) {
        const char *q = flow_qualify(F, ci->cls->bases[i]);
        if (q && dl_torch_is_dataloader(q)) return true;
    }
    return false;
}

/* `CifarLoader(...)`: a project class of no base that is iterated itself (its own `__iter__`):
 * a loader of the project's, which may yield batches already on a device (airbench's, slicing
 * tensors loaded onto the GPU). */
static bool builds_a_project_loader(const DlExpr *e, void *ctx) {
    Flow *F = ctx;
    if (e->kind != DL_EX_CALL || !e->object ||
        (e->object->kind != DL_EX_NAME && e->object->kind != DL_EX_ATTR))
        return false;
    const char *q = flow_qualify(F, e->object); /* `airbench.CifarLoader(...)` too */
    if (!q && e->object->kind != DL_EX_NAME) return false;
    const DlClassInfo *ci =
        dl_project_find_class(F->env->project, F->env->file, q ? q : e->object->name);
    return ci && !ci->is_dataset && !ci->is_module &&
           (of_no_base(ci) || subclasses_the_dataloader(F, ci)) &&
           dl_ir_method_named(ci->cls, "__iter__");
}

/* `ClassifierDataset(config, "train")`: a project dataset whose `__getitem__` makes its items on
 * a device, its own (`device=self.config.device`: CodeSearch's) or one written out. */
static bool builds_a_dataset_on_a_device(const DlExpr *e, void *ctx) {
    Flow *F = ctx;
    if (e->kind != DL_EX_CALL || !e->object ||
        (e->object->kind != DL_EX_NAME && e->object->kind != DL_EX_ATTR))
        return false;
    const char *q = flow_qualify(F, e->object);
    if (!q && e->object->kind != DL_EX_NAME) return false;
    const DlClassInfo *ci =
        dl_project_find_class(F->env->project, F->env->file, q ? q : e->object->name);
    if (!ci || !ci->is_dataset) return false;
    const DlFunctionInfo *item = dl_project_method(F->env->project, ci, "__getitem__");
    return items_on_a_device(item) || items_on_its_own_device(item);
}

bool flow_file_builds_a_project_loader(Flow *F) {
    return file_has_expr(F, builds_a_project_loader, false) ||
           file_has_expr(F, builds_a_dataset_on_a_device, false);
}

/* A DataLoader whose batches are not CPU tensors: on a device, or not known. */
static bool loader_off_the_cpu(const DlValue *v) {
    return v->kind == DL_KIND_LOADER && v->elem &&
           (v->elem->kind == DL_KIND_UNKNOWN || dl_value_any_part(v->elem, dl_value_on_device));
}

bool flow_file_gets_loaders_off_the_cpu(Flow *F) {
    const DlFileFacts *f = F->env->file;
    for (uint32_t k = 0; k < f->function_count; k++) {
        const DlFunctionInfo *fi = f->functions[k];
        if (!fi->fn->owner && fi->ret && dl_value_any_part(fi->ret, loader_off_the_cpu))
            return true;
    }
    for (uint32_t i = 0; i < f->import_count; i++) {
        const DlFunctionInfo *fi =
            dl_project_find_function(F->env->project, f, f->imports[i].qualified);
        if (fi && fi->ret && dl_value_any_part(fi->ret, loader_off_the_cpu)) return true;
    }
    return false;
}

/* `TensorDataset(x.to(device), y.to(device))`: a dataset whose items are slices of tensors
 * already on a device; the batches a DataLoader stacks from them are there too
 * (pytorch_geometric_temporal's examples). Tensors elsewhere: a dataset like any other. */
static const DlValue *tensor_dataset(Flow *F, const DlExpr *call, const DlValue *const *argv) {
    DlValue *d = flow_loader_value(F, call->span);
    if (!call->arg_count) return d;
    const DlValue **items = dl_arena_alloc(F->arena, call->arg_count * sizeof *items);
    const DlValue *elem = NULL;
    bool any_on_a_device = false;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        if (call->args[i].keyword ||
            !(flow_is_tensor(argv[i]) || argv[i]->kind == DL_KIND_UNKNOWN))
            return d;
        any_on_a_device |= dl_value_on_kernel_device(argv[i]);
    }
    if (!any_on_a_device) return d;
    bool placed_parts = false;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        /* a parameter moved (`support_x.cuda(gpuidx)`: MAML's) is a tensor there too; the
         * others give CPU batches, each part where its tensor is (`TensorDataset(data,
         * labels.to(rank))`: Opacus's multi-GPU check moves only `x`) */
        DlValue *t;
        if (dl_value_on_kernel_device(argv[i])) {
            t = dl_value_copy(F->arena, argv[i]);
            t->kind = DL_KIND_TENSOR;
        } else {
            t = dl_value_copy(F->arena, flow_element_of(F, flow_loader_value(F, call->span),
                                                         call->span));
            t->flags &= (uint32_t)~DL_VF_WHOLE_BATCH;
            placed_parts = true;
        }
        items[i] = t;
        elem = elem ? dl_value_join(F->arena, elem, t) : t;
    }
    DlValue *batch = flow_mk(F, DL_KIND_SEQ);
    if (placed_parts) batch->flags |= DL_VF_PLACED_PARTS;
    batch->items = items;
    batch->item_count = call->arg_count;
    batch->elem = elem;
    batch->dev_span = call->span;
    d->elem = batch;
    return d;
}

/* Whether the DataLoader's collate function keeps its items where the dataset put them: none
 * given (the default stacks them), one devlint cannot name (EquiBind's `globals()[name]`), or a
 * project function that only gathers them (`torch.cat(graphs)`, `dgl.batch(graphs)`), not one
 * that makes tensors of its own on the host (`torch.tensor(labels)`, `from_numpy`). */
static bool collate_keeps_the_items_device(const DlExpr *call, const DlValue *const *argv) {
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (!kw || !flow_streq(kw, "collate_fn")) continue;
        const DlValue *v = argv[i];
        if (v->kind == DL_KIND_UNKNOWN) return true;
        if (v->kind != DL_KIND_FUNCTION || !v->cls) return false;
        static const char *const makes_host_tensors[] = {
            "tensor(", "Tensor(", "from_numpy", "zeros", "ones", "full(", "empty(",
            "arange", "default_collate", "numpy", NULL};
        return !dl_project_function_mentions((const DlFunctionInfo *)v->cls, makes_host_tensors);
    }
    return true;
}

/* `len(ds)`, `ds.__len__()`: the name whose length `e` is, or NULL. Also of a few batches, a
 * length cut into at most eight written out (`len(ds) // 4`): a handful of passes an epoch. */
static const char *length_of(const DlExpr *e) {
    if (e && e->kind == DL_EX_BINOP && e->item_count == 2 && flow_streq(e->name, "//") &&
        e->items[1]->kind == DL_EX_NUMBER && e->items[1]->name &&
        strlen(e->items[1]->name) == 1 && e->items[1]->name[0] >= '1' &&
        e->items[1]->name[0] <= '8')
        e = e->items[0];
    if (!e || e->kind != DL_EX_CALL || !e->object) return NULL;
    const DlExpr *of = NULL;
    if (e->object->kind == DL_EX_NAME && flow_streq(e->object->name, "len") && e->arg_count == 1)
        of = e->args[0].value;
    else if (e->object->kind == DL_EX_ATTR && flow_streq(e->object->name, "__len__") &&
             !e->arg_count)
        of = e->object->object;
    return of && of->kind == DL_EX_NAME ? of->name : NULL;
}

/* `ODE_Dataset(..., idx=val_idx)`: a project dataset built from `measured`, which it holds the
 * items of, one each (a dataset of those samples: gru_ode_bayes' validation loaders, then
 * `batch_size=len(val_idx)`). */
static bool project_dataset_built_from(Flow *F, const DlExpr *built, const char *measured) {
    const char *name = flow_qualify(F, built->object);
    if (!name && built->object->kind == DL_EX_NAME) name = built->object->name;
    const DlClassInfo *ci =
        name ? dl_project_find_class(F->env->project, F->env->file, name) : NULL;
    if (!ci || !ci->is_dataset) return false;
    for (uint32_t i = 0; i < built->arg_count; i++) {
        const DlExpr *a = built->args[i].value;
        if (a->kind == DL_EX_NAME && flow_streq(a->name, measured)) return true;
    }
    return false;
}

/* `train_set, valid_set = random_split(ds, [n_train, n_valid])` before `before`, in `b` or a
 * block nested in it: `part` is the split's part sized by the name `size`. */
static bool split_part_sized_by(Flow *F, const DlBlock *b, const char *part, const char *size,
                                uint32_t before, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlExpr *t = s->kind == DL_ST_ASSIGN && s->target_count == 1 ? s->targets[0] : NULL;
        const DlExpr *v = s->value;
        const char *q = t && (t->kind == DL_EX_TUPLE || t->kind == DL_EX_LIST) && v &&
                                v->kind == DL_EX_CALL && v->object
                            ? flow_qualify(F, v->object)
                            : NULL;
        if (q && (flow_streq(q, "torch.utils.data.random_split") ||
                  flow_streq(q, "torch.utils.data.dataset.random_split"))) {
            const DlArg *kw = dl_ir_keyword(v, "lengths");
            const DlExpr *lengths = kw ? kw->value : dl_ir_positional(v, 1);
            for (uint32_t k = 0; lengths &&
                                 (lengths->kind == DL_EX_LIST || lengths->kind == DL_EX_TUPLE) &&
                                 lengths->item_count == t->item_count && k < t->item_count;
                 k++)
                if (t->items[k]->kind == DL_EX_NAME && flow_streq(t->items[k]->name, part) &&
                    lengths->items[k]->kind == DL_EX_NAME &&
                    flow_streq(lengths->items[k]->name, size))
                    return true;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (split_part_sized_by(F, inner, part, size, before, depth + 1)) return true;
    }
    return false;
}

/* `DataLoader(ds, batch_size=len(ds))` (also by position; or `ds.__len__()`, or a name or an
 * attribute of self bound to it: `n = len(ds)`; or the length of a tensor the dataset was
 * built from: `TensorDataset(X, y)`, then `batch_size=len(X)`, or of the indices it picks its
 * rows by, `TensorDataset(X[idx], y[idx])` and `len(idx)`; or of the samples a project
 * dataset was built from: `SubsetDS(idx=v)`, then `batch_size=len(v)`): the whole dataset in
 * one batch, so a loop over the loader runs once (DeepSurv's full-batch training, ben-hawks'
 * test loaders, pFedMe's users' `DataLoader(test_data, self.test_samples)`). */
static bool batch_is_the_whole_dataset(Flow *F, const DlExpr *call, const DlBlock *body) {
    const DlArg *size_arg = dl_ir_keyword(call, "batch_size");
    const DlExpr *size = size_arg ? size_arg->value : dl_ir_positional(call, 1);
    const DlExpr *dataset = call->arg_count && !call->args[0].keyword ? call->args[0].value : NULL;
    if (!dataset && dl_ir_keyword(call, "dataset")) dataset = dl_ir_keyword(call, "dataset")->value;
    if (!size || !dataset || (dataset->kind != DL_EX_NAME && dataset->kind != DL_EX_CALL))
        return false;
    /* `test_loader = DataLoader(test_set, batch_size=test_size)`, `test_set` the part of a
     * `random_split` sized `test_size` (an Alzheimer MRI classifier's test loader) */
    if (size->kind == DL_EX_NAME && dataset->kind == DL_EX_NAME &&
        split_part_sized_by(F, body, dataset->name, size->name, call->span.start, 0))
        return true;
    const DlExpr *n = size;
    if (n->kind == DL_EX_NAME) n = dl_ir_last_assignment(body, n->name, call->span.start);
    /* `self.test_samples = len(test_data)` a line before (pFedMe's users) */
    else if (dl_ir_is_self_attr(n, NULL))
        n = dl_ir_last_assignment(body, dl_arena_join(F->arena, "self", '.', n->name),
                                  call->span.start);
    const char *measured = length_of(n);
    if (!measured) return false;
    if (dataset->kind == DL_EX_NAME && flow_streq(measured, dataset->name)) return true;
    const DlExpr *built = dataset->kind == DL_EX_CALL
                              ? dataset
                              : dl_ir_last_assignment(body, dataset->name, call->span.start);
    if (!built || built->kind != DL_EX_CALL || !built->object) return false;
    const char *q = flow_qualify(F, built->object);
    if (!q || !flow_streq(q, "torch.utils.data.TensorDataset"))
        return project_dataset_built_from(F, built, measured);
    /* a tensor it was built from, or the rows of one picked by it (`TensorDataset(x[idx],
     * y[idx])`, `batch_size=len(idx)`: HiST's solver) */
    for (uint32_t i = 0; i < built->arg_count; i++) {
        const DlExpr *a = built->args[i].value;
        if (built->args[i].keyword) continue;
        if (a->kind == DL_EX_SUBSCRIPT && a->item_count == 1) a = a->items[0];
        if (a->kind == DL_EX_NAME && flow_streq(a->name, measured)) return true;
    }
    return false;
}

/* A value that is surely no tensor: a string, a number, a NumPy array or other host object,
 * or a list not known to hold tensors (a batch's captions, `[i[1] for i in batch_data]`,
 * which the model reads as it reads a list: `.to(device)` is no method of it). */
static bool surely_no_tensor_in(const DlValue *v, int depth) {
    if (!v || depth > 4) return false;
    if (v->kind == DL_KIND_STRING || v->kind == DL_KIND_SCALAR || v->kind == DL_KIND_OTHER)
        return true;
    if (v->kind != DL_KIND_SEQ || (v->flags & DL_VF_HAS_MODULES)) return false;
    /* a tuple written out of such values (PointPillars' `spatial_shape = (h, w)`) */
    if (v->items) {
        for (uint32_t i = 0; i < v->item_count; i++)
            if (!surely_no_tensor_in(v->items[i], depth + 1)) return false;
        return v->item_count > 0;
    }
    return !(v->elem && (flow_is_tensor(v->elem) || flow_is_module_like(v->elem)));
}

static bool surely_no_tensor(const DlValue *v) {
    return surely_no_tensor_in(v, 0);
}

/* `collate_fn=collate` of the project that returns a tuple some items of which are no tensors
 * (`return wavs, captions` with the captions a list of str, audio-text_retrieval's; lengths as
 * a NumPy array): the batch is that tuple, its other items batches on the CPU as before; or a
 * list of such values. NULL where the collate function says nothing of the kind. */
static const DlValue *collated_tuple(Flow *F, const DlValue *loader, const DlFunctionInfo *fi,
                                     DlSpan at) {
    if (!fi || !fi->ret) return NULL;
    const DlValue *ret = flow_rebase(F, fi->ret, fi->module);
    /* `return [item for item in batch]` (OutfitTransformer's items, dataclasses the model
     * makes tensors of itself): the batch is that list */
    if (ret && surely_no_tensor(ret) && ret->kind == DL_KIND_SEQ) return ret;
    if (!ret || ret->kind != DL_KIND_SEQ || !ret->items || ret->item_count < 2) return NULL;
    bool plain = false;
    for (uint32_t i = 0; i < ret->item_count; i++)
        plain = plain || surely_no_tensor(ret->items[i]);
    if (!plain) return NULL;
    DlValue *batch = dl_value_copy(F->arena, flow_element_of(F, loader, at));
    batch->flags &= (uint32_t)~DL_VF_WHOLE_BATCH;
    const DlValue **items = dl_arena_alloc(F->arena, ret->item_count * sizeof *items);
    for (uint32_t i = 0; i < ret->item_count; i++)
        items[i] = surely_no_tensor(ret->items[i]) ? ret->items[i] : batch;
    DlValue *parts = flow_mk(F, DL_KIND_SEQ);
    parts->items = items;
    parts->item_count = ret->item_count;
    return parts;
}

/* Where the items are of every project dataset class `name` is built from in block `b`
 * (`dataset = DatasetA(...)` on one arm of an `if`, `DatasetB(...)` on the other: SuperPoint's
 * export scripts): counts the assignments to `name` seen (`*seen`) and those of a dataset whose
 * `__getitem__` makes its items on a device (`*on_device`). */
static void count_datasets_bound(Flow *F, const DlBlock *b, const char *name, uint32_t *seen,
                                 uint32_t *on_device, int depth) {
    if (depth > 8) return;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME &&
            flow_streq(s->targets[0]->name, name)) {
            (*seen)++;
            const DlExpr *c = s->value;
            const char *q = c && c->kind == DL_EX_CALL ? flow_qualify(F, c->object) : NULL;
            const DlClassInfo *ci =
                c && c->kind == DL_EX_CALL && (q || c->object->kind == DL_EX_NAME)
                    ? dl_project_find_class(F->env->project, F->env->file,
                                            q ? q : c->object->name)
                    : NULL;
            const DlFunctionInfo *item =
                ci && ci->is_dataset ? dl_project_method(F->env->project, ci, "__getitem__") : NULL;
            if (items_on_a_device(item) || items_on_its_own_device(item)) (*on_device)++;
        }
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        count_datasets_bound(F, &s->parts->body, name, seen, on_device, depth + 1);
        count_datasets_bound(F, &s->parts->orelse, name, seen, on_device, depth + 1);
    }
}

/* A dataset of one of several project classes, which the join of the paths forgot
 * (`DatasetA(...)` or `DatasetB(...)`): each one's items on a device, so are the batches. */
static bool every_dataset_bound_makes_items_on_a_device(Flow *F, const DlExpr *e) {
    if (e->kind != DL_EX_NAME) return false;
    const DlBlock *body = F->fn ? &F->fn->body : &F->env->file->module->body;
    uint32_t seen = 0, on_device = 0;
    count_datasets_bound(F, body, e->name, &seen, &on_device, 0);
    return seen > 1 && on_device == seen && flow_bindings_of(body, e->name, 0) == seen;
}

/* A project dataset (`v`, written `e`) whose tensors were placed on a device as a whole: moved
 * by its class's own `to()` or built from tensors on a device (DL_VF_MOVED), or its tensors
 * moved onto it since (`ds.feature = ds.feature.to(device)`: BatLiNet's notebooks). */
static bool dataset_placed(Flow *F, const DlExpr *e, const DlValue *v) {
    if ((v->flags & DL_VF_MOVED) || (v->dev && v->dev != DL_DEV_CPU)) return true;
    const char *key = flow_key_of(F, e);
    size_t n = key ? strlen(key) : 0;
    for (uint32_t i = 0; n && i < F->st->count; i++) {
        const char *k = F->st->items[i].key;
        const DlValue *held = F->st->items[i].value;
        if (strncmp(k, key, n) == 0 && k[n] == '.' && !strchr(k + n + 1, '.') && held &&
            (flow_is_tensor(held) || held->kind == DL_KIND_UNKNOWN) && dl_value_on_device(held))
            return true;
    }
    return false;
}

/* A list (or tuple) whose elements, or the tensors in them, are on a device. */
static bool holds_device_tensors(const DlValue *v, int depth) {
    if (!v || depth > 3) return false;
    if (flow_is_tensor(v)) return dl_value_on_device(v);
    if (v->kind != DL_KIND_SEQ) return false;
    if (holds_device_tensors(v->elem, depth + 1)) return true;
    for (uint32_t i = 0; i < v->item_count; i++)
        if (holds_device_tensors(v->items[i], depth + 1)) return true;
    return false;
}

bool flow_builds_a_one_batch_loader(Flow *F, const DlExpr *call, const DlBlock *body) {
    if (!call || call->kind != DL_EX_CALL || !call->object) return false;
    const char *q = flow_qualify(F, call->object);
    return q && dl_torch_is_dataloader(q) && batch_is_the_whole_dataset(F, call, body);
}

const DlValue *flow_eval_dataloader(Flow *F, const DlExpr *call, const DlValue *const *argv) {
    DlValue *l = flow_loader_value(F, call->span);
    l->flags |= flow_loader_pin_flags(call, argv);
    if (batch_is_the_whole_dataset(F, call, F->fn ? &F->fn->body : &F->env->file->module->body))
        l->flags |= DL_VF_ONE_BATCH;
    /* a TensorDataset of tensors on a device gives batches there (tensor_dataset) */
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        bool dataset = kw ? flow_streq(kw, "dataset") : i == 0;
        if (dataset && argv[i]->kind == DL_KIND_LOADER && !argv[i]->cls && argv[i]->elem)
            l->elem = argv[i]->elem;
        /* `DataLoader(dataset.to(device))` of a dataset handed in, placed by its class's own
         * `to()` (or a tensor moved there): its batches are not known to be on the CPU */
        if (dataset && argv[i]->kind == DL_KIND_UNKNOWN && dl_value_on_device(argv[i]))
            l->elem = flow_unknown();
        if (dataset && !argv[i]->cls &&
            (argv[i]->kind == DL_KIND_LOADER || argv[i]->kind == DL_KIND_INSTANCE ||
             argv[i]->kind == DL_KIND_UNKNOWN) &&
            collate_keeps_the_items_device(call, argv) &&
            every_dataset_bound_makes_items_on_a_device(F, call->args[i].value))
            l->elem = flow_unknown();
        /* `DataLoader(train_triplets, batch_size)` over a tensor not known on the CPU (HeaRT's
         * NBFNet scripts, of graph tensors moved by the caller): the default collate stacks
         * its rows where it is, so a batch is no CPU tensor to move */
        if (dataset && flow_is_tensor(argv[i]) && argv[i]->dev != DL_DEV_CPU &&
            collate_keeps_the_items_device(call, argv)) {
            DlValue *rows = dl_value_copy(F->arena, argv[i]);
            rows->var = NULL;
            rows->flags &= (uint32_t)~(DL_VF_ONE_DIM | DL_VF_ZERO_DIM);
            l->elem = rows;
        }
        /* `DataLoader(rows, batch_size)` over a list of `[x[i], y[i]]` rows cut from tensors on
         * a device (DT-EEG's notebooks): the default collate stacks them where they are */
        if (dataset && argv[i]->kind == DL_KIND_SEQ && holds_device_tensors(argv[i], 0) &&
            collate_keeps_the_items_device(call, argv))
            l->elem = flow_unknown();
        /* a project dataset whose items are on a device already (`return seq.cuda()` in
         * __getitem__, lucidrains' enwik8 scripts): the default collate stacks them there,
         * and a collate function that only gathers them keeps them there */
        if (dataset && argv[i]->cls &&
            (argv[i]->kind == DL_KIND_LOADER || argv[i]->kind == DL_KIND_INSTANCE) &&
            collate_keeps_the_items_device(call, argv)) {
            const DlFunctionInfo *item =
                dl_project_method(F->env->project, argv[i]->cls, "__getitem__");
            if (items_on_a_device(item)) l->elem = flow_rebase(F, item->ret, item->module);
            else if (items_on_its_own_device(item)) l->elem = flow_unknown();
            else if (item && dataset_placed(F, call->args[i].value, argv[i]))
                l->elem = flow_unknown(); /* its items are where its tensors were put */
            else if (item && item->ret && text_fields_of(F, item->ret)) {
                l->items = text_fields_of(F, item->ret);
                l->item_count = item->ret->item_count;
            }
        }
    }
    /* its batches are what the collate function returns, when that puts them on a device */
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        const DlValue *v = argv[i];
        const DlFunctionInfo *fi =
            v->kind == DL_KIND_FUNCTION ? (const DlFunctionInfo *)v->cls : NULL;
        const DlExpr *given = call->args[i].value;
        if (!fi && kw && flow_streq(kw, "collate_fn") &&
            (given->kind == DL_EX_LAMBDA || given->kind == DL_EX_CALL))
            fi = collate_function_given(F, given);
        /* `collate_fn=test_dataset.collate_fn`: a method of a project dataset (LEBERT-NER's,
         * which ends `torch.tensor(...).to(self.device)`) */
        if (!fi && kw && flow_streq(kw, "collate_fn") && given->kind == DL_EX_ATTR &&
            given->name && given->object &&
            (given->object->kind == DL_EX_NAME || given->object->kind == DL_EX_ATTR)) {
            const DlValue *owner = flow_eval(F, given->object);
            if (owner->cls && (owner->kind == DL_KIND_INSTANCE || owner->kind == DL_KIND_LOADER))
                fi = dl_project_method(F->env->project, owner->cls, given->name);
        }
        /* `collate_fn=CollateFn(device)`: an instance of a project class, called through its
         * `__call__` (diffpool's, which moves the batch to `self.device`) */
        bool instance = !fi && kw && flow_streq(kw, "collate_fn") &&
                        v->kind == DL_KIND_INSTANCE && v->cls;
        if (instance) fi = dl_project_method(F->env->project, v->cls, "__call__");
        bool own_device = instance && collates_onto_a_device(fi) && items_on_its_own_device(fi);
        if (kw && flow_streq(kw, "collate_fn") && own_device) {
            l->elem = flow_unknown(); /* the device the instance holds: not known here */
        } else if (kw && flow_streq(kw, "collate_fn") && collates_onto_a_device(fi)) {
            l->elem = flow_rebase(F, fi->ret, fi->module);
        } else if (kw && flow_streq(kw, "collate_fn") && !l->elem) {
            const DlValue *parts = collated_tuple(F, l, fi, call->span);
            if (parts) l->elem = parts;
        }
    }
    if (F->env->recorder && flow_uses_workers(F, call)) {
        /* note, project-wide, what the workers run (DL113). Leaves (driver/sharing.h) are
         * summarised in parallel and may mark the same shared class: the stores are atomic, and
         * the marks are read only once every file is summarised. */
        for (uint32_t i = 0; i < call->arg_count; i++) {
            const char *kw = call->args[i].keyword;
            const DlValue *v = argv[i];
            if ((!kw && i == 0) || (kw && flow_streq(kw, "dataset"))) {
                if (v->cls && (v->kind == DL_KIND_LOADER || v->kind == DL_KIND_INSTANCE))
                    mark((DlClassInfo *)v->cls, NULL);
            } else if (kw && flow_streq(kw, "collate_fn") && v->kind == DL_KIND_FUNCTION &&
                       v->cls) {
                mark(NULL, (DlFunctionInfo *)v->cls);
            } else if (kw && flow_streq(kw, "collate_fn") && v->kind == DL_KIND_INSTANCE &&
                       v->cls) {
                mark((DlClassInfo *)v->cls, NULL); /* its __call__ */
            }
        }
    }
    return l;
}

DlValue *flow_data_parallel(Flow *F, const DlExpr *call, const DlValue *const *argv) {
    const DlValue *inner = flow_unknown();
    for (uint32_t i = 0; argv && i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (i == 0 ? !kw || flow_streq(kw, "module") : kw && flow_streq(kw, "module")) {
            inner = argv[i];
            break;
        }
    }
    DlValue *w = flow_is_module_like(inner) ? dl_value_copy(F->arena, inner)
                                            : flow_mk(F, DL_KIND_MODULE);
    w->flags |= DL_VF_SCATTERS;
    w->flags &= (uint32_t)~DL_VF_CONSTRUCTED;
    w->var = NULL;
    return w;
}

/* A normalization layer built without state: no parameter and no buffer, nothing to move.
 * `nn.InstanceNorm2d(64)` with its defaults (affine=False, track_running_stats=False:
 * Deep-Exemplar's discriminator builds them inline in forward); `nn.LayerNorm(shape,
 * elementwise_affine=False)` (COSMIC's commonsense model, in forward), `nn.GroupNorm(g, c,
 * affine=False)`, `nn.BatchNorm1d(n, affine=False, track_running_stats=False)`. A flag that
 * keeps state left at its default, set to anything but False, or written by position (past
 * `max_positional`) may keep some. */
static bool stateless_norm(const char *q, const DlExpr *call) {
    static const struct {
        const char *name;
        const char *state[2];      /* keywords that must be False (NULL: none) */
        bool stateless_by_default; /* the state keywords default to False */
        unsigned max_positional;
    } norms[] = {
        {"torch.nn.InstanceNorm1d", {"affine", "track_running_stats"}, true, 3},
        {"torch.nn.InstanceNorm2d", {"affine", "track_running_stats"}, true, 3},
        {"torch.nn.InstanceNorm3d", {"affine", "track_running_stats"}, true, 3},
        {"torch.nn.LayerNorm", {"elementwise_affine", NULL}, false, 2},
        {"torch.nn.RMSNorm", {"elementwise_affine", NULL}, false, 2},
        {"torch.nn.GroupNorm", {"affine", NULL}, false, 3},
        {"torch.nn.BatchNorm1d", {"affine", "track_running_stats"}, false, 3},
        {"torch.nn.BatchNorm2d", {"affine", "track_running_stats"}, false, 3},
        {"torch.nn.BatchNorm3d", {"affine", "track_running_stats"}, false, 3},
    };
    if (strncmp(q, "torch.nn.", 9) != 0 || !strstr(q, "Norm")) return false;
    for (size_t n = 0; n < sizeof norms / sizeof norms[0]; n++) {
        if (!flow_streq(q, norms[n].name)) continue;
        unsigned positional = 0, off = 0;
        for (uint32_t i = 0; i < call->arg_count; i++) {
            const char *kw = call->args[i].keyword;
            if (!kw) {
                positional++;
                continue;
            }
            if (kw[0] == '*') return false;
            const DlExpr *v = call->args[i].value;
            bool is_false = v->kind == DL_EX_CONST && flow_streq(v->name, "False");
            for (int k = 0; k < 2 && norms[n].state[k]; k++) {
                if (!flow_streq(kw, norms[n].state[k])) continue;
                if (!is_false) return false;
                off++;
            }
        }
        unsigned needed = norms[n].state[1] ? 2 : 1;
        return positional <= norms[n].max_positional &&
               (norms[n].stateless_by_default || off == needed);
    }
    return false;
}

const DlValue *flow_graph_container(Flow *F) {
    DlValue *g = flow_mk(F, DL_KIND_INSTANCE);
    g->flags |= DL_VF_OWN_TO;
    return g;
}

/* sklearn's `train_test_split(X, y, test_size=0.2)` of tensors: `X_train, X_test, y_train,
 * y_test`, each part indexed out of its array and so on its device (Wind-Power-Prediction
 * splits tensors it moved with `.cuda()`, then batches them with a TensorDataset). Of anything
 * but tensors, unknown. */
static const DlValue *split_tensors(Flow *F, const DlExpr *call, const DlValue *const *argv) {
    uint32_t n = 0;
    while (n < call->arg_count && !call->args[n].keyword) n++;
    if (!n || n > 16) return flow_unknown();
    for (uint32_t i = 0; i < n; i++)
        if (!flow_is_tensor(argv[i])) return flow_unknown();
    DlValue *parts = flow_mk(F, DL_KIND_SEQ);
    const DlValue **items = dl_arena_alloc(F->arena, 2 * n * sizeof *items);
    for (uint32_t i = 0; i < 2 * n; i++) items[i] = argv[i / 2];
    parts->items = items;
    parts->item_count = 2 * n;
    return parts;
}

const DlValue *flow_eval_library_call(Flow *F, const DlExpr *call, const char *q,
                                      const DlValue *const *argv) {
    DlFactoryKind fk = dl_torch_factory(q);
    if (fk) return flow_eval_factory(F, call, fk, argv);
    /* `torch.cuda.LongTensor(rows)`: made on the current GPU (SG-Deep-Question-Generation's
     * batches) */
    if (dl_torch_is_cuda_legacy_constructor(q))
        return flow_mk_tensor(F, DL_DEV_CUDA, "cuda", DL_ORIGIN_NONE, call->span);
    if (flow_streq(q, "torch.device")) {
        /* `torch.device("cuda:0")`, or of a name holding the string (`device_type = "cpu";
         * torch.device(device_type)`) */
        const DlExpr *a = dl_ir_positional(call, 0);
        const char *text = a && a->kind == DL_EX_STRING ? a->name : NULL;
        if (!text && a && argv[0] && argv[0]->kind == DL_KIND_STRING && !argv[0]->home)
            text = argv[0]->literal;
        if (text && flow_device_of_string(text) && !dl_ir_positional(call, 1)) {
            DlValue *d = flow_mk(F, DL_KIND_DEVICE);
            d->dev = flow_device_of_string(text);
            d->dev_name = text;
            d->dev_span = call->span;
            d->dev_why = flow_short_text(F, call->span);
            return d;
        }
        /* `torch.device(device)` of a device already held (a parameter `device`, which a
         * caller's "cpu" binds): that same device, not a new name the caller cannot bind */
        if (a && argv[0] && argv[0]->kind == DL_KIND_DEVICE && argv[0]->dev &&
            !dl_ir_positional(call, 1) && call->arg_count == 1)
            return argv[0];
        return flow_named_device(F, NULL, call->span);
    }
    if (dl_torch_is_dtype(q)) return flow_mk(F, DL_KIND_DTYPE);
    if (dl_torch_is_loss_class(q)) return flow_eval_loss_ctor(F, call, argv);
    if (dl_torch_is_parameter(q)) {
        const DlValue *t = call->arg_count ? tensor_if_moved(F, argv[0], true) : flow_unknown();
        DlValue *p = flow_is_tensor(t) ? dl_value_copy(F->arena, t) : flow_mk(F, DL_KIND_TENSOR);
        p->flags |= DL_VF_REGISTERED;
        p->origin = DL_ORIGIN_NONE;
        return p;
    }
    if (dl_torch_is_variable(q)) {
        /* old PyTorch's `Variable(x)`: x itself, a tensor (since 0.4 the two are one) */
        const DlValue *t = call->arg_count ? tensor_if_moved(F, argv[0], true) : flow_unknown();
        return flow_is_tensor(t) ? t : flow_mk(F, DL_KIND_TENSOR);
    }
    if (dl_torch_is_data_parallel(q)) return flow_data_parallel(F, call, argv);
    if (dl_torch_is_module_class(q)) {
        DlValue *m = flow_mk(F, DL_KIND_MODULE);
        const DlValue *dev =
            flow_device_keyword(F, call, argv); /* nn.Linear(2, 1, device="cuda") */
        if (!dev) dev = positional_device(F, call, argv); /* nn.Linear(k, n, False, device) */
        bool stateless = dl_torch_is_stateless_module(q) || stateless_norm(q, call);
        /* a layer with nothing to place (`nn.AvgPool2d(2)`) is where it was built whatever the
         * default device another file sets (flash-fft-conv's benchmark script) */
        m->dev =
            dev ? dev->dev
            : stateless && default_set_elsewhere(F) && !F->env->file->module->sets_default_device
                ? DL_DEV_CPU
                : flow_construction_device(F);
        m->dev_name = dev ? dev->dev_name : NULL;
        if (!dev && !stateless) m->flags |= DL_VF_CONSTRUCTED;
        if (stateless) m->flags |= DL_VF_STATELESS;
        m->dev_span = call->span;
        m->dev_why = flow_short_text(F, call->span);
        if (!dev && dl_torch_is_module_container(q)) flow_contents_decide(F, m, call, argv);
        return m;
    }
    if (dl_torch_is_dataloader(q)) return flow_eval_dataloader(F, call, argv);
    if (flow_streq(q, "torch.utils.data.TensorDataset") ||
        flow_streq(q, "torch.utils.data.dataset.TensorDataset"))
        return tensor_dataset(F, call, argv);
    /* `random_split(ds, [6, 2])`, `Subset(ds, idx)` of a dataset devlint knows (a TensorDataset
     * of tensors on a device, qqpann's knowledge-tracing notebook; an instance of a project
     * dataset, Food-recipe-transformers' `random_split(DS(device), ...)`): parts of it, whose
     * items are where its items are */
    bool split = flow_streq(q, "torch.utils.data.random_split") ||
                 flow_streq(q, "torch.utils.data.dataset.random_split");
    const DlClassInfo *project_dataset =
        call->arg_count &&
                (argv[0]->kind == DL_KIND_INSTANCE || argv[0]->kind == DL_KIND_LOADER)
            ? argv[0]->cls
            : NULL;
    bool known = call->arg_count && !call->args[0].keyword &&
                 ((argv[0]->kind == DL_KIND_LOADER && argv[0]->elem) ||
                  (project_dataset && project_dataset->is_dataset));
    if ((split || flow_streq(q, "torch.utils.data.Subset") ||
         flow_streq(q, "torch.utils.data.dataset.Subset")) &&
        known) {
        if (!split) return argv[0];
        DlValue *parts = flow_mk(F, DL_KIND_SEQ);
        parts->elem = argv[0];
        return parts;
    }
    if (flow_streq(q, "sklearn.model_selection.train_test_split")) return split_tensors(F, call, argv);
    if (dl_torch_is_optimizer(q)) return flow_mk(F, DL_KIND_OPTIMIZER);
    if (flow_is_lr_scheduler_class(q)) { /* its `step` queues nothing */
        DlValue *scheduler = flow_mk(F, DL_KIND_OTHER);
        /* one name for every scheduler, which joins keep (`ReduceLROnPlateau(...)` if the
         * options say plateau, else `StepLR(...)`: pytorch-speech-commands) */
        scheduler->literal = "torch.optim.lr_scheduler.LRScheduler";
        return scheduler;
    }
    if (flow_streq(q, "tqdm.tqdm") || flow_streq(q, "tqdm.auto.tqdm") || flow_streq(q, "tqdm") ||
        flow_streq(q, "tqdm.notebook.tqdm"))
        return call->arg_count && !call->args[0].keyword ? argv[0] : flow_unknown();
    if (dl_torch_is_combining_op(q)) {
        OperandList ops = {0};
        unsigned position = 0;
        for (uint32_t i = 0; i < call->arg_count; i++) {
            const char *kw = call->args[i].keyword;
            if (kw && kw[0] == '*') continue;
            bool meets = !dl_torch_argument_meets_no_device(q, position, kw);
            if (!kw) position++;
            if (meets)
                flow_add_operand_deep(F, &ops, call->args[i].value, flow_as_operand(F, argv[i]));
        }
        uint32_t tensors = 0;
        for (uint32_t i = 0; i < ops.count; i++)
            tensors += flow_is_tensor(ops.items[i].value);
        if (!tensors) return flow_mk(F, DL_KIND_TENSOR); /* a tensor, on a device not known */
        if (ops.count > 1) flow_meet(F, call, ops.items, ops.count, -1);
        DlValue *r = flow_combine(F, call, ops.items, ops.count);
        const char *m = strrchr(q, '.') + 1;
        if (strstr(q, "functional") && strstr(m, "loss")) r->flags |= DL_VF_ZERO_DIM;
        if (flow_streq(m, "cross_entropy") || flow_streq(m, "nll_loss") ||
            flow_streq(m, "mse_loss") || flow_streq(m, "l1_loss") ||
            flow_streq(m, "binary_cross_entropy") ||
            flow_streq(m, "binary_cross_entropy_with_logits"))
            r->flags |= DL_VF_ZERO_DIM;
        /* `torch.max(t)`, `torch.sum(t)`, `torch.linalg.norm(t)`: a whole-tensor reduction, as
         * `t.max()` is, is 0-dim */
        bool linalg_norm = flow_streq(q, "torch.linalg.norm") ||
                           flow_streq(q, "torch.linalg.vector_norm");
        bool torch_level = m == q + 6 && strncmp(q, "torch.", 6) == 0;
        if (((call->arg_count == 1 && !call->args[0].keyword) ||
             flow_whole_norm(call, linalg_norm || (torch_level && flow_streq(m, "norm")), 2)) &&
            (torch_level || linalg_norm) && dl_tensor_method_reduces(linalg_norm ? "norm" : m)) {
            r->flags |= DL_VF_ZERO_DIM;
            r->flags &= (uint32_t)~DL_VF_ONE_DIM;
        }
        return r;
    }
    return flow_unknown();
}
