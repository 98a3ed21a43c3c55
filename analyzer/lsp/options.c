/* Parsing the server's options (command line or editor setting). */
#include "lsp/options.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/selection.h"
#include "driver/settings.h"

__attribute__((format(printf, 2, 3))) static bool fail(char **error, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    *error = malloc((size_t)n + 1);
    if (!*error) abort();
    va_start(ap, fmt);
    vsnprintf(*error, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return false;
}

static char *xstrdup(const char *s) {
    char *c = strdup(s);
    if (!c) abort();
    return c;
}

static void push(char ***list, size_t *count, const char *value) {
    *list = realloc(*list, (*count + 1) * sizeof **list);
    if (!*list) abort();
    (*list)[(*count)++] = xstrdup(value);
}

/* "--name VALUE" or "--name=VALUE": the value (advancing *i), or NULL when it is missing. */
static const char *value_of(const char *const *args, size_t count, size_t *i, const char *name) {
    size_t n = strlen(name);
    if (strncmp(args[*i], name, n) == 0 && args[*i][n] == '=') return args[*i] + n + 1;
    if (strcmp(args[*i], name) != 0 || *i + 1 >= count) return NULL;
    return args[++*i];
}

static bool is(const char *arg, const char *name) {
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

static bool parse_one(const char *const *args, size_t count, size_t *i, DlLspOptions *o,
                      char **error) {
    const char *a = args[*i];
    const char *v = NULL;
    static const char *const valued[] = {"--select", "--ignore", "--config",
                                         "--jobs",   "-j",       "--max-file-size"};
    for (size_t k = 0; k < sizeof valued / sizeof *valued; k++) {
        if (!is(a, valued[k])) continue;
        v = value_of(args, count, i, valued[k]);
        if (!v) return fail(error, "option %s needs a value", valued[k]);
        if (k == 0) push(&o->select, &o->select_count, v);
        if (k == 1) push(&o->ignore, &o->ignore_count, v);
        if (k == 2) {
            free(o->config_path);
            o->config_path = xstrdup(v);
        }
        if (k == 3 || k == 4) {
            char *end;
            long n = strtol(v, &end, 10);
            if (!*v || *end || n < 1 || n > 1024)
                return fail(error, "--jobs needs a whole number from 1 to 1024, not `%s`", v);
            o->jobs = (int)n;
        }
        if (k == 5) {
            char *end;
            unsigned long long n = strtoull(v, &end, 10);
            if (!*v || *end || n == 0)
                return fail(error, "--max-file-size needs a positive number of bytes, not `%s`", v);
            o->max_file_bytes = (size_t)n;
        }
        return true;
    }
    if (strcmp(a, "--isolated") == 0) {
        o->isolated = true;
        return true;
    }
    if (strcmp(a, "--stdio") == 0) return true; /* what vscode-languageclient adds for stdio */
    return fail(error, "unknown option `%s` for `devlint lsp`", a);
}

bool dl_lsp_options_parse(const char *const *args, size_t count, DlLspOptions *out, char **error) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < count; i++) {
        if (!args[i] || !parse_one(args, count, &i, out, error)) {
            if (!args[i]) fail(error, "an option is not a string");
            dl_lsp_options_free(out);
            return false;
        }
    }
    bool enabled[DL_MAX_RULES];
    if (!dl_selection_resolve((const char *const *)out->select, out->select_count,
                              (const char *const *)out->ignore, out->ignore_count, enabled,
                              error)) {
        dl_lsp_options_free(out);
        return false;
    }
    return true;
}

void dl_lsp_options_free(DlLspOptions *o) {
    for (size_t i = 0; i < o->select_count; i++)
        free(o->select[i]);
    for (size_t i = 0; i < o->ignore_count; i++)
        free(o->ignore[i]);
    free(o->select);
    free(o->ignore);
    free(o->config_path);
    memset(o, 0, sizeof *o);
}
