/* The parameters a function hands to a layer as one of its sizes: `nn.Linear(dec_dim,
 * attn_dim)`, `nn.Embedding(vocab, dim)`, `nn.Conv2d(in_ch, out_ch, 3)`. PyTorch takes only
 * integers there, so `torch.tensor(attn_dim)` in the same function is a 0-dim tensor, which may
 * meet a tensor on any device (speechbrain's `torch.sqrt(torch.tensor(attn_dim).float())`).
 *
 * Read from the function's own model; a parameter the function assigns is not counted, since
 * what it holds at the factory is then not what the layer was given. */
#include "dataflow/flow_internal.h"

/* A layer and how many of its leading positional arguments are sizes (integers only: not
 * LayerNorm's shape, which may be a list, nor a kernel size, which may be a tuple). */
typedef struct SizedLayer {
    const char *name;
    unsigned sizes;
} SizedLayer;

static const SizedLayer sized_layers[] = {
    {"torch.nn.Linear", 2},          {"torch.nn.Bilinear", 3},
    {"torch.nn.Embedding", 2},       {"torch.nn.EmbeddingBag", 2},
    {"torch.nn.Conv1d", 2},          {"torch.nn.Conv2d", 2},
    {"torch.nn.Conv3d", 2},          {"torch.nn.ConvTranspose1d", 2},
    {"torch.nn.ConvTranspose2d", 2}, {"torch.nn.ConvTranspose3d", 2},
    {"torch.nn.LSTM", 2},            {"torch.nn.GRU", 2},
    {"torch.nn.RNN", 2},             {"torch.nn.LSTMCell", 2},
    {"torch.nn.GRUCell", 2},         {"torch.nn.RNNCell", 2},
    {"torch.nn.MultiheadAttention", 2}, {"torch.nn.BatchNorm1d", 1},
    {"torch.nn.BatchNorm2d", 1},     {"torch.nn.BatchNorm3d", 1},
    {"torch.nn.GroupNorm", 2},       {"torch.nn.InstanceNorm1d", 1},
    {"torch.nn.InstanceNorm2d", 1},  {"torch.nn.InstanceNorm3d", 1},
};

static const char *const size_keywords[] = {
    "in_features", "out_features", "in1_features", "in2_features", "num_embeddings",
    "embedding_dim", "in_channels", "out_channels", "input_size", "hidden_size", "embed_dim",
    "num_heads", "num_features", "num_groups", "num_channels", NULL};

typedef struct SizeUse {
    Flow *F;
    const char *name;
    bool sized;    /* handed to a layer as a size */
    bool assigned; /* rebound somewhere in the function */
} SizeUse;

static bool is_the_name(const SizeUse *u, const DlExpr *e) {
    return e && e->kind == DL_EX_NAME && strcmp(e->name, u->name) == 0;
}

static unsigned layer_sizes(Flow *F, const DlExpr *callee) {
    if (!callee || (callee->kind != DL_EX_NAME && callee->kind != DL_EX_ATTR)) return 0;
    const char *q = flow_qualify(F, callee);
    if (!q || strncmp(q, "torch.nn.", 9) != 0) return 0;
    for (size_t i = 0; i < sizeof sized_layers / sizeof sized_layers[0]; i++)
        if (strcmp(q, sized_layers[i].name) == 0) return sized_layers[i].sizes;
    return 0;
}

static void walk_expr(SizeUse *u, const DlExpr *e, int depth) {
    if (!e || depth > 64 || u->sized) return;
    if (e->kind == DL_EX_CALL) {
        unsigned sizes = layer_sizes(u->F, e->object);
        unsigned position = 0;
        for (uint32_t i = 0; sizes && i < e->arg_count; i++) {
            const char *kw = e->args[i].keyword;
            bool size = kw ? dl_name_in_list(kw, size_keywords) : position < sizes;
            if (size && is_the_name(u, e->args[i].value)) u->sized = true;
            if (!kw) position++;
        }
    }
    walk_expr(u, e->object, depth + 1);
    for (uint32_t i = 0; i < e->item_count; i++) walk_expr(u, e->items[i], depth + 1);
    for (uint32_t i = 0; i < e->arg_count; i++) walk_expr(u, e->args[i].value, depth + 1);
}

static void walk_block(SizeUse *u, const DlBlock *b, int depth) {
    if (depth > 64) return;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS || s->kind == DL_ST_IMPORT) continue;
        walk_expr(u, s->value, depth + 1);
        for (uint32_t t = 0; t < s->target_count; t++) {
            walk_expr(u, s->targets[t], depth + 1);
            /* `attn_dim = ...`, `attn_dim, heads = ...`, `for attn_dim in ...` */
            if (s->kind != DL_ST_EXPR && dl_ir_target_names(s->targets[t], u->name))
                u->assigned = true;
        }
        if (s->kind == DL_ST_WITH)
            for (uint32_t w = 0; w < s->with_count; w++) walk_expr(u, s->withs[w], depth + 1);
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) walk_block(u, inner, depth + 1);
    }
}

bool flow_param_is_layer_size(Flow *F, const char *name) {
    const DlFunction *fn = F->fn;
    if (!fn || !name || dl_ir_param_index(fn, name) < 0) return false;
    SizeUse u = {F, name, false, false};
    walk_block(&u, &fn->body, 0);
    return u.sized && !u.assigned;
}
