/* libclang's parse, run where a crash of the compiler costs one file, not the whole run.
 *
 * clang recurses without end on some malformed C++ (cpp_crash_guard.h lists the shapes found so
 * far; the fuzzer keeps finding others). libclang's own crash recovery cannot catch that: the
 * signal of a stack overflow needs a stack to run its handler on, and libclang parses on a
 * thread of its own that has no alternate signal stack, so the kernel ended the whole devlint
 * process, and every other file's result with it.
 *
 * So devlint parses on a thread of its own (8 MiB of stack, as libclang's), with an alternate
 * signal stack, and tells libclang not to start its thread nor install its handlers
 * (LIBCLANG_NOTHREADS, LIBCLANG_DISABLE_CRASH_RECOVERY). A SIGSEGV, SIGBUS, SIGILL or SIGFPE
 * raised by the compiler's code (libclang, libLLVM, libstdc++) on that thread jumps back to
 * where the parse began, and the file gets a per-file error. A fault anywhere else (devlint's
 * own code, the C library, whose malloc may hold a lock the jump would never release) goes to
 * the handler that was there before (the default one: a crash, or a sanitizer's report).
 *
 * What the compiler had allocated in a parse that crashed is not freed (as with libclang's own
 * recovery): a recursion's worth, about 45 MB a crash (40 copies of one such file: 1.9 GB). */
#ifndef DL_FRONTEND_CPP_PARSE_GUARD_H
#define DL_FRONTEND_CPP_PARSE_GUARD_H
#include <stdbool.h>

#include "frontend/cpp_clang_api.h"

/* Sets the environment libclang reads (see above). libclang reads it at every call, and setenv
 * is not safe while another thread reads the environment: call it before any thread starts
 * (main does; a program that does not call it keeps libclang's own thread and recovery). */
void dl_cpp_parse_guard_setup_process(void);

/* clang_parseTranslationUnit2 on the guarded thread. When the compiler crashed, returns
 * CXError_Crashed with *tu NULL and, if `what` is given, sets it to the crash in words (static
 * text: "its parser ran out of stack", "it faulted (SIGSEGV)"). */
enum CXErrorCode dl_cpp_parse_guarded(CXIndex index, const char *path, const char *const *args,
                                      int arg_count, struct CXUnsavedFile *unsaved,
                                      unsigned unsaved_count, unsigned options,
                                      CXTranslationUnit *tu, const char **what);

#endif
