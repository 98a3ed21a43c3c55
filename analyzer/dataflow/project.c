/* Project-wide tables and summaries (see project.h). Name resolution is by the last component
 * of a module path ("pkg.model" -> the file model.py or pkg/model/__init__.py), which is what a
 * linter run over one source tree can know without an import system. */
#define _GNU_SOURCE /* memmem */
#include "dataflow/project.h"

#include "core/crash_restart.h"
#include "core/hash.h"
#include "core/intern.h"
#include "core/pool.h"
#include "core/source.h"
#include "core/timing.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "dataflow/flow.h"
#include "dataflow/torch_api.h"

static const char *last_component(const char *s) {
    const char *dot = strrchr(s, '.');
    return dot ? dot + 1 : s;
}

/* ---------------------------------------------------------------- imports */

typedef DL_VEC(DlImportEntry) ImportVec;

static void collect_imports_block(DlArena *arena, const DlBlock *b, bool into_defs,
                                  ImportVec *out);

/* The file's imports in the order of a walk over its statements (a later binding of an alias
 * wins); def and class bodies are walked only where the front end saw an import in one
 * (`into_defs`): the walk would otherwise read every statement of the file. */
static void collect_imports_stmt(DlArena *arena, const DlStmt *s, bool into_defs,
                                 ImportVec *out) {
    if (s->kind == DL_ST_IMPORT) {
        for (uint32_t i = 0; i < s->import_count; i++) {
            const DlImport *imp = &s->imports[i];
            if (!imp->alias || strcmp(imp->alias, "*") == 0) continue;
            const char *qualified;
            if (imp->name) {
                const char *module = imp->module && *imp->module ? imp->module : NULL;
                qualified = module ? dl_arena_printf(arena, "%s.%s", module, imp->name)
                                   : imp->name;
            } else if (strcmp(imp->alias, imp->module) == 0 || strchr(imp->module, '.') == NULL) {
                qualified = imp->module;
            } else if (strncmp(imp->module, imp->alias, strlen(imp->alias)) == 0 &&
                       imp->module[strlen(imp->alias)] == '.') {
                qualified = imp->alias; /* import a.b binds a */
            } else {
                qualified = imp->module; /* import a.b as x */
            }
            DlImportEntry e = {imp->alias, qualified};
            dl_vec_push(out, e);
        }
        return;
    }
    const DlBlock *b;
    for (uint32_t k = 0; (b = dl_stmt_block(s, k)); k++)
        collect_imports_block(arena, b, into_defs, out);
    if (s->parts->func && into_defs)
        collect_imports_block(arena, &s->parts->func->body, into_defs, out);
    if (s->parts->cls && into_defs)
        collect_imports_block(arena, &s->parts->cls->body, into_defs, out);
}

static void collect_imports_block(DlArena *arena, const DlBlock *b, bool into_defs,
                                  ImportVec *out) {
    for (uint32_t i = 0; i < b->count; i++)
        collect_imports_stmt(arena, b->items[i], into_defs, out);
}

/* `torch` and `torch.cuda`, one the other's package: an alias bound to either by the arms of
 * `if torch.cuda.is_available(): import torch.cuda as T else: import torch as T`. */
static bool torch_or_its_cuda(const char *a, const char *b) {
    return (strcmp(a, "torch") == 0 && strcmp(b, "torch.cuda") == 0) ||
           (strcmp(a, "torch.cuda") == 0 && strcmp(b, "torch") == 0);
}

const char *dl_project_import(const DlFileFacts *f, const char *alias) {
    for (uint32_t i = f->import_count; i-- > 0;) {
        if (strcmp(f->imports[i].alias, alias) != 0) continue;
        /* bound to torch.cuda where there is a GPU and to torch where there is none (MAHAN's
         * `T.FloatTensor(x)`, made where the model is): which one is not known here */
        for (uint32_t k = i; f->imports[i].qualified && k-- > 0;)
            if (strcmp(f->imports[k].alias, alias) == 0 && f->imports[k].qualified &&
                torch_or_its_cuda(f->imports[k].qualified, f->imports[i].qualified))
                return NULL;
        return f->imports[i].qualified;
    }
    return NULL;
}

/* ---------------------------------------------------------------- lookups */

const DlFileFacts *dl_project_file(const DlProject *p, const DlModuleIR *m) {
    /* the module points at its facts (a lookup per method call: no scan of the project) */
    const DlFileFacts *f = m ? m->facts : NULL;
    if (f && f->module == m && (f->leaf || (f >= p->files && f < p->files + p->file_count)))
        return f;
    return NULL;
}

/* Does `b` (or a block in it) yield `name` (`yield obj`, `yield from obj`)? */
static bool block_yields_name(const DlBlock *b, const char *name, int depth) {
    if (depth > 32) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue; /* not this function's */
        const DlExpr *v = s->value;
        if (s->kind == DL_ST_EXPR && v && v->kind == DL_EX_AWAIT && v->object &&
            v->object->kind == DL_EX_NAME && strcmp(v->object->name, name) == 0)
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_yields_name(inner, name, depth + 1)) return true;
    }
    return false;
}

/* A generator that hands on the items of one of its parameters, `for obj in iterable: ...
 * yield obj` (MetricLogger.log_every of DETR, DeiT, MAE and DINO, which times and logs each
 * batch): iterating a call of it iterates what that parameter was given. The parameter's
 * index, or -1. */
static int yields_the_items_of_a_parameter(const DlFunction *fn, const DlBlock *b, int depth) {
    if (depth > 8) return -1;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_FOR && s->value && s->value->kind == DL_EX_NAME &&
            s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME) {
            int p = dl_ir_param_index(fn, s->value->name);
            if (p >= 0 && !fn->params[p].star &&
                block_yields_name(&s->parts->body, s->targets[0]->name, 0))
                return p;
        }
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++) {
            int p = yields_the_items_of_a_parameter(fn, inner, depth + 1);
            if (p >= 0) return p;
        }
    }
    return -1;
}

/* Where this thread's lookups are noted (dl_project_note_reads): the lookups run deep inside
 * the dataflow engine, on behalf of whichever file's facts or analysis the thread computes. */
static _Thread_local DlReadSet *read_sink;

DlReadSet *dl_project_note_reads(DlReadSet *into) {
    DlReadSet *was = read_sink;
    read_sink = into;
    return was;
}

void dl_project_note_mark(DlClassInfo *cls, DlFunctionInfo *fn) {
    if (read_sink) dl_vec_push(&read_sink->placed, ((DlPlacedMark){cls, fn}));
}

static void note_read(uint32_t file) {
    if (read_sink && read_sink->bits) read_sink->bits[file / 64] |= (uint64_t)1 << (file % 64);
}

/* A lookup whose answer a file left out of the build might have changed (DlAbsentFiles). */
static void note_uncertain(void) {
    if (read_sink) read_sink->uncertain = true;
}

void dl_project_note_file_read(const DlProject *p, const DlFileFacts *f) {
    if (f >= p->files && f < p->files + p->file_count) note_read((uint32_t)(f - p->files));
}

void dl_project_note_search_missed(const DlProject *p) {
    if (p->absent) note_uncertain();
}

/* ---------------------------------------------------------------- files left out */

/* DlAbsentFiles.names' keys: "c module/name" and "f module/name" (the first file left out with
 * that module name that defines the class, or the top-level function: its index + 1) and, for
 * the unique fallback (classes only), "name" (how many classes of that name the files left out
 * define: 1, or 2 for more). */
static bool absent_key(char *key, size_t size, bool is_class, const char *module,
                       size_t module_len, const char *name) {
    int n = module ? snprintf(key, size, "%c %.*s/%s", is_class ? 'c' : 'f', (int)module_len,
                              module, name)
                   : snprintf(key, size, "%s", name);
    return n >= 0 && (size_t)n < size;
}

void dl_absent_init(DlAbsentFiles *a, uint32_t file_count) {
    dl_path_map_init(&a->names);
    a->modules = calloc(file_count ? file_count : 1, sizeof *a->modules);
    if (!a->modules) abort();
    a->file_count = file_count;
}

void dl_absent_add_file(DlAbsentFiles *a, uint32_t file, const char *module) {
    a->modules[file] = strdup(module);
    if (!a->modules[file]) abort();
}

void dl_absent_add_name(DlAbsentFiles *a, uint32_t file, const char *name, bool is_class) {
    char key[512];
    /* files are added in index order: the first of a key is the lowest */
    if (absent_key(key, sizeof key, is_class, a->modules[file], strlen(a->modules[file]), name) &&
        !dl_path_map_get(&a->names, key))
        dl_path_map_put(&a->names, key, (void *)(uintptr_t)(file + 1));
    if (!is_class || !absent_key(key, sizeof key, true, NULL, 0, name)) return;
    uintptr_t count = (uintptr_t)dl_path_map_get(&a->names, key);
    dl_path_map_put(&a->names, key, (void *)(uintptr_t)(count ? 2 : 1));
}

void dl_absent_free(DlAbsentFiles *a) {
    dl_path_map_free(&a->names);
    for (uint32_t i = 0; i < a->file_count; i++) free(a->modules[i]);
    free(a->modules);
}

/* The index + 1 of the first file left out with module `module` that defines the class (or
 * top-level function) `name`; 0: none. A key too long to have been noted makes the lookup
 * uncertain. */
static uint32_t absent_definer(const DlAbsentFiles *a, bool is_class, const char *module,
                               size_t module_len, const char *name) {
    char key[512];
    if (!absent_key(key, sizeof key, is_class, module, module_len, name)) {
        note_uncertain();
        return 0;
    }
    return (uint32_t)(uintptr_t)dl_path_map_get(&a->names, key);
}

/* How many classes named `name` the files left out define: 0, 1, or 2 for two or more. */
static uint32_t absent_classes(const DlAbsentFiles *a, const char *name) {
    char key[512];
    if (!absent_key(key, sizeof key, true, NULL, 0, name)) {
        note_uncertain();
        return 0;
    }
    return (uint32_t)(uintptr_t)dl_path_map_get(&a->names, key);
}

bool dl_project_closure_uncertain(const DlProject *p, const uint64_t *closure) {
    for (uint32_t w = 0; w < p->read_words; w++)
        for (uint64_t bits = closure[w]; bits; bits &= bits - 1)
            if (p->files[w * 64 + (uint32_t)__builtin_ctzll(bits)].reads.uncertain) return true;
    return false;
}

/* Adds `from`'s files that `out` lacks to it, and to the files still to visit. */
static void add_unseen(const uint64_t *from, uint64_t *out, uint32_t words, uint32_t *todo,
                       uint32_t *n) {
    for (uint32_t w = 0; w < words; w++) {
        uint64_t fresh = from[w] & ~out[w];
        out[w] |= fresh;
        for (; fresh; fresh &= fresh - 1) todo[(*n)++] = w * 64 + (uint32_t)__builtin_ctzll(fresh);
    }
}

void dl_project_read_closure(const DlProject *p, const uint64_t *direct, uint64_t *out) {
    uint32_t *todo = malloc((p->file_count ? p->file_count : 1) * sizeof *todo), n = 0;
    if (!todo) abort();
    add_unseen(direct, out, p->read_words, todo, &n);
    while (n) {
        const uint64_t *next = p->files[todo[--n]].reads.bits;
        if (next) add_unseen(next, out, p->read_words, todo, &n);
    }
    free(todo);
}

/* Notes the reads of `f`'s facts computations in its own set, until put back. */
static DlReadSet *note_reads_of(DlFileFacts *f) {
    return dl_project_note_reads(&f->reads);
}

static const DlClassInfo *class_in_file(const DlFileFacts *f, const char *name) {
    for (uint32_t i = 0; i < f->class_count; i++)
        if (strcmp(f->classes[i]->cls->name, name) == 0)
            return f->classes[i];
    return NULL;
}

static const DlFunctionInfo *function_in_file(const DlFileFacts *f, const char *name) {
    for (uint32_t i = 0; i < f->function_count; i++) {
        const DlFunctionInfo *fi = f->functions[i];
        if (!fi->owner && !fi->fn->parent && strcmp(fi->fn->name, name) == 0) return fi;
    }
    return NULL;
}

static int compare_entries(const void *a, const void *b) {
    const DlNamedEntry *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (!c) c = strcmp(x->module, y->module);
    return c ? c : (x->file > y->file) - (x->file < y->file); /* file order: see find_named */
}

