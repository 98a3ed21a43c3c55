/* The parameters a function reads only on the host: lengths handed to pack_padded_sequence,
 * offsets read with `.tolist()`, a count read with `int(...)`. A module's caller may pass them
 * on the CPU while its other inputs are on a device, which is how PyTorch wants them
 * (`pack_padded_sequence` needs its lengths on the CPU): at the call they meet nothing.
 *
 * Read from the function's own model, by where each use of a parameter's name sits; a name
 * that flows anywhere else (an assignment, a return, an operand) is a device use. */
#include <stdio.h>

#include "dataflow/flow_internal.h"

typedef struct HostUse {
    const DlProject *project; /* to find a method a base class defines (NULL: the class's own) */
    Flow *site; /* the flow of the file whose call is asked about, or NULL: its constructions
                   tell a submodule handed to `__init__` (flow_module_class_built_into) */
    const DlFunction *fn;
    uint64_t device_used; /* bit i: parameter i is used where a device may meet it */
    uint64_t rebound;     /* bit i: parameter i was assigned anew earlier in the block walked
                             or one around it (`n = n.to("cpu")`): the uses after it in that
                             block are of that value */
    int nesting;          /* methods of the class followed so far (`self.align(offsets)`) */
    /* `y = waves[i][:n]`: a local bound to an element of a parameter, whose uses are the
     * parameter's (the last binding of a name wins; a few are enough) */
    struct {
        const char *name;
        int param;
    } aliases[8];
    uint32_t alias_count;
} HostUse;

static uint64_t host_only_params(const DlProject *project, Flow *site, const DlFunction *fn,
                                 int nesting);

/* `self.helper(...)`: the class's own method, or one a base class of the project defines
 * (MalConv's `seq2fix`, inherited from LowMemConvBase, moves the chunks it is given), or the
 * forward of a submodule of a project class (`self.gnn(doc_sents_h, doc_len, adj)`, whose
 * forward reads `doc_len` only with `max(...)`: Rank-Emotion-Cause), whose parameters are
 * looked at in turn. */
/* `for layer in self.layers:` in `b` (or a block in it) binding `name`: what it loops over, or
 * NULL. */
static const DlExpr *looped_self_attribute(const DlBlock *b, const char *name, int depth) {
    for (uint32_t i = 0; depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_FOR && s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME &&
            strcmp(s->targets[0]->name, name) == 0 && dl_ir_is_self_attr(s->value, NULL))
            return s->value;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) {
            const DlExpr *found = looped_self_attribute(inner, name, depth + 1);
            if (found) return found;
        }
    }
    return NULL;
}

/* The project class of the layers `__init__` puts in `self.<attr>`: `nn.ModuleList([Layer(d)
 * for _ in range(n)])`, `nn.ModuleList([Layer(d), Layer(d)])`; NULL when it is not one class. */
static const DlClassInfo *layer_class(const HostUse *u, const char *attr) {
    const DlFunction *init = dl_ir_method_named(u->fn->owner, "__init__");
    const DlFunctionInfo *home = u->project ? dl_project_function_of(u->project, u->fn) : NULL;
    const DlFileFacts *file = home ? dl_project_file(u->project, home->module) : NULL;
    if (!init || !file) return NULL;
    char key[128];
    if (snprintf(key, sizeof key, "self.%s", attr) >= (int)sizeof key) return NULL;
    const DlExpr *built = dl_ir_last_assignment(&init->body, key, UINT32_MAX);
    if (!built || built->kind != DL_EX_CALL || built->arg_count != 1 || built->args[0].keyword ||
        !built->object || !built->object->name || strcmp(built->object->name, "ModuleList") != 0)
        return NULL;
    const DlExpr *layers = built->args[0].value;
    const DlExpr *one = NULL;
    if (layers->kind == DL_EX_COMP) one = layers->object;
    for (uint32_t i = 0; layers->kind == DL_EX_LIST && i < layers->item_count; i++) {
        const DlExpr *item = layers->items[i];
        if (one && (item->kind != DL_EX_CALL || !item->object || !one->object ||
                    item->object->kind != DL_EX_NAME || one->object->kind != DL_EX_NAME ||
                    strcmp(item->object->name, one->object->name) != 0))
            return NULL;
        one = item;
    }
    if (!one || one->kind != DL_EX_CALL || !one->object || one->object->kind != DL_EX_NAME)
        return NULL;
    return dl_project_find_class(u->project, file, one->object->name);
}

static const DlFunction *own_method(const HostUse *u, const DlExpr *callee) {
    /* `self.encoder.forward(emb, lengths)` runs the submodule as `self.encoder(...)` does
     * (MWPToolkit's models) */
    if (callee && callee->kind == DL_EX_ATTR && callee->name &&
        strcmp(callee->name, "forward") == 0 && dl_ir_is_self_attr(callee->object, NULL))
        callee = callee->object;
    /* `for layer in self.layers: x = layer(x, mask)`, a ModuleList of one project module
     * (SepsisEarlyPrediction's encoder layers): each layer's forward */
    const DlExpr *looped = callee && callee->kind == DL_EX_NAME && u->fn->owner
                               ? looped_self_attribute(&u->fn->body, callee->name, 0)
                               : NULL;
    if (looped && u->nesting < 3) {
        const DlClassInfo *sub = layer_class(u, looped->name);
        const DlFunctionInfo *forward =
            sub && sub->is_module ? dl_project_method(u->project, sub, "forward") : NULL;
        return forward ? forward->fn : NULL;
    }
    if (!dl_ir_is_self_attr(callee, NULL) || !u->fn->owner || u->nesting >= 3) return NULL;
    const DlClass *cls = u->fn->owner;
    const DlFunction *own = dl_ir_method_named(cls, callee->name);
    if (own) return own;
    const DlClassInfo *info = u->project ? dl_project_class_of(u->project, cls) : NULL;
    const DlFunctionInfo *inherited =
        info ? dl_project_method(u->project, info, callee->name) : NULL;
    if (inherited) return inherited->fn;
    const DlAttr *held = info && info->attrs_done ? dl_project_attr(info, callee->name) : NULL;
    const DlClassInfo *sub = held && held->value ? held->value->cls : NULL;
    const DlFunctionInfo *forward = sub && sub->is_module && flow_is_module_like(held->value)
                                        ? dl_project_method(u->project, sub, "forward")
                                        : NULL;
    /* `self.encoder = encoder`, handed in: the class this file builds it from (`enc =
     * Encoder(...)`, `Seq2Seq(enc, dec)`: IndicNLP-Transliteration's runners) */
    if (!forward && !sub && held && u->site) {
        sub = flow_module_class_built_into(u->site, info, callee->name);
        forward = sub ? dl_project_method(u->project, sub, "forward") : NULL;
    }
    return forward ? forward->fn : NULL;
}

static void walk(HostUse *u, const DlExpr *e, bool host, int depth);

