/* Project configuration: `[tool.devlint]` in pyproject.toml or a standalone devlint.toml,
 * found by walking up from each checked file (the nearest wins, like ruff), parsed with the
 * tree-sitter TOML grammar. A DlConfig holds what one file says; resolving it against the rule
 * registry for one checked file gives its settings (which rules run, at which severity). */
#ifndef DL_CONFIG_H
#define DL_CONFIG_H
#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"

typedef struct DlPerFileIgnore {
    char *pattern; /* glob, relative to the config file's directory ("tests/*", "**/conftest.py") */
    char **codes;  /* selectors, as for --ignore */
    size_t code_count;
} DlPerFileIgnore;

typedef struct DlSeverityOverride {
    char *selector; /* "DL201", "DL2", "host-sync-in-loop" */
    DlSeverity severity;
} DlSeverityOverride;

typedef struct DlConfig {
    char *path;      /* the file it came from; NULL for the defaults */
    char *directory; /* that file's directory: patterns are relative to it */
    bool has_select; /* `select` given (replaces the default set) */
    char **select, **ignore, **extend_select, **exclude, **extend_exclude, **device_names;
    size_t select_count, ignore_count, extend_select_count, exclude_count, extend_exclude_count,
        device_name_count;
    DlPerFileIgnore *per_file_ignores;
    size_t per_file_ignore_count;
    DlSeverityOverride *severities;
    size_t severity_count;
} DlConfig;

/* Parses a config file: pyproject.toml (only its [tool.devlint] table; a pyproject without one
 * gives an empty config and *found=false) or any other name (devlint.toml: the whole file is
 * the table). Keys: select, ignore, extend-select, exclude, extend-exclude (arrays of
 * strings), per-file-ignores (table: pattern = array of strings), severity (table: selector =
 * "error"|"warning"|"info"), device-names (array of strings). On a bad file returns false and
 * sets *error (malloc'ed) to "PATH:LINE: KEY: reason" (unknown key, wrong type, bad severity,
 * TOML syntax error at line N, unreadable file). */
bool dl_config_load(const char *path, DlConfig *out, bool *found, char **error);

/* The nearest config for a checked file: walks up from the file's directory to the root,
 * returning the first `devlint.toml`, or `pyproject.toml` that has a [tool.devlint] table
 * (devlint.toml wins within one directory). NULL if none (malloc'ed path otherwise). */
char *dl_config_find(const char *file_path);

void dl_config_free(DlConfig *c);

#endif