/* The entries named `name`: [*first, *first + count) of the sorted index. */
static uint32_t entries_named(const DlNamedEntry *entries, uint32_t n, const char *name,
                              uint32_t *first) {
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(entries[mid].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    uint32_t end = lo;
    while (end < n && strcmp(entries[end].name, name) == 0) end++;
    *first = lo;
    return end - lo;
}

/* The number of classes of a leaf named `name`, and the first. */
static uint32_t leaf_classes_named(const DlFileFacts *leaf, const char *name,
                                   const DlClassInfo **first) {
    uint32_t count = 0;
    for (uint32_t i = 0; leaf && i < leaf->class_count; i++)
        if (strcmp(leaf->classes[i]->cls->name, name) == 0 && !count++) *first = leaf->classes[i];
    return count;
}

/* The length of `path`'s folder, without its last slash (0 for a bare file name). */
static size_t folder_length(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) : 0;
}

/* The path of the file `from` lowered, or NULL. */
static const char *path_of(const DlFileFacts *from) {
    return from && from->module && from->module->source ? from->module->source->path : NULL;
}

/* Is `m` a file of the folder `from_path` is in? Python puts a script's folder first on its
 * path, so its imports find that folder's modules before any other of the same name. */
static bool beside(const DlModuleIR *m, const char *from_path) {
    size_t n = from_path ? folder_length(from_path) : 0;
    return from_path && m && m->source && folder_length(m->source->path) == n &&
           strncmp(m->source->path, from_path, n) == 0;
}

/* Is `m` the file the dotted module name (`len` bytes of `module`) names from the folder of
 * `from_path`: `utils.accuracy` as `<folder>/utils/accuracy.py` (or a package's
 * `<folder>/utils/accuracy/__init__.py`)? Two scripts' folders may each hold a `utils`
 * package (BAS's CUB/ and ILSVRC/); each script imports its own folder's. */
static bool beside_as(const DlModuleIR *m, const char *from_path, const char *module, size_t len) {
    if (!from_path || !m || !m->source) return false;
    size_t n = folder_length(from_path);
    const char *rest = m->source->path;
    if (strncmp(rest, from_path, n) != 0) return false;
    rest += n;
    if (n && *rest++ != '/') return false;
    for (size_t i = 0; i < len; i++, rest++)
        if (*rest != (module[i] == '.' ? '/' : module[i])) return false;
    return strcmp(rest, ".py") == 0 || strcmp(rest, "/__init__.py") == 0;
}

/* Does the first part of `qualified` (`models` of "models.Net") name a module of the project
 * (DlProject.module_names): a package whose `__init__.py` may re-export a class? */
static bool names_a_project_module(const DlProject *p, const char *qualified) {
    char root[256];
    size_t n = strcspn(qualified, ".");
    if (n >= sizeof root) return true;
    memcpy(root, qualified, n);
    root[n] = '\0';
    return dl_interner_contains(&p->module_names, root);
}

/* "model.Net" -> the entry Net of the file whose module name is "model"; "Net" -> this file's;
 * otherwise (classes: `unique_fallback`) the one entry of that name in the project, if unique.
 * Library names (torch.*) never resolve to project code. The file found is noted
 * (dl_project_note_reads). In a partial build, so is a lookup whose answer a file left out
 * could have changed (DlAbsentFiles).
 *
 * The index holds the shared files only. A leaf asking (`leaf`, classes only) counts its own
 * classes in: no other file names them (driver/sharing.h), so only the leaf can reach them, and
 * only through the unique fallback (nothing names its module either). Of several files with
 * that module name, the one in the folder of the file asking (`from`) comes first. */
static const void *find_named(const DlProject *p, const DlFileFacts *from,
                              const DlNamedEntry *entries, uint32_t n, const char *qualified,
                              bool unique_fallback, const DlFileFacts *leaf,
                              const DlAbsentFiles *absent) {
    if (dl_torch_owns(qualified)) return NULL;
    const char *name = last_component(qualified);
    if (name == qualified) return NULL;
    const char *module_end = name - 1;
    const char *module_start = module_end;
    while (module_start > qualified && module_start[-1] != '.') module_start--;
    size_t mlen = (size_t)(module_end - module_start);
    /* a file left out that defines the name in that module, before the one found (the entries
     * of one name and module are in file order) */
    uint32_t left_out = absent ? absent_definer(absent, unique_fallback, module_start, mlen, name)
                               : 0;
    uint32_t first, count = entries_named(entries, n, name, &first);
    const DlClassInfo *own_first = NULL;
    uint32_t own = leaf ? leaf_classes_named(leaf, name, &own_first) : 0;
    if (!count && !own && !absent) return NULL;
    /* two scripts' folders may each hold a `grad_norm.py` (Lumina's): a script imports its
     * own folder's */
    const char *from_path = path_of(from);
    int64_t found = -1;
    for (uint32_t i = first; i < first + count; i++)
        if (strlen(entries[i].module) == mlen &&
            strncmp(entries[i].module, module_start, mlen) == 0) {
            const DlModuleIR *m = p->files[entries[i].file].module;
            bool sibling = beside(m, from_path) ||
                           beside_as(m, from_path, qualified, (size_t)(module_end - qualified));
            if (found < 0 || sibling) found = i;
            if (sibling || !from_path) break;
        }
    if (found >= 0) {
        uint32_t i = (uint32_t)found;
        if (left_out && left_out - 1 < entries[i].file) note_uncertain();
        note_read(entries[i].file);
        return entries[i].info;
    }
    if (left_out) note_uncertain();
    if (!unique_fallback) return NULL;
    uint32_t indexed = count;
    if (absent) { /* the classes of that name the files left out define count too */
        uint32_t classes = absent_classes(absent, name);
        if (classes == 1 && !count && !own) note_uncertain(); /* the one a full build finds */
        count += classes;
    }
    if (count + own != 1) return NULL;
    if (!count) return own_first;
    if (!indexed) return NULL; /* the one class is a left-out file's (noted uncertain) */
    /* `from torchcrf import CRF`: a name imported from a library, a module no file of the
     * project is named as, is the library's, not the one class of that name another file of
     * the project defines (ner_bilstmcrf's unused crf.py) */
    if (&p->files[entries[first].file] != from && !names_a_project_module(p, qualified))
        return NULL;
    note_read(entries[first].file);
    return entries[first].info;
}

/* Whether `from` may reach other files' code by name: Python's imports can; C++ names are the
 * compiler's, resolved within the translation unit, and no Python file can import C++ source.
 * Keeping the languages apart is what lets their cached results be keyed apart (check.c). */
static bool resolves_across_files(const DlFileFacts *from) {
    return !from || !from->module || from->module->language == DL_LANG_PYTHON;
}

const DlClassInfo *dl_project_find_class(const DlProject *p, const DlFileFacts *from,
                                         const char *qualified) {
    if (!strchr(qualified, '.')) return class_in_file(from, qualified);
    if (!resolves_across_files(from)) return NULL;
    return find_named(p, from, p->classes_by_name, p->class_entries, qualified, true,
                      from && from->leaf ? from : NULL, p->absent);
}

const DlFunctionInfo *dl_project_find_function(const DlProject *p, const DlFileFacts *from,
                                               const char *qualified) {
    if (!strchr(qualified, '.')) return function_in_file(from, qualified);
    if (!resolves_across_files(from)) return NULL;
    return find_named(p, from, p->functions_by_name, p->function_entries, qualified, false, NULL,
                      p->absent);
}

/* Depth first, each class's first base before its later ones: Python's method resolution
 * order for the usual mixins (`class ArcFace(WeightMixin, BaseLoss)` finds BaseLoss.forward
 * after WeightMixin's chain), though not for a diamond. NULL when a class on the way is in a
 * file the project left out (a partial build). */
static const DlFunctionInfo *method_in(const DlProject *p, const DlClassInfo *c, const char *name,
                                       int depth, bool *left_out) {
    if (!c || depth >= 8 || *left_out) return NULL;
    if (!dl_project_file(p, c->module)) {
        *left_out = true;
        return NULL;
    }
    for (uint32_t i = 0; i < c->method_count; i++)
        if (strcmp(c->methods[i]->fn->name, name) == 0) return c->methods[i];
    const DlFunctionInfo *found = method_in(p, c->base, name, depth + 1, left_out);
    for (uint8_t b = 0; !found && !*left_out && b < c->later_base_count; b++)
        found = method_in(p, c->later_bases[b], name, depth + 1, left_out);
    return *left_out ? NULL : found;
}

const DlFunctionInfo *dl_project_method(const DlProject *p, const DlClassInfo *c,
                                        const char *name) {
    bool left_out = false;
    return method_in(p, c, name, 0, &left_out);
}

const DlAttr *dl_project_attr(const DlClassInfo *c, const char *name) {
    for (int depth = 0; c && depth < 8; depth++, c = c->base)
        for (uint32_t i = 0; i < c->attr_count; i++)
            if (strcmp(c->attrs[i].name, name) == 0) return &c->attrs[i];
    return NULL;
}

const DlClassInfo *dl_project_class_of(const DlProject *p, const DlClass *cls) {
    (void)p;
    return cls->facts;
}

const DlFunctionInfo *dl_project_function_of(const DlProject *p, const DlFunction *fn) {
    (void)p;
    return fn->facts;
}

/* ---------------------------------------------------------------- classes */

/* `Base = nn.Module` at the top of the file (in an `if`/`else` or a `try` there too): the first
 * such alias of `name` to a dotted name, or NULL. */
static const DlExpr *module_level_alias(const DlBlock *b, const char *name, int depth) {
    for (uint32_t i = 0; i < b->count && depth < 3; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->targets[0]->kind == DL_EX_NAME &&
            strcmp(s->targets[0]->name, name) == 0 && s->value &&
            (s->value->kind == DL_EX_ATTR || s->value->kind == DL_EX_SUBSCRIPT ||
             s->value->kind == DL_EX_NAME))
            return s->value;
        if (s->kind == DL_ST_IF || s->kind == DL_ST_TRY)
            for (uint32_t k = 0; dl_stmt_block(s, k); k++) {
                const DlExpr *v = module_level_alias(dl_stmt_block(s, k), name, depth + 1);
                if (v) return v;
            }
    }
    return NULL;
}

static const char *qualify_in(DlArena *arena, const DlFileFacts *f, const DlExpr *e, int depth) {
    if (!e || depth > 4) return NULL;
    if (e->kind == DL_EX_NAME) {
        const char *q = dl_project_import(f, e->name);
        if (q) return q;
        /* `Base = nn.Module` (fairscale, for typing's sake): the class it names */
        const DlExpr *alias = f->module ? module_level_alias(&f->module->body, e->name, 0) : NULL;
        q = alias ? qualify_in(arena, f, alias, depth + 1) : NULL;
        return q ? q : e->name;
    }
    if (e->kind == DL_EX_ATTR) {
        const char *base = qualify_in(arena, f, e->object, depth + 1);
        return base ? dl_arena_join(arena, base, '.', e->name) : NULL;
    }
    if (e->kind == DL_EX_SUBSCRIPT) /* Generic[T] */
        return qualify_in(arena, f, e->object, depth + 1);
    return NULL;
}

/* Qualified name of a base-class expression as its file sees it ("torch.nn.Module"). */
static const char *qualify_static(DlArena *arena, const DlFileFacts *f, const DlExpr *e) {
    return qualify_in(arena, f, e, 0);
}

/* Whether every base from outside the project that makes the class a module is a torch module
 * without state of its own: a loss (its only state is a weight: see init_hands_base_arguments)
 * or nn.ReLU and the like. nn.Module itself does not count either way; another library's base
 * (which may hold anything) or a stateful torch layer (nn.Linear) makes it false. `*no_loss`:
 * none of them is a loss. */
static bool bases_hold_no_library_state(DlArena *arena, const DlFileFacts *f, const DlClass *cls,
                                        bool *no_loss) {
    bool any = false;
    *no_loss = true;
    for (uint32_t b = 0; b < cls->base_count; b++) {
        const char *q = qualify_static(arena, f, cls->bases[b]);
        if (!q || dl_torch_is_module_base(q)) continue;
        bool loss = dl_torch_is_loss_class(q) && strcmp(q, "torch.nn.AdaptiveLogSoftmaxWithLoss");
        if (loss || dl_torch_is_stateless_module(q)) {
            any = true;
            if (loss) *no_loss = false;
        } else if (dl_torch_is_module_class(q) || !dl_is_plain_python_base(q)) {
            return false;
        }
    }
    return any;
}

/* Whether a base from outside the project may hold state: one written `lib.Name` (other than
 * `nn.Module` and `LightningModule`), or a torch layer with state imported by name (`Linear`). */
