/* Diagnostics: what a rule reports, what a file could not give (per-file errors), and the
 * run's collected result that the report writers print. Everything here is heap-owned by the
 * DlResult and freed with dl_result_free. */
#ifndef DL_DIAG_H
#define DL_DIAG_H
#include <stdbool.h>
#include <stddef.h>

typedef enum { DL_SEV_ERROR = 0, DL_SEV_WARNING = 1, DL_SEV_INFO = 2 } DlSeverity;

typedef struct DlRule DlRule;

/* A text replacement; positions are 1-based, columns in code points, end exclusive. */
typedef struct DlEdit {
    int line, column, end_line, end_column;
    char *text;
    int cell; /* notebooks: the 1-based cell the lines are relative to; 0 for plain files */
} DlEdit;

typedef struct DlFix {
    char *title; /* "Assign the result: `x = x.to(device)`" */
    DlEdit *edits;
    size_t edit_count;
    bool unsafe; /* may change what other code sees (rebinding a list other names share):
                    applied only with --unsafe-fixes */
} DlFix;

typedef struct DlDiag {
    const DlRule *rule;
    char *path;
    int line, column, end_line, end_column; /* 1-based, code points, end exclusive */
    char *message;
    char *source_line; /* text of `line`, for the text report's excerpt (may be NULL) */
    DlFix *fix;        /* NULL when no fix is offered */
    int severity_override; /* 0: the rule's default; else 1 + the DlSeverity configured */
    int cell;          /* notebooks: 1-based cell; `line`/`end_line` are relative to it */
    int file_line;     /* notebooks: the line of the .ipynb file holding that source line */
} DlDiag;

/* The severity a finding is reported at: its rule's, unless the configuration overrides it. */
DlSeverity dl_diag_severity(const DlDiag *d);

typedef struct DlFileError {
    char *path;
    char *message; /* "not valid UTF-8 (line 3, byte 0xff)" */
} DlFileError;

typedef struct DlResult {
    DlDiag *diags;
    size_t diag_count, diag_cap;
    DlFileError *errors;
    size_t error_count, error_cap;
    size_t files_checked;
} DlResult;

/* Takes ownership of every pointer inside `d`. */
void dl_result_add_diag(DlResult *r, DlDiag d);
void dl_result_add_error(DlResult *r, const char *path, const char *message);
/* Moves everything of `from` into `into` (from is left empty). */
void dl_result_merge(DlResult *into, DlResult *from);
/* Where a finding is, in report order: path, cell, line, column, then its rule's code (not its
 * message). */
int dl_diag_cmp_place(const DlDiag *a, const DlDiag *b);
/* Deterministic order: path, line, column, code; errors by path. Drops exact duplicates. */
void dl_result_sort(DlResult *r);
void dl_result_free(DlResult *r);

void dl_diag_free(DlDiag *d);
DlFix *dl_fix_new(const char *title, size_t edit_count); /* edits zeroed, caller fills them */

const char *dl_severity_name(DlSeverity s); /* "error", "warning", "info" */

#endif