/* `self.gru_obs(h, p, x, m, i_obs)` where `__init__` builds `self.gru_obs` as one project module
 * or another (`if logvar: self.gru_obs = CellLogvar(...) else: self.gru_obs = Cell(...)`,
 * gru_ode_bayes): the parameters every one of their forwards reads only on the host (as bits,
 * after `self`), or 0 when a kind is not known. */
static uint64_t host_params_of_alternatives(const HostUse *u, const DlExpr *callee);

static const char *last_name(const DlExpr *callee) {
    if (!callee) return NULL;
    if (callee->kind == DL_EX_NAME || callee->kind == DL_EX_ATTR) return callee->name;
    return NULL;
}

/* `torch.from_numpy(y)`: its argument is a numpy array, host data that is no tensor at all
 * (StyleTTS2's SLM adversary gets a list of numpy waves from its collate function). */
static bool reads_arguments_on_host(const char *name) {
    /* a tokenizer's, which takes strings (`token.batch_encode_plus(batch_text_or_text_pairs=text,
     * ...)`: MVK's text encoder tokenizes the batch's tweets, then moves the ids itself) */
    static const char *const names[] = {"from_numpy", "batch_encode_plus", "encode_plus",
                                        "batch_encode", "tokenize", NULL};
    /* or a tokenizer called itself (`self.tokenizer(texts, padding=True,
     * return_tensors='pt')`: a hateful-memes model tokenizing its batch's captions) */
    return name && (dl_name_in_list(name, names) || strcmp(name, "tokenizer") == 0 ||
                    strcmp(name, "tokenize_fn") == 0);
}

/* `t.tolist()`, `t.cpu()`, `t.to(x.device)`, `t.type_as(x)`: the receiver is read on the
 * host, or moved by the function itself; `t.size(1)`, `t.dim()`: its metadata, which meets no
 * device. */
static bool reads_receiver_on_host(const char *method) {
    /* `root_id[1].append(n)`: a list's methods, which no tensor has (MHGAT's lists of node
     * indices, handed to forward) */
    static const char *const methods[] = {"tolist", "item",   "cpu",    "numpy", "to",
                                          "cuda",   "type_as", "size",  "append", "extend",
                                          "insert", NULL};
    return method && (dl_name_in_list(method, methods) || flow_is_count_method(method));
}

/* `t.shape[1]`, `t.ndim`, `t.dtype`, `t.device`: metadata, which meets no device. */
static bool metadata_attribute(const char *name) {
    static const char *const attributes[] = {"shape", "ndim", "dtype", "device", NULL};
    return name && dl_name_in_list(name, attributes);
}

/* `np.array(edge_ind[j])`, `np.asarray(x)`, `np.unique(labels)`: numpy converts its argument
 * to an array on the host (a CUDA tensor there fails), so a forward input given to it is host
 * data (DialogueGCN's lists of edge pairs, a proxy loss's class labels). Not `np.mean(t)` and
 * the like, which hand a tensor to its own method; `np.argsort(-lengths)` tries `t.argsort` with
 * NumPy's keywords, which a tensor's refuses, and converts it (touchdown's SDR encoder). */
static bool numpy_reads_arguments(const DlExpr *callee) {
    static const char *const readers[] = {
        "array",     "asarray",     "asanyarray", "unique",    "where",  "isin",
        "in1d",      "concatenate", "stack",      "vstack",    "hstack", "bincount",
        "setdiff1d", "intersect1d", "union1d",    "histogram", "argsort", "sort",
        NULL};
    return callee && callee->kind == DL_EX_ATTR && dl_name_in_list(callee->name, readers) &&
           callee->object && callee->object->kind == DL_EX_NAME &&
           (strcmp(callee->object->name, "np") == 0 || strcmp(callee->object->name, "numpy") == 0);
}

/* `len(t)`, `int(t)`, `range(t)`, `max(t)`: Python reads the tensor's values. */
static bool builtin_reads_on_host(const char *name) {
    static const char *const builtins[] = {"len",   "int", "float", "bool",   "list", "tuple",
                                           "range", "max", "min",   "sorted", "str",  "print",
                                           NULL};
    return name && dl_name_in_list(name, builtins);
}

static bool to_casts_only(const DlExpr *call);

/* `t.squeeze().tolist()`: what is reshaped or cast, then copied to the host, is read there
 * (BERT-Relation-Extraction's loss: `enumerate(blank_labels.squeeze().tolist())`); so is what is
 * then moved by the function itself (`data['adj'].float().cuda()`: InfoGraph's discriminator),
 * but not by a `.to()` that only casts (`labels.view(-1).to(torch.long)`). `call` is the copy's
 * or the move's. */
static const DlExpr *reshaped_for_a_copy(HostUse *u, const DlExpr *call, const char *copy,
                                         const DlExpr *recv, int depth) {
    static const char *const copies[] = {"tolist", "item", "cpu", "numpy", "cuda", "type_as", NULL};
    if (copy && strcmp(copy, "to") == 0 && !to_casts_only(call)) copy = "cuda";
    static const char *const reshapes[] = {
        "squeeze", "unsqueeze", "view",  "reshape", "flatten", "detach",    "contiguous",
        "clone",   "float",     "long",  "int",     "bool",    "expand",    "repeat",
        "permute", "transpose", "t",     "type",    "double",  "half",      NULL};
    if (!copy || !dl_name_in_list(copy, copies)) return recv;
    static const char *const gatherers[] = {"cat", "concat", "stack", "pad_sequence", NULL};
    for (;;) {
        if (recv && recv->kind == DL_EX_CALL && recv->object && recv->object->kind == DL_EX_ATTR &&
            dl_name_in_list(recv->object->name, reshapes)) {
            for (uint32_t i = 0; i < recv->arg_count; i++)
                walk(u, recv->args[i].value, false, depth + 1);
            recv = recv->object->object;
        } else if (recv && recv->kind == DL_EX_CALL && recv->object && recv->arg_count &&
                   !recv->args[0].keyword && last_name(recv->object) &&
                   dl_name_in_list(last_name(recv->object), gatherers)) {
            /* `pad_sequence(Xs_f).to(self.device)`, `torch.cat((a, b)).cuda()`: the tensors
             * gathered into the one moved (antibody_task's LSTM, RTFM's loss) */
            for (uint32_t i = 1; i < recv->arg_count; i++)
                walk(u, recv->args[i].value, false, depth + 1);
            recv = recv->args[0].value;
        } else if (recv && recv->kind == DL_EX_CALL && recv->object &&
                   recv->object->kind == DL_EX_NAME &&
                   strcmp(recv->object->name, "Variable") == 0 && recv->arg_count &&
                   !recv->args[0].keyword) {
            /* `Variable(data['adj'].float(), requires_grad=False).cuda()`: old PyTorch's wrapper
             * around the tensor moved (InfoGraph's discriminator) */
            for (uint32_t i = 1; i < recv->arg_count; i++)
                walk(u, recv->args[i].value, false, depth + 1);
            recv = recv->args[0].value;
        } else {
            return recv;
        }
    }
}

