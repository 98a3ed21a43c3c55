/* Precompiled headers for C++/CUDA files: libtorch's headers cost ~10 s per translation unit,
 * a PCH of them brings a file down to a fraction of a second. One PCH per distinct (libclang,
 * flags, prelude), cached on disk and shared by every file, thread and devlint process.
 *
 * The prelude is the file's leading run of angle-bracket includes of library headers (torch/,
 * ATen/, c10/, pybind11/, CUDA's, the C and C++ standard headers), in canonical form
 * ("#include <x>\n" each), up to the last libtorch/pybind11/CUDA one; it ends at the first
 * other include, #define, #if (an include guard `#ifndef G` + `#define G` and `#pragma once` are
 * skipped) or code; an angle include that is in none of the directories clang could search is
 * skipped too (it adds nothing: the parse reports it missing, in 0.3 s instead of 10). At a first
 * `#include "x.h"` it continues into x.h (found as clang would: the file's directory, then -iquote,
 * -I, -isystem), whose own beginning is the file's, and ends there: a kernels.cu that starts with
 * #include "kernels.h", itself starting with <torch/extension.h>, gets the PCH of
 * <torch/extension.h>. A quoted include of a library header (`#include "ATen/ATen.h"`) that is
 * neither beside the file nor in an -iquote directory is found where the angle include is,
 * and counts as one. Headers parsed in that order before anything of the file mean what they mean
 * in the file, so a PCH never changes what a file says; the file's own includes of them are then
 * no-ops (include guards). No libtorch (torch/ ATen/ c10/) header in it: no PCH, it is not worth
 * one.
 *
 * The PCH is parsed with CXTranslationUnit_SkipFunctionBodies (clang keeps the bodies of
 * constexpr functions and of functions with a deduced return type, which callers need). Measured
 * with libclang 14 and 16 on libtorch files: the user file's AST is identical (every cursor's
 * kind, type and referenced declaration) to a parse without a PCH, and the parse takes 0.2 s
 * instead of 1.5 s with a full-bodies PCH (`-fpch-instantiate-templates`) or 10 s without one.
 *
 * On disk, in <cache_dir>/pch/: KEY.pch, KEY.h (the prelude: the PCH refers to it), KEY.deps
 * (the size and mtime of the .pch and of every file it includes: the PCH is rebuilt when any
 * changed) and KEY.lock (flock'ed while building). KEY is 16 hex digits of a hash of the
 * libclang version and library, every argument, and the prelude. Files are written under
 * temporary names and renamed into place, so a reader never sees half a PCH. The directory keeps
 * at most 8 PCHs: building a ninth removes the least recently used (the .lock's mtime is the
 * last use), so flag sets that come and go do not fill the disk. */
#ifndef DL_FRONTEND_CPP_PCH_H
#define DL_FRONTEND_CPP_PCH_H
#include "frontend/cpp_clang_api.h" /* libclang, opened on first use */
#include <stddef.h>

#include "core/stat_memo.h"
#include "frontend/cpp_flags.h"

/* The PCH for a file with this command and text: reused if fresh, else built (another thread or
 * process building the same one is waited for, not duplicated). `index` is a CXIndex the caller
 * owns (one per thread). Returns a malloc'ed path to pass as `-include-pch PATH` together with
 * exactly cmd->args, or NULL: with *error NULL when no PCH applies (no libtorch prelude), with a
 * malloc'ed *error when it could not be built ("FILE:LINE: message" of the prelude's first
 * error, or why the cache cannot be written); the caller then parses without one. A failure is
 * remembered for the rest of the process, so it costs one attempt, not one per file.
 *
 * If clang_parseTranslationUnit still fails with the PCH (CXError_ASTReadError: a header changed
 * between this call and the parse, or another process evicted the PCH), parse again without. */
char *dl_cpp_pch_for(CXIndex index, const DlCompileCommand *cmd, const char *text, size_t len,
                     const char *cache_dir, char **error);

/* A build that fails is remembered by this process, and by later runs for an hour (a
 * `<key>.failed` beside the PCHs, holding the error). For tests: forget what this process
 * remembered, as a new run would. */
void dl_cpp_pch_forget_failures(void);

/* The same, checking the headers the PCH depends on through `stats`, one run's memo of stat()
 * answers (NULL: plain stat): a project's files share a PCH and its ~4,700 headers. */
char *dl_cpp_pch_for_run(CXIndex index, const DlCompileCommand *cmd, const char *text,
                         size_t len, const char *cache_dir, DlStatMemo *stats, char **error);

/* The prelude of `text` as described above (malloc'ed), or NULL when it has no libtorch header.
 * cmd->file and cmd->args say where quoted includes are; cmd NULL: a quoted include ends it. */
char *dl_cpp_pch_prelude(const DlCompileCommand *cmd, const char *text, size_t len);

/* $XDG_CACHE_HOME/devlint, else $HOME/.cache/devlint (malloc'ed; created when a PCH is first
 * written); NULL when neither variable is set. */
char *dl_cpp_default_cache_dir(void);

#endif
