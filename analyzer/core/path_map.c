/* The path map (see path_map.h): chained buckets, doubled when the entries outnumber them. */
#include "core/path_map.h"

#include <stdlib.h>
#include <string.h>

#include "core/hash.h"

struct DlPathMapEntry {
    DlPathMapEntry *next;
    uint64_t hash;
    void *value;
    char path[]; /* the key, NUL-terminated */
};

enum { INITIAL_BUCKETS = 64 };

static uint64_t hash_path(const char *path) {
    return dl_hash_bytes(path, strlen(path), 0x70617468);
}

void dl_path_map_init(DlPathMap *map) {
    memset(map, 0, sizeof *map);
}

void dl_path_map_free(DlPathMap *map) {
    for (size_t b = 0; b < map->bucket_count; b++)
        for (DlPathMapEntry *e = map->buckets[b], *next; e; e = next) {
            next = e->next;
            free(e);
        }
    free(map->buckets);
    memset(map, 0, sizeof *map);
}

static DlPathMapEntry **slot(const DlPathMap *map, const char *path, uint64_t hash) {
    DlPathMapEntry **at = &map->buckets[hash & (map->bucket_count - 1)];
    while (*at && ((*at)->hash != hash || strcmp((*at)->path, path) != 0)) at = &(*at)->next;
    return at;
}

void *dl_path_map_get(const DlPathMap *map, const char *path) {
    if (!map->count) return NULL;
    DlPathMapEntry *e = *slot(map, path, hash_path(path));
    return e ? e->value : NULL;
}

static void grow(DlPathMap *map) {
    size_t count = map->bucket_count ? map->bucket_count * 2 : INITIAL_BUCKETS;
    DlPathMapEntry **buckets = calloc(count, sizeof *buckets);
    if (!buckets) abort();
    for (size_t b = 0; b < map->bucket_count; b++)
        for (DlPathMapEntry *e = map->buckets[b], *next; e; e = next) {
            next = e->next;
            DlPathMapEntry **head = &buckets[e->hash & (count - 1)];
            e->next = *head;
            *head = e;
        }
    free(map->buckets);
    map->buckets = buckets;
    map->bucket_count = count;
}

void *dl_path_map_put(DlPathMap *map, const char *path, void *value) {
    if (map->count >= map->bucket_count) grow(map);
    uint64_t hash = hash_path(path);
    DlPathMapEntry **at = slot(map, path, hash);
    if (*at) {
        void *old = (*at)->value;
        (*at)->value = value;
        return old;
    }
    size_t len = strlen(path);
    DlPathMapEntry *e = malloc(sizeof *e + len + 1);
    if (!e) abort();
    e->next = NULL;
    e->hash = hash;
    e->value = value;
    memcpy(e->path, path, len + 1);
    *at = e;
    map->count++;
    return NULL;
}

void *dl_path_map_remove(DlPathMap *map, const char *path) {
    if (!map->count) return NULL;
    DlPathMapEntry **at = slot(map, path, hash_path(path));
    DlPathMapEntry *e = *at;
    if (!e) return NULL;
    void *value = e->value;
    *at = e->next;
    free(e);
    map->count--;
    return value;
}

void dl_path_map_each(DlPathMap *map, int (*visit)(void *ctx, const char *path, void *value),
                      void *ctx) {
    for (size_t b = 0; b < map->bucket_count; b++)
        for (DlPathMapEntry **at = &map->buckets[b]; *at;) {
            DlPathMapEntry *e = *at;
            if (!visit(ctx, e->path, e->value)) {
                at = &e->next;
                continue;
            }
            *at = e->next;
            free(e);
            map->count--;
        }
}