/* `enumerate(x)`, `zip(a, b)`: iterating the call iterates its arguments, so where the call
 * is iterated on the host (`for i, j in enumerate(edge_ind):`), they are. */
static bool iterates_its_arguments(const char *name) {
    static const char *const builtins[] = {"enumerate", "zip", "reversed", "iter", NULL};
    return name && dl_name_in_list(name, builtins);
}

/* `torch.zeros_like(length, device=q.device)`: a factory given its device reads only the shape
 * and dtype of its first argument, wherever that is (VSFA's per-video scores). */
static bool reads_only_the_shape_of_its_first(const DlExpr *e, const char *name) {
    static const char *const likes[] = {"zeros_like", "ones_like",  "empty_like",   "full_like",
                                        "rand_like",  "randn_like", "randint_like", NULL};
    return name && dl_name_in_list(name, likes) && dl_ir_keyword(e, "device");
}

/* The facts of the file the function walked is in (its imports, its classes), or NULL. */
static const DlFileFacts *home_file(const HostUse *u) {
    const DlFunctionInfo *fi = u->project ? dl_project_function_of(u->project, u->fn) : NULL;
    return fi ? dl_project_file(u->project, fi->module) : NULL;
}

/* `pack_padded_sequence(x, lengths)`, also imported under another name (`from
 * torch.nn.utils.rnn import pack_padded_sequence as pack`: TabularSemanticParsing's LSTM). */
static bool packs_sequences(const HostUse *u, const DlExpr *callee, const char *name) {
    static const char packer[] = "pack_padded_sequence";
    if (!name) return false;
    if (strcmp(name, packer) == 0) return true;
    if (!callee || callee->kind != DL_EX_NAME) return false;
    const DlFileFacts *file = home_file(u);
    const char *q = file ? dl_project_import(file, name) : NULL;
    size_t n = q ? strlen(q) : 0;
    return n > sizeof packer && strcmp(q + n - (sizeof packer - 1), packer) == 0 &&
           q[n - sizeof packer] == '.';
}

/* The qualified name of a torch function called as `F.interpolate`, `torch.split` or a name
 * imported from torch (`interpolate`), in `buf`; NULL for any other callee. */
static const char *torch_callee(const HostUse *u, const DlExpr *callee, char *buf, size_t size) {
    const DlExpr *root = callee && callee->kind == DL_EX_ATTR ? callee->object : callee;
    if (!root || root->kind != DL_EX_NAME) return NULL;
    const DlFileFacts *file = home_file(u);
    const char *q = file ? dl_project_import(file, root->name) : NULL;
    if (!q || strncmp(q, "torch", 5) != 0) return NULL;
    if (root == callee) return q;
    int n = snprintf(buf, size, "%s.%s", q, callee->name);
    return n > 0 && (size_t)n < size ? buf : NULL;
}

/* `self.ctc(log_probs, targets, in_lens, tgt_lens)` of an `nn.CTCLoss` the class holds: it reads
 * its lengths as `F.ctc_loss` does, on the host if need be (CRNN-Text-Recognition's loss). */
static bool calls_a_ctc_loss_it_holds(const HostUse *u, const DlExpr *callee) {
    if (!dl_ir_is_self_attr(callee, NULL) || !u->fn->owner || !u->project) return false;
    const DlClassInfo *info = dl_project_class_of(u->project, u->fn->owner);
    const DlAttr *held = info && info->attrs_done ? dl_project_attr(info, callee->name) : NULL;
    return held && held->value && held->value->kind == DL_KIND_LOSS && held->value->literal &&
           strcmp(held->value->literal, "torch.nn.CTCLoss") == 0;
}

static void walk_call(HostUse *u, const DlExpr *e, bool host, int depth) {
    const DlExpr *callee = e->object;
    const char *name = last_name(callee);
    bool method = callee && callee->kind == DL_EX_ATTR;
    /* `if targets[b].sum() == 0:`: a reduction the host reads (a test, a comparison with a
     * number) reads what it reduces there (YOLOv3's loss, building its masks on the CPU) */
    static const char *const reductions[] = {"sum", "max", "min", "mean", "any", "all", NULL};
    bool reduced_on_host = host && method && !e->arg_count && dl_name_in_list(name, reductions);
    /* `if torch.all(t == 0):`, the function's form (interactive-speaker-recognition's encoder) */
    bool torch_reduction_on_host = host && method && callee->object &&
                                   callee->object->kind == DL_EX_NAME &&
                                   strcmp(callee->object->name, "torch") == 0 &&
                                   dl_name_in_list(name, reductions);
    /* `conditional_to(data.get_field(field), device)`, `batch.get("image").to(device)`: an
     * entry a getter takes out of a container the code then reads on the host (or moves), as
     * `data[field]` would be (semantic-scene-completion's FieldList batches) */
    bool entry_on_host = host && method && name && strncmp(name, "get", 3) == 0;
    if (method)
        walk(u, reshaped_for_a_copy(u, e, name, callee->object, depth),
             reads_receiver_on_host(name) || reduced_on_host || entry_on_host, depth + 1);
    else walk(u, callee, false, depth + 1);
    bool packs = packs_sequences(u, callee, name);
    bool builtin = (!method && builtin_reads_on_host(name)) || reads_arguments_on_host(name) ||
                   numpy_reads_arguments(callee) ||
                   (host && !method && iterates_its_arguments(name));
    const DlFunction *helper = own_method(u, callee);
    /* `length_mask(emb_len, emb.size(1))`: a function of the project, not a method, whose
     * parameters are looked at in turn (AudioCaption's decoders; `_unflatten_targets(targets,
     * lengths)` imported from another file, an OCR loss's CPU slice bounds); its first parameter
     * is the first argument, there is no self */
    bool plain_function = false;
    if (!helper && callee && callee->kind == DL_EX_NAME && u->project && u->nesting < 3) {
        const DlFunctionInfo *home = dl_project_function_of(u->project, u->fn);
        const DlFileFacts *file = home ? dl_project_file(u->project, home->module) : NULL;
        const char *imported = file ? dl_project_import(file, callee->name) : NULL;
        const DlFunctionInfo *fi =
            file ? dl_project_find_function(u->project, file, imported ? imported : callee->name)
                 : NULL;
        if (fi && fi->fn && !fi->fn->owner && fi->module->language == home->module->language) {
            helper = fi->fn;
            plain_function = true;
        }
    }
    uint64_t helper_host =
        helper && helper != u->fn ? host_only_params(u->project, u->site, helper, u->nesting + 1)
                                  : 0;
    bool alternatives = false;
    if (!helper) {
        helper_host = host_params_of_alternatives(u, callee);
        alternatives = helper_host != 0;
    }
    char buf[160];
    /* `F.interpolate(x, size=shape)`: a size, read on the host (F3Net's image shapes) */
    const char *torch_fn = torch_callee(u, callee, buf, sizeof buf);
    if (!torch_fn && calls_a_ctc_loss_it_holds(u, callee)) torch_fn = "torch.nn.functional.ctc_loss";
    unsigned position = 0;
    for (uint32_t i = 0; i < e->arg_count; i++) {
        const char *kw = e->args[i].keyword;
        bool lengths = packs && (kw ? strcmp(kw, "lengths") == 0 : position == 1);
        if (torch_fn && !(kw && kw[0] == '*') &&
            dl_torch_argument_meets_no_device(torch_fn, position, kw))
            lengths = true;
        int p = (!helper && !alternatives) || (kw && kw[0] == '*') ? -1
                : kw             ? (helper ? dl_ir_param_index(helper, kw) : -1)
                : plain_function ? (int)position
                                 : (int)position + 1; /* after self */
        bool helper_reads_on_host =
            p >= 0 && p < DL_MAX_PARAM_BITS && (helper_host & (UINT64_C(1) << p));
        bool shape = i == 0 && !kw && reads_only_the_shape_of_its_first(e, name);
        walk(u, e->args[i].value,
             builtin || lengths || helper_reads_on_host || shape || torch_reduction_on_host,
             depth + 1);
        if (!kw) position++;
    }
}

