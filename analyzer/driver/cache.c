/* The result cache (see cache.h): entries are small JSON documents, one per checked file. */
#define _GNU_SOURCE /* pthread_self in temporary names, open_memstream */
#include "driver/cache.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/files.h"
#include "core/path_map.h"
#include "core/stat_memo.h"
#include "rules/rule.h"

struct DlCache {
    char *dir; /* NULL: the entries are kept in `memory` (dl_cache_new_in_memory) */
    DlPathMap memory; /* path -> MemoryEntry */
    pthread_mutex_t lock; /* over `memory` and `check` */
    uint64_t check;       /* counts dl_cache_sweep calls */
    /* the run's memo (borrowed): the headers C++ entries depend on are stat'ed once a run to
     * check entries, not once a file (storing stats afresh: a PCH this run rebuilt must be
     * recorded as it is now) */
    DlStatMemo *stats;
};

enum { DL_CACHE_FORMAT = 5 }; /* bump when the entry layout changes */

uint64_t dl_cache_tool_key(void) {
    uint64_t h = dl_hash_bytes(DEVLINT_VERSION, strlen(DEVLINT_VERSION), DL_CACHE_FORMAT);
    struct stat st;
    if (stat("/proc/self/exe", &st) == 0) {
        int64_t parts[3] = {(int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
                            (int64_t)st.st_mtim.tv_nsec};
        h = dl_hash_bytes(parts, sizeof parts, h);
    }
    return h;
}

DlCache *dl_cache_open(const char *dir, DlStatMemo *stats, char **error) {
    if (!dl_make_dirs(dir)) {
        int err = errno;
        size_t n = strlen(dir) + 128;
        *error = malloc(n);
        if (!*error) abort();
        snprintf(*error, n, "cannot create the cache directory %s: %s", dir, strerror(err));
        return NULL;
    }
    DlCache *cache = calloc(1, sizeof *cache);
    if (!cache) abort();
    cache->dir = strdup(dir);
    if (!cache->dir) abort();
    cache->stats = stats;
    /* like ruff's: the directory keeps itself out of version control */
    char ignore[PATH_MAX];
    snprintf(ignore, sizeof ignore, "%s/.gitignore", dir);
    if (access(ignore, F_OK) != 0) {
        FILE *f = fopen(ignore, "w");
        if (f) {
            fputs("# Created by devlint: its result cache.\n*\n", f);
            fclose(f);
        }
    }
    return cache;
}

DlCache *dl_cache_new_in_memory(void) {
    DlCache *cache = calloc(1, sizeof *cache);
    if (!cache) abort();
    dl_path_map_init(&cache->memory);
    pthread_mutex_init(&cache->lock, NULL);
    return cache;
}

/* An entry kept in memory, and when it was last looked up or stored. */
typedef struct MemoryEntry {
    char *text;
    uint64_t check;
} MemoryEntry;

/* Frees the entries not used since the sweep `*current` counts (NULL: every entry). */
static int free_memory_entry(void *ctx, const char *path, void *entry) {
    (void)path;
    const uint64_t *current = ctx;
    MemoryEntry *e = entry;
    if (current && e->check == *current) return 0;
    free(e->text);
    free(e);
    return 1;
}

void dl_cache_sweep(DlCache *cache) {
    if (cache->dir) return;
    pthread_mutex_lock(&cache->lock);
    dl_path_map_each(&cache->memory, free_memory_entry, &cache->check);
    cache->check++;
    pthread_mutex_unlock(&cache->lock);
}

void dl_cache_close(DlCache *cache) {
    if (!cache) return;
    if (!cache->dir) {
        dl_path_map_each(&cache->memory, free_memory_entry, NULL);
        dl_path_map_free(&cache->memory);
        pthread_mutex_destroy(&cache->lock);
    }
    free(cache->dir);
    free(cache);
}

static void entry_path(const DlCache *cache, const char *path, char *out, size_t size) {
    snprintf(out, size, "%s/%016" PRIx64 ".json", cache->dir,
             dl_hash_bytes(path, strlen(path), 0x64657663));
}

/* An entry's whole text, NUL-terminated; NULL when it cannot be read. Plain descriptor reads:
 * an entry is a regular file this cache wrote, so a read that comes back short is its end
 * (a warm run reads one entry per file, and its system calls are most of its time). */
static char *read_all(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf) abort();
    for (;;) {
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            close(fd);
            free(buf);
            return NULL;
        }
        n += (size_t)got;
        if (got == 0 || n < cap - 1) break;
        cap *= 2;
        buf = realloc(buf, cap);
        if (!buf) abort();
    }
    close(fd);
    buf[n] = '\0';
    return buf;
}

