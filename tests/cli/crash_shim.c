/* Preloaded into devlint (LD_PRELOAD) by tests/cli/test_bad_input.py to stand in for a bug in
 * devlint's analysis that crashes on one file: when devlint opens the file named
 * DEVLINT_CRASH_PATH (byte for byte as devlint names it), the thread that opens it crashes, as
 * DEVLINT_CRASH_HOW says: "segfault" (a write through a null pointer) or "overflow" (a recursion
 * without end, which needs a signal stack to be caught). Every other open() is passed through. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef int (*OpenFn)(const char *, int, ...);

static int *volatile nowhere; /* volatile: the compiler may not prove the write undefined */

/* Each frame keeps a kilobyte on the stack and uses it after the call: not a loop. */
static int recurse(int depth) {
    volatile char frame[1024];
    frame[depth % sizeof frame] = (char)depth;
    return recurse(depth + 1) + frame[(depth + 1) % sizeof frame];
}

static void crash(void) {
    const char *how = getenv("DEVLINT_CRASH_HOW");
    if (how && strcmp(how, "overflow") == 0) recurse(0);
    *nowhere = 1;
}

int open(const char *path, int flags, ...) {
    OpenFn real_open = (OpenFn)dlsym(RTLD_NEXT, "open");
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    const char *target = getenv("DEVLINT_CRASH_PATH");
    if (target && path && strcmp(path, target) == 0) crash();
    return real_open(path, flags, mode);
}

/* the same function on 64-bit glibc, under the name large-file builds call */
int open64(const char *path, int flags, ...) __attribute__((alias("open")));
