/* The result cache (like ruff's): one entry per checked file under the cache directory
 * (default .devlint_cache/), holding that file's findings and errors. An entry is used only
 * when its key matches, and the key covers everything the result depends on:
 *   - the file's bytes, the settings it is checked with (rules, severities, device names);
 *   - devlint itself (version, and the executable's size and mtime, so a rebuild invalidates);
 *   - the project facts the analysis read: a Python result is stored with the files whose
 *     facts it read, directly or through their facts (dataflow/project.h, DlReadSet), and one
 *     digest of their contents; the entry is used only while those contents are the same.
 *     What no lookup can record (a name that is not defined anywhere yet) is in the key: for
 *     the file's own text and, with each file read, for that file's (where the names it mentions
 *     are defined, dl_sharing_names_digest); a shared file's result also stores the
 *     DataLoader marks (DL113) on its own definitions and what they were computed from
 *     (DlCacheMarks), which the run compares;
 *   - C++: the compile command and which libclang (its file's path, size and mtime, in the
 *     key), and the size and mtime of every header the compiler read (stored with the entry,
 *     checked when it is loaded). A file that failed on a missing header is kept too, with
 *     the directories the header would appear in among those (frontend/cpp_missing_header.h).
 * A Python entry also records its file's own facts (DlCacheRecord), which a run that builds
 * the project over some of the shared files only reads for the files it leaves out.
 * Entries are written to a temporary file and renamed into place, so concurrent runs never
 * read a half-written entry; an unreadable or foreign entry is a miss, never an error. */
#ifndef DL_CACHE_H
#define DL_CACHE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hash.h"

#include "core/diag.h"
#include "core/stat_memo.h"

typedef struct DlCache DlCache;

/* What a shared file's Python result read of the DataLoader marks (DL113) that other files
 * leave on its datasets and collate functions, which no lookup of its own records
 * (driver/check_marks.c). */
typedef struct DlCacheMarks {
    uint64_t own;    /* a digest of the marks on the file's own datasets and collate functions */
    uint64_t inputs; /* a digest of every file that may leave a mark (their stamps, below) when
                        the result was computed: 0 for unknown */
} DlCacheMarks;

/* The other files a Python result read, with their contents (content hashes) when it was
 * computed. */
typedef struct DlCacheSources {
    const char *const *paths;
    const uint64_t *content_hashes;
    size_t count;
    /* the file's own facts, for DlCacheRecord: the classes and the top-level functions it
     * defines (as the project's index holds them), and its DataLoader workers' fact */
    const char *const *classes, *const *functions;
    size_t class_count, function_count;
    bool workers_may_touch_devices;
    bool no_model; /* it failed to parse (or to load): a build holds no facts of it either */
    uint64_t names_digest; /* where the names the file mentions were defined (DlCacheRecord) */
    const DlCacheMarks *marks; /* a shared file's result: the marks it read (NULL: none) */
    /* a DataLoader file (driver/sharing.h): the marks its facts placed on shared files' definitions
     * (the file's path and the mark's position, dl_project_mark_position), for DlCacheRecord */
    bool has_placed;
    const char *const *placed_paths;
    const uint32_t *placed_positions;
    size_t placed_count;
} DlCacheSources;

/* What a look-up tells of the entry it used, besides its result. */
typedef struct DlCacheFound {
    uint64_t stamp; /* its key and the contents of the files it read (dl_cache_stamp) */
    bool has_marks;
    DlCacheMarks marks;
} DlCacheFound;

/* What a Python entry tells of its file besides the result, whether or not its key matches: the
 * files the result read when it was computed (`source` is called with each), the classes and
 * top-level functions the file defined (`defines`), and whether its DataLoader workers may run
 * device code. A run that builds the project over some of the shared files only reads them
 * (driver/check_partial.c). */
