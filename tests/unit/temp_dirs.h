/* Temporary directories for unit tests that need real files: made with mkdtemp, removed by
 * the suite's fini (Criterion runs each test in its own process, so the list is per test).
 * Include after <criterion/criterion.h>; define _GNU_SOURCE first (nftw). */
#ifndef DL_TEST_TEMP_DIRS_H
#define DL_TEST_TEMP_DIRS_H
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static char temp_dirs[4][64];
static int temp_dir_count;

static char *make_temp_dir(const char *prefix) {
    cr_assert_lt(temp_dir_count, 4);
    char *dir = temp_dirs[temp_dir_count++];
    snprintf(dir, sizeof temp_dirs[0], "/tmp/%s_XXXXXX", prefix);
    cr_assert_not_null(mkdtemp(dir));
    return dir;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void remove_temp_dirs(void) {
    for (int i = 0; i < temp_dir_count; i++)
        nftw(temp_dirs[i], remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
