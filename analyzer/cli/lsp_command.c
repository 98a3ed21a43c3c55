/* `devlint lsp` (being written: see issue 7). */
#include <stdio.h>

#include "cli/commands.h"

int dl_cmd_lsp(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fputs("devlint: error: the language server is not part of this build yet\n", stderr);
    return 2;
}
