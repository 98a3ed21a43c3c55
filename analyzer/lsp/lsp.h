/* The language server, `devlint lsp`: JSON-RPC over a pair of file descriptors (stdin and
 * stdout), checking the editor's open Python files and notebooks as they are typed, together
 * with the rest of the workspace on disk. See server.h for how it is put together. */
#ifndef DL_LSP_H
#define DL_LSP_H

#include "lsp/options.h"

/* Serves until the client sends `exit` or closes the input. Takes the options (moved out).
 * Returns the process exit code: 0, or 1 for an `exit` that was not preceded by `shutdown`. */
int dl_lsp_serve(int in_fd, int out_fd, DlLspOptions *options);

#endif
