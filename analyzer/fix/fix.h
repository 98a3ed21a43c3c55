/* Applying fixes: turning DlFix edits (1-based lines, code-point columns, end exclusive) into
 * new file contents, a unified diff of them, and an atomic write that keeps the file's mode.
 * Deciding which fixes exist is the rules' business; this module only applies them. */
#ifndef DL_FIX_H
#define DL_FIX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"
#include "core/source.h"

/* Applies `fixes` to `src`. A fix is applied whole or not at all: fixes are taken in a
 * deterministic order (by the position of their earliest edit, then by their position in the
 * array) and one that overlaps an edit already taken is skipped. Overlap: two replaced ranges
 * sharing a byte, an insertion strictly inside a replaced range, or two insertions at the same
 * point; ranges that only touch do not overlap, and an insertion at the start of a replaced
 * range lands before its replacement. A fix with no edits, an edit ending before it starts or
 * overlapping edits of its own is never taken. Positions past a line's end clamp to the end of
 * its text, lines past the file to the file's end. Inserted text's "\n" (or "\r\n") become
 * the file's line ending ("\r\n" in a CRLF file, "\r" in a CR file, from its first line).
 * Returns the new text (malloc'ed, NUL-terminated, length in *out_len); *applied_count (may be
 * NULL) tells how many fixes were taken. Never fails except on out-of-memory (abort).
 * Positions are taken as positions in `src`: a notebook edit's `cell` is not looked at, so the
 * caller maps cell-relative edits (or passes the cell's own source) first. */
char *dl_fix_apply(const DlSource *src, const DlFix *const *fixes, size_t fix_count,
                   size_t *out_len, size_t *applied_count);

/* dl_fix_apply that also says which fixes were taken: taken[i] (fix_count entries, may be
 * NULL) is set for fixes[i], so a caller can report which findings were fixed. */
char *dl_fix_apply_marked(const DlSource *src, const DlFix *const *fixes, size_t fix_count,
                          size_t *out_len, bool *taken);

/* Writes a unified diff (`--- a/PATH`, `+++ b/PATH`, hunks with 3 lines of context, like
 * `diff -u` / `git diff`) of old -> new to `out`; nothing when they are equal. The output applies
 * with `patch -p1` from the directory PATH is relative to. Returns true if there was a change. */
bool dl_diff_unified(FILE *out, const char *path, const char *old_text, size_t old_len,
                     const char *new_text, size_t new_len);

/* Replaces the file at `path` with `data` atomically (a temporary file in the same directory,
 * fsync, rename), keeping the original file's permission bits. On failure returns false and
 * sets *error (malloc'ed, "cannot write PATH: reason"); the original is untouched. */
bool dl_write_atomic(const char *path, const char *data, size_t len, char **error);

#endif
