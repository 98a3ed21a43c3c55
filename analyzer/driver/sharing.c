/* Which files other files may read (see sharing.h). Each file is scanned once, while its text
 * is at hand (dl_sharing_file_scan): what it defines (`def name`, `class Name` at the start of
 * a line) and the set of identifiers it uses, kept as 32-bit hashes. The decision
 * (dl_sharing_decide) needs no text: it looks every file's identifier hashes up in the table of
 * the names the project defines and notes who mentions each. Two names with the same hash can
 * only make a file look mentioned when it is not: a file too many is shared, never one too few
 * left out. The same table then tells which files may place DataLoader marks (sharing_marks.c)
 * and what each file's names may find (sharing_names.c). */
#include "driver/sharing.h"
#include "driver/sharing_table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/hash.h"
#include "core/pool.h"
#include "core/vec.h"
#include "driver/module_refs.h"
#include "frontend/python.h"

/* ---------------------------------------------------------------- characters and hashes */

/* Identifier characters: letters, digits, '_' and (conservatively) every non-ASCII byte. */
static const bool word_char[256] = {
    ['0' ... '9'] = true, ['A' ... 'Z'] = true,   ['a' ... 'z'] = true,
    ['_'] = true,         [0x80 ... 0xff] = true,
};

static size_t word_length(const char *text, size_t len, size_t at) {
    size_t end = at;
    while (end < len && word_char[(unsigned char)text[end]])
        end++;
    return end - at;
}

static bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\f'; /* Python's indentation may hold form feeds */
}

static bool keyword_at(const char *text, size_t len, size_t at, const char *kw, size_t kwlen) {
    return at + kwlen < len && memcmp(text + at, kw, kwlen) == 0 && is_blank(text[at + kwlen]);
}

static size_t skip_blanks(const char *text, size_t len, size_t at) {
    while (at < len && is_blank(text[at]))
        at++;
    return at;
}

/* ---------------------------------------------------------------- one file, with its text */

typedef DL_VEC(char) CharVec;

static void add_definition(CharVec *names, const char *name, size_t n) {
    for (size_t i = 0; i < n; i++)
        dl_vec_push(names, name[i]);
    dl_vec_push(names, '\0');
}

/* `def name` / `async def name` / `class Name` at the start of a line (after its indentation).
 * Lines inside strings count too: a definition too many only makes a file shared. */
static void find_definitions(DlSharingFile *f, const DlSource *src) {
    const char *text = src->text;
    size_t len = src->len;
    CharVec classes = {0}, functions = {0};
    /* the functions whose parameters default to the CPU (sharing_callers.c), looked for only
     * where the text holds a quoted "cpu" (`.cpu()` is no literal) */
    DlCpuDefaults cpu = {.wanted = dl_source_mentions(src, "\"cpu") ||
                                   dl_source_mentions(src, "'cpu")};
    for (size_t at = 0; at < len;) {
        size_t line = at;
        at = skip_blanks(text, len, at);
        bool unindented = at == line; /* (before an `async`) */
        char first = at < len ? text[at] : '\0'; /* most lines start with none of a, c, d */
        if (first == 'a' && keyword_at(text, len, at, "async", 5)) {
            at = skip_blanks(text, len, at + 5);
            first = at < len ? text[at] : '\0';
        }
        bool is_def = first == 'd' && keyword_at(text, len, at, "def", 3);
        bool is_class = first == 'c' && keyword_at(text, len, at, "class", 5);
        if (is_def || is_class) {
            size_t name = skip_blanks(text, len, at + (is_def ? 3 : 5));
            size_t n = name < len && !(text[name] >= '0' && text[name] <= '9')
                           ? word_length(text, len, name)
                           : 0;
            if (n && is_def) {
                add_definition(&functions, text + name, n);
                f->function_count++;
                if (cpu.wanted) dl_sharing_note_cpu_default(&cpu, text, len, name, n, unindented);
            } else if (n) {
                add_definition(&classes, text + name, n);
                f->class_count++;
            }
        }
        const char *nl = memchr(text + at, '\n', len - at);
        at = nl ? (size_t)(nl - text) + 1 : len;
    }
    /* one block: the class names, then the function names */
    f->names = malloc(classes.len + functions.len + 1);
    if (!f->names) abort();
    if (classes.len) memcpy(f->names, classes.items, classes.len);
    if (functions.len) memcpy(f->names + classes.len, functions.items, functions.len);
    dl_vec_free(&classes);
    dl_vec_free(&functions);
    dl_sharing_keep_cpu_defaults(f, &cpu);
}