/* `times[-1]`, `lengths[0]`: one element, a 0-dim tensor, which PyTorch lets meet a tensor on
 * any device as a Python number would (gru_ode_bayes' `times[-1] <= T`). */
static bool one_element(const DlExpr *e) {
    if (e->kind != DL_EX_SUBSCRIPT || e->item_count != 1) return false;
    const DlExpr *index = e->items[0];
    if (index->kind == DL_EX_UNARY && flow_streq(index->name, "-")) index = index->object;
    return index && index->kind == DL_EX_NUMBER && index->name &&
           index->name[strspn(index->name, "0123456789")] == '\0';
}

/* An index: `tokens.argmax(dim=-1)`, `mask.long()` computed from a tensor alone is an index
 * too (CLIP's `x[torch.arange(n), text.argmax(dim=-1)]`), and a CPU index may index a tensor
 * on any device; what the methods are given is walked as any argument. */
static void walk_index(HostUse *u, const DlExpr *e, int depth) {
    static const char *const of_the_receiver_alone[] = {
        "argmax",  "argmin",  "argsort", "long",      "int",   "bool",   "nonzero",    "view",
        "reshape", "flatten", "squeeze", "unsqueeze", "clone", "detach", "contiguous", NULL};
    while (e && e->kind == DL_EX_CALL && e->object && e->object->kind == DL_EX_ATTR &&
           dl_name_in_list(e->object->name, of_the_receiver_alone) && depth < 64) {
        for (uint32_t i = 0; i < e->arg_count; i++)
            walk(u, e->args[i].value, false, depth + 1);
        e = e->object->object;
        depth++;
    }
    walk(u, e, true, depth);
}

/* `[q.split() for q in texts]`: a comprehension whose element calls a method only strings have
 * on its variable, so what it iterates holds strings. */
static bool splits_strings(const DlExpr *comp, const DlExprExtra *x) {
    static const char *const text_methods[] = {"split", "strip", "lower", "upper", "encode",
                                               "startswith", "endswith", "rstrip", "lstrip",
                                               NULL};
    const DlExpr *el = comp->object;
    return x->target && x->target->kind == DL_EX_NAME && el && el->kind == DL_EX_CALL &&
           el->object && el->object->kind == DL_EX_ATTR && el->object->object &&
           el->object->object->kind == DL_EX_NAME &&
           strcmp(el->object->object->name, x->target->name) == 0 &&
           dl_name_in_list(el->object->name, text_methods);
}

static void walk(HostUse *u, const DlExpr *e, bool host, int depth) {
    if (!e || depth > 64) return;
    switch (e->kind) {
    case DL_EX_NAME:
        if (host) return;
        for (uint32_t i = 0; i < u->fn->param_count && i < DL_MAX_PARAM_BITS; i++)
            if (!(u->rebound & (UINT64_C(1) << i)) && strcmp(u->fn->params[i].name, e->name) == 0)
                u->device_used |= UINT64_C(1) << i;
        for (uint32_t a = 0; a < u->alias_count; a++)
            if (u->aliases[a].param >= 0 && strcmp(u->aliases[a].name, e->name) == 0)
                u->device_used |= UINT64_C(1) << u->aliases[a].param;
        return;
    case DL_EX_CALL:
        walk_call(u, e, host, depth);
        return;
    case DL_EX_SUBSCRIPT: /* `offsets[i, a:b].tolist()`; an index on the CPU may index anything */
        /* `batch["file_id"]`: a text field of a dict batch, strings wherever they are used */
        walk(u, e->object, host || flow_names_text_field(e), depth + 1);
        for (uint32_t i = 0; i < e->item_count; i++)
            walk_index(u, e->items[i], depth + 1);
        return;
    case DL_EX_UNARY: /* `x[~masking_pos]`: the complement of an index is an index */
        walk(u, e->object, host, depth + 1);
        return;
    case DL_EX_ATTR: /* `cap_lens.data.tolist()`: `.data` is the tensor's storage, read as it */
        walk(u, e->object,
             (host && e->name && strcmp(e->name, "data") == 0) || metadata_attribute(e->name),
             depth + 1);
        return;
    case DL_EX_COMPARE: { /* `x is None`: identity, no read */
        bool identity = e->name && dl_ir_tests_membership_or_identity(e->name);
        /* `if times[-1] <= 10:`: a comparison with numbers written out, tested on the host,
         * meets no device (gru_ode_bayes' observation times) */
        bool with_numbers = false;
        for (uint32_t i = 0; host && i < e->item_count; i++)
            if (e->items[i]->kind == DL_EX_NUMBER) with_numbers = true;
        for (uint32_t i = 0; i < e->item_count; i++)
            walk(u, e->items[i], identity || with_numbers || one_element(e->items[i]), depth + 1);
        walk(u, e->object, identity || with_numbers, depth + 1);
        return;
    }
    case DL_EX_BINOP: /* `out[rows, x_lens - 1]`: arithmetic with a number written out stays
                         where its tensor is, read where the whole is (linevd's GRU wrapper) */
        if (host && e->item_count == 2 &&
            (e->items[0]->kind == DL_EX_NUMBER || e->items[1]->kind == DL_EX_NUMBER)) {
            walk(u, e->items[0], true, depth + 1);
            walk(u, e->items[1], true, depth + 1);
            return;
        }
        break;
    case DL_EX_COND: /* `size=x.shape[2:] if shape is None else shape` (salient-OD's decoders):
                        either value used as the whole is, the test read on the host as an
                        `if` statement's */
        walk(u, e->object, host, depth + 1);
        if (e->item_count == 2) {
            walk(u, e->items[0], true, depth + 1);
            walk(u, e->items[1], host, depth + 1);
        }
        return;
    case DL_EX_BOOLOP: /* `if not n or n[0] > 0:`: each operand tested as the whole is */
        for (uint32_t i = 0; i < e->item_count; i++)
            walk(u, e->items[i], host, depth + 1);
        return;
    default:
        break;
    }
    walk(u, e->object, false, depth + 1);
    for (uint32_t i = 0; i < e->item_count; i++) walk(u, e->items[i], false, depth + 1);
    for (uint32_t i = 0; i < e->arg_count; i++) walk(u, e->args[i].value, false, depth + 1);
    const DlExprExtra *x = dl_expr_extra(e);
    if (x && !(e->flags & DL_EXF_CPP)) {
        walk(u, x->target, false, depth + 1);
        /* `max([len(v[0]) for v in visits])`: a list read on the host, whose sequence is
         * iterated there, as `for v in visits:` iterates it; so is one of strings
         * (`[q.split() for q in batch["question"]]`: squash-generation's classifier) */
        walk(u, x->iter, (host || splits_strings(e, x)) && e->kind == DL_EX_COMP, depth + 1);
    }
}

