/* The JSON format: the findings document that `devlint run`, the editor and scripts read.
 * Lines and columns are 1-based code points, end exclusive; the field set is a contract. */
#include <cjson/cJSON.h>
#include <stdlib.h>

#include "../../rules/rule.h"
#include "report.h"

static const char *dl_json_str(const char *s) {
    return s ? s : "";
}

static void dl_json_add_range(cJSON *obj, int line, int column, int end_line, int end_column) {
    cJSON_AddNumberToObject(obj, "line", line);
    cJSON_AddNumberToObject(obj, "column", column);
    cJSON_AddNumberToObject(obj, "end_line", end_line);
    cJSON_AddNumberToObject(obj, "end_column", end_column);
}

static cJSON *dl_json_fix(const DlFix *fix) {
    if (!fix) return cJSON_CreateNull();
    cJSON *obj = cJSON_CreateObject();
    cJSON_AddStringToObject(obj, "title", dl_json_str(fix->title));
    cJSON_AddStringToObject(obj, "applicability", fix->unsafe ? "unsafe" : "safe");
    cJSON *edits = cJSON_AddArrayToObject(obj, "edits");
    for (size_t i = 0; i < fix->edit_count; i++) {
        const DlEdit *e = &fix->edits[i];
        cJSON *edit = cJSON_CreateObject();
        if (e->cell) cJSON_AddNumberToObject(edit, "cell", e->cell);
        dl_json_add_range(edit, e->line, e->column, e->end_line, e->end_column);
        cJSON_AddStringToObject(edit, "text", dl_json_str(e->text));
        cJSON_AddItemToArray(edits, edit);
    }
    return obj;
}

static cJSON *dl_json_finding(const DlDiag *d) {
    cJSON *obj = cJSON_CreateObject();
    cJSON_AddStringToObject(obj, "code", dl_json_str(d->rule->code));
    cJSON_AddStringToObject(obj, "name", dl_json_str(d->rule->name));
    cJSON_AddStringToObject(obj, "severity", dl_severity_name(dl_diag_severity(d)));
    cJSON_AddStringToObject(obj, "path", dl_json_str(d->path));
    if (d->cell) cJSON_AddNumberToObject(obj, "cell", d->cell); /* notebooks: lines are the cell's */
    dl_json_add_range(obj, d->line, d->column, d->end_line, d->end_column);
    cJSON_AddStringToObject(obj, "message", dl_json_str(d->message));
    cJSON_AddItemToObject(obj, "fix", dl_json_fix(d->fix));
    return obj;
}

static cJSON *dl_json_document(const DlResult *r, const DlReportOptions *opts) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "version", opts ? dl_json_str(opts->tool_version) : "");
    cJSON_AddNumberToObject(root, "files_checked", (double)r->files_checked);
    cJSON *findings = cJSON_AddArrayToObject(root, "findings");
    for (size_t i = 0; i < r->diag_count; i++)
        cJSON_AddItemToArray(findings, dl_json_finding(&r->diags[i]));
    cJSON *errors = cJSON_AddArrayToObject(root, "errors");
    for (size_t i = 0; i < r->error_count; i++) {
        cJSON *err = cJSON_CreateObject();
        cJSON_AddStringToObject(err, "path", dl_json_str(r->errors[i].path));
        cJSON_AddStringToObject(err, "message", dl_json_str(r->errors[i].message));
        cJSON_AddItemToArray(errors, err);
    }
    return root;
}

void dl_report_json(FILE *out, const DlResult *r, const DlReportOptions *opts) {
    cJSON *root = dl_json_document(r, opts);
    char *text = root ? cJSON_Print(root) : NULL;
    if (!text) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    cJSON_Delete(root);
}