/* A set of 32-bit hashes (open addressing; 0 stands for "empty", the hash 0 is kept apart). */
typedef struct HashSet {
    uint32_t *slots;
    uint32_t cap, count; /* cap: a power of two */
    bool has_zero;
} HashSet;

static void hash_set_put(HashSet *set, uint32_t hash) {
    uint32_t i = hash & (set->cap - 1);
    while (set->slots[i])
        i = (i + 1) & (set->cap - 1);
    set->slots[i] = hash;
}

static void hash_set_grow(HashSet *set) {
    HashSet old = *set;
    set->cap = old.cap ? old.cap * 2 : 1024;
    set->slots = calloc(set->cap, sizeof *set->slots);
    if (!set->slots) abort();
    for (uint32_t k = 0; k < old.cap; k++)
        if (old.slots[k]) hash_set_put(set, old.slots[k]);
    free(old.slots);
}

/* Adds `hash`; whether it was new. */
static bool hash_set_add(HashSet *set, uint32_t hash) {
    if (!hash) {
        bool added = !set->has_zero;
        set->has_zero = true;
        return added;
    }
    uint32_t i = hash & (set->cap - 1);
    while (set->slots[i] && set->slots[i] != hash)
        i = (i + 1) & (set->cap - 1);
    if (set->slots[i]) return false;
    set->slots[i] = hash;
    if (++set->count * 2 > set->cap) hash_set_grow(set);
    return true;
}

/* The distinct hashes of the identifiers the file uses, not counting the name a `def` or
 * `class` defines. */
static void find_mentions(DlSharingFile *f, const DlSource *src) {
    const unsigned char *text = (const unsigned char *)src->text;
    size_t len = src->len;
    DL_VEC(uint32_t) found = {0};
    HashSet set = {0};
    hash_set_grow(&set);
    bool defining = false; /* the previous word was `def` or `class`: this one is defined */
    for (size_t at = 0; at < len;) {
        unsigned char c = text[at];
        if (!word_char[c]) {
            at++;
            continue;
        }
        size_t start = at;
        uint32_t hash = DL_NAME_HASH_SEED; /* dl_name_hash, inline */
        for (; at < len && word_char[text[at]]; at++)
            hash = (hash ^ text[at]) * DL_NAME_HASH_PRIME;
        size_t n = at - start;
        if (c >= '0' && c <= '9') continue; /* a number (1e5, 0x1f): not a name */
        bool was_defining = defining;
        const unsigned char *w = text + start;
        defining = (n == 3 && w[0] == 'd' && w[1] == 'e' && w[2] == 'f') ||
                   (n == 5 && w[0] == 'c' && memcmp(w, "class", 5) == 0);
        if (!was_defining && hash_set_add(&set, hash)) dl_vec_push(&found, hash);
    }
    free(set.slots);
    f->mention_count = (uint32_t)found.len;
    f->mentions = found.len ? found.items : malloc(sizeof *f->mentions);
    if (!f->mentions) abort();
}

