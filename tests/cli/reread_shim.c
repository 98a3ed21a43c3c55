/* Preloaded into devlint (LD_PRELOAD) by tests/cli/test_bad_input.py to stand in for a file
 * saved while devlint checks it, deterministically: devlint reads a Python file once to scan it
 * and again to parse it (analyzer/driver/check.c), and the second time it opens the file named
 * DEVLINT_REREAD_PATH (byte for byte as devlint names it), the file's bytes are replaced with
 * DEVLINT_REREAD_TEXT first. Every other open() is passed through. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*OpenFn)(const char *, int, ...);

static int opens_of_target;

static void rewrite(OpenFn real_open, const char *path) {
    const char *text = getenv("DEVLINT_REREAD_TEXT");
    int fd = real_open(path, O_WRONLY | O_TRUNC | O_CLOEXEC, 0);
    if (fd < 0) abort(); /* the test cannot do what it says: fail loudly */
    size_t len = text ? strlen(text) : 0;
    if (write(fd, text, len) != (ssize_t)len) abort();
    close(fd);
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
    const char *target = getenv("DEVLINT_REREAD_PATH");
    if (target && path && strcmp(path, target) == 0 &&
        __atomic_add_fetch(&opens_of_target, 1, __ATOMIC_SEQ_CST) == 2)
        rewrite(real_open, path);
    return real_open(path, flags, mode);
}

/* the same function on 64-bit glibc, under the name large-file builds call */
int open64(const char *path, int flags, ...) __attribute__((alias("open")));
