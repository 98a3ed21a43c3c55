/* Which files' facts may leave DataLoader marks (see dl_sharing_may_place_marks in sharing.h):
 * the files that mention DataLoader, and the files whose classes may inherit a method from a
 * class of such a file, found from the decision's table of names (sharing_table.h). */
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "driver/sharing_table.h"

typedef DL_VEC(uint32_t) SlotVec;

/* A file that defines classes may name the class in table slot `slot` as a base. */
typedef struct ClassMention {
    uint32_t slot, file;
} ClassMention;

typedef DL_VEC(ClassMention) ClassMentionVec;

static int by_slot(const void *a, const void *b) {
    const ClassMention *x = a, *y = b;
    if (x->slot != y->slot) return (x->slot > y->slot) - (x->slot < y->slot);
    return (x->file > y->file) - (x->file < y->file);
}

/* File i may place marks: so may every file defining a class that may name one of its classes
 * as a base (pushed on `newly`, the slots of the classes newly known as such). */
static void mark_source(DlSharing *s, size_t i, SlotVec *newly) {
    const DlSharingFile *f = &s->files[i];
    s->places_marks[i] = true;
    const char *name = f->names;
    for (uint32_t k = 0; k < f->class_count; k++) {
        size_t n = strlen(name);
        Name *entry = dl_sharing_slot(s, name, n, dl_name_hash(name, n));
        if (entry->text && !entry->marks) {
            entry->marks = true;
            dl_vec_push(newly, (uint32_t)(entry - s->names));
        }
        name += n + 1;
    }
}

/* dl_sharing_may_place_marks for every file: the files that mention DataLoader, then a walk
 * over "defines a class and may name a class of as a base" (each file and each name at most
 * once). A base is resolved from the names of its base list, through the file's imports
 * (dataflow/project.c, qualify_static): `from base import Trainer as T` ... `class Mine(T)`. */
void dl_sharing_find_mark_sources(DlSharing *s) {
    SlotVec newly = {0};
    for (size_t i = 0; i < s->file_count; i++)
        if (s->files[i].takes_part && s->files[i].mentions_dataloader) mark_source(s, i, &newly);
    if (!newly.len) return;
    /* where the other files that define classes may name a base: in their base lists, and in
     * their imports too when one binds an alias (`from base import Trainer as T` then
     * `class Mine(T)`); else anywhere (driver/module_refs.h) */
    ClassMentionVec mentions = {0};
    for (size_t i = 0; i < s->file_count; i++) {
        const DlSharingFile *f = &s->files[i];
        if (!f->takes_part || !f->class_count || s->places_marks[i]) continue;
        const uint32_t *hashes = f->module_refs_known ? f->module_refs : f->mentions;
        uint32_t count = !f->module_refs_known ? f->mention_count
                         : f->import_alias     ? f->module_ref_count
                                               : f->base_ref_count;
        for (uint32_t k = 0; k < count; k++) {
            uint32_t hash = hashes[k];
            if (!filter_may_hold(s->filter, hash)) continue;
            for (uint32_t j = hash & (s->cap - 1); s->names[j].text; j = (j + 1) & (s->cap - 1))
                if (s->names[j].hash == hash && s->names[j].is_class)
                    dl_vec_push(&mentions, ((ClassMention){j, (uint32_t)i}));
        }
    }
    if (mentions.len) qsort(mentions.items, mentions.len, sizeof *mentions.items, by_slot);
    while (newly.len) {
        uint32_t slot = newly.items[--newly.len];
        size_t stride = sizeof *mentions.items / sizeof(uint32_t);
        size_t lo = mentions.len ? dl_sharing_lower_bound(&mentions.items[0].slot, stride,
                                                          mentions.len, slot)
                                 : 0;
        for (; lo < mentions.len && mentions.items[lo].slot == slot; lo++)
            if (!s->places_marks[mentions.items[lo].file])
                mark_source(s, mentions.items[lo].file, &newly);
    }
    dl_vec_free(&mentions);
    dl_vec_free(&newly);
}

bool dl_sharing_may_place_marks(const DlSharing *s, size_t i) {
    return i < s->file_count && s->places_marks[i];
}