/* The distinct hashes of the identifiers that may name a module, those of base lists first. */
static void find_module_refs(DlSharingFile *f, const DlSource *src) {
    DlModuleRefs r;
    dl_module_refs(src, &r);
    uint32_t *refs = malloc((r.base_count + r.count + 1) * sizeof *refs);
    if (!refs) abort();
    HashSet set = {0};
    hash_set_grow(&set);
    uint32_t kept = 0;
    for (size_t i = 0; i < r.base_count; i++)
        if (hash_set_add(&set, r.bases[i])) refs[kept++] = r.bases[i];
    f->base_ref_count = kept;
    for (size_t i = 0; i < r.count; i++)
        if (hash_set_add(&set, r.refs[i])) refs[kept++] = r.refs[i];
    free(set.slots);
    free(r.refs);
    free(r.bases);
    f->module_refs = refs;
    f->module_ref_count = kept;
    f->import_alias = r.import_alias;
}

struct DlSharingModules {
    HashSet names;
};

DlSharingModules *dl_sharing_modules_new(char *const *paths, size_t count) {
    DlSharingModules *m = calloc(1, sizeof *m);
    if (!m) abort();
    hash_set_grow(&m->names);
    DlArena arena;
    dl_arena_init(&arena);
    for (size_t i = 0; i < count; i++) {
        const char *name = dl_python_module_name(&arena, paths[i]);
        hash_set_add(&m->names, dl_name_hash(name, strlen(name)));
    }
    dl_arena_release(&arena);
    return m;
}

void dl_sharing_modules_free(DlSharingModules *m) {
    if (!m) return;
    free(m->names.slots);
    free(m);
}

static bool hash_set_has(const HashSet *set, uint32_t hash) {
    if (!hash) return set->has_zero;
    for (uint32_t i = hash & (set->cap - 1); set->slots[i]; i = (i + 1) & (set->cap - 1))
        if (set->slots[i] == hash) return true;
    return false;
}

static bool mentions_a_module(const DlSharingFile *f, const DlSharingModules *m) {
    for (uint32_t k = 0; k < f->mention_count; k++)
        if (hash_set_has(&m->names, f->mentions[k])) return true;
    return false;
}

void dl_sharing_file_scan(DlSharingFile *f, const DlSource *src, const DlSharingModules *modules) {
    memset(f, 0, sizeof *f);
    f->takes_part = true;
    find_definitions(f, src);
    find_mentions(f, src);
    /* most files of a generated corpus name no other file: the search costs 1 % of a run */
    if (!modules || mentions_a_module(f, modules)) {
        find_module_refs(f, src);
        f->module_refs_known = true;
    }
    dl_sharing_find_file_names(f, src);
    f->mentions_devices = dl_python_mentions_devices(src);
    /* a DataLoader the analysis sees is named in code (`torch.utils.data.DataLoader`, an
     * import): one named in a comment or a docstring only (NeMo's ModelPT) places no mark */
    f->mentions_dataloader = dl_code_names(src, "DataLoader");
    /* one search where, as in most files, neither call is named */
    f->sets_a_gpu_default = dl_source_mentions(src, "set_default_") &&
                            (dl_code_names(src, "set_default_device") ||
                             dl_code_names(src, "set_default_tensor_type")) &&
                            dl_python_sets_a_gpu_default(src);
}

size_t dl_sharing_file_names_size(const DlSharingFile *f) {
    const char *end = f->names;
    for (uint32_t k = 0; k < f->class_count + f->function_count; k++) end += strlen(end) + 1;
    return (size_t)(end - f->names);
}

