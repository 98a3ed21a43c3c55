/* Notebook sync (the notebookDocument/ notifications): the cells of an open notebook, each a
 * document, kept in notebook order. The check joins the code cells like a saved .ipynb
 * (workspace.c) and files each finding under its cell. */
#include <string.h>

#include "lsp/server.h"

enum { CELL_MARKUP = 1, CELL_CODE = 2 };

/* Opens the cell documents of a didOpen list (TextDocumentItem[]). */
static void open_cells(DlLspServer *s, const cJSON *items) {
    const cJSON *item;
    cJSON_ArrayForEach(item, items) {
        const char *uri = dl_json_string(item, "uri");
        const char *text = dl_json_string(item, "text");
        const char *language = dl_json_string(item, "languageId");
        long version = 0;
        dl_json_long(item, "version", &version);
        if (!uri || !text) continue;
        DlLspDoc *doc = dl_lsp_docs_open(&s->docs, uri, text, strlen(text), version);
        doc->python = language && strcmp(language, "python") == 0;
    }
}

/* A NotebookCell: its document, marked as code when it is a Python code cell. */
static DlLspDoc *cell_doc(DlLspServer *s, DlLspNotebook *nb, const cJSON *cell) {
    DlLspDoc *doc = dl_lsp_docs_find(&s->docs, dl_json_string(cell, "document"));
    long kind = 0;
    dl_json_long(cell, "kind", &kind);
    if (!doc) return NULL;
    doc->notebook = nb;
    doc->code_cell = kind == CELL_CODE && doc->python;
    return doc;
}

static void did_open(DlLspServer *s, const cJSON *params) {
    const cJSON *nbj = dl_json_object(params, "notebookDocument");
    const char *uri = dl_json_string(nbj, "uri");
    if (!uri) return;
    long version = 0;
    dl_json_long(nbj, "version", &version);
    open_cells(s, dl_json_array(params, "cellTextDocuments"));
    DlLspNotebook *nb = dl_lsp_notebook_open(&s->docs, uri, version);
    nb->cells.len = 0;
    const cJSON *cell;
    cJSON_ArrayForEach(cell, dl_json_array(nbj, "cells")) {
        DlLspDoc *doc = cell_doc(s, nb, cell);
        dl_vec_push(&nb->cells, doc);
    }
}

/* change.cells.structure.array: splice the cell list. */
static void splice(DlLspServer *s, DlLspNotebook *nb, const cJSON *array) {
    long start = 0, remove = 0;
    if (!dl_json_long(array, "start", &start) || !dl_json_long(array, "deleteCount", &remove))
        return;
    if (start < 0 || (size_t)start > nb->cells.len) start = (long)nb->cells.len;
    if (remove < 0 || (size_t)(start + remove) > nb->cells.len)
        remove = (long)nb->cells.len - start;
    DL_VEC(DlLspDoc *) added = {0};
    const cJSON *cell;
    cJSON_ArrayForEach(cell, dl_json_array(array, "cells")) {
        DlLspDoc *doc = cell_doc(s, nb, cell);
        dl_vec_push(&added, doc);
    }
    size_t n = nb->cells.len - (size_t)remove + added.len;
    dl_vec_reserve(&nb->cells, n);
    DlLspDoc **items = nb->cells.items;
    if (items) { /* NULL: no cells before or after (pointer arithmetic on NULL is undefined) */
        memmove(items + start + added.len, items + start + remove,
                (nb->cells.len - (size_t)start - (size_t)remove) * sizeof *items);
        if (added.len) memcpy(items + start, added.items, added.len * sizeof *items);
    }
    nb->cells.len = n;
    dl_vec_free(&added);
}

static void did_change(DlLspServer *s, const cJSON *params) {
    const cJSON *nbj = dl_json_object(params, "notebookDocument");
    DlLspNotebook *nb = dl_lsp_notebook_find(&s->docs, dl_json_string(nbj, "uri"));
    if (!nb) return;
    dl_json_long(nbj, "version", &nb->version);
    const cJSON *cells = dl_json_object(dl_json_object(params, "change"), "cells");
    const cJSON *structure = dl_json_object(cells, "structure");
    if (structure) {
        open_cells(s, dl_json_array(structure, "didOpen"));
        splice(s, nb, dl_json_object(structure, "array"));
        const cJSON *closed;
        cJSON_ArrayForEach(closed, dl_json_array(structure, "didClose")) {
            const char *uri = dl_json_string(closed, "uri");
            if (uri) dl_lsp_docs_close(&s->docs, uri);
        }
    }
    const cJSON *cell;
    cJSON_ArrayForEach(cell, dl_json_array(cells, "data")) cell_doc(s, nb, cell);
    const cJSON *content;
    cJSON_ArrayForEach(content, dl_json_array(cells, "textContent")) {
        const cJSON *id = dl_json_object(content, "document");
        DlLspDoc *doc = dl_lsp_docs_find(&s->docs, dl_json_string(id, "uri"));
        if (!doc) continue;
        dl_lsp_doc_apply_changes(doc, dl_json_array(content, "changes"));
        dl_json_long(id, "version", &doc->version);
    }
}

static void did_close(DlLspServer *s, const cJSON *params) {
    const char *uri = dl_json_string(dl_json_object(params, "notebookDocument"), "uri");
    DlLspNotebook *nb = uri ? dl_lsp_notebook_find(&s->docs, uri) : NULL;
    if (!nb) return;
    for (size_t i = 0; i < nb->cells.len; i++) {
        DlLspDoc *cell = nb->cells.items[i];
        if (!cell) continue;
        if (!s->pull) { /* a pushing server clears what it published */
            cJSON *p = cJSON_CreateObject();
            cJSON_AddStringToObject(p, "uri", cell->uri);
            cJSON_AddItemToObject(p, "diagnostics", cJSON_CreateArray());
            dl_lsp_notify(s, "textDocument/publishDiagnostics", p);
        }
        dl_lsp_docs_close(&s->docs, cell->uri);
    }
    dl_lsp_notebook_close(&s->docs, uri);
}

bool dl_lsp_notebook_notification(DlLspServer *s, const char *method, const cJSON *params) {
    if (strcmp(method, "notebookDocument/didOpen") == 0)
        did_open(s, params);
    else if (strcmp(method, "notebookDocument/didChange") == 0)
        did_change(s, params);
    else if (strcmp(method, "notebookDocument/didClose") == 0)
        did_close(s, params);
    else if (strcmp(method, "notebookDocument/didSave") != 0)
        return false;
    s->dirty = true;
    return true;
}
