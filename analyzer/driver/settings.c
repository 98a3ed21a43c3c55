/* Per-file settings from configuration and command line (see settings.h). Precedence, as in
 * ruff: the config's `select` (or the default rules) + `extend-select` - `ignore`; a command
 * line --select replaces that set, --ignore removes from it; `per-file-ignores` whose pattern
 * matches the file (relative to the config's directory) remove last. */
#include "driver/settings.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/files.h"
#include "driver/selection.h"
#include "rules/rule.h"

typedef struct LoadedConfig {
    char *path;
    DlConfig config;
    bool ok;
    char *error;
} LoadedConfig;


struct DlSettingsContext {
    DlSettingsOptions opts;
    LoadedConfig *configs;
    size_t config_count, config_cap;
    DlSettings **files; /* one per call (never moved: callers keep the pointers) */
    size_t file_count, file_cap;
    DlConfigFinder *finder;
};

DlSettingsContext *dl_settings_new(const DlSettingsOptions *opts) {
    DlSettingsContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx) abort();
    ctx->opts = *opts;
    return ctx;
}

void dl_settings_free(DlSettingsContext *ctx) {
    if (!ctx) return;
    for (size_t i = 0; i < ctx->config_count; i++) {
        free(ctx->configs[i].path);
        free(ctx->configs[i].error);
        if (ctx->configs[i].ok) dl_config_free(&ctx->configs[i].config);
    }
    for (size_t i = 0; i < ctx->file_count; i++) free(ctx->files[i]);
    free(ctx->configs);
    free(ctx->files);
    dl_config_finder_free(ctx->finder);
    free(ctx);
}

static char *dup_printf_error(const char *path, int line, const char *what, const char *sel) {
    size_t n = strlen(path) + strlen(what) + strlen(sel) + 64;
    char *e = malloc(n);
    if (!e) abort();
    snprintf(e, n, "%s:%d: unknown rule `%s` in `%s` (see `devlint rules`)", path, line, sel, what);
    return e;
}

/* Every selector of a config must name rules (or be a code prefix). */
static bool check_selectors(const DlConfig *c, char **error) {
    struct {
        char **items;
        int *lines;
        size_t count;
        const char *key;
    } lists[] = {{c->select, c->select_lines, c->select_count, "select"},
                 {c->ignore, c->ignore_lines, c->ignore_count, "ignore"},
                 {c->extend_select, c->extend_select_lines, c->extend_select_count, "extend-select"}};
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
        for (size_t i = 0; i < lists[l].count; i++) {
            const char *one[1] = {lists[l].items[i]};
            bool scratch[DL_MAX_RULES];
            char *e = NULL;
            if (!dl_selection_resolve(one, 1, NULL, 0, scratch, &e)) {
                free(e);
                *error = dup_printf_error(c->path, lists[l].lines ? lists[l].lines[i] : 0,
                                          lists[l].key, lists[l].items[i]);
                return false;
            }
        }
    for (size_t i = 0; i < c->severity_count; i++) {
        bool hit = false;
        for (size_t r = 0; r < dl_rule_count; r++)
            hit |= dl_selector_matches(c->severities[i].selector, dl_rules[r]->code, dl_rules[r]->name);
        if (!hit) {
            *error = dup_printf_error(c->path, c->severities[i].line, "severity",
                                      c->severities[i].selector);
            return false;
        }
    }
    return true;
}

static LoadedConfig *load_config(DlSettingsContext *ctx, const char *path) {
    for (size_t i = 0; i < ctx->config_count; i++)
        if (strcmp(ctx->configs[i].path, path) == 0) return &ctx->configs[i];
    if (ctx->config_count == ctx->config_cap) {
        ctx->config_cap = ctx->config_cap ? ctx->config_cap * 2 : 4;
        ctx->configs = realloc(ctx->configs, ctx->config_cap * sizeof *ctx->configs);
        if (!ctx->configs) abort();
    }
    LoadedConfig *lc = &ctx->configs[ctx->config_count++];
    memset(lc, 0, sizeof *lc);
    lc->path = strdup(path);
    bool found = false;
    lc->ok = dl_config_load(path, &lc->config, &found, &lc->error);
    if (lc->ok && !check_selectors(&lc->config, &lc->error)) {
        dl_config_free(&lc->config);
        lc->ok = false;
    }
    return lc;
}

/* The file's path relative to the config's directory ("tests/test_a.py"). */
static const char *relative_to(const char *dir, const char *path, char *buf, size_t size) {
    if (!realpath(path, buf)) snprintf(buf, size, "%s", path);
    size_t n = strlen(dir);
    if (strncmp(buf, dir, n) == 0 && buf[n] == '/') return buf + n + 1;
    return buf;
}

