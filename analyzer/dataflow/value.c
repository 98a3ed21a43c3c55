/* The kind x device lattice (see value.h). */
#include "dataflow/value.h"

#include <string.h>

const DlValue dl_value_unknown = {0};

DlValue *dl_value_new(DlArena *arena, DlKind kind) {
    DlValue *v = dl_arena_alloc(arena, sizeof *v);
    v->kind = kind;
    return v;
}

DlValue *dl_value_copy(DlArena *arena, const DlValue *v) {
    DlValue *c = dl_arena_alloc(arena, sizeof *c);
    *c = *v;
    return c;
}

DlValue *dl_value_with_item(DlArena *arena, const DlValue *v, DlValue *copy, uint32_t i,
                            const DlValue *item) {
    if (!copy) copy = dl_value_copy(arena, v);
    if (copy->items == v->items) {
        const DlValue **items = dl_arena_alloc(arena, v->item_count * sizeof *items);
        memcpy(items, v->items, v->item_count * sizeof *items);
        copy->items = items;
    }
    copy->items[i] = item;
    return copy;
}

static const char *persist_text(DlArena *to, const char *s) {
    return s ? dl_arena_strdup(to, s) : NULL;
}

static const DlValue *persist(DlArena *to, const DlValue *v, int depth) {
    if (!v || v == &dl_value_unknown) return v;
    if (depth > 32) return &dl_value_unknown; /* nested deeper than any program means */
    DlValue *c = dl_value_copy(to, v);
    c->dev_name = persist_text(to, v->dev_name);
    c->dev_why = persist_text(to, v->dev_why);
    c->var = persist_text(to, v->var);
    c->literal = persist_text(to, v->literal);
    c->elem = persist(to, v->elem, depth + 1);
    c->also = persist(to, v->also, depth + 1);
    if (v->item_count) {
        const DlValue **items = dl_arena_alloc(to, v->item_count * sizeof *items);
        for (uint32_t i = 0; i < v->item_count; i++) items[i] = persist(to, v->items[i], depth + 1);
        c->items = items;
    }
    if (v->entries) {
        DlDictEntries *e = dl_arena_alloc(to, sizeof *e);
        e->count = v->entries->count;
        e->keys = dl_arena_alloc(to, e->count * sizeof *e->keys);
        e->values = dl_arena_alloc(to, e->count * sizeof *e->values);
        for (uint32_t i = 0; i < e->count; i++) {
            e->keys[i] = dl_arena_strdup(to, v->entries->keys[i]);
            e->values[i] = persist(to, v->entries->values[i], depth + 1);
        }
        c->entries = e;
    }
    return c;
}

DlDictEntries *dl_value_entries_copy(DlArena *arena, const DlDictEntries *e) {
    DlDictEntries *c = dl_arena_alloc(arena, sizeof *c);
    *c = *e;
    c->values = dl_arena_alloc(arena, e->count * sizeof *c->values);
    memcpy(c->values, e->values, e->count * sizeof *c->values);
    return c;
}

const DlValue *dl_value_entry(const DlValue *dict, const char *key) {
    const DlDictEntries *e = dict ? dict->entries : NULL;
    for (uint32_t i = 0; e && key && i < e->count; i++)
        if (strcmp(e->keys[i], key) == 0) return e->values[i];
    return NULL;
}

/* The entries of two dicts joined key by key when both have the same keys in the same order
 * (one dict built on two paths), else none known. */
static const DlDictEntries *join_entries(DlArena *arena, const DlDictEntries *a,
                                         const DlDictEntries *b) {
    if (!a || !b || a->count != b->count) return NULL;
    for (uint32_t i = 0; i < a->count; i++)
        if (strcmp(a->keys[i], b->keys[i]) != 0) return NULL;
    DlDictEntries *j = dl_value_entries_copy(arena, a);
    for (uint32_t i = 0; i < a->count; i++)
        j->values[i] = dl_value_join(arena, a->values[i], b->values[i]);
    return j;
}

