/* The settings one checked file runs with: its configuration file (the nearest devlint.toml or
 * pyproject.toml [tool.devlint], or --config, or none with --isolated) resolved against the
 * rule registry and the command line: which rules run, at which severity, which extra names
 * hold devices. Configs are loaded once per file path and shared by the files they govern. */
#ifndef DL_SETTINGS_H
#define DL_SETTINGS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"

enum { DL_MAX_RULES = 64 };

typedef struct DlSettings {
    bool enabled[DL_MAX_RULES];          /* indexed like dl_rules[] */
    int severity_override[DL_MAX_RULES]; /* 0: the rule's own; else 1 + DlSeverity */
    const char *const *device_names;     /* `device-names` of the config (borrowed) */
    size_t device_name_count;
    const DlConfig *config;              /* NULL: defaults only */
    bool excluded;                       /* the config's exclude patterns match the file */
} DlSettings;

typedef struct DlSettingsContext DlSettingsContext;

/* Command-line inputs: --select/--ignore (override the config's), --config, --isolated. */
typedef struct DlSettingsOptions {
    const char *const *select;
    size_t select_count;
    const char *const *ignore;
    size_t ignore_count;
    const char *config_path; /* --config FILE: used for every file */
    bool isolated;           /* --isolated: no configuration file at all */
} DlSettingsOptions;

DlSettingsContext *dl_settings_new(const DlSettingsOptions *opts);
void dl_settings_free(DlSettingsContext *ctx);

/* Settings for `path` (a file to check). On a bad configuration (unreadable, invalid TOML,
 * unknown key or rule) returns NULL with *error (malloc'ed, "PATH:LINE: ..."). The result
 * lives as long as `ctx`. */
const DlSettings *dl_settings_for(DlSettingsContext *ctx, const char *path, char **error);

/* `devlint --show-settings FILE`: the resolved settings, readable. */
void dl_settings_print(FILE *out, const char *path, const DlSettings *s);

#endif
