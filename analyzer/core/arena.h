/* Region allocator: everything one file's analysis allocates lives in one arena and is freed in
 * one call. Allocations are 8-byte aligned; there is no per-object free. */
#ifndef DL_ARENA_H
#define DL_ARENA_H
#include <stddef.h>

typedef struct DlArenaBlock DlArenaBlock;
typedef struct DlBlockPool DlBlockPool;
typedef struct DlArena {
    DlArenaBlock *head;
    DlBlockPool *pool; /* NULL: blocks come from malloc */
} DlArena;

void dl_arena_init(DlArena *arena);
/* An arena whose blocks come from `pool` (see arena.c): releasing it gives nothing back; the
 * pool's memory goes all at once with dl_block_pool_free(), after its arenas are done with. For
 * arenas that live as long as a run (a file's program model), filled by one thread at a time. */
void dl_arena_init_pooled(DlArena *arena, DlBlockPool *pool);
DlBlockPool *dl_block_pool_new(void);
void dl_block_pool_free(DlBlockPool *pool);
void dl_arena_release(DlArena *arena);
void *dl_arena_alloc(DlArena *arena, size_t size); /* zeroed memory; aborts on OOM */
char *dl_arena_strndup(DlArena *arena, const char *s, size_t n);
char *dl_arena_strdup(DlArena *arena, const char *s);
/* The n (at most 8) strings one after the other, without printf's cost: keys and messages built
 * on every attribute and call the analysis evaluates. */
char *dl_arena_concat(DlArena *arena, const char *const *parts, size_t n);
/* "a" sep "b" (sep '\0': nothing between). */
char *dl_arena_join(DlArena *arena, const char *a, char sep, const char *b);
char *dl_arena_printf(DlArena *arena, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
