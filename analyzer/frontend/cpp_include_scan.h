/* A missing header found before the compiler runs. Most C++ files of a PyTorch extension fail
 * to parse without the project's build flags (DeepSpeed: 119 of 122 translation units), on a
 * header only those flags find or one a CPU-only libtorch lacks (c10/cuda/...). The compiler
 * finds that out after reading <torch/extension.h> and building a precompiled header for the
 * file's prelude: seconds per file, minutes per project. Reading the #include lines finds most
 * of them in microseconds.
 *
 * The scan follows the file's unconditional #include lines (none under #if/#ifdef/#else, other
 * than a header's include guard) in the compiler's order, and those of the headers they name,
 * recursively. A header is missing when it is found in no directory the compiler
 * could search: next to its includer or the main file, in any include directory of the
 * command, or in any system, C++ library or compiler resource directory on this machine, a
 * superset of the compiler's search path. So a header reported missing is one the compiler
 * cannot find either, and the file cannot be parsed; a header the scan finds may still fail in
 * the compiler, which then reports it as before. Conditionals are not evaluated, but for a
 * guard and the few macros only a compile command sets (libtorch's generated-headers switches,
 * see command_line_macros): a missing header the compiler would meet first under a conditional
 * it takes (`#ifdef __CUDACC__`) is not seen, and the scan then names a later one, also
 * missing. */
#ifndef DL_FRONTEND_CPP_INCLUDE_SCAN_H
#define DL_FRONTEND_CPP_INCLUDE_SCAN_H
#include <stdbool.h>
#include <stddef.h>

#include "core/stat_memo.h"

typedef struct DlCppIncludeScan {
    char *missing;  /* the header's name as written; NULL: none found missing */
    char *includer; /* the file whose #include names it (as the scan opened it) */
    unsigned line;  /* 1-based line of that #include */
    char **read;    /* the headers the scan found before it (a cached failure depends on
                       them: one deleted or edited may change which header fails first) */
    size_t read_count;
} DlCppIncludeScan;

/* What the scans of one run share: the headers whose includes were all found. Thread-safe. */
typedef struct DlCppIncludeMemo DlCppIncludeMemo;
DlCppIncludeMemo *dl_cpp_include_memo_new(void);
void dl_cpp_include_memo_free(DlCppIncludeMemo *memo); /* NULL: nothing */

/* Scans `text`, the main file at `path` (absolute), with the compiler arguments `args`. false
 * when the command has a flag that moves the search path in ways the scan does not follow
 * (--sysroot, -iprefix, -F, ...): nothing is known, parse. Otherwise `out->missing` says.
 * `stats` and `memo` (the run's, or NULL) spare the files of a run each other's work. */
bool dl_cpp_include_scan(const char *path, const char *text, size_t len, char *const *args,
                         size_t arg_count, DlStatMemo *stats, DlCppIncludeMemo *memo,
                         DlCppIncludeScan *out);
void dl_cpp_include_scan_free(DlCppIncludeScan *scan);

#endif
