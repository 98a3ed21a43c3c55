/* Writing fixed files atomically: a temporary file next to the original, fsync'ed and renamed
 * over it, so a crash or a full disk leaves either the old contents or the new, never half. */
#include "fix/fix.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *dl_write_xstrdup(const char *s) {
    char *p = strdup(s);
    if (!p) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* Sets *error to "cannot write PATH: reason" from errno; always returns false. */
static bool dl_write_fail(char **error, const char *path, int err) {
    if (!error) return false;
    const char *reason = strerror(err);
    size_t n = strlen("cannot write : ") + strlen(path) + strlen(reason) + 1;
    *error = malloc(n);
    if (!*error) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    snprintf(*error, n, "cannot write %s: %s", path, reason);
    return false;
}

static bool dl_write_all(int fd, const char *data, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = EIO;
            return false;
        }
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* "DIR/.NAME.devlint-XXXXXX": in the same directory, so the rename cannot cross file
 * systems, and hidden, so a watcher or a glob is less likely to pick it up meanwhile. */
static char *dl_write_temp_template(const char *target) {
    char *dir_copy = dl_write_xstrdup(target), *base_copy = dl_write_xstrdup(target);
    const char *dir = dirname(dir_copy), *base = basename(base_copy);
    size_t n = strlen(dir) + strlen(base) + sizeof "/..devlint-XXXXXX";
    char *tmpl = malloc(n);
    if (!tmpl) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    snprintf(tmpl, n, "%s/.%s.devlint-XXXXXX", dir, base);
    free(dir_copy);
    free(base_copy);
    return tmpl;
}

/* The file to replace: a symbolic link's target, so fixing through a link keeps the link. */
static char *dl_write_target(const char *path) {
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *resolved = realpath(path, NULL);
        if (resolved) return resolved;
    }
    return dl_write_xstrdup(path);
}

bool dl_write_atomic(const char *path, const char *data, size_t len, char **error) {
    char *target = dl_write_target(path);
    struct stat st;
    bool existed = stat(target, &st) == 0;
    if (!existed && errno != ENOENT) {
        int err = errno;
        free(target);
        return dl_write_fail(error, path, err);
    }
    mode_t mode = existed ? st.st_mode & 07777 : 0644;

    char *tmp = dl_write_temp_template(target);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int err = errno;
        free(tmp);
        free(target);
        return dl_write_fail(error, path, err);
    }
    /* Ownership is kept where we may (root fixing someone's file); elsewhere the rename gives
     * the file to us, as any editor's save-by-rename does, so a refusal is not an error. */
    if (existed && (st.st_uid != geteuid() || st.st_gid != getegid()))
        (void)!fchown(fd, st.st_uid, st.st_gid);
    bool ok = dl_write_all(fd, data, len) && fsync(fd) == 0 && fchmod(fd, mode) == 0;
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok && rename(tmp, target) != 0) {
        ok = false;
        err = errno;
    }
    if (!ok) unlink(tmp);
    free(tmp);
    free(target);
    return ok ? true : dl_write_fail(error, path, err);
}
