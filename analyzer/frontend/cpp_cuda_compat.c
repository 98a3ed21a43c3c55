/* CUDA 12/13 code read by clang in host mode as nvcc reads it: see cpp_cuda_compat.h. */
#include "frontend/cpp_cuda_compat.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/files.h"
#include "frontend/cpp_flags.h"

/* The pairs nvcc's crt/math_functions.hpp overloads `min` and `max` for, with the type each
 * returns. `__host__` only: clang's wrapper already declares the `__device__` ones, and clang
 * overloads on the two. */
static const char host_min_max[] =
    "/* devlint: the host overloads of min and max that nvcc's math headers declare and clang's\n"
    " * CUDA wrapper does not (cpp_cuda_compat.h) */\n"
    "#pragma once\n"
    "#define DEVLINT_HOST_MIN_MAX(A, B, R) \\\n"
    "    static inline __host__ R min(const A a, const B b) { \\\n"
    "        return (R)a < (R)b ? (R)a : (R)b; \\\n"
    "    } \\\n"
    "    static inline __host__ R max(const A a, const B b) { \\\n"
    "        return (R)a > (R)b ? (R)a : (R)b; \\\n"
    "    }\n"
    "DEVLINT_HOST_MIN_MAX(int, int, int)\n"
    "DEVLINT_HOST_MIN_MAX(unsigned int, unsigned int, unsigned int)\n"
    "DEVLINT_HOST_MIN_MAX(int, unsigned int, unsigned int)\n"
    "DEVLINT_HOST_MIN_MAX(unsigned int, int, unsigned int)\n"
    "DEVLINT_HOST_MIN_MAX(long int, long int, long int)\n"
    "DEVLINT_HOST_MIN_MAX(unsigned long int, unsigned long int, unsigned long int)\n"
    "DEVLINT_HOST_MIN_MAX(long int, unsigned long int, unsigned long int)\n"
    "DEVLINT_HOST_MIN_MAX(unsigned long int, long int, unsigned long int)\n"
    "DEVLINT_HOST_MIN_MAX(long long int, long long int, long long int)\n"
    "DEVLINT_HOST_MIN_MAX(unsigned long long int, unsigned long long int, unsigned long long "
    "int)\n"
    "DEVLINT_HOST_MIN_MAX(long long int, unsigned long long int, unsigned long long int)\n"
    "DEVLINT_HOST_MIN_MAX(unsigned long long int, long long int, unsigned long long int)\n"
    "DEVLINT_HOST_MIN_MAX(float, float, float)\n"
    "DEVLINT_HOST_MIN_MAX(double, double, double)\n"
    "DEVLINT_HOST_MIN_MAX(float, double, double)\n"
    "DEVLINT_HOST_MIN_MAX(double, float, double)\n"
    "#undef DEVLINT_HOST_MIN_MAX\n";

/* The name carries the version of its text: a cache written by an older devlint keeps its
 * file, and this one writes its own. */
#define HOST_MIN_MAX_NAME "devlint-host-min-max-1.h"

const char *dl_cpp_cuda_host_min_max_header(void) {
    return host_min_max;
}

/* `dir/name` holding `text`, written (dl_write_file_atomically) unless it is there already. */
static bool ensure_file(const char *dir, const char *name, const char *text) {
    char *path = dl_xasprintf("%s/%s", dir, name);
    bool ok = access(path, R_OK) == 0 || dl_write_file_atomically(path, text);
    free(path);
    return ok;
}

void dl_cpp_add_cuda_compat_flags(DlCppArgList *args, const char *cache_dir, char **owned,
                                  size_t *owned_count) {
    char *cuda = dl_cpp_cuda_path();
    if (cuda) {
        char *cccl = dl_xasprintf("%s/include/cccl", cuda);
        if (access(cccl, R_OK) == 0) {
            dl_vec_push(args, "-isystem");
            dl_vec_push(args, cccl);
            owned[(*owned_count)++] = cccl;
        } else {
            free(cccl);
        }
        free(cuda);
    }
    dl_vec_push(args, "-Xclang");
    dl_vec_push(args, "-fcuda-allow-variadic-functions");
    if (!cache_dir) return;
    char *compat = dl_xasprintf("%s/cuda-compat", cache_dir);
    static const char stand_in[] = "/* devlint: stand-in for a header CUDA 12 removed */\n";
    if (!dl_make_dirs(compat) || !ensure_file(compat, "texture_fetch_functions.h", stand_in) ||
        !ensure_file(compat, "texture_indirect_functions.h", stand_in)) {
        free(compat);
        return;
    }
    dl_vec_push(args, "-idirafter");
    dl_vec_push(args, compat);
    owned[(*owned_count)++] = compat;
    if (ensure_file(compat, HOST_MIN_MAX_NAME, host_min_max)) {
        char *header = dl_xasprintf("%s/" HOST_MIN_MAX_NAME, compat);
        dl_vec_push(args, "-include");
        dl_vec_push(args, header);
        owned[(*owned_count)++] = header;
    }
}
