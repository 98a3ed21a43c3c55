/* The result cache (like ruff's): one entry per checked file under the cache directory
 * (default .devlint_cache/), holding that file's findings and errors. An entry is used only
 * when its key matches, and the key covers everything the result depends on:
 *   - the file's bytes, the settings it is checked with (rules, severities, device names);
 *   - devlint itself (version, and the executable's size and mtime, so a rebuild invalidates);
 *   - the project facts the analysis read: the bytes of every file that is analysed (the
 *     ones naming tensors, modules or devices). Any change there invalidates every entry —
 *     coarser than tracking which facts each file read, and never stale;
 *   - C++: the compile command and libclang's version (in the key), and the size and mtime of
 *     every header the compiler read (stored with the entry, checked when it is loaded). A file
 *     that failed on a missing header is kept too, with the directories the header would
 *     appear in among those (frontend/cpp_missing_header.h).
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

/* Fills `out` (empty) from the entry for `path` when its key is `key` and every dependency
 * stored with it is as it was (size and mtime). Thread-safe. */
bool dl_cache_load(DlCache *cache, const char *path, uint64_t key, DlResult *out);
/* Stores `r` as the entry for `path`, with the files besides `path` it depends on (a C++
 * file's headers; none for Python). Failures are silent (the cache is an optimisation).
 * Thread-safe. */
void dl_cache_store(DlCache *cache, const char *path, uint64_t key, const DlResult *r,
                    char *const *deps, size_t dep_count);

#endif
