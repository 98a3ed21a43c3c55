/* Report entry points: the format names the CLI accepts, and the dispatch to one writer. */
#include "report.h"

#include <string.h>

static const struct {
    const char *name;
    DlFormat format;
} dl_format_names[] = {
    {"text", DL_FORMAT_TEXT},
    {"json", DL_FORMAT_JSON},
    {"sarif", DL_FORMAT_SARIF},
    {"github", DL_FORMAT_GITHUB},
};

bool dl_format_parse(const char *name, DlFormat *out) {
    if (!name) return false;
    for (size_t i = 0; i < sizeof dl_format_names / sizeof dl_format_names[0]; i++) {
        if (strcmp(name, dl_format_names[i].name) == 0) {
            *out = dl_format_names[i].format;
            return true;
        }
    }
    return false;
}

/* The machine formats carry per-file errors inside the document; the text format has no place
 * for them among the findings, so a person sees them on stderr instead. */
static void dl_report_text_errors(FILE *err, const DlResult *r) {
    for (size_t i = 0; i < r->error_count; i++)
        fprintf(err, "devlint: error: %s: %s\n", r->errors[i].path, r->errors[i].message);
}

void dl_report_write(FILE *out, FILE *err, DlFormat format, const DlResult *r,
                     const DlReportOptions *opts) {
    switch (format) {
    case DL_FORMAT_TEXT:
        dl_report_text_errors(err ? err : out, r);
        dl_report_text(out, r, opts);
        break;
    case DL_FORMAT_JSON:
        dl_report_json(out, r, opts);
        break;
    case DL_FORMAT_SARIF:
        dl_report_sarif(out, r, opts);
        break;
    case DL_FORMAT_GITHUB:
        dl_report_github(out, r, opts);
        break;
    }
    fflush(out);
}
