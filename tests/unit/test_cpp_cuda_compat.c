/* Unit tests for frontend/cpp_cuda_compat: the flags that let clang read CUDA 12/13 code in host
 * mode, and the headers they need, written once into the cache directory. */
#include "frontend/cpp_cuda_compat.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/files.h"

static char *read_all(const char *path) {
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    static char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* The argument after `flag` in `args`, or NULL. */
static const char *after(const DlCppArgList *args, const char *flag) {
    for (size_t i = 0; i + 1 < args->len; i++)
        if (strcmp(args->items[i], flag) == 0) return args->items[i + 1];
    return NULL;
}

Test(cpp_cuda_compat, the_host_min_max_header_is_written_and_force_included) {
    char dir[] = "/tmp/devlint-cuda-compat-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    for (int round = 0; round < 2; round++) { /* the second finds the files in place */
        DlCppArgList args = {0};
        char *owned[3];
        size_t owned_count = 0;
        dl_cpp_add_cuda_compat_flags(&args, dir, owned, &owned_count);
        const char *include = after(&args, "-include");
        cr_assert_not_null(include, "no -include among the flags");
        char *expected_dir = dl_xasprintf("%s/cuda-compat", dir);
        cr_assert_str_eq(after(&args, "-idirafter"), expected_dir);
        cr_assert_eq(strncmp(include, expected_dir, strlen(expected_dir)), 0);
        cr_assert_str_eq(read_all(include), dl_cpp_cuda_host_min_max_header());
        char *stand_in = dl_xasprintf("%s/texture_fetch_functions.h", expected_dir);
        cr_assert_eq(access(stand_in, R_OK), 0);
        free(stand_in);
        free(expected_dir);
        cr_assert(owned_count >= 2 && owned_count <= 3);
        for (size_t i = 0; i < owned_count; i++)
            free(owned[i]);
        free(args.items);
    }
    /* host overloads only, of each pair nvcc's headers give, for min and max alike */
    const char *h = dl_cpp_cuda_host_min_max_header();
    cr_assert_not_null(strstr(h, "static inline __host__ R min("));
    cr_assert_not_null(strstr(h, "static inline __host__ R max("));
    cr_assert_null(strstr(h, "__device__"));
    cr_assert_not_null(strstr(h, "DEVLINT_HOST_MIN_MAX(int, unsigned int, unsigned int)"));
    cr_assert_not_null(strstr(h, "DEVLINT_HOST_MIN_MAX(double, float, double)"));
    char *cmd = dl_xasprintf("rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    free(cmd);
}

Test(cpp_cuda_compat, without_a_cache_directory_only_file_free_flags) {
    DlCppArgList args = {0};
    char *owned[3];
    size_t owned_count = 0;
    dl_cpp_add_cuda_compat_flags(&args, NULL, owned, &owned_count);
    cr_assert_null(after(&args, "-include"));
    cr_assert_null(after(&args, "-idirafter"));
    cr_assert_str_eq(after(&args, "-Xclang"), "-fcuda-allow-variadic-functions");
    for (size_t i = 0; i < owned_count; i++)
        free(owned[i]);
    free(args.items);
}
