/* C++ that crashes the compiler devlint embeds, found before it runs.
 *
 * clang 14 and 16 recurse without end on a member access with no member name after a class
 * template's name (`std::vector.<int> out;`, `.template <`, `.~<`), even with an unlimited stack:
 * libclang's crash recovery cannot catch a stack overflow, so the whole devlint process died,
 * every other file's result with it. Such code is a syntax error wherever it appears (after a
 * `.` that is neither part of a number nor of `...`, C++ needs a member's name), so a file that
 * has one is reported as unreadable instead of handed to the compiler. So is a file with a `.`
 * right after one of the standard library's class templates (`std::vector.device();`, on which
 * clang 16 recursed with torch's headers included): never valid either. */
#ifndef DL_FRONTEND_CPP_CRASH_GUARD_H
#define DL_FRONTEND_CPP_CRASH_GUARD_H
#include <stdbool.h>
#include <stddef.h>

typedef struct DlCppCrashSite {
    unsigned line, column; /* 1-based, of the `.` (columns in bytes) */
    const char *what;      /* the code, in words: "a `.` with no member name after it ..." */
} DlCppCrashSite;

/* Whether the code (comments and literals aside) has a `.` followed by `<`, `template <` or
 * `~ <`, or a `.` right after one of the standard library's class templates (`std::vector.`,
 * which clang 16 also recurses on with torch's headers included); where the first one is. */
bool dl_cpp_crashing_code(const char *text, size_t len, DlCppCrashSite *site);

#endif