/* ---------------------------------------------------------------- entry -> result */

static int get_int(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valueint : 0;
}

static char *get_text(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v)) return NULL;
    char *s = strdup(v->valuestring);
    if (!s) abort();
    return s;
}

static DlFix *fix_from_json(const cJSON *j) {
    if (!cJSON_IsObject(j)) return NULL;
    const cJSON *edits = cJSON_GetObjectItemCaseSensitive(j, "edits");
    size_t count = (size_t)cJSON_GetArraySize(edits);
    char *title = get_text(j, "title");
    DlFix *fix = dl_fix_new(title ? title : "", count);
    free(title);
    fix->unsafe = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "unsafe"));
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, edits) {
        DlEdit *edit = &fix->edits[i++];
        edit->line = get_int(e, "line");
        edit->column = get_int(e, "column");
        edit->end_line = get_int(e, "end_line");
        edit->end_column = get_int(e, "end_column");
        edit->cell = get_int(e, "cell");
        edit->text = get_text(e, "text");
        if (!edit->text) edit->text = strdup("");
    }
    return fix;
}

/* False when the entry names a rule this build does not have (then it is not used). */
static bool result_from_json(const cJSON *j, DlResult *out) {
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(j, "diags")) {
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(d, "code");
        const DlRule *rule = cJSON_IsString(code) ? dl_rule_find(code->valuestring) : NULL;
        if (!rule) return false;
        DlDiag diag = {0};
        diag.rule = rule;
        diag.path = get_text(d, "path");
        diag.line = get_int(d, "line");
        diag.column = get_int(d, "column");
        diag.end_line = get_int(d, "end_line");
        diag.end_column = get_int(d, "end_column");
        diag.message = get_text(d, "message");
        diag.source_line = get_text(d, "source_line");
        diag.fix = fix_from_json(cJSON_GetObjectItemCaseSensitive(d, "fix"));
        diag.severity_override = get_int(d, "severity_override");
        diag.cell = get_int(d, "cell");
        diag.file_line = get_int(d, "file_line");
        if (!diag.path || !diag.message) {
            dl_diag_free(&diag);
            return false;
        }
        dl_result_add_diag(out, diag);
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(j, "errors")) {
        const cJSON *path = cJSON_GetObjectItemCaseSensitive(e, "path");
        const cJSON *message = cJSON_GetObjectItemCaseSensitive(e, "message");
        if (cJSON_IsString(path) && cJSON_IsString(message))
            dl_result_add_error(out, path->valuestring, message->valuestring);
    }
    out->files_checked = (size_t)get_int(j, "files_checked");
    return true;
}

/* A dependency as stored: [path, size, mtime seconds, mtime nanoseconds]. */
static cJSON *dep_to_json(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return NULL;
    cJSON *d = cJSON_CreateArray();
    cJSON_AddItemToArray(d, cJSON_CreateString(path));
    cJSON_AddItemToArray(d, cJSON_CreateNumber((double)st.st_size));
    cJSON_AddItemToArray(d, cJSON_CreateNumber((double)st.st_mtim.tv_sec));
    cJSON_AddItemToArray(d, cJSON_CreateNumber((double)st.st_mtim.tv_nsec));
    return d;
}

