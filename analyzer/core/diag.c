/* Diagnostics: ownership of findings and per-file errors, merging per-worker results, and the
 * one deterministic order every report prints them in. */
#include "diag.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../rules/rule.h"

/* Allocation failure (or a size that overflows) is fatal: a report with holes is worse. */
static void *dl_diag_xrealloc(void *p, size_t count, size_t size) {
    void *q = NULL;
    size_t bytes = count * size;
    if (!size || count <= SIZE_MAX / size) q = realloc(p, bytes > 0 ? bytes : 1);
    if (!q) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    return q;
}

static char *dl_diag_xstrdup(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *copy = dl_diag_xrealloc(NULL, n, 1);
    memcpy(copy, s, n);
    return copy;
}

/* Capacity doubling shared by the two arrays of a DlResult. */
static void *dl_diag_grow(void *items, size_t *cap, size_t need, size_t item_size) {
    if (need <= *cap) return items;
    size_t cap2 = *cap ? *cap * 2 : 16;
    while (cap2 < need)
        cap2 *= 2;
    *cap = cap2;
    return dl_diag_xrealloc(items, cap2, item_size);
}

void dl_result_add_diag(DlResult *r, DlDiag d) {
    r->diags = dl_diag_grow(r->diags, &r->diag_cap, r->diag_count + 1, sizeof *r->diags);
    r->diags[r->diag_count++] = d;
}

void dl_result_add_error(DlResult *r, const char *path, const char *message) {
    r->errors = dl_diag_grow(r->errors, &r->error_cap, r->error_count + 1, sizeof *r->errors);
    r->errors[r->error_count++] = (DlFileError){
        .path = dl_diag_xstrdup(path ? path : ""),
        .message = dl_diag_xstrdup(message ? message : ""),
    };
}

void dl_result_merge(DlResult *into, DlResult *from) {
    if (from->diag_count) {
        size_t need = into->diag_count + from->diag_count;
        into->diags = dl_diag_grow(into->diags, &into->diag_cap, need, sizeof *into->diags);
        memcpy(into->diags + into->diag_count, from->diags, from->diag_count * sizeof *from->diags);
        into->diag_count = need;
    }
    if (from->error_count) {
        size_t need = into->error_count + from->error_count;
        into->errors = dl_diag_grow(into->errors, &into->error_cap, need, sizeof *into->errors);
        memcpy(into->errors + into->error_count, from->errors,
               from->error_count * sizeof *from->errors);
        into->error_count = need;
    }
    into->files_checked += from->files_checked;
    free(from->diags);
    free(from->errors);
    *from = (DlResult){0};
}

static int dl_diag_cmp_int(int a, int b) {
    return (a > b) - (a < b);
}

static int dl_diag_cmp_str(const char *a, const char *b) {
    return strcmp(a ? a : "", b ? b : "");
}

static const char *dl_diag_code(const DlDiag *d) {
    return d->rule && d->rule->code ? d->rule->code : "";
}

int dl_diag_cmp_place(const DlDiag *a, const DlDiag *b) {
    int c = dl_diag_cmp_str(a->path, b->path);
    if (!c) c = dl_diag_cmp_int(a->cell, b->cell); /* notebooks: cell, then the line in it */
    if (!c) c = dl_diag_cmp_int(a->line, b->line);
    if (!c) c = dl_diag_cmp_int(a->column, b->column);
    if (!c) c = strcmp(dl_diag_code(a), dl_diag_code(b));
    return c;
}

/* The fields that make two findings "the same" for deduplication, in report order. */
static int dl_diag_cmp_identity(const DlDiag *a, const DlDiag *b) {
    int c = dl_diag_cmp_place(a, b);
    if (!c) c = dl_diag_cmp_str(a->message, b->message);
    return c;
}

/* Total order so qsort (not stable) still gives the same output on every run; among duplicates
 * the one that carries a fix sorts first and is the one kept. */
static int dl_diag_cmp(const void *pa, const void *pb) {
    const DlDiag *a = pa, *b = pb;
    int c = dl_diag_cmp_identity(a, b);
    if (!c) c = dl_diag_cmp_int(a->end_line, b->end_line);
    if (!c) c = dl_diag_cmp_int(a->end_column, b->end_column);
    if (!c) c = dl_diag_cmp_int(a->fix == NULL, b->fix == NULL);
    return c;
}

static int dl_error_cmp(const void *pa, const void *pb) {
    const DlFileError *a = pa, *b = pb;
    int c = dl_diag_cmp_str(a->path, b->path);
    return c ? c : dl_diag_cmp_str(a->message, b->message);
}

/* Two rules (or one rule reached twice through an alias) may report the same spot. */
static void dl_result_dedup(DlResult *r) {
    size_t kept = 0;
    for (size_t i = 0; i < r->diag_count; i++) {
        if (kept && dl_diag_cmp_identity(&r->diags[kept - 1], &r->diags[i]) == 0) {
            dl_diag_free(&r->diags[i]);
            continue;
        }
        r->diags[kept++] = r->diags[i];
    }
    r->diag_count = kept;
}

void dl_result_sort(DlResult *r) {
    if (r->diag_count > 1) qsort(r->diags, r->diag_count, sizeof *r->diags, dl_diag_cmp);
    dl_result_dedup(r);
    if (r->error_count > 1) qsort(r->errors, r->error_count, sizeof *r->errors, dl_error_cmp);
}

void dl_result_free(DlResult *r) {
    for (size_t i = 0; i < r->diag_count; i++)
        dl_diag_free(&r->diags[i]);
    for (size_t i = 0; i < r->error_count; i++) {
        free(r->errors[i].path);
        free(r->errors[i].message);
    }
    free(r->diags);
    free(r->errors);
    *r = (DlResult){0};
}

static void dl_fix_free(DlFix *fix) {
    if (!fix) return;
    for (size_t i = 0; i < fix->edit_count; i++)
        free(fix->edits[i].text);
    free(fix->edits);
    free(fix->title);
    free(fix);
}

void dl_diag_free(DlDiag *d) {
    free(d->path);
    free(d->message);
    free(d->source_line);
    dl_fix_free(d->fix);
    d->path = d->message = d->source_line = NULL;
    d->fix = NULL;
}

DlFix *dl_fix_new(const char *title, size_t edit_count) {
    DlFix *fix = dl_diag_xrealloc(NULL, 1, sizeof *fix);
    memset(fix, 0, sizeof *fix);
    fix->title = dl_diag_xstrdup(title ? title : "");
    fix->edit_count = edit_count;
    fix->edits = dl_diag_xrealloc(NULL, edit_count, sizeof *fix->edits);
    if (edit_count) memset(fix->edits, 0, edit_count * sizeof *fix->edits);
    return fix;
}

DlSeverity dl_diag_severity(const DlDiag *d) {
    return d->severity_override ? (DlSeverity)(d->severity_override - 1) : d->rule->severity;
}

const char *dl_severity_name(DlSeverity s) {
    switch (s) {
    case DL_SEV_ERROR:
        return "error";
    case DL_SEV_WARNING:
        return "warning";
    case DL_SEV_INFO:
        return "info";
    }
    return "error";
}
