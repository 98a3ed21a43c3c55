/* Arena allocator: bump allocation in growing blocks. */
#include "arena.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>

struct DlArenaBlock {
    DlArenaBlock *next;
    size_t used, size;
    _Alignas(8) unsigned char data[];
};

/* Blocks start small and double up to the largest size: a project holds one arena per file for
 * the whole run, and most files need a few kilobytes, not a full block. */
enum { DL_ARENA_FIRST_BLOCK = 4 * 1024, DL_ARENA_BLOCK = 64 * 1024 };

/* The long-lived arenas of one run (each file's program model) take their memory from a block
 * pool: large chunks, mapped with their pages present (one system call, not a page fault per 4
 * KiB), carved per thread, so that the arena a thread is filling grows in place (no half-used
 * block left at the end of every file's arena). Everything goes back with the pool. */
typedef struct PoolChunk {
    struct PoolChunk *next;
    size_t size;
} PoolChunk;

struct DlBlockPool {
    uint64_t id;          /* never reused: a thread's carving state names the pool it is for */
    pthread_mutex_t lock; /* guards `chunks` */
    PoolChunk *chunks;
};

/* This thread's chunk of a pool: [next, next + left) is free. */
static _Thread_local struct {
    uint64_t pool_id;
    unsigned char *next;
    size_t left;
} carving;

static atomic_uint_fast64_t last_pool_id;

enum { DL_POOL_CHUNK = 2 * 1024 * 1024, DL_POOL_HEADER = 64 };

DlBlockPool *dl_block_pool_new(void) {
    DlBlockPool *p = calloc(1, sizeof *p);
    if (!p) abort();
    p->id = atomic_fetch_add(&last_pool_id, 1) + 1;
    pthread_mutex_init(&p->lock, NULL);
    return p;
}

void dl_block_pool_free(DlBlockPool *p) {
    if (!p) return;
    for (PoolChunk *c = p->chunks, *next; c; c = next) {
        next = c->next;
        munmap(c, c->size);
    }
    pthread_mutex_destroy(&p->lock);
    free(p);
}

static void *pool_take(DlBlockPool *p, size_t n) {
    if (carving.pool_id != p->id || n > carving.left) {
        size_t size = n + DL_POOL_HEADER > DL_POOL_CHUNK
                          ? (n + DL_POOL_HEADER + 4095) & ~(size_t)4095
                          : DL_POOL_CHUNK;
        PoolChunk *c = mmap(NULL, size, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (c == MAP_FAILED) {
            fputs("devlint: out of memory\n", stderr);
            abort();
        }
        c->size = size;
        pthread_mutex_lock(&p->lock);
        c->next = p->chunks;
        p->chunks = c;
        pthread_mutex_unlock(&p->lock);
        carving.pool_id = p->id;
        carving.next = (unsigned char *)c + DL_POOL_HEADER;
        carving.left = size - DL_POOL_HEADER;
    }
    void *r = carving.next;
    carving.next += n;
    carving.left -= n;
    return r;
}

/* Whether `end` is where this thread carves next from `p`, with `n` bytes free there. */
static bool pool_extends(const DlBlockPool *p, const unsigned char *end, size_t n) {
    return carving.pool_id == p->id && carving.next == end && carving.left >= n;
}

void dl_arena_init(DlArena *arena) {
    arena->head = NULL;
    arena->pool = NULL;
}

void dl_arena_init_pooled(DlArena *arena, DlBlockPool *pool) {
    arena->head = NULL;
    arena->pool = pool;
}

void dl_arena_release(DlArena *arena) {
    if (arena->pool) {
        arena->head = NULL;
        return;
    }
    DlArenaBlock *b = arena->head;
    while (b) {
        DlArenaBlock *next = b->next;
        free(b);
        b = next;
    }
    arena->head = NULL;
}

void *dl_arena_alloc(DlArena *arena, size_t size) {
    size = (size + 7) & ~(size_t)7; /* 8: the largest alignment the program model needs */
    DlArenaBlock *b = arena->head;
    if (b && arena->pool && b->size - b->used < size &&
        pool_extends(arena->pool, b->data + b->size, size)) {
        carving.next += size; /* the block is the last thing carved here: it just grows */
        carving.left -= size;
        b->size += size;
    }
    if (!b || b->size - b->used < size) {
        size_t step = b ? (b->size * 2 < DL_ARENA_BLOCK ? b->size * 2 : DL_ARENA_BLOCK)
                        : DL_ARENA_FIRST_BLOCK;
        size_t cap = size > step ? size : step;
        b = arena->pool ? pool_take(arena->pool, sizeof *b + cap) : malloc(sizeof *b + cap);
        if (!b) {
            fputs("devlint: out of memory\n", stderr);
            abort();
        }
        b->size = cap;
        b->used = 0;
        b->next = arena->head;
        arena->head = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *dl_arena_concat(DlArena *arena, const char *const *parts, size_t n) {
    size_t lengths[8], total = 0;
    if (n > 8) abort();
    for (size_t i = 0; i < n; i++) total += lengths[i] = strlen(parts[i]);
    char *s = dl_arena_alloc(arena, total + 1), *out = s;
    for (size_t i = 0; i < n; i++) {
        memcpy(out, parts[i], lengths[i]);
        out += lengths[i];
    }
    *out = '\0';
    return s;
}

char *dl_arena_join(DlArena *arena, const char *a, char sep, const char *b) {
    const char between[2] = {sep, '\0'};
    return dl_arena_concat(arena, (const char *const[]){a, between, b}, 3);
}

char *dl_arena_strndup(DlArena *arena, const char *s, size_t n) {
    char *p = dl_arena_alloc(arena, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *dl_arena_strdup(DlArena *arena, const char *s) {
    return dl_arena_strndup(arena, s, strlen(s));
}

char *dl_arena_printf(DlArena *arena, const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = dl_arena_alloc(arena, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}