/* The parameter named `name` (among the first DL_MAX_PARAM_BITS), when no statement walked
 * so far bound it anew; -1 otherwise. */
static int unbound_param(const HostUse *u, const char *name) {
    int p = dl_ir_param_index(u->fn, name);
    return p >= 0 && p < DL_MAX_PARAM_BITS && !(u->rebound & (UINT64_C(1) << p)) ? p : -1;
}

/* The parameter `e` is an element of by subscripts alone (`waves[i][:n]`), or -1 (also for a
 * text field, which is host data however it is used). */
static int param_or_alias(const HostUse *u, const char *name);

static int element_of_param(const HostUse *u, const DlExpr *e) {
    /* `cmasks[i].clone().squeeze(0)`: the element, copied or reshaped (LinearStyleTransfer) */
    static const char *const keeps[] = {"clone", "squeeze", "unsqueeze", "view", "reshape",
                                        "detach", "contiguous", "float", "long", "int", NULL};
    /* `length.data.max()`: one element of it, where it is (MORAN's decoder steps) */
    static const char *const reductions[] = {"max", "min", "sum", NULL};
    bool reduced = false, kept = false;
    for (;;) {
        /* `torch.squeeze(change_point)`, the function form of the method (SegSum's summarizer) */
        const DlExpr *c = e && e->kind == DL_EX_CALL ? e->object : NULL;
        bool function_form = c && c->kind == DL_EX_ATTR && c->object &&
                             c->object->kind == DL_EX_NAME && flow_streq(c->object->name, "torch") &&
                             dl_name_in_list(c->name, keeps) && e->arg_count >= 1 &&
                             !e->args[0].keyword;
        bool method_form = c && c->kind == DL_EX_ATTR && !function_form &&
                           (dl_name_in_list(c->name, keeps) ||
                            (!e->arg_count && dl_name_in_list(c->name, reductions)));
        if (!function_form && !method_form) break;
        reduced |= method_form && dl_name_in_list(c->name, reductions);
        kept = true;
        e = function_form ? e->args[0].value : c->object;
        while (e && e->kind == DL_EX_ATTR && e->name && strcmp(e->name, "data") == 0)
            e = e->object;
    }
    /* `boxes = boxes.squeeze(0)`: the whole parameter reshaped, where it is (SlowFast's
     * evaluator reads each box back with `.item()`) */
    if (kept && e && e->kind == DL_EX_NAME) return unbound_param(u, e->name);
    /* `lx = (lx - 1) // 2`: arithmetic with numbers written out stays where the parameter is
     * (a speech model's lengths after a strided convolution, then packed) */
    if (!kept && e && e->kind == DL_EX_BINOP) {
        const DlExpr *operand = e;
        for (int depth = 0; operand && operand->kind == DL_EX_BINOP && operand->item_count == 2 &&
                            depth < 8;
             depth++) {
            if (operand->items[1]->kind == DL_EX_NUMBER) operand = operand->items[0];
            else if (operand->items[0]->kind == DL_EX_NUMBER) operand = operand->items[1];
            else return -1;
        }
        return operand && operand->kind == DL_EX_NAME ? param_or_alias(u, operand->name) : -1;
    }
    /* `shape = x.size()[2:] if shape is None else shape`: the parameter when it is given
     * (F3Net's forward); what the other arm computes is walked where it is bound */
    if (e && e->kind == DL_EX_COND && e->item_count == 2)
        for (int arm = 0; arm < 2; arm++) {
            const DlExpr *a = arm ? e->items[1] : e->object;
            if (a && a->kind == DL_EX_NAME && unbound_param(u, a->name) >= 0)
                return unbound_param(u, a->name);
        }
    /* `Xs_f = [[sos] + seq[:-1] for seq in Xs]`: a list made of each element of the
     * parameter (antibody_task's LSTM, which then makes a tensor of it on its device): its
     * uses are looked at where the list is used */
    if (e && e->kind == DL_EX_COMP && !(e->flags & DL_EXF_CPP)) {
        const DlExprExtra *x = dl_expr_extra(e);
        if (x && x->iter && x->iter->kind == DL_EX_NAME) return param_or_alias(u, x->iter->name);
        return -1;
    }
    if (!e || e->kind != DL_EX_SUBSCRIPT) return -1;
    for (; e && e->kind == DL_EX_SUBSCRIPT; e = e->object)
        if (flow_names_text_field(e)) return -1; /* `batch["file_id"]`: strings, see walk */
    /* `traj = seqs[0]` of `seqs = batch["POI_id"]`: an element of an element (GETNext) */
    return e && e->kind == DL_EX_NAME ? param_or_alias(u, e->name) : -1;
}

/* The parameter `name` is, or holds an element of (an alias), or -1. */
static int param_or_alias(const HostUse *u, const char *name) {
    int p = unbound_param(u, name);
    if (p >= 0) return p;
    for (uint32_t a = 0; a < u->alias_count; a++)
        if (strcmp(u->aliases[a].name, name) == 0) return u->aliases[a].param;
    return -1;
}

/* `len_x.sort(dim=0, descending=True)`, `torch.sort(lengths)`, `idx.argsort()`: the sorted
 * values and the order are where what is sorted is, and read as it is read (linevd's
 * DynamicRNN packs the one and indexes with the other); the parameter sorted, or -1. */
static int sorted_param(const HostUse *u, const DlExpr *v) {
    const char *name = v && v->kind == DL_EX_CALL ? last_name(v->object) : NULL;
    if (!name || (strcmp(name, "sort") != 0 && strcmp(name, "argsort") != 0)) return -1;
    const DlExpr *of = v->object->kind == DL_EX_ATTR ? v->object->object : NULL;
    if (of && of->kind == DL_EX_NAME && strcmp(of->name, "torch") == 0) /* torch.sort(x) */
        of = v->arg_count && !v->args[0].keyword ? v->args[0].value : NULL;
    return of && of->kind == DL_EX_NAME ? param_or_alias(u, of->name) : -1;
}

