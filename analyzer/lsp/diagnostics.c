/* Checking and reporting: one workspace check files each finding under the open document (or
 * notebook cell) it is in, and the client hears what changed, pushed or pulled. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/source.h"
#include "lsp/server.h"
#include "lsp/uri.h"
#include "rules/rule.h"

/* -------------------------------------------------------------- one finding as a Diagnostic */

static int protocol_severity(DlSeverity s) {
    return s == DL_SEV_ERROR ? 1 : s == DL_SEV_WARNING ? 2 : 3;
}

static cJSON *diagnostic_in(const char *text, size_t len, const DlLspLines *lines,
                            const DlDiag *d) {
    long sl, sc, el, ec;
    dl_lsp_position(lines, text, len, d->line, d->column, &sl, &sc);
    dl_lsp_position(lines, text, len, d->end_line, d->end_column, &el, &ec);
    if (el < sl || (el == sl && ec < sc)) {
        el = sl;
        ec = sc;
    }
    cJSON *j = cJSON_CreateObject();
    if (!j) abort();
    cJSON_AddItemToObject(j, "range", dl_json_make_range(sl, sc, el, ec));
    cJSON_AddNumberToObject(j, "severity", protocol_severity(dl_diag_severity(d)));
    cJSON_AddStringToObject(j, "code", d->rule->code);
    char href[sizeof DL_LSP_DOCS_URL + 16];
    size_t n = (size_t)snprintf(href, sizeof href, "%s", DL_LSP_DOCS_URL);
    for (const char *c = d->rule->code; *c && n + 1 < sizeof href; c++)
        href[n++] = (char)tolower((unsigned char)*c);
    href[n] = '\0';
    cJSON *desc = cJSON_AddObjectToObject(j, "codeDescription");
    cJSON_AddStringToObject(desc, "href", href);
    cJSON_AddStringToObject(j, "source", "devlint");
    cJSON_AddStringToObject(j, "message", d->message);
    cJSON *data = cJSON_AddObjectToObject(j, "data");
    cJSON_AddStringToObject(data, "name", d->rule->name);
    cJSON_AddBoolToObject(data, "fixable", d->fix != NULL);
    return j;
}

cJSON *dl_lsp_diagnostic(const DlLspDoc *doc, const DlDiag *d) {
    return diagnostic_in(doc->text, doc->len, &doc->lines, d);
}

static cJSON *doc_diagnostics(const DlLspDoc *doc) {
    cJSON *items = cJSON_CreateArray();
    if (!items) abort();
    for (size_t i = 0; i < doc->found.diag_count; i++)
        cJSON_AddItemToArray(items, dl_lsp_diagnostic(doc, &doc->found.diags[i]));
    return items;
}

/* -------------------------------------------------------------- filing the findings */

/* The open document a finding is in: by path, or by notebook path and cell. */
static DlLspDoc *home_of(DlLspServer *s, const DlDiag *d) {
    for (size_t i = 0; i < s->docs.notebooks.len; i++) {
        DlLspNotebook *nb = s->docs.notebooks.items[i];
        const char *path = nb->path ? nb->path : nb->uri;
        if (strcmp(path, d->path) != 0) continue;
        if (d->cell < 1 || (size_t)d->cell > nb->cells.len) return NULL;
        return nb->cells.items[d->cell - 1];
    }
    for (size_t i = 0; i < s->docs.docs.len; i++) {
        DlLspDoc *doc = s->docs.docs.items[i];
        if (doc->notebook || !doc->python) continue;
        if (strcmp(doc->path ? doc->path : doc->uri, d->path) == 0) return doc;
    }
    return NULL;
}

static const char *doc_check_path(const DlLspDoc *doc) {
    if (doc->notebook) return doc->notebook->path ? doc->notebook->path : doc->notebook->uri;
    return doc->path ? doc->path : doc->uri;
}

static bool same_findings(const DlResult *a, const DlResult *b) {
    if (a->diag_count != b->diag_count) return false;
    for (size_t i = 0; i < a->diag_count; i++) {
        const DlDiag *x = &a->diags[i], *y = &b->diags[i];
        if (x->rule != y->rule || x->line != y->line || x->column != y->column ||
            x->end_line != y->end_line || x->end_column != y->end_column ||
            x->severity_override != y->severity_override || strcmp(x->message, y->message) != 0 ||
            (x->fix == NULL) != (y->fix == NULL))
            return false;
    }
    return true;
}