const DlValue *dl_value_persist(DlArena *to, const DlValue *v) {
    return persist(to, v, 0);
}

static bool str_eq(const char *a, const char *b) {
    return a == b || (a && b && strcmp(a, b) == 0);
}

bool dl_value_same_device(const DlValue *a, const DlValue *b) {
    if (a->dev != b->dev) return false;
    if (a->dev == DL_DEV_NAMED || a->dev == DL_DEV_CUDA) return str_eq(a->dev_name, b->dev_name);
    return true;
}

bool dl_value_equal(const DlValue *a, const DlValue *b) {
    if (a == b) return true;
    return a->kind == b->kind && dl_value_same_device(a, b) && a->flags == b->flags &&
           a->origin == b->origin && a->dev_span.start == b->dev_span.start &&
           a->elem == b->elem && a->cls == b->cls && a->either_cls[0] == b->either_cls[0] &&
           a->either_cls[1] == b->either_cls[1] && a->item_count == b->item_count &&
           a->items == b->items && a->entries == b->entries && str_eq(a->literal, b->literal);
}

const DlValue *dl_value_other_factory(const DlValue *v) {
    return v->also && v->also_with == v->dev_span.start ? v->also : NULL;
}

/* Two factories' tensors met at a join: `j` keeps `a`'s span, and `also` lists `b`'s factory
 * (and those `b` and `a` already listed), each once. */
static void join_other_factory(DlArena *arena, DlValue *j, const DlValue *a, const DlValue *b) {
    const DlValue *others = dl_value_other_factory(a);
    int bound = 8; /* an `elif` chain of factories; more are not worth a finding each */
    for (const DlValue *f = b; f && bound-- > 0; f = dl_value_other_factory(f)) {
        bool listed = f->dev_span.start == a->dev_span.start && f->home == a->home;
        for (const DlValue *o = others; o && !listed; o = dl_value_other_factory(o))
            listed = o->dev_span.start == f->dev_span.start && o->home == f->home;
        if (listed) continue;
        DlValue *link = dl_value_copy(arena, f);
        link->also = others;
        link->also_with = f->dev_span.start;
        others = link;
    }
    j->also = others;
    j->also_with = j->dev_span.start;
}

/* The project classes of two modules that met at a join (`j` of `a` and `b`, whose classes
 * differ): both in `j->either_cls` when they are two known ones, in a stable order; none when
 * either side's class is not known or there would be more than two. */
static void join_classes(DlValue *j, const DlValue *a, const DlValue *b) {
    j->either_cls[0] = j->either_cls[1] = NULL;
    if (a->kind != DL_KIND_MODULE || b->kind != DL_KIND_MODULE) return;
    const void *seen[4];
    uint32_t n = 0;
    const void *sides[4] = {a->cls ? a->cls : a->either_cls[0], a->cls ? NULL : a->either_cls[1],
                            b->cls ? b->cls : b->either_cls[0], b->cls ? NULL : b->either_cls[1]};
    for (int k = 0; k < 4; k++) {
        if (!sides[k]) {
            if (k == 0 || k == 2) return; /* a side of no known class */
            continue;
        }
        bool dup = false;
        for (uint32_t i = 0; i < n; i++) dup |= seen[i] == sides[k];
        if (!dup) seen[n++] = sides[k];
    }
    if (n != 2) return;
    bool ordered = (uintptr_t)seen[0] < (uintptr_t)seen[1];
    j->either_cls[0] = ordered ? seen[0] : seen[1];
    j->either_cls[1] = ordered ? seen[1] : seen[0];
}

