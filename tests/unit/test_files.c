/* Unit tests for core/files: the walk over a temporary tree, excludes, globs, symlink loops. */
#define _GNU_SOURCE /* nftw, for removing the temporary trees */
#include "core/files.h"

#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "temp_dirs.h"

TestSuite(files, .fini = remove_temp_dirs);

static void make_dir(const char *path) {
    cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s", path);
}

static void make_file(const char *path) {
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "create %s", path);
    fputs("x = 1\n", f);
    fclose(f);
}

/* A project with one of everything the walk must take or skip; the test process moves into
 * it (Criterion runs each test in its own process, so the chdir stays local). */
static void enter_tree(void) {
    cr_assert_eq(chdir(make_temp_dir("dl_files")), 0);
    const char *dirs[] = {".git",        ".venv", ".venv/lib",      "venv",          "node_modules",
                          "__pycache__", "build", "dist",           "site-packages", "pkg",
                          "pkg/build",   "tests", "tests/fixtures", "proj",          "proj/tests"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        make_dir(dirs[i]);
    const char *files[] = {"a.py",
                           "b.pyi",
                           "notes.txt",
                           ".hidden.py",
                           ".git/x.py",
                           ".venv/lib/y.py",
                           "venv/z.py",
                           "node_modules/m.py",
                           "__pycache__/c.py",
                           "build/gen.py",
                           "dist/d.py",
                           "site-packages/s.py",
                           "pkg/__init__.py",
                           "pkg/mod.py",
                           "pkg/build/inner.py",
                           "pkg/data.json",
                           "tests/test_a.py",
                           "tests/fixtures/f.py",
                           "proj/tests/t.py"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        make_file(files[i]);
}

static void assert_paths(const DlFileList *list, const char *const *want, size_t n) {
    for (size_t i = 0; i < list->count && i < n; i++)
        cr_assert_str_eq(list->paths[i], want[i], "paths[%zu]", i);
    cr_assert_eq(list->count, n, "got %zu paths, want %zu", list->count, n);
}

#define ASSERT_PATHS(list, ...)                                                                    \
    do {                                                                                           \
        const char *const want_[] = {__VA_ARGS__};                                                 \
        assert_paths((list), want_, sizeof want_ / sizeof *want_);                                 \
    } while (0)

static DlFileList collect(const char *const *paths, size_t n, const DlWalkOptions *opts) {
    DlFileList list;
    dl_files_collect(paths, n, opts, &list);
    return list;
}

Test(files, default_walk_skips_and_sorts) {
    enter_tree();
    const char *const roots[] = {"."};
    DlFileList list = collect(roots, 1, NULL);
    ASSERT_PATHS(&list, "a.py", "b.pyi", "pkg/__init__.py", "pkg/mod.py", "proj/tests/t.py",
                 "tests/fixtures/f.py", "tests/test_a.py");
    cr_assert_eq(list.error_count, 0);
    dl_files_free(&list);
    cr_assert_null(list.paths);
}

Test(files, root_spelling_is_normalised) {
    enter_tree();
    const char *const roots[] = {".//pkg/"};
    DlFileList list = collect(roots, 1, NULL);
    ASSERT_PATHS(&list, "pkg/__init__.py", "pkg/mod.py");
    dl_files_free(&list);
}

Test(files, explicit_files_are_always_included) {
    enter_tree();
    /* Any extension, inside skipped directories, hidden: named means wanted. */
    const char *const roots[] = {"notes.txt", "./build/gen.py", ".git/x.py", ".hidden.py"};
    DlFileList list = collect(roots, 4, NULL);
    ASSERT_PATHS(&list, ".git/x.py", ".hidden.py", "build/gen.py", "notes.txt");
    dl_files_free(&list);
}

Test(files, explicit_directory_is_walked_even_if_skipped_by_default) {
    enter_tree();
    const char *const roots[] = {"build"};
    DlFileList list = collect(roots, 1, NULL);
    ASSERT_PATHS(&list, "build/gen.py");
    dl_files_free(&list);
}

Test(files, duplicates_are_dropped) {
    enter_tree();
    const char *const roots[] = {"pkg/mod.py", ".", "./a.py", "pkg", "a.py"};
    DlFileList list = collect(roots, 5, NULL);
    ASSERT_PATHS(&list, "a.py", "b.pyi", "pkg/__init__.py", "pkg/mod.py", "proj/tests/t.py",
                 "tests/fixtures/f.py", "tests/test_a.py");
    dl_files_free(&list);
}

Test(files, extend_exclude_adds_to_the_defaults) {
    enter_tree();
    const char *const roots[] = {"."};
    const char *const extra[] = {"tests/*"};
    DlWalkOptions opts = {.extend_exclude = extra, .extend_exclude_count = 1};
    DlFileList list = collect(roots, 1, &opts);
    /* tests/fixtures is a directory matching tests/ *, and proj/tests/t.py a suffix match. */
    ASSERT_PATHS(&list, "a.py", "b.pyi", "pkg/__init__.py", "pkg/mod.py");
    dl_files_free(&list);
}

Test(files, exclude_replaces_the_defaults) {
    enter_tree();
    const char *const roots[] = {"."};
    const char *const exclude[] = {"pkg", "tests/fixtures"};
    DlWalkOptions opts = {.exclude = exclude, .exclude_count = 2};
    DlFileList list = collect(roots, 1, &opts);
    /* build/, venv/ ... come back; hidden entries stay skipped. */
    ASSERT_PATHS(&list, "__pycache__/c.py", "a.py", "b.pyi", "build/gen.py", "dist/d.py",
                 "node_modules/m.py", "proj/tests/t.py", "site-packages/s.py", "tests/test_a.py",
                 "venv/z.py");
    dl_files_free(&list);
}

Test(files, empty_exclude_walks_everything_not_hidden) {
    enter_tree();
    const char *const roots[] = {"pkg"};
    const char *const none[] = {NULL};
    DlWalkOptions opts = {.exclude = none, .exclude_count = 0};
    DlFileList list = collect(roots, 1, &opts);
    ASSERT_PATHS(&list, "pkg/__init__.py", "pkg/build/inner.py", "pkg/mod.py");
    dl_files_free(&list);
}

Test(files, user_excludes_apply_to_named_paths) {
    enter_tree();
    const char *const roots[] = {"notes.txt", "tests/test_a.py", "pkg/mod.py", "build"};
    const char *const extra[] = {"*.txt", "tests", "build"};
    DlWalkOptions opts = {.extend_exclude = extra, .extend_exclude_count = 3};
    DlFileList list = collect(roots, 4, &opts);
    ASSERT_PATHS(&list, "pkg/mod.py");
    dl_files_free(&list);
}

Test(files, missing_path_is_an_error_entry) {
    enter_tree();
    const char *const roots[] = {"nope.py", "a.py", "./gone"};
    DlFileList list = collect(roots, 3, NULL);
    ASSERT_PATHS(&list, "a.py");
    cr_assert_eq(list.error_count, 2);
    cr_assert_str_eq(list.error_paths[0], "./gone");
    cr_assert_str_eq(list.error_messages[0], "No such file or directory");
    cr_assert_str_eq(list.error_paths[1], "nope.py");
    cr_assert_str_eq(list.error_messages[1], "No such file or directory");
    dl_files_free(&list);
    cr_assert_eq(list.error_count, 0);
}

Test(files, unreadable_directory_is_an_error_entry) {
    if (geteuid() == 0) cr_skip_test("root opens any directory");
    enter_tree();
    cr_assert_eq(chmod("pkg", 0), 0);
    const char *const roots[] = {"."};
    DlFileList list = collect(roots, 1, NULL);
    chmod("pkg", 0755); /* before asserting, so the tree can be removed either way */
    cr_assert_eq(list.error_count, 1);
    cr_assert_str_eq(list.error_paths[0], "pkg");
    cr_assert_str_eq(list.error_messages[0], "Permission denied");
    dl_files_free(&list);
}

/* A timeout turns a walk that loops into a failure instead of a hang. */
Test(files, symlink_loops_terminate, .timeout = 10) {
    enter_tree();
    cr_assert_eq(symlink("..", "pkg/up"), 0);
    cr_assert_eq(symlink(".", "pkg/self"), 0);
    cr_assert_eq(symlink("../proj", "tests/loop"), 0);
    cr_assert_eq(symlink("missing", "pkg/dangling.py"), 0);
    const char *const roots[] = {"."};
    DlFileList list = collect(roots, 1, NULL);
    ASSERT_PATHS(&list, "a.py", "b.pyi", "pkg/__init__.py", "pkg/mod.py", "proj/tests/t.py",
                 "tests/fixtures/f.py", "tests/test_a.py");
    dl_files_free(&list);
}

Test(files, symlinked_directory_is_followed_once, .timeout = 10) {
    enter_tree();
    const char *outside = make_temp_dir("dl_files_ext");
    char file[64];
    snprintf(file, sizeof file, "%s/e.py", outside);
    make_file(file);
    make_dir("links");
    cr_assert_eq(symlink(outside, "links/one"), 0);
    cr_assert_eq(symlink(outside, "links/two"), 0);
    cr_assert_eq(symlink("../a.py", "links/alias.py"), 0);
    const char *const roots[] = {"links"};
    DlFileList list = collect(roots, 1, NULL);
    /* Names are walked in order, so "one" is the alias that wins. */
    ASSERT_PATHS(&list, "links/alias.py", "links/one/e.py");
    dl_files_free(&list);
}

/* A folder of the tree linked from one that sorts before it (wekws' `examples/s0/wekws ->
 * ../../wekws`): its files are reported under their own path, not the link's. */
Test(files, linked_directory_inside_the_tree_keeps_its_own_path, .timeout = 10) {
    enter_tree();
    make_dir("examples");
    cr_assert_eq(symlink("../pkg", "examples/pkg"), 0);
    const char *const roots[] = {"."};
    DlFileList list = collect(roots, 1, NULL);
    ASSERT_PATHS(&list, "a.py", "b.pyi", "pkg/__init__.py", "pkg/mod.py", "proj/tests/t.py",
                 "tests/fixtures/f.py", "tests/test_a.py");
    dl_files_free(&list);
}

Test(files, file_kind) {
    cr_assert_eq(dl_file_kind("a.py"), DL_FILE_PYTHON);
    cr_assert_eq(dl_file_kind("dir/stubs.pyi"), DL_FILE_PYTHON);
    cr_assert_eq(dl_file_kind("a.pyc"), DL_FILE_NONE);
    cr_assert_eq(dl_file_kind("a.PY"), DL_FILE_NONE);
    cr_assert_eq(dl_file_kind("py"), DL_FILE_NONE);
    cr_assert_eq(dl_file_kind(".py"), DL_FILE_NONE);
    cr_assert_eq(dl_file_kind("pkg.py/readme"), DL_FILE_NONE);
    cr_assert_eq(dl_file_kind("a.ipynb"), DL_FILE_NOTEBOOK);
}

#define MATCH(pattern, path) cr_assert(dl_glob_match_path(pattern, path), "%s ~ %s", pattern, path)
#define NO_MATCH(pattern, path)                                                                    \
    cr_assert_not(dl_glob_match_path(pattern, path), "%s !~ %s", pattern, path)

Test(glob, component_patterns) {
    MATCH("*.py", "a.py");
    MATCH("*.py", "a/b/c.py");
    NO_MATCH("*.py", "a/b/c.pyi");
    MATCH("build", "build");
    MATCH("build", "pkg/build/x.py");
    NO_MATCH("build", "pkg/builder/x.py");
    NO_MATCH("build", "rebuild/x.py");
    MATCH("test_*", "tests/test_a.py");
    NO_MATCH(".*", "../a.py");
    NO_MATCH(".*", "./a.py");
    MATCH(".*", "src/.cache/a.py");
}

Test(glob, path_patterns_match_runs_of_components) {
    MATCH("tests/*", "tests/a.py");
    MATCH("tests/*", "proj/tests/a.py");
    MATCH("tests/*", "tests/sub/a.py");
    NO_MATCH("tests/*", "mytests/a.py");
    NO_MATCH("tests/*", "tests");
    MATCH("src/gen", "other/src/gen/x.py");
    NO_MATCH("src/gen", "src/generated/x.py");
    MATCH("/abs/dir", "/abs/dir/x.py");
    NO_MATCH("/abs/dir", "/other/abs/dir/x.py");
    MATCH("./tests", "tests/a.py");
    MATCH("tests/", "proj/tests/a.py");
}

Test(glob, double_star) {
    MATCH("a/**/b.py", "a/b.py");
    MATCH("a/**/b.py", "a/x/y/b.py");
    NO_MATCH("a/*/b.py", "a/x/y/b.py");
    MATCH("a/*/b.py", "a/x/b.py");
    MATCH("**/gen_*.py", "src/gen_x.py");
    MATCH("**/gen_*.py", "gen_x.py");
    NO_MATCH("*/gen.py", "a/b/gen_x.py");
    MATCH("a/**", "a/x/y.py");
    NO_MATCH("a/**", "a");
}

Test(glob, single_character_and_classes) {
    MATCH("?.py", "a.py");
    NO_MATCH("?.py", "ab.py");
    MATCH("?.py", "\xC3\xA9.py"); /* one code point, two bytes */
    NO_MATCH("a?b", "a/b");
    MATCH("[ab].py", "b.py");
    NO_MATCH("[ab].py", "c.py");
    MATCH("[a-c].py", "c.py");
    NO_MATCH("[!a-c].py", "a.py");
    MATCH("[!a-c].py", "d.py");
    MATCH("[]x].py", "].py");
    MATCH("[.py", "[.py"); /* unterminated: a literal '[' */
    MATCH("\\*.py", "*.py");
    NO_MATCH("\\*.py", "a.py");
}

/* Each path comes with what the walk's stat said of it, in the same order after sorting and
 * after a file named twice (walked and named) is kept once: the check orders its work by
 * those sizes and finds aliases by those identities without a stat of its own. */
Test(files, each_path_keeps_the_walks_stat) {
    enter_tree();
    FILE *f = fopen("pkg/mod.py", "w");
    cr_assert_not_null(f);
    fputs("import torch\nx = torch.zeros(3)\n", f);
    fclose(f);
    const char *const roots[] = {"pkg", "./pkg/mod.py", "a.py"};
    DlFileList list = collect(roots, 3, NULL);
    ASSERT_PATHS(&list, "a.py", "pkg/__init__.py", "pkg/mod.py");
    for (size_t i = 0; i < list.count; i++) {
        struct stat st;
        cr_assert_eq(stat(list.paths[i], &st), 0);
        cr_assert_eq(list.stats[i].size, st.st_size, "size of %s", list.paths[i]);
        cr_assert_eq(list.stats[i].ino, st.st_ino, "inode of %s", list.paths[i]);
        cr_assert_eq(list.stats[i].dev, st.st_dev, "device of %s", list.paths[i]);
    }
    cr_assert_eq(list.stats[2].size, (off_t)strlen("import torch\nx = torch.zeros(3)\n"));
    dl_files_free(&list);
}
