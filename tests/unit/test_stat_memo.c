/* Unit tests for core/stat_memo: the first answer for a path is kept for the run (a change
 * or a new file is seen by a new memo only), missing files, growth, and threads sharing one. */
#define _GNU_SOURCE /* nftw in temp_dirs.h */
#include "core/stat_memo.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "temp_dirs.h"

TestSuite(stat_memo, .fini = remove_temp_dirs);

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

Test(stat_memo, answers_like_stat) {
    char *dir = make_temp_dir("devlint_stat_memo");
    char path[128];
    snprintf(path, sizeof path, "%s/a.h", dir);
    write_file(path, "#pragma once\n");
    DlStatMemo *memo = dl_stat_memo_new();
    struct stat want, got;
    cr_assert_eq(stat(path, &want), 0);
    cr_assert_eq(dl_stat_memo_stat(memo, path, &got), 0);
    cr_assert_eq(got.st_size, want.st_size);
    cr_assert_eq(got.st_mtim.tv_sec, want.st_mtim.tv_sec);
    cr_assert_eq(got.st_mtim.tv_nsec, want.st_mtim.tv_nsec);
    cr_assert_eq(got.st_ino, want.st_ino);
    /* asked again: the same answer */
    memset(&got, 0, sizeof got);
    cr_assert_eq(dl_stat_memo_stat(memo, path, &got), 0);
    cr_assert_eq(got.st_size, want.st_size);
    dl_stat_memo_free(memo);
}

Test(stat_memo, a_missing_file_stays_missing_with_its_errno) {
    char *dir = make_temp_dir("devlint_stat_memo");
    char path[128];
    snprintf(path, sizeof path, "%s/later.h", dir);
    DlStatMemo *memo = dl_stat_memo_new();
    struct stat st;
    errno = 0;
    cr_assert_eq(dl_stat_memo_stat(memo, path, &st), -1);
    cr_assert_eq(errno, ENOENT);
    write_file(path, "int x;\n"); /* created mid-run: this run still says missing */
    errno = 0;
    cr_assert_eq(dl_stat_memo_stat(memo, path, &st), -1);
    cr_assert_eq(errno, ENOENT, "the first lookup's errno, every time");
    dl_stat_memo_free(memo);
    /* the next run sees it */
    memo = dl_stat_memo_new();
    cr_assert_eq(dl_stat_memo_stat(memo, path, &st), 0);
    cr_assert_eq(st.st_size, 7);
    dl_stat_memo_free(memo);
}

Test(stat_memo, keeps_the_first_answer_for_the_run) {
    char *dir = make_temp_dir("devlint_stat_memo");
    char path[128];
    snprintf(path, sizeof path, "%s/b.h", dir);
    write_file(path, "short\n");
    DlStatMemo *memo = dl_stat_memo_new();
    struct stat st;
    cr_assert_eq(dl_stat_memo_stat(memo, path, &st), 0);
    cr_assert_eq(st.st_size, 6);
    write_file(path, "a longer text\n");
    cr_assert_eq(dl_stat_memo_stat(memo, path, &st), 0);
    cr_assert_eq(st.st_size, 6, "an older answer, never a newer one");
    DlStatMemo *next = dl_stat_memo_new();
    cr_assert_eq(dl_stat_memo_stat(next, path, &st), 0);
    cr_assert_eq(st.st_size, 14);
    dl_stat_memo_free(next);
    dl_stat_memo_free(memo);
}

Test(stat_memo, null_memo_is_a_plain_stat) {
    struct stat st;
    cr_assert_eq(dl_stat_memo_stat(NULL, "/", &st), 0);
    cr_assert(S_ISDIR(st.st_mode));
    errno = 0;
    cr_assert_eq(dl_stat_memo_stat(NULL, "/no/such/devlint/file", &st), -1);
    cr_assert_eq(errno, ENOENT);
    dl_stat_memo_free(NULL);
}

enum { FILES = 300, MISSING = 5000, THREADS = 8 };

typedef struct Shared {
    DlStatMemo *memo;
    const char *dir;
    int next_id, failures; /* under lock */
    pthread_mutex_t lock;
} Shared;

/* Every thread asks for every file (its size is its index) and many missing paths, in its own
 * order, while the tables grow. */
static void *ask_all(void *arg) {
    Shared *sh = arg;
    pthread_mutex_lock(&sh->lock);
    int start = sh->next_id++ * 997;
    pthread_mutex_unlock(&sh->lock);
    int failures = 0;
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < FILES + MISSING; k++) {
            int i = (k + start) % (FILES + MISSING);
            char path[160];
            struct stat st;
            if (i < FILES) {
                snprintf(path, sizeof path, "%s/f%d", sh->dir, i);
                failures += dl_stat_memo_stat(sh->memo, path, &st) != 0 || st.st_size != i;
            } else {
                snprintf(path, sizeof path, "%s/missing/%d.h", sh->dir, i);
                failures += dl_stat_memo_stat(sh->memo, path, &st) != -1;
            }
        }
    }
    pthread_mutex_lock(&sh->lock);
    sh->failures += failures;
    pthread_mutex_unlock(&sh->lock);
    return NULL;
}

Test(stat_memo, threads_share_one_memo) {
    char *dir = make_temp_dir("devlint_stat_memo");
    char text[FILES + 1];
    memset(text, 'x', sizeof text);
    for (int i = 0; i < FILES; i++) {
        char path[160];
        snprintf(path, sizeof path, "%s/f%d", dir, i);
        text[i] = '\0';
        write_file(path, text);
        text[i] = 'x';
    }
    Shared sh = {.memo = dl_stat_memo_new(), .dir = dir, .lock = PTHREAD_MUTEX_INITIALIZER};
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++)
        cr_assert_eq(pthread_create(&threads[t], NULL, ask_all, &sh), 0);
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    cr_assert_eq(sh.failures, 0, "%d wrong answers", sh.failures);
    dl_stat_memo_free(sh.memo);
}
