/* The workspace the server checks: its folders, the Python files in them (walked once, again
 * when files are created or deleted), the options and per-file settings (reloaded when a
 * configuration file changes), and one check of all of it with the open documents' unsaved
 * text in place of what is on disk — so project-wide facts (classes and helpers imported from
 * other files) are the same ones `devlint .` would see. */
#ifndef DL_LSP_WORKSPACE_H
#define DL_LSP_WORKSPACE_H
#include <stdbool.h>

#include "core/diag.h"
#include "core/files.h"
#include "driver/keep.h"
#include "driver/settings.h"
#include "lsp/documents.h"
#include "lsp/options.h"

typedef struct DlLspWorkspace {
    DL_VEC(char *) roots; /* absolute folder paths, no trailing '/' */
    DlFileList files;     /* valid while `walked` */
    bool walked;
    DlLspOptions options;
    DlSettingsContext *settings; /* NULL: to be made from `options` */
    DlKeep *keep; /* the program models and results kept between checks (driver/keep.h) */
} DlLspWorkspace;

void dl_lsp_workspace_free(DlLspWorkspace *ws);

/* Folders come and go with the editor's workspace folders. */
void dl_lsp_workspace_add_root(DlLspWorkspace *ws, const char *path);
void dl_lsp_workspace_remove_root(DlLspWorkspace *ws, const char *path);

/* Takes the options (moved out of `options`); settings are reloaded on the next check. */
void dl_lsp_workspace_set_options(DlLspWorkspace *ws, DlLspOptions *options);
/* Files were created or deleted: walk again on the next check. */
void dl_lsp_workspace_forget_files(DlLspWorkspace *ws);
/* A configuration file changed: read them again on the next check. */
void dl_lsp_workspace_forget_settings(DlLspWorkspace *ws);

/* Checks the workspace's files and every open Python document and notebook (their current
 * text), into `out` (sorted). A configuration error leaves the files it governs unchecked and
 * sets *config_error (malloc'ed, the first one; NULL when none). */
void dl_lsp_workspace_check(DlLspWorkspace *ws, const DlLspDocs *docs, DlResult *out,
                            char **config_error);

/* The notebook JSON that stands for an open notebook's cells (malloc'ed). */
char *dl_lsp_notebook_json(const DlLspNotebook *nb, size_t *len);

#endif
