/* Subcommands other than `check`, each in its own file: `devlint lsp` (the language server,
 * lsp_command.c) and `devlint run` (the instrumented runtime, run_command.c). Each takes the
 * arguments after its name and returns the process exit code. */
#ifndef DL_COMMANDS_H
#define DL_COMMANDS_H

int dl_cmd_lsp(int argc, char **argv);
int dl_cmd_run(int argc, char **argv);

#endif
