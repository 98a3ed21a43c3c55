/* The decision's table, shared by the files that make it (internal to driver/sharing*.c):
 * sharing.c scans the files and decides which are shared, sharing_marks.c which may place
 * DataLoader marks, sharing_names.c what each file's names may find. */
#ifndef DL_DRIVER_SHARING_TABLE_H
#define DL_DRIVER_SHARING_TABLE_H
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/hash.h"
#include "core/intern.h"
#include "core/vec.h"
#include "driver/sharing.h"

/* A name some file defines: a module, a class or a function (one entry may be all three). */
typedef struct Name {
    const char *text; /* NUL-terminated, in DlSharing.arena */
    uint32_t len, hash;
    bool is_module, is_class, is_function;
    int32_t mentioner;    /* the first file that mentions it other than by defining it; -1 none */
    bool mentioned_twice; /* and a second file does too */
    bool used_as_module;  /* some file may name a module by it (driver/module_refs.h) */
    bool marks;           /* a class of a file whose facts may place DataLoader marks */
} Name;

/* A name's hash and a file's index: a file name a file saves (sharing_saves.c, DlSharing.
 * savers), a function whose parameter defaults to the CPU and a file that defines or mentions it
 * (sharing_callers.c). Tables of them are sorted by name, then file. */
struct NameInFile {
    uint32_t name, file;
};

enum { FILTER_BITS = 1 << 20 }; /* 128 KiB: stays in cache while every identifier is tested */

struct DlSharing {
    DlArena arena;
    Name *names;
    uint32_t cap, count; /* cap: a power of two */
    uint64_t *filter;    /* bit (hash >> 12) % FILTER_BITS set for every name: most identifiers of a
                            file name nothing defined in the project and stop here */
    const DlSharingFile *files;
    const char **modules; /* each file's module name (NULL: takes no part) */
    bool *shared;              /* built with the project: read by other files, or saving what
                                  another loads (sharing_saves.c) */
    bool *code_read;           /* shared because other files may read its code */
    bool *places_marks;        /* dl_sharing_may_place_marks */
    uint64_t *names_digests;   /* dl_sharing_names_digest */
    struct Definers *definers; /* by name hash: who defines it among the shared files */
    uint32_t definers_cap, definer_count;
    DL_VEC(struct FunctionDefiner) function_definers; /* by name hash, then module hash */
    uint64_t *definers_filter;                        /* as `filter`, for the definers' names */
    size_t file_count;
    DlInterner mentioned_functions;
    DlInterner module_names; /* the names the Python files' paths give (strings in `arena`) */
    uint64_t mentioned_hash; /* of that set, whatever the order of its names */
    struct NameInFile *savers; /* every file name a file that saves names (sharing_saves.c) */
    size_t saver_count;
    struct NameInFile *cpu_device_callers; /* the files that mention another file's function
                                              whose parameter defaults to the CPU */
    size_t cpu_device_caller_count;
};

static inline uint32_t filter_bit(uint32_t hash) {
    return (hash >> 12) & (FILTER_BITS - 1);
}

/* A filter of FILTER_BITS bits (a one-hash Bloom filter) over a table's hashes. */
static inline uint64_t *filter_new(void) {
    uint64_t *filter = calloc(FILTER_BITS / 64, sizeof *filter);
    if (!filter) abort();
    return filter;
}

static inline void filter_add(uint64_t *filter, uint32_t hash) {
    uint32_t bit = filter_bit(hash);
    filter[bit / 64] |= (uint64_t)1 << (bit % 64);
}

/* False: no hash of the table is `hash`. */
static inline bool filter_may_hold(const uint64_t *filter, uint32_t hash) {
    uint32_t bit = filter_bit(hash);
    return filter[bit / 64] >> (bit % 64) & 1;
}

/* The first of `n` records, sorted by a 32-bit key `stride` words apart from one record's key to
 * the next, whose key is not below `key` (`n` when none). */
static inline size_t dl_sharing_lower_bound(const uint32_t *keys, size_t stride, size_t n,
                                            uint32_t key) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid * stride] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* qsort's order of 32-bit hashes. */