const DlValue *dl_value_join(DlArena *arena, const DlValue *a, const DlValue *b) {
    if (!a) return b;
    if (!b) return a;
    if (dl_value_equal(a, b)) return a;
    /* `self.x = None` on one path, a tensor on the other: keep the tensor (lazy init) */
    if (a->kind == DL_KIND_NONE) return b;
    if (b->kind == DL_KIND_NONE) return a;
    if (a->kind != b->kind) return &dl_value_unknown;
    /* a parameter on one path and a plain tensor on the other: what the join says of its place
     * is the plain one's (the parameter moves with its module), so it keeps the plain one's
     * origin (`self.position_biases = torch.zeros(n, n)` if `simple`, else `nn.Parameter(
     * torch.ones(n, n))`: AFT's CPU tensor is the zeros) */
    bool registered_on_one_path =
        a->kind == DL_KIND_TENSOR && ((a->flags ^ b->flags) & DL_VF_REGISTERED);
    const DlValue *plain = a->flags & DL_VF_REGISTERED ? b : a;
    const DlValue *kept = registered_on_one_path ? plain : a, *other = kept == a ? b : a;
    DlValue *j = dl_value_copy(arena, kept);
    j->flags = a->flags & b->flags;
    /* a CPU tensor on one path, one that may be on the CPU on the other */
    if (a->kind == DL_KIND_TENSOR && ((a->flags | b->flags) & DL_VF_MAYBE_CPU) &&
        (a->dev == DL_DEV_CPU || (a->flags & DL_VF_MAYBE_CPU)) &&
        (b->dev == DL_DEV_CPU || (b->flags & DL_VF_MAYBE_CPU)))
        j->flags |= DL_VF_MAYBE_CPU;
    if ((a->flags ^ b->flags) & DL_VF_PINNED) j->flags &= (uint32_t)~DL_VF_PIN_KNOWN; /* unknown */
    /* a list of modules, registered on one path only (`nn.Sequential(*self.ops)` under the
     * `if` that built the list, DSGAN's encoder): the same list, taken for registered */
    bool registered_on_a_path = a->kind == DL_KIND_SEQ && a->dev_span.end &&
                                a->dev_span.start == b->dev_span.start &&
                                a->dev_span.end == b->dev_span.end &&
                                ((a->flags | b->flags) & DL_VF_HANDED_OVER);
    if (registered_on_a_path) j->flags |= DL_VF_HANDED_OVER;
    else if (a->kind == DL_KIND_SEQ) j->flags |= (a->flags | b->flags) & DL_VF_HAS_MODULES;
    /* a parameter on one path, a placeholder on the other (`self.cls_token = nn.Parameter(...)`
     * if a flag says so, else `torch.tensor(0)` or `torch.tensor([])`, which forward does not
     * use then): where the attribute is depends on the path. A plain tensor of data on the other
     * path (`nn.Parameter(t) if train else t`) stays a CPU tensor the module does not move. */
    bool parameter_or_placeholder = registered_on_one_path && (plain->flags & DL_VF_ZERO_DIM);
    if (!dl_value_same_device(a, b) || parameter_or_placeholder) {
        j->dev = DL_DEV_UNKNOWN;
        j->dev_name = NULL;
        j->origin = DL_ORIGIN_NONE;
    } else if (a->origin != b->origin || a->dev_span.start != b->dev_span.start) {
        j->origin = a->origin == b->origin ? a->origin : DL_ORIGIN_NONE;
        if (j->origin == DL_ORIGIN_FACTORY && a->kind == DL_KIND_TENSOR)
            join_other_factory(arena, j, kept, other); /* j is kept's copy */
    }
    if (a->elem != b->elem) {
        /* an empty list on one path, a list of tensors on the other: a list of tensors; but a
         * tuple written out (its items known, no element) on one path says nothing of the
         * other's element: `return anchors, points, counts, strides` on one path and
         * `return points, strides` on the other (YOLOv6's generate_anchors) */
        const DlValue *none = a->elem ? b : a;
        if (!a->elem || !b->elem) j->elem = none->item_count ? NULL : a->elem ? a->elem : b->elem;
        else j->elem = dl_value_join(arena, a->elem, b->elem);
    }
    if (a->items != b->items) {
        /* the same tuple built on two paths, or in two rounds of a loop (`traj.append((valid,
         * coords, kl))` each step): item by item; `return x, y` on one path and `return x, y,
         * dx` on the other (drqa_doc_reader's `__getitem__`): the positions both have, each
         * joined, unpacked into more names it says nothing of any */
        uint32_t n = a->items && b->items
                         ? (a->item_count < b->item_count ? a->item_count : b->item_count)
                         : 0;
        if (n > 16) n = 16;
        const DlValue **items = n ? dl_arena_alloc(arena, n * sizeof *items) : NULL;
        for (uint32_t i = 0; i < n; i++)
            items[i] = dl_value_join(arena, a->items[i], b->items[i]);
        j->items = items;
        j->item_count = n;
    }
    if (a->cls != b->cls || a->either_cls[0] != b->either_cls[0] ||
        a->either_cls[1] != b->either_cls[1]) {
        j->cls = a->cls == b->cls ? a->cls : NULL;
        if (!j->cls) join_classes(j, a, b);
    }
    if (!str_eq(a->literal, b->literal)) j->literal = NULL; /* "cpu" on one path, "cuda" on the other */
    if (a->entries != b->entries) j->entries = join_entries(arena, a->entries, b->entries);
    return j;
}

