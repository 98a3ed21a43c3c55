/* Project-wide facts: every file's program model, the classes (which are nn.Modules, which
 * define their own to(), what __init__ stores on self) and the functions' return summaries,
 * plus name resolution across the files of one run (imports and aliases). Built once, after
 * all files are lowered and before any rule runs; read-only while files are checked. */
#ifndef DL_PROJECT_H
#define DL_PROJECT_H
#include <stdbool.h>

#include "core/arena.h"
#include "core/intern.h"
#include "core/path_map.h"
#include "core/vec.h"
#include "dataflow/value.h"
#include "ir/ir.h"

typedef struct DlAttr {
    const char *name; /* "mask" for self.mask */
    const DlValue *value;
} DlAttr;

typedef struct DlClassInfo DlClassInfo;
struct DlClassInfo {
    const DlClass *cls;
    const DlModuleIR *module;
    const DlClassInfo *base; /* first project base class, if any */
    /* the project bases after the first (`class ArcFace(WeightMixin, BaseLoss)`: BaseLoss),
     * where a method the first base's chain lacks is looked up next (dl_project_method) */
    const DlClassInfo *later_bases[3];
    uint8_t later_base_count;
    bool is_module;          /* nn.Module / LightningModule subclass (directly or not) */
    bool maybe_module;       /* not known to be one, but a base is a class devlint cannot see
                                (another library's, or a project name defined twice): it may
                                be, so its submodules may move with it */
    bool is_dataset;
    bool has_own_to;         /* defines to() (or a project base does): moves in place */
    bool attrs_done;
    bool attrs_busy;         /* its attributes are being computed (a class built in its own
                                __init__, directly or not, is taken as not known yet) */
    bool loaded_with_workers; /* a DataLoader with num_workers > 0 reads this dataset */
    bool unknown_attrs_are_data; /* every attribute __init__ stores whose kind is not known
                                    (`self.labels = labels`) is only indexed, compared or
                                    measured by the class's methods: never called or handed
                                    on, so not a module */
    bool copies_own_state;   /* a method copies the module's tensors to where a variable says
                                (`self._coefficient = self.coefficient.to(X)`) */
    bool stateless_library_base; /* its bases from outside the project are torch modules that
                                    hold nothing unless given a weight: a loss
                                    (`class MaskedLoss(nn.CrossEntropyLoss)`) or a layer without
                                    state (nn.ReLU) */
    bool weightless_library_base; /* ... and none is a loss: what its __init__ hands them
                                     (`super().__init__(dim)` of attorch's GLU) is no weight */
    bool library_state_base; /* a base from outside the project may hold state devlint does not
                                see: a torch layer (`nn.Linear`, `Linear` imported by name),
                                a loss that may be given a weight, another library's
                                `lib.Model` */
    bool data_parallel_base; /* a base is torch's DataParallel or DistributedDataParallel
                                (`class MyDataParallel(nn.DataParallel)`, to forward
                                attribute reads): an instance wraps the module it is given */
    bool single_process_data_parallel_base; /* ... and it is nn.DataParallel (DL205; its
                                               subclasses walk `base` to it, as
                                               data_parallel_base's do) */
    bool container_library_base; /* a base is torch's nn.Sequential, nn.ModuleList or
                                    nn.ModuleDict: an instance holds the modules it is given */
    bool init_hands_base_arguments; /* its own __init__ calls `super().__init__(...)` (or
                                       `Base.__init__(self, ...)`) with what could be a weight:
                                       an argument by position, weight=, pos_weight=, *a, **kw */
    bool init_forwards_base_arguments; /* ... only its own `*args` and `**kwargs` handed on: a
                                          construction that gives no weight gives it none */
    DlAttr *attrs;           /* what __init__ (and helpers it calls) leaves on self */
    uint32_t attr_count;
    struct DlFunctionInfo **methods; /* the functions it owns, in the file's order */
    uint32_t method_count;
};

