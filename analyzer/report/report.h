/* Report writers: one DlResult (sorted) in, one format out. Each writer only formats; it
 * decides nothing about what is a finding. */
#ifndef DL_REPORT_H
#define DL_REPORT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/diag.h"

typedef enum {
    DL_FORMAT_TEXT,
    DL_FORMAT_JSON,
    DL_FORMAT_SARIF,
    DL_FORMAT_GITHUB,
    DL_FORMAT_GITLAB,
} DlFormat;

typedef struct DlReportOptions {
    bool color;      /* ANSI colours (text only); the CLI sets it for a terminal without NO_COLOR */
    bool quiet;      /* text: findings only, no summary line */
    bool statistics; /* text: per-rule counts instead of findings */
    const char *tool_version; /* "0.1.0" */
} DlReportOptions;

/* Parses "text", "json", "sarif", "github", "gitlab"; false if unknown. */
bool dl_format_parse(const char *name, DlFormat *out);

void dl_report_text(FILE *out, const DlResult *r, const DlReportOptions *opts);
void dl_report_json(FILE *out, const DlResult *r, const DlReportOptions *opts);
void dl_report_sarif(FILE *out, const DlResult *r, const DlReportOptions *opts);
void dl_report_github(FILE *out, const DlResult *r, const DlReportOptions *opts);
void dl_report_gitlab(FILE *out, const DlResult *r, const DlReportOptions *opts);

/* A finding's identity across commits, for SARIF partialFingerprints, GitLab fingerprints and
 * baselines. `hash` covers the rule code, the path (without a leading "./") and the text of the
 * finding's source line with surrounding whitespace trimmed, never the line number, so moving
 * code keeps it; `occurrence` (1-based, in report order) tells apart findings whose hash is the
 * same (two identical lines in one file). */
typedef struct DlFingerprint {
    uint64_t hash;
    int occurrence;
} DlFingerprint;

uint64_t dl_report_line_hash(const DlDiag *d);
/* Fills fp[0 .. r->diag_count) for the findings of r in their order. */
void dl_report_fingerprints(const DlResult *r, DlFingerprint *fp);

/* Dispatch on format. Per-file errors also go to `err` in text format (stderr). */
void dl_report_write(FILE *out, FILE *err, DlFormat format, const DlResult *r,
                     const DlReportOptions *opts);

#endif
