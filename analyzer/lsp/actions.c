/* Code actions: each finding's fix as a quick fix, "Ignore DL101 on this line" (a
 * `# devlint: ignore[DL101]` comment at the end of the finding's line), and, when asked for
 * source actions, every safe fix of the document at once (source.fixAll.devlint). */
#include <stdlib.h>
#include <string.h>

#include "core/source.h"
#include "fix/fix.h"
#include "lsp/server.h"
#include "rules/rule.h"

/* The document's line ending, which inserted "\n" become (the first one found; "\n" if none). */
static const char *line_ending(const DlLspDoc *doc) {
    for (size_t i = 0; i < doc->len; i++) {
        if (doc->text[i] == '\n') return "\n";
        if (doc->text[i] == '\r')
            return i + 1 < doc->len && doc->text[i + 1] == '\n' ? "\r\n" : "\r";
    }
    return "\n";
}

static char *with_line_endings(const char *text, const char *eol) {
    size_t n = 0, extra = strlen(eol) - 1;
    for (const char *p = text; *p; p++)
        n += *p == '\n' ? 1 + extra : 1;
    char *out = malloc(n + 1), *o = out;
    if (!out) abort();
    for (const char *p = text; *p; p++) {
        if (*p != '\n') {
            *o++ = *p;
            continue;
        }
        memcpy(o, eol, extra + 1);
        o += extra + 1;
    }
    *o = '\0';
    return out;
}

static cJSON *text_edit(cJSON *range, const char *text) {
    cJSON *e = cJSON_CreateObject();
    if (!e) abort();
    cJSON_AddItemToObject(e, "range", range);
    cJSON_AddStringToObject(e, "newText", text);
    return e;
}

/* A WorkspaceEdit of `edits` (TextEdit[]) on `doc`: versioned documentChanges when the client
 * takes them (an edit made for an older text is then refused), else plain changes. */
static cJSON *workspace_edit(const DlLspServer *s, const DlLspDoc *doc, cJSON *edits) {
    cJSON *we = cJSON_CreateObject();
    if (!we) abort();
    if (s->document_changes) {
        cJSON *changes = cJSON_AddArrayToObject(we, "documentChanges");
        cJSON *change = cJSON_CreateObject();
        cJSON *td = cJSON_AddObjectToObject(change, "textDocument");
        cJSON_AddStringToObject(td, "uri", doc->uri);
        cJSON_AddNumberToObject(td, "version", (double)doc->version);
        cJSON_AddItemToObject(change, "edits", edits);
        cJSON_AddItemToArray(changes, change);
    } else {
        cJSON *changes = cJSON_AddObjectToObject(we, "changes");
        cJSON_AddItemToObject(changes, doc->uri, edits);
    }
    return we;
}

static cJSON *action(const char *title, const char *kind, cJSON *diagnostic, bool preferred,
                     cJSON *edit) {
    cJSON *a = cJSON_CreateObject();
    if (!a) abort();
    cJSON_AddStringToObject(a, "title", title);
    cJSON_AddStringToObject(a, "kind", kind);
    if (diagnostic) {
        cJSON *list = cJSON_AddArrayToObject(a, "diagnostics");
        cJSON_AddItemToArray(list, diagnostic);
    }
    if (preferred) cJSON_AddBoolToObject(a, "isPreferred", true);
    cJSON_AddItemToObject(a, "edit", edit);
    return a;
}

static cJSON *fix_action(const DlLspServer *s, const DlLspDoc *doc, const DlDiag *d) {
    const char *eol = line_ending(doc);
    cJSON *edits = cJSON_CreateArray();
    for (size_t i = 0; i < d->fix->edit_count; i++) {
        const DlEdit *e = &d->fix->edits[i];
        long sl, sc, el, ec;
        dl_lsp_position(&doc->lines, doc->text, doc->len, e->line, e->column, &sl, &sc);
        dl_lsp_position(&doc->lines, doc->text, doc->len, e->end_line, e->end_column, &el, &ec);
        char *text = with_line_endings(e->text, eol);
        cJSON_AddItemToArray(edits, text_edit(dl_json_make_range(sl, sc, el, ec), text));
        free(text);
    }
    size_t n = strlen(d->fix->title) + 32;
    char *title = malloc(n);
    if (!title) abort();
    snprintf(title, n, "%s%s", d->fix->title, d->fix->unsafe ? " (unsafe fix)" : "");
    cJSON *a = action(title, "quickfix", dl_lsp_diagnostic(doc, d), !d->fix->unsafe,
                      workspace_edit(s, doc, edits));
    free(title);
    return a;
}

/* `# devlint: ignore[CODE]` at the end of the finding's line, or CODE added to the list of
 * one that is already there. NULL when the line ends in a backslash continuation, where no
 * comment can go. */
