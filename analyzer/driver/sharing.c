/* Which files other files may read (see sharing.h). Two passes over the text, both on the
 * worker threads: the first finds what each file defines (`def name`, `class Name`, at the
 * start of a line), the second looks every identifier of every file up in the table of those
 * names and notes who mentions each. */
#include "driver/sharing.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/hash.h"
#include "core/pool.h"
#include "core/vec.h"
#include "frontend/python.h"

/* A name some file defines: a module, a class or a function (one entry may be all three). */
typedef struct Name {
    const char *text; /* NUL-terminated, in DlSharing.arena */
    uint32_t len, hash;
    bool is_module, is_class, is_function;
    int32_t mentioner;    /* the first file that mentions it other than by defining it; -1 none */
    bool mentioned_twice; /* and a second file does too */
} Name;

typedef struct Token {
    uint32_t start, len;
} Token;

typedef struct FileScan {
    const DlSource *source;
    const char *module;
    DL_VEC(Token) classes;
    DL_VEC(Token) functions;
    bool shared, mentions_devices;
} FileScan;

enum { FILTER_BITS = 1 << 20 }; /* 128 KiB: stays in cache while every identifier is tested */

struct DlSharing {
    DlArena arena;
    Name *names;
    uint32_t cap, count; /* cap: a power of two */
    uint64_t *filter;    /* bit (hash >> 12) % FILTER_BITS set for every name: most identifiers of a
                            file name nothing defined in the project and stop here */
    FileScan *files;
    size_t file_count;
    DlInterner mentioned_functions;
    uint64_t mentioned_hash; /* of that set, whatever the order of its names */
};

/* ---------------------------------------------------------------- characters and tokens */

/* Identifier characters: letters, digits, '_' and (conservatively) every non-ASCII byte. */
static const bool word_char[256] = {
    ['0' ... '9'] = true, ['A' ... 'Z'] = true,   ['a' ... 'z'] = true,
    ['_'] = true,         [0x80 ... 0xff] = true,
};

static bool is_word(unsigned char c) {
    return word_char[c];
}

enum { HASH_SEED = 2166136261u, HASH_PRIME = 16777619u }; /* FNV-1a */

static uint32_t hash_text(const char *s, size_t len) {
    uint32_t h = HASH_SEED;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * HASH_PRIME;
    return h;
}

static uint32_t filter_bit(uint32_t hash) {
    return (hash >> 12) & (FILTER_BITS - 1);
}

/* The identifier at `at` (which starts one), and its length. */
static size_t word_length(const char *text, size_t len, size_t at) {
    size_t end = at;
    while (end < len && is_word((unsigned char)text[end]))
        end++;
    return end - at;
}

static bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\f'; /* Python's indentation may hold form feeds */
}

static bool keyword_at(const char *text, size_t len, size_t at, const char *kw, size_t kwlen) {
    return at + kwlen < len && memcmp(text + at, kw, kwlen) == 0 &&
           is_blank(text[at + kwlen]);
}

static size_t skip_blanks(const char *text, size_t len, size_t at) {
    while (at < len && is_blank(text[at]))
        at++;
    return at;
}

/* ---------------------------------------------------------------- pass 1: definitions */

/* `def name` / `async def name` / `class Name` at the start of a line (after its indentation).
 * Lines inside strings count too: a definition too many only makes a file shared. */
static void find_definitions(FileScan *f) {
    const char *text = f->source->text;
    size_t len = f->source->len;
    for (size_t at = 0; at < len;) {
        at = skip_blanks(text, len, at);
        if (keyword_at(text, len, at, "async", 5)) at = skip_blanks(text, len, at + 5);
        bool is_def = keyword_at(text, len, at, "def", 3);
        bool is_class = !is_def && keyword_at(text, len, at, "class", 5);
        if (is_def || is_class) {
            size_t name = skip_blanks(text, len, at + (is_def ? 3 : 5));
            size_t n = name < len && !(text[name] >= '0' && text[name] <= '9')
                           ? word_length(text, len, name)
                           : 0;
            if (n) {
                Token t = {(uint32_t)name, (uint32_t)n};
                if (is_def)
                    dl_vec_push(&f->functions, t);
                else
                    dl_vec_push(&f->classes, t);
            }
        }
        const char *nl = memchr(text + at, '\n', len - at);
        at = nl ? (size_t)(nl - text) + 1 : len;
    }
}

