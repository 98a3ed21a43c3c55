/* The abstract state of the interpreter: names ("x", "self.mask") bound to values, copied at
 * branches, joined where paths meet (see flow_internal.h). */
#include "dataflow/flow_internal.h"

DlFlowState *flow_state_new(void) {
    DlFlowState *s = calloc(1, sizeof *s);
    if (!s) abort();
    return s;
}

void dl_flow_state_free(DlFlowState *s) {
    if (!s) return;
    free(s->items);
    free(s->slots);
    free(s);
}

DlFlowState *flow_state_copy(const DlFlowState *s) {
    DlFlowState *c = flow_state_new();
    c->dead = s->dead;
    c->count = s->count;
    c->cap = s->cap;
    if (s->cap) {
        c->items = malloc(s->cap * sizeof(Binding));
        c->slots = malloc(2 * s->cap * sizeof *c->slots);
        if (!c->items || !c->slots) abort();
        memcpy(c->items, s->items, s->count * sizeof(Binding));
        memcpy(c->slots, s->slots, 2 * s->cap * sizeof *c->slots);
    }
    return c;
}

uint32_t flow_key_hash(const char *key) { /* FNV-1a */
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++) h = (h ^ *p) * 16777619u;
    return h;
}

/* Probing from slot i on, keys compared by their text (kept out of line: see find_hashed). */
__attribute__((noinline)) static Binding *find_by_text(const DlFlowState *s, const char *key,
                                                       uint32_t hash, uint32_t i) {
    uint32_t mask = 2 * s->cap - 1;
    for (;; i = (i + 1) & mask) {
        uint32_t slot = s->slots[i];
        if (!slot) return NULL;
        Binding *b = &s->items[slot - 1];
        if (b->hash == hash && strcmp(b->key, key) == 0) return b;
    }
}

/* Names are interned, so a key is most often the very pointer bound: the probe loop compares
 * pointers and calls nothing (no stack frame); a hash that matches another pointer goes on
 * by text in find_by_text. */
static Binding *find_hashed(const DlFlowState *s, const char *key, uint32_t hash) {
    if (!s->cap) return NULL;
    uint32_t mask = 2 * s->cap - 1; /* cap is a power of two, the index at most half full */
    for (uint32_t i = hash & mask;; i = (i + 1) & mask) {
        uint32_t slot = s->slots[i];
        if (!slot) return NULL;
        Binding *b = &s->items[slot - 1];
        if (b->hash == hash) return b->key == key ? b : find_by_text(s, key, hash, i);
    }
}

Binding *flow_state_find(const DlFlowState *s, const char *key) {
    return find_hashed(s, key, flow_key_hash(key));
}

Binding *flow_state_find_hashed(const DlFlowState *s, const char *key, uint32_t hash) {
    return find_hashed(s, key, hash);
}

static void index_binding(DlFlowState *s, uint32_t position) {
    uint32_t mask = 2 * s->cap - 1;
    uint32_t i = s->items[position].hash & mask;
    while (s->slots[i]) i = (i + 1) & mask;
    s->slots[i] = position + 1;
}

/* Binds a key that is not bound yet. */
static void append(DlFlowState *s, const char *key, uint32_t hash, const DlValue *v) {
    if (s->count == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 16;
        s->items = realloc(s->items, s->cap * sizeof(Binding));
        free(s->slots);
        s->slots = calloc(2 * s->cap, sizeof *s->slots);
        if (!s->items || !s->slots) abort();
        for (uint32_t i = 0; i < s->count; i++) index_binding(s, i);
    }
    s->items[s->count] = (Binding){key, hash, v};
    index_binding(s, s->count++);
}

void flow_state_set(DlFlowState *s, const char *key, const DlValue *v) {
    uint32_t hash = flow_key_hash(key);
    Binding *b = find_hashed(s, key, hash);
    if (b)
        b->value = v;
    else
        append(s, key, hash, v);
}

void flow_state_forget_parts(DlFlowState *s, const char *name) {
    size_t n = strlen(name);
    for (uint32_t i = 0; i < s->count; i++) {
        const char *k = s->items[i].key;
        if (k[0] == name[0] && s->items[i].value && strncmp(k, name, n) == 0 &&
            (k[n] == '[' || k[n] == '.'))
            s->items[i].value = NULL;
    }
}

