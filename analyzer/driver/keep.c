/* What the language server keeps between checks (see keep.h). */
#include "driver/keep.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/path_map.h"

/* Both kinds of entry start with the number of the check that last used them (see sweep). */
typedef struct ReadEntry {
    uint64_t check; /* the check that last recalled or noted it */
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime, ctime;
    DlKeptRead read;
} ReadEntry;

typedef struct KeptEntry {
    uint64_t check; /* the check that last put or retained it */
    DlKeptModel model;
} KeptEntry;

struct DlKeep {
    pthread_mutex_t lock; /* over `models` and `check` */
    DlPathMap models;     /* path -> KeptEntry */
    DlPathMap reads;      /* path -> ReadEntry */
    uint64_t check;       /* the current check's number */
    uint64_t serials;     /* the last serial given to a model */
    DlCache *results;
    bool has_project;
    DlProject project;
    uint64_t project_key;
    uint64_t *project_models; /* the serials it was built over, one per file */
    size_t project_files;
};

DlKeep *dl_keep_new(void) {
    DlKeep *keep = calloc(1, sizeof *keep);
    if (!keep) abort();
    pthread_mutex_init(&keep->lock, NULL);
    dl_path_map_init(&keep->models);
    dl_path_map_init(&keep->reads);
    keep->results = dl_cache_new_in_memory();
    return keep;
}

static void free_entry(void *entry) {
    KeptEntry *e = entry;
    dl_arena_release(&e->model.arena);
    dl_source_free(&e->model.source);
    dl_suppressions_free(&e->model.suppressions);
    free(e);
}

static void free_read(void *entry) {
    ReadEntry *r = entry;
    dl_sharing_file_free(&r->read.scan);
    free(r);
}

/* Frees the entries of a map that the check `keep` (every entry: NULL) did not use. */
typedef struct Sweep {
    const uint64_t *keep;
    void (*free_entry)(void *);
} Sweep;

static int sweep_entry(void *ctx, const char *path, void *entry) {
    (void)path;
    const Sweep *sweep = ctx;
    if (sweep->keep && *(const uint64_t *)entry == *sweep->keep) return 0;
    sweep->free_entry(entry);
    return 1;
}

static void sweep(DlPathMap *map, const uint64_t *keep, void (*free_one)(void *)) {
    Sweep ctx = {keep, free_one};
    dl_path_map_each(map, sweep_entry, &ctx);
}

static void drop_project(DlKeep *keep) {
    if (keep->has_project) dl_project_free(&keep->project);
    free(keep->project_models);
    keep->project_models = NULL;
    keep->has_project = false;
}

void dl_keep_free(DlKeep *keep) {
    if (!keep) return;
    drop_project(keep);
    sweep(&keep->models, NULL, free_entry);
    dl_path_map_free(&keep->models);
    sweep(&keep->reads, NULL, free_read);
    dl_path_map_free(&keep->reads);
    dl_cache_close(keep->results);
    pthread_mutex_destroy(&keep->lock);
    free(keep);
}

DlCache *dl_keep_results(DlKeep *keep) {
    return keep->results;
}

bool dl_keep_take_model(DlKeep *keep, const char *path, uint64_t content_hash, DlKeptModel *out) {
    pthread_mutex_lock(&keep->lock);
    KeptEntry *e = dl_path_map_get(&keep->models, path);
    bool same = e && e->model.content_hash == content_hash;
    if (same) dl_path_map_remove(&keep->models, path);
    pthread_mutex_unlock(&keep->lock);
    if (!same) return false;
    *out = e->model;
    out->module->source = &out->source;
    free(e);
    /* the facts it pointed at belonged to the check that built them */
    DlModuleIR *m = out->module;
    m->facts = NULL;
    for (uint32_t i = 0; i < m->class_count; i++) m->classes[i]->facts = NULL;
    for (uint32_t i = 0; i < m->function_count; i++) m->functions[i]->facts = NULL;
    return true;
}

