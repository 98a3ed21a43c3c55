/* Adopting devlint on legacy code: a baseline file records today's findings so that only new
 * ones are reported (`--write-baseline FILE`, `--baseline FILE`), and `--diff-base REV` keeps
 * only findings on lines changed since a git revision. A finding matches the baseline by rule,
 * path and a fingerprint of the code around it, so moving lines does not make it new. */
#ifndef DL_BASELINE_H
#define DL_BASELINE_H
#include <stdbool.h>

#include "core/diag.h"

/* Writes every finding of `r` to `path` (JSON). False with *error on failure. */
bool dl_baseline_write(const char *path, const DlResult *r, char **error);

/* Removes from `r` the findings recorded in the baseline at `path`. False with *error when the
 * file cannot be read or is not a devlint baseline. */
bool dl_baseline_filter(const char *path, DlResult *r, char **error);

/* Keeps only the findings on lines added or changed since git revision `rev` (run in the
 * current directory's repository). False with *error when git fails. */
bool dl_diff_base_filter(const char *rev, DlResult *r, char **error);

#endif