typedef struct DlFunctionInfo {
    const DlFunction *fn;
    const DlModuleIR *module;
    const DlClassInfo *owner;
    const DlValue *ret; /* joined return value; NULL = not computed / unknown */
    bool collate_with_workers; /* the collate_fn of a DataLoader with num_workers > 0 */
    bool returns_waited; /* waits for the device before every return, nothing queued since
                            (DlFlowEnv.returns_waited): a call of it is a wait (DL203) */
    bool returns_blocking_upload; /* every return hands back a blocking `.cuda()` / `.to(d)`
                                     of a tensor, with no known work queued (DL203: a call of
                                     it is the copy it ends with, which from the host waits) */
    DlSpan host_read; /* reads a device value on the host on every call (DlFlowEnv.host_read);
                         its span in `module`, empty if none */
    int16_t host_read_parameter; /* 1 + the parameter whose name host_read reads, 0 if it
                                    reads something else (DlFlowEnv.host_read_parameter) */
    int16_t host_read_when; /* 1 + the parameter off by default whose test host_read is under:
                               a call that leaves it off reads nothing; -(1 + the parameter)
                               when it is read only where that is false (DlFlowEnv's) */
    /* 1 + the parameters it copies to the host on every call, the first two
     * (DlFlowEnv.reads_parameter_back); 0 if none */
    int16_t reads_parameter_back[2];
    DlSpan parameter_read[2]; /* those reads, in `module` */
    bool parameter_copied[2]; /* each a copy to the host, not `int(x)` (DlFlowEnv's) */
    bool requires_gpu; /* fails without a GPU before it returns (DlFlowEnv.requires_gpu): what
                          follows a call of it runs only with one (DivideMix's create_model) */
    int16_t yields_items_of; /* 1 + the parameter whose items it yields (`for obj in iterable:
                                yield obj`, MetricLogger.log_every): iterating a call of it
                                iterates that argument; 0 if none */
    bool runs_only_in_init; /* a method only its class's __init__ calls (or helpers that only
                               it runs): it runs inside __init__, which reads it with the
                               attributes as they are at the call, not as __init__ ends */
    /* flow_host_only_params of this forward, computed once its class's attributes are known
     * (the last summary round and the analysis then ask the same: it reads only the models
     * and the classes' facts, which no longer change) */
    bool host_only_known;
    uint64_t host_only_params;
} DlFunctionInfo;

/* name -> qualified name ("nn" -> "torch.nn", "zeros" -> "torch.zeros"), one table per file */
typedef struct DlImportEntry {
    const char *alias;
    const char *qualified;
} DlImportEntry;

typedef struct DlFlowState DlFlowState;

/* The project files whose facts a computation read: a bit per index of DlProject.files (its
 * read_words words). A cached result depends on those files and, through their facts, on the
 * files they read (dl_project_read_closure; driver/check.c keys the result cache by them). */
typedef struct DlPlacedMark {
    DlClassInfo *cls; /* a dataset (or a callable collate object) DataLoader workers run */
    struct DlFunctionInfo *fn; /* or a collate function they run */
} DlPlacedMark;

typedef struct DlReadSet {
    uint64_t *bits; /* NULL: not recorded */
    bool uncertain; /* in a build that leaves shared files out (DlProjectLeaves.absent), a lookup
                       that may have found something else had they been in */
    DL_VEC(DlPlacedMark) placed; /* the DataLoader marks (DL113) the computation placed, which
                                    driver/check.c stores with a DataLoader file's result */
} DlReadSet;

/* What the project knows of the shared files a partial build leaves out (DlProjectLeaves). */
typedef struct DlAbsentFiles {
    DlPathMap names; /* see project.c, absent_key */
    char **modules;  /* per file index: the module name of a file left out, else NULL */
    uint32_t file_count;
} DlAbsentFiles;

typedef struct DlFileFacts {
    const DlModuleIR *module;
    bool leaf; /* built by dl_project_build_leaf: no other file reads it */
    DlFlowState *leaf_globals; /* a leaf's module-level state, which its summaries read */
    DlImportEntry *imports;
    uint32_t import_count;
    const char **star_modules; /* `from pkg.meters import *`: the modules, in the file's order */
    uint32_t star_count;
    DlClassInfo **classes;
    uint32_t class_count;
    DlFunctionInfo **functions; /* parallel to module->functions */
    uint32_t function_count;
    DlReadSet reads; /* the files its facts read: bases, module-level values, summaries,
                        class attributes */
    /* While the build computes class attributes: the file's module-level state and the arena
     * its classes' attributes go to, so that a class another one builds in its __init__ can be
     * computed first, wherever it is defined (NULL outside that step) */
    const DlFlowState *attr_globals;
    DlArena *attr_keep;
} DlFileFacts;

typedef struct DlNamedEntry {
    const char *name;   /* class or top-level function name */
    const char *module; /* the file's module name */
    const void *info;   /* DlClassInfo / DlFunctionInfo */
    uint32_t file;      /* the file's index in DlProject.files */
} DlNamedEntry;

