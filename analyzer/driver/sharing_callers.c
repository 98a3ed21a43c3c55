/* The functions whose parameter defaults to the CPU, and the files that may call them
 * (internal to driver/sharing*.c).
 *
 * `def train_model(model, ds, epochs=50, device="cpu")` runs on the CPU when no call hands it a
 * device: the analysis reads every call of it (dataflow/flow_callers.c). Calls in the defining
 * file are in its own model; those in other files are read when those files are built with the
 * project. So a file that mentions the name of another file's function whose parameter list
 * holds the string "cpu" is shared (src/cli.py, a script nothing imports, calling
 * evaluation.py's `walk_forward_validation` without a device), and the defining file's names
 * digest holds which files mention it: a new caller checks it again.
 *
 * Only a function defined at the start of a line counts (the analysis reads the calls of a
 * top-level function's, and of a constructor's). For `__init__` the name calls use is its
 * class's: a file with such an `__init__` gives every class name it defines (a superset, read
 * from the text without following indentation). A
 * mention is any identifier of the text, comments and strings included (DlSharingFile.
 * mentions): a superset of the calls, so a caller is never left out. */
#include <stdlib.h>
#include <string.h>

#include "core/cpu_literal.h"
#include "core/hash.h"
#include "driver/sharing_table.h"

/* Whether the parameter list opening at `open` (a `(`) holds the string literal "cpu" (or
 * 'cpu', "cpu:0"): `device="cpu"`, `device=torch.device('cpu')`. */
static bool parameters_name_the_cpu(const char *text, size_t len, size_t open) {
    int depth = 0;
    for (size_t at = open; at < len; at++) {
        char c = text[at];
        if (c == '(' || c == '[' || c == '{') depth++;
        if ((c == ')' || c == ']' || c == '}') && --depth == 0) return false;
        if (c == '#') { /* a comment between parameters */
            while (at < len && text[at] != '\n') at++;
            continue;
        }
        if (c != '"' && c != '\'') continue;
        size_t end = at + 1;
        while (end < len && text[end] != c && text[end] != '\n') end += text[end] == '\\' ? 2 : 1;
        if (end >= len || text[end] != c) return false;
        if (dl_names_the_cpu_literally(text + at + 1, end - at - 1)) return true;
        at = end;
    }
    return false;
}

static void add_name(DlCpuDefaults *c, uint32_t hash) {
    if (c->count == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 8;
        c->names = realloc(c->names, c->cap * sizeof *c->names);
        if (!c->names) abort();
    }
    c->names[c->count++] = hash;
}

void dl_sharing_note_cpu_default(DlCpuDefaults *c, const char *text, size_t len, size_t name,
                                 size_t n, bool top) {
    size_t open = name + n;
    while (open < len && (text[open] == ' ' || text[open] == '\t')) open++;
    if (open >= len || text[open] != '(' || !parameters_name_the_cpu(text, len, open)) return;
    if (n == 8 && memcmp(text + name, "__init__", 8) == 0) {
        c->an_init = true;
        return;
    }
    if (!top) return; /* a method's name (`forward`): only top-level functions count */
    add_name(c, dl_name_hash(text + name, n));
}

void dl_sharing_keep_cpu_defaults(DlSharingFile *f, DlCpuDefaults *c) {
    /* `Runner(...)` constructs with such an `__init__`: every class name of the file */
    const char *cls = f->names;
    for (uint32_t k = 0; c->an_init && k < f->class_count; k++, cls += strlen(cls) + 1) {
        add_name(c, dl_name_hash(cls, strlen(cls)));
    }
    if (!c->count) {
        free(c->names);
        return;
    }
    f->cpu_device_functions = c->names;
    f->cpu_device_function_count = dl_sharing_sort_unique(c->names, c->count);
}

void dl_sharing_share_cpu_device_callers(DlSharing *s) {
    DL_VEC(struct NameInFile) definers = {0};
    for (size_t i = 0; i < s->file_count; i++) {
        const DlSharingFile *f = &s->files[i];
        for (uint32_t k = 0; f->takes_part && k < f->cpu_device_function_count; k++)
            dl_vec_push(&definers, ((struct NameInFile){f->cpu_device_functions[k], (uint32_t)i}));
    }
    if (!definers.len) return;
    qsort(definers.items, definers.len, sizeof *definers.items, dl_sharing_by_name_then_file);
    DL_VEC(struct NameInFile) callers = {0};
    for (size_t i = 0; i < s->file_count; i++) {
        const DlSharingFile *f = &s->files[i];
        for (uint32_t k = 0; f->takes_part && k < f->mention_count; k++) {
            uint32_t name = f->mentions[k];
            for (size_t at = dl_sharing_first_of(definers.items, definers.len, name);
                 at < definers.len && definers.items[at].name == name; at++)
                if (definers.items[at].file != i) {
                    dl_vec_push(&callers, ((struct NameInFile){name, (uint32_t)i}));
                    s->shared[i] = true;
                    break;
                }
        }
    }
    dl_vec_free(&definers);
    if (callers.len)
        qsort(callers.items, callers.len, sizeof *callers.items, dl_sharing_by_name_then_file);
    s->cpu_device_callers = callers.items;
    s->cpu_device_caller_count = callers.len;
}

uint64_t dl_sharing_cpu_device_callers_digest(const DlSharing *s, size_t index,
                                              char *const *paths) {
    const DlSharingFile *f = &s->files[index];
    return dl_sharing_other_files_digest(s->cpu_device_callers, s->cpu_device_caller_count,
                                         f->cpu_device_functions, f->cpu_device_function_count,
                                         index, paths, 43);
}