static bool base_may_hold_library_state(DlArena *arena, const DlFileFacts *f, const DlClass *cls) {
    for (uint32_t b = 0; b < cls->base_count; b++) {
        const DlExpr *e = cls->bases[b];
        if (e->kind == DL_EX_ATTR) {
            if (strcmp(e->name, "Module") && strcmp(e->name, "LightningModule")) return true;
        } else if (e->kind == DL_EX_NAME) {
            const char *q = qualify_static(arena, f, e);
            if (q && dl_torch_is_module_class(q) && !dl_torch_is_module_base(q) &&
                !dl_torch_is_stateless_module(q))
                return true;
        }
    }
    return false;
}

/* `class GraphSequential(nn.Sequential)`: a base is one of torch's module containers. */
static bool base_is_module_container(DlArena *arena, const DlFileFacts *f, const DlClass *cls) {
    for (uint32_t b = 0; b < cls->base_count; b++)
        if (dl_torch_is_module_container(qualify_static(arena, f, cls->bases[b]))) return true;
    return false;
}

static bool base_is_data_parallel(DlArena *arena, const DlFileFacts *f, const DlClass *cls,
                                  bool single_process) {
    for (uint32_t b = 0; b < cls->base_count; b++) {
        const char *q = qualify_static(arena, f, cls->bases[b]);
        if (single_process ? dl_torch_is_single_process_data_parallel(q)
                           : dl_torch_is_data_parallel(q))
            return true;
    }
    return false;
}

bool dl_call_may_give_a_weight(const DlExpr *call, bool explicit_self) {
    for (uint32_t a = 0; a < call->arg_count; a++) {
        const char *kw = call->args[a].keyword;
        if (!kw && explicit_self) {
            explicit_self = false;
        } else if (!kw || kw[0] == '*' || strcmp(kw, "weight") == 0 ||
                   strcmp(kw, "pos_weight") == 0) {
            return true;
        }
    }
    return false;
}

/* `super().__init__(weight, ignore_index=...)` in `__init__(self, weight=None, ...)`
 * (coarse2fine's CrossEntropyLossSmooth): the __init__'s own `weight` (or `pos_weight`)
 * parameter, None unless the construction gives one by that name. */
static bool hands_on_its_own_weight(const DlExpr *v, const DlFunction *init) {
    int p = v->kind == DL_EX_NAME ? dl_ir_param_index(init, v->name) : -1;
    if (p < 0 || init->params[p].star) return false;
    const DlExpr *d = init->params[p].default_value;
    return (strcmp(v->name, "weight") == 0 || strcmp(v->name, "pos_weight") == 0) && d &&
           d->kind == DL_EX_CONST && d->name && strcmp(d->name, "None") == 0;
}

/* `super().__init__(*args, **kwargs)` in `__init__(self, *args, offset=0.1, **kwargs)`: what
 * could give the base a weight is only the __init__'s own `*args` and `**kwargs` handed on
 * (with keywords other than weight=), or its own `weight=None` (hands_on_its_own_weight), so an
 * instance gets one only if its construction gives one (Transfer-Learning-Library's
 * `RobustCrossEntropyLoss(ignore_index=-1, offset=eps)`). */
static bool forwards_only_what_it_is_given(const DlExpr *call, const DlFunction *init,
                                           bool explicit_self) {
    for (uint32_t a = 0; a < call->arg_count; a++) {
        const char *kw = call->args[a].keyword;
        const DlExpr *v = call->args[a].value;
        if (!kw && explicit_self) {
            explicit_self = false;
            continue;
        }
        bool weight = kw && (strcmp(kw, "weight") == 0 || strcmp(kw, "pos_weight") == 0);
        if (!kw || weight) {
            if (hands_on_its_own_weight(v, init)) continue;
            return false;
        }
        if (kw[0] != '*') continue;
        int stars = kw[1] == '*' ? 2 : 1;
        int p = v->kind == DL_EX_NAME ? dl_ir_param_index(init, v->name) : -1;
        if (p < 0 || init->params[p].star != stars) return false;
    }
    return true;
}

/* `super().__init__(weight=w)`, `nn.BCEWithLogitsLoss.__init__(self, pos_weight=p)`: a call of a
 * base's __init__ in `b` that may give it a weight (dl_call_may_give_a_weight). One that only
 * hands on the __init__'s own `*args` and `**kwargs` sets `*forwarded` instead. */
static bool block_hands_base_arguments(const DlBlock *b, const DlFunction *init, bool *forwarded,
                                       int depth) {
    if (depth > 16) return true;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        const DlExpr *call = s->kind == DL_ST_EXPR ? s->value : NULL;
        if (call && call->kind == DL_EX_CALL && call->object->kind == DL_EX_ATTR &&
            strcmp(call->object->name, "__init__") == 0) {
            const DlExpr *of = call->object->object;
            bool by_super = of && of->kind == DL_EX_CALL && of->object->kind == DL_EX_NAME &&
                            strcmp(of->object->name, "super") == 0;
            if (dl_call_may_give_a_weight(call, !by_super)) { /* Base.__init__(self) */
                if (!forwards_only_what_it_is_given(call, init, !by_super)) return true;
                *forwarded = true;
            }
        }
        for (uint32_t k = 0; dl_stmt_block(s, k); k++)
            if (block_hands_base_arguments(dl_stmt_block(s, k), init, forwarded, depth + 1))
                return true;
    }
    return false;
}

static bool has_later_base(const DlClassInfo *c, const DlClassInfo *base) {
    for (uint8_t i = 0; i < c->later_base_count; i++)
        if (c->later_bases[i] == base) return true;
    return false;
}

/* One round over a file's classes: what their bases tell (project bases, nn.Module, Dataset,
 * an own to()). Whether anything changed. */
static bool resolve_file_classes(const DlProject *p, DlFileFacts *f, DlArena *arena) {
    DlReadSet *was = note_reads_of(f);
    bool changed = false;
    for (uint32_t j = 0; j < f->class_count; j++) {
        DlClassInfo *c = f->classes[j];
        for (uint32_t b = 0; b < c->cls->base_count; b++) {
            const char *q = qualify_static(arena, f, c->cls->bases[b]);
            if (!q) continue;
            bool module = dl_torch_is_module_class(q), dataset = dl_torch_is_dataset_base(q);
            const DlClassInfo *base = NULL;
            if (!module && !dataset && !dl_torch_owns(q)) {
                base = dl_project_find_class(p, f, q);
                if (base == c) base = NULL;
                /* a base devlint cannot see: the class may be a module */
                if (!base && !dl_is_plain_python_base(q) && !c->maybe_module) {
                    c->maybe_module = true;
                    changed = true;
                }
            }
            if (base) {
                module = base->is_module;
                dataset = base->is_dataset;
                if (base->maybe_module && !c->maybe_module) {
                    c->maybe_module = true;
                    changed = true;
                }
                if (!c->base) {
                    c->base = base;
                    changed = true;
                } else if (base != c->base && !has_later_base(c, base) &&
                           c->later_base_count < sizeof c->later_bases / sizeof *c->later_bases) {
                    c->later_bases[c->later_base_count++] = base;
                    changed = true;
                }
                if (base->has_own_to && !c->has_own_to) {
                    c->has_own_to = true;
                    changed = true;
                }
            }
            if (module && !c->is_module) {
                c->is_module = true;
                changed = true;
            }
            if (dataset && !c->is_dataset) {
                c->is_dataset = true;
                changed = true;
            }
        }
    }
    dl_project_note_reads(was);
    return changed;
}

static void resolve_classes(DlProject *p) {
    /* bases first: a fixpoint, since a base may be defined in a later file */
    for (int round = 0; round < 8; round++) {
        bool changed = false;
        for (uint32_t i = 0; i < p->file_count; i++)
            changed |= resolve_file_classes(p, &p->files[i], &p->arena);
        if (!changed) break;
    }
}

/* ---------------------------------------------------------------- summaries */

/* Does the block return a value anywhere (nested blocks included, nested defs not)? */
static bool returns_value(const DlBlock *b, int depth) {
    if (depth > 64) return true;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_RETURN && s->value) return true;
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (returns_value(inner, depth + 1)) return true;
    }
    return false;
}

/* The union of the names Python files read; unknown (every function may be called) when the
 * front end did not record them. C++ files do not: their functions are all summarised (see
 * needs_summary), and no Python file calls them. */
static void add_referenced_names(DlInterner *into, bool *known, const DlModuleIR *m) {
    if (m->language != DL_LANG_PYTHON) return;
    if (!m->names_known) *known = false;
    for (uint32_t j = 0; j < m->referenced_name_count && *known; j++)
        dl_interner_add(into, m->referenced_names[j]);
}

/* Whether DataLoader workers may run code that puts tensors on a device (DL113): only then
 * must the functions that build DataLoaders run to record which datasets and collate
 * functions the workers use. Worker code is a dataset's __getitem__/__getitems__/__iter__ or a
 * collate_fn (a file naming `collate_fn` makes every function a candidate); DL113 needs
 * `.cuda()`, `.to(...)` or a `device=` in it. */
bool dl_project_workers_may_touch_devices(const DlModuleIR *m) {
    if (dl_source_mentions(m->source, "collate_fn")) return true;
    for (uint32_t j = 0; j < m->function_count; j++) {
        const DlFunction *fn = m->functions[j];
        const char *n = fn->name;
        if (!fn->owner || (strcmp(n, "__getitem__") != 0 && strcmp(n, "__getitems__") != 0 &&
                           strcmp(n, "__iter__") != 0 && strcmp(n, "__call__") != 0))
            continue;
        if (dl_ir_span_mentions(m->source, fn->span, "cuda") ||
            dl_ir_span_mentions(m->source, fn->span, ".to(") ||
            dl_ir_span_mentions(m->source, fn->span, "device"))
            return true;
    }
    return false;
}

/* A step function or method that reads a value back (`self.total += loss.item()`): its summary
 * says whether it does so on a device value (DlFunctionInfo.host_read). */
/* `int(` or `float(` called as the builtin (not `print(`, `self.int(`) in a function's text. */
static bool casts_to_a_number(const DlFunctionInfo *fi) {
    const DlSource *src = fi->module->source;
    DlSpan span = fi->fn->span;
    if (fi->module->language != DL_LANG_PYTHON || !src || span.end > src->len) return false;
    static const char *const casts[] = {"int(", "float(", NULL};
    for (const char *const *c = casts; *c; c++) {
        size_t n = strlen(*c);
        const char *p = src->text + span.start, *end = src->text + span.end;
        while ((p = memmem(p, (size_t)(end - p), *c, n)) != NULL) {
            char before = p > src->text ? p[-1] : ' ';
            if (!isalnum((unsigned char)before) && before != '_' && before != '.') return true;
            p += n;
        }
    }
    return false;
}

static bool reads_on_the_host(const DlFunctionInfo *fi) {
    static const char *const reads[] = {".item()", ".tolist()", ".cpu()", NULL};
    /* `Y_hat = int(Y_hat)` of a parameter (CLAM's Accuracy_Logger.log): a read where a caller
     * hands a tensor on the device (flow_sync's reads_parameter_back) */
    return dl_project_function_mentions(fi, reads) || casts_to_a_number(fi);
}

bool dl_project_function_mentions(const DlFunctionInfo *fi, const char *const *words) {
    const DlSource *src = fi->module->source;
    if (fi->module->language != DL_LANG_PYTHON || !src) return false;
    for (const char *const *w = words; *w; w++)
        if (dl_ir_span_mentions(src, fi->fn->span, *w)) return true;
    return false;
}

/* A function's summary is what it returns, and whether it reads a device value back; one that
 * does neither needs no run. The runs also record which datasets and collate functions
 * DataLoader workers use (DL113), so a function that builds a DataLoader runs whatever it
 * returns, when workers may need it. */
static bool needs_summary(const DlProject *p, const DlFunctionInfo *fi,
                          bool workers_may_touch_devices) {
    const char *name = fi->fn->name;
    if (strcmp(name, "__init__") == 0) return false;
    /* a function no file names is never called through its summary (dunders and forward are
     * called implicitly: `a + b`, `for x in d`, `model(x)`) */
    bool named = fi->module->language != DL_LANG_PYTHON || !p->referenced_names_known ||
                 dl_interner_contains(&p->referenced_names, name) ||
                 (p->mentioned_names && dl_interner_contains(p->mentioned_names, name)) ||
                 strncmp(name, "__", 2) == 0 || strcmp(name, "forward") == 0;
    /* nor whether it fails without a GPU before it returns (a DDP script's `ddp_setup(rank,
     * world_size)` joining an NCCL group: what its caller does after it runs only with one) */
    static const char *const gpu_required[] = {"set_device(", "init_process_group(", NULL};
    return (named && (returns_value(&fi->fn->body, 0) || reads_on_the_host(fi) ||
                      dl_project_function_mentions(fi, gpu_required))) ||
           (workers_may_touch_devices && fi->module->language == DL_LANG_PYTHON &&
            dl_ir_span_mentions(fi->module->source, fi->fn->span, "DataLoader"));
}

