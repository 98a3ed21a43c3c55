#define _GNU_SOURCE /* vasprintf */
/* File discovery: turns command-line paths into the sorted list of files to check (recursive
 * walk, default skips, exclude globs, symlink-loop protection), and the glob matcher. */
#include "files.h"

#include "vec.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Replaced as a whole by DlWalkOptions.exclude. Hidden entries are skipped separately. */
static const char *const dl_default_skips[] = {
    "venv", ".venv", "node_modules", "__pycache__", "build", "dist", "site-packages",
};

/* Directories already walked, by identity: open addressing, at most half full. */
typedef struct DlDirSlot {
    dev_t dev;
    ino_t ino;
    bool used;
} DlDirSlot;

typedef struct DlDirSet {
    DlDirSlot *slots;
    size_t len, cap; /* cap is 0 or a power of two */
} DlDirSet;

typedef struct DlFilesError {
    char *path, *message;
} DlFilesError;

typedef struct DlWalkedFile {
    char *path;
    DlFileStat stat;
} DlWalkedFile;

/* One collection: the patterns in force, the directories already walked, what was found. */
typedef struct DlWalk {
    DL_VEC(const char *) patterns; /* the skip list in force, then extend_exclude */
    size_t first_user; /* patterns[first_user..] are the user's own (apply to named paths) */
    DlDirSet visited;
    DL_VEC(DlWalkedFile) paths;
    DL_VEC(DlFilesError) errors;
    /* directories reached through a symlink, walked after the rest (dl_walk_dir) */
    DL_VEC(DlWalkedFile) linked_dirs;
} DlWalk;

static void *dl_files_xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    return p;
}

static char *dl_files_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    return memcpy(dl_files_xmalloc(n), s, n);
}

/* ---- glob matching ---- */

static bool dl_glob_match(const char *p, const char *pe, const char *s, const char *se);

static const char *dl_utf8_next(const char *s, const char *se) {
    s++;
    while (s < se && ((unsigned char)*s & 0xC0) == 0x80)
        s++;
    return s;
}

/* `*` (not crossing '/') or `**` (crossing it; `**` + '/' may also match nothing at all). */
static bool dl_glob_star(const char *p, const char *pe, const char *s, const char *se) {
    const char *rest = p;
    while (rest < pe && *rest == '*')
        rest++;
    bool deep = rest - p >= 2;
    if (deep && rest < pe && *rest == '/' && dl_glob_match(rest + 1, pe, s, se)) return true;
    for (const char *t = s;; t++) {
        if (dl_glob_match(rest, pe, t, se)) return true;
        if (t == se || (!deep && *t == '/')) return false;
    }
}

/* A `[...]` class at p tested against byte c: 1 hit, 0 miss, -1 unterminated (then the '['
 * is an ordinary character). Sets *after past the ']'. A ']' right after '[' is literal. */
static int dl_glob_class(const char *p, const char *pe, unsigned char c, const char **after) {
    const char *q = p + 1;
    bool negate = q < pe && (*q == '!' || *q == '^');
    if (negate) q++;
    const char *first = q;
    bool hit = false;
    while (q < pe && (*q != ']' || q == first)) {
        unsigned char lo = (unsigned char)*q, hi = lo;
        if (q + 2 < pe && q[1] == '-' && q[2] != ']') {
            hi = (unsigned char)q[2];
            q += 3;
        } else {
            q++;
        }
        if (lo <= c && c <= hi) hit = true;
    }
    if (q >= pe) return -1;
    *after = q + 1;
    return hit != negate;
}

/* Does pattern [p, pe) match all of [s, se)? */
static bool dl_glob_match(const char *p, const char *pe, const char *s, const char *se) {
    while (p < pe) {
        if (*p == '*') return dl_glob_star(p, pe, s, se);
        if (*p == '?' || *p == '[') {
            const char *after = p + 1;
            int hit = 1;
            if (*p == '[') hit = dl_glob_class(p, pe, s < se ? (unsigned char)*s : 0, &after);
            if (hit >= 0) {
                if (s == se || *s == '/' || !hit) return false;
                s = dl_utf8_next(s, se);
                p = after;
                continue;
            }
        }
        if (*p == '\\' && p + 1 < pe) p++;
        if (s == se || *s != *p) return false;
        s++;
        p++;
    }
    return s == se;
}

