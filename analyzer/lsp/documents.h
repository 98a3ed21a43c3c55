/* The documents the editor has open: their URI, local path, current text (what the user sees,
 * saved or not) and version, the incremental edits that change them, and what the last check
 * found in each. A notebook is a list of cells, each cell a document of its own (with a
 * vscode-notebook-cell: URI) pointing back at its notebook. */
#ifndef DL_LSP_DOCUMENTS_H
#define DL_LSP_DOCUMENTS_H
#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "core/diag.h"
#include "core/vec.h"
#include "lsp/positions.h"

typedef struct DlLspNotebook DlLspNotebook;

typedef struct DlLspDoc {
    char *uri;  /* as the client wrote it: diagnostics are published to exactly this */
    char *path; /* local path of a file: URI; NULL for notebook cells and other schemes */
    char *text; /* NUL-terminated */
    size_t len;
    DlLspLines lines;
    long version;
    bool python;             /* languageId "python": analysed (other documents are only kept) */
    DlLspNotebook *notebook; /* cells: their notebook */
    bool code_cell;          /* cells: a code cell (markdown cells are not analysed) */
    /* What the last check found here (lines relative to this document). */
    DlResult found;
    long found_version;      /* the version `found` belongs to; -1 before the first check */
    unsigned long result_id; /* changes whenever `found` does (pull diagnostics) */
    unsigned long sent_id;   /* the result_id the client last got (pushed or pulled) */
    char *error;             /* the file could not be checked (syntax error ...): why */
} DlLspDoc;

struct DlLspNotebook {
    char *uri, *path;
    long version;
    DL_VEC(DlLspDoc *) cells; /* in notebook order, markdown cells included (borrowed) */
};

typedef struct DlLspDocs {
    DL_VEC(DlLspDoc *) docs;
    DL_VEC(DlLspNotebook *) notebooks;
} DlLspDocs;

/* Opens (or replaces) the document `uri`. */
DlLspDoc *dl_lsp_docs_open(DlLspDocs *docs, const char *uri, const char *text, size_t len,
                           long version);
DlLspDoc *dl_lsp_docs_find(const DlLspDocs *docs, const char *uri); /* uri may be NULL */
void dl_lsp_docs_close(DlLspDocs *docs, const char *uri);

DlLspNotebook *dl_lsp_notebook_open(DlLspDocs *docs, const char *uri, long version);
DlLspNotebook *dl_lsp_notebook_find(const DlLspDocs *docs, const char *uri); /* uri may be NULL */
void dl_lsp_notebook_close(DlLspDocs *docs, const char *uri);

void dl_lsp_docs_free(DlLspDocs *docs);

/* Replaces the whole text. */
void dl_lsp_doc_set_text(DlLspDoc *doc, const char *text, size_t len);
/* Replaces the protocol range (0-based lines, UTF-16 characters) with `text`. */
void dl_lsp_doc_edit(DlLspDoc *doc, long sl, long sc, long el, long ec, const char *text,
                     size_t len);

/* Applies a didChange `contentChanges` array (ranged edits and whole-text replacements, in
 * order). False when an entry is malformed (the ones before it are applied). */
bool dl_lsp_doc_apply_changes(DlLspDoc *doc, const cJSON *changes);

/* Replaces what the last check found; takes the diagnostics out of `found`. */
void dl_lsp_doc_set_found(DlLspDoc *doc, DlResult *found, long version);

#endif