/* Whether the second round of summaries can change `fi`'s: methods read what __init__ left on
 * self (known only after the first round), and a function whose return was not (fully) known
 * may have called one summarised after it. A plain value known in the first round stays. */
static bool summary_may_change(const DlFunctionInfo *fi) {
    const DlValue *r = fi->ret;
    /* (a factory's module of either of two classes, `PlainLoss()` or `BufLoss()`: the join
     * keeps no class, and whether either has state to move was not known in the first round) */
    return fi->owner || !r || r->kind == DL_KIND_UNKNOWN || r->elem || r->item_count ||
           r->cls || (r->kind == DL_KIND_MODULE && (r->flags & DL_VF_CONSTRUCTED));
}

/* A file's function summaries, kept in `keep`. `workers`: DataLoader builders run (see
 * module_workers_may_touch_devices). */
/* Names `f` as the file whose facts the calling thread now computes, for a crash's report
 * (core/crash_restart.h): a bug the build of the shared files hits costs that file, not the
 * run (the restarted process builds the project without it). The file named before, to put
 * back. */
static const char *working_on_file(const DlFileFacts *f) {
    const char *was = dl_crash_restart_current();
    const DlSource *src = f && f->module ? f->module->source : NULL;
    dl_crash_restart_working_on(src && src->path ? src->path : was);
    return was;
}

static void summarise_file(DlProject *p, DlFileFacts *f, const DlFlowState *globals,
                           DlArena *keep, bool again, bool workers) {
    const char *working_on = working_on_file(f);
    DlReadSet *was = note_reads_of(f);
    size_t budget = DL_FLOW_BUDGET; /* per file: summaries cut short are only less precise */
    for (uint32_t j = 0; j < f->function_count; j++) {
        DlFunctionInfo *fi = f->functions[j];
        if (!needs_summary(p, fi, workers) || (again && !summary_may_change(fi))) continue;
        /* the run's intermediate values die with it; only the summary is kept */
        DlArena scratch;
        dl_arena_init(&scratch);
        bool waited = false;
        DlSpan host_read = {0};
        int16_t host_read_parameter = 0, host_read_when = 0;
        bool upload = false;
        int16_t reads_parameter[2] = {0};
        DlSpan parameter_read[2] = {{0}};
        bool parameter_copied[2] = {false, false};
        bool requires_gpu = false;
        DlFlowEnv env = {.project = p,
                         .file = f,
                         .arena = &scratch,
                         .globals = globals,
                         .recorder = p,
                         .budget = &budget,
                         .returns_waited = &waited,
                         .host_read = &host_read,
                         .host_read_parameter = &host_read_parameter,
                         .host_read_when = &host_read_when,
                         .returns_blocking_upload = &upload,
                         .reads_parameter_back = reads_parameter,
                         .parameter_read = parameter_read,
                         .parameter_copied = parameter_copied,
                         .requires_gpu = &requires_gpu};
        fi->ret = dl_value_persist(keep, dl_flow_run(&env, fi->fn, fi->owner, NULL));
        fi->returns_waited = waited;
        fi->returns_blocking_upload = upload;
        fi->host_read = host_read;
        fi->host_read_parameter = host_read_parameter;
        fi->host_read_when = host_read_when;
        memcpy(fi->reads_parameter_back, reads_parameter, sizeof reads_parameter);
        memcpy(fi->parameter_read, parameter_read, sizeof parameter_read);
        memcpy(fi->parameter_copied, parameter_copied, sizeof parameter_copied);
        fi->requires_gpu = requires_gpu;
        dl_arena_release(&scratch);
    }
    dl_project_note_reads(was);
    dl_crash_restart_working_on(working_on);
}

static void compute_function_summaries(DlProject *p, DlFlowState *const *globals, bool again) {
    for (uint32_t i = 0; i < p->file_count; i++)
        if (p->files[i].module)
            summarise_file(p, &p->files[i], globals[i], &p->arena, again,
                           p->workers_may_touch_devices);
}

typedef DL_VEC(const char *) NameVec;

/* The modules of the file's `from M import *` statements (at module level, in blocks there:
 * Python allows them nowhere else). */
static void collect_star_modules(const DlBlock *b, NameVec *out, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        for (uint32_t k = 0; s->kind == DL_ST_IMPORT && k < s->import_count; k++)
            if (s->imports[k].alias && strcmp(s->imports[k].alias, "*") == 0 &&
                s->imports[k].module && *s->imports[k].module)
                dl_vec_push(out, s->imports[k].module);
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            collect_star_modules(inner, out, depth + 1);
    }
}

/* Whether assigning `value` to self.`name` may put it somewhere else: a value that moves
 * something or names a device, or one not made from the attribute itself (`self.sigmas =
 * sigmas`, computed elsewhere in the method). `th.cat([self.pending, x])` and
 * `self.pending[:, n:]` stay where the attribute was. */
static bool may_change_device(const DlSource *src, const DlExpr *value, const char *name) {
    if (!value || dl_ir_span_mentions(src, value->span, ".to(") ||
        dl_ir_span_mentions(src, value->span, ".cuda(") ||
        dl_ir_span_mentions(src, value->span, ".cpu(") ||
        dl_ir_span_mentions(src, value->span, "device"))
        return true;
    char self_attr[160];
    snprintf(self_attr, sizeof self_attr, "self.%s", name);
    return !dl_ir_span_mentions(src, value->span, self_attr);
}

static void gather_self_targets(const DlSource *src, const DlExpr *t, const DlExpr *value,
                                NameVec *out, int depth) {
    if (!t || depth > 16) return;
    if (t->kind == DL_EX_TUPLE || t->kind == DL_EX_LIST) {
        for (uint32_t i = 0; i < t->item_count; i++)
            gather_self_targets(src, t->items[i], value, out, depth + 1);
    } else if (t->kind == DL_EX_STARRED) {
        gather_self_targets(src, t->object, value, out, depth + 1);
    } else if (dl_ir_is_self_attr(t, NULL) && may_change_device(src, value, t->name)) {
        dl_vec_push(out, t->name);
    }
}

/* `self.model.to(device)`, `self.model.eval().cuda()` as a statement: the name of the attribute
 * moved in place (a module's; a tensor's copy would be dropped), or NULL. */
static const char *self_attr_moved_in_place(const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR) return NULL;
    static const char *const moves[] = {"to", "cuda", "to_empty", NULL};
    if (!e->object->name || !dl_name_in_list(e->object->name, moves)) return NULL;
    const DlExpr *r = e->object->object;
    static const char *const in_place[] = {"eval", "train", "float", "half", "requires_grad_",
                                           NULL};
    for (int depth = 0; r && r->kind == DL_EX_CALL && depth < 4; depth++) {
        const DlExpr *m = r->object;
        if (!m || m->kind != DL_EX_ATTR || !m->name || !dl_name_in_list(m->name, in_place))
            return NULL;
        r = m->object;
    }
    return r && dl_ir_is_self_attr(r, NULL) ? r->name : NULL;
}

/* The attributes of self that `b` assigns a value that may live elsewhere (`out`), and those
 * it moves in place (`moved`). */
static void gather_self_assignments(const DlSource *src, const DlBlock *b, NameVec *out,
                                    NameVec *moved, int depth) {
    if (depth > 64) return;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_ASSIGN || s->kind == DL_ST_FOR || s->kind == DL_ST_WITH)
            for (uint32_t t = 0; t < s->target_count; t++)
                gather_self_targets(src, s->targets[t], s->kind == DL_ST_WITH ? NULL : s->value,
                                    out, 0);
        const char *in_place = s->kind == DL_ST_EXPR ? self_attr_moved_in_place(s->value) : NULL;
        if (in_place) dl_vec_push(moved, in_place);
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            gather_self_assignments(src, inner, out, moved, depth + 1);
    }
}

static bool names_include(const NameVec *names, const char *name) {
    for (size_t j = 0; j < names->len; j++)
        if (strcmp(names->items[j], name) == 0) return true;
    return false;
}

/* Marks in `part_of_init` the methods of `c` that run only as part of __init__: called (as
 * `self.NAME(`) by __init__ or by methods that are, and by no other method. One that forward
 * calls too (`extend_pe(x)`) changes its attributes after __init__. Helpers of helpers count
 * (SimVP's `__init__` -> `_preparation` -> `_build_model`, which moves the model). */
static void helpers_only_init_runs(const DlSource *src, const DlClassInfo *c,
                                   const DlFunctionInfo *init, bool *part_of_init) {
    for (uint32_t k = 0; k < c->method_count; k++)
        part_of_init[k] = c->methods[k] == init;
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t k = 0; k < c->method_count; k++) {
            if (part_of_init[k]) continue;
            char call[160];
            snprintf(call, sizeof call, "self.%s(", c->methods[k]->fn->name);
            bool called = false, only_by_init = true;
            for (uint32_t j = 0; j < c->method_count && only_by_init; j++) {
                if (j == k || !dl_ir_span_mentions(src, c->methods[j]->fn->span, call)) continue;
                called = true;
                only_by_init = part_of_init[j];
            }
            if (called && only_by_init) part_of_init[k] = grew = true;
        }
    }
}

/* Marks DlFunctionInfo.runs_only_in_init on the methods of `c` that run only as part of
 * __init__ (helpers_only_init_runs), __init__ itself aside. */
static void mark_helpers_only_init_runs(DlFileFacts *f, DlClassInfo *c,
                                        const DlFunctionInfo *init) {
    bool *part_of_init = calloc(c->method_count ? c->method_count : 1, sizeof *part_of_init);
    if (!part_of_init) return;
    helpers_only_init_runs(f->module->source, c, init, part_of_init);
    for (uint32_t k = 0; k < c->method_count; k++)
        c->methods[k]->runs_only_in_init = part_of_init[k] && c->methods[k] != init;
    free(part_of_init);
}

/* What __init__ leaves on self is what every method sees, unless another method assigns the
 * attribute a value that may live elsewhere: `set_timesteps(device)` moving a scheduler's
 * tables, a `to()` of its own, or moves a module it holds in place (`self.model.to(device)` in
 * a `load()`). Such a tensor's (or module's) device is then not known outside __init__. The
 * helpers __init__ calls run as part of it (flow_inline_method). */
static void forget_reassigned_devices(DlFileFacts *f, DlClassInfo *c, const DlFunctionInfo *init,
                                      DlAttr *attrs, uint32_t n, DlArena *keep) {
    NameVec names = {0}, moved = {0};
    for (uint32_t k = 0; k < c->method_count; k++) {
        const DlFunctionInfo *fi = c->methods[k];
        if (fi == init || fi->runs_only_in_init) continue; /* and the helpers only it runs */
        gather_self_assignments(f->module->source, &fi->fn->body, &names, &moved, 0);
    }
    for (uint32_t k = 0; k < n && (names.len || moved.len); k++) {
        const DlValue *v = attrs[k].value;
        /* `self._device = None` in __init__, set by the class's own `to(device)`
         * (adl4cv-handwriting's generator): the device a caller moves it to, not known here */
        bool device_slot = strstr(attrs[k].name, "device") &&
                           (v->kind == DL_KIND_NONE || v->kind == DL_KIND_DEVICE ||
                            v->kind == DL_KIND_STRING);
        if (device_slot && names_include(&names, attrs[k].name)) {
            attrs[k].value = &dl_value_unknown;
            continue;
        }
        if ((v->flags & DL_VF_REGISTERED) || !(v->kind == DL_KIND_TENSOR || v->kind == DL_KIND_MODULE))
            continue;
        bool reassigned = names_include(&names, attrs[k].name) ||
                          (v->kind == DL_KIND_MODULE && names_include(&moved, attrs[k].name));
        if (!reassigned) continue;
        DlValue *r = dl_value_copy(keep, v);
        r->dev = DL_DEV_UNKNOWN;
        r->dev_name = NULL;
        r->origin = DL_ORIGIN_NONE;
        r->flags &= (uint32_t) ~(DL_VF_CONSTRUCTED | DL_VF_CPU_WEIGHT);
        attrs[k].value = r;
    }
    dl_vec_free(&names);
    dl_vec_free(&moved);
}

/* `self.to(...)`, `self.cuda()`, `self.part.to(...)` as a statement: a module moving itself
 * or one of its parts in place. */
static bool moves_self_in_place(const DlExpr *e) {
    if (!e || e->kind != DL_EX_CALL || !e->object || e->object->kind != DL_EX_ATTR) return false;
    const char *method = e->object->name;
    if (!method || (strcmp(method, "to") != 0 && strcmp(method, "cuda") != 0)) return false;
    const DlExpr *receiver = e->object->object;
    return dl_ir_is_self(receiver) || dl_ir_is_self_attr(receiver, NULL);
}