uint64_t dl_keep_put_model(DlKeep *keep, const char *path, DlKeptModel *model) {
    KeptEntry *e = malloc(sizeof *e);
    if (!e) abort();
    e->model = *model;
    e->model.module->source = &e->model.source; /* moved with it */
    memset(model, 0, sizeof *model);
    pthread_mutex_lock(&keep->lock);
    if (!e->model.serial) e->model.serial = ++keep->serials;
    uint64_t serial = e->model.serial;
    e->check = keep->check;
    KeptEntry *old = dl_path_map_put(&keep->models, path, e);
    pthread_mutex_unlock(&keep->lock);
    if (old) free_entry(old);
    return serial;
}

void dl_keep_retain(DlKeep *keep, const char *path, uint64_t content_hash) {
    pthread_mutex_lock(&keep->lock);
    KeptEntry *e = dl_path_map_get(&keep->models, path);
    if (e && e->model.content_hash == content_hash) e->check = keep->check;
    pthread_mutex_unlock(&keep->lock);
}

static bool same_identity(const ReadEntry *r, const struct stat *st) {
    return r->dev == st->st_dev && r->ino == st->st_ino && r->size == st->st_size &&
           r->mtime.tv_sec == st->st_mtim.tv_sec && r->mtime.tv_nsec == st->st_mtim.tv_nsec &&
           r->ctime.tv_sec == st->st_ctim.tv_sec && r->ctime.tv_nsec == st->st_ctim.tv_nsec;
}

bool dl_keep_recall_read(DlKeep *keep, const char *path, const struct stat *st, DlKeptRead *out) {
    pthread_mutex_lock(&keep->lock);
    ReadEntry *r = dl_path_map_get(&keep->reads, path);
    bool same = r && same_identity(r, st);
    if (same) {
        r->check = keep->check;
        *out = r->read;
        dl_sharing_file_copy(&out->scan, &r->read.scan);
    }
    pthread_mutex_unlock(&keep->lock);
    return same;
}

void dl_keep_note_read(DlKeep *keep, const char *path, const struct stat *st,
                       const DlKeptRead *read) {
    ReadEntry *r = malloc(sizeof *r);
    if (!r) abort();
    *r = (ReadEntry){0, st->st_dev, st->st_ino, st->st_size, st->st_mtim, st->st_ctim, *read};
    dl_sharing_file_copy(&r->read.scan, &read->scan);
    pthread_mutex_lock(&keep->lock);
    r->check = keep->check;
    ReadEntry *old = dl_path_map_put(&keep->reads, path, r);
    pthread_mutex_unlock(&keep->lock);
    if (old) free_read(old);
}

void dl_keep_sweep(DlKeep *keep) {
    pthread_mutex_lock(&keep->lock);
    sweep(&keep->models, &keep->check, free_entry);
    sweep(&keep->reads, &keep->check, free_read);
    dl_cache_sweep(keep->results);
    keep->check++;
    pthread_mutex_unlock(&keep->lock);
}

void dl_keep_put_project(DlKeep *keep, DlProject *project, uint64_t key, const uint64_t *models,
                         size_t count) {
    drop_project(keep);
    keep->project_models = malloc((count ? count : 1) * sizeof *models);
    if (!keep->project_models) abort();
    if (count) memcpy(keep->project_models, models, count * sizeof *models);
    keep->project_files = count;
    keep->project_key = key;
    keep->project = *project;
    memset(project, 0, sizeof *project);
    keep->has_project = true;
}

bool dl_keep_take_project(DlKeep *keep, uint64_t key, const uint64_t *models, size_t count,
                          DlProject *out) {
    if (!keep->has_project) return false;
    bool same = keep->project_key == key && keep->project_files == count &&
                (!count || memcmp(keep->project_models, models, count * sizeof *models) == 0);
    if (same) {
        *out = keep->project;
        memset(&keep->project, 0, sizeof keep->project);
        keep->has_project = false;
    }
    drop_project(keep);
    return same;
}
