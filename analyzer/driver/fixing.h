/* `devlint --fix` / `--diff`: applying the findings' fixes to their files. One round takes,
 * per file, every applicable fix that does not overlap another (fix/fix.h); the CLI re-checks
 * and repeats until nothing more applies. */
#ifndef DL_FIXING_H
#define DL_FIXING_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"

typedef struct DlFixRun {
    bool unsafe;     /* also apply fixes marked unsafe (--unsafe-fixes) */
    bool write;      /* write the files (--fix); otherwise only compute */
    FILE *diff_out;  /* print a unified diff of each changed file here (--diff), or NULL */
    const char *stdin_path; /* the name `-` was given (--stdin-filename): its text is stdin_text */
    const char *stdin_text;
    size_t stdin_len;
    char *stdin_fixed; /* out: the fixed stdin text (malloc'ed) when it changed */
    size_t stdin_fixed_len;
} DlFixRun;

/* Applies the fixes of `result` once. Returns how many fixes were applied (over all files);
 * files that cannot be read or written add a per-file error to `errors`. */
size_t dl_fix_round(const DlResult *result, DlFixRun *run, DlResult *errors);

/* Does a finding have a fix this run may apply? */
bool dl_fix_applicable(const DlDiag *d, const DlFixRun *run);

#endif