typedef struct DlProject {
    DlNamedEntry *classes_by_name, *functions_by_name; /* sorted by name, then module */
    uint32_t class_entries, function_entries;
    DlArena arena; /* summaries */
    DlArena *chunk_arenas; /* the files' facts, one arena per chunk of files built in parallel */
    uint32_t chunk_count;
    bool uses_devices; /* some file moves something to a device or names one: without that,
                          "the module's device" is the CPU and nothing can mismatch */
    bool default_device_set; /* some file sets the default device to a GPU
                                (`torch.set_default_device("cuda")`, the legacy
                                `set_default_tensor_type('torch.cuda.FloatTensor')`: M3D-RPN's
                                `init_torch()` in lib/core.py): a factory without a device in
                                any file may then create there */
    DlFileFacts *files;
    uint32_t file_count;
    uint32_t read_words; /* the size of a DlReadSet: file_count bits */
    DlFlowState **globals; /* each file's module-level state, for `from config import DEVICE` */
    DlInterner referenced_names; /* what files read (see DlModuleIR.referenced_names) */
    DlInterner module_names; /* the module names of the run's Python files (DlProjectLeaves.
                                module_names), of the files built over and of those a partial
                                build leaves out (find_named's unique fallback asks) */
    bool referenced_names_known;
    bool workers_may_touch_devices; /* the shared files' DataLoader workers may run device code
                                       (see project.c): DataLoader builders run only then, or
                                       in a leaf whose own workers may */
    const DlInterner *mentioned_names; /* names the files not lowered yet (the leaves) may refer
                                          to, a superset from their text; NULL: none */
    const DlAbsentFiles *absent; /* DlProjectLeaves.absent */
    bool *built_marks; /* the DataLoader marks (DL113) as the build left them, classes then
                          functions file by file: dl_project_rewind puts them back */
} DlProject;

/* What the project must know of the files it is built without (the leaves, see
 * driver/sharing.h), which are lowered only afterwards, one at a time. */
typedef struct DlProjectLeaves {
    const DlInterner *mentioned_names; /* a superset of the names they refer to */
    const DlInterner *module_names; /* the module names of every Python file of the run, the
                                       leaves' and the unlowered files' too (NULL: those of the
                                       files built over only) */
    bool use_devices; /* a Python file's text names a device (DlModuleIR.mentions_devices, from
                         the text): a leaf's, or any file's, one that fails to lower included */
    bool set_default_device; /* a Python file's text sets the default device to a GPU
                                (DlModuleIR.sets_a_gpu_default, from the text, as use_devices) */
    /* A build over some of the shared files only (driver/check_partial.c): what the
     * shared files left out define (NULL in a full build), so that a lookup that a full build
     * might have answered from one of them marks its read set uncertain, and whether their
     * DataLoader workers may run device code (dl_project_workers_may_touch_devices). */
    const DlAbsentFiles *absent;
    bool absent_workers_may_touch_devices;
} DlProjectLeaves;

/* The shared files a partial build leaves out, added in index order: each one's module name
 * (dl_absent_add_file), then the classes and top-level functions it defines. */
void dl_absent_init(DlAbsentFiles *a, uint32_t file_count);
void dl_absent_add_file(DlAbsentFiles *a, uint32_t file, const char *module);
void dl_absent_add_name(DlAbsentFiles *a, uint32_t file, const char *name, bool is_class);
void dl_absent_free(DlAbsentFiles *a);
/* Whether a Python file's DataLoader workers may run code that puts tensors on a device
 * (DL113): a fact of its model alone, stored with its cached result for partial builds. */
bool dl_project_workers_may_touch_devices(const DlModuleIR *m);
/* Whether a read set's closure (dl_project_read_closure) holds a file whose facts' lookups were
 * uncertain (DlReadSet.uncertain). */
bool dl_project_closure_uncertain(const DlProject *p, const uint64_t *closure);

/* Builds imports and class tables, then the summaries (functions' returns, class attributes).
 * `modules` may contain NULLs (files that failed or were not lowered). The per-file part runs on
 * `threads` threads; the summaries, which read each other, run on the calling thread. */
void dl_project_build(DlProject *p, DlModuleIR *const *modules, uint32_t count, int threads,
                      const DlProjectLeaves *leaves);
void dl_project_free(DlProject *p);

/* A project the previous check built (the language server keeps it, driver/keep.h), made as
 * dl_project_build left it, for a check over the same program models and the same `leaves`:
 * the models' facts pointers attached to it again, the DataLoader marks that leaves and later
 * builds added taken away, the leaves' names those of this check. */
void dl_project_rewind(DlProject *p, const DlProjectLeaves *leaves);
/* A hash of the DataLoader marks (DL113) as they are now: what the leaves' DataLoaders told the
 * project's datasets and collate functions. */
uint64_t dl_project_marks_hash(const DlProject *p);
/* The same, for the marks on one file's own datasets and collate functions (its facts `f`; NULL,
 * a file the project was not built over, has none): what its own analysis reads of them. */
uint64_t dl_project_file_marks_hash(const DlFileFacts *f);
/* The same digest, of the marks at these positions (ascending, distinct), for a file whose
 * facts are not built. */