static bool deps_unchanged(DlStatMemo *stats, const cJSON *deps) {
    if (!deps) return true; /* a Python file's entry */
    if (!cJSON_IsArray(deps)) return false;
    const cJSON *d;
    cJSON_ArrayForEach(d, deps) {
        if (cJSON_GetArraySize(d) != 4) return false;
        const cJSON *path = cJSON_GetArrayItem(d, 0);
        struct stat st;
        if (!cJSON_IsString(path) || dl_stat_memo_stat(stats, path->valuestring, &st) != 0)
            return false;
        if (cJSON_GetArrayItem(d, 1)->valuedouble != (double)st.st_size ||
            cJSON_GetArrayItem(d, 2)->valuedouble != (double)st.st_mtim.tv_sec ||
            cJSON_GetArrayItem(d, 3)->valuedouble != (double)st.st_mtim.tv_nsec)
            return false;
    }
    return true;
}

/* One digest of the files' contents, in their order. */
static uint64_t sources_digest(const uint64_t *hashes, size_t count) {
    static const uint64_t none = 0; /* no bytes: hashes may be NULL */
    return dl_hash_bytes(count ? hashes : &none, count * sizeof *hashes, 0x736f75726365);
}

static uint64_t stamp_of(uint64_t key, uint64_t digest) {
    return dl_hash_bytes(&digest, sizeof digest, key);
}

uint64_t dl_cache_stamp(uint64_t key, const uint64_t *content_hashes, size_t count) {
    return stamp_of(key, sources_digest(content_hashes, count));
}

static bool get_hex(const cJSON *o, const char *key, uint64_t *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    char *end = NULL;
    if (!cJSON_IsString(v) || !*v->valuestring) return false;
    *out = strtoull(v->valuestring, &end, 16);
    return *end == '\0';
}

static void add_hex(cJSON *o, const char *key, uint64_t value) {
    char text[17];
    snprintf(text, sizeof text, "%016" PRIx64, value);
    cJSON_AddStringToObject(o, key, text);
}

/* What a look-up tells of the entry it used (a valid entry: its sources' digest is theirs). */
static void fill_found(const cJSON *j, uint64_t key, DlCacheFound *found) {
    uint64_t digest;
    if (!get_hex(j, "sources_digest", &digest)) digest = sources_digest(NULL, 0);
    found->stamp = stamp_of(key, digest);
    const cJSON *marks = cJSON_GetObjectItemCaseSensitive(j, "marks");
    found->has_marks = cJSON_IsObject(marks) && get_hex(marks, "own", &found->marks.own) &&
                       get_hex(marks, "inputs", &found->marks.inputs);
}

/* A Python entry's "sources" (the files it read) and "sources_digest", against what they hold
 * now. */
static bool sources_unchanged(const cJSON *j, const DlCacheContents *now) {
    const cJSON *sources = cJSON_GetObjectItemCaseSensitive(j, "sources");
    if (!sources) return true; /* it read no other file */
    const cJSON *digest = cJSON_GetObjectItemCaseSensitive(j, "sources_digest");
    if (!now || !cJSON_IsArray(sources) || !cJSON_IsString(digest)) return false;
    size_t count = (size_t)cJSON_GetArraySize(sources);
    uint64_t *hashes = malloc((count ? count : 1) * sizeof *hashes);
    if (!hashes) abort();
    size_t k = 0;
    const cJSON *s;
    bool ok = true;
    cJSON_ArrayForEach(s, sources) {
        if (!cJSON_IsString(s) || !now->content_hash(now->ctx, s->valuestring, &hashes[k++])) {
            ok = false;
            break;
        }
    }
    char want[17];
    if (ok) snprintf(want, sizeof want, "%016" PRIx64, sources_digest(hashes, count));
    free(hashes);
    return ok && strcmp(digest->valuestring, want) == 0;
}

/* A copy of the entry's text, or NULL. */
static char *entry_text(DlCache *cache, const char *path) {
    if (cache->dir) {
        char file[PATH_MAX];
        entry_path(cache, path, file, sizeof file);
        return read_all(file);
    }
    pthread_mutex_lock(&cache->lock);
    MemoryEntry *kept = dl_path_map_get(&cache->memory, path);
    if (kept) kept->check = cache->check;
    char *text = kept ? strdup(kept->text) : NULL;
    pthread_mutex_unlock(&cache->lock);
    if (kept && !text) abort();
    return text;
}

