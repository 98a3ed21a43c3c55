#include "core/intern.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_of(const char *s, size_t len) {
    uint32_t h = 2166136261u; /* FNV-1a: names are short */
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

void dl_interner_init(DlInterner *t, DlArena *arena) {
    memset(t, 0, sizeof *t);
    t->arena = arena;
}

void dl_interner_free(DlInterner *t) {
    free(t->slots);
    t->slots = NULL;
    t->cap = t->count = 0;
}

static void grow(DlInterner *t) {
    uint32_t cap = t->cap ? t->cap * 2 : 256;
    DlInternEntry *slots = calloc(cap, sizeof *slots);
    if (!slots) abort();
    for (uint32_t i = 0; i < t->cap; i++) {
        const DlInternEntry *e = &t->slots[i];
        if (!e->text) continue;
        uint32_t j = e->hash & (cap - 1);
        while (slots[j].text) j = (j + 1) & (cap - 1);
        slots[j] = *e;
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
}

static DlInternEntry *find(const DlInterner *t, const char *s, size_t len, uint32_t h) {
    if (!t->cap) return NULL;
    for (uint32_t j = h & (t->cap - 1);; j = (j + 1) & (t->cap - 1)) {
        DlInternEntry *e = &t->slots[j];
        if (!e->text) return e;
        if (e->hash == h && e->len == len && memcmp(e->text, s, len) == 0) return e;
    }
}

/* copy: a new entry's text is copied into the arena (else `s` itself is kept) */
static DlInternEntry *insert(DlInterner *t, const char *s, size_t len, uint32_t h, bool copy) {
    if ((t->count + 1) * 2 > t->cap) grow(t);
    DlInternEntry *e = find(t, s, len, h);
    if (!e->text) {
        e->text = copy && t->arena ? dl_arena_strndup(t->arena, s, len) : s;
        e->len = (uint32_t)len;
        e->hash = h;
        t->count++;
    }
    return e;
}

const char *dl_intern(DlInterner *t, const char *s, size_t len, bool referenced) {
    DlInternEntry *e = insert(t, s, len, hash_of(s, len), true);
    e->referenced |= referenced;
    return e->text;
}

void dl_interner_add(DlInterner *t, const char *s) {
    size_t len = strlen(s);
    insert(t, s, len, hash_of(s, len), false)->referenced = true;
}

void dl_interner_add_all(DlInterner *into, const DlInterner *from) {
    for (uint32_t i = 0; i < from->cap; i++) {
        const DlInternEntry *e = &from->slots[i];
        if (e->text) insert(into, e->text, e->len, e->hash, false)->referenced = true;
    }
}

bool dl_interner_contains(const DlInterner *t, const char *s) {
    size_t len = strlen(s);
    const DlInternEntry *e = find(t, s, len, hash_of(s, len));
    return e && e->text;
}

const char **dl_interner_referenced(const DlInterner *t, DlArena *arena, uint32_t *count) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->cap; i++) n += t->slots[i].text && t->slots[i].referenced;
    const char **out = dl_arena_alloc(arena, (n ? n : 1) * sizeof *out);
    n = 0;
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->slots[i].text && t->slots[i].referenced) out[n++] = t->slots[i].text;
    *count = n;
    return out;
}
