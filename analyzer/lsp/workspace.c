/* One check of the workspace with the open documents' text. */
#include "lsp/workspace.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/pool.h"
#include "driver/check.h"

enum { DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024 };

void dl_lsp_workspace_free(DlLspWorkspace *ws) {
    for (size_t i = 0; i < ws->roots.len; i++)
        free(ws->roots.items[i]);
    dl_vec_free(&ws->roots);
    if (ws->walked) dl_files_free(&ws->files);
    if (ws->settings) dl_settings_free(ws->settings);
    dl_lsp_options_free(&ws->options);
    dl_keep_free(ws->keep);
    memset(ws, 0, sizeof *ws);
}

void dl_lsp_workspace_add_root(DlLspWorkspace *ws, const char *path) {
    char *root = strdup(path);
    if (!root) abort();
    size_t n = strlen(root);
    while (n > 1 && root[n - 1] == '/')
        root[--n] = '\0';
    for (size_t i = 0; i < ws->roots.len; i++)
        if (strcmp(ws->roots.items[i], root) == 0) {
            free(root);
            return;
        }
    dl_vec_push(&ws->roots, root);
    dl_lsp_workspace_forget_files(ws);
}

void dl_lsp_workspace_remove_root(DlLspWorkspace *ws, const char *path) {
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    for (size_t i = 0; i < ws->roots.len; i++) {
        if (strlen(ws->roots.items[i]) != n || strncmp(ws->roots.items[i], path, n) != 0) continue;
        free(ws->roots.items[i]);
        ws->roots.items[i] = ws->roots.items[--ws->roots.len];
        dl_lsp_workspace_forget_files(ws);
        return;
    }
}

void dl_lsp_workspace_set_options(DlLspWorkspace *ws, DlLspOptions *options) {
    dl_lsp_options_free(&ws->options);
    ws->options = *options;
    memset(options, 0, sizeof *options);
    dl_lsp_workspace_forget_settings(ws);
    /* what was kept was read under the old options (the file size limit among them) */
    dl_keep_free(ws->keep);
    ws->keep = NULL;
}

void dl_lsp_workspace_forget_files(DlLspWorkspace *ws) {
    if (ws->walked) dl_files_free(&ws->files);
    ws->walked = false;
}

void dl_lsp_workspace_forget_settings(DlLspWorkspace *ws) {
    if (ws->settings) dl_settings_free(ws->settings);
    ws->settings = NULL;
}

char *dl_lsp_notebook_json(const DlLspNotebook *nb, size_t *len) {
    cJSON *root = cJSON_CreateObject();
    cJSON *cells = cJSON_AddArrayToObject(root, "cells");
    for (size_t i = 0; i < nb->cells.len; i++) {
        const DlLspDoc *cell = nb->cells.items[i];
        cJSON *c = cJSON_CreateObject();
        bool code = cell && cell->code_cell;
        cJSON_AddStringToObject(c, "cell_type", code ? "code" : "markdown");
        cJSON_AddStringToObject(c, "source", code ? cell->text : "");
        cJSON_AddItemToArray(cells, c);
    }
    cJSON_AddObjectToObject(root, "metadata");
    cJSON_AddNumberToObject(root, "nbformat", 4);
    cJSON_AddNumberToObject(root, "nbformat_minor", 5);
    char *json = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!json) abort();
    *len = strlen(json);
    return json;
}

static int compare_paths(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool walked_contains(const DlLspWorkspace *ws, const char *path) {
    return ws->files.count &&
           bsearch(&path, ws->files.paths, ws->files.count, sizeof(char *), compare_paths);
}

typedef struct CheckList {
    DL_VEC(char *) paths; /* borrowed */
    DL_VEC(const DlSettings *) settings;
    DL_VEC(DlCheckOverride) overrides;
    DL_VEC(char *) owned; /* notebook JSON texts */
} CheckList;

/* Adds `path` with its settings; false when it is not to be checked. */
static bool add_path(DlLspWorkspace *ws, CheckList *list, char *path, char **config_error) {
    char *error = NULL;
    const DlSettings *s = dl_settings_for(ws->settings, path, &error);
    if (!s) {
        if (!*config_error)
            *config_error = error;
        else
            free(error);
        return false;
    }
    if (s->excluded) return false;
    dl_vec_push(&list->paths, path);
    dl_vec_push(&list->settings, s);
    return true;
}

void dl_lsp_workspace_check(DlLspWorkspace *ws, const DlLspDocs *docs, DlResult *out,
                            char **config_error) {
    *config_error = NULL;
    if (!ws->walked && ws->roots.len) {
        dl_files_collect((const char *const *)ws->roots.items, ws->roots.len, NULL, &ws->files);
        ws->walked = true;
    }
    if (!ws->settings) {
        const DlLspOptions *o = &ws->options;
        DlSettingsOptions so = {(const char *const *)o->select,
                                o->select_count,
                                (const char *const *)o->ignore,
                                o->ignore_count,
                                o->config_path,
                                o->isolated};
        ws->settings = dl_settings_new(&so);
    }
    CheckList list = {0};
    /* C++/CUDA files are not checked as you type (each takes a compiler parse, and nothing in
     * a Python file's analysis reads them): `devlint check` does them */
    for (size_t i = 0; ws->walked && i < ws->files.count; i++)
        if (dl_file_kind(ws->files.paths[i]) != DL_FILE_CPP)
            add_path(ws, &list, ws->files.paths[i], config_error);
    for (size_t i = 0; i < docs->docs.len; i++) {
        DlLspDoc *doc = docs->docs.items[i];
        if (!doc->python || doc->notebook) continue;
        char *path = doc->path ? doc->path : doc->uri; /* untitled: buffers have no path */
        bool walked = ws->walked && walked_contains(ws, path);
        if (!walked && !add_path(ws, &list, path, config_error)) continue;
        dl_vec_push(&list.overrides, ((DlCheckOverride){path, doc->text, doc->len}));
    }
    for (size_t i = 0; i < docs->notebooks.len; i++) {
        DlLspNotebook *nb = docs->notebooks.items[i];
        char *path = nb->path ? nb->path : nb->uri;
        size_t len;
        char *json = dl_lsp_notebook_json(nb, &len);
        dl_vec_push(&list.owned, json);
        bool walked = ws->walked && walked_contains(ws, path);
        if (!walked && !add_path(ws, &list, path, config_error)) continue;
        dl_vec_push(&list.overrides, ((DlCheckOverride){path, json, len}));
    }
    /* an edit re-parses the files it changed and re-analyses the results it may change */
    if (!ws->keep) ws->keep = dl_keep_new();
    const DlLspOptions *o = &ws->options;
    DlCheckOptions check = {
        .settings = list.settings.items,
        .jobs = o->jobs > 0 ? o->jobs : dl_cpu_count(),
        .max_file_bytes = o->max_file_bytes ? o->max_file_bytes : DEFAULT_MAX_FILE_BYTES,
        .overrides = list.overrides.items,
        .override_count = list.overrides.len,
        .keep = ws->keep,
    };
    dl_check_files(list.paths.items, list.paths.len, &check, out);
    for (size_t i = 0; i < list.owned.len; i++)
        free(list.owned.items[i]);
    dl_vec_free(&list.owned);
    dl_vec_free(&list.paths);
    dl_vec_free(&list.settings);
    dl_vec_free(&list.overrides);
}