/* Is `name` an attribute `attrs` may hold a module in (a module, or a value of a kind not
 * known: a class another file defines)? A tensor's `.to()` as a statement moves nothing. */
static bool may_hold_a_module(const DlAttr *attrs, uint32_t n, const char *name) {
    for (uint32_t k = 0; k < n; k++)
        if (strcmp(attrs[k].name, name) == 0)
            return attrs[k].value->kind == DL_KIND_MODULE ||
                   attrs[k].value->kind == DL_KIND_UNKNOWN;
    return false;
}

/* `self.to(device)` as a statement anywhere in `b`, on any path: a module that moves itself when
 * it is given a device (`if device is not None: self.to(device)`, facenet-pytorch's MTCNN); or
 * moves a submodule it holds (`if self.use_gpu: self.net.to(self.gpu_ids[0])`, in a method
 * __init__ calls: mmgeneration's LPIPS). */
static bool moves_itself_on_some_path(const DlClass *c, const DlBlock *b, const DlAttr *attrs,
                                      uint32_t n, bool in_a_method, int depth) {
    if (depth > 64) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue; /* not this function's */
        const DlExpr *v = s->kind == DL_ST_EXPR ? s->value : NULL;
        if (v && moves_self_in_place(v)) {
            const DlExpr *r = v->object->object;
            if (dl_ir_is_self(r) || (r->kind == DL_EX_ATTR && may_hold_a_module(attrs, n, r->name)))
                return true;
        }
        /* `self.init_net(...)`: a method of the class, looked into (one call deep) */
        if (v && v->kind == DL_EX_CALL && v->object && v->object->kind == DL_EX_ATTR &&
            dl_ir_is_self(v->object->object) && !in_a_method)
            for (uint32_t m = 0; m < c->method_count; m++)
                if (strcmp(c->methods[m]->name, v->object->name) == 0 &&
                    moves_itself_on_some_path(c, &c->methods[m]->body, attrs, n, true, depth + 1))
                    return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (moves_itself_on_some_path(c, inner, attrs, n, in_a_method, depth + 1)) return true;
    }
    return false;
}

/* `self.table`, `self.points[0].expand(n, -1)`: a value computed from the module's state. */
static bool roots_at_own_state(const DlExpr *r) {
    for (int depth = 0; r && depth < 16; depth++) {
        if (dl_ir_is_self_attr(r, NULL)) return true;
        if (r->kind != DL_EX_ATTR && r->kind != DL_EX_CALL && r->kind != DL_EX_SUBSCRIPT)
            return false;
        r = r->object;
    }
    return false;
}

/* A device a call names other than by a literal ("cpu"): where an input is, in practice. */
static bool names_a_variable_device(const DlExpr *e) {
    return e && e->kind != DL_EX_STRING && e->kind != DL_EX_CONST;
}

/* `self.table.to(device)`, `self.points[0].expand(n, -1).to(input)`, `self.w.type_as(x)`,
 * `torch.as_tensor(self.kernel, device=pred.device)`: a copy of the module's own state made
 * where a variable says. */
static bool copies_own_state(const DlExpr *e) {
    if (e->kind != DL_EX_CALL || !e->object || !e->arg_count) return false;
    const DlArg *device = dl_ir_keyword(e, "device");
    if (device && names_a_variable_device(device->value) && !e->args[0].keyword &&
        roots_at_own_state(e->args[0].value))
        return true;
    if (e->object->kind != DL_EX_ATTR || !e->object->name) return false;
    const char *method = e->object->name;
    if (strcmp(method, "to") != 0 && strcmp(method, "type_as") != 0) return false;
    return names_a_variable_device(e->args[0].value) && roots_at_own_state(e->object->object);
}

/* `kernel.to(device=x.device)`, `kernel.type_as(x)`, `torch.as_tensor(kernel, device=d)`: the
 * value named `name` copied to where a variable says. */
static bool copies_name(const DlExpr *e, const char *name, int depth) {
    if (!e || depth > 64) return false;
    if (e->kind == DL_EX_CALL && e->object && e->arg_count) {
        const DlExpr *first = e->args[0].keyword ? NULL : e->args[0].value;
        const DlArg *device = dl_ir_keyword(e, "device");
        bool named = first && first->kind == DL_EX_NAME && first->name &&
                     strcmp(first->name, name) == 0;
        if (device && names_a_variable_device(device->value) && named) return true;
        const DlExpr *m = e->object;
        if (m->kind == DL_EX_ATTR && m->name &&
            (strcmp(m->name, "to") == 0 || strcmp(m->name, "type_as") == 0) && m->object &&
            m->object->kind == DL_EX_NAME && m->object->name &&
            strcmp(m->object->name, name) == 0 &&
            (names_a_variable_device(first) || (device && names_a_variable_device(device->value))))
            return true;
    }
    if (copies_name(e->object, name, depth + 1)) return true;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (copies_name(e->items[i], name, depth + 1)) return true;
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (copies_name(e->args[i].value, name, depth + 1)) return true;
    return false;
}

static bool block_copies_name(const DlBlock *b, const char *name, int depth) {
    if (depth > 64) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (copies_name(s->value, name, 0)) return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_copies_name(inner, name, depth + 1)) return true;
    }
    return false;
}

/* `self._blur_fast(x, self._gk_init)` where `_blur_fast(self, x, kernel)` copies `kernel` where
 * `x` is (kornia's ScalePyramid): the module's state handed to a method of its class that
 * copies it to wherever a call says. */
static bool hands_state_to_a_copying_method(const DlClass *cls, const DlExpr *e, int depth) {
    if (!e || depth > 64) return false;
    if (e->kind == DL_EX_CALL && e->object && dl_ir_is_self_attr(e->object, NULL)) {
        const DlFunction *method = NULL;
        for (uint32_t m = 0; m < cls->method_count && !method; m++)
            if (strcmp(cls->methods[m]->name, e->object->name) == 0) method = cls->methods[m];
        for (uint32_t i = 0; method && i < e->arg_count; i++) {
            if (e->args[i].keyword) break;
            uint32_t p = i + 1; /* after self */
            if (p < method->param_count && !method->params[p].star &&
                roots_at_own_state(e->args[i].value) &&
                block_copies_name(&method->body, method->params[p].name, 0))
                return true;
        }
    }
    if (hands_state_to_a_copying_method(cls, e->object, depth + 1)) return true;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (hands_state_to_a_copying_method(cls, e->items[i], depth + 1)) return true;
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (hands_state_to_a_copying_method(cls, e->args[i].value, depth + 1)) return true;
    return false;
}

/* `self.a.b` and `self.a.b`: one attribute chain from self, written twice. */
static bool same_self_chain(const DlExpr *a, const DlExpr *b) {
    for (int depth = 0; a && b && depth < 8; depth++, a = a->object, b = b->object) {
        if (dl_ir_is_self(a) && dl_ir_is_self(b)) return true;
        if (a->kind != DL_EX_ATTR || b->kind != DL_EX_ATTR || !a->name || !b->name ||
            strcmp(a->name, b->name) != 0)
            return false;
    }
    return false;
}

/* `self.ce.weight = self.ce.weight.to(logits.device)`: a part's tensor replaced by its copy on
 * another device, which moves it as `.to()` in place would (APCNet's loss, whose class weight
 * follows the logits). */
static bool replaces_a_part_by_its_move(const DlStmt *s) {
    if (s->kind != DL_ST_ASSIGN || s->target_count != 1) return false;
    const DlExpr *t = s->targets[0], *v = s->value;
    if (t->kind != DL_EX_ATTR || !t->object || t->object->kind != DL_EX_ATTR) return false;
    if (!v || v->kind != DL_EX_CALL || !v->object || v->object->kind != DL_EX_ATTR ||
        !v->object->name ||
        (strcmp(v->object->name, "to") != 0 && strcmp(v->object->name, "cuda") != 0))
        return false;
    return same_self_chain(t, v->object->object);
}

/* What a block of forward does with the module's state: moves it (or a part) in place, or
 * copies some of it to wherever a call says (itself, or through a method of `cls`). */
static void scan_block_moves(const DlClass *cls, const DlBlock *b, bool *moves_in_place,
                             bool *copies_state, int depth) {
    if (depth > 64) return;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if ((s->kind == DL_ST_EXPR && moves_self_in_place(s->value)) ||
            replaces_a_part_by_its_move(s))
            *moves_in_place = true;
        if (s->kind == DL_ST_EXPR || s->kind == DL_ST_ASSIGN || s->kind == DL_ST_AUGASSIGN ||
            s->kind == DL_ST_RETURN || s->kind == DL_ST_IF || s->kind == DL_ST_FOR)
            *copies_state = *copies_state || dl_ir_expr_any(s->value, copies_own_state) ||
                            hands_state_to_a_copying_method(cls, s->value, 0);
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            scan_block_moves(cls, inner, moves_in_place, copies_state, depth + 1);
    }
}

/* Whether `b` assigns `self.<name> = ...` somewhere (nested blocks included). */
static bool block_assigns_self_attr(const DlBlock *b, const char *name, int depth) {
    if (depth > 64) return false;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_ASSIGN)
            for (uint32_t t = 0; t < s->target_count; t++)
                if (dl_ir_is_self_attr(s->targets[t], name)) return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_assigns_self_attr(inner, name, depth + 1)) return true;
    }
    return false;
}

/* BoTorch's Standardize: every buffer __init__ registered (but 0-dim ones) is replaced in
 * forward (`self.means = Y.mean(dim=-2, keepdim=True)`), so after a call the module's state is
 * where its input was. */
static bool forward_refits_its_buffers(const DlClass *cls, const DlAttr *attrs, uint32_t n) {
    const DlFunction *forward = NULL;
    for (uint32_t k = 0; k < cls->method_count && !forward; k++)
        if (strcmp(cls->methods[k]->name, "forward") == 0) forward = cls->methods[k];
    if (!forward) return false;
    bool any = false;
    for (uint32_t k = 0; k < n; k++) {
        const DlValue *v = attrs[k].value;
        if (attrs[k].name[0] == '<' || v->kind != DL_KIND_TENSOR ||
            !(v->flags & DL_VF_REGISTERED) || (v->flags & DL_VF_ZERO_DIM))
            continue;
        if (!block_assigns_self_attr(&forward->body, attrs[k].name, 0)) return false;
        any = true;
    }
    return any;
}

/* A module whose forward moves itself or its parts to its input's device
 * (`self.resampler.to(waveforms.device)`, speechbrain's Resample), or whose only state is
 * tensors that its methods copy to where a variable says (`self.points_src.to(input)`, kornia's
 * CenterCrop2D), follows its inputs wherever they are: never "not moved". A module with
 * submodules or project bases must move itself: copying one table proves nothing of the rest. */
static bool forward_follows_its_input(DlClassInfo *c, const DlAttr *attrs, uint32_t n,
                                      bool unknown_attrs_are_data) {
    bool moves_in_place = false, copies_state = false;
    for (uint32_t k = 0; k < c->cls->method_count; k++) {
        const DlFunction *fn = c->cls->methods[k];
        bool in_place = false;
        scan_block_moves(c->cls, &fn->body, &in_place, &copies_state, 0);
        if (in_place && strcmp(fn->name, "forward") == 0) moves_in_place = true;
    }
    if (forward_refits_its_buffers(c->cls, attrs, n)) copies_state = true;
    c->copies_own_state = copies_state; /* with project bases: decided where it is built */
    if (moves_in_place) return true;
    if (!copies_state || c->base) return false;
    for (uint32_t k = 0; k < n; k++) {
        const DlValue *v = attrs[k].value;
        if (v->kind == DL_KIND_UNKNOWN && unknown_attrs_are_data) continue;
        if (dl_project_attr_may_hold_modules(v)) return false;
    }
    return true;
}

bool dl_project_attr_may_hold_modules(const DlValue *v) {
    return v->kind == DL_KIND_MODULE || v->kind == DL_KIND_LOSS || v->kind == DL_KIND_UNKNOWN ||
           (v->kind == DL_KIND_SEQ && (v->flags & DL_VF_HAS_MODULES));
}