static void scan_definitions(void *ctx, size_t index) {
    FileScan *f = &((DlSharing *)ctx)->files[index];
    if (!f->source) return;
    find_definitions(f);
    f->mentions_devices = dl_python_mentions_devices(f->source);
}

/* ---------------------------------------------------------------- the table of names */

static Name *slot_of(const DlSharing *s, const char *text, size_t len, uint32_t hash) {
    for (uint32_t i = hash & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
        Name *n = &s->names[i];
        if (!n->text || (n->hash == hash && n->len == len && memcmp(n->text, text, len) == 0))
            return n;
    }
}

static void grow(DlSharing *s) {
    uint32_t old_cap = s->cap;
    Name *old = s->names;
    s->cap = old_cap ? old_cap * 2 : 1024;
    s->names = calloc(s->cap, sizeof *s->names);
    if (!s->names) abort();
    for (uint32_t i = 0; i < old_cap; i++)
        if (old[i].text) *slot_of(s, old[i].text, old[i].len, old[i].hash) = old[i];
    free(old);
}

static Name *add_name(DlSharing *s, const char *text, size_t len) {
    if ((s->count + 1) * 2 > s->cap) grow(s);
    uint32_t hash = hash_text(text, len);
    Name *n = slot_of(s, text, len, hash);
    if (!n->text) {
        n->text = dl_arena_strndup(&s->arena, text, len);
        n->len = (uint32_t)len;
        n->hash = hash;
        n->mentioner = -1;
        s->count++;
    }
    return n;
}

static Name *find_hashed(const DlSharing *s, const char *text, size_t len, uint32_t hash) {
    if (!s->count) return NULL;
    Name *n = slot_of(s, text, len, hash);
    return n->text ? n : NULL;
}

static Name *find_name(const DlSharing *s, const char *text, size_t len) {
    return find_hashed(s, text, len, hash_text(text, len));
}

/* ---------------------------------------------------------------- pass 2: mentions */