static inline int dl_sharing_by_hash(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* `n` hashes sorted, each once: how many are left. */
static inline uint32_t dl_sharing_sort_unique(uint32_t *hashes, size_t n) {
    if (n) qsort(hashes, n, sizeof *hashes, dl_sharing_by_hash);
    uint32_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (!kept || hashes[kept - 1] != hashes[i]) hashes[kept++] = hashes[i];
    return kept;
}

static inline int dl_sharing_by_name_then_file(const void *a, const void *b) {
    const struct NameInFile *x = a, *y = b;
    if (x->name != y->name) return (x->name > y->name) - (x->name < y->name);
    return (x->file > y->file) - (x->file < y->file);
}

/* The first record of `name` in a sorted table of `n` (`n` when none). */
static inline size_t dl_sharing_first_of(const struct NameInFile *records, size_t n,
                                         uint32_t name) {
    return n ? dl_sharing_lower_bound(&records[0].name, sizeof *records / sizeof(uint32_t), n,
                                      name)
             : 0;
}

/* The digest of the files other than `index` that a sorted table holds for each of the `count`
 * names: their paths, each hashed with `seed` + the name. */
static inline uint64_t dl_sharing_other_files_digest(const struct NameInFile *records, size_t n,
                                                     const uint32_t *names, uint32_t count,
                                                     size_t index, char *const *paths,
                                                     uint64_t seed) {
    uint64_t digest = 0;
    for (uint32_t k = 0; k < count; k++)
        for (size_t at = dl_sharing_first_of(records, n, names[k]);
             at < n && records[at].name == names[k]; at++)
            if (records[at].file != index) {
                const char *path = paths[records[at].file];
                digest += dl_hash_bytes(path, strlen(path), seed + names[k]);
            }
    return digest;
}

/* The table's entry for a name: the name's own, or the empty slot it would take. */
Name *dl_sharing_slot(const DlSharing *s, const char *text, size_t len, uint32_t hash);

/* sharing_marks.c: fills `places_marks` (dl_sharing_may_place_marks), once mentions are noted. */
void dl_sharing_find_mark_sources(DlSharing *s);
/* sharing_names.c: fills `names_digests` (dl_sharing_names_digest), once `shared` is decided;
 * and frees what that took. */
void dl_sharing_find_names_digests(DlSharing *s, char *const *paths, int threads);
void dl_sharing_names_free(DlSharing *s);
/* sharing_saves.c: shares the files that save a file name another file loads, once `shared` is
 * otherwise decided (keeps the table the digests read); and the digest of the files that save
 * what file `index` loads, for its names digest. */
void dl_sharing_share_savers(DlSharing *s);
uint64_t dl_sharing_savers_digest(const DlSharing *s, size_t index, char *const *paths);

/* sharing_callers.c, while sharing.c's scan finds a file's definitions: the functions whose
 * parameters default to the CPU (DlSharingFile.cpu_device_functions). `wanted`: the text holds
 * a quoted "cpu" at all. */
typedef struct DlCpuDefaults {
    bool wanted;
    bool an_init; /* an `__init__` so: each class name counts */
    uint32_t *names;
    size_t count, cap;
} DlCpuDefaults;
/* The def whose name (`n` bytes) starts at `name`, unindented (`top`) or not. */
void dl_sharing_note_cpu_default(DlCpuDefaults *c, const char *text, size_t len, size_t name,
                                 size_t n, bool top);
/* Sorted, without duplicates, into f->cpu_device_functions, with f's class names for an
 * `__init__` (f->names is complete); frees what `c` holds otherwise. */
void dl_sharing_keep_cpu_defaults(DlSharingFile *f, DlCpuDefaults *c);

/* sharing_callers.c: shares the files that mention another file's function whose parameter
 * defaults to the CPU, once `shared` is otherwise decided (keeps the table the digests read);
 * and the digest of the files that mention file `index`'s such functions. */
void dl_sharing_share_cpu_device_callers(DlSharing *s);
uint64_t dl_sharing_cpu_device_callers_digest(const DlSharing *s, size_t index,
                                              char *const *paths);

#endif