/* Builtins that read their argument as data. */
static bool reads_as_data(const DlExpr *callee) {
    /* `range(self.n)`: a count (a Sinkhorn loop's iterations) */
    static const char *const builtins[] = {"len",  "str", "repr",  "isinstance", "print",
                                           "bool", "int", "float", "range",      NULL};
    /* a tensor's shape methods take sizes and dimensions (`input.view(-1, self.dim)`, the
     * vector quantizer of jayzhan211's CycleGAN) */
    static const char *const shape_methods[] = {
        "view", "reshape", "expand", "repeat", "permute", "transpose", "flatten", "unflatten",
        "unsqueeze", "squeeze", "narrow", "split", "chunk", "size", "new_zeros", "new_ones",
        "new_full", "new_empty", NULL};
    /* NumPy's, `math`'s and `random`'s functions compute on numbers and arrays, which a module
     * or a parameter is not (HiDDeN's Dropout noise layer: `np.random.uniform(self.keep_min,
     * self.keep_max)`) */
    static const char *const numeric_modules[] = {"np", "numpy", "math", "random", NULL};
    const DlExpr *root = callee && callee->kind == DL_EX_ATTR ? callee->object : NULL;
    while (root && root->kind == DL_EX_ATTR)
        root = root->object;
    if (root && root->kind == DL_EX_NAME && dl_name_in_list(root->name, numeric_modules))
        return true;
    if (callee && callee->kind == DL_EX_ATTR && callee->name)
        return dl_name_in_list(callee->name, shape_methods);
    return callee && callee->kind == DL_EX_NAME && callee->name &&
           dl_name_in_list(callee->name, builtins);
}

/* `F.avg_pool2d(x, self.kz, self.kz)`: a functional op whose arguments after the input are
 * sizes, strides, paddings or dimensions, never weights (GFLA's affine regularization loss). */
static bool sizes_after_the_input(const DlExpr *callee) {
    static const char *const ops[] = {
        "avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool1d", "max_pool2d", "max_pool3d",
        "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
        "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d", "interpolate",
        "upsample", "pad", "unfold", "fold", "pixel_shuffle", "pixel_unshuffle", "softmax",
        "log_softmax", NULL};
    return callee && callee->kind == DL_EX_ATTR && callee->name &&
           dl_name_in_list(callee->name, ops);
}

/* How the class's methods use `self.<name>`: whether an expression uses it other than as data
 * (`self.labels[i]`, compared, `len(self.labels)`): called, iterated, handed on, bound to a
 * name. `data` is whether the expression's own value is read as data where it stands. */
static bool used_otherwise(const DlExpr *e, const char *name, bool data, int depth) {
    if (!e || depth > 64) return false;
    if (dl_ir_is_self_attr(e, name)) return !data;
    switch (e->kind) {
    case DL_EX_SUBSCRIPT: /* `self.labels[i]`, unless what it picks is called */
        if (used_otherwise(e->object, name, data, depth + 1)) return true;
        for (uint32_t i = 0; i < e->item_count; i++)
            if (used_otherwise(e->items[i], name, true, depth + 1)) return true;
        return false;
    case DL_EX_COMPARE:
        for (uint32_t i = 0; i < e->item_count; i++)
            if (used_otherwise(e->items[i], name, true, depth + 1)) return true;
        return used_otherwise(e->object, name, true, depth + 1);
    case DL_EX_CALL: {
        if (used_otherwise(e->object, name, false, depth + 1)) return true;
        bool builtin = reads_as_data(e->object);
        bool sizes = sizes_after_the_input(e->object);
        /* `F.grid_sample(src, locs, mode=self.mode)`: an option handed by a keyword that only
         * ever takes a string or a number (MrRegNet's SpatialTransformer; a dropout's
         * `F.dropout(x, p=self.p, training=self.training)`) */
        static const char *const options[] = {
            "mode", "padding_mode", "reduction", "interpolation", "align_corners", "dim", "eps",
            "scale_factor", "size", "p", "training", "inplace", "negative_slope", NULL};
        for (uint32_t i = 0; i < e->arg_count; i++) {
            const char *kw = e->args[i].keyword;
            bool option = (kw && dl_name_in_list(kw, options)) || (sizes && (kw || i > 0));
            if (used_otherwise(e->args[i].value, name, builtin || option, depth + 1)) return true;
        }
        return false;
    }
    default:
        break;
    }
    if (used_otherwise(e->object, name, e->kind != DL_EX_ATTR, depth + 1))
        return true;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (used_otherwise(e->items[i], name, true, depth + 1)) return true;
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (used_otherwise(e->args[i].value, name, false, depth + 1)) return true;
    const DlExprExtra *x = dl_expr_extra(e);
    if (x && !(e->flags & DL_EXF_CPP) &&
        (used_otherwise(x->target, name, false, depth + 1) ||
         used_otherwise(x->iter, name, false, depth + 1)))
        return true;
    return false;
}

static bool block_uses_otherwise(const DlBlock *b, const char *name, int depth) {
    if (depth > 64) return true;
    for (uint32_t i = 0; i < b->count; i++) {
        const DlStmt *s = b->items[i];
        /* `x = self.labels` aliases it; `for m in self.labels` may call what it yields */
        bool data = s->kind == DL_ST_IF || s->kind == DL_ST_WHILE || s->kind == DL_ST_CHECK;
        if (used_otherwise(s->value, name, data, depth + 1)) return true;
        for (uint32_t t = 0; t < s->target_count; t++)
            if (used_otherwise(s->targets[t], name, s->kind == DL_ST_ASSIGN, depth + 1))
                return true;
        if (s->kind == DL_ST_WITH)
            for (uint32_t w = 0; w < s->with_count; w++)
                if (used_otherwise(s->withs[w], name, false, depth + 1)) return true;
        if (s->kind == DL_ST_DEF && s->parts->func &&
            block_uses_otherwise(&s->parts->func->body, name, depth + 1))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (block_uses_otherwise(inner, name, depth + 1)) return true;
    }
    return false;
}

/* GreedyCTCDecoder stores `self.labels = labels` and only indexes it: a list of strings, not a
 * module that could hold parameters (NVIDIA NeMo). */
static bool unknown_attrs_are_data(const DlClassInfo *c, const DlAttr *attrs, uint32_t n) {
    for (uint32_t k = 0; k < n; k++) {
        if (attrs[k].value->kind != DL_KIND_UNKNOWN || attrs[k].name[0] == '<') continue;
        for (uint32_t m = 0; m < c->cls->method_count; m++)
            if (strcmp(c->cls->methods[m]->name, "__init__") != 0 &&
                block_uses_otherwise(&c->cls->methods[m]->body, attrs[k].name, 0))
                return false;
    }
    return true;
}

/* Is `name` a plain name that is none of `init`'s parameters (a module's `DEVICE`)? */
static bool names_no_parameter(const DlFunction *init, const char *name) {
    if (!dl_ir_is_dotted_name(name) || strchr(name, '.')) return false;
    for (uint32_t i = 0; i < init->param_count; i++)
        if (init->params[i].name && strcmp(init->params[i].name, name) == 0) return false;
    return true;
}

/* An attribute by which a module manages its own placement, so that its instances are not
 * "never moved": a device it stores, a part it moved, or state it builds on the GPU itself
 * (`device=torch.cuda.current_device()`, or a device a call gives,
 * `get_accelerator().get_current_device()`), or on the device a name of its file's chooses
 * (SA-ConvLSTM's `nn.Conv2d(..., device=DEVICE)`, `DEVICE = "cuda" if ... else "cpu"`); never
 * an __init__ parameter that may be left None: ColossalAI's CachedParamMgr keeps its table
 * pinned on the CPU and its cache on the GPU. */
static bool places_itself(const DlValue *v, const DlFunction *init) {
    if (v->kind == DL_KIND_DEVICE) return true;
    bool state = v->kind == DL_KIND_MODULE || v->kind == DL_KIND_LOSS ||
                 (v->kind == DL_KIND_TENSOR && (v->flags & DL_VF_REGISTERED));
    bool on_gpu = v->dev == DL_DEV_CUDA ||
                  (v->dev == DL_DEV_NAMED && v->dev_name &&
                   (strncmp(v->dev_name, "torch.cuda.", 11) == 0 || strchr(v->dev_name, '(') ||
                    names_no_parameter(init, v->dev_name)));
    /* a part moved to the CPU (`.cpu()`, `.to(DEVICE)` of `DEVICE = "cpu"`) places nothing
     * (muzero-cartpole's `self.head = nn.Sequential(...).to(device)`, `device = 'cpu'`) */
    bool moved = (v->flags & DL_VF_MOVED) && v->dev != DL_DEV_CPU;
    return state && (moved || on_gpu);
}

/* Whether a statement of `b` (or of a block in it) makes `self.<attr>` a parameter or buffer:
 * `self.weight = nn.Parameter(self.weight, ...)`, `self.register_buffer("weight", ...)`. */
static bool block_registers(const DlSource *src, const DlBlock *b, const char *attr, int depth) {
    for (uint32_t i = 0; depth < 8 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 &&
            dl_ir_is_self_attr(s->targets[0], attr) && s->value &&
            dl_ir_span_mentions(src, s->value->span, "Parameter("))
            return true;
        if (s->kind == DL_ST_EXPR && s->value && s->value->kind == DL_EX_CALL &&
            s->value->arg_count && s->value->args[0].value &&
            s->value->args[0].value->kind == DL_EX_STRING && s->value->args[0].value->name &&
            strcmp(s->value->args[0].value->name, attr) == 0 &&
            (dl_ir_span_mentions(src, s->value->span, "register_buffer(") ||
             dl_ir_span_mentions(src, s->value->span, "register_parameter(")))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; s->kind != DL_ST_DEF && (inner = dl_stmt_block(s, k)); k++)
            if (block_registers(src, inner, attr, depth + 1)) return true;
    }
    return false;
}

/* A plain tensor attribute that a method of the class registers (`def initialize(self): ...
 * self.weight = nn.Parameter(self.weight)`), which the file calls from outside the class
 * (VOneNet's `self.simple_conv_q0.initialize(...)` in its block's __init__): registered by the
 * time a module holding it is moved. */
static void registered_by_a_method_called_elsewhere(DlFileFacts *f, DlClassInfo *c, DlAttr *attrs,
                                                    uint32_t n, DlArena *keep) {
    const DlSource *src = f->module->source;
    if (!src || !src->text) return;
    for (uint32_t k = 0; k < n; k++) {
        const DlValue *v = attrs[k].value;
        if (attrs[k].name[0] == '<' || v->kind != DL_KIND_TENSOR || (v->flags & DL_VF_REGISTERED))
            continue;
        for (uint32_t m = 0; m < c->cls->method_count; m++) {
            const DlFunction *method = c->cls->methods[m];
            if (strcmp(method->name, "__init__") == 0 ||
                !block_registers(src, &method->body, attrs[k].name, 0))
                continue;
            char call[128];
            int len = snprintf(call, sizeof call, ".%s(", method->name);
            if (len <= 0 || (size_t)len >= sizeof call) continue;
            bool called_outside = false;
            for (const char *p = src->text; !called_outside &&
                                             (p = memmem(p, src->len - (size_t)(p - src->text),
                                                         call, (size_t)len)) != NULL;
                 p += len) {
                uint32_t at = (uint32_t)(p - src->text);
                called_outside = at < c->cls->span.start || at >= c->cls->span.end;
            }
            if (!called_outside) continue;
            DlValue *r = dl_value_copy(keep, v);
            r->flags |= DL_VF_REGISTERED;
            r->origin = DL_ORIGIN_NONE;
            attrs[k].value = r;
            break;
        }
    }
}

/* What __init__ (and the helpers it calls) leaves on self, for class `c` of file `f`, kept in
 * `keep`. */
static void class_attributes(DlProject *p, DlFileFacts *f, DlClassInfo *c,
                             const DlFlowState *globals, DlArena *keep, size_t *budget) {
    const DlFunctionInfo *init = NULL;
    for (uint32_t k = 0; k < f->function_count; k++)
        if (f->functions[k]->owner == c && strcmp(f->functions[k]->fn->name, "__init__") == 0)
            init = f->functions[k];
    if (!init) {
        c->attrs_done = true;
        return;
    }
    c->attrs_busy = true;
    const char *working_on = working_on_file(f);
    DlArena scratch;
    dl_arena_init(&scratch);
    DlFlowEnv env = {.project = p, .file = f, .arena = &scratch, .globals = globals,
                     .recorder = p, .budget = budget};
    DlFlowState *st = NULL;
    dl_flow_run(&env, init->fn, c, &st);
    DlAttr *attrs = NULL;
    uint32_t n = dl_flow_self_attrs(st, keep, &attrs);
    for (uint32_t k = 0; k < n; k++) attrs[k].value = dl_value_persist(keep, attrs[k].value);
    mark_helpers_only_init_runs(f, c, init);
    forget_reassigned_devices(f, c, init, attrs, n, keep);
    registered_by_a_method_called_elsewhere(f, c, attrs, n, keep);
    /* self.to(device) / self.cuda() inside __init__, on every path or only on some (when it is
     * given a device): the module moves itself, where its constructor's arguments say */
    const DlValue *self = dl_flow_lookup(st, "self");
    bool moved = (self && (self->flags & DL_VF_MOVED)) ||
                 moves_itself_on_some_path(c->cls, &init->fn->body, attrs, n, false, 0);
    bool unknown_are_data = unknown_attrs_are_data(c, attrs, n);
    moved = moved || forward_follows_its_input(c, attrs, n, unknown_are_data);
    for (uint32_t k = 0; k < n && !moved; k++)
        moved = places_itself(attrs[k].value, init->fn);
    if (moved) {
        DlAttr *grown = dl_arena_alloc(keep, (n + 1) * sizeof(DlAttr));
        if (n) memcpy(grown, attrs, n * sizeof(DlAttr));
        grown[n].name = "<moved>";
        grown[n].value = &dl_value_unknown;
        attrs = grown;
        n++;
    }
    c->attrs = attrs;
    c->attr_count = n;
    c->unknown_attrs_are_data = unknown_are_data;
    c->attrs_done = true;
    c->attrs_busy = false;
    dl_flow_state_free(st);
    dl_arena_release(&scratch);
    dl_crash_restart_working_on(working_on);
}

