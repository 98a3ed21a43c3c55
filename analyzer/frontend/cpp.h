/* C++/CUDA front end: libclang's typed AST -> the same program model (ir.h) the Python front end
 * fills, so the rules are written once. Like python.c it decides nothing about bugs; what it adds
 * is what only a compiler knows: the resolved callee of each call and the types of expressions.
 *
 * libtorch's spellings are lowered to their Python equivalents where the engine knows those:
 * `torch::zeros({n}, torch::TensorOptions().device(torch::kCUDA))` becomes
 * `torch.zeros((n,), device="cuda")`, `at::Tensor x` a `torch.Tensor` annotation, `a + b` a
 * binary operation, `TORCH_CHECK(x.is_cuda(), ...)` a DL_ST_CHECK, `k<<<g, b>>>(args)` a call
 * flagged DL_EXF_KERNEL_LAUNCH. */
#ifndef DL_FRONTEND_CPP_H
#define DL_FRONTEND_CPP_H
#include <stdbool.h>
#include <stdint.h>

#include "core/stat_memo.h"
#include "frontend/cpp_include_scan.h"
#include "frontend/python.h" /* DlParseResult */
#include "ir/ir.h"

typedef struct DlCppOptions {
    const char *compile_db_dir; /* `-p DIR`, or NULL: search up from each file */
    const char *cache_dir;      /* where precompiled headers live; NULL: the user cache dir */
    bool no_pch;                /* parse every file from scratch (for measuring) */
    DlStatMemo *stats;          /* the run's memo of stat() answers, or NULL */
    DlCppIncludeMemo *includes; /* the run's memo of headers whose includes are all found */
} DlCppOptions;

/* Does the file name libtorch, ATen, CUDA kernels or devices? Files that do not (vendored C
 * libraries, unrelated headers) are not handed to the compiler at all. */
bool dl_cpp_is_relevant(const DlSource *src);

/* Parses `src` (its text is what the compiler reads, whatever is on disk) with its compile
 * command and lowers it. On a missing header or another fatal error: error set, module NULL. */
DlParseResult dl_cpp_parse(const DlSource *src, DlArena *arena, const DlCppOptions *opts);

/* What the file's result depends on besides its bytes and its headers: the compile command
 * and the libclang version (0 when there is no command: the file's error is not cached). */
uint64_t dl_cpp_command_hash(const char *path, const char *compile_db_dir);

#endif