static void each_name(const cJSON *names, DlCacheRecord *record, bool is_class) {
    if (!cJSON_IsString(names)) return;
    char name[256];
    for (const char *at = names->valuestring; *at;) {
        size_t n = strcspn(at, " ");
        char *copy = n < sizeof name ? name : malloc(n + 1);
        if (!copy) abort();
        memcpy(copy, at, n);
        copy[n] = '\0';
        if (n) record->defines(record->ctx, copy, is_class);
        if (copy != name) free(copy);
        at += n + (at[n] == ' ');
    }
}

/* The entry's record (see DlCacheRecord), from an entry for this path. */
static void fill_record(const cJSON *j, DlCacheRecord *record) {
    record->found = true;
    record->workers_may_touch_devices =
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "workers"));
    record->no_model = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "no_model"));
    record->has_names_digest = get_hex(j, "names", &record->names_digest);
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(j, "sources"))
        if (cJSON_IsString(s) && record->source) record->source(record->ctx, s->valuestring);
    if (record->defines) {
        each_name(cJSON_GetObjectItemCaseSensitive(j, "classes"), record, true);
        each_name(cJSON_GetObjectItemCaseSensitive(j, "functions"), record, false);
    }
    const cJSON *placed = cJSON_GetObjectItemCaseSensitive(j, "placed");
    record->has_placed = cJSON_IsArray(placed);
    cJSON_ArrayForEach(s, placed) { /* "POSITION PATH" */
        char *path = NULL;
        unsigned long position = cJSON_IsString(s) ? strtoul(s->valuestring, &path, 10) : 0;
        if (path && *path == ' ' && path[1] && record->placed)
            record->placed(record->ctx, path + 1, (uint32_t)position);
    }
}

/* Names are stored as one string, separated by spaces (a Python name holds none): a warm run
 * parses every entry, and one string is cheaper to parse than an array of them. */
static void add_names(cJSON *j, const char *key, const char *const *names, size_t count) {
    if (!count) return;
    size_t len = 0;
    for (size_t i = 0; i < count; i++) len += strlen(names[i]) + 1;
    char *joined = malloc(len), *at = joined;
    if (!joined) abort();
    for (size_t i = 0; i < count; i++) {
        size_t n = strlen(names[i]);
        memcpy(at, names[i], n);
        at[n] = i + 1 < count ? ' ' : '\0';
        at += n + 1;
    }
    cJSON_AddStringToObject(j, key, joined);
    free(joined);
}

static bool load_entry(DlCache *cache, const char *path, uint64_t key, const DlCacheContents *now,
                       DlResult *out, DlCacheRecord *record, DlCacheFound *found) {
    char *text = entry_text(cache, path);
    if (!text) return false;
    cJSON *j = cJSON_Parse(text);
    free(text);
    if (!j) return false;
    char want[17];
    snprintf(want, sizeof want, "%016" PRIx64, key);
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(j, "key");
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(j, "path");
    bool own = cJSON_IsString(p) && strcmp(p->valuestring, path) == 0;
    if (own && record) fill_record(j, record);
    bool ok = own && cJSON_IsString(k) && strcmp(k->valuestring, want) == 0 &&
              deps_unchanged(cache->stats, cJSON_GetObjectItemCaseSensitive(j, "deps")) &&
              sources_unchanged(j, now) &&
              (!out || result_from_json(cJSON_GetObjectItemCaseSensitive(j, "result"), out));
    if (ok && found) fill_found(j, key, found);
    cJSON_Delete(j);
    if (!ok && out) {
        dl_result_free(out);
        memset(out, 0, sizeof *out);
    }
    return ok;
}

bool dl_cache_load(DlCache *cache, const char *path, uint64_t key, const DlCacheContents *now,
                   DlResult *out, DlCacheFound *found) {
    return load_entry(cache, path, key, now, out, NULL, found);
}

bool dl_cache_load_record(DlCache *cache, const char *path, uint64_t key,
                          const DlCacheContents *now, DlResult *out, DlCacheRecord *record) {
    return load_entry(cache, path, key, now, out, record, NULL);
}

