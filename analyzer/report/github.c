/* The GitHub Actions format: workflow commands (`::error file=…::message`) that the runner turns
 * into annotations on the pull request's diff. */
#include "../../rules/rule.h"
#include "report.h"

static const char *dl_github_command(DlSeverity s) {
    return s == DL_SEV_WARNING ? "warning" : s == DL_SEV_INFO ? "notice" : "error";
}

/* The runner splits commands on newlines and properties on ',' and ':', and unescapes '%'
 * sequences; anything else passes through. NULL: print the character as it is. */
static const char *dl_github_escape_of(char c, bool property) {
    switch (c) {
    case '%':
        return "%25";
    case '\r':
        return "%0D";
    case '\n':
        return "%0A";
    case ':':
        return property ? "%3A" : NULL;
    case ',':
        return property ? "%2C" : NULL;
    default:
        return NULL;
    }
}

static void dl_github_escape(FILE *out, const char *s, bool property) {
    for (; s && *s; s++) {
        const char *escaped = dl_github_escape_of(*s, property);
        if (escaped)
            fputs(escaped, out);
        else
            fputc(*s, out);
    }
}

static void dl_github_finding(FILE *out, const DlDiag *d) {
    fprintf(out, "::%s file=", dl_github_command(dl_diag_severity(d)));
    dl_github_escape(out, d->path, true);
    if (d->cell) { /* a notebook: annotate the .ipynb file's line holding the code */
        fprintf(out, ",line=%d", d->file_line);
    } else {
        fprintf(out, ",line=%d,col=%d", d->line, d->column);
        if (d->end_line > 0) fprintf(out, ",endLine=%d", d->end_line);
        if (d->end_column > 0) fprintf(out, ",endColumn=%d", d->end_column);
    }
    fputs(",title=", out);
    dl_github_escape(out, d->rule->code, true);
    fputs(" [", out);
    dl_github_escape(out, d->rule->name, true);
    fputs("]::", out);
    dl_github_escape(out, d->message, false);
    fputc('\n', out);
}

static void dl_github_error(FILE *out, const DlFileError *e) {
    fputs("::error file=", out);
    dl_github_escape(out, e->path, true);
    fputs("::", out);
    dl_github_escape(out, e->message, false);
    fputc('\n', out);
}

void dl_report_github(FILE *out, const DlResult *r, const DlReportOptions *opts) {
    for (size_t i = 0; i < r->diag_count; i++)
        dl_github_finding(out, &r->diags[i]);
    for (size_t i = 0; i < r->error_count; i++)
        dl_github_error(out, &r->errors[i]);
}