void dl_sharing_file_copy(DlSharingFile *to, const DlSharingFile *from) {
    *to = *from;
    size_t names = dl_sharing_file_names_size(from);
    to->names = malloc(names + 1);
    to->mentions = malloc((from->mention_count ? from->mention_count : 1) * sizeof *to->mentions);
    to->module_refs =
        malloc((from->module_ref_count ? from->module_ref_count : 1) * sizeof *to->module_refs);
    if (!to->names || !to->mentions || !to->module_refs) abort();
    if (from->module_ref_count)
        memcpy(to->module_refs, from->module_refs,
               from->module_ref_count * sizeof *to->module_refs);
    if (names) memcpy(to->names, from->names, names);
    to->names[names] = '\0';
    if (from->mention_count)
        memcpy(to->mentions, from->mentions, from->mention_count * sizeof *to->mentions);
    to->saved_names = to->loaded_names = NULL;
    if (from->saved_name_count) {
        to->saved_names = malloc(from->saved_name_count * sizeof *to->saved_names);
        if (!to->saved_names) abort();
        memcpy(to->saved_names, from->saved_names, from->saved_name_count * sizeof *to->saved_names);
    }
    if (from->loaded_name_count) {
        to->loaded_names = malloc(from->loaded_name_count * sizeof *to->loaded_names);
        if (!to->loaded_names) abort();
        memcpy(to->loaded_names, from->loaded_names,
               from->loaded_name_count * sizeof *to->loaded_names);
    }
    to->cpu_device_functions = NULL;
    if (from->cpu_device_function_count) {
        size_t size = from->cpu_device_function_count * sizeof *to->cpu_device_functions;
        to->cpu_device_functions = malloc(size);
        if (!to->cpu_device_functions) abort();
        memcpy(to->cpu_device_functions, from->cpu_device_functions, size);
    }
}

void dl_sharing_file_free(DlSharingFile *f) {
    free(f->names);
    free(f->mentions);
    free(f->module_refs);
    free(f->saved_names);
    free(f->loaded_names);
    free(f->cpu_device_functions);
    memset(f, 0, sizeof *f);
}

/* ---------------------------------------------------------------- the table of names */

Name *dl_sharing_slot(const DlSharing *s, const char *text, size_t len, uint32_t hash) {
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
        if (old[i].text) *dl_sharing_slot(s, old[i].text, old[i].len, old[i].hash) = old[i];
    free(old);
}

static Name *add_name(DlSharing *s, const char *text, size_t len) {
    if ((s->count + 1) * 2 > s->cap) grow(s);
    uint32_t hash = dl_name_hash(text, len);
    Name *n = dl_sharing_slot(s, text, len, hash);
    if (!n->text) {
        n->text = dl_arena_strndup(&s->arena, text, len);
        n->len = (uint32_t)len;
        n->hash = hash;
        n->mentioner = -1;
        s->count++;
    }
    return n;
}

static const Name *find_name(const DlSharing *s, const char *text) {
    if (!s->count) return NULL;
    size_t len = strlen(text);
    const Name *n = dl_sharing_slot(s, text, len, dl_name_hash(text, len));
    return n->text ? n : NULL;
}

/* ---------------------------------------------------------------- mentions */

