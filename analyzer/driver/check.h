/* `devlint check`: the whole static pipeline for a list of files — load, parse and lower in
 * parallel, build project-wide summaries, run the rules on every file in parallel, apply
 * suppressions, collect one sorted result. */
#ifndef DL_CHECK_H
#define DL_CHECK_H
#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "core/files.h"
#include "driver/keep.h"
#include "driver/settings.h"

/* An unsaved version of one of the files checked (the language server's open buffers): the
 * file named `path` is read from `text` instead of the disk. */
typedef struct DlCheckOverride {
    const char *path; /* compared byte for byte with the entries of `paths` */
    const char *text;
    size_t len;
} DlCheckOverride;

typedef struct DlCheckOptions {
    const DlSettings *const *settings; /* per path (parallel to `paths`): rules, severities */
    const DlFileStat *file_stats; /* per path, what the walk's stat said; NULL: each is looked
                                     at again */
    int jobs;              /* worker threads (>= 1) */
    size_t max_file_bytes; /* larger files are a per-file error */
    const char *stdin_text; /* when non-NULL, the one file is read from this buffer */
    size_t stdin_len;
    const DlCheckOverride *overrides; /* files read from memory instead of the disk */
    size_t override_count;
    const char *cache_dir; /* result cache directory (driver/cache.h); NULL: no cache. Not used
                              with stdin_text or overrides */
    DlKeep *keep; /* the language server's models and results, kept from one check to the next
                     (driver/keep.h; in place of cache_dir); NULL: none */
    const char *compile_db_dir; /* C++: `-p DIR` (a compile_commands.json's directory), or NULL */
    bool no_pch;                /* C++: parse without precompiled headers (for measuring) */
} DlCheckOptions;

/* Checks `paths` (files, already expanded). Findings and per-file errors go into `out`
 * (sorted). */
void dl_check_files(char *const *paths, size_t count, const DlCheckOptions *opts, DlResult *out);

#endif
