/* What the language server keeps from one check to the next, so that an edit re-does only what
 * it touched:
 *   - what reading each file told, by path and the file's identity on disk (device, inode, size,
 *     modification and change times): a file whose identity is the same is not read again;
 *   - every Python file's program model, with the text and suppressions it reads, by path and
 *     content hash: a file whose bytes are the same is not parsed again;
 *   - every file's result, in an in-memory result cache (driver/cache.h) under the on-disk
 *     one's keys, but for the files others read, whose keys wait for the leaves' DataLoader
 *     marks (check.c, key_shared_files): a file whose key is the same is not analysed again;
 *   - the project's facts and summaries, with the models they were built over: a check over the
 *     same models (an edit of a file no other file reads, which does not change what the
 *     scan learns of the leaves) does not build them again.
 * A model is taken out while a check uses it and put back at the end; one whose file has gone or
 * changed is freed at the end of the check (dl_keep_sweep). Memory: the models of the workspace,
 * which is what one check holds at its peak anyway. */
#ifndef DL_KEEP_H
#define DL_KEEP_H
#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/source.h"
#include "core/suppress.h"
#include "dataflow/project.h"
#include "driver/cache.h"
#include "driver/sharing.h"
#include "ir/ir.h"

#include <sys/stat.h>

typedef struct DlKeep DlKeep;

/* One file's lowered model and what it points into (all owned together). */
typedef struct DlKeptModel {
    uint64_t content_hash; /* of source.text: the bytes the model was lowered from */
    DlArena arena;         /* the model's memory (not from a run's block pool) */
    DlSource source;
    DlModuleIR *module; /* module->source points at `source`: whoever moves the model sets it */
    DlSuppressions suppressions;
    uint64_t serial; /* this model's number, unique in its DlKeep (0: not kept yet) */
} DlKeptModel;

/* What reading a Python file on disk told a check (see driver/check.c's load). */
typedef struct DlKeptRead {
    uint64_t content_hash;
    bool relevant;      /* names tensors, modules or devices */
    DlSharingFile scan; /* of a relevant file (owned) */
} DlKeptRead;

DlKeep *dl_keep_new(void);
void dl_keep_free(DlKeep *keep);

/* The results kept between checks (owned by `keep`). */
DlCache *dl_keep_results(DlKeep *keep);

/* Moves the model kept for `path` into `out` when it was lowered from bytes with this hash.
 * Thread-safe. */
bool dl_keep_take_model(DlKeep *keep, const char *path, uint64_t content_hash, DlKeptModel *out);
/* Keeps `model` for `path` (moved: `model` is zeroed), replacing any other; returns its serial
 * (given now when it has none). Thread-safe. */
uint64_t dl_keep_put_model(DlKeep *keep, const char *path, DlKeptModel *model);
/* This check read `path` with these bytes without needing its model (its result was kept): the
 * model kept for it, if lowered from the same bytes, stays. */
void dl_keep_retain(DlKeep *keep, const char *path, uint64_t content_hash);
/* Fills `out` (its scan a copy the caller frees) with what reading `path` told when its identity
 * on disk was `st`. Thread-safe. */
bool dl_keep_recall_read(DlKeep *keep, const char *path, const struct stat *st, DlKeptRead *out);
/* Keeps what reading `path` told (`read`'s scan is copied), `st` taken before it was read. It
 * stays while checks recall it or note it again. Thread-safe. */
void dl_keep_note_read(DlKeep *keep, const char *path, const struct stat *st,
                       const DlKeptRead *read);

/* The end of a check: frees the models that were neither put back nor retained in it, what
 * reading a file told that it neither recalled nor noted, and the results it did not use. */
void dl_keep_sweep(DlKeep *keep);

/* Keeps `project` (moved: zeroed) as built over the models whose serials are `models[i]` (0: no
 * model for file i), under `key` (what else it was built from). It replaces any other. */
void dl_keep_put_project(DlKeep *keep, DlProject *project, uint64_t key, const uint64_t *models,
                         size_t count);
/* Moves the kept project into `out` when it was built under `key` over exactly these models; a
 * kept project that does not match is freed (its models may be gone). */
bool dl_keep_take_project(DlKeep *keep, uint64_t key, const uint64_t *models, size_t count,
                          DlProject *out);

#endif
