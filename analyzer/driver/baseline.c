/* Baselines and --diff-base (being written: see issue 8). */
#include "driver/baseline.h"

#include <string.h>

static bool not_yet(char **error) {
    *error = strdup("baselines and --diff-base are not part of this build yet");
    return false;
}

bool dl_baseline_write(const char *path, const DlResult *r, char **error) {
    (void)path;
    (void)r;
    return not_yet(error);
}

bool dl_baseline_filter(const char *path, DlResult *r, char **error) {
    (void)path;
    (void)r;
    return not_yet(error);
}

bool dl_diff_base_filter(const char *rev, DlResult *r, char **error) {
    (void)rev;
    (void)r;
    return not_yet(error);
}