/* The device a value names: a torch.device / device string value, or a string literal that is
 * a device's name ("cuda", "cpu"); UNKNOWN otherwise. */
static DlDeviceTag device_named_by(const DlValue *v, const char **name) {
    *name = v->dev_name;
    if (v->kind == DL_KIND_DEVICE) return v->dev;
    if (v->kind != DL_KIND_STRING || !v->literal) return DL_DEV_UNKNOWN;
    *name = v->literal;
    DlDeviceTag tag = flow_device_of_string(v->literal);
    return tag;
}

/* `if torch.cuda.is_available(): device = "cuda"` / `else: device = "cpu"`: where the paths
 * meet, `device` holds the device chosen at run time, as `"cuda" if ... else "cpu"` does;
 * NULL when `a` and `b` do not name two different devices. */
static const DlValue *device_chosen_at_run_time(DlArena *arena, const char *key,
                                                const DlValue *a, const DlValue *b) {
    const char *name_a, *name_b;
    DlDeviceTag ta = device_named_by(a, &name_a), tb = device_named_by(b, &name_b);
    if (!ta || !tb) return NULL;
    if (ta == tb && (ta == DL_DEV_CPU || ta == DL_DEV_META || ta == DL_DEV_MODULE ||
                     (name_a && name_b && strcmp(name_a, name_b) == 0)))
        return NULL;
    const DlValue *shown = ta == DL_DEV_CPU ? b : a; /* where it gets its accelerator */
    DlValue *d = dl_value_new(arena, DL_KIND_DEVICE);
    d->dev = DL_DEV_NAMED;
    d->dev_name = key;
    /* `device = tensor.device` on one path, the CPU on the other (mmdetection3d's boxes and
     * points): the device of what `tensor` is, which a caller passing CPU data decides
     * (flow_bind_parameter_device reads the name) */
    if (shown->dev == DL_DEV_NAMED && flow_device_owner_length(shown->dev_name))
        d->dev_name = shown->dev_name;
    d->dev_span = shown->dev_span;
    d->dev_why = shown->dev_why;
    d->home = shown->home;
    return d;
}

/* Pending device work on two paths: what may be pending on either. Work queued before a loop
 * and not waited for on one path stays so marked (the join of values keeps a flag only where
 * both paths have it): the loop's body did not wait on every path. */
static const DlValue *join_pending_work(DlArena *arena, const DlValue *a, const DlValue *b) {
    const DlValue *j = dl_value_join(arena, a, b);
    bool either = (a->flags | b->flags) & DL_VF_QUEUED_BEFORE_LOOP;
    if (!either || (j->flags & DL_VF_QUEUED_BEFORE_LOOP)) return j;
    DlValue *marked = dl_value_copy(arena, j);
    marked->flags |= DL_VF_QUEUED_BEFORE_LOOP;
    return marked;
}

/* A flag an attribute was set to on one path only (`if not torch.cuda.is_available():
 * args.use_gpu = False`, cross-modal-autoencoders): on the other path the attribute still holds
 * what it was given elsewhere (parse_args' default), which this state never bound. */
static bool flag_of_an_attribute(const char *key, const DlValue *v) {
    return v && v->kind == DL_KIND_SCALAR && v->literal && strchr(key, '.') && key[0] != '<';
}

/* into = join(into, other). Keys bound on one side only keep that side's value: reading an
 * unbound name would raise anyway (an attribute's flag excepted: flag_of_an_attribute). */
