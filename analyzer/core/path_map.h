/* A map from a path (any NUL-terminated string, copied) to a pointer the caller owns: what the
 * language server keeps from one check to the next, by file (driver/keep.h, the in-memory result
 * cache). Not thread-safe: its users hold their own lock. */
#ifndef DL_PATH_MAP_H
#define DL_PATH_MAP_H
#include <stddef.h>
#include <stdint.h>

typedef struct DlPathMapEntry DlPathMapEntry;

typedef struct DlPathMap {
    DlPathMapEntry **buckets;
    size_t bucket_count, count;
} DlPathMap;

void dl_path_map_init(DlPathMap *map);
/* Frees the map and its keys, not the values (take them out first with dl_path_map_each). */
void dl_path_map_free(DlPathMap *map);

void *dl_path_map_get(const DlPathMap *map, const char *path);
/* Sets the value for `path`; returns the one it replaces (NULL: none). */
void *dl_path_map_put(DlPathMap *map, const char *path, void *value);
/* Removes `path`; returns its value (NULL: none). */
void *dl_path_map_remove(DlPathMap *map, const char *path);

/* Calls `visit` for every entry, in no particular order; the entry is removed when it returns
 * non-zero (it has freed or taken the value). */
void dl_path_map_each(DlPathMap *map, int (*visit)(void *ctx, const char *path, void *value),
                      void *ctx);

#endif
