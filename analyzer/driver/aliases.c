/* One file reached through more than one path: found, and its results reported once. */
#include "driver/aliases.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/path_map.h"

typedef struct {
    const DlFileIdentity *id;
    const char *path;
    size_t index;
} Reached;

static int by_identity_then_path(const void *pa, const void *pb) {
    const Reached *a = pa, *b = pb;
    if (a->id->dev != b->id->dev) return a->id->dev < b->id->dev ? -1 : 1;
    if (a->id->ino != b->id->ino) return a->id->ino < b->id->ino ? -1 : 1;
    return strcmp(a->path, b->path);
}

/* Where the file is: a path whose last component is not a symlink (lstat), else the first. */
static size_t reported_path(const Reached *group, size_t n) {
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (lstat(group[i].path, &st) == 0 && !S_ISLNK(st.st_mode)) return i;
    }
    return 0;
}

size_t *dl_aliases_find(char *const *paths, const DlFileIdentity *ids, size_t count) {
    Reached *reached = malloc((count ? count : 1) * sizeof *reached);
    if (!reached) abort();
    size_t n = 0;
    for (size_t i = 0; i < count; i++)
        if (ids[i].known) reached[n++] = (Reached){&ids[i], paths[i], i};
    qsort(reached, n, sizeof *reached, by_identity_then_path);
    size_t *alias_of = NULL;
    for (size_t start = 0, end; start < n; start = end) {
        for (end = start + 1; end < n && reached[end].id->dev == reached[start].id->dev &&
                              reached[end].id->ino == reached[start].id->ino;
             end++) {
        }
        if (end - start < 2) continue;
        if (!alias_of) {
            alias_of = malloc(count * sizeof *alias_of);
            if (!alias_of) abort();
            for (size_t i = 0; i < count; i++) alias_of[i] = DL_NOT_AN_ALIAS;
        }
        size_t kept = reached[start + reported_path(reached + start, end - start)].index;
        for (size_t i = start; i < end; i++)
            if (reached[i].index != kept) alias_of[reached[i].index] = kept;
    }
    free(reached);
    return alias_of;
}

/* The path that reports `path`'s findings: its file's, when it is an alias's. */
static const char *reported_as(const DlPathMap *aliases, const char *path) {
    const char *reported = dl_path_map_get(aliases, path);
    return reported ? reported : path;
}

static void move_to(char **path, const char *reported) {
    if (reported == *path || strcmp(reported, *path) == 0) return;
    char *copy = strdup(reported);
    if (!copy) abort();
    free(*path);
    *path = copy;
}

/* Whether the sorted findings [0, n) of `r` have one at `d`'s place. */
static bool has_place(const DlResult *r, size_t n, const DlDiag *d) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = dl_diag_cmp_place(&r->diags[mid], d);
        if (c == 0) return true;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

static bool has_error_at(const DlResult *r, const char *path) {
    for (size_t i = 0; i < r->error_count; i++)
        if (strcmp(r->errors[i].path, path) == 0) return true;
    return false;
}

void dl_aliases_fold(DlResult *out, DlResult *aliased, char *const *paths,
                     const size_t *alias_of, size_t count) {
    DlPathMap aliases; /* an alias's path -> the path that reports its file */
    dl_path_map_init(&aliases);
    for (size_t i = 0; i < count; i++)
        if (alias_of[i] != DL_NOT_AN_ALIAS) dl_path_map_put(&aliases, paths[i], paths[alias_of[i]]);
    for (size_t i = 0; i < aliased->diag_count; i++)
        move_to(&aliased->diags[i].path, reported_as(&aliases, aliased->diags[i].path));
    dl_result_sort(aliased); /* by place first: one place's findings are neighbours */
    size_t own = out->diag_count, last_added = 0;
    bool added = false;
    for (size_t i = 0; i < aliased->diag_count; i++) {
        DlDiag *d = &aliased->diags[i];
        if (has_place(out, own, d) ||
            (added && dl_diag_cmp_place(&out->diags[last_added], d) == 0)) {
            dl_diag_free(d);
            continue;
        }
        last_added = out->diag_count;
        added = true;
        dl_result_add_diag(out, *d);
    }
    free(aliased->diags);
    aliased->diags = NULL;
    aliased->diag_count = aliased->diag_cap = 0;

    for (size_t i = 0; i < aliased->error_count; i++) {
        DlFileError *e = &aliased->errors[i];
        move_to(&e->path, reported_as(&aliases, e->path));
        if (!has_error_at(out, e->path)) dl_result_add_error(out, e->path, e->message);
        free(e->path);
        free(e->message);
    }
    free(aliased->errors);
    aliased->errors = NULL;
    aliased->error_count = aliased->error_cap = 0;
    aliased->files_checked = 0; /* the file was counted at the path that reports it */
    dl_path_map_free(&aliases);
    dl_result_sort(out);
}
