/* What both front ends (python.c, cpp.c) use while lowering into the program model. */
#ifndef DL_FRONTEND_LOWER_COMMON_H
#define DL_FRONTEND_LOWER_COMMON_H
#include <stdint.h>
#include <string.h>

#include "core/arena.h"
#include "core/vec.h"

/* Children collected on the heap while their number is unknown ... */
typedef DL_VEC(void *) DlPtrVec;

/* ... then copied into the file's arena (NULL when empty); the vector is freed. */
static inline void **dl_ptrvec_finish(DlArena *arena, DlPtrVec *v, uint32_t *count) {
    *count = (uint32_t)v->len;
    void **out = NULL;
    if (v->len) {
        out = dl_arena_alloc(arena, v->len * sizeof(void *));
        memcpy(out, v->items, v->len * sizeof(void *));
    }
    dl_vec_free(v);
    return out;
}

/* The same for a count the model keeps in 16 bits (DL_MAX_ASSIGN_TARGETS): children past
 * UINT16_MAX are dropped. */
static inline void **dl_ptrvec_finish16(DlArena *arena, DlPtrVec *v, uint16_t *count) {
    if (v->len > UINT16_MAX) v->len = UINT16_MAX;
    uint32_t n;
    void **out = dl_ptrvec_finish(arena, v, &n);
    *count = (uint16_t)n;
    return out;
}

#endif
