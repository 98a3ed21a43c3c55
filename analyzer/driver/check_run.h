/* The state of one check (driver/check.c), shared with the files that handle parts of it:
 * check_marks.c (the DataLoader marks a shared file's cached result reads) and check_partial.c
 * (building the project over some of the shared files). Only the driver includes it. */
#ifndef DL_DRIVER_CHECK_RUN_H
#define DL_DRIVER_CHECK_RUN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/arena.h"
#include "core/path_map.h"
#include "core/pool.h"
#include "core/source.h"
#include "core/stat_memo.h"
#include "core/suppress.h"
#include "core/vec.h"
#include "driver/cache.h"
#include "driver/check.h"
#include "driver/sharing.h"
#include "dataflow/project.h"
#include "frontend/notebook.h"
#ifdef DEVLINT_HAVE_CLANG
#include "frontend/cpp.h"
#endif

typedef struct FileJob {
    const char *path;
    const DlSettings *settings;
    DlSource source; /* what is analysed: the file, or a notebook's joined code cells */
    bool loaded;
    DlNotebook notebook; /* notebooks: the map from program lines to cells */
    bool is_notebook;
    bool is_cpp;
    DlArena arena;
    DlModuleIR *module; /* NULL when it failed or was not worth lowering */
    DlSuppressions suppressions;
    char *error;
    DlResult result;
    bool relevant;         /* names tensors, modules or devices: parsed and analysed */
    uint64_t content_hash; /* of the bytes analysed */
    uint64_t names_digest; /* where the names it mentions are defined (dl_sharing_names_digest):
                              in its key, and stored with its bytes by the results that read it */
    bool cacheable;        /* loaded: its result can be stored and looked up */
    bool cached;           /* `result` came from the cache */
    uint64_t cache_key;
    bool lowered; /* parsed (and lowered, unless it failed) in this run */
    char *incomplete; /* C++ parsed with compile errors: reported with the findings */
    char **deps; /* C++: the headers the compiler read, stored with the cached result */
    size_t dep_count;
    bool leaf;     /* no other file reads it (driver/sharing.h): lowered, summarised, analysed
                      and dropped on its own, after the shared files' summaries */
    bool read_by_no_other_file; /* the same decision, in either pipeline (DlModuleIR's) */
    bool imported_by_no_other_file; /* DlModuleIR's */
    DlFileFacts leaf_facts;
    DlSharingFile scan;       /* what deciding the leaves needs of its text (driver/sharing.h) */
    bool text_dropped;        /* let go after reading: read again when it is lowered */
    bool may_place_marks; /* its facts may mark a dataset DataLoader workers read, or a collate
                             function (dl_sharing_may_place_marks) */
    bool scanned;             /* `scan` was taken: mentions_devices is known */
    bool mentions_devices;    /* DlModuleIR.mentions_devices, from the scan */
    uint64_t model_serial;    /* the language server's number for its model (driver/keep.h); 0:
                                 lowered in this check and not kept yet */
    bool late_key; /* the language server's shared files: the cache key waits for the leaves'
                      DataLoader marks (see key_shared_files) */
    uint64_t *reads; /* while a Python file is analysed with a cache: the project files its
                        analysis looked up (a DlReadSet's bits), then every file its result
                        depends on (stored with it, see store_result) */
    bool uncertain;  /* its analysis, in a partial build, may have read a file left out */
    /* What a partial build (plan_partial_build) reads of its cache entry (DlCacheRecord): */
    bool wants_record;
    bool has_record;        /* the record was read (for a result from the cache: the entry's) */
    bool record_workers;    /* the record's DlCacheRecord.workers_may_touch_devices */
    bool record_no_model;   /* the record's DlCacheRecord.no_model: it failed to parse */
    bool names_changed;     /* the record's names digest is not FileJob.names_digest: the file
                               names a definition it did not (an import added), and may read a
                               file its entry did not */
    DL_VEC(uint32_t) prior_reads; /* the files the stored result read (job indices) */
    DL_VEC(char) defined; /* the record's classes and top-level functions: "c" or "f", the
                             name, NUL */
    bool in_build; /* a shared file the project is built over (all of them, unless partial) */
    /* The DataLoader marks a shared file's result read (driver/check_marks.c): */
    uint64_t stamp;             /* a DataLoader file: its entry's (dl_cache_stamp),
                                   found or to be stored; 0 when it has none */
    bool marks_pending;         /* a shared result from the cache, valid if the marks on the
                                   file's own datasets are still those it was computed with */
    DlCacheMarks stored_marks;  /* that entry's */
    bool store_deferred;        /* a shared DataLoader file: stored once every such
                                   file's stamp is known */
    bool has_placed;            /* its record lists the marks its facts placed: */
    DL_VEC(uint32_t) placed;    /* (job index of a shared file, position) pairs */
    bool marks_from_record;     /* a partial build takes its marks from `placed` instead of
                                   building it (or summarising it, a leaf) */
    DL_VEC(uint32_t) extra_marks; /* a shared file left out: positions of those marks on it */
} FileJob;

