/* Finding the source a header is included by (cpp_includer.h). */
#define _GNU_SOURCE
#include "frontend/cpp_includer.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/files.h"
#include "core/vec.h"
#include "frontend/cpp_flags.h" /* dl_cpp_is_header_path */

enum {
    MAX_SOURCE_BYTES = 2 << 20, /* a generated or amalgamated file: not an includer worth it */
    MAX_FILES_READ = 400,       /* a directory of thousands of sources: give up, stay alone */
    MAX_SIBLING_DIRS = 32,
    MAX_HEADER_CHAIN = 3,
};

static bool is_one_of(const char *s, const char *const *list) {
    for (size_t i = 0; list[i]; i++)
        if (strcmp(s, list[i]) == 0) return true;
    return false;
}

static bool is_source_path(const char *path) {
    static const char *const exts[] = {"cu", "cpp", "cc", "cxx", "c++", NULL};
    return is_one_of(dl_path_extension(path), exts);
}

/* The length of a file name's stem ("foo" of foo.cuh). */
static size_t stem_length(const char *name) {
    const char *dot = strrchr(name, '.');
    return dot ? (size_t)(dot - name) : strlen(name);
}

static char *read_small_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = malloc(MAX_SOURCE_BYTES + 1);
    if (!text) abort();
    size_t n = fread(text, 1, MAX_SOURCE_BYTES + 1, f);
    fclose(f);
    if (n > MAX_SOURCE_BYTES) {
        free(text);
        return NULL;
    }
    text[n] = 0;
    *len = n;
    return text;
}

/* How well `source` (read as `text`) fits as the includer of the header `header_real`, whose
 * file name is `name`: 0 when no #include line names that file name. */
static int includer_score(const char *source, const char *text, size_t len, const char *name,
                          const char *header_real, bool same_dir) {
    size_t name_len = strlen(name);
    int best = 0;
    for (const char *p = text, *end = text + len; p < end;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        const char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t')) q++;
        if (q < eol && *q == '#') {
            q++;
            while (q < eol && (*q == ' ' || *q == '\t')) q++;
            if ((size_t)(eol - q) > 7 && strncmp(q, "include", 7) == 0) {
                q += 7;
                while (q < eol && (*q == ' ' || *q == '\t')) q++;
                char close = q < eol && *q == '"' ? '"' : q < eol && *q == '<' ? '>' : 0;
                const char *start = q + 1;
                const char *stop = close ? memchr(start, close, (size_t)(eol - start)) : NULL;
                if (stop) {
                    const char *file = stop;
                    while (file > start && file[-1] != '/') file--;
                    if ((size_t)(stop - file) == name_len && strncmp(file, name, name_len) == 0) {
                        int score = 1 + (same_dir ? 1 : 0);
                        const char *src_name = dl_path_base(source);
                        size_t stem = stem_length(name);
                        if (stem_length(src_name) == stem && strncmp(src_name, name, stem) == 0)
                            score += 2;
                        if (close == '"') {
                            char *dir = dl_path_dir(source);
                            char *joined = NULL;
                            if (asprintf(&joined, "%s/%.*s", dir, (int)(stop - start), start) < 0)
                                abort();
                            char *real = realpath(joined, NULL);
                            if (real && strcmp(real, header_real) == 0) score += 4;
                            free(real);
                            free(joined);
                            free(dir);
                        }
                        if (score > best) best = score;
                    }
                }
            }
        }
        p = eol + 1;
    }
    return best;
}

typedef DL_VEC(char *) NameVec;

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef enum { LIST_DIRS, LIST_SOURCES, LIST_HEADERS } ListWhat;

/* The entries of `dir` (sorted: the choice must not depend on the file system's order) that
 * are directories, C++ sources or headers. */
static NameVec list_dir(const char *dir, ListWhat what) {
    NameVec out = {0};
    DIR *d = opendir(dir);
    if (!d) return out;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *path = NULL;
        if (asprintf(&path, "%s/%s", dir, e->d_name) < 0) abort();
        struct stat st;
        bool keep = stat(path, &st) == 0 &&
                    (what == LIST_DIRS ? S_ISDIR(st.st_mode)
                                       : S_ISREG(st.st_mode) &&
                                             (what == LIST_SOURCES ? is_source_path(path)
                                                                   : dl_cpp_is_header_path(path)));
        if (keep) dl_vec_push(&out, path);
        else free(path);
    }
    closedir(d);
    if (out.len) qsort(out.items, out.len, sizeof *out.items, compare_names);
    return out;
}

static void free_names(NameVec *v) {
    for (size_t i = 0; i < v->len; i++)
        free(v->items[i]);
    dl_vec_free(v);
}

typedef struct Search {
    const char *name, *header_real;
    ListWhat what; /* sources, or headers when no source names it */
    char *best;
    int best_score, files_read;
} Search;

static void search_dir(Search *s, const char *dir, bool same_dir) {
    NameVec sources = list_dir(dir, s->what);
    for (size_t i = 0; i < sources.len && s->files_read < MAX_FILES_READ; i++) {
        if (strcmp(sources.items[i], s->header_real) == 0) continue;
        size_t len = 0;
        char *text = read_small_file(sources.items[i], &len);
        s->files_read++;
        if (!text) continue;
        int score = includer_score(sources.items[i], text, len, s->name, s->header_real, same_dir);
        free(text);
        if (score > s->best_score) {
            free(s->best);
            s->best = strdup(sources.items[i]);
            s->best_score = score;
        }
    }
    free_names(&sources);
}

static char *best_includer(const char *header_real, ListWhat what) {
    Search s = {.name = dl_path_base(header_real), .header_real = header_real, .what = what};
    char *dir = dl_path_dir(header_real);
    char *parent = dl_path_dir(dir);
    search_dir(&s, dir, true);
    search_dir(&s, parent, false);
    NameVec siblings = list_dir(parent, LIST_DIRS);
    for (size_t i = 0; i < siblings.len && i < MAX_SIBLING_DIRS; i++)
        if (strcmp(siblings.items[i], dir) != 0) search_dir(&s, siblings.items[i], false);
    free_names(&siblings);
    free(parent);
    free(dir);
    return s.best;
}

char *dl_cpp_find_includer(const char *header_path) {
    char *header = realpath(header_path, NULL);
    /* a header only another header includes (atomics.cuh, by reducer.cuh, by the .cu files):
     * the source that includes that one, a few levels up */
    for (int depth = 0; header && depth < MAX_HEADER_CHAIN; depth++) {
        char *source = best_includer(header, LIST_SOURCES);
        if (source) {
            free(header);
            return source;
        }
        char *outer = best_includer(header, LIST_HEADERS);
        free(header);
        header = outer;
    }
    free(header);
    return NULL;
}