void flow_state_join(DlArena *arena, DlFlowState *into, const DlFlowState *other) {
    if (other->dead) return;
    if (into->dead) {
        DlFlowState *c = flow_state_copy(other);
        free(into->items);
        free(into->slots);
        *into = *c;
        free(c);
        return;
    }
    for (uint32_t i = 0; i < other->count; i++) {
        Binding *b = find_hashed(into, other->items[i].key, other->items[i].hash);
        if (!b) {
            const DlValue *v = other->items[i].value;
            append(into, other->items[i].key, other->items[i].hash,
                   flag_of_an_attribute(other->items[i].key, v) ? NULL : v);
        } else if (b->value != other->items[i].value) {
            if (flow_streq(b->key, "<device-work>") || flow_streq(b->key, "<unread-work>")) {
                /* pending device work is a "may" fact: a loop body that queues work leaves it
                 * pending after the loop */
                const DlValue *before = flow_unread_before_the_loop();
                const DlValue *upload = flow_unread_upload_marker();
                if (!b->value || (b->value == upload && other->items[i].value))
                    b->value = other->items[i].value; /* an upload: less than any other */
                else if (other->items[i].value == upload)
                    ; /* b's is at least as much */
                else if (b->value == before || other->items[i].value == before)
                    b->value = other->items[i].value ? flow_unread_work_marker() : b->value;
                else if (other->items[i].value)
                    b->value = join_pending_work(arena, b->value, other->items[i].value);
            } else if (!b->value || !other->items[i].value) {
                b->value = NULL;
            } else {
                const DlValue *chosen =
                    device_chosen_at_run_time(arena, b->key, b->value, other->items[i].value);
                b->value = chosen ? chosen
                                  : dl_value_join(arena, b->value, other->items[i].value);
            }
        }
    }
    for (uint32_t i = 0; i < into->count; i++) {
        Binding *b = &into->items[i];
        if (flag_of_an_attribute(b->key, b->value) && !find_hashed(other, b->key, b->hash))
            b->value = NULL;
    }
}

/* `if use_cuda: x = x.cuda()` (`use_cuda = torch.cuda.is_available()`): without a GPU nothing
 * meets another device or waits for one, so what the GPU path placed is what to check. */
void flow_state_prefer_the_gpu_path(DlFlowState *cpu_path, const DlFlowState *gpu_path) {
    if (cpu_path->dead || gpu_path->dead) return;
    for (uint32_t i = 0; i < gpu_path->count; i++) {
        const DlValue *v = gpu_path->items[i].value;
        if (!v || !(flow_is_tensor(v) || flow_is_module_like(v)) || !dl_value_on_device(v))
            continue;
        Binding *o = find_hashed(cpu_path, gpu_path->items[i].key, gpu_path->items[i].hash);
        if (o && o->value && o->value != v && o->value->dev == DL_DEV_CPU) o->value = v;
    }
}

/* `if not torch.cuda.is_available(): device = "cpu"` with nothing bound on the other path
 * (learning3d's MaskNet): the name is the CPU only where there is no GPU, and there the module
 * and its inputs are too; past the `if` it says nothing of where they are. */
void flow_state_forget_the_cpu_bound_only_without_cuda(DlFlowState *cpu_path,
                                                      const DlFlowState *gpu_path) {
    if (cpu_path->dead || gpu_path->dead) return;
    for (uint32_t i = 0; i < cpu_path->count; i++) {
        Binding *b = &cpu_path->items[i];
        const char *name;
        if (!b->value || find_hashed(gpu_path, b->key, b->hash)) continue;
        if (device_named_by(b->value, &name) == DL_DEV_CPU) b->value = NULL;
    }
}

bool flow_state_equal(const DlFlowState *a, const DlFlowState *b) {
    if (a->dead != b->dead || a->count != b->count) return false;
    for (uint32_t i = 0; i < a->count; i++) {
        Binding *o = find_hashed(b, a->items[i].key, a->items[i].hash);
        if (!o) return false;
        if (o->value == a->items[i].value) continue;
        if (!o->value || !a->items[i].value || !dl_value_equal(o->value, a->items[i].value))
            return false;
    }
    return true;
}

void flow_state_replace(DlFlowState *into, DlFlowState *from) {
    free(into->items);
    free(into->slots);
    *into = *from;
    free(from);
}

const DlValue *dl_flow_lookup(const DlFlowState *s, const char *key) {
    if (!s) return NULL; /* a file that was not analysed has no state */
    Binding *b = flow_state_find(s, key);
    return b ? b->value : NULL;
}

uint32_t dl_flow_self_attrs(const DlFlowState *s, DlArena *arena, DlAttr **out) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->count; i++)
        if (strncmp(s->items[i].key, "self.", 5) == 0 && !strchr(s->items[i].key + 5, '.') &&
            s->items[i].value)
            n++;
    *out = n ? dl_arena_alloc(arena, n * sizeof(DlAttr)) : NULL;
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->count; i++)
        if (strncmp(s->items[i].key, "self.", 5) == 0 && !strchr(s->items[i].key + 5, '.') &&
            s->items[i].value)
            (*out)[k++] = (DlAttr){dl_arena_strdup(arena, s->items[i].key + 5), s->items[i].value};
    return n;
}