typedef struct Run {
    FileJob *jobs;
    size_t count;
    size_t *order; /* job indices, largest file first: the pool's tail is short files */
    const DlCheckOptions *opts;
    DlProject project;
    bool lower_cached; /* lower the files whose results came from the cache too (the others'
                          analyses read their program models), those in the build */
    bool parse_all; /* DEVLINT_PARSE_ALL: parse (for syntax errors) even files that name no
                       tensor, module or device */
    DlCache *cache; /* NULL: no result cache */
    bool own_cache; /* opened (and closed) by this run; else the language server's (keep.h) */
    DlBlockPool *pool; /* the memory of the files' program models (see core/arena.c) */
    DlStatMemo *stats; /* C++: the headers that cached results and precompiled headers depend
                          on, stat'ed once a run */
#ifdef DEVLINT_HAVE_CLANG
    DlCppIncludeMemo *includes; /* C++: the headers the include scan found complete */
#endif
    DlSharingModules *modules; /* the files' module names, for the text scan (sharing.h) */
    uint64_t leaf_key_base; /* devlint and leaf_project_hash, the base of a leaf's cache key */
    bool tracks_reads; /* Python results are stored with the files they read (the text scan ran:
                          not with DEVLINT_PARSE_ALL) */
    DlPathMap job_by_path; /* path -> FileJob, for the look-ups' sources */
    bool may_build_partially; /* plan_partial_build may leave shared files out */
    bool partial;             /* it did */
    bool marks_needed; /* the cached DataLoader leaves are summarised for their
                          marks: a shared file's result is analysed */
    DlAbsentFiles absent; /* DlProjectLeaves.absent */
    _Atomic bool not_enough; /* a partial build's result may have read a file left out: the
                                check runs again over every shared file */
    _Atomic bool marks_uncertain; /* the same, for the DataLoader marks on shared files */
    bool marks_by_digest; /* shared results are stored with the marks they read (DlCacheMarks) */
    uint64_t marks_inputs; /* the stamps of the DataLoader files, in one digest: at
                              the look-up, then once they are analysed; 0 while one is unknown */
    uint64_t lookup_inputs; /* marks_inputs at the look-up */
    _Atomic size_t marks_matched; /* shared results reused once their marks were compared */
} Run;

/* A Python file the project is built from and whose result is analysed: the only files whose
 * facts a Python result can read. It reads nothing of a C++ file but that the project has one
 * (DlProjectLeaves.use_devices): Python names never resolve into C++ code (project.c,
 * resolves_across_files). */
static inline bool is_analysed_python(const FileJob *job) {
    return job->loaded && job->relevant && !job->is_cpp;
}

/* A shared Python file's result, which reads the DataLoader marks on its own definitions. */
static inline bool reads_marks(const FileJob *job) {
    return is_analysed_python(job) && !job->leaf;
}

static inline void forget_result(FileJob *job) {
    dl_result_free(&job->result);
    memset(&job->result, 0, sizeof job->result);
    job->cached = false;
}

/* What a result that read `job`'s facts stores for it: its bytes and where the names it
 * mentions are defined, since its facts looked those up. */
static inline uint64_t source_hash(const FileJob *job) {
    uint64_t parts[2] = {job->content_hash, job->names_digest};
    return job->names_digest ? dl_hash_bytes(parts, sizeof parts, 17) : job->content_hash;
}

/* A DataLoader file: an analysed Python file whose facts may leave DataLoader marks
 * (FileJob.may_place_marks): its code names DataLoader, or its classes may run a base class's
 * DataLoader from their `__init__` (driver/sharing.h, dl_sharing_may_place_marks). */
static inline bool is_dataloader_file(const FileJob *job) {
    return is_analysed_python(job) && job->may_place_marks;
}

/* check.c */
/* The text of a file let go after reading, read again (see check.c). */
bool dl_check_reload(FileJob *job, const Run *run);
/* A look-up's view of the files a stored result read: their bytes in this run. */
bool dl_check_content_hash_now(void *ctx, const char *path, uint64_t *hash);

/* check_marks.c */
uint64_t dl_marks_inputs_now(const Run *run);
size_t dl_marks_note_pending(Run *run);
bool dl_marks_need_facts(const FileJob *job);
uint64_t dl_marks_own_now(const Run *run, FileJob *job);
void dl_marks_apply_recorded(Run *run);
void dl_marks_write_table(Run *run);
void dl_marks_settle(Run *run, FileJob *job);
size_t dl_marks_placed(const Run *run, const FileJob *job, const char ***paths,
                       uint32_t **positions);
void dl_marks_note_source(Run *run, const DlReadSet *reads);

/* check_partial.c */
bool dl_partial_plan(Run *run, DlProjectLeaves *leaves);

#endif
