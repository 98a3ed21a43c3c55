#define DL_CLANG_API_IMPL /* the real names, for dlsym */
#include "frontend/cpp_clang_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/files.h"

#ifndef DEVLINT_LIBCLANG_PATH
#define DEVLINT_LIBCLANG_PATH "libclang.so.1"
#endif

DlClangApi dl_clang;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char *load_error; /* NULL once loaded */

static void load(void) {
    const char *path = getenv("DEVLINT_LIBCLANG");
    if (!path || !*path) path = DEVLINT_LIBCLANG_PATH;
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

bool dl_clang_load(char **error) {
    pthread_once(&load_once, load);
    if (load_error && error) *error = dl_xstrdup(load_error);
    return !load_error;
}