static bool dl_glob_is_dot_component(const char *s, const char *se) {
    size_t n = (size_t)(se - s);
    return (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.');
}

/* Does the pattern match a run of whole components of `path` that ends at `end` (the end of
 * the path or a '/')? Without '/' only the last component can be the run. */
static bool dl_glob_match_ending(const char *p, const char *pe, const char *path, size_t end) {
    bool one_component = memchr(p, '/', (size_t)(pe - p)) == NULL;
    for (size_t i = end;; i--) {
        bool boundary = i == 0 || path[i - 1] == '/';
        if (boundary && i < end) {
            if (one_component && dl_glob_is_dot_component(path + i, path + end)) return false;
            if (dl_glob_match(p, pe, path + i, path + end)) return true;
            if (one_component) return false;
        }
        if (i == 0) return false;
    }
}

/* The pattern without a leading "./" and trailing '/'s, as [*p, *pe). */
static void dl_glob_trim(const char *pattern, const char **p, const char **pe) {
    *p = pattern;
    *pe = pattern + strlen(pattern);
    while (*pe - *p >= 2 && (*p)[0] == '.' && (*p)[1] == '/')
        *p += 2;
    while (*pe - *p > 1 && (*pe)[-1] == '/')
        (*pe)--;
}

bool dl_glob_match_path(const char *pattern, const char *path) {
    const char *p, *pe;
    dl_glob_trim(pattern, &p, &pe);
    size_t len = strlen(path);
    for (size_t end = 0; end <= len; end++) {
        if ((end == len || path[end] == '/') && dl_glob_match_ending(p, pe, path, end)) return true;
    }
    return false;
}

/* ---- paths ---- */

/* "./a//b/./c/" -> "a/b/c"; "./" -> "."; a leading '/' and ".." components stay. */
static char *dl_path_normalise(const char *in) {
    char *out = dl_files_xmalloc(strlen(in) + 2);
    size_t o = 0;
    if (in[0] == '/') out[o++] = '/';
    for (const char *p = in; *p;) {
        while (*p == '/')
            p++;
        const char *c = p;
        while (*p && *p != '/')
            p++;
        size_t n = (size_t)(p - c);
        if (n == 0 || (n == 1 && c[0] == '.')) continue;
        if (o > 0 && out[o - 1] != '/') out[o++] = '/';
        memcpy(out + o, c, n);
        o += n;
    }
    if (o == 0) out[o++] = '.';
    out[o] = '\0';
    return out;
}

static char *dl_path_join(const char *dir, const char *name) {
    if (strcmp(dir, ".") == 0) return dl_files_strdup(name);
    size_t dn = strlen(dir), nn = strlen(name);
    bool slash = dn > 0 && dir[dn - 1] == '/';
    char *out = dl_files_xmalloc(dn + nn + 2);
    memcpy(out, dir, dn);
    if (!slash) out[dn++] = '/';
    memcpy(out + dn, name, nn + 1);
    return out;
}

const char *dl_path_base(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

bool dl_path_is_a_test_file(const char *path) {
    const char *base = dl_path_base(path);
    size_t n = strlen(base);
    char *dir = dl_path_dir(path);
    const char *folder = dl_path_base(dir);
    bool test = strncmp(base, "test_", 5) == 0 ||
                (n > 8 && strcmp(base + n - 8, "_test.py") == 0) ||
                strcmp(base, "conftest.py") == 0 || strcmp(folder, "tests") == 0 ||
                strcmp(folder, "test") == 0;
    free(dir);
    return test;
}

const char *dl_path_extension(const char *path) {
    const char *dot = strrchr(dl_path_base(path), '.');
    return dot ? dot + 1 : "";
}

char *dl_path_dir(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return dl_xstrdup(".");
    char *dir = strndup(path, slash == path ? 1 : (size_t)(slash - path));
    if (!dir) abort();
    return dir;
}

DlFileKind dl_file_kind(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base) return DL_FILE_NONE;
    if (strcmp(dot, ".py") == 0 || strcmp(dot, ".pyi") == 0) return DL_FILE_PYTHON;
    if (strcmp(dot, ".ipynb") == 0) return DL_FILE_NOTEBOOK;
#ifdef DEVLINT_HAVE_CLANG
    static const char *const cpp[] = {".cpp", ".cc", ".cxx", ".h", ".hpp", ".cu", ".cuh"};
    for (size_t i = 0; i < sizeof cpp / sizeof cpp[0]; i++)
        if (strcmp(dot, cpp[i]) == 0) return DL_FILE_CPP;
#endif
    return DL_FILE_NONE;
}

/* ---- the walk ---- */

static void dl_walk_error(DlWalk *w, const char *path, int err) {
    DlFilesError e = {dl_files_strdup(path), dl_files_strdup(strerror(err))};
    dl_vec_push(&w->errors, e);
}

/* Found by the walk: any pattern in force, tested on the runs of components ending here (the
 * directories above were tested when the walk entered them). */
static bool dl_walk_skips(const DlWalk *w, const char *path) {
    size_t len = strlen(path);
    for (size_t i = 0; i < w->patterns.len; i++) {
        const char *p, *pe;
        dl_glob_trim(w->patterns.items[i], &p, &pe);
        if (dl_glob_match_ending(p, pe, path, len)) return true;
    }
    return false;
}

/* Named on the command line: only the user's patterns, on the whole path. */
static bool dl_walk_user_excludes(const DlWalk *w, const char *path) {
    for (size_t i = w->first_user; i < w->patterns.len; i++)
        if (dl_glob_match_path(w->patterns.items[i], path)) return true;
    return false;
}

static DlDirSlot *dl_dirset_find(const DlDirSet *set, dev_t dev, ino_t ino) {
    uint64_t h = ((uint64_t)ino * 0x9E3779B97F4A7C15u) ^ (uint64_t)dev;
    size_t mask = set->cap - 1;
    for (size_t i = (size_t)(h ^ (h >> 29)) & mask;; i = (i + 1) & mask) {
        DlDirSlot *slot = &set->slots[i];
        if (!slot->used || (slot->dev == dev && slot->ino == ino)) return slot;
    }
}

static void dl_dirset_grow(DlDirSet *set) {
    DlDirSet bigger = {NULL, set->len, set->cap ? set->cap * 2 : 64};
    bigger.slots = calloc(bigger.cap, sizeof *bigger.slots);
    if (!bigger.slots) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    for (size_t i = 0; i < set->cap; i++)
        if (set->slots[i].used)
            *dl_dirset_find(&bigger, set->slots[i].dev, set->slots[i].ino) = set->slots[i];
    free(set->slots);
    *set = bigger;
}

/* Marks the directory walked; false if it already was (a symlink loop or an overlap). */
static bool dl_walk_visit(DlWalk *w, const struct stat *st) {
    DlDirSet *set = &w->visited;
    if (2 * (set->len + 1) > set->cap) dl_dirset_grow(set);
    DlDirSlot *slot = dl_dirset_find(set, st->st_dev, st->st_ino);
    if (slot->used) return false;
    *slot = (DlDirSlot){st->st_dev, st->st_ino, true};
    set->len++;
    return true;
}

static int dl_strcmp_ptr(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void dl_walk_dir(DlWalk *w, const char *dir, const struct stat *st);

static void dl_walk_entry(DlWalk *w, const char *dir, const char *name, bool is_link) {
    if (name[0] == '.') return; /* hidden: .git, .tox, .mypy_cache, editor files */
    char *path = dl_path_join(dir, name);
    struct stat st;
    /* stat, not lstat: a symlink counts as what it points to; dangling ones are skipped. */
    if (dl_walk_skips(w, path) || stat(path, &st) != 0) {
        free(path);
        return;
    }
    if (S_ISDIR(st.st_mode) && is_link) {
        DlWalkedFile later = {path, {st.st_size, st.st_dev, st.st_ino}};
        dl_vec_push(&w->linked_dirs, later);
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        dl_walk_dir(w, path, &st);
    } else if (S_ISREG(st.st_mode) && dl_file_kind(name) != DL_FILE_NONE) {
        DlWalkedFile f = {path, {st.st_size, st.st_dev, st.st_ino}};
        dl_vec_push(&w->paths, f);
        return;
    }
    free(path);
}

/* Names are read and the directory closed before recursing, so depth costs no descriptors;
 * they are sorted so the walk (and which alias of a linked directory wins) is reproducible.
 * A directory reached through a symlink is walked after everything else (dl_walk_linked), so
 * a folder linked into the tree (wekws' `examples/hey_snips/s0/wekws -> ../../../wekws`) is
 * reported under its own path, not under the link's. Whether an entry is a link (readdir's
 * d_type, lstat where that is unknown) is kept in the byte after its name's terminator. */
static void dl_walk_dir(DlWalk *w, const char *dir, const struct stat *st) {
    if (!dl_walk_visit(w, st)) return;
    DIR *d = opendir(dir);
    if (!d) {
        dl_walk_error(w, dir, errno);
        return;
    }
    DL_VEC(char *) names = {0};
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        bool link = e->d_type == DT_LNK;
        if (e->d_type == DT_UNKNOWN) {
            char *path = dl_path_join(dir, e->d_name);
            struct stat lst;
            link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
            free(path);
        }
        size_t n = strlen(e->d_name);
        char *name = dl_files_xmalloc(n + 2);
        memcpy(name, e->d_name, n + 1);
        name[n + 1] = link; /* after the terminator: sorting sees the name alone */
        dl_vec_push(&names, name);
    }
    closedir(d);
    if (names.len) qsort(names.items, names.len, sizeof *names.items, dl_strcmp_ptr);
    for (size_t i = 0; i < names.len; i++) {
        const char *name = names.items[i];
        dl_walk_entry(w, dir, name, name[strlen(name) + 1]);
        free(names.items[i]);
    }
    dl_vec_free(&names);
}

/* The directories reached through symlinks, once the rest is walked; walking one may find
 * more. A directory walked already (the link's target inside the tree) is skipped. */
static void dl_walk_linked(DlWalk *w) {
    for (size_t i = 0; i < w->linked_dirs.len; i++) {
        DlWalkedFile d = w->linked_dirs.items[i];
        struct stat st = {0};
        st.st_dev = d.stat.dev;
        st.st_ino = d.stat.ino;
        dl_walk_dir(w, d.path, &st);
        free(d.path);
    }
    dl_vec_free(&w->linked_dirs);
}

static void dl_walk_named(DlWalk *w, const char *arg) {
    struct stat st;
    if (stat(arg, &st) != 0) {
        dl_walk_error(w, arg, errno);
        return;
    }
    char *path = dl_path_normalise(arg);
    if (dl_walk_user_excludes(w, path)) {
        free(path);
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        dl_walk_dir(w, path, &st);
        free(path);
        return;
    }
    DlWalkedFile f = {path, {st.st_size, st.st_dev, st.st_ino}};
    dl_vec_push(&w->paths, f);
}

static void dl_walk_init(DlWalk *w, const DlWalkOptions *opts) {
    memset(w, 0, sizeof *w);
    const DlWalkOptions none = {0};
    if (!opts) opts = &none;
    if (opts->exclude) {
        for (size_t i = 0; i < opts->exclude_count; i++)
            dl_vec_push(&w->patterns, opts->exclude[i]);
    } else {
        for (size_t i = 0; i < sizeof dl_default_skips / sizeof *dl_default_skips; i++)
            dl_vec_push(&w->patterns, dl_default_skips[i]);
        w->first_user = w->patterns.len;
    }
    for (size_t i = 0; i < opts->extend_exclude_count; i++)
        dl_vec_push(&w->patterns, opts->extend_exclude[i]);
}

static int dl_error_cmp(const void *a, const void *b) {
    const DlFilesError *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : strcmp(x->message, y->message);
}

static int dl_walked_cmp(const void *a, const void *b) {
    return strcmp(((const DlWalkedFile *)a)->path, ((const DlWalkedFile *)b)->path);
}

/* Sorts and drops duplicates (the same file named twice, or named and also walked). */
static void dl_walk_finish_paths(DlWalk *w, DlFileList *out) {
    size_t n = w->paths.len;
    if (n) qsort(w->paths.items, n, sizeof *w->paths.items, dl_walked_cmp);
    out->paths = dl_files_xmalloc(n * sizeof *out->paths);
    out->stats = dl_files_xmalloc(n * sizeof *out->stats);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        const DlWalkedFile *f = &w->paths.items[i];
        if (kept && strcmp(out->paths[kept - 1], f->path) == 0) {
            free(f->path);
            continue;
        }
        out->paths[kept] = f->path;
        out->stats[kept++] = f->stat;
    }
    out->count = out->cap = kept;
    free(w->paths.items);
}

