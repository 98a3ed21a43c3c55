/* Arena allocator: bump allocation in growing blocks. */
#include "arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct DlArenaBlock {
    DlArenaBlock *next;
    size_t used, size;
    _Alignas(8) unsigned char data[];
};

/* Blocks start small and double up to the largest size: a project holds one arena per file for
 * the whole run, and most files need a few kilobytes, not a full block. */
enum { DL_ARENA_FIRST_BLOCK = 4 * 1024, DL_ARENA_BLOCK = 64 * 1024 };

void dl_arena_init(DlArena *arena) {
    arena->head = NULL;
}

void dl_arena_release(DlArena *arena) {
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
    if (!b || b->size - b->used < size) {
        size_t step = b ? (b->size * 2 < DL_ARENA_BLOCK ? b->size * 2 : DL_ARENA_BLOCK)
                        : DL_ARENA_FIRST_BLOCK;
        size_t cap = size > step ? size : step;
        b = malloc(sizeof *b + cap);
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

char *dl_arena_join(DlArena *arena, const char *a, char sep, const char *b) {
    size_t la = strlen(a), lb = strlen(b), ls = sep != '\0';
    char *p = dl_arena_alloc(arena, la + ls + lb + 1);
    memcpy(p, a, la);
    if (ls) p[la] = sep;
    memcpy(p + la + ls, b, lb + 1);
    return p;
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