static cJSON *ignore_action(const DlLspServer *s, const DlLspDoc *doc, const DlDiag *d) {
    size_t start, end;
    size_t index = d->line < 1 ? 0 : (size_t)d->line - 1;
    dl_lsp_line_span(&doc->lines, doc->text, doc->len, index, &start, &end);
    const char *line = doc->text + start;
    size_t len = end - start, content = len;
    while (content > 0 && (line[content - 1] == ' ' || line[content - 1] == '\t'))
        content--;
    if (content > 0 && line[content - 1] == '\\') return NULL;
    static const char marker[] = "# devlint: ignore[";
    const char *close = NULL;
    for (size_t i = 0; i + sizeof marker - 1 <= len; i++)
        if (memcmp(line + i, marker, sizeof marker - 1) == 0)
            close = memchr(line + i, ']', len - i);
    char text[96];
    size_t insert_at = len;
    if (close) {
        insert_at = (size_t)(close - line);
        snprintf(text, sizeof text, ", %s", d->rule->code);
    } else {
        const char *pad = content == len ? "  " : len - content >= 2 ? "" : " ";
        snprintf(text, sizeof text, "%s# devlint: ignore[%s]", pad, d->rule->code);
    }
    long character = (long)dl_lsp_utf16_count(line, insert_at); /* a BOM counts, as it should */
    cJSON *edits = cJSON_CreateArray();
    cJSON_AddItemToArray(
        edits, text_edit(dl_json_make_range((long)index, character, (long)index, character), text));
    char title[64];
    snprintf(title, sizeof title, "Ignore %s on this line", d->rule->code);
    return action(title, "quickfix", dl_lsp_diagnostic(doc, d), false,
                  workspace_edit(s, doc, edits));
}

/* Every safe fix of the document applied at once, as one edit of the whole text. */
static cJSON *fix_all_action(const DlLspServer *s, const DlLspDoc *doc) {
    const DlFix **fixes = calloc(doc->found.diag_count ? doc->found.diag_count : 1, sizeof *fixes);
    if (!fixes) abort();
    size_t count = 0;
    for (size_t i = 0; i < doc->found.diag_count; i++)
        if (doc->found.diags[i].fix && !doc->found.diags[i].fix->unsafe)
            fixes[count++] = doc->found.diags[i].fix;
    cJSON *a = NULL;
    DlSource src;
    if (count && dl_source_from_bytes(&src, doc->uri, doc->text, doc->len, 0, NULL)) {
        size_t len, applied = 0;
        char *fixed = dl_fix_apply(&src, fixes, count, &len, &applied);
        if (applied) {
            long el, ec;
            dl_lsp_position(&doc->lines, doc->text, doc->len, (int)doc->lines.count, 1 << 30, &el,
                            &ec);
            cJSON *edits = cJSON_CreateArray();
            cJSON_AddItemToArray(edits, text_edit(dl_json_make_range(0, 0, el, ec), fixed));
            a = action("devlint: fix all safe problems", "source.fixAll.devlint", NULL, false,
                       workspace_edit(s, doc, edits));
        }
        free(fixed);
        dl_source_free(&src);
    }
    free(fixes);
    return a;
}

/* Does the client's `only` filter admit `kind`? (a filter entry admits its sub-kinds) */
static bool wanted(const cJSON *only, const char *kind) {
    if (!only) return strncmp(kind, "source", 6) != 0; /* source actions only when asked */
    const cJSON *k;
    cJSON_ArrayForEach(k, only) {
        if (!cJSON_IsString(k)) continue;
        size_t n = strlen(k->valuestring);
        if (strncmp(kind, k->valuestring, n) == 0 && (kind[n] == '\0' || kind[n] == '.'))
            return true;
    }
    return false;
}

cJSON *dl_lsp_code_actions(DlLspServer *s, const cJSON *params, int *code, const char **why) {
    const char *uri = dl_json_string(dl_json_object(params, "textDocument"), "uri");
    long sl, sc, el, ec;
    if (!uri || !dl_json_range(dl_json_object(params, "range"), &sl, &sc, &el, &ec)) {
        *code = DL_RPC_INVALID_PARAMS;
        *why = "textDocument/codeAction needs textDocument.uri and a range";
        return NULL;
    }
    const cJSON *only = dl_json_array(dl_json_object(params, "context"), "only");
    cJSON *actions = cJSON_CreateArray();
    if (!actions) abort();
    dl_lsp_check(s);
    DlLspDoc *doc = dl_lsp_docs_find(&s->docs, uri);
    /* Fixes are positions in the text they were computed on: none for an older text. */
    if (!doc || doc->found_version != doc->version) return actions;
    for (size_t i = 0; wanted(only, "quickfix") && i < doc->found.diag_count; i++) {
        const DlDiag *d = &doc->found.diags[i];
        long dsl, dsc, del, dec;
        dl_lsp_position(&doc->lines, doc->text, doc->len, d->line, d->column, &dsl, &dsc);
        dl_lsp_position(&doc->lines, doc->text, doc->len, d->end_line, d->end_column, &del, &dec);
        bool before = del < sl || (del == sl && dec < sc);
        bool after = dsl > el || (dsl == el && dsc > ec);
        if (before || after) continue;
        if (d->fix && d->fix->edit_count) cJSON_AddItemToArray(actions, fix_action(s, doc, d));
        cJSON *ignore = strcmp(d->rule->code, "DL000") != 0 ? ignore_action(s, doc, d) : NULL;
        if (ignore) cJSON_AddItemToArray(actions, ignore);
    }
    if (!doc->notebook && wanted(only, "source.fixAll.devlint")) {
        cJSON *all = fix_all_action(s, doc);
        if (all) cJSON_AddItemToArray(actions, all);
    }
    return actions;
}
