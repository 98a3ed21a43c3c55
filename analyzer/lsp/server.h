/* The language server's state and the services its handlers share (server.c owns the loop and
 * the lifecycle; text sync, diagnostics, code actions and notebooks each have their own file).
 * Single-threaded: messages are read in bursts, handled in order, and a check runs when the
 * burst is over (so a run of keystrokes is checked once); the check itself uses the worker
 * threads of dl_check_files. */
#ifndef DL_LSP_SERVER_H
#define DL_LSP_SERVER_H
#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/vec.h"
#include "lsp/documents.h"
#include "lsp/protocol.h"
#include "lsp/transport.h"
#include "lsp/workspace.h"

#define DL_LSP_DOCS_URL "https://github.com/devlint/devlint/blob/main/docs/rules.md#"

typedef struct DlLspPublished {
    char *uri, *path;
} DlLspPublished;

typedef struct DlLspServer {
    int out_fd;
    DlLspReader reader;
    DlLspDocs docs;
    DlLspWorkspace ws;
    bool initialized, shutdown, exited, output_gone;
    bool enabled;          /* devlint.enable: false publishes nothing */
    bool pull;             /* the client pulls diagnostics (textDocument/diagnostic) */
    bool refresh;          /* ... and accepts workspace/diagnostic/refresh */
    bool watch_dynamic;    /* the client lets us register file watchers */
    bool document_changes; /* WorkspaceEdit.documentChanges (versioned edits) */
    bool dirty;            /* a check is due */
    bool eager;            /* ... and pull clients will not ask for it (configuration changed) */
    bool workspace_mode;   /* "Run on workspace": findings of unopened files are published too */
    DL_VEC(DlLspPublished) published; /* unopened files we published findings for */
    DlResult others;                  /* workspace mode: the last findings in unopened files */
    bool others_due;                  /* ... not yet published */
    long next_request_id;
    char *config_error; /* the configuration error last shown to the user */
    size_t last_files_checked;
} DlLspServer;

/* Sends a serialised message (takes it). */
void dl_lsp_send(DlLspServer *s, char *json);
void dl_lsp_notify(DlLspServer *s, const char *method, cJSON *params);
void dl_lsp_request(DlLspServer *s, const char *method, cJSON *params);
/* A line on stderr, which editors show in the server's output channel. */
__attribute__((format(printf, 1, 2))) void dl_lsp_log(const char *fmt, ...);
/* window/showMessage (1 error, 2 warning, 3 info). */
void dl_lsp_show(DlLspServer *s, int type, const char *message);

/* diagnostics.c: runs the check now (when due), files the findings under their documents. */
void dl_lsp_check(DlLspServer *s);
/* Pushes what changed since the client last heard (push clients, and unopened files in
 * workspace mode); for pull clients, asks for a refresh when documents other than `except`
 * changed. */
void dl_lsp_publish(DlLspServer *s, const DlLspDoc *except);
/* The protocol Diagnostic for a finding of `doc`. */
cJSON *dl_lsp_diagnostic(const DlLspDoc *doc, const DlDiag *d);
/* textDocument/diagnostic. */
cJSON *dl_lsp_pull_diagnostics(DlLspServer *s, const cJSON *params, int *code, const char **why);
/* An unopened file's diagnostics were published: forget them (it was opened, or its findings
 * went away). */
void dl_lsp_unpublish(DlLspServer *s, const char *path);

/* actions.c: textDocument/codeAction. */
cJSON *dl_lsp_code_actions(DlLspServer *s, const cJSON *params, int *code, const char **why);

/* notebooks.c: notebookDocument/didOpen, didChange, didSave, didClose. */
bool dl_lsp_notebook_notification(DlLspServer *s, const char *method, const cJSON *params);

#endif
