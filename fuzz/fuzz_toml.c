/* Fuzz target: TOML -> the TOML reader (dl_toml_parse), the config loader as both file kinds
 * (devlint.toml: the whole file; pyproject.toml: its [tool.devlint] table) and the settings a
 * checked file gets from it. dl_config_load reads a path, so the input is written to a private
 * temporary directory first.
 *
 * Properties beyond "no crash, no leak, no undefined behaviour":
 *   - every failure comes with a reason (a line for the reader, "PATH:LINE: ..." or
 *     "PATH: ..." for the loader). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "config/config.h"
#include "config/toml.h"
#include "driver/settings.h"
#include "fuzz_common.h"

static void fuzz_config(const char *name, const uint8_t *data, size_t size) {
    char path[128];
    fuzz_write_file(name, data, size, path, sizeof path);
    DlConfig config;
    bool found = false;
    char *error = NULL;
    if (dl_config_load(path, &config, &found, &error)) {
        dl_config_free(&config);
    } else {
        FUZZ_ASSERT(error && strncmp(error, path, strlen(path)) == 0,
                    "dl_config_load failed without a \"PATH...\" reason: %s",
                    error ? error : "(none)");
        free(error);
        error = NULL;
    }
    /* the settings of a file governed by it: selectors resolved, globs matched */
    char file[160];
    snprintf(file, sizeof file, "%s/sub/model.py", fuzz_tmpdir());
    DlSettingsOptions so = {.config_path = path};
    DlSettingsContext *sc = dl_settings_new(&so);
    const DlSettings *s = dl_settings_for(sc, file, &error);
    if (s) dl_settings_print(fuzz_devnull(), file, s);
    free(error);
    dl_settings_free(sc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    DlTomlDoc doc;
    DlTomlError err;
    if (!dl_toml_parse(size ? (const char *)data : "", size, &doc, &err))
        FUZZ_ASSERT(err.line >= 1 && err.reason[0], "dl_toml_parse failed without a reason");
    dl_toml_free(&doc);
    fuzz_config("devlint.toml", data, size);
    fuzz_config("pyproject.toml", data, size);
    return 0;
}
