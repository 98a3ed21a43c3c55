/* `devlint run` (being written: see issue 6). */
#include <stdio.h>

#include "cli/commands.h"

int dl_cmd_run(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fputs("devlint: error: the runtime is not part of this build yet\n", stderr);
    return 2;
}