/* `name = <expr>`: `name` is an alias of a parameter's element from now on, or no longer one. */
static void bind_alias(HostUse *u, const char *name, int param) {
    for (uint32_t a = 0; a < u->alias_count; a++)
        if (strcmp(u->aliases[a].name, name) == 0) {
            u->aliases[a].param = param;
            return;
        }
    if (param < 0) return;
    if (u->alias_count == sizeof u->aliases / sizeof u->aliases[0]) {
        u->device_used |= UINT64_C(1) << param; /* too many to follow: a device use */
        return;
    }
    u->aliases[u->alias_count].name = name;
    u->aliases[u->alias_count++].param = param;
}

/* `return out, input_lengths`: a parameter handed back as it came meets nothing here; the
 * caller gets its own tensor back (kospeech's encoders return the lengths they are given).
 * The rest of what is returned is walked as any value. */
static void walk_returned(HostUse *u, const DlExpr *e, int depth) {
    if (e->kind == DL_EX_NAME && param_or_alias(u, e->name) >= 0) return;
    if (e->kind != DL_EX_TUPLE) {
        walk(u, e, false, depth);
        return;
    }
    for (uint32_t i = 0; i < e->item_count; i++)
        walk_returned(u, e->items[i], depth + 1);
}

/* What an assignment or a `for` binds: a name is no use of what it held, and no longer an alias
 * (`out, _ = self.lstm(packed)` after `_, recover = perm.sort(...)`: allanj's neural CRF); an
 * element or attribute written (`x[i] = ...`) is read on the host as an index. */
static void walk_target(HostUse *u, const DlExpr *t, int depth) {
    if (!t || depth > 64) return;
    if (t->kind == DL_EX_NAME) {
        bind_alias(u, t->name, -1);
    } else if (t->kind == DL_EX_TUPLE || t->kind == DL_EX_LIST) {
        for (uint32_t i = 0; i < t->item_count; i++)
            walk_target(u, t->items[i], depth + 1);
    } else {
        walk(u, t, true, depth);
    }
}

static void walk_block(HostUse *u, const DlBlock *b, int depth) {
    if (depth > 64) return;
    uint64_t rebound_before = u->rebound; /* what this block rebinds holds only inside it */
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        /* `if lengths:` and `for n in lengths:` read it on the host */
        bool host = s->kind == DL_ST_IF || s->kind == DL_ST_WHILE || s->kind == DL_ST_FOR ||
                    s->kind == DL_ST_CHECK;
        bool alias = s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
                     s->targets[0]->kind == DL_EX_NAME;
        int element = alias ? element_of_param(u, s->value) : -1;
        if (element < 0 && alias) element = sorted_param(u, s->value);
        /* `sorted_len, idx = len_x.sort(...)`: both parts of the sort alias the parameter */
        const DlExpr *parts =
            s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->targets[0]->kind == DL_EX_TUPLE
                ? s->targets[0]
                : NULL;
        int sorted = parts ? sorted_param(u, s->value) : -1;
        for (uint32_t k = 0; parts && k < parts->item_count && sorted >= 0; k++)
            if (parts->items[k]->kind != DL_EX_NAME) sorted = -1;
        if (sorted >= 0) {
            for (uint32_t k = 0; k < parts->item_count; k++)
                bind_alias(u, parts->items[k]->name, sorted);
        } else if (element >= 0 && s->value->kind == DL_EX_COND) {
            const DlExpr *c = s->value;
            walk(u, c->items[0], true, depth + 1); /* the test */
            for (int arm = 0; arm < 2; arm++) {
                const DlExpr *a = arm ? c->items[1] : c->object;
                if (!(a && a->kind == DL_EX_NAME && unbound_param(u, a->name) == element))
                    walk(u, a, false, depth + 1);
            }
        } else if (element >= 0) {
            /* the element's uses are looked at where the alias is used; its indices are read
             * on the host; what a comprehension makes of each element is walked (other
             * parameters it reads) */
            for (const DlExpr *e = s->value; e && e->kind == DL_EX_SUBSCRIPT; e = e->object)
                for (uint32_t k = 0; k < e->item_count; k++) walk(u, e->items[k], true, depth + 1);
            if (s->value->kind == DL_EX_COMP) walk(u, s->value->object, false, depth + 1);
        } else if (s->kind == DL_ST_RETURN && s->value) {
            walk_returned(u, s->value, depth + 1);
        } else if (s->kind != DL_ST_IMPORT && s->kind != DL_ST_DEF && s->kind != DL_ST_CLASS) {
            walk(u, s->value, host, depth + 1);
            bool binds = s->kind == DL_ST_ASSIGN || s->kind == DL_ST_FOR;
            for (uint32_t t = 0; t < s->target_count; t++) {
                if (binds)
                    walk_target(u, s->targets[t], depth + 1);
                else
                    walk(u, s->targets[t], false, depth + 1);
            }
        }
        if (element >= 0 || alias) bind_alias(u, s->targets[0]->name, element);
        /* every later statement of the same block runs after the assignment (in a loop's body
         * too: FOTS' `s = score[i]` before its uses, the next round sees the new value) */
        if (s->kind == DL_ST_ASSIGN)
            for (uint32_t t = 0; t < s->target_count; t++)
                if (s->targets[t]->kind == DL_EX_NAME) {
                    int p = dl_ir_param_index(u->fn, s->targets[t]->name);
                    if (p >= 0 && p < DL_MAX_PARAM_BITS) u->rebound |= UINT64_C(1) << p;
                }
        if (s->kind == DL_ST_DEF && s->parts->func) /* a closure's uses are uses too */
            walk_block(u, &s->parts->func->body, depth + 1);
        if (s->kind == DL_ST_WITH)
            for (uint32_t w = 0; w < s->with_count; w++) walk(u, s->withs[w], false, depth + 1);
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) walk_block(u, inner, depth + 1);
    }
    if (depth > 0) u->rebound = rebound_before;
}

/* The project module classes `__init__`'s block `b` builds `self.<attr>` from, in statements at
 * any depth (`self.<attr> = Cell(...)`), added to `out` (`*n` of them, at most `cap`);
 * `*unknown` is set where it is bound to anything else. */
static void classes_built_for(const HostUse *u, const DlFileFacts *file, const DlBlock *b,
                              const char *attr, const DlClassInfo **out, uint32_t *n, uint32_t cap,
                              bool *unknown, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count && !*unknown; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
            dl_ir_is_self_attr(s->targets[0], attr)) {
            const DlExpr *v = s->value;
            const DlClassInfo *info = NULL;
            if (v && v->kind == DL_EX_CALL && v->object && v->object->kind == DL_EX_NAME)
                info = dl_project_find_class(u->project, file, v->object->name);
            if (!info || !info->is_module || *n == cap)
                *unknown = true;
            else
                out[(*n)++] = info;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            classes_built_for(u, file, inner, attr, out, n, cap, unknown, depth + 1);
    }
}