static void note_mention(Name *n, int32_t file) {
    int32_t first = __atomic_load_n(&n->mentioner, __ATOMIC_RELAXED);
    if (first == file) return;
    if (first == -1 && __atomic_compare_exchange_n(&n->mentioner, &first, file, false,
                                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return;
    if (first != file && !__atomic_load_n(&n->mentioned_twice, __ATOMIC_RELAXED))
        __atomic_store_n(&n->mentioned_twice, true, __ATOMIC_RELAXED);
}

static void scan_mentions(void *ctx, size_t index) {
    DlSharing *s = ctx;
    const FileScan *f = &s->files[index];
    if (!f->source) return;
    const unsigned char *text = (const unsigned char *)f->source->text;
    size_t len = f->source->len;
    bool defining = false; /* the previous word was `def` or `class`: this one is defined */
    for (size_t at = 0; at < len;) {
        unsigned char c = text[at];
        if (!word_char[c]) {
            at++;
            continue;
        }
        size_t start = at;
        uint32_t hash = HASH_SEED;
        for (; at < len && word_char[text[at]]; at++)
            hash = (hash ^ text[at]) * HASH_PRIME;
        size_t n = at - start;
        if (c >= '0' && c <= '9') continue; /* a number (1e5, 0x1f): not a name */
        bool was_defining = defining;
        defining = (n == 3 && memcmp(text + start, "def", 3) == 0) ||
                   (n == 5 && memcmp(text + start, "class", 5) == 0);
        uint32_t bit = filter_bit(hash);
        if (was_defining || !(s->filter[bit / 64] >> (bit % 64) & 1)) continue;
        Name *name = find_hashed(s, (const char *)text + start, n, hash);
        if (name) note_mention(name, (int32_t)index);
    }
}

/* ---------------------------------------------------------------- the decision */

static bool mentioned_by_another(const Name *n, int32_t file) {
    int32_t first = __atomic_load_n(&n->mentioner, __ATOMIC_RELAXED);
    return n->mentioned_twice || (first != -1 && first != file);
}

DlSharing *dl_sharing_scan(const DlSource *const *sources, char *const *paths, size_t count,
                           int threads) {
    DlSharing *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->files = calloc(count ? count : 1, sizeof *s->files);
    if (!s->files) abort();
    dl_arena_init(&s->arena);
    s->file_count = count;
    for (size_t i = 0; i < count; i++)
        s->files[i].source = sources[i];
    dl_parallel_for(count, threads, scan_definitions, s);

    for (size_t i = 0; i < count; i++) {
        FileScan *f = &s->files[i];
        if (!f->source) continue;
        f->module = dl_python_module_name(&s->arena, paths[i]);
        add_name(s, f->module, strlen(f->module))->is_module = true;
        for (size_t k = 0; k < f->classes.len; k++)
            add_name(s, f->source->text + f->classes.items[k].start, f->classes.items[k].len)
                ->is_class = true;
        for (size_t k = 0; k < f->functions.len; k++)
            add_name(s, f->source->text + f->functions.items[k].start, f->functions.items[k].len)
                ->is_function = true;
    }
    s->filter = calloc(FILTER_BITS / 64, sizeof *s->filter);
    if (!s->filter) abort();
    for (uint32_t i = 0; i < s->cap; i++)
        if (s->names[i].text) {
            uint32_t bit = filter_bit(s->names[i].hash);
            s->filter[bit / 64] |= (uint64_t)1 << (bit % 64);
        }
    dl_parallel_for(count, threads, scan_mentions, s);

    for (size_t i = 0; i < count; i++) {
        FileScan *f = &s->files[i];
        if (!f->source) continue;
        /* through its module name, even by itself (`import model` in model.py) */
        const Name *module = find_name(s, f->module, strlen(f->module));
        f->shared = module && module->mentioner != -1;
        for (size_t k = 0; k < f->classes.len && !f->shared; k++) {
            const Name *cls =
                find_name(s, f->source->text + f->classes.items[k].start, f->classes.items[k].len);
            f->shared = cls && mentioned_by_another(cls, (int32_t)i);
        }
        dl_vec_free(&f->classes);
        dl_vec_free(&f->functions);
        f->source = NULL; /* nothing reads the text again */
    }
    dl_interner_init(&s->mentioned_functions, NULL);
    for (uint32_t i = 0; i < s->cap; i++) {
        const Name *n = &s->names[i];
        if (!n->text || !n->is_function || n->mentioner == -1) continue;
        dl_interner_add(&s->mentioned_functions, n->text);
        s->mentioned_hash += dl_hash_bytes(n->text, n->len, 7); /* a sum: any order */
    }
    return s;
}

void dl_sharing_free(DlSharing *s) {
    if (!s) return;
    dl_interner_free(&s->mentioned_functions);
    free(s->names);
    free(s->filter);
    free(s->files);
    dl_arena_release(&s->arena);
    free(s);
}

bool dl_sharing_is_shared(const DlSharing *s, size_t i) {
    return i < s->file_count && s->files[i].shared;
}

const DlInterner *dl_sharing_mentioned_functions(const DlSharing *s) {
    return &s->mentioned_functions;
}

uint64_t dl_sharing_mentioned_functions_hash(const DlSharing *s) {
    return s->mentioned_hash;
}

bool dl_sharing_mentions_devices(const DlSharing *s, size_t i) {
    return i < s->file_count && s->files[i].mentions_devices;
}