/* ---------------------------------------------------------------- result -> entry */

static cJSON *fix_to_json(const DlFix *fix) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "title", fix->title ? fix->title : "");
    cJSON_AddBoolToObject(j, "unsafe", fix->unsafe);
    cJSON *edits = cJSON_AddArrayToObject(j, "edits");
    for (size_t i = 0; i < fix->edit_count; i++) {
        const DlEdit *e = &fix->edits[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "line", e->line);
        cJSON_AddNumberToObject(o, "column", e->column);
        cJSON_AddNumberToObject(o, "end_line", e->end_line);
        cJSON_AddNumberToObject(o, "end_column", e->end_column);
        cJSON_AddNumberToObject(o, "cell", e->cell);
        cJSON_AddStringToObject(o, "text", e->text ? e->text : "");
        cJSON_AddItemToArray(edits, o);
    }
    return j;
}

static cJSON *result_to_json(const DlResult *r) {
    cJSON *j = cJSON_CreateObject();
    cJSON *diags = cJSON_AddArrayToObject(j, "diags");
    for (size_t i = 0; i < r->diag_count; i++) {
        const DlDiag *d = &r->diags[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "code", d->rule->code);
        cJSON_AddStringToObject(o, "path", d->path);
        cJSON_AddNumberToObject(o, "line", d->line);
        cJSON_AddNumberToObject(o, "column", d->column);
        cJSON_AddNumberToObject(o, "end_line", d->end_line);
        cJSON_AddNumberToObject(o, "end_column", d->end_column);
        cJSON_AddStringToObject(o, "message", d->message);
        if (d->source_line) cJSON_AddStringToObject(o, "source_line", d->source_line);
        if (d->fix) cJSON_AddItemToObject(o, "fix", fix_to_json(d->fix));
        cJSON_AddNumberToObject(o, "severity_override", d->severity_override);
        cJSON_AddNumberToObject(o, "cell", d->cell);
        cJSON_AddNumberToObject(o, "file_line", d->file_line);
        cJSON_AddItemToArray(diags, o);
    }
    cJSON *errors = cJSON_AddArrayToObject(j, "errors");
    for (size_t i = 0; i < r->error_count; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "path", r->errors[i].path);
        cJSON_AddStringToObject(o, "message", r->errors[i].message);
        cJSON_AddItemToArray(errors, o);
    }
    cJSON_AddNumberToObject(j, "files_checked", (double)r->files_checked);
    return j;
}

/* Writes the entry `j` (and frees it): to its file, or into the in-memory cache. */
static void write_entry(DlCache *cache, const char *path, cJSON *j) {
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    if (!text) return;
    if (!cache->dir) {
        MemoryEntry *entry = malloc(sizeof *entry);
        if (!entry) abort();
        entry->text = text;
        pthread_mutex_lock(&cache->lock);
        entry->check = cache->check;
        MemoryEntry *old = dl_path_map_put(&cache->memory, path, entry);
        pthread_mutex_unlock(&cache->lock);
        if (old) free_memory_entry(NULL, path, old);
        return;
    }
    char file[PATH_MAX];
    entry_path(cache, path, file, sizeof file);
    (void)dl_write_file_atomically(file, text); /* a failure is a miss next time */
    free(text);
}