static void note_mention(Name *n, int32_t file) {
    int32_t first = __atomic_load_n(&n->mentioner, __ATOMIC_RELAXED);
    if (first == file) return;
    if (first == -1 && __atomic_compare_exchange_n(&n->mentioner, &first, file, false,
                                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return;
    if (first != file && !__atomic_load_n(&n->mentioned_twice, __ATOMIC_RELAXED))
        __atomic_store_n(&n->mentioned_twice, true, __ATOMIC_RELAXED);
}

static void note_used_as_module(Name *n) {
    if (n->is_module && !__atomic_load_n(&n->used_as_module, __ATOMIC_RELAXED))
        __atomic_store_n(&n->used_as_module, true, __ATOMIC_RELAXED);
}

/* Does `f` define a class named `name`? */
static bool defines_class(const DlSharingFile *f, const char *name) {
    const char *own = f->names;
    for (uint32_t k = 0; k < f->class_count; k++, own += strlen(own) + 1)
        if (strcmp(own, name) == 0) return true;
    return false;
}

/* Every name of the table whose hash is one of `hashes` (all of them, when names collide): as a
 * mention by file `file` (`f`), or (`as_module`) as a module name used as one. A class name
 * the file defines itself names its own class (`super(PPO, self)` in each of minimalRL's
 * scripts, each with its own `PPO`): no mention of another file's; an import of another's
 * goes through its module name. */
static void note_hashes(DlSharing *s, const DlSharingFile *f, const uint32_t *hashes,
                        uint32_t count, int32_t file, bool as_module) {
    for (uint32_t k = 0; k < count; k++) {
        uint32_t hash = hashes[k];
        if (!filter_may_hold(s->filter, hash)) continue;
        for (uint32_t i = hash & (s->cap - 1); s->names[i].text; i = (i + 1) & (s->cap - 1)) {
            Name *n = &s->names[i];
            if (n->hash != hash) continue;
            if (as_module)
                note_used_as_module(n);
            else if (!(n->is_class && !n->is_function && defines_class(f, n->text)))
                note_mention(n, file);
        }
    }
}

/* What a file mentions, and the module names it may use as ones. */
static void note_mentions(void *ctx, size_t index) {
    DlSharing *s = ctx;
    const DlSharingFile *f = &s->files[index];
    if (!f->takes_part || !s->count) return;
    note_hashes(s, f, f->mentions, f->mention_count, (int32_t)index, false);
    /* a file scanned without looking for them (it mentioned no module name of the check that
     * read it): its mentions stand in, a superset */
    if (f->module_refs_known)
        note_hashes(s, f, f->module_refs, f->module_ref_count, (int32_t)index, true);
    else
        note_hashes(s, f, f->mentions, f->mention_count, (int32_t)index, true);
}

static bool mentioned_by_another(const Name *n, int32_t file) {
    int32_t first = __atomic_load_n(&n->mentioner, __ATOMIC_RELAXED);
    return n->mentioned_twice || (first != -1 && first != file);
}

/* ---------------------------------------------------------------- the decision */

/* The names a Python file's path gives what an import may start with (DlSharing.module_names):
 * each folder (a package, or a namespace package without `__init__.py`) and its module. */
static void add_path_names(DlSharing *s, const char *path) {
    size_t n = strlen(path);
    if (n < 3 || strcmp(path + n - 3, ".py") != 0) return;
    const char *p = path;
    for (const char *slash; (slash = strchr(p, '/')); p = slash + 1)
        if (slash > p) dl_intern(&s->module_names, p, (size_t)(slash - p), true);
    if (path + n - 3 > p) dl_intern(&s->module_names, p, (size_t)(path + n - 3 - p), true);
}

DlSharing *dl_sharing_decide(const DlSharingFile *files, char *const *paths, size_t count,
                             int threads) {
    DlSharing *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->files = files;
    s->file_count = count;
    s->modules = calloc(count ? count : 1, sizeof *s->modules);
    s->shared = calloc(count ? count : 1, sizeof *s->shared);
    s->code_read = calloc(count ? count : 1, sizeof *s->code_read);
    s->places_marks = calloc(count ? count : 1, sizeof *s->places_marks);
    s->names_digests = calloc(count ? count : 1, sizeof *s->names_digests);
    if (!s->modules || !s->shared || !s->code_read || !s->places_marks || !s->names_digests)
        abort();
    dl_arena_init(&s->arena);
    for (size_t i = 0; i < count; i++) {
        const DlSharingFile *f = &files[i];
        if (!f->takes_part) continue;
        s->modules[i] = dl_python_module_name(&s->arena, paths[i]);
        add_name(s, s->modules[i], strlen(s->modules[i]))->is_module = true;
        const char *name = f->names;
        for (uint32_t k = 0; k < f->class_count + f->function_count; k++) {
            size_t n = strlen(name);
            Name *entry = add_name(s, name, n);
            if (k < f->class_count)
                entry->is_class = true;
            else
                entry->is_function = true;
            name += n + 1;
        }
    }
    dl_interner_init(&s->module_names, &s->arena);
    for (size_t i = 0; i < count; i++) add_path_names(s, paths[i]);
    s->filter = filter_new();
    for (uint32_t i = 0; i < s->cap; i++)
        if (s->names[i].text) filter_add(s->filter, s->names[i].hash);
    dl_parallel_for(count, threads, note_mentions, s);
    dl_sharing_find_mark_sources(s);

    for (size_t i = 0; i < count; i++) {
        const DlSharingFile *f = &files[i];
        if (!f->takes_part) continue;
        /* through its module name, even by itself (`import model` in model.py) */
        const Name *module = find_name(s, s->modules[i]);
        bool shared = module && module->used_as_module;
        const char *name = f->names;
        for (uint32_t k = 0; k < f->class_count && !shared; k++) {
            const Name *cls = find_name(s, name);
            shared = cls && mentioned_by_another(cls, (int32_t)i);
            name += strlen(name) + 1;
        }
        s->shared[i] = s->code_read[i] = shared;
    }
    dl_sharing_share_savers(s);
    dl_sharing_share_cpu_device_callers(s);
    dl_sharing_find_names_digests(s, paths, threads);
    dl_interner_init(&s->mentioned_functions, NULL);
    for (uint32_t i = 0; i < s->cap; i++) {
        const Name *n = &s->names[i];
        if (!n->text || !n->is_function || n->mentioner == -1) continue;
        dl_interner_add(&s->mentioned_functions, n->text);
        s->mentioned_hash += dl_hash_bytes(n->text, n->len, 7); /* a sum: any order */
    }
    s->files = NULL; /* the caller's: not read again */
    return s;
}

/* For the callers that hold every text anyway (the unit tests). */
typedef struct ScanAll {
    const DlSource *const *sources;
    DlSharingFile *files;
} ScanAll;

static void scan_one(void *ctx, size_t index) {
    ScanAll *all = ctx;
    if (all->sources[index]) dl_sharing_file_scan(&all->files[index], all->sources[index], NULL);
}

DlSharing *dl_sharing_scan(const DlSource *const *sources, char *const *paths, size_t count,
                           int threads) {
    DlSharingFile *files = calloc(count ? count : 1, sizeof *files);
    if (!files) abort();
    ScanAll all = {sources, files};
    dl_parallel_for(count, threads, scan_one, &all);
    DlSharing *s = dl_sharing_decide(files, paths, count, threads);
    for (size_t i = 0; i < count; i++)
        dl_sharing_file_free(&files[i]);
    free(files);
    return s;
}

void dl_sharing_free(DlSharing *s) {
    if (!s) return;
    dl_interner_free(&s->mentioned_functions);
    dl_interner_free(&s->module_names);
    free(s->names);
    free(s->filter);
    free(s->modules);
    free(s->shared);
    free(s->code_read);
    free(s->places_marks);
    free(s->savers);
    free(s->cpu_device_callers);
    dl_sharing_names_free(s);
    dl_arena_release(&s->arena);
    free(s);
}

bool dl_sharing_is_shared(const DlSharing *s, size_t i) {
    return i < s->file_count && s->shared[i];
}

bool dl_sharing_code_is_read(const DlSharing *s, size_t i) {
    return i < s->file_count && s->code_read[i];
}

bool dl_sharing_module_is_named(const DlSharing *s, size_t i) {
    if (i >= s->file_count || !s->modules[i]) return false;
    const Name *module = find_name(s, s->modules[i]);
    return module && module->used_as_module;
}

const DlInterner *dl_sharing_module_names(const DlSharing *s) {
    return &s->module_names;
}

const DlInterner *dl_sharing_mentioned_functions(const DlSharing *s) {
    return &s->mentioned_functions;
}

uint64_t dl_sharing_mentioned_functions_hash(const DlSharing *s) {
    return s->mentioned_hash;
}
