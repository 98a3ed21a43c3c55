#include "frontend/ts_region.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DL_TS_REGION_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                    \
    __has_feature(memory_sanitizer)
#define DL_TS_REGION_OFF 1
#endif
#endif

enum {
    DL_TS_CHUNK_FIRST = 256 * 1024,
    DL_TS_CHUNK_MAX = 8 * 1024 * 1024,
    DL_TS_HEADER = 16, /* each block starts with its size, keeping 16-byte alignment */
};
#define DL_TS_REGION_CAP ((size_t)256 * 1024 * 1024) /* bytes one region may take */

typedef struct Chunk {
    struct Chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} Chunk;

typedef struct Region {
    Chunk *head;
    size_t total;
    bool active;
    bool overflowed; /* something allocated inside went to libc */
} Region;

static _Thread_local Region region;
static bool regions_on;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

#ifndef DL_TS_REGION_OFF /* sanitizer builds: the region allocator is never installed */
static bool in_region(const void *p) {
    const unsigned char *q = p;
    for (const Chunk *c = region.head; c; c = c->next)
        if (q >= c->data && q < c->data + c->used) return true;
    return false;
}

static void *bump(size_t n) {
    size_t need = DL_TS_HEADER + ((n + 15) & ~(size_t)15);
    Chunk *c = region.head;
    if (!c || c->size - c->used < need) {
        size_t size = c ? c->size * 2 : DL_TS_CHUNK_FIRST;
        if (size > DL_TS_CHUNK_MAX) size = DL_TS_CHUNK_MAX;
        if (size < need) size = need;
        if (region.total + size > DL_TS_REGION_CAP) { /* full: libc from here on */
            region.overflowed = true;
            return NULL;
        }
        c = malloc(sizeof *c + size);
        if (!c) {
            region.overflowed = true;
            return NULL;
        }
        c->size = size;
        c->used = 0;
        c->next = region.head;
        region.head = c;
        region.total += size;
    }
    unsigned char *block = c->data + c->used;
    c->used += need;
    memcpy(block, &n, sizeof n);
    return block + DL_TS_HEADER;
}

static void *oom(void) {
    fputs("devlint: out of memory (tree-sitter)\n", stderr);
    abort();
}

static void *region_malloc(size_t n) {
    void *p = region.active ? bump(n) : NULL;
    if (!p && !(p = malloc(n ? n : 1))) return oom();
    return p;
}

static void *region_calloc(size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) return oom();
    size_t n = count * size;
    void *p = region.active ? bump(n) : NULL;
    if (p) return memset(p, 0, n);
    if (!(p = calloc(count ? count : 1, size ? size : 1))) return oom();
    return p;
}

static void *region_realloc(void *p, size_t n) {
    if (!p) return region_malloc(n);
    if (!region.active || !in_region(p)) {
        if (region.active) region.overflowed = true;
        void *q = realloc(p, n ? n : 1);
        return q ? q : oom();
    }
    size_t old;
    memcpy(&old, (unsigned char *)p - DL_TS_HEADER, sizeof old);
    if (n <= old) return p;
    void *q = region_malloc(n);
    memcpy(q, p, old);
    return q;
}

static void region_free(void *p) {
    if (!p || (region.active && in_region(p))) return; /* released with the region */
    free(p);
}

#endif

static void install(void) {
#ifndef DL_TS_REGION_OFF
    const char *off = getenv("DEVLINT_TS_MALLOC");
    if (off && *off && strcmp(off, "0") != 0) return;
    ts_set_allocator(region_malloc, region_calloc, region_realloc, region_free);
    regions_on = true;
#endif
}

void dl_ts_region_install(void) {
    pthread_once(&install_once, install);
}

bool dl_ts_region_enabled(void) {
    return regions_on;
}

void dl_ts_region_begin(void) {
    if (regions_on) region.active = true;
}

bool dl_ts_region_holds_everything(void) {
    return region.active && !region.overflowed;
}

void dl_ts_region_end(void) {
    Chunk *c = region.head;
    while (c) {
        Chunk *next = c->next;
        free(c);
        c = next;
    }
    region.head = NULL;
    region.total = 0;
    region.active = false;
    region.overflowed = false;
}
