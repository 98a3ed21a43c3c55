/* What the language server keeps between checks (see keep.h). */
#include "driver/keep.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/path_map.h"

typedef struct ReadEntry {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime, ctime;
    DlKeptRead read;
    uint64_t check; /* the check that last recalled or noted it */
} ReadEntry;

typedef struct KeptEntry {
    DlKeptModel model;
    uint64_t check; /* the check that last put or retained it */
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

static void free_entry(KeptEntry *e) {
    dl_arena_release(&e->model.arena);
    dl_source_free(&e->model.source);
    dl_suppressions_free(&e->model.suppressions);
    free(e);
}

static int drop_all(void *ctx, const char *path, void *entry) {
    (void)ctx, (void)path;
    free_entry(entry);
    return 1;
}

static void free_read(ReadEntry *r) {
    dl_sharing_file_free(&r->read.scan);
    free(r);
}

static int drop_all_reads(void *ctx, const char *path, void *entry) {
    (void)ctx, (void)path;
    free_read(entry);
    return 1;
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
    dl_path_map_each(&keep->models, drop_all, NULL);
    dl_path_map_free(&keep->models);
    dl_path_map_each(&keep->reads, drop_all_reads, NULL);
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
    *r = (ReadEntry){st->st_dev, st->st_ino, st->st_size, st->st_mtim, st->st_ctim, *read, 0};
    dl_sharing_file_copy(&r->read.scan, &read->scan);
    pthread_mutex_lock(&keep->lock);
    r->check = keep->check;
    ReadEntry *old = dl_path_map_put(&keep->reads, path, r);
    pthread_mutex_unlock(&keep->lock);
    if (old) free_read(old);
}

static int drop_stale_read(void *ctx, const char *path, void *entry) {
    (void)path;
    const DlKeep *keep = ctx;
    ReadEntry *r = entry;
    if (r->check == keep->check) return 0;
    free_read(r);
    return 1;
}

static int drop_stale(void *ctx, const char *path, void *entry) {
    (void)path;
    const DlKeep *keep = ctx;
    KeptEntry *e = entry;
    if (e->check == keep->check) return 0;
    free_entry(e);
    return 1;
}

void dl_keep_sweep(DlKeep *keep) {
    pthread_mutex_lock(&keep->lock);
    dl_path_map_each(&keep->models, drop_stale, keep);
    dl_path_map_each(&keep->reads, drop_stale_read, keep);
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
