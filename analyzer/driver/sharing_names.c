/* What each file's facts may see of the other files' text (see dl_sharing_names_digest in
 * sharing.h): the shared files that define the names it mentions, and which of its functions
 * some file names, from the decision's table (sharing_table.h). */
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/pool.h"
#include "driver/sharing_table.h"

/* The shared files that define a name as a class or as the last part of a module name, as one
 * digest (a sum, whatever the order), and whether some define it as a function. */
typedef struct Definers {
    uint32_t hash; /* the name's (dl_name_hash) */
    bool used;
    bool functions;                          /* some shared file defines a function of that name */
    bool module;                             /* the last part of a shared file's module name */
    bool package; /* a folder or module name of a Python file's path (DlSharing.module_names) */
    uint32_t first_function, function_count; /* its run of DlSharing.function_definers */
    uint64_t digest;
} Definers;

/* A shared file that defines a function: found only through its module's name (`mod.f`,
 * `from mod import f`: dataflow/project.c, find_named), so it counts for a file that mentions
 * both. */
typedef struct FunctionDefiner {
    uint32_t name, module; /* hashes: the function's, its module name's last part */
    uint64_t digest;       /* of the file's path */
} FunctionDefiner;

static Definers *definers_slot(const DlSharing *s, uint32_t hash) {
    for (uint32_t i = hash & (s->definers_cap - 1);; i = (i + 1) & (s->definers_cap - 1))
        if (!s->definers[i].used || s->definers[i].hash == hash) return &s->definers[i];
}

static Definers *add_definers(DlSharing *s, uint32_t hash) {
    if ((s->definer_count + 1) * 2 > s->definers_cap) {
        Definers *old = s->definers;
        uint32_t old_cap = s->definers_cap;
        s->definers_cap = old_cap ? old_cap * 2 : 1024;
        s->definers = calloc(s->definers_cap, sizeof *s->definers);
        if (!s->definers) abort();
        for (uint32_t i = 0; i < old_cap; i++)
            if (old[i].used) *definers_slot(s, old[i].hash) = old[i];
        free(old);
    }
    Definers *d = definers_slot(s, hash);
    if (!d->used) {
        d->used = true;
        d->hash = hash;
        s->definer_count++;
    }
    return d;
}

static uint64_t definer_digest(const char *path, char kind) {
    return dl_hash_bytes(&kind, 1, dl_hash_bytes(path, strlen(path), 11));
}

static int by_function_name(const void *a, const void *b) {
    const FunctionDefiner *x = a, *y = b;
    if (x->name != y->name) return (x->name > y->name) - (x->name < y->name);
    if (x->module != y->module) return (x->module > y->module) - (x->module < y->module);
    return (x->digest > y->digest) - (x->digest < y->digest);
}

/* A few words into a digest's term (splitmix64's finaliser): cheaper than dl_hash_bytes for the
 * hundreds of thousands of terms a large project's digests add up. */
static uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The digest of the shared files that define function `name` in a module whose name's last
 * part is one of `modules` (sorted): each pair is looked up from the shorter side. */
static uint64_t function_definers_digest(const DlSharing *s, const Definers *name,
                                         const uint32_t *modules, size_t module_count) {
    const FunctionDefiner *all = s->function_definers.items;
    size_t stride = sizeof *all / sizeof(uint32_t);
    size_t first = name->first_function, end = first + name->function_count;
    uint64_t digest = 0;
    for (size_t i = first; i < end; i++) {
        const FunctionDefiner *fd = &all[i];
        size_t at = dl_sharing_lower_bound(modules, 1, module_count, fd->module);
        if (at < module_count && modules[at] == fd->module) {
            digest += mix(fd->digest ^ mix(((uint64_t)fd->name << 32 | fd->module) + 19));
        } else if (end - first > module_count) {
            /* many definers (`__init__`, `forward`): skip to the next module mentioned */
            if (at == module_count) break;
            i = first +
                dl_sharing_lower_bound(&all[first].module, stride, end - first, modules[at]) - 1;
        }
    }
    return digest;
}

