/* Open documents and notebooks. */
#include "lsp/documents.h"

#include <stdlib.h>
#include <string.h>

#include "lsp/protocol.h"
#include "lsp/uri.h"

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) abort();
    return p;
}

static char *xstrdup(const char *s) {
    char *c = strdup(s);
    if (!c) abort();
    return c;
}

void dl_lsp_doc_set_text(DlLspDoc *doc, const char *text, size_t len) {
    char *t = xmalloc(len + 1);
    memcpy(t, text, len);
    t[len] = '\0';
    free(doc->text);
    doc->text = t;
    doc->len = len;
    dl_lsp_lines_free(&doc->lines);
    dl_lsp_lines_build(&doc->lines, doc->text, doc->len);
}

void dl_lsp_doc_edit(DlLspDoc *doc, long sl, long sc, long el, long ec, const char *text,
                     size_t len) {
    size_t a = dl_lsp_offset(&doc->lines, doc->text, doc->len, sl, sc);
    size_t b = dl_lsp_offset(&doc->lines, doc->text, doc->len, el, ec);
    if (b < a) b = a;
    size_t n = doc->len - (b - a) + len;
    char *t = xmalloc(n + 1);
    memcpy(t, doc->text, a);
    memcpy(t + a, text, len);
    memcpy(t + a + len, doc->text + b, doc->len - b);
    t[n] = '\0';
    free(doc->text);
    doc->text = t;
    doc->len = n;
    dl_lsp_lines_free(&doc->lines);
    dl_lsp_lines_build(&doc->lines, doc->text, doc->len);
}

bool dl_lsp_doc_apply_changes(DlLspDoc *doc, const cJSON *changes) {
    if (!cJSON_IsArray(changes)) return false;
    const cJSON *c;
    cJSON_ArrayForEach(c, changes) {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(c, "text");
        if (!cJSON_IsObject(c) || !cJSON_IsString(text)) return false;
        const cJSON *range = cJSON_GetObjectItemCaseSensitive(c, "range");
        size_t len = strlen(text->valuestring);
        if (!range) {
            dl_lsp_doc_set_text(doc, text->valuestring, len);
            continue;
        }
        long sl, sc, el, ec;
        if (!dl_json_range(range, &sl, &sc, &el, &ec)) return false;
        dl_lsp_doc_edit(doc, sl, sc, el, ec, text->valuestring, len);
    }
    return true;
}

void dl_lsp_doc_set_found(DlLspDoc *doc, DlResult *found, long version) {
    dl_result_free(&doc->found);
    doc->found = *found;
    memset(found, 0, sizeof *found);
    doc->found_version = version;
    doc->result_id++;
}

static void doc_free(DlLspDoc *doc) {
    free(doc->uri);
    free(doc->path);
    free(doc->text);
    free(doc->error);
    dl_lsp_lines_free(&doc->lines);
    dl_result_free(&doc->found);
    free(doc);
}

DlLspDoc *dl_lsp_docs_find(const DlLspDocs *docs, const char *uri) {
    if (!uri) return NULL;
    for (size_t i = 0; i < docs->docs.len; i++)
        if (strcmp(docs->docs.items[i]->uri, uri) == 0) return docs->docs.items[i];
    return NULL;
}

DlLspDoc *dl_lsp_docs_open(DlLspDocs *docs, const char *uri, const char *text, size_t len,
                           long version) {
    DlLspDoc *doc = dl_lsp_docs_find(docs, uri);
    if (!doc) {
        doc = calloc(1, sizeof *doc);
        if (!doc) abort();
        doc->uri = xstrdup(uri);
        doc->path = dl_lsp_uri_to_path(uri);
        doc->found_version = -1;
        dl_vec_push(&docs->docs, doc);
    }
    dl_lsp_doc_set_text(doc, text, len);
    doc->version = version;
    return doc;
}

void dl_lsp_docs_close(DlLspDocs *docs, const char *uri) {
    for (size_t i = 0; i < docs->docs.len; i++) {
        DlLspDoc *doc = docs->docs.items[i];
        if (strcmp(doc->uri, uri) != 0) continue;
        /* every notebook that lists it (a client may list a cell in two, or reopen one) */
        for (size_t n = 0; n < docs->notebooks.len; n++) {
            DlLspNotebook *nb = docs->notebooks.items[n];
            for (size_t c = 0; c < nb->cells.len; c++)
                if (nb->cells.items[c] == doc) nb->cells.items[c] = NULL;
        }
        doc_free(doc);
        docs->docs.items[i] = docs->docs.items[--docs->docs.len];
        return;
    }
}

DlLspNotebook *dl_lsp_notebook_find(const DlLspDocs *docs, const char *uri) {
    if (!uri) return NULL;
    for (size_t i = 0; i < docs->notebooks.len; i++)
        if (strcmp(docs->notebooks.items[i]->uri, uri) == 0) return docs->notebooks.items[i];
    return NULL;
}

DlLspNotebook *dl_lsp_notebook_open(DlLspDocs *docs, const char *uri, long version) {
    DlLspNotebook *nb = dl_lsp_notebook_find(docs, uri);
    if (!nb) {
        nb = calloc(1, sizeof *nb);
        if (!nb) abort();
        nb->uri = xstrdup(uri);
        nb->path = dl_lsp_uri_to_path(uri);
        dl_vec_push(&docs->notebooks, nb);
    }
    nb->version = version;
    return nb;
}

/* Every cell that points back at it, listed or not (a reopened notebook's old cells, cells
 * spliced out), forgets it. */
static void notebook_free(DlLspDocs *docs, DlLspNotebook *nb) {
    for (size_t i = 0; i < docs->docs.len; i++)
        if (docs->docs.items[i]->notebook == nb) docs->docs.items[i]->notebook = NULL;
    dl_vec_free(&nb->cells);
    free(nb->uri);
    free(nb->path);
    free(nb);
}

void dl_lsp_notebook_close(DlLspDocs *docs, const char *uri) {
    for (size_t i = 0; i < docs->notebooks.len; i++) {
        DlLspNotebook *nb = docs->notebooks.items[i];
        if (strcmp(nb->uri, uri) != 0) continue;
        notebook_free(docs, nb);
        docs->notebooks.items[i] = docs->notebooks.items[--docs->notebooks.len];
        return;
    }
}

void dl_lsp_docs_free(DlLspDocs *docs) {
    for (size_t i = 0; i < docs->notebooks.len; i++)
        notebook_free(docs, docs->notebooks.items[i]);
    for (size_t i = 0; i < docs->docs.len; i++)
        doc_free(docs->docs.items[i]);
    dl_vec_free(&docs->notebooks);
    dl_vec_free(&docs->docs);
}
