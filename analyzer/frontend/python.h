/* Python front end: tree-sitter-python parse tree -> program model (ir.h). Decides nothing
 * about bugs; it only lowers syntax. */
#ifndef DL_FRONTEND_PYTHON_H
#define DL_FRONTEND_PYTHON_H
#include <stdbool.h>

#include "ir/ir.h"

typedef struct DlParseResult {
    DlModuleIR *module; /* NULL on failure */
    char *error;        /* malloc'ed reason on failure: "syntax error at line 3, column 5" */
    char **deps;        /* C++: every other file the compiler read (headers), malloc'ed, for the
                           result cache to check; NULL for Python */
    size_t dep_count;
    char *incomplete;   /* C++: parsed, but with compile errors (malloc'ed message), else NULL */
} DlParseResult;

/* Parses and lowers `src`. `lower` false: parse only (syntax check, comments for
 * suppressions) — for files that cannot contain device bugs. `mentions_devices`: what
 * dl_python_mentions_devices(src) says, when the caller knows it already (NULL: work it out). */
DlParseResult dl_python_parse(const DlSource *src, DlArena *arena, bool lower,
                              const bool *mentions_devices);

/* Does the file mention anything a device bug needs (torch, devices, tensors, modules), or
 * hand on another file's names with a star import? A cheap byte scan that lets the driver skip
 * lowering files that cannot produce findings nor lead to what does. */
bool dl_python_is_relevant(const DlSource *src);

/* Does the text set the default device to a GPU, or to what a variable holds? Asked of a file
 * whose code names the call (a mention in a string would pass for one): DlModuleIR.
 * sets_a_gpu_default. */
bool dl_python_sets_a_gpu_default(const DlSource *src);

/* Is `p`, a byte of `src`'s text, inside the arguments of an `add_argument(` call (a
 * command-line option's name or help: `parser.add_argument('--use_cuda', help='Use GPU')`)? */
bool dl_python_in_an_option_declaration(const DlSource *src, const char *p);

/* Does the text name a device or move something (DlModuleIR.mentions_devices)? */
bool dl_python_mentions_devices(const DlSource *src);

/* The module name imports resolve a file by: "src/pkg/model.py" -> "model",
 * "pkg/__init__.py" -> "pkg" (an arena string). */
const char *dl_python_module_name(DlArena *arena, const char *path);

#endif
