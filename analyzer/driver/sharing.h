/* Which files other files may read, decided from the files' text before any is parsed.
 *
 * A file's analysis reads another file's program model only through a name: a module name
 * (`from model import Net`, `config.DEVICE`), or a class name that is unique in the project
 * (`x.Net`). A file whose module name no file may use as one (driver/module_refs.h: in an import
 * statement, an attribute of an imported name, a base list), and whose class names no other
 * file mentions, is read by no other file: a *leaf*. Leaves (most files of a large project) stream
 * through the workers: each is parsed, summarised, analysed and dropped on its own, after the
 * shared files' summaries, so memory is bounded by the shared files and the leaves in flight
 * rather than by the corpus (docs/memory.md).
 *
 * Class names count as mentioned when they are identifiers anywhere in the text, comments and
 * strings included: a superset of what the front end reads as names, so a file the analysis
 * can reach is never a leaf. */
#ifndef DL_DRIVER_SHARING_H
#define DL_DRIVER_SHARING_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/intern.h"
#include "core/source.h"

/* What the decision needs of one Python program (a .py file or a notebook's joined cells),
 * taken while its text is at hand: the text can be let go afterwards. */
typedef struct DlSharingFile {
    bool takes_part;       /* scanned (zeroed: a file that takes no part) */
    bool mentions_devices; /* names a device, as the front end checks it (DlModuleIR.
                              mentions_devices): the project-wide DlProject.uses_devices needs
                              it before the leaves are lowered */
    bool mentions_dataloader; /* its code names DataLoader (see dl_sharing_may_place_marks) */
    bool sets_a_gpu_default;  /* sets the default device to a GPU (DlModuleIR.
                                 sets_a_gpu_default): the project-wide DlProject.
                                 default_device_set needs it before the leaves are lowered */
    char *names;           /* the class names it defines, then the function names, each
                              NUL-terminated */
    uint32_t class_count, function_count;
    uint32_t *mentions; /* the distinct 32-bit hashes of the identifiers it uses, other than a
                           name where a `def` or `class` defines it */
    uint32_t mention_count;
    uint32_t *module_refs; /* the distinct hashes of the identifiers through which it may name a
                              module (driver/module_refs.h): a subset of `mentions`; the first
                              `base_ref_count` are those of its classes' base lists */
    uint32_t module_ref_count, base_ref_count;
    uint32_t *saved_names, *loaded_names; /* the hashes of the file names its string literals
                                             end with, sorted, in a file that calls a save, and
                                             in one that calls a load (driver/sharing_saves.c) */
    uint32_t saved_name_count, loaded_name_count;
    uint32_t *cpu_device_functions; /* the hashes of the names calls use for its functions whose
                                       parameters name the string "cpu" (a top-level `def
                                       f(x, device="cpu")`; each class's, for such an __init__),
                                       sorted (driver/sharing_callers.c) */
    uint32_t cpu_device_function_count;
    bool import_alias; /* an import binds a name under another: a base may be an alias */
    bool module_refs_known; /* false: not looked for, since the file mentions no module name of
                               its run; `mentions` stand in for them */
} DlSharingFile;

/* The module names of a run's files (hashes), known before any file is read: a file that
 * mentions none of them needs no search for where it names a module. */
typedef struct DlSharingModules DlSharingModules;
DlSharingModules *dl_sharing_modules_new(char *const *paths, size_t count);
void dl_sharing_modules_free(DlSharingModules *m);

/* `modules` NULL: the places the file may name a module by are always looked for. */
void dl_sharing_file_scan(DlSharingFile *f, const DlSource *src, const DlSharingModules *modules);
/* The file names it saves and loads (DlSharingFile.saved_names, loaded_names): part of the scan. */
void dl_sharing_find_file_names(DlSharingFile *f, const DlSource *src);
/* The bytes of f->names: its class_count + function_count NUL-terminated names. */
size_t dl_sharing_file_names_size(const DlSharingFile *f);
/* A copy of `from` that owns its own memory (a scan the language server keeps, driver/keep.h). */
void dl_sharing_file_copy(DlSharingFile *to, const DlSharingFile *from);
void dl_sharing_file_free(DlSharingFile *f);

