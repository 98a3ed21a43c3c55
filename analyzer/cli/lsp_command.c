/* `devlint lsp [OPTIONS]`: the language server on stdin/stdout (analyzer/lsp/). The options
 * are the check options that make sense for an editor: --select, --ignore, --config,
 * --isolated, --jobs, --max-file-size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "lsp/lsp.h"

static const char lsp_usage[] =
    "Usage: devlint lsp [OPTIONS]\n"
    "\n"
    "Runs the language server (JSON-RPC on stdin/stdout, as editors start it). It checks the\n"
    "open Python files and notebooks as they are edited, with the workspace's other files on\n"
    "disk, and offers each fix as a quick fix. Logs go to stderr.\n"
    "\n"
    "Options (the editor's `devlint.args` setting takes the same ones):\n"
    "  --select LIST           rules to enable (codes, prefixes or names); repeatable\n"
    "  --ignore LIST           rules to disable; repeatable\n"
    "  --config FILE           use this configuration file for every file\n"
    "  --isolated              ignore all configuration files\n"
    "  -j, --jobs N            worker threads (default: all cores)\n"
    "  --max-file-size BYTES   larger files are not checked (default 10 MiB)\n";

int dl_cmd_lsp(int argc, char **argv) {
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(lsp_usage, stdout);
            return 0;
        }
    DlLspOptions options;
    char *error = NULL;
    if (!dl_lsp_options_parse((const char *const *)argv, (size_t)argc, &options, &error)) {
        fprintf(stderr, "devlint: error: %s\nRun `devlint lsp --help` for usage.\n", error);
        free(error);
        return 2;
    }
    return dl_lsp_serve(STDIN_FILENO, STDOUT_FILENO, &options);
}