/* dl_sharing_names_digest for file `index`: the definers of each name it mentions. */
static void digest_names(void *ctx, size_t index) {
    DlSharing *s = ctx;
    const DlSharingFile *f = &s->files[index];
    if (!f->takes_part) return;
    uint64_t digest = 0;
    /* which of its own functions get summaries: those some file names (project.c,
     * needs_summary; DlSharing.mentioned_functions) */
    const char *name = f->names;
    for (uint32_t k = 0; k < f->class_count + f->function_count; k++) {
        size_t n = strlen(name);
        const Name *entry =
            k >= f->class_count ? dl_sharing_slot(s, name, n, dl_name_hash(name, n)) : NULL;
        if (entry && entry->text && entry->mentioner != -1) digest += mix(entry->hash + 23);
        name += n + 1;
    }
    DL_VEC(uint32_t) modules = {0};
    DL_VEC(const Definers *) functions = {0};
    for (uint32_t k = 0; s->definer_count && k < f->mention_count; k++) {
        uint32_t hash = f->mentions[k];
        if (!filter_may_hold(s->definers_filter, hash)) continue;
        const Definers *d = definers_slot(s, hash);
        if (!d->used) continue;
        if (d->digest) digest += mix(d->digest ^ mix(d->hash + 13));
        if (d->module) dl_vec_push(&modules, hash);
        if (d->functions) dl_vec_push(&functions, d);
    }
    if (modules.len && functions.len) {
        qsort(modules.items, modules.len, sizeof *modules.items, dl_sharing_by_hash);
        for (size_t k = 0; k < functions.len; k++)
            digest += function_definers_digest(s, functions.items[k], modules.items, modules.len);
    }
    dl_vec_free(&modules);
    dl_vec_free(&functions);
    s->names_digests[index] = digest;
}

void dl_sharing_find_names_digests(DlSharing *s, char *const *paths, int threads) {
    for (size_t i = 0; i < s->file_count; i++) {
        const DlSharingFile *f = &s->files[i];
        if (!f->takes_part || !s->shared[i]) continue;
        const char *module = s->modules[i], *last = strrchr(module, '.');
        last = last ? last + 1 : module;
        uint32_t module_hash = dl_name_hash(last, strlen(last));
        Definers *m = add_definers(s, module_hash);
        m->digest += definer_digest(paths[i], 'm');
        m->module = true;
        const char *name = f->names;
        for (uint32_t k = 0; k < f->class_count + f->function_count; k++) {
            size_t n = strlen(name);
            Definers *d = add_definers(s, dl_name_hash(name, n));
            if (k < f->class_count) {
                d->digest += definer_digest(paths[i], 'c');
            } else {
                d->functions = true;
                dl_vec_push(
                    &s->function_definers,
                    ((FunctionDefiner){d->hash, module_hash, definer_digest(paths[i], 'f')}));
            }
            name += n + 1;
        }
    }
    /* whether a name an import starts with is the project's (DlSharing.module_names): a file
     * that mentions it reads that fact, which a new folder or module changes */
    uint32_t package_count = 0;
    const char **packages = dl_interner_referenced(&s->module_names, &s->arena, &package_count);
    for (uint32_t k = 0; k < package_count; k++) {
        Definers *d = add_definers(s, dl_name_hash(packages[k], strlen(packages[k])));
        if (!d->package) d->digest += mix(d->hash + 31);
        d->package = true;
    }
    if (s->function_definers.len)
        qsort(s->function_definers.items, s->function_definers.len,
              sizeof *s->function_definers.items, by_function_name);
    for (size_t i = 0; i < s->function_definers.len; i++) {
        Definers *d = definers_slot(s, s->function_definers.items[i].name);
        if (!d->function_count++) d->first_function = (uint32_t)i;
    }
    if (s->definer_count) {
        s->definers_filter = filter_new();
        for (uint32_t i = 0; i < s->definers_cap; i++)
            if (s->definers[i].used) filter_add(s->definers_filter, s->definers[i].hash);
    }
    if (s->count) dl_parallel_for(s->file_count, threads, digest_names, s);
    /* which files save the file names it loads (sharing_saves.c) */
    for (size_t i = 0; s->saver_count && i < s->file_count; i++)
        if (s->files[i].takes_part) s->names_digests[i] += dl_sharing_savers_digest(s, i, paths);
    /* which files mention its functions whose parameters default to the CPU (sharing_callers.c) */
    for (size_t i = 0; s->cpu_device_caller_count && i < s->file_count; i++)
        if (s->files[i].takes_part)
            s->names_digests[i] += dl_sharing_cpu_device_callers_digest(s, i, paths);
}

void dl_sharing_names_free(DlSharing *s) {
    free(s->names_digests);
    free(s->definers);
    dl_vec_free(&s->function_definers);
    free(s->definers_filter);
}

uint64_t dl_sharing_names_digest(const DlSharing *s, size_t i) {
    return i < s->file_count ? s->names_digests[i] : 0;
}
