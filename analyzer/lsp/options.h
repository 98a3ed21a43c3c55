/* What the language server checks with: the options of `devlint lsp` and of the editor's
 * `devlint.args` setting (the same words either way): --select, --ignore, --config,
 * --isolated, --jobs, --max-file-size. */
#ifndef DL_LSP_OPTIONS_H
#define DL_LSP_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>

typedef struct DlLspOptions {
    char **select, **ignore; /* owned */
    size_t select_count, ignore_count;
    char *config_path; /* owned; NULL: each file's nearest configuration */
    bool isolated;
    int jobs;              /* 0: all cores */
    size_t max_file_bytes; /* 0: the default */
} DlLspOptions;

/* Parses `args` into `out` (zeroed first). On an unknown option, a missing value or an unknown
 * rule returns false with *error (malloc'ed) and leaves `out` empty. */
bool dl_lsp_options_parse(const char *const *args, size_t count, DlLspOptions *out, char **error);
void dl_lsp_options_free(DlLspOptions *o);

#endif