/* Records a file-level error ("syntax error ... at line 4") of a document; logs it once. */
static void set_error(DlLspDoc *doc, const char *error) {
    if (!error) {
        free(doc->error);
        doc->error = NULL;
        return;
    }
    if (doc->error && strcmp(doc->error, error) == 0) return;
    dl_lsp_log("%s: %s (its last findings stay until it can be checked again)", doc->uri, error);
    free(doc->error);
    doc->error = strdup(error);
}

static const char *error_for(const DlResult *all, const char *path) {
    for (size_t i = 0; i < all->error_count; i++)
        if (strcmp(all->errors[i].path, path) == 0) return all->errors[i].message;
    return NULL;
}

static void show_config_error(DlLspServer *s, char *error) {
    if (!error) {
        free(s->config_error);
        s->config_error = NULL;
        return;
    }
    if (!s->config_error || strcmp(s->config_error, error) != 0) {
        dl_lsp_log("configuration error: %s", error);
        size_t n = strlen(error) + 64;
        char *msg = malloc(n);
        if (!msg) abort();
        snprintf(msg, n, "devlint: %s", error);
        dl_lsp_show(s, 1, msg);
        free(msg);
    }
    free(s->config_error);
    s->config_error = error;
}

static double elapsed_ms(const struct timespec *t0) {
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

void dl_lsp_check(DlLspServer *s) {
    if (!s->dirty) return;
    s->dirty = false;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    DlResult all = {0};
    char *config_error = NULL;
    if (s->enabled) dl_lsp_workspace_check(&s->ws, &s->docs, &all, &config_error);
    show_config_error(s, config_error);

    size_t ndocs = s->docs.docs.len;
    DlResult *mine = calloc(ndocs ? ndocs : 1, sizeof *mine);
    if (!mine) abort();
    DlResult others = {0};
    for (size_t i = 0; i < all.diag_count; i++) {
        DlDiag *d = &all.diags[i];
        DlLspDoc *home = home_of(s, d);
        size_t k = 0;
        while (home && k < ndocs && s->docs.docs.items[k] != home)
            k++;
        if (home && k < ndocs)
            dl_result_add_diag(&mine[k], *d);
        else if (s->workspace_mode && d->cell == 0)
            dl_result_add_diag(&others, *d);
        else
            dl_diag_free(d);
        memset(d, 0, sizeof *d);
    }
    for (size_t k = 0; k < ndocs; k++) {
        DlLspDoc *doc = s->docs.docs.items[k];
        const char *error = doc->python ? error_for(&all, doc_check_path(doc)) : NULL;
        set_error(doc, error);
        if (error) { /* keep the last findings: a half-typed line should not blank them */
            dl_result_free(&mine[k]);
            continue;
        }
        if (doc->found_version == doc->version && same_findings(&doc->found, &mine[k])) {
            dl_result_free(&doc->found); /* same findings: keep the id, take the new fixes */
            doc->found = mine[k];
            continue;
        }
        dl_lsp_doc_set_found(doc, &mine[k], doc->version);
    }
    free(mine);
    if (s->workspace_mode) {
        dl_result_free(&s->others);
        s->others = others;
        s->others_due = true;
    }
    s->last_files_checked = all.files_checked;
    dl_result_free(&all);
    dl_lsp_log("checked %zu file%s in %.1f ms", s->last_files_checked,
               s->last_files_checked == 1 ? "" : "s", elapsed_ms(&t0));
}

/* -------------------------------------------------------------- telling the client */

static void publish(DlLspServer *s, const char *uri, long version, cJSON *items) {
    cJSON *params = cJSON_CreateObject();
    if (!params) abort();
    cJSON_AddStringToObject(params, "uri", uri);
    if (version >= 0) cJSON_AddNumberToObject(params, "version", (double)version);
    cJSON_AddItemToObject(params, "diagnostics", items);
    dl_lsp_notify(s, "textDocument/publishDiagnostics", params);
}

void dl_lsp_unpublish(DlLspServer *s, const char *path) {
    for (size_t i = 0; i < s->published.len; i++) {
        DlLspPublished *p = &s->published.items[i];
        if (strcmp(p->path, path) != 0) continue;
        publish(s, p->uri, -1, cJSON_CreateArray());
        free(p->uri);
        free(p->path);
        s->published.items[i] = s->published.items[--s->published.len];
        return;
    }
}

static bool is_open(const DlLspServer *s, const char *path) {
    for (size_t i = 0; i < s->docs.docs.len; i++) {
        const DlLspDoc *doc = s->docs.docs.items[i];
        if (doc->path && strcmp(doc->path, path) == 0) return true;
    }
    return false;
}

/* Workspace mode: the findings of unopened files, grouped by file (`others` is sorted). */
static void publish_others(DlLspServer *s) {
    s->others_due = false;
    DL_VEC(char *) now = {0};
    for (size_t i = 0; i < s->others.diag_count;) {
        const char *path = s->others.diags[i].path;
        size_t j = i;
        while (j < s->others.diag_count && strcmp(s->others.diags[j].path, path) == 0)
            j++;
        DlSource src;
        if (!is_open(s, path) && dl_source_load(&src, path, 0, NULL)) {
            DlLspLines lines;
            dl_lsp_lines_build(&lines, src.text, src.len);
            cJSON *items = cJSON_CreateArray();
            for (size_t k = i; k < j; k++)
                cJSON_AddItemToArray(items,
                                     diagnostic_in(src.text, src.len, &lines, &s->others.diags[k]));
            dl_lsp_lines_free(&lines);
            dl_source_free(&src);
            char *uri = dl_lsp_path_to_uri(path);
            publish(s, uri, -1, items);
            bool known = false;
            for (size_t p = 0; p < s->published.len && !known; p++)
                known = strcmp(s->published.items[p].path, path) == 0;
            if (!known) {
                DlLspPublished p = {uri, strdup(path)};
                dl_vec_push(&s->published, p);
            } else {
                free(uri);
            }
            dl_vec_push(&now, (char *)path);
        }
        i = j;
    }
    for (size_t p = 0; p < s->published.len;) { /* files whose findings went away */
        bool still = false;
        for (size_t k = 0; k < now.len && !still; k++)
            still = strcmp(now.items[k], s->published.items[p].path) == 0;
        if (still) {
            p++;
            continue;
        }
        dl_lsp_unpublish(s, s->published.items[p].path); /* swaps the last one in here */
    }
    dl_vec_free(&now);
}

void dl_lsp_publish(DlLspServer *s, const DlLspDoc *except) {
    bool refresh = false;
    for (size_t i = 0; i < s->docs.docs.len; i++) {
        DlLspDoc *doc = s->docs.docs.items[i];
        if (doc->result_id == doc->sent_id || doc == except) continue;
        if (s->pull) {
            refresh = true;
            continue;
        }
        doc->sent_id = doc->result_id;
        publish(s, doc->uri, doc->found_version, doc_diagnostics(doc));
    }
    if (refresh && s->refresh) {
        for (size_t i = 0; i < s->docs.docs.len; i++) /* the client re-pulls what it shows */
            s->docs.docs.items[i]->sent_id = s->docs.docs.items[i]->result_id;
        dl_lsp_request(s, "workspace/diagnostic/refresh", NULL);
    }
    if (s->others_due) publish_others(s);
}

cJSON *dl_lsp_pull_diagnostics(DlLspServer *s, const cJSON *params, int *code, const char **why) {
    const char *uri = dl_json_string(dl_json_object(params, "textDocument"), "uri");
    if (!uri) {
        *code = DL_RPC_INVALID_PARAMS;
        *why = "textDocument/diagnostic needs textDocument.uri";
        return NULL;
    }
    dl_lsp_check(s);
    DlLspDoc *doc = dl_lsp_docs_find(&s->docs, uri);
    cJSON *report = cJSON_CreateObject();
    if (!report) abort();
    if (!doc) {
        cJSON_AddStringToObject(report, "kind", "full");
        cJSON_AddItemToObject(report, "items", cJSON_CreateArray());
        return report;
    }
    char id[32];
    snprintf(id, sizeof id, "%lu", doc->result_id);
    const char *previous = dl_json_string(params, "previousResultId");
    doc->sent_id = doc->result_id;
    dl_lsp_publish(s, doc);
    bool unchanged = previous && strcmp(previous, id) == 0;
    cJSON_AddStringToObject(report, "kind", unchanged ? "unchanged" : "full");
    cJSON_AddStringToObject(report, "resultId", id);
    if (!unchanged) cJSON_AddItemToObject(report, "items", doc_diagnostics(doc));
    return report;
}