bool dl_value_is_cpu_tensor(const DlValue *v) {
    return v && v->kind == DL_KIND_TENSOR && v->dev == DL_DEV_CPU && !(v->flags & DL_VF_ZERO_DIM);
}

bool dl_value_in_pageable_memory(const DlValue *v) {
    return v && v->kind == DL_KIND_TENSOR && v->dev == DL_DEV_CPU &&
           (v->flags & DL_VF_PIN_KNOWN) && !(v->flags & DL_VF_PINNED);
}

static bool any_part(const DlValue *v, bool (*match)(const DlValue *), int depth) {
    if (!v || depth > 4) return false;
    if (match(v)) return true;
    if (v->kind != DL_KIND_SEQ) return false;
    if (any_part(v->elem, match, depth + 1)) return true;
    for (uint32_t i = 0; i < v->item_count; i++)
        if (any_part(v->items[i], match, depth + 1)) return true;
    return false;
}

bool dl_value_any_part(const DlValue *v, bool (*match)(const DlValue *)) {
    return any_part(v, match, 0);
}

bool dl_value_on_device(const DlValue *v) {
    return v && (v->dev == DL_DEV_CUDA || v->dev == DL_DEV_NAMED || v->dev == DL_DEV_MODULE ||
                 v->dev == DL_DEV_META);
}

bool dl_value_on_kernel_device(const DlValue *v) {
    return dl_value_on_device(v) && v->dev != DL_DEV_META;
}

const char *dl_device_text(DlArena *arena, const DlValue *v) {
    switch (v->dev) {
    case DL_DEV_CPU: return "the cpu";
    case DL_DEV_CUDA: return dl_arena_strdup(arena, v->dev_name ? v->dev_name : "cuda");
    case DL_DEV_META: return "meta";
    case DL_DEV_NAMED: return dl_arena_strdup(arena, v->dev_name ? v->dev_name : "a device");
    case DL_DEV_MODULE: return "the module's device";
    default: return "an unknown device";
    }
}

bool dl_is_accelerator_type_name(const char *name) {
    static const char *const types[] = {"mps", "xpu", "npu", "hpu", "xla", "mtia", NULL};
    if (!name) return false;
    for (int i = 0; types[i]; i++) {
        size_t n = strlen(types[i]);
        if (strncmp(name, types[i], n) == 0 && (name[n] == '\0' || name[n] == ':')) return true;
    }
    return false;
}

bool dl_value_module_on_gpu_index(const DlValue *v) {
    return v->kind == DL_KIND_MODULE && (v->flags & DL_VF_MOVED) && v->dev == DL_DEV_CUDA &&
           v->dev_name && strchr(v->dev_name, ':');
}
