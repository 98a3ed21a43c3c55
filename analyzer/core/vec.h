/* One growable-array helper for the whole code base (heap backed, like tree-sitter's Array).
 * A vector is a struct { T *items; size_t len, cap; }; zero-initialised means empty. */
#ifndef DL_VEC_H
#define DL_VEC_H
#include <stdlib.h>
#include <stdio.h>

#define DL_VEC(T)                                                                                  \
    struct {                                                                                       \
        T *items;                                                                                  \
        size_t len, cap;                                                                           \
    }

#define dl_vec_reserve(v, n)                                                                       \
    do {                                                                                           \
        if ((n) > (v)->cap) {                                                                      \
            size_t dl_cap_ = (v)->cap ? (v)->cap * 2 : 8;                                          \
            while (dl_cap_ < (n)) dl_cap_ *= 2;                                                    \
            void *dl_p_ = realloc((v)->items, dl_cap_ * sizeof *(v)->items);                       \
            if (!dl_p_) {                                                                          \
                fputs("devlint: out of memory\n", stderr);                                         \
                abort();                                                                           \
            }                                                                                      \
            (v)->items = dl_p_;                                                                    \
            (v)->cap = dl_cap_;                                                                    \
        }                                                                                          \
    } while (0)

#define dl_vec_push(v, x)                                                                          \
    do {                                                                                           \
        dl_vec_reserve((v), (v)->len + 1);                                                         \
        (v)->items[(v)->len++] = (x);                                                              \
    } while (0)

#define dl_vec_free(v)                                                                             \
    do {                                                                                           \
        free((v)->items);                                                                          \
        (v)->items = NULL;                                                                         \
        (v)->len = (v)->cap = 0;                                                                   \
    } while (0)

#endif
