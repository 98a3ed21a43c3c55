/* Report writers: one DlResult (sorted) in, one format out. Each writer only formats; it
 * decides nothing about what is a finding. */
#ifndef DL_REPORT_H
#define DL_REPORT_H
#include <stdbool.h>
#include <stdio.h>

#include "../core/diag.h"

typedef enum {
    DL_FORMAT_TEXT,
    DL_FORMAT_JSON,
    DL_FORMAT_SARIF,
    DL_FORMAT_GITHUB,
} DlFormat;

typedef struct DlReportOptions {
    bool color;      /* ANSI colours (text only); the CLI sets it for a terminal without NO_COLOR */
    bool quiet;      /* text: findings only, no summary line */
    bool statistics; /* text: per-rule counts instead of findings */
    const char *tool_version; /* "0.1.0" */
} DlReportOptions;

/* Parses "text", "json", "sarif", "github"; false if unknown. */
bool dl_format_parse(const char *name, DlFormat *out);

void dl_report_text(FILE *out, const DlResult *r, const DlReportOptions *opts);
void dl_report_json(FILE *out, const DlResult *r, const DlReportOptions *opts);
void dl_report_sarif(FILE *out, const DlResult *r, const DlReportOptions *opts);
void dl_report_github(FILE *out, const DlResult *r, const DlReportOptions *opts);

/* Dispatch on format. Per-file errors also go to `err` in text format (stderr). */
void dl_report_write(FILE *out, FILE *err, DlFormat format, const DlResult *r,
                     const DlReportOptions *opts);

#endif