void dl_cache_store(DlCache *cache, const char *path, uint64_t key, const DlResult *r,
                    char *const *deps, size_t dep_count, const DlCacheSources *sources) {
    cJSON *j = cJSON_CreateObject();
    char k[17];
    snprintf(k, sizeof k, "%016" PRIx64, key);
    cJSON_AddStringToObject(j, "path", path);
    cJSON_AddStringToObject(j, "key", k);
    if (deps) {
        cJSON *list = cJSON_AddArrayToObject(j, "deps");
        for (size_t i = 0; i < dep_count; i++) {
            cJSON *d = dep_to_json(deps[i]);
            if (!d) { /* a header gone already: this result cannot be checked later */
                cJSON_Delete(j);
                return;
            }
            cJSON_AddItemToArray(list, d);
        }
    }
    if (sources && sources->count) {
        cJSON *list = cJSON_AddArrayToObject(j, "sources");
        for (size_t i = 0; i < sources->count; i++)
            cJSON_AddItemToArray(list, cJSON_CreateString(sources->paths[i]));
        char digest[17];
        snprintf(digest, sizeof digest, "%016" PRIx64,
                 sources_digest(sources->content_hashes, sources->count));
        cJSON_AddStringToObject(j, "sources_digest", digest);
    }
    if (sources && sources->marks) {
        cJSON *marks = cJSON_AddObjectToObject(j, "marks");
        add_hex(marks, "own", sources->marks->own);
        add_hex(marks, "inputs", sources->marks->inputs);
    }
    if (sources) {
        add_names(j, "classes", sources->classes, sources->class_count);
        add_names(j, "functions", sources->functions, sources->function_count);
        if (sources->workers_may_touch_devices) cJSON_AddTrueToObject(j, "workers");
        if (sources->no_model) cJSON_AddTrueToObject(j, "no_model");
        add_hex(j, "names", sources->names_digest);
    }
    if (sources && sources->has_placed) {
        cJSON *list = cJSON_AddArrayToObject(j, "placed");
        for (size_t i = 0; i < sources->placed_count; i++) {
            size_t n = strlen(sources->placed_paths[i]) + 16;
            char *text = malloc(n);
            if (!text) abort();
            snprintf(text, n, "%" PRIu32 " %s", sources->placed_positions[i],
                     sources->placed_paths[i]);
            cJSON_AddItemToArray(list, cJSON_CreateString(text));
            free(text);
        }
    }
    cJSON_AddItemToObject(j, "result", result_to_json(r));
    write_entry(cache, path, j);
}

/* ---------------------------------------------------------------- the DataLoader marks' table
 *
 * A text file, "marks" (not an entry: those end in .json): a first line
 * "devlint-marks FORMAT INPUTS", then a line "CONTENT OWN PATH" per shared file (hex digests).
 * A path with a newline is left out (its result is then compared again). */

static void marks_path(const DlCache *cache, char *out, size_t size) {
    snprintf(out, size, "%s/marks", cache->dir);
}

void dl_cache_write_marks(DlCache *cache, uint64_t inputs, const DlCacheMarksRow *rows,
                          size_t count) {
    if (!cache->dir) return;
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f) return;
    fprintf(f, "devlint-marks %d %016" PRIx64 "\n", DL_CACHE_FORMAT, inputs);
    for (size_t i = 0; i < count; i++)
        if (!strchr(rows[i].path, '\n'))
            fprintf(f, "%016" PRIx64 " %016" PRIx64 " %s\n", rows[i].content_hash, rows[i].own,
                    rows[i].path);
    if (fclose(f) == 0) {
        char file[PATH_MAX];
        marks_path(cache, file, sizeof file);
        (void)dl_write_file_atomically(file, text); /* a failure is a miss next time */
    }
    free(text);
}

bool dl_cache_read_marks(DlCache *cache, uint64_t inputs,
                         void (*row)(void *ctx, const DlCacheMarksRow *row), void *ctx) {
    if (!cache->dir) return false;
    char file[PATH_MAX];
    marks_path(cache, file, sizeof file);
    char *text = read_all(file);
    if (!text) return false;
    char head[64];
    snprintf(head, sizeof head, "devlint-marks %d %016" PRIx64 "\n", DL_CACHE_FORMAT, inputs);
    bool ours = strncmp(text, head, strlen(head)) == 0;
    for (char *at = text + strlen(head); ours && *at;) {
        char *end = strchr(at, '\n');
        if (!end) break; /* a torn last line cannot happen (renamed into place); be safe */
        *end = '\0';
        char *rest;
        DlCacheMarksRow r = {0};
        r.content_hash = strtoull(at, &rest, 16);
        if (*rest == ' ') r.own = strtoull(rest + 1, &rest, 16);
        if (*rest == ' ' && rest[1]) {
            r.path = rest + 1;
            row(ctx, &r);
        }
        at = end + 1;
    }
    free(text);
    return ours;
}
