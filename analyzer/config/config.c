/* Config files: reads [tool.devlint] (pyproject.toml) or devlint.toml through the TOML reader
 * into a DlConfig, checking keys and types, and finds the nearest config for a checked file. */
#include "config/config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/toml.h"
#include "core/path_map.h"

enum { DL_CONFIG_MAX_BYTES = 16 * 1024 * 1024 };

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    return p;
}

static char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = xcalloc(n, 1);
    memcpy(p, s, n);
    return p;
}

static char *vxprintf(const char *fmt, va_list ap) {
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    size_t size = (size_t)(n > 0 ? n : 0) + 1;
    char *p = xcalloc(size, 1);
    vsnprintf(p, size, fmt, again);
    va_end(again);
    return p;
}

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *xprintf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *p = vxprintf(fmt, ap);
    va_end(ap);
    return p;
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static char *dir_name(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return xstrdup(".");
    if (slash == path) return xstrdup("/");
    char *dir = xcalloc((size_t)(slash - path) + 1, 1);
    memcpy(dir, path, (size_t)(slash - path));
    return dir;
}

/* The whole file, NUL-terminated; on failure NULL with errno set. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
        int e = S_ISDIR(st.st_mode) ? EISDIR : errno;
        fclose(f);
        errno = e;
        return NULL;
    }
    size_t cap = 4096, used = 0;
    char *buf = xcalloc(cap, 1);
    for (;;) {
        if (used + 1 >= cap) {
            if (cap >= DL_CONFIG_MAX_BYTES) {
                free(buf);
                fclose(f);
                errno = EFBIG;
                return NULL;
            }
            cap *= 2;
            char *grown = realloc(buf, cap);
            if (!grown) abort();
            buf = grown;
        }
        size_t n = fread(buf + used, 1, cap - used - 1, f);
        used += n;
        if (n == 0) break;
    }
    int e = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (e) {
        free(buf);
        errno = e;
        return NULL;
    }
    buf[used] = '\0';
    *len = used;
    return buf;
}

/* ---------------------------------------------------------------- reading the table */

typedef struct Loader {
    const char *path;
    const char *scope; /* "[tool.devlint]" or "devlint.toml", for unknown-key messages */
    char *error;
} Loader;

