/* Unit tests for core/arena: plain arenas, and arenas whose blocks come from a block pool (the
 * memory of a run's program models): zeroed, aligned, growing in place, several arenas and
 * threads at once, and a new pool never carving from a freed one. */
#include "core/arena.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

static void assert_zeroed_and_aligned(const unsigned char *p, size_t n) {
    cr_assert_eq((uintptr_t)p % 8, 0, "allocation not 8-byte aligned");
    for (size_t i = 0; i < n; i++) cr_assert_eq(p[i], 0, "byte %zu not zeroed", i);
}

Test(arena, plain_allocations_are_zeroed_aligned_and_distinct) {
    DlArena arena;
    dl_arena_init(&arena);
    unsigned char *a = dl_arena_alloc(&arena, 3);
    unsigned char *b = dl_arena_alloc(&arena, 100000); /* larger than a block */
    assert_zeroed_and_aligned(a, 3);
    assert_zeroed_and_aligned(b, 100000);
    memset(b, 0xAB, 100000);
    cr_assert(a + 3 <= b || b + 100000 <= a, "allocations overlap");
    cr_assert_str_eq(dl_arena_join(&arena, "torch", '.', "nn"), "torch.nn");
    cr_assert_str_eq(dl_arena_join(&arena, "cuda:", '\0', "1"), "cuda:1");
    cr_assert_str_eq(dl_arena_concat(&arena, (const char *const[]){"cfg", "[", "device", "]"}, 4),
                     "cfg[device]");
    dl_arena_release(&arena);
}

/* Fills an arena with `count` allocations of varying sizes, each stamped with its index, and
 * checks afterwards that none was overwritten by a later one. */
static void fill_and_check(DlArena *arena, unsigned seed, int count) {
    unsigned char **items = malloc((size_t)count * sizeof *items);
    size_t *sizes = malloc((size_t)count * sizeof *sizes);
    cr_assert(items && sizes);
    for (int i = 0; i < count; i++) {
        sizes[i] = 1 + (seed * 2654435761u + (unsigned)i * 40503u) % 3000;
        items[i] = dl_arena_alloc(arena, sizes[i]);
        assert_zeroed_and_aligned(items[i], sizes[i]);
        memset(items[i], (int)((seed + (unsigned)i) & 0xFF), sizes[i]);
    }
    for (int i = 0; i < count; i++)
        for (size_t k = 0; k < sizes[i]; k++)
            cr_assert_eq(items[i][k], (unsigned char)((seed + (unsigned)i) & 0xFF),
                         "allocation %d overwritten at byte %zu", i, k);
    free(items);
    free(sizes);
}

Test(arena, pooled_arenas_hold_their_data_until_the_pool_goes) {
    DlBlockPool *pool = dl_block_pool_new();
    DlArena a, b;
    dl_arena_init_pooled(&a, pool);
    dl_arena_init_pooled(&b, pool);
    fill_and_check(&a, 1, 3000); /* ~4.5 MB: grows in place across more than one chunk */
    fill_and_check(&b, 2, 500);
    fill_and_check(&a, 3, 500); /* a again, after b carved from the same chunk */
    unsigned char *big = dl_arena_alloc(&b, 5 * 1024 * 1024); /* larger than a chunk */
    assert_zeroed_and_aligned(big, 5 * 1024 * 1024);
    dl_arena_release(&a); /* gives nothing back: the pool owns the memory */
    dl_arena_release(&b);
    dl_block_pool_free(pool);
}

Test(arena, a_new_pool_never_carves_from_a_freed_one) {
    for (int round = 0; round < 4; round++) { /* a new pool may get the old one's address */
        DlBlockPool *pool = dl_block_pool_new();
        DlArena a;
        dl_arena_init_pooled(&a, pool);
        fill_and_check(&a, (unsigned)round, 200);
        dl_arena_release(&a);
        dl_block_pool_free(pool);
    }
}

typedef struct {
    DlBlockPool *pool;
    unsigned seed;
} Worker;

static void *fill_on_a_thread(void *arg) {
    Worker *w = arg;
    for (int file = 0; file < 8; file++) { /* one arena after another, as files are lowered */
        DlArena a;
        dl_arena_init_pooled(&a, w->pool);
        fill_and_check(&a, w->seed + (unsigned)file, 300);
    }
    return NULL;
}

Test(arena, threads_carve_from_one_pool_without_overlap) {
    DlBlockPool *pool = dl_block_pool_new();
    pthread_t threads[4];
    Worker work[4];
    for (int t = 0; t < 4; t++) {
        work[t] = (Worker){pool, (unsigned)t * 100};
        cr_assert_eq(pthread_create(&threads[t], NULL, fill_on_a_thread, &work[t]), 0);
    }
    for (int t = 0; t < 4; t++) pthread_join(threads[t], NULL);
    dl_block_pool_free(pool);
}
