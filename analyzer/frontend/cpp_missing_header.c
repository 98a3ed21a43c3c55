/* Directories to watch for a header the compiler could not find (see cpp_missing_header.h). */
#include "frontend/cpp_missing_header.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/files.h"
#include "core/vec.h"

typedef DL_VEC(char *) PathVec;

static const char *const system_dirs[] = {
    "/usr/local/include", "/usr/include", "/usr/include/x86_64-linux-gnu",
    "/usr/include/aarch64-linux-gnu",
};

static void add_unique(PathVec *out, char *path) {
    for (size_t i = 0; i < out->len; i++)
        if (strcmp(out->items[i], path) == 0) {
            free(path);
            return;
        }
    dl_vec_push(out, path);
}

/* The directory `root/name` would be created in, or the nearest one of its ancestors that
 * exists. */
static void watch_under(PathVec *out, const char *root, const char *name) {
    char *path = name[0] == '/' ? dl_xstrdup(name) : dl_xasprintf("%s/%s", root, name);
    for (;;) {
        char *slash = strrchr(path, '/');
        if (!slash) {
            free(path);
            return;
        }
        if (slash == path) { /* the root directory itself */
            path[1] = 0;
            break;
        }
        *slash = 0;
        if (dl_is_dir(path)) break;
    }
    add_unique(out, path);
}

/* The directory an include flag names, or NULL: `-Idir` or `-I dir` (args[*i + 1], then *i is
 * moved past it), and --cuda-path=DIR's include/. Paths are absolute in the command already
 * (cpp_flags.h). */
static char *include_dir(char *const *args, size_t count, size_t *i) {
    static const char *const flags[] = {"-isystem", "-iquote", "-idirafter", "-I"};
    const char *a = args[*i];
    if (strncmp(a, "--cuda-path=", 12) == 0) return dl_xasprintf("%s/include", a + 12);
    for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
        size_t n = strlen(flags[f]);
        if (strncmp(a, flags[f], n) != 0) continue;
        if (a[n]) return dl_xstrdup(a + n);
        if (*i + 1 < count) return dl_xstrdup(args[++*i]);
        return NULL;
    }
    return NULL;
}

char **dl_cpp_missing_header_watch(const char *name, const char *includer, char *const *args,
                                   size_t arg_count, size_t *count) {
    PathVec out = {0};
    if (includer) {
        const char *slash = strrchr(includer, '/');
        if (slash) {
            char *dir = strndup(includer, slash == includer ? 1 : (size_t)(slash - includer));
            if (!dir) abort();
            watch_under(&out, dir, name);
            free(dir);
        }
    }
    for (size_t i = 0; i < arg_count; i++) {
        char *dir = include_dir(args, arg_count, &i);
        if (!dir) continue;
        watch_under(&out, dir, name);
        free(dir);
    }
    for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; i++)
        if (dl_is_dir(system_dirs[i])) watch_under(&out, system_dirs[i], name);
    *count = out.len;
    return out.items;
}
