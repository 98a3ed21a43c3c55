#define DL_CLANG_API_IMPL /* the real names, for dlsym */
#include "frontend/cpp_clang_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/files.h"
#include "core/hash.h"

#ifndef DEVLINT_LIBCLANG_PATH
#define DEVLINT_LIBCLANG_PATH "libclang.so.1"
#endif

DlClangApi dl_clang;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char *load_error; /* NULL once loaded */

static const char *library_path(void) {
    const char *path = getenv("DEVLINT_LIBCLANG");
    return path && *path ? path : DEVLINT_LIBCLANG_PATH;
}

static void load(void) {
    const char *path = library_path();
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        load_error = dl_xasprintf("libclang could not be opened (%s): install libclang-16-dev, or "
                                  "name the library with DEVLINT_LIBCLANG",
                                  why ? why : path);
        return;
    }
#define DL_CLANG_RESOLVE(name)                                                                     \
    if (!load_error && !(dl_clang.name = (__typeof__(dl_clang.name))dlsym(lib, #name)))          \
        load_error = dl_xasprintf("%s has no %s: devlint needs libclang 14 or newer", path, #name);
    DL_CLANG_FUNCTIONS(DL_CLANG_RESOLVE)
#undef DL_CLANG_RESOLVE
    if (load_error) dlclose(lib); /* kept open for the process's life otherwise */
}

uint64_t dl_clang_library_identity(void) {
    const char *path = library_path();
    if (!strchr(path, '/')) return 0; /* dlopen searches for it */
    char *resolved = realpath(path, NULL);
    struct stat st;
    if (!resolved || stat(resolved, &st) != 0 || !S_ISREG(st.st_mode)) {
        free(resolved);
        return 0;
    }
    uint64_t h = dl_hash_bytes(resolved, strlen(resolved), 0x4c49424bu);
    int64_t facts[3] = {(int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
                        (int64_t)st.st_mtim.tv_nsec};
    h = dl_hash_bytes(facts, sizeof facts, h);
    free(resolved);
    return h ? h : 1;
}

bool dl_clang_load(char **error) {
    pthread_once(&load_once, load);
    if (load_error && error) *error = dl_xstrdup(load_error);
    return !load_error;
}
