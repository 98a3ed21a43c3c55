/* The stat memo (see stat_memo.h): paths hash to one of SHARDS open-addressing tables, each
 * under its own mutex, so threads checking different headers seldom wait for each other. The
 * stat itself runs outside the lock; when two threads miss the same path at once, the first
 * answer stored is the one both return. */
#include "core/stat_memo.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"

typedef struct Entry {
    char *path; /* NULL: an empty slot */
    uint64_t hash;
    struct stat st;
    int err; /* stat's errno, 0 when it succeeded */
} Entry;

typedef struct Shard {
    pthread_mutex_t lock;
    Entry *slots;
    size_t cap, count; /* cap: a power of two, or 0 */
} Shard;

enum { SHARDS = 16 };

struct DlStatMemo {
    Shard shards[SHARDS];
};

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n, size);
    if (!p) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    return p;
}

DlStatMemo *dl_stat_memo_new(void) {
    DlStatMemo *memo = xcalloc(1, sizeof *memo);
    for (size_t i = 0; i < SHARDS; i++)
        pthread_mutex_init(&memo->shards[i].lock, NULL);
    return memo;
}

void dl_stat_memo_free(DlStatMemo *memo) {
    if (!memo) return;
    for (size_t i = 0; i < SHARDS; i++) {
        Shard *s = &memo->shards[i];
        for (size_t k = 0; k < s->cap; k++)
            free(s->slots[k].path);
        free(s->slots);
        pthread_mutex_destroy(&s->lock);
    }
    free(memo);
}

/* The slot holding `path`, or the empty slot where it belongs. The shard is never full. */
static Entry *probe(const Shard *s, const char *path, uint64_t hash) {
    size_t mask = s->cap - 1;
    /* the low bits chose the shard: the slot comes from the high ones */
    for (size_t i = (size_t)(hash >> 32) & mask;; i = (i + 1) & mask) {
        Entry *e = &s->slots[i];
        if (!e->path || (e->hash == hash && strcmp(e->path, path) == 0)) return e;
    }
}

static void grow(Shard *s) {
    Shard bigger = {.cap = s->cap ? s->cap * 2 : 64};
    bigger.slots = xcalloc(bigger.cap, sizeof *bigger.slots);
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i].path) *probe(&bigger, s->slots[i].path, s->slots[i].hash) = s->slots[i];
    free(s->slots);
    s->slots = bigger.slots;
    s->cap = bigger.cap;
}

/* Copies the entry's answer out: 0, or -1 with errno set, like stat. */
static int answer(const Entry *e, struct stat *st) {
    if (e->err) {
        errno = e->err;
        return -1;
    }
    *st = e->st;
    return 0;
}

int dl_stat_memo_stat(DlStatMemo *memo, const char *path, struct stat *st) {
    if (!memo) return stat(path, st);
    uint64_t hash = dl_hash_bytes(path, strlen(path), 0x73746174);
    Shard *s = &memo->shards[hash % SHARDS];
    pthread_mutex_lock(&s->lock);
    Entry *e = s->cap ? probe(s, path, hash) : NULL;
    if (e && e->path) {
        int rc = answer(e, st);
        pthread_mutex_unlock(&s->lock);
        return rc;
    }
    pthread_mutex_unlock(&s->lock);

    Entry fresh = {.hash = hash};
    if (stat(path, &fresh.st) != 0) fresh.err = errno ? errno : ENOENT;

    pthread_mutex_lock(&s->lock);
    if ((s->count + 1) * 4 > s->cap * 3) grow(s); /* at most 3/4 full */
    e = probe(s, path, hash);
    if (!e->path) { /* nobody stored it meanwhile */
        fresh.path = strdup(path);
        if (!fresh.path) {
            fputs("devlint: out of memory\n", stderr);
            abort();
        }
        *e = fresh;
        s->count++;
    }
    int rc = answer(e, st);
    pthread_mutex_unlock(&s->lock);
    return rc;
}