typedef struct DlSharing DlSharing;

/* The decision over `files` (parallel to `paths`, whose names give the module names as the
 * Python front end derives them). `files` is read only during the call. */
DlSharing *dl_sharing_decide(const DlSharingFile *files, char *const *paths, size_t count,
                             int threads);
/* Scans and decides at once: `sources[i]` NULL for a file that takes no part. */
DlSharing *dl_sharing_scan(const DlSource *const *sources, char *const *paths, size_t count,
                           int threads);
void dl_sharing_free(DlSharing *s);

/* Whether another file (or the file itself, through its module name) may read file i's
 * program model; shared are also the files that save a file name another file loads
 * (sharing_saves.c) and the files that mention another file's function whose parameter defaults
 * to the CPU, whose calls that function's analysis reads (sharing_callers.c). False for files
 * that take no part. */
bool dl_sharing_is_shared(const DlSharing *s, size_t i);
/* Whether another file may read file `i`'s code (a name it defines, its module): what its
 * rules may not assume of a script (DlModuleIR.read_by_no_other_file). A file shared only
 * because it saves what another file loads (driver/sharing_saves.c) is built with the project
 * and still read by no other file. */
bool dl_sharing_code_is_read(const DlSharing *s, size_t i);
/* Whether some file (itself included) may name file i's module (`import eval`): less than
 * dl_sharing_is_shared, which also counts its class names mentioned elsewhere. */
bool dl_sharing_module_is_named(const DlSharing *s, size_t i);

/* Whether file i's facts may leave DataLoader marks (DL113) on another file's datasets and
 * collate functions: a file whose code names DataLoader (dl_code_names: not in a comment or a
 * plain string, where the analysis never sees one), or one defining a class that may inherit
 * a method from a class of such a file. `__init__`'s helpers run inline while a class's
 * attributes are computed (dataflow/flow_call.c, flow_inline_method), in the class's own file:
 * a base class's `self.make_loader(Points())`, called from a subclass's `__init__` in another
 * file, marks Points from the subclass's file. A base is named in its subclass's base list, or
 * in an import when the base list holds an alias of it (dataflow/project.c, qualify_static;
 * `module_refs`), so the files that define a class and name a class of such a file there are
 * such files too, transitively: a superset, as for sharing. */
bool dl_sharing_may_place_marks(const DlSharing *s, size_t i);

/* What file i's facts depend on in the other files' text, in one digest (0: nothing):
 *   - what a lookup of the names it mentions may find: for each name, which shared files
 *     define it as a class or as the last part of a module name, and as a function when the
 *     file also mentions the defining module's last part (functions are found only through
 *     their module: `mod.f`, project.c find_named). A lookup resolves a name the file's text
 *     holds (an import, a base list, `x.Net`), and where that name is defined changes only
 *     with a shared file's definitions;
 *   - which of its own functions get summaries: those some file names (project.c,
 *     needs_summary; a summary takes from the file's budget).
 * A file's key holds its digest, and a result that read file i's facts stores it with file
 * i's bytes (driver/check.c). So a new definition, or a function named for the first time,
 * changes the results that may see it, not every result: copying a training script, whose
 * classes become shared, keeps the others'. */
uint64_t dl_sharing_names_digest(const DlSharing *s, size_t i);

/* The names the run's Python files give what an import may start with: each folder of their
 * paths (a package, or a namespace package) and each module, whether a file takes part or not
 * (an `__init__.py` that names no tensor): whether an import names the project's code
 * (dataflow/project.c's unique fallback asks). Strings owned by `s`. Each file's names digest
 * holds which of the names it mentions are such names (dl_sharing_names_digest). */
const DlInterner *dl_sharing_module_names(const DlSharing *s);

/* The names of the functions the project's text mentions other than where it defines them: a
 * superset of the names files refer to (see DlModuleIR.referenced_names). Strings owned by `s`. */
const DlInterner *dl_sharing_mentioned_functions(const DlSharing *s);
/* A hash of that set, for the result cache's keys. */
uint64_t dl_sharing_mentioned_functions_hash(const DlSharing *s);

#endif
