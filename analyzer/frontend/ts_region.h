/* Region allocation for tree-sitter parses. A parse makes hundreds of thousands of small
 * malloc/realloc/free calls (about a tenth of a Python parse's instructions); between
 * dl_ts_region_begin() and dl_ts_region_end() on a thread, tree-sitter's allocations on that
 * thread are bump-allocated from large chunks instead, its frees cost nothing, and the end
 * releases everything at once. Begin before ts_parser_new(), end after ts_tree_delete() and
 * ts_parser_delete(): nothing tree-sitter allocated inside may outlive the region.
 *
 * Outside a region (the TOML reader, other threads) allocations go to libc as before. A region
 * that grows past DL_TS_REGION_CAP stops growing: later allocations go to libc too, so a
 * pathological file costs what it did without regions. Sanitizer builds and
 * DEVLINT_TS_MALLOC=1 keep libc throughout (ASan then sees tree-sitter's memory). */
#ifndef DL_TS_REGION_H
#define DL_TS_REGION_H
#include <stdbool.h>

/* Installs the allocator (once per process; a no-op where regions are off). */
void dl_ts_region_install(void);

/* Whether regions are in use (installed, not a sanitizer build, no DEVLINT_TS_MALLOC=1). */
bool dl_ts_region_enabled(void);

void dl_ts_region_begin(void);
void dl_ts_region_end(void);

/* Whether everything tree-sitter allocated since the begin is in the region (nothing went to
 * libc): then deleting the tree is only a walk that frees nothing, and can be left to the end. */
bool dl_ts_region_holds_everything(void);

#endif