uint64_t dl_project_marks_digest(const uint32_t *positions, size_t count);
/* A DataLoader mark placed by the computation whose reads this thread notes (DlReadSet.placed). */
void dl_project_note_mark(DlClassInfo *cls, struct DlFunctionInfo *fn);
/* Where a placed mark lies: the index of its shared file (DlProject.files) and its position
 * among that file's definitions (classes, then functions, as dl_project_file_marks_hash counts
 * them); false for a mark on a leaf's definition. */
bool dl_project_mark_position(const DlProject *p, const DlPlacedMark *m, uint32_t *file,
                              uint32_t *position);
/* Places the mark at `position` of a file's definitions (one another run placed). */
void dl_project_set_mark(DlFileFacts *f, uint32_t position);

/* A leaf's facts, module-level values, summaries and class attributes, computed the way
 * dl_project_build computes a file's, from its own model and the project's, in `arena` (the
 * leaf's). Any thread, once the project is built: it writes nothing of the project's but the
 * marks DataLoader calls leave on the datasets and collate functions their workers run (DL113).
 * dl_project_leaf_done frees what is not in `arena`. */
void dl_project_build_leaf(DlProject *p, DlFileFacts *out, DlModuleIR *m, DlArena *arena);
void dl_project_leaf_done(DlFileFacts *f);

const DlFileFacts *dl_project_file(const DlProject *p, const DlModuleIR *m);

/* From now on, the files whose facts this thread's lookups find (dl_project_find_class,
 * dl_project_find_function, dl_project_find_global) are noted in `into` (NULL: nowhere); the
 * set noted in until now is returned, to be put back. What a file's analysis reads beyond
 * that (a summary's class, a base's methods) came through such a lookup: in its file's facts
 * or in those of a file that file read. */
DlReadSet *dl_project_note_reads(DlReadSet *into);
/* `out` (read_words words) gets `direct`'s files and every file their facts read,
 * transitively: the files whose bytes a result that read `direct` depends on. */
void dl_project_read_closure(const DlProject *p, const uint64_t *direct, uint64_t *out);
/* That this thread's computation read the text of `f`, a file of `p` it looked through itself
 * (DL109 reading another file's saves): noted as a lookup's would be. */
void dl_project_note_file_read(const DlProject *p, const DlFileFacts *f);
/* A search over every file of `p` that found nothing: in a build that leaves shared files out
 * (DlProject.absent), one of those might have answered, and the result is not kept. */
void dl_project_note_search_missed(const DlProject *p);
/* Qualified name bound to `alias` by an import in this file, or NULL. */
const char *dl_project_import(const DlFileFacts *f, const char *alias);
/* Whether the text of `fi`, a Python function, mentions one of `words` (a NULL-ended list). */
bool dl_project_function_mentions(const DlFunctionInfo *fi, const char *const *words);
/* A name `f` neither binds nor imports by name, through its star imports (`from pkg.meters import
 * *`): "pkg.meters.RocAucMeter" for a class or function that project module defines, or what
 * that module imports under the name ("torch" for `torch`), or NULL. */
const char *dl_project_star_import(const DlProject *p, const DlFileFacts *f, const char *name,
                                   DlArena *arena);
/* A project class/function by the qualified name a file sees ("model.Net", "Net"). */
const DlClassInfo *dl_project_find_class(const DlProject *p, const DlFileFacts *from,
                                         const char *qualified);
const DlFunctionInfo *dl_project_find_function(const DlProject *p, const DlFileFacts *from,
                                               const char *qualified);
/* A module-level value another file defines ("config.DEVICE"), or NULL. */
const DlValue *dl_project_find_global(const DlProject *p, const char *qualified);
const DlFunctionInfo *dl_project_method(const DlProject *p, const DlClassInfo *c,
                                        const char *name);
const DlAttr *dl_project_attr(const DlClassInfo *c, const char *name);

/* Whether a call's arguments may give a torch loss its weight: anything by position (after an
 * explicit `self`, as in `Base.__init__(self, ...)`), weight=, pos_weight=, or an unpacked
 * *args / **kwargs. A loss built (or a loss subclass initialised) without any has nothing to
 * move. */
bool dl_call_may_give_a_weight(const DlExpr *call, bool explicit_self);

/* An attribute's value that may hold a module (a module or loss, a list of them, or a value of
 * unknown kind): a class keeping one must move itself, copying its tables proves nothing. */
bool dl_project_attr_may_hold_modules(const DlValue *v);
/* While the build computes class attributes: those of `ci` (and its project bases), now, when
 * they are not known yet; a class being built by its own __init__ stays unknown. */
void dl_project_ensure_class_attributes(DlProject *p, const DlClassInfo *ci);
const DlClassInfo *dl_project_class_of(const DlProject *p, const DlClass *cls);
const DlFunctionInfo *dl_project_function_of(const DlProject *p, const DlFunction *fn);

#endif
