/* Rule selection (see selection.h). */
#include "driver/selection.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/rule.h"

bool dl_selector_matches(const char *sel, const char *code, const char *name) {
    if (strcasecmp(sel, "ALL") == 0) return true;
    if (strcmp(sel, name) == 0) return true;
    size_t n = strlen(sel);
    return n >= 2 && n <= strlen(code) && strncasecmp(sel, code, n) == 0;
}

typedef bool (*SelectorVisit)(const char *selector, void *ctx);

/* Splits every entry at commas, trims spaces, and calls visit for each non-empty selector. */
static bool each_selector(const char *const *list, size_t count, SelectorVisit visit, void *ctx) {
    for (size_t i = 0; i < count; i++) {
        const char *p = list[i];
        while (*p) {
            while (*p == ',' || isspace((unsigned char)*p)) p++;
            size_t n = strcspn(p, ",");
            while (n && isspace((unsigned char)p[n - 1])) n--;
            if (n) {
                char buf[128];
                if (n >= sizeof buf) n = sizeof buf - 1;
                memcpy(buf, p, n);
                buf[n] = '\0';
                if (!visit(buf, ctx)) return false;
            }
            p += strcspn(p, ",");
        }
    }
    return true;
}

/* "DL2", "DL301": a code or prefix of the catalogue's form, valid even where no rule of that
 * family exists yet (a config written for a newer devlint must not break an older one). */
static bool looks_like_code(const char *sel) {
    if (strncasecmp(sel, "DL", 2) != 0) return false;
    size_t digits = strspn(sel + 2, "0123456789");
    return sel[2 + digits] == '\0' && digits <= 3;
}

typedef struct Apply {
    bool *enabled;
    bool value;
    char **error;
    const char *option;
} Apply;

static bool apply(const char *sel, void *arg) {
    Apply *a = arg;
    bool matched = false;
    for (size_t r = 0; r < dl_rule_count; r++)
        if (dl_selector_matches(sel, dl_rules[r]->code, dl_rules[r]->name)) {
            a->enabled[r] = a->value;
            matched = true;
        }
    if (!matched && !looks_like_code(sel)) {
        char *msg = malloc(strlen(sel) + 96);
        if (!msg) abort();
        sprintf(msg, "unknown rule selector `%s` in %s (see `devlint rules`)", sel, a->option);
        *a->error = msg;
    }
    return matched || looks_like_code(sel);
}

bool dl_selection_resolve(const char *const *select, size_t select_count,
                          const char *const *ignore, size_t ignore_count, bool *enabled,
                          char **error) {
    *error = NULL;
    for (size_t r = 0; r < dl_rule_count; r++) enabled[r] = select_count ? false : dl_rules[r]->default_enabled;
    Apply on = {enabled, true, error, "--select"};
    if (!each_selector(select, select_count, apply, &on)) return false;
    Apply off = {enabled, false, error, "--ignore"};
    return each_selector(ignore, ignore_count, apply, &off);
}
