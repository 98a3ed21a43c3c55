/* Valid Python that the pinned tree-sitter-python grammar rejects, patched in place (same
 * length, same offsets) so that it parses: see python_grammar_gaps.c. */
#ifndef DL_PYTHON_GRAMMAR_GAPS_H
#define DL_PYTHON_GRAMMAR_GAPS_H
#include <stddef.h>

/* A malloc'd copy of `text` (NUL-terminated) with the known gaps patched, or NULL when there
 * is nothing to patch (or no memory). */
char *dl_python_patch_grammar_gaps(const char *text, size_t len);

#endif
