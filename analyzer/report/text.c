/* The human format: one `path:line:col: CODE [name] message` line per finding (the shape editors
 * and CI log scrapers match), a source excerpt with the span underlined, the fix as a help line,
 * and a summary. Columns are code points, one display cell each. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../rules/rule.h"
#include "../core/vec.h"
#include "report.h"

#define DL_ANSI_RESET "\x1b[0m"
#define DL_ANSI_BOLD "\x1b[1m"

/* Escape sequences for one finding; all empty strings when colour is off. */
typedef struct DlTextPaint {
    const char *bold, *severity, *reset;
} DlTextPaint;

static DlTextPaint dl_text_paint(const DlReportOptions *opts, DlSeverity severity) {
    if (!opts || !opts->color) return (DlTextPaint){"", "", ""};
    const char *sev = severity == DL_SEV_WARNING ? "\x1b[1;33m"
                      : severity == DL_SEV_INFO  ? "\x1b[1;36m"
                                                 : "\x1b[1;31m";
    return (DlTextPaint){DL_ANSI_BOLD, sev, DL_ANSI_RESET};
}

static bool dl_utf8_is_continuation(unsigned char c) {
    return (c & 0xC0) == 0x80;
}

/* First code-point column past the underline: the span's end on the same line, the end of the
 * line for a span that runs on, a single caret when the end is unknown. */
static int dl_text_span_end(const DlDiag *d) {
    if (d->end_line == d->line) return d->end_column > d->column ? d->end_column : d->column;
    if (d->end_line > d->line) return INT_MAX;
    return d->column + 1;
}

/* Walks the line by code points: blanks (a tab stays a tab, so tab stops line up with the line
 * above) up to the start column, then a caret per code point of the span; at least one caret so
 * an empty span or one past the end of the line still points somewhere. */
static void dl_text_underline(FILE *out, const DlDiag *d, const DlTextPaint *paint) {
    const unsigned char *s = (const unsigned char *)d->source_line;
    int start = d->column, end = dl_text_span_end(d);
    int col = 1, carets = 0;
    fputs("    ", out);
    for (size_t i = 0; s[i] && col < end; i++) {
        if (dl_utf8_is_continuation(s[i])) continue;
        if (col < start) {
            fputc(s[i] == '\t' ? '\t' : ' ', out);
        } else {
            if (carets++ == 0) fputs(paint->severity, out);
            fputc('^', out);
        }
        col++;
    }
    if (carets == 0) fprintf(out, "%s^", paint->severity);
    fprintf(out, "%s\n", paint->reset);
}

static void dl_text_finding(FILE *out, const DlDiag *d, const DlReportOptions *opts) {
    DlTextPaint paint = dl_text_paint(opts, dl_diag_severity(d));
    if (d->cell) /* notebooks: nb.ipynb:cell 3:2:5 */
        fprintf(out, "%s%s:cell %d%s:%d:%d: %s%s%s [%s] %s\n", paint.bold, d->path, d->cell,
                paint.reset, d->line, d->column, paint.severity, d->rule->code, paint.reset,
                d->rule->name, d->message);
    else
        fprintf(out, "%s%s%s:%d:%d: %s%s%s [%s] %s\n", paint.bold, d->path, paint.reset, d->line,
                d->column, paint.severity, d->rule->code, paint.reset, d->rule->name, d->message);
    if (d->source_line) {
        fprintf(out, "    %s\n", d->source_line);
        dl_text_underline(out, d, &paint);
    }
    if (d->fix && d->fix->title && d->fix->title[0]) fprintf(out, "  help: %s\n", d->fix->title);
    fputc('\n', out);
}

static int dl_text_path_cmp(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Counted without assuming the result is sorted: the writer must not depend on its caller. */
static size_t dl_text_file_count(const DlResult *r) {
    if (r->diag_count == 0) return 0;
    DL_VEC(const char *) paths = {0};
    for (size_t i = 0; i < r->diag_count; i++)
        dl_vec_push(&paths, r->diags[i].path);
    qsort(paths.items, paths.len, sizeof *paths.items, dl_text_path_cmp);
    size_t files = 1;
    for (size_t i = 1; i < paths.len; i++)
        files += strcmp(paths.items[i - 1], paths.items[i]) != 0;
    dl_vec_free(&paths);
    return files;
}

/* A run where some files could not be checked never says "All checks passed!". */
static void dl_text_unchecked(FILE *out, const DlResult *r) {
    if (r->error_count)
        fprintf(out, "%zu file%s could not be checked in full (see the errors above).\n",
                r->error_count, r->error_count == 1 ? "" : "s");
}

static void dl_text_summary(FILE *out, const DlResult *r) {
    if (r->diag_count == 0) {
        if (r->error_count) fputs("No problems found in the files that were checked.\n", out);
        else fputs("All checks passed!\n", out);
        dl_text_unchecked(out, r);
        return;
    }
    size_t files = dl_text_file_count(r), fixable = 0;
    for (size_t i = 0; i < r->diag_count; i++)
        fixable += r->diags[i].fix != NULL;
    fprintf(out, "Found %zu problem%s in %zu file%s (%zu fixable).\n", r->diag_count,
            r->diag_count == 1 ? "" : "s", files, files == 1 ? "" : "s", fixable);
    dl_text_unchecked(out, r);
}

typedef struct DlRuleCount {
    const DlRule *rule;
    size_t count, fixable;
} DlRuleCount;

static int dl_rule_count_cmp(const void *pa, const void *pb) {
    const DlRuleCount *a = pa, *b = pb;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    return strcmp(a->rule->code, b->rule->code);
}

/* Like `ruff --statistics`: how often each rule fired, most frequent first. */
static void dl_text_statistics(FILE *out, const DlResult *r) {
    DL_VEC(DlRuleCount) counts = {0};
    for (size_t i = 0; i < r->diag_count; i++) {
        const DlDiag *d = &r->diags[i];
        size_t j = 0;
        while (j < counts.len && strcmp(counts.items[j].rule->code, d->rule->code) != 0)
            j++;
        if (j == counts.len) dl_vec_push(&counts, ((DlRuleCount){d->rule, 0, 0}));
        counts.items[j].count++;
        counts.items[j].fixable += d->fix != NULL;
    }
    if (counts.len > 1) qsort(counts.items, counts.len, sizeof *counts.items, dl_rule_count_cmp);
    for (size_t i = 0; i < counts.len; i++) {
        const DlRuleCount *c = &counts.items[i];
        fprintf(out, "%zu\t%s\t[%s]%s\n", c->count, c->rule->code, c->rule->name,
                c->fixable ? "\t(fixable)" : "");
    }
    dl_vec_free(&counts);
}

void dl_report_text(FILE *out, const DlResult *r, const DlReportOptions *opts) {
    bool statistics = opts && opts->statistics, quiet = opts && opts->quiet;
    if (statistics) {
        dl_text_statistics(out, r);
    } else {
        for (size_t i = 0; i < r->diag_count; i++)
            dl_text_finding(out, &r->diags[i], opts);
    }
    if (!quiet) dl_text_summary(out, r);
}