typedef struct DlCacheRecord {
    bool found; /* an entry for this path: the rest is filled */
    bool workers_may_touch_devices;
    bool no_model; /* DlCacheSources.no_model */
    bool has_names_digest;
    uint64_t names_digest; /* DlCacheSources.names_digest when it was stored */
    void (*source)(void *ctx, const char *path);
    void (*defines)(void *ctx, const char *name, bool is_class);
    /* the marks its facts placed (DlCacheSources.placed_*); has_placed: the entry lists them */
    bool has_placed;
    void (*placed)(void *ctx, const char *path, uint32_t position);
    void *ctx;
} DlCacheRecord;

/* How a look-up learns what those files hold now: false when `path` is not a file of the run
 * (the entry is then a miss). */
typedef struct DlCacheContents {
    bool (*content_hash)(void *ctx, const char *path, uint64_t *hash);
    void *ctx;
} DlCacheContents;

/* Creates the directory (and a .gitignore of `*` in it) if needed. NULL with *error when it
 * cannot be created. `stats` (the run's memo, borrowed; NULL: plain stat) answers for the
 * headers C++ entries depend on. */
DlCache *dl_cache_open(const char *dir, DlStatMemo *stats, char **error);
/* A cache whose entries stay in this process's memory, for the language server: it keeps the
 * results of files no edit touched, unsaved buffers included (whose results never go to disk). */
DlCache *dl_cache_new_in_memory(void);
/* In memory: frees the entries no look-up or store used since the last sweep (files gone from
 * the workspace). A cache on disk is left as it is. */
void dl_cache_sweep(DlCache *cache);
void dl_cache_close(DlCache *cache);

/* devlint's identity: version, executable size and mtime. */
uint64_t dl_cache_tool_key(void);

/* Fills `out` (empty) from the entry for `path` when its key is `key`, every header stored with
 * it is as it was (size and mtime), and the files it read hold what they held (`now`; NULL: an
 * entry that read other files is a miss); and `found` (NULL: not wanted). Thread-safe. */
bool dl_cache_load(DlCache *cache, const char *path, uint64_t key, const DlCacheContents *now,
                   DlResult *out, DlCacheFound *found);
/* The same, and the entry's record (NULL: not wanted), filled even when the key does not match;
 * `out` NULL: whether the entry would be used, without its result. */
bool dl_cache_load_record(DlCache *cache, const char *path, uint64_t key,
                          const DlCacheContents *now, DlResult *out, DlCacheRecord *record);
/* Stores `r` as the entry for `path`, with the headers it depends on (C++: `deps`, checked by
 * size and mtime) and the files whose facts it read (Python: `sources`, NULL for none, and the
 * file's own fact for DlCacheRecord).
 * Failures are silent (the cache is an optimisation). Thread-safe. */
void dl_cache_store(DlCache *cache, const char *path, uint64_t key, const DlResult *r,
                    char *const *deps, size_t dep_count, const DlCacheSources *sources);
/* A Python entry's identity: its key and the contents of the files it read, in one digest. Two
 * results with one stamp were computed from the same inputs; a look-up reports the stamp of the
 * entry it used (DlCacheFound). */
uint64_t dl_cache_stamp(uint64_t key, const uint64_t *content_hashes, size_t count);

/* The DataLoader marks a run computed, under the inputs they were computed from
 * (DlCacheMarks.inputs): for each shared file, its bytes and the digest of the marks on its own
 * definitions. A cache directory keeps one table, the last run's that computed marks; a shared
 * result stored under other inputs is valid under the table's when the table gives its file the
 * same bytes and the same marks (driver/check_marks.c). One small file instead of
 * every entry written again. The in-memory cache keeps none. */
typedef struct DlCacheMarksRow {
    const char *path;
    uint64_t content_hash, own;
} DlCacheMarksRow;
/* Replaces the table (atomically, as an entry). Failures are silent. */
void dl_cache_write_marks(DlCache *cache, uint64_t inputs, const DlCacheMarksRow *rows,
                          size_t count);
/* Calls `row` for each row of the table when it was computed under `inputs`; false when there
 * is none, or it is another's. */
bool dl_cache_read_marks(DlCache *cache, uint64_t inputs,
                         void (*row)(void *ctx, const DlCacheMarksRow *row), void *ctx);

#endif
