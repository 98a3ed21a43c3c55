/* A set of strings with one copy of each: a front end interns the names of a file as it lowers
 * them (one arena string per distinct name instead of one per occurrence), and remembers which
 * of them the file refers to (names read, attributes, imports: not the names it defines). The
 * project keeps the union of what files refer to, so a function nobody names needs no summary. */
#ifndef DL_INTERN_H
#define DL_INTERN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"

typedef struct DlInternEntry {
    const char *text; /* NUL-terminated */
    uint32_t len;
    uint32_t hash;
    bool referenced;
} DlInternEntry;

typedef struct DlInterner {
    DlArena *arena; /* where interned strings are copied; NULL: the set only stores pointers */
    DlInternEntry *slots;
    uint32_t cap, count; /* cap: a power of two, or 0 */
} DlInterner;

void dl_interner_init(DlInterner *t, DlArena *arena);
void dl_interner_free(DlInterner *t); /* the table; the strings stay in the arena */

/* The one copy of s[0..len) (copied into the arena the first time). `referenced` marks the
 * name as one the file refers to; a later call can add the mark, never remove it. */
const char *dl_intern(DlInterner *t, const char *s, size_t len, bool referenced);

/* Adds an existing NUL-terminated string (not copied: it must outlive the set), referenced. */
void dl_interner_add(DlInterner *t, const char *s);

/* Adds every string of `from` the way dl_interner_add does (the union of two sets). */
void dl_interner_add_all(DlInterner *into, const DlInterner *from);

bool dl_interner_contains(const DlInterner *t, const char *s);

/* The referenced names, as an arena array. */
const char **dl_interner_referenced(const DlInterner *t, DlArena *arena, uint32_t *count);

#endif