static uint64_t host_params_of_alternatives(const HostUse *u, const DlExpr *callee) {
    if (!u->project || !u->fn->owner || u->nesting >= 3 || !dl_ir_is_self_attr(callee, NULL))
        return 0;
    const char *attr = callee->name;
    const DlFunction *init = dl_ir_method_named(u->fn->owner, "__init__");
    const DlClassInfo *built[4];
    uint32_t n = 0;
    bool unknown = false;
    const DlFileFacts *file = home_file(u);
    if (init && file) classes_built_for(u, file, &init->body, attr, built, &n, 4, &unknown, 0);
    if (unknown || n < 2) return 0; /* one kind: own_method found it, or it is not known */
    uint64_t host = ~UINT64_C(0);
    for (uint32_t i = 0; i < n; i++) {
        const DlFunctionInfo *forward = dl_project_method(u->project, built[i], "forward");
        if (!forward || !forward->fn) return 0;
        host &= host_only_params(u->project, u->site, forward->fn, u->nesting + 1);
    }
    return host;
}

static uint64_t host_only_params(const DlProject *project, Flow *site, const DlFunction *fn,
                                 int nesting) {
    HostUse u = {.project = project, .site = site, .fn = fn, .nesting = nesting};
    walk_block(&u, &fn->body, 0);
    uint64_t host = 0;
    for (uint32_t i = 0; i < fn->param_count && i < DL_MAX_PARAM_BITS; i++)
        if (!fn->params[i].star && !(u.device_used & (UINT64_C(1) << i)))
            host |= UINT64_C(1) << i;
    return host;
}

uint64_t flow_host_only_params(const DlProject *project, const DlFunction *fn) {
    return host_only_params(project, NULL, fn, 0);
}

uint64_t flow_host_only_params_at(Flow *F, const DlFunction *fn) {
    return host_only_params(F->env->project, F, fn, 0);
}

/* ---------------------------------------------------------------- inputs the function moves */

/* `e` is `name`, or reached from it by attributes, method calls and subscripts
 * (`id_embeds.unsqueeze(0)`, `batch["x"].float()`). */
static bool rooted_at(const DlExpr *e, const char *name) {
    for (int depth = 0; e && depth < 16; depth++) {
        if (e->kind == DL_EX_NAME) return strcmp(e->name, name) == 0;
        if (e->kind == DL_EX_CALL) {
            if (!e->object || e->object->kind != DL_EX_ATTR) return false;
            e = e->object->object;
        } else if (e->kind == DL_EX_ATTR || e->kind == DL_EX_SUBSCRIPT) {
            e = e->object;
        } else {
            return false;
        }
    }
    return false;
}

/* `.to(torch.float16)`, `.to(dtype=dtype)`, `.to(x.dtype)`: a cast, which leaves the tensor on
 * its device. */
static bool to_casts_only(const DlExpr *call) {
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        const DlExpr *v = call->args[i].value;
        if (kw) {
            if (strcmp(kw, "device") == 0 || kw[0] == '*') return false;
            continue; /* dtype, non_blocking, copy, memory_format */
        }
        if (v->kind == DL_EX_ATTR && strcmp(v->name, "dtype") == 0) continue;
        if (v->kind == DL_EX_NAME && strstr(v->name, "dtype")) continue;
        if (v->kind == DL_EX_ATTR && v->object && v->object->kind == DL_EX_NAME &&
            strcmp(v->object->name, "torch") == 0) {
            char qualified[64];
            snprintf(qualified, sizeof qualified, "torch.%s", v->name);
            if (dl_torch_is_dtype(qualified)) continue;
        }
        return false;
    }
    return call->arg_count > 0;
}

/* A copy of `name` to a device: `labels.to(x.device)`, `labels.cuda()`, `labels.type_as(x)`,
 * `id_embeds.unsqueeze(0).to(device=device, dtype=dtype)`, or a helper named for the move
 * (`c_f.to_device(labels, embeddings)`, `move_to_device(labels)`) given the name first. */
static bool moves_name(const DlExpr *e, const char *name) {
    if (!e || e->kind != DL_EX_CALL || !e->object) return false;
    const DlExpr *callee = e->object;
    static const char *const methods[] = {"to", "cuda", "type_as", NULL};
    /* what a cast or a view after the move keeps where the move put it
     * (`occ.transpose(1, 2).to(self.device).to(torch.float64)`: AIGCN-RUL's forward) */
    static const char *const keep_the_device[] = {
        "float", "double", "half", "long", "int", "bool", "contiguous", "squeeze", "unsqueeze",
        "view", "reshape", "permute", "transpose", "flatten", "detach", "clone", NULL};
    if (callee->kind == DL_EX_ATTR && dl_name_in_list(callee->name, methods)) {
        if (strcmp(callee->name, "to") == 0 && to_casts_only(e))
            return moves_name(callee->object, name);
        return rooted_at(callee->object, name);
    }
    if (callee->kind == DL_EX_ATTR && dl_name_in_list(callee->name, keep_the_device))
        return moves_name(callee->object, name);
    const char *helper = last_name(callee);
    if (!helper || !strstr(helper, "to_device") || !e->arg_count || e->args[0].keyword)
        return false;
    const DlExpr *first = e->args[0].value;
    return first->kind == DL_EX_NAME && strcmp(first->name, name) == 0;
}

/* The parameters of `fn` that a call gathering tensors into a new one is given, alone or in
 * a list or tuple: `torch.cat((nlabel, alabel), 0)`, `pad_sequence(names, batch_first=True)`,
 * `torch.stack(xs)`. Bit i for parameter i. */
static uint64_t params_gathered(const DlFunction *fn, const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object || !e->arg_count || e->args[0].keyword)
        return 0;
    static const char *const gatherers[] = {"cat", "concat", "stack", "pad_sequence",
                                            "hstack", "vstack", NULL};
    const char *callee = last_name(e->object);
    if (!callee || !dl_name_in_list(callee, gatherers)) return 0;
    const DlExpr *a = e->args[0].value;
    const DlExpr *const *items = &a;
    uint32_t count = 1;
    if (a->kind == DL_EX_LIST || a->kind == DL_EX_TUPLE) {
        items = (const DlExpr *const *)a->items;
        count = a->item_count;
    }
    uint64_t mask = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (items[i]->kind != DL_EX_NAME) return 0;
        int p = dl_ir_param_index(fn, items[i]->name);
        if (p < 0 || p >= DL_MAX_PARAM_BITS) return 0;
        mask |= UINT64_C(1) << p;
    }
    return mask;
}

/* `torch.cat((nlabel, alabel), 0).cuda()`, `pad_sequence(names).to(rep.device)`: a move of
 * what gathers parameters (through casts and views after it); their bits, or 0. */
static uint64_t gathered_params_moved(const DlFunction *fn, const DlExpr *e) {
    for (int depth = 0; e && depth < 8; depth++) {
        if (e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR) return 0;
        const char *m = e->object->name;
        bool move = m && (strcmp(m, "to") == 0 || strcmp(m, "cuda") == 0 ||
                          strcmp(m, "type_as") == 0);
        if (move && !(strcmp(m, "to") == 0 && to_casts_only(e))) {
            /* `torch.cat((a, b), 0).float().cuda()`: casts and views before the move */
            const DlExpr *r = e->object->object;
            for (int k = 0; r && k < 8 && !params_gathered(fn, r); k++) {
                if (r->kind != DL_EX_CALL || !r->object || r->object->kind != DL_EX_ATTR)
                    return 0;
                r = r->object->object;
            }
            return params_gathered(fn, r);
        }
        e = e->object->object; /* `.float()` after the move */
    }
    return 0;
}