static void resolve(const DlSettingsOptions *o, const DlConfig *c, const char *path,
                    DlSettings *s) {
    memset(s, 0, sizeof *s);
    s->config = c;
    char *error = NULL;
    if (o->select_count) {
        dl_selection_resolve(o->select, o->select_count, NULL, 0, s->enabled, &error);
    } else if (c) {
        dl_selection_resolve(c->has_select ? (const char *const *)c->select : NULL,
                             c->has_select ? c->select_count : 0, NULL, 0, s->enabled, &error);
        free(error);
        error = NULL;
        bool extra[DL_MAX_RULES];
        if (c->extend_select_count &&
            dl_selection_resolve((const char *const *)c->extend_select, c->extend_select_count,
                                 NULL, 0, extra, &error))
            for (size_t r = 0; r < dl_rule_count; r++) s->enabled[r] |= extra[r];
        for (size_t i = 0; i < c->ignore_count; i++)
            for (size_t r = 0; r < dl_rule_count; r++)
                if (dl_selector_matches(c->ignore[i], dl_rules[r]->code, dl_rules[r]->name))
                    s->enabled[r] = false;
    } else {
        dl_selection_resolve(NULL, 0, NULL, 0, s->enabled, &error);
    }
    free(error);
    for (size_t i = 0; i < o->ignore_count; i++) { /* entries may hold comma lists */
        bool off[DL_MAX_RULES];
        char *e = NULL;
        const char *one[1] = {o->ignore[i]};
        if (dl_selection_resolve(one, 1, NULL, 0, off, &e))
            for (size_t r = 0; r < dl_rule_count; r++)
                if (off[r]) s->enabled[r] = false;
        free(e);
    }
    if (!c) return;
    char buf[PATH_MAX];
    const char *rel = relative_to(c->directory, path, buf, sizeof buf);
    for (size_t i = 0; i < c->per_file_ignore_count; i++) {
        const DlPerFileIgnore *p = &c->per_file_ignores[i];
        if (!dl_glob_match_path(p->pattern, rel)) continue;
        for (size_t k = 0; k < p->code_count; k++)
            for (size_t r = 0; r < dl_rule_count; r++)
                if (dl_selector_matches(p->codes[k], dl_rules[r]->code, dl_rules[r]->name))
                    s->enabled[r] = false;
    }
    for (size_t i = 0; i < c->severity_count; i++)
        for (size_t r = 0; r < dl_rule_count; r++)
            if (dl_selector_matches(c->severities[i].selector, dl_rules[r]->code, dl_rules[r]->name))
                s->severity_override[r] = 1 + (int)c->severities[i].severity;
    s->device_names = (const char *const *)c->device_names;
    s->device_name_count = c->device_name_count;
    for (size_t i = 0; i < c->exclude_count && !s->excluded; i++)
        s->excluded = dl_glob_match_path(c->exclude[i], rel);
    for (size_t i = 0; i < c->extend_exclude_count && !s->excluded; i++)
        s->excluded = dl_glob_match_path(c->extend_exclude[i], rel);
}

const DlSettings *dl_settings_for(DlSettingsContext *ctx, const char *path, char **error) {
    const DlConfig *config = NULL;
    if (!ctx->opts.isolated) {
        if (!ctx->finder) ctx->finder = dl_config_finder_new();
        char *found = ctx->opts.config_path ? strdup(ctx->opts.config_path)
                                            : dl_config_finder_find_for_file(ctx->finder, path);
        if (found) {
            LoadedConfig *lc = load_config(ctx, found);
            free(found);
            if (!lc->ok) {
                *error = strdup(lc->error ? lc->error : "bad configuration");
                return NULL;
            }
            /* a pyproject.toml without [tool.devlint] (given with --config) means defaults */
            config = lc->config.path ? &lc->config : NULL;
        }
    }
    if (ctx->file_count == ctx->file_cap) {
        ctx->file_cap = ctx->file_cap ? ctx->file_cap * 2 : 64;
        ctx->files = realloc(ctx->files, ctx->file_cap * sizeof *ctx->files);
        if (!ctx->files) abort();
    }
    DlSettings *settings = malloc(sizeof *settings);
    if (!settings) abort();
    ctx->files[ctx->file_count++] = settings;
    resolve(&ctx->opts, config, path, settings);
    return settings;
}

void dl_settings_print(FILE *out, const char *path, const DlSettings *s) {
    fprintf(out, "file: %s\n", path);
    fprintf(out, "config: %s\n", s->config && s->config->path ? s->config->path : "(none: defaults)");
    if (s->excluded) fprintf(out, "excluded: yes (an exclude pattern of the config matches)\n");
    fputs("rules:\n", out);
    for (size_t r = 0; r < dl_rule_count; r++) {
        if (!s->enabled[r]) continue;
        DlSeverity sev = s->severity_override[r] ? (DlSeverity)(s->severity_override[r] - 1)
                                                 : dl_rules[r]->severity;
        fprintf(out, "  %s  %-30s %s%s\n", dl_rules[r]->code, dl_rules[r]->name,
                dl_severity_name(sev), s->severity_override[r] ? " (configured)" : "");
    }
    fputs("device-names:", out);
    for (size_t i = 0; i < s->device_name_count; i++) fprintf(out, " %s", s->device_names[i]);
    fputs(s->device_name_count ? "\n" : " (none)\n", out);
}