/* The attributes of a file's classes not computed yet (an earlier class may have built one). */
static void file_class_attributes(DlProject *p, DlFileFacts *f, const DlFlowState *globals,
                                  DlArena *keep) {
    DlReadSet *was = note_reads_of(f);
    size_t budget = DL_FLOW_BUDGET;
    f->attr_globals = globals;
    f->attr_keep = keep;
    for (uint32_t j = 0; j < f->class_count; j++)
        if (!f->classes[j]->attrs_done && !f->classes[j]->attrs_busy)
            class_attributes(p, f, f->classes[j], globals, keep, &budget);
    f->attr_globals = NULL;
    f->attr_keep = NULL;
    dl_project_note_reads(was);
}

void dl_project_ensure_class_attributes(DlProject *p, const DlClassInfo *ci) {
    for (int depth = 0; ci && depth < 8; depth++, ci = ci->base) {
        DlClassInfo *c = (DlClassInfo *)ci; /* the project's own, being built */
        DlFileFacts *f = c->module ? c->module->facts : NULL;
        if (c->attrs_done || c->attrs_busy || !f || !f->attr_keep) continue;
        DlReadSet *was = note_reads_of(f); /* what it reads, its own file's facts read */
        size_t budget = DL_FLOW_BUDGET;
        class_attributes(p, f, c, f->attr_globals, f->attr_keep, &budget);
        dl_project_note_reads(was);
    }
}

/* In file order; a class that another's __init__ builds is computed when it is built
 * (dl_project_ensure_class_attributes), so every file's context is set first. */
static void compute_class_attributes(DlProject *p, DlFlowState *const *globals) {
    for (uint32_t i = 0; i < p->file_count; i++) {
        p->files[i].attr_globals = globals[i];
        p->files[i].attr_keep = &p->arena;
    }
    for (uint32_t i = 0; i < p->file_count; i++)
        if (p->files[i].module) file_class_attributes(p, &p->files[i], globals[i], &p->arena);
    for (uint32_t i = 0; i < p->file_count; i++) {
        p->files[i].attr_globals = NULL;
        p->files[i].attr_keep = NULL;
    }
}

/* A file's module-level state (its values in `keep`). */
static DlFlowState *file_globals(DlProject *p, DlFileFacts *f, DlArena *keep) {
    const char *working_on = working_on_file(f);
    DlReadSet *was = note_reads_of(f);
    size_t budget = DL_FLOW_BUDGET;
    DlFlowEnv env = {.project = p, .file = f, .arena = keep, .recorder = p, .budget = &budget};
    DlFlowState *st = NULL;
    dl_flow_run(&env, NULL, NULL, &st);
    dl_project_note_reads(was);
    dl_crash_restart_working_on(working_on);
    return st;
}

static void compute_globals(DlProject *p, DlFlowState **globals) {
    for (uint32_t i = 0; i < p->file_count; i++) {
        dl_flow_state_free(globals[i]);
        globals[i] = p->files[i].module ? file_globals(p, &p->files[i], &p->arena) : NULL;
    }
}

/* Python's classes and top-level functions, for the other Python files (C++ code resolves only
 * within its file: resolves_across_files). */
/* `run_module_names`: DlProjectLeaves.module_names, or NULL. */
static void build_name_index(DlProject *p, const DlInterner *run_module_names) {
    uint32_t classes = 0, functions = 0;
    for (uint32_t i = 0; i < p->file_count; i++) {
        classes += p->files[i].class_count;
        functions += p->files[i].function_count;
    }
    p->classes_by_name = dl_arena_alloc(&p->arena, (classes + 1) * sizeof(DlNamedEntry));
    p->functions_by_name = dl_arena_alloc(&p->arena, (functions + 1) * sizeof(DlNamedEntry));
    for (uint32_t i = 0; i < p->file_count; i++) {
        const DlFileFacts *f = &p->files[i];
        if (!f->module || f->module->language != DL_LANG_PYTHON) continue;
        for (uint32_t j = 0; j < f->class_count; j++)
            p->classes_by_name[p->class_entries++] =
                (DlNamedEntry){f->classes[j]->cls->name, f->module->module_name, f->classes[j], i};
        for (uint32_t j = 0; j < f->function_count; j++) {
            const DlFunctionInfo *fi = f->functions[j];
            if (fi->owner || fi->fn->parent) continue; /* top-level functions only */
            p->functions_by_name[p->function_entries++] =
                (DlNamedEntry){fi->fn->name, f->module->module_name, fi, i};
        }
    }
    qsort(p->classes_by_name, p->class_entries, sizeof(DlNamedEntry), compare_entries);
    qsort(p->functions_by_name, p->function_entries, sizeof(DlNamedEntry), compare_entries);
    dl_interner_init(&p->module_names, &p->arena); /* names copied: a kept project outlives
                                                        the check whose names it got */
    for (uint32_t i = 0; i < p->file_count; i++) {
        const DlModuleIR *m = p->files[i].module;
        if (m && m->language == DL_LANG_PYTHON && m->module_name)
            dl_intern(&p->module_names, m->module_name, strlen(m->module_name), true);
        if (p->absent && i < p->absent->file_count && p->absent->modules[i])
            dl_intern(&p->module_names, p->absent->modules[i], strlen(p->absent->modules[i]),
                      true);
    }
    uint32_t n = 0;
    const char **run =
        run_module_names ? dl_interner_referenced(run_module_names, &p->arena, &n) : NULL;
    for (uint32_t k = 0; k < n; k++) dl_intern(&p->module_names, run[k], strlen(run[k]), true);
}

/* One file's facts (imports, classes, functions), in `arena`: what needs no other file. */
static void build_file_facts(DlFileFacts *f, DlModuleIR *m, DlArena *arena) {
    f->module = m;
    if (!m) return;
    ImportVec imports = {0};
    /* only the Python front end records whether a def or class body holds an import */
    collect_imports_block(arena, &m->body, m->language != DL_LANG_PYTHON || m->imports_in_defs,
                          &imports);
    f->import_count = (uint32_t)imports.len;
    f->imports = dl_arena_alloc(arena, (imports.len ? imports.len : 1) * sizeof(DlImportEntry));
    if (imports.len) memcpy(f->imports, imports.items, imports.len * sizeof(DlImportEntry));
    dl_vec_free(&imports);
    NameVec stars = {0};
    if (m->language == DL_LANG_PYTHON) collect_star_modules(&m->body, &stars, 0);
    f->star_count = (uint32_t)stars.len;
    f->star_modules = stars.len ? dl_arena_alloc(arena, stars.len * sizeof(const char *)) : NULL;
    if (stars.len) memcpy(f->star_modules, stars.items, stars.len * sizeof(const char *));
    dl_vec_free(&stars);
    f->class_count = m->class_count;
    f->classes = dl_arena_alloc(arena, (m->class_count + 1) * sizeof(DlClassInfo *));
    for (uint32_t j = 0; j < m->class_count; j++) {
        DlClassInfo *c = dl_arena_alloc(arena, sizeof *c);
        c->cls = m->classes[j];
        c->module = m;
        for (uint32_t k = 0; k < c->cls->method_count; k++) {
            const DlFunction *method = c->cls->methods[k];
            if (strcmp(method->name, "to") == 0) c->has_own_to = true;
            if (strcmp(method->name, "__init__") == 0) {
                bool forwarded = false;
                if (block_hands_base_arguments(&method->body, method, &forwarded, 0))
                    c->init_hands_base_arguments = true;
                else if (forwarded)
                    c->init_hands_base_arguments = c->init_forwards_base_arguments = true;
            }
        }
        bool no_loss;
        c->stateless_library_base = bases_hold_no_library_state(arena, f, c->cls, &no_loss);
        c->weightless_library_base = c->stateless_library_base && no_loss;
        c->library_state_base = base_may_hold_library_state(arena, f, c->cls);
        c->data_parallel_base = base_is_data_parallel(arena, f, c->cls, false);
        c->container_library_base = base_is_module_container(arena, f, c->cls);
        c->single_process_data_parallel_base = base_is_data_parallel(arena, f, c->cls, true);
        f->classes[j] = c;
        m->classes[j]->facts = c;
    }
    f->function_count = m->function_count;
    f->functions = dl_arena_alloc(arena, (m->function_count + 1) * sizeof(DlFunctionInfo *));
    for (uint32_t j = 0; j < m->function_count; j++) {
        DlFunctionInfo *fi = dl_arena_alloc(arena, sizeof *fi);
        fi->fn = m->functions[j];
        fi->module = m;
        if (m->language == DL_LANG_PYTHON)
            fi->yields_items_of =
                (int16_t)(yields_the_items_of_a_parameter(fi->fn, &fi->fn->body, 0) + 1);
        DlClassInfo *owner = fi->fn->owner ? fi->fn->owner->facts : NULL; /* set above */
        if (owner && owner->module == m && owner->cls == fi->fn->owner) {
            fi->owner = owner;
            owner->method_count++;
        }
        f->functions[j] = fi;
        m->functions[j]->facts = fi;
    }
    /* each class's methods, in the file's order (the first of a name wins a lookup) */
    for (uint32_t j = 0; j < m->class_count; j++) {
        DlClassInfo *c = f->classes[j];
        c->methods = dl_arena_alloc(arena, (c->method_count + 1) * sizeof(DlFunctionInfo *));
        c->method_count = 0;
    }
    for (uint32_t j = 0; j < m->function_count; j++) {
        DlFunctionInfo *fi = f->functions[j];
        DlClassInfo *owner = fi->owner ? fi->fn->owner->facts : NULL;
        if (owner) owner->methods[owner->method_count++] = fi;
    }
    m->facts = f;
}

/* The per-file part of the build runs on the worker threads, in contiguous chunks of files;
 * each chunk has its own arena and its own set of referenced names, merged afterwards. */
typedef struct FactsChunk {
    DlProject *p;
    DlModuleIR *const *modules;
    uint32_t begin, end;
    DlInterner names;
    bool names_known, workers_may_touch_devices;
} FactsChunk;

static void build_facts_chunk(void *ctx, size_t index) {
    FactsChunk *c = &((FactsChunk *)ctx)[index];
    DlArena *arena = &c->p->chunk_arenas[index];
    dl_interner_init(&c->names, NULL);
    c->names_known = true;
    for (uint32_t i = c->begin; i < c->end; i++) {
        DlModuleIR *m = c->modules[i];
        build_file_facts(&c->p->files[i], m, arena);
        if (!m) continue;
        c->p->files[i].reads.bits = dl_arena_alloc(arena, c->p->read_words * sizeof(uint64_t));
        add_referenced_names(&c->names, &c->names_known, m);
        if (!c->workers_may_touch_devices && m->language == DL_LANG_PYTHON)
            c->workers_may_touch_devices = dl_project_workers_may_touch_devices(m);
    }
}