/* Locals bound to what gathers parameters (`label = torch.cat((nlabel, alabel), 0)`), for a
 * move of the local later (`label = label.cuda()`: RTFM's loss). */
typedef struct Gathered {
    const char *name[8];
    uint64_t params[8];
    uint32_t count;
    /* a parameter unpacked into names (`input_ids, labels = batch`), each then moved
     * (`input_ids = input_ids.cuda()`): the parameter is moved once all its parts are
     * (semi-rag's decoder forward) */
    struct {
        const char *part[8];
        uint32_t part_count, moved; /* bit k: part k moved */
        int param;
    } unpacked[4];
    uint32_t unpacked_count;
} Gathered;

/* `a, b = param`: note the parts of the parameter. */
static void note_unpacked(const DlFunction *fn, const DlStmt *s, Gathered *g) {
    const DlExpr *t = s->targets[0], *v = s->value;
    if (t->kind != DL_EX_TUPLE || !t->item_count || t->item_count > 8 || !v ||
        v->kind != DL_EX_NAME || g->unpacked_count >= 4)
        return;
    int p = dl_ir_param_index(fn, v->name);
    if (p < 0 || p >= DL_MAX_PARAM_BITS) return;
    for (uint32_t k = 0; k < t->item_count; k++)
        if (t->items[k]->kind != DL_EX_NAME) return;
    uint32_t u = g->unpacked_count++;
    g->unpacked[u].param = p;
    g->unpacked[u].part_count = t->item_count;
    g->unpacked[u].moved = 0;
    for (uint32_t k = 0; k < t->item_count; k++) g->unpacked[u].part[k] = t->items[k]->name;
}

/* `part = part.cuda()` of a part of an unpacked parameter: the parameter's bit once every part
 * of it is moved, else 0. */
static uint64_t unpacked_param_moved(Gathered *g, const char *target, const DlExpr *value) {
    uint64_t moved = 0;
    for (uint32_t u = 0; u < g->unpacked_count; u++) {
        for (uint32_t k = 0; k < g->unpacked[u].part_count; k++)
            if (strcmp(g->unpacked[u].part[k], target) == 0 && moves_name(value, target))
                g->unpacked[u].moved |= 1u << k;
        if (g->unpacked[u].moved == (1u << g->unpacked[u].part_count) - 1)
            moved |= UINT64_C(1) << g->unpacked[u].param;
    }
    return moved;
}

static void find_moved_params(const DlFunction *fn, const DlBlock *b, uint64_t *moved,
                              Gathered *gathered, int depth) {
    if (depth > 64) return;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue; /* not this function's */
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1) note_unpacked(fn, s, gathered);
        /* `x, y = x.to(device), y.to(device)`: each part moved in one statement */
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->value &&
            s->targets[0]->kind == DL_EX_TUPLE && s->value->kind == DL_EX_TUPLE &&
            s->targets[0]->item_count == s->value->item_count)
            for (uint32_t k = 0; k < s->value->item_count; k++)
                if (s->targets[0]->items[k]->kind == DL_EX_NAME)
                    *moved |= unpacked_param_moved(gathered, s->targets[0]->items[k]->name,
                                                   s->value->items[k]);
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME) {
            const char *target = s->targets[0]->name;
            *moved |= unpacked_param_moved(gathered, target, s->value);
            int p = dl_ir_param_index(fn, target);
            if (p >= 0 && p < DL_MAX_PARAM_BITS && moves_name(s->value, target))
                *moved |= UINT64_C(1) << p;
            *moved |= gathered_params_moved(fn, s->value);
            for (uint32_t k = 0; k < gathered->count; k++)
                if (strcmp(gathered->name[k], target) == 0 && moves_name(s->value, target))
                    *moved |= gathered->params[k];
            uint64_t into = p < 0 ? params_gathered(fn, s->value) : 0;
            if (into && gathered->count < 8) {
                gathered->name[gathered->count] = target;
                gathered->params[gathered->count++] = into;
            }
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            find_moved_params(fn, inner, moved, gathered, depth + 1);
    }
}

static bool is_the_name(const DlExpr *e, void *name) {
    return e->kind == DL_EX_NAME && e->name && strcmp(e->name, name) == 0;
}

/* Does anything in `b` (nested defs too) read `name`: in a statement's value, a `with`'s
 * context, or a target that is no plain name (`x[i] = ...`, `name.attr = ...`)? */
static bool block_reads_name(const DlBlock *b, const char *name, int depth) {
    for (uint32_t i = 0; b && depth < 64 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_CLASS) return true; /* (not looked into: say it may) */
        if (s->kind == DL_ST_DEF) {
            if (s->parts->func && block_reads_name(&s->parts->func->body, name, depth + 1))
                return true;
            continue;
        }
        if (s->kind != DL_ST_IMPORT && s->value &&
            dl_ir_expr_any_with(s->value, is_the_name, (void *)name))
            return true;
        if (s->kind == DL_ST_ASSIGN || s->kind == DL_ST_AUGASSIGN || s->kind == DL_ST_WITH ||
            s->kind == DL_ST_FOR)
            for (uint32_t t = 0; t < s->target_count; t++)
                if (s->targets[t] && s->targets[t]->kind != DL_EX_NAME &&
                    s->targets[t]->kind != DL_EX_TUPLE &&
                    dl_ir_expr_any_with(s->targets[t], is_the_name, (void *)name))
                    return true;
        for (uint32_t w = 0; s->kind == DL_ST_WITH && w < s->with_count; w++)
            if (s->withs[w] && dl_ir_expr_any_with(s->withs[w], is_the_name, (void *)name))
                return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_reads_name(inner, name, depth + 1)) return true;
    }
    return false;
}

uint64_t flow_params_moved_inside(const DlFunction *fn) {
    uint64_t moved = 0;
    Gathered gathered = {0};
    find_moved_params(fn, &fn->body, &moved, &gathered, 0);
    /* `x, y = batch`, `x = x.to(device)`, and `y` never read (group-activity-recognition's
     * forward): what is unpacked and never read moves nothing, and needs no move */
    for (uint32_t u = 0; u < gathered.unpacked_count; u++) {
        uint32_t all = (1u << gathered.unpacked[u].part_count) - 1;
        uint32_t parts = gathered.unpacked[u].moved;
        if (!parts) continue;
        for (uint32_t k = 0; k < gathered.unpacked[u].part_count; k++)
            if (!(parts & (1u << k)) &&
                !block_reads_name(&fn->body, gathered.unpacked[u].part[k], 0))
                parts |= 1u << k;
        if (parts == all) moved |= UINT64_C(1) << gathered.unpacked[u].param;
    }
    return moved;
}
