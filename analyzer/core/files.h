/* Turning command-line paths into the list of files to check: recursive walk, default skips
 * (hidden entries such as .git, venv/.venv, node_modules, __pycache__, build, dist,
 * site-packages), --exclude / --extend-exclude globs, and the file kinds devlint reads. */
#ifndef DL_FILES_H
#define DL_FILES_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef enum {
    DL_FILE_NONE = 0,
    DL_FILE_PYTHON = 1,
    DL_FILE_NOTEBOOK = 2,
    DL_FILE_CPP = 3, /* .cpp .cc .cxx .h .hpp .cu .cuh (checked when devlint has libclang) */
} DlFileKind;

/* What the walk's stat said of a file (symlinks followed): its size orders the work, its
 * device and inode find the paths that reach one file (driver/aliases.h). */
typedef struct DlFileStat {
    off_t size;
    dev_t dev;
    ino_t ino;
} DlFileStat;

typedef struct DlFileList {
    char **paths; /* normalised ("./a/b.py" -> "a/b.py"), sorted, unique; owned */
    DlFileStat *stats; /* parallel to paths */
    size_t count, cap;
    /* Paths that do not exist or cannot be opened, sorted by path: error_paths[i] is the path
     * as given, error_messages[i] the reason ("No such file or directory"); all owned. */
    char **error_paths;
    char **error_messages;
    size_t error_count, error_cap;
} DlFileList;

/* Hidden entries (name starting with '.') are never walked into, whatever the options: they are
 * tool state (.git, .tox, .mypy_cache), not sources. The named defaults (venv, .venv,
 * node_modules, __pycache__, build, dist, site-packages) are a replaceable pattern list. */
typedef struct DlWalkOptions {
    const char *const *exclude; /* replaces the default skip list when non-NULL */
    size_t exclude_count;
    const char *const *extend_exclude; /* added to the defaults (or to exclude) */
    size_t extend_exclude_count;
} DlWalkOptions;

/* Kind of a file from its name; 0 if devlint does not read it. */
DlFileKind dl_file_kind(const char *path);

/* Walks every path; `opts` may be NULL; `out` is initialised here. A path named explicitly is
 * checked whatever its extension and wherever it lies (the default skips are for what the walk
 * finds), unless one of the user's own exclude / extend_exclude patterns matches it or one of
 * its directories. A directory (symlinked or not) is walked at most once, so loops end. */
void dl_files_collect(const char *const *paths, size_t path_count, const DlWalkOptions *opts,
                      DlFileList *out);
void dl_files_free(DlFileList *list);

/* Glob match as ruff/gitignore users expect: `*` does not cross '/', `**` does (and `**`
 * followed by '/' may also match no directory at all), `?` is one character, [abc], [a-z] and
 * [!abc] are ASCII classes, a backslash escapes. A pattern without '/' matches any path
 * component (never "." or ".."); a pattern with '/' matches the path or any run of whole
 * components in it. Matching a directory matches everything under it: "build" and "x/build"
 * both match "proj/x/build/gen/a.py". A leading "./" and trailing '/' in the pattern are
 * ignored. */
bool dl_glob_match_path(const char *pattern, const char *path);

/* Whether `path` is a directory (symlinks followed). */
bool dl_is_dir(const char *path);

/* mkdir -p: true when `dir` exists as a directory afterwards. */
bool dl_make_dirs(const char *dir);

/* `text` as the file `path`: written to a temporary file beside it (unique per process and
 * thread) that rename() puts in place atomically, so concurrent runs never read half of it.
 * False when it could not be written (nothing is left behind then). */
bool dl_write_file_atomically(const char *path, const char *text);

/* A path's last component ("a/b.cu" -> "b.cu"), and that component's extension without its
 * dot ("cu"; "" when none). Both point into `path`. */
const char *dl_path_base(const char *path);
const char *dl_path_extension(const char *path);
/* The directory part of `path`, malloc'ed: "a/b.cu" -> "a", "/b" -> "/", "b" -> ".". */
char *dl_path_dir(const char *path);
/* A Python test file by its path: `test_*.py`, `*_test.py`, `conftest.py`, or a file of a
 * `tests/` or `test/` folder (the one it is in, not those above: a project may live under any
 * path). */
bool dl_path_is_a_test_file(const char *path);

/* strdup / asprintf that abort on out-of-memory, like the rest of devlint's allocations. */
char *dl_xstrdup(const char *s);
char *dl_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