static void build_all_file_facts(DlProject *p, DlModuleIR *const *modules, uint32_t count,
                                 int threads) {
    uint32_t chunks = threads > 1 && count > 1 ? (uint32_t)threads : 1;
    if (chunks > count) chunks = count ? count : 1;
    p->chunk_arenas = calloc(chunks, sizeof *p->chunk_arenas);
    FactsChunk *work = calloc(chunks, sizeof *work);
    if (!p->chunk_arenas || !work) abort();
    p->chunk_count = chunks;
    for (uint32_t k = 0; k < chunks; k++) {
        dl_arena_init(&p->chunk_arenas[k]);
        work[k] = (FactsChunk){.p = p,
                               .modules = modules,
                               .begin = (uint32_t)((uint64_t)count * k / chunks),
                               .end = (uint32_t)((uint64_t)count * (k + 1) / chunks)};
    }
    dl_parallel_for(chunks, threads, build_facts_chunk, work);
    /* the union of the names Python files read (see add_referenced_names) */
    dl_interner_init(&p->referenced_names, NULL);
    p->referenced_names_known = true;
    for (uint32_t k = 0; k < chunks; k++) {
        FactsChunk *c = &work[k];
        if (!c->names_known) p->referenced_names_known = false;
        if (p->referenced_names_known) dl_interner_add_all(&p->referenced_names, &c->names);
        dl_interner_free(&c->names);
        p->workers_may_touch_devices |= c->workers_may_touch_devices;
    }
    free(work);
}

/* See DlProject.built_marks. */
static void save_built_marks(DlProject *p) {
    size_t n = 0;
    for (uint32_t i = 0; i < p->file_count; i++)
        n += p->files[i].class_count + p->files[i].function_count;
    p->built_marks = malloc(n ? n : 1);
    if (!p->built_marks) abort();
    size_t k = 0;
    for (uint32_t i = 0; i < p->file_count; i++) {
        const DlFileFacts *f = &p->files[i];
        for (uint32_t j = 0; j < f->class_count; j++)
            p->built_marks[k++] = f->classes[j]->loaded_with_workers;
        for (uint32_t j = 0; j < f->function_count; j++)
            p->built_marks[k++] = f->functions[j]->collate_with_workers;
    }
}

void dl_project_build(DlProject *p, DlModuleIR *const *modules, uint32_t count, int threads,
                      const DlProjectLeaves *leaves) {
    dl_arena_init(&p->arena);
    p->file_count = count;
    p->read_words = (count + 63) / 64;
    p->files = calloc(count ? count : 1, sizeof(DlFileFacts));
    if (!p->files) abort();
    /* what the build knows of the files it is built without, before the first lookup: base
     * classes are resolved next, and a class of the same name in a file left out makes the
     * unique fallback ambiguous there too */
    if (leaves) {
        p->mentioned_names = leaves->mentioned_names;
        p->uses_devices = leaves->use_devices;
        p->default_device_set = leaves->set_default_device;
        p->absent = leaves->absent;
        p->workers_may_touch_devices = leaves->absent_workers_may_touch_devices;
    }
    build_all_file_facts(p, modules, count, threads);
    build_name_index(p, leaves ? leaves->module_names : NULL);
    resolve_classes(p);
    for (uint32_t i = 0; i < count && !p->uses_devices; i++)
        if (modules[i]) p->uses_devices = modules[i]->mentions_devices;
    for (uint32_t i = 0; i < count && !p->default_device_set; i++)
        if (modules[i]) p->default_device_set = modules[i]->sets_a_gpu_default;

    DlFlowState **globals = calloc(count ? count : 1, sizeof *globals);
    if (!globals) abort();
    dl_timing_mark("project index");
    compute_globals(p, globals);
    dl_timing_mark("module-level values");
    compute_function_summaries(p, globals, false);
    dl_timing_mark("summaries, round 1");
    compute_class_attributes(p, globals);
    dl_timing_mark("class attributes");
    compute_function_summaries(p, globals, true);
    dl_timing_mark("summaries, round 2");
    p->globals = globals; /* kept for imported module-level values */
    save_built_marks(p);
}

uint64_t dl_project_marks_hash(const DlProject *p) {
    uint64_t h = 0x6d61726b, k = 0; /* the positions of the marks set, in built_marks' order */
    for (uint32_t i = 0; i < p->file_count; i++) {
        const DlFileFacts *f = &p->files[i];
        for (uint32_t j = 0; j < f->class_count; j++, k++)
            if (f->classes[j]->loaded_with_workers) h = dl_hash_bytes(&k, sizeof k, h);
        for (uint32_t j = 0; j < f->function_count; j++, k++)
            if (f->functions[j]->collate_with_workers) h = dl_hash_bytes(&k, sizeof k, h);
    }
    return h;
}

enum { OWN_MARKS_SEED = 0x6f776e6d61726b };

uint64_t dl_project_file_marks_hash(const DlFileFacts *f) {
    uint64_t h = OWN_MARKS_SEED, k = 0; /* the positions of the marks set, classes first */
    for (uint32_t j = 0; f && j < f->class_count; j++, k++)
        if (__atomic_load_n(&f->classes[j]->loaded_with_workers, __ATOMIC_RELAXED))
            h = dl_hash_bytes(&k, sizeof k, h);
    for (uint32_t j = 0; f && j < f->function_count; j++, k++)
        if (__atomic_load_n(&f->functions[j]->collate_with_workers, __ATOMIC_RELAXED))
            h = dl_hash_bytes(&k, sizeof k, h);
    return h;
}

uint64_t dl_project_marks_digest(const uint32_t *positions, size_t count) {
    uint64_t h = OWN_MARKS_SEED;
    for (size_t i = 0; i < count; i++) {
        uint64_t k = positions[i];
        h = dl_hash_bytes(&k, sizeof k, h);
    }
    return h;
}

bool dl_project_mark_position(const DlProject *p, const DlPlacedMark *m, uint32_t *file,
                              uint32_t *position) {
    const DlModuleIR *module = m->cls ? m->cls->module : m->fn ? m->fn->module : NULL;
    const DlFileFacts *f = module ? dl_project_file(p, module) : NULL;
    if (!f || f->leaf) return false;
    for (uint32_t j = 0; m->cls && j < f->class_count; j++)
        if (f->classes[j] == m->cls) {
            *file = (uint32_t)(f - p->files);
            *position = j;
            return true;
        }
    for (uint32_t j = 0; !m->cls && j < f->function_count; j++)
        if (f->functions[j] == m->fn) {
            *file = (uint32_t)(f - p->files);
            *position = f->class_count + j;
            return true;
        }
    return false;
}

void dl_project_set_mark(DlFileFacts *f, uint32_t position) {
    if (position < f->class_count)
        __atomic_store_n(&f->classes[position]->loaded_with_workers, true, __ATOMIC_RELAXED);
    else if (position - f->class_count < f->function_count)
        __atomic_store_n(&f->functions[position - f->class_count]->collate_with_workers, true,
                         __ATOMIC_RELAXED);
}

void dl_project_rewind(DlProject *p, const DlProjectLeaves *leaves) {
    size_t k = 0;
    for (uint32_t i = 0; i < p->file_count; i++) {
        DlFileFacts *f = &p->files[i];
        DlModuleIR *m = (DlModuleIR *)f->module; /* the caller's model: it holds our pointers */
        if (!m) continue;
        m->facts = f;
        for (uint32_t j = 0; j < f->class_count; j++) {
            m->classes[j]->facts = f->classes[j];
            f->classes[j]->loaded_with_workers = p->built_marks[k++];
        }
        for (uint32_t j = 0; j < f->function_count; j++) {
            m->functions[j]->facts = f->functions[j];
            f->functions[j]->collate_with_workers = p->built_marks[k++];
        }
    }
    p->mentioned_names = leaves ? leaves->mentioned_names : NULL;
}

void dl_project_build_leaf(DlProject *p, DlFileFacts *f, DlModuleIR *m, DlArena *arena) {
    memset(f, 0, sizeof *f);
    f->leaf = true;
    build_file_facts(f, m, arena);
    f->reads.bits = dl_arena_alloc(arena, (p->read_words ? p->read_words : 1) * sizeof(uint64_t));
    for (int round = 0; round < 8; round++) /* as resolve_classes, over this file alone */
        if (!resolve_file_classes(p, f, arena)) break;
    /* the same steps in the same order as dl_project_build, for one file. DataLoader builders
     * run when the shared files' workers may touch devices (a leaf may load a shared dataset)
     * or this file's do (its datasets no other file loads). */
    bool workers = p->workers_may_touch_devices || dl_project_workers_may_touch_devices(m);
    f->leaf_globals = file_globals(p, f, arena);
    summarise_file(p, f, f->leaf_globals, arena, false, workers);
    file_class_attributes(p, f, f->leaf_globals, arena);
    summarise_file(p, f, f->leaf_globals, arena, true, workers);
}

void dl_project_leaf_done(DlFileFacts *f) {
    dl_vec_free(&f->reads.placed);
    dl_flow_state_free(f->leaf_globals);
    f->leaf_globals = NULL;
}

static const DlValue *find_global(const DlProject *p, const char *qualified, int depth) {
    if (!p->globals || dl_torch_owns(qualified) || depth > 4) return NULL;
    const char *name = last_component(qualified);
    if (name == qualified) return NULL;
    const char *module_end = name - 1, *module_start = module_end;
    while (module_start > qualified && module_start[-1] != '.') module_start--;
    size_t mlen = (size_t)(module_end - module_start);
    for (uint32_t i = 0; i < p->file_count; i++) {
        const DlModuleIR *m = p->files[i].module;
        const char *left_out = !m && p->absent ? p->absent->modules[i] : NULL;
        if (left_out && strlen(left_out) == mlen && strncmp(left_out, module_start, mlen) == 0) {
            note_uncertain(); /* a full build finds this file first */
            return NULL;
        }
        if (!m || m->language != DL_LANG_PYTHON || strlen(m->module_name) != mlen ||
            strncmp(m->module_name, module_start, mlen) != 0)
            continue;
        note_read(i);
        const DlValue *v = p->globals[i] ? dl_flow_lookup(p->globals[i], name) : NULL;
        /* a package's `__init__.py` re-exporting it (`from pkg.model import π0`) */
        const char *imported = v ? NULL : dl_project_import(&p->files[i], name);
        if (imported && strcmp(imported, qualified) != 0)
            return find_global(p, imported, depth + 1);
        return v;
    }
    return NULL;
}

/* The Python file the (dotted) `module` names: of several of that module name, the one beside
 * `from` (LKU-Net's eight `Models.py`, each script `from Models import *` of its own; BAS's
 * `from utils.accuracy import *` of each folder's `utils`), else the first; -1 when none. */
static int64_t python_file_of_module(const DlProject *p, const DlFileFacts *from,
                                     const char *module) {
    const char *from_path = path_of(from);
    const char *name = last_component(module);
    int64_t found = -1;
    for (uint32_t i = 0; i < p->file_count; i++) {
        const DlModuleIR *m = p->files[i].module;
        if (!m || m->language != DL_LANG_PYTHON || strcmp(m->module_name, name) != 0) continue;
        bool sibling = beside(m, from_path) || beside_as(m, from_path, module, strlen(module));
        if (found < 0 || sibling) found = i;
        if (sibling || !from_path) break;
    }
    return found;
}

static const char *star_import(const DlProject *p, const DlFileFacts *f, const char *name,
                               DlArena *arena, int depth) {
    for (uint32_t s = 0; f && depth < 4 && s < f->star_count; s++) {
        const char *module = f->star_modules[s];
        if (dl_torch_owns(module)) continue; /* `from torch.nn import *`: not the project's */
        int64_t i = python_file_of_module(p, f, module);
        if (i < 0) continue;
        const DlFileFacts *g = &p->files[i];
        note_read((uint32_t)i);
        if (class_in_file(g, name) || function_in_file(g, name))
            return dl_arena_printf(arena, "%s.%s", module, name);
        const char *q = dl_project_import(g, name);
        if (!q) q = star_import(p, g, name, arena, depth + 1);
        if (q) return q;
    }
    return NULL;
}

const char *dl_project_star_import(const DlProject *p, const DlFileFacts *f, const char *name,
                                   DlArena *arena) {
    return f && f->star_count ? star_import(p, f, name, arena, 0) : NULL;
}

const DlValue *dl_project_find_global(const DlProject *p, const char *qualified) {
    return find_global(p, qualified, 0);
}

void dl_project_free(DlProject *p) {
    for (uint32_t i = 0; p->files && i < p->file_count; i++) dl_vec_free(&p->files[i].reads.placed);
    if (p->globals)
        for (uint32_t i = 0; i < p->file_count; i++) dl_flow_state_free(p->globals[i]);
    free(p->globals);
    p->globals = NULL;
    free(p->files);
    p->files = NULL;
    dl_interner_free(&p->referenced_names);
    dl_interner_free(&p->module_names);
    free(p->built_marks);
    p->built_marks = NULL;
    p->file_count = 0;
    for (uint32_t k = 0; k < p->chunk_count; k++) dl_arena_release(&p->chunk_arenas[k]);
    free(p->chunk_arenas);
    p->chunk_arenas = NULL;
    p->chunk_count = 0;
    dl_arena_release(&p->arena);
}
