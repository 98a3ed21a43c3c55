/* One file reached through more than one path: a symlink to a file that is checked too (a
 * project that links each recipe's modules to one copy, like k2-fsa/icefall's 1,358 links), or a
 * hard link. Each path is still its own module to Python (it imports its own directory's
 * siblings), so each is analysed as the project sees it; but the findings are the file's, and
 * are reported once, at the path where the file is (a path that is not itself a symlink; else
 * the first in order). Reported at every path, `--fix` would edit the one file once per path
 * (the second edit landing on text the first had changed). */
#ifndef DL_DRIVER_ALIASES_H
#define DL_DRIVER_ALIASES_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/diag.h"

/* What identifies a file on disk; `known` is false for text that is not the disk's (standard
 * input, an unsaved editor buffer) or a path stat could not read. */
typedef struct DlFileIdentity {
    dev_t dev;
    ino_t ino;
    bool known;
} DlFileIdentity;

#define DL_NOT_AN_ALIAS ((size_t)-1)

/* For each path, the index of the path whose findings report its file (DL_NOT_AN_ALIAS for
 * that path itself and for a file reached once). NULL when no file is reached twice, the usual
 * case; else a malloc'd array of `count`. */
size_t *dl_aliases_find(char *const *paths, const DlFileIdentity *ids, size_t count);

/* Adds the results of the aliases (`aliased`, emptied) to `out`, which holds the other paths'
 * results, sorted: a finding or error at an alias's path is moved to its file's reported path
 * (`alias_of` names it); a finding at a place (path, cell, line, column, rule) that `out`
 * already has, or that another alias brought first, is dropped (the same file was analysed
 * twice, and the two contexts may word a message differently), as is an error for a path that
 * has one. The aliases are not counted in `files_checked`. `out` is sorted again. */
void dl_aliases_fold(DlResult *out, DlResult *aliased, char *const *paths,
                     const size_t *alias_of, size_t count);

#endif