static void dl_walk_finish_errors(DlWalk *w, DlFileList *out) {
    size_t n = w->errors.len;
    if (!n) return;
    qsort(w->errors.items, n, sizeof *w->errors.items, dl_error_cmp);
    out->error_paths = dl_files_xmalloc(n * sizeof *out->error_paths);
    out->error_messages = dl_files_xmalloc(n * sizeof *out->error_messages);
    for (size_t i = 0; i < n; i++) {
        out->error_paths[i] = w->errors.items[i].path;
        out->error_messages[i] = w->errors.items[i].message;
    }
    out->error_count = out->error_cap = n;
}

void dl_files_collect(const char *const *paths, size_t path_count, const DlWalkOptions *opts,
                      DlFileList *out) {
    memset(out, 0, sizeof *out);
    DlWalk w;
    dl_walk_init(&w, opts);
    for (size_t i = 0; i < path_count; i++)
        dl_walk_named(&w, paths[i]);
    dl_walk_linked(&w);
    dl_walk_finish_paths(&w, out);
    dl_walk_finish_errors(&w, out);
    dl_vec_free(&w.errors);
    dl_vec_free(&w.patterns);
    free(w.visited.slots);
}

void dl_files_free(DlFileList *list) {
    for (size_t i = 0; i < list->count; i++)
        free(list->paths[i]);
    for (size_t i = 0; i < list->error_count; i++) {
        free(list->error_paths[i]);
        free(list->error_messages[i]);
    }
    free(list->paths);
    free(list->stats);
    free(list->error_paths);
    free(list->error_messages);
    memset(list, 0, sizeof *list);
}

/* ---- small helpers shared with the cache and the C++ front end ---- */

bool dl_is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool dl_make_dirs(const char *dir) {
    char *copy = dl_xstrdup(dir);
    for (char *p = copy + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
            free(copy);
            return false;
        }
        *p = '/';
    }
    bool ok = mkdir(copy, 0777) == 0 || errno == EEXIST;
    free(copy);
    struct stat st;
    return ok && stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

char *dl_xstrdup(const char *s) {
    char *r = strdup(s);
    if (!r) abort();
    return r;
}

char *dl_xasprintf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *r;
    int n = vasprintf(&r, fmt, ap);
    va_end(ap);
    if (n < 0) abort();
    return r;
}

bool dl_write_file_atomically(const char *path, const char *text) {
    char *tmp = dl_xasprintf("%s.%ld.%lx.tmp", path, (long)getpid(), (unsigned long)pthread_self());
    FILE *f = fopen(tmp, "wb");
    bool ok = f != NULL;
    if (f) {
        size_t n = strlen(text);
        ok = fwrite(text, 1, n, f) == n;
        ok = fclose(f) == 0 && ok;
        ok = ok && rename(tmp, path) == 0;
        if (!ok) unlink(tmp);
    }
    free(tmp);
    return ok;
}
