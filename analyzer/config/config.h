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
    char *pattern; /* glob relative to the config file's directory, matched as by --exclude */
    char **codes;  /* selectors, as for --ignore */
    size_t code_count;
    int line;        /* line of the pattern's key */
    int *code_lines; /* code_lines[i]: line of codes[i] */
} DlPerFileIgnore;

typedef struct DlSeverityOverride {
    char *selector; /* "DL201", "DL2", "host-sync-in-loop" */
    DlSeverity severity;
    int line; /* line of the selector's key */
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
    /* Where each string came from (1-based lines in `path`), parallel to the arrays above, so
     * the caller can report an unknown selector as "PATH:LINE: ...". */
    int *select_lines, *ignore_lines, *extend_select_lines, *exclude_lines, *extend_exclude_lines,
        *device_name_lines;
} DlConfig;

/* Parses a config file: pyproject.toml (only its [tool.devlint] table; a pyproject without one
 * gives an empty config and *found=false) or any other name (devlint.toml: the whole file is
 * the table). Keys: select, ignore, extend-select, exclude, extend-exclude (arrays of
 * strings), per-file-ignores (table: pattern = array of strings; inline or
 * [tool.devlint.per-file-ignores]), severity (table: selector = "error"|"warning"|"info"),
 * device-names (array of strings). Selectors are not checked against the registry here.
 * Returns true with *found=true and `out` filled, true with *found=false and `out` zeroed, or
 * false with `out` zeroed and *error (malloc'ed) set to one of:
 *   PATH:LINE: unknown key `foo` in [tool.devlint]        (devlint.toml: "in devlint.toml")
 *   PATH:LINE: `select` must be an array of strings       (and the other array keys)
 *   PATH:LINE: `per-file-ignores` must be a table         (also `severity`, `tool.devlint`)
 *   PATH:LINE: per-file-ignores for `PATTERN` must be an array of strings
 *   PATH:LINE: severity for `DL201` must be "error", "warning" or "info"
 *   PATH:LINE: invalid TOML: syntax error                 (or: duplicate key `a.b`,
 *                                                           cannot redefine `a`, ...)
 *   PATH: cannot read: No such file or directory
 * LINE is the line of the offending key. `found` and `error` may be NULL. */
bool dl_config_load(const char *path, DlConfig *out, bool *found, char **error);

/* The nearest config for a checked file: walks up from the file's directory to the root,
 * returning the first `devlint.toml`, or `pyproject.toml` that has a [tool.devlint] table
 * (devlint.toml wins within one directory). NULL if none (malloc'ed path otherwise). The path
 * is absolute and lexically normalised ("." and ".." folded, symlinks kept). A directory
 * argument is searched from itself. A pyproject.toml that is not valid TOML is returned, so
 * that loading it reports the error instead of silently skipping the user's config. */
char *dl_config_find(const char *file_path);

/* dl_config_find that remembers each directory's answer, for a run that asks for every file of
 * a tree: a pyproject.toml without [tool.devlint] is read and parsed once, not once for every
 * file under it. The answers hold while no config file is created, edited or removed: the
 * language server starts a new finder then (a new DlSettingsContext). Not thread-safe. */
typedef struct DlConfigFinder DlConfigFinder;
DlConfigFinder *dl_config_finder_new(void);
void dl_config_finder_free(DlConfigFinder *finder);
char *dl_config_finder_find(DlConfigFinder *finder, const char *file_path);
/* The same for a path known to name a file (one the walk found, or an editor's document), from
 * its directory without asking the disk whether the path is one: a run asks once per file. */
char *dl_config_finder_find_for_file(DlConfigFinder *finder, const char *file_path);

void dl_config_free(DlConfig *c);

#endif