static bool error_at(Loader *L, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool error_at(Loader *L, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *reason = vxprintf(fmt, ap);
    va_end(ap);
    L->error = xprintf("%s:%d: %s", L->path, line, reason);
    free(reason);
    return false;
}

static bool is_string_array(const DlTomlValue *v) {
    if (v->kind != DL_TOML_ARRAY) return false;
    for (size_t i = 0; i < v->item_count; i++)
        if (v->items[i]->kind != DL_TOML_STRING) return false;
    return true;
}

/* Copies an array of strings with the line of each element. */
static void copy_strings(const DlTomlValue *v, char ***out, int **lines, size_t *count) {
    *count = v->item_count;
    *out = xcalloc(v->item_count, sizeof **out);
    *lines = xcalloc(v->item_count, sizeof **lines);
    for (size_t i = 0; i < v->item_count; i++) {
        (*out)[i] = xstrdup(v->items[i]->string);
        (*lines)[i] = v->items[i]->line;
    }
}

static bool read_per_file_ignores(Loader *L, const DlTomlEntry *e, DlConfig *out) {
    if (e->value->kind != DL_TOML_TABLE)
        return error_at(L, e->line, "`per-file-ignores` must be a table");
    out->per_file_ignores = xcalloc(e->value->entry_count, sizeof *out->per_file_ignores);
    for (const DlTomlEntry *p = e->value->entries; p; p = p->next) {
        if (!is_string_array(p->value))
            return error_at(L, p->line, "per-file-ignores for `%s` must be an array of strings",
                            p->key);
        DlPerFileIgnore *pfi = &out->per_file_ignores[out->per_file_ignore_count++];
        pfi->pattern = xstrdup(p->key);
        pfi->line = p->line;
        copy_strings(p->value, &pfi->codes, &pfi->code_lines, &pfi->code_count);
    }
    return true;
}

static bool parse_severity(const DlTomlValue *v, DlSeverity *out) {
    if (v->kind != DL_TOML_STRING) return false;
    static const struct {
        const char *name;
        DlSeverity severity;
    } names[] = {{"error", DL_SEV_ERROR}, {"warning", DL_SEV_WARNING}, {"info", DL_SEV_INFO}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(v->string, names[i].name) == 0) {
            *out = names[i].severity;
            return true;
        }
    return false;
}

static bool read_severities(Loader *L, const DlTomlEntry *e, DlConfig *out) {
    if (e->value->kind != DL_TOML_TABLE) return error_at(L, e->line, "`severity` must be a table");
    out->severities = xcalloc(e->value->entry_count, sizeof *out->severities);
    for (const DlTomlEntry *s = e->value->entries; s; s = s->next) {
        DlSeverity severity;
        if (!parse_severity(s->value, &severity))
            return error_at(L, s->line,
                            "severity for `%s` must be \"error\", \"warning\" or \"info\"", s->key);
        DlSeverityOverride *o = &out->severities[out->severity_count++];
        o->selector = xstrdup(s->key);
        o->severity = severity;
        o->line = s->line;
    }
    return true;
}

/* Where each array-of-strings key lands in a DlConfig. */
typedef struct StringKey {
    const char *name;
    size_t items, lines, count; /* offsetof into DlConfig */
} StringKey;

#define STRING_KEY(name, field)                                                                    \
    {                                                                                              \
        name, offsetof(DlConfig, field), offsetof(DlConfig, field##_lines),                        \
            offsetof(DlConfig, field##_count)                                                      \
    }

static const StringKey string_keys[] = {
    STRING_KEY("select", select),
    STRING_KEY("ignore", ignore),
    STRING_KEY("extend-select", extend_select),
    STRING_KEY("exclude", exclude),
    STRING_KEY("extend-exclude", extend_exclude),
    {"device-names", offsetof(DlConfig, device_names), offsetof(DlConfig, device_name_lines),
     offsetof(DlConfig, device_name_count)},
};

static bool read_entry(Loader *L, const DlTomlEntry *e, DlConfig *out) {
    for (size_t i = 0; i < sizeof string_keys / sizeof string_keys[0]; i++) {
        const StringKey *k = &string_keys[i];
        if (strcmp(e->key, k->name) != 0) continue;
        if (!is_string_array(e->value))
            return error_at(L, e->line, "`%s` must be an array of strings", k->name);
        char *base = (char *)out;
        copy_strings(e->value, (char ***)(base + k->items), (int **)(base + k->lines),
                     (size_t *)(base + k->count));
        if (strcmp(k->name, "select") == 0) out->has_select = true;
        return true;
    }
    if (strcmp(e->key, "per-file-ignores") == 0) return read_per_file_ignores(L, e, out);
    if (strcmp(e->key, "severity") == 0) return read_severities(L, e, out);
    return error_at(L, e->line, "unknown key `%s` in %s", e->key, L->scope);
}

static bool read_table(Loader *L, const DlTomlValue *table, DlConfig *out) {
    for (const DlTomlEntry *e = table->entries; e; e = e->next)
        if (!read_entry(L, e, out)) return false;
    return true;
}

/* ---------------------------------------------------------------- load, free */

static bool is_pyproject(const char *path) {
    return strcmp(base_name(path), "pyproject.toml") == 0;
}

/* Reads and parses `path`; on failure sets L->error. */
static bool parse_file(Loader *L, DlTomlDoc *doc) {
    size_t len = 0;
    char *text = read_file(L->path, &len);
    if (!text) {
        L->error = xprintf("%s: cannot read: %s", L->path,
                           errno == EFBIG ? "file too large" : strerror(errno));
        return false;
    }
    DlTomlError err;
    bool ok = dl_toml_parse(text, len, doc, &err);
    free(text);
    return ok ? true : error_at(L, err.line, "invalid TOML: %s", err.reason);
}

bool dl_config_load(const char *path, DlConfig *out, bool *found, char **error) {
    memset(out, 0, sizeof *out);
    if (found) *found = false;
    if (error) *error = NULL;
    bool pyproject = is_pyproject(path);
    Loader L = {.path = path, .scope = pyproject ? "[tool.devlint]" : base_name(path)};
    DlTomlDoc doc = {0};
    bool ok = parse_file(&L, &doc);
    const DlTomlValue *table = ok ? doc.root : NULL;
    if (ok && pyproject) {
        const DlTomlEntry *e = dl_toml_entry(dl_toml_get(doc.root, "tool"), "devlint");
        table = e ? e->value : NULL;
        if (e && e->value->kind != DL_TOML_TABLE)
            ok = error_at(&L, e->line, "`tool.devlint` must be a table");
    }
    if (ok && table) ok = read_table(&L, table, out);
    if (ok && table) {
        out->path = xstrdup(path);
        out->directory = dir_name(path);
        if (found) *found = true;
    }
    dl_toml_free(&doc);
    if (!ok) {
        dl_config_free(out);
        if (error)
            *error = L.error;
        else
            free(L.error);
    }
    return ok;
}

static void free_strings(char **items, int *lines, size_t count) {
    for (size_t i = 0; i < count; i++)
        free(items[i]);
    free(items);
    free(lines);
}

void dl_config_free(DlConfig *c) {
    if (!c) return;
    free(c->path);
    free(c->directory);
    free_strings(c->select, c->select_lines, c->select_count);
    free_strings(c->ignore, c->ignore_lines, c->ignore_count);
    free_strings(c->extend_select, c->extend_select_lines, c->extend_select_count);
    free_strings(c->exclude, c->exclude_lines, c->exclude_count);
    free_strings(c->extend_exclude, c->extend_exclude_lines, c->extend_exclude_count);
    free_strings(c->device_names, c->device_name_lines, c->device_name_count);
    for (size_t i = 0; i < c->per_file_ignore_count; i++) {
        free(c->per_file_ignores[i].pattern);
        free_strings(c->per_file_ignores[i].codes, c->per_file_ignores[i].code_lines,
                     c->per_file_ignores[i].code_count);
    }
    free(c->per_file_ignores);
    for (size_t i = 0; i < c->severity_count; i++)
        free(c->severities[i].selector);
    free(c->severities);
    memset(c, 0, sizeof *c);
}

/* ---------------------------------------------------------------- finding the config */

/* `path` made absolute against the working directory, with "." and ".." folded and repeated
 * slashes collapsed (symlinks are kept: the tree the user named is the tree we walk). */
static char *absolute_path(const char *path) {
    char *joined;
    if (path[0] == '/') {
        joined = xstrdup(path);
    } else {
        char *cwd = getcwd(NULL, 0);
        if (!cwd) return NULL;
        joined = xprintf("%s/%s", cwd, path);
        free(cwd);
    }
    char *out = xcalloc(strlen(joined) + 2, 1);
    size_t len = 0;
    for (char *part = joined; *part;) {
        char *end = strchr(part, '/');
        size_t n = end ? (size_t)(end - part) : strlen(part);
        if (n == 0 || (n == 1 && part[0] == '.')) {
            /* nothing */
        } else if (n == 2 && part[0] == '.' && part[1] == '.') {
            while (len > 0 && out[len - 1] != '/')
                len--;
            if (len > 0) len--; /* the slash before the dropped part */
        } else {
            out[len++] = '/';
            memcpy(out + len, part, n);
            len += n;
        }
        part += n + (end ? 1 : 0);
    }
    if (len == 0) out[len++] = '/';
    out[len] = '\0';
    free(joined);
    return out;
}

static bool is_regular_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether a pyproject.toml speaks to devlint. One that does not parse counts, so that loading
 * it reports the error; one that cannot be read does not. */
static bool pyproject_has_table(const char *path) {
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text) return false;
    DlTomlDoc doc;
    DlTomlError err;
    bool has = true;
    if (dl_toml_parse(text, len, &doc, &err))
        has = dl_toml_get(dl_toml_get(doc.root, "tool"), "devlint") != NULL;
    dl_toml_free(&doc);
    free(text);
    return has;
}

/* The config file in one directory, or NULL. */
static char *config_in(const char *dir) {
    const char *sep = strcmp(dir, "/") == 0 ? "" : "/";
    char *candidate = xprintf("%s%sdevlint.toml", dir, sep);
    if (is_regular_file(candidate)) return candidate;
    free(candidate);
    candidate = xprintf("%s%spyproject.toml", dir, sep);
    if (is_regular_file(candidate) && pyproject_has_table(candidate)) return candidate;
    free(candidate);
    return NULL;
}

struct DlConfigFinder {
    DlPathMap answers; /* absolute directory -> Answer: the config found from there up */
};

typedef struct Answer {
    char *found; /* NULL: none */
} Answer;

DlConfigFinder *dl_config_finder_new(void) {
    DlConfigFinder *finder = calloc(1, sizeof *finder);
    if (!finder) abort();
    dl_path_map_init(&finder->answers);
    return finder;
}

static int free_answer(void *ctx, const char *dir, void *value) {
    (void)ctx, (void)dir;
    Answer *a = value;
    free(a->found);
    free(a);
    return 1;
}

void dl_config_finder_free(DlConfigFinder *finder) {
    if (!finder) return;
    dl_path_map_each(&finder->answers, free_answer, NULL);
    dl_path_map_free(&finder->answers);
    free(finder);
}

static void remember(DlConfigFinder *finder, const char *dir, const char *found) {
    Answer *a = malloc(sizeof *a);
    if (!a) abort();
    a->found = found ? xstrdup(found) : NULL;
    Answer *old = dl_path_map_put(&finder->answers, dir, a);
    if (old) free_answer(NULL, dir, old);
}

static char *find_from(DlConfigFinder *finder, char *dir);

char *dl_config_finder_find(DlConfigFinder *finder, const char *file_path) {
    char *dir = absolute_path(file_path);
    if (!dir) return NULL;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        char *parent = dir_name(dir);
        free(dir);
        dir = parent;
    }
    return find_from(finder, dir);
}

char *dl_config_finder_find_for_file(DlConfigFinder *finder, const char *file_path) {
    char *path = absolute_path(file_path);
    if (!path) return NULL;
    char *dir = dir_name(path);
    free(path);
    return find_from(finder, dir);
}

/* Takes `dir` (malloc'ed, absolute). */
static char *find_from(DlConfigFinder *finder, char *dir) {
    /* the directories walked through, which get the answer found above them */
    char **walked = NULL;
    size_t walked_count = 0;
    char *found = NULL;
    for (;;) {
        const Answer *known = dl_path_map_get(&finder->answers, dir);
        if (known) {
            found = known->found ? xstrdup(known->found) : NULL;
            free(dir);
            break;
        }
        found = config_in(dir);
        char **grown = realloc(walked, (walked_count + 1) * sizeof *walked);
        if (!grown) abort();
        walked = grown;
        walked[walked_count++] = dir;
        if (found || strcmp(dir, "/") == 0) break;
        dir = dir_name(dir);
    }
    for (size_t i = 0; i < walked_count; i++) {
        remember(finder, walked[i], found);
        free(walked[i]);
    }
    free(walked);
    return found;
}

char *dl_config_find(const char *file_path) {
    DlConfigFinder *finder = dl_config_finder_new();
    char *found = dl_config_finder_find(finder, file_path);
    dl_config_finder_free(finder);
    return found;
}
