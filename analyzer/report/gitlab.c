/* The GitLab Code Quality format (`--format gitlab`): a JSON array of Code Climate issues that a
 * pipeline uploads as a `codequality` report, shown in merge requests. GitLab reads
 * `description`, `check_name`, `fingerprint`, `severity` and `location.path` +
 * `location.lines.begin`; `type` and `categories` are there for other Code Climate readers. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../rules/rule.h"
#include "report.h"

/* GitLab's scale is info, minor, major, critical, blocker. devlint's errors crash or silently
 * compute on the wrong device, but the scale's top is for what blocks a release: "major" is
 * what other linters' errors get, so a merge request does not rank ours above everyone's. */
static const char *dl_gitlab_severity(DlSeverity s) {
    return s == DL_SEV_WARNING ? "minor" : s == DL_SEV_INFO ? "info" : "major";
}

/* Code Climate categories, by the rule's family: DL1xx crash or compute on the wrong device,
 * DL2xx waste time, DL3xx break on machines without a GPU, DL000 is about the comments. */
static const char *dl_gitlab_category(const char *code) {
    if (strncmp(code, "DL1", 3) == 0) return "Bug Risk";
    if (strncmp(code, "DL2", 3) == 0) return "Performance";
    if (strncmp(code, "DL3", 3) == 0) return "Compatibility";
    return "Style";
}

static const char *dl_gitlab_str(const char *s) {
    return s ? s : "";
}

static cJSON *dl_gitlab_location(const char *path, int line) {
    cJSON *location = cJSON_CreateObject();
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    cJSON_AddStringToObject(location, "path", path);
    cJSON *lines = cJSON_AddObjectToObject(location, "lines");
    cJSON_AddNumberToObject(lines, "begin", line > 0 ? line : 1);
    return location;
}

/* The line hash with the occurrence folded in: GitLab wants one distinct fingerprint per issue,
 * and compares them between the merge request's base and head to tell new from fixed. */
static void dl_gitlab_fingerprint(DlFingerprint fp, char out[17]) {
    uint64_t h = fp.hash;
    for (int shift = 0; shift < 32; shift += 8) {
        h ^= (uint64_t)((unsigned)fp.occurrence >> shift & 0xFF);
        h *= 0x100000001b3ULL;
    }
    snprintf(out, 17, "%016" PRIx64, h);
}

static cJSON *dl_gitlab_issue(const DlDiag *d, DlFingerprint fp) {
    const char *code = dl_gitlab_str(d->rule->code);
    size_t size =
        strlen(code) + strlen(dl_gitlab_str(d->rule->name)) + strlen(dl_gitlab_str(d->message)) + 8;
    char *description = malloc(size);
    if (!description) abort();
    snprintf(description, size, "%s [%s] %s", code, dl_gitlab_str(d->rule->name),
             dl_gitlab_str(d->message));
    char fingerprint[17];
    dl_gitlab_fingerprint(fp, fingerprint);

    cJSON *issue = cJSON_CreateObject();
    cJSON_AddStringToObject(issue, "type", "issue");
    cJSON_AddStringToObject(issue, "check_name", code);
    cJSON_AddStringToObject(issue, "description", description);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(issue, "categories"),
                         cJSON_CreateString(dl_gitlab_category(code)));
    cJSON_AddStringToObject(issue, "severity", dl_gitlab_severity(dl_diag_severity(d)));
    cJSON_AddStringToObject(issue, "fingerprint", fingerprint);
    /* notebooks: the .ipynb file's own line, as in SARIF and GitHub annotations */
    cJSON_AddItemToObject(
        issue, "location",
        dl_gitlab_location(dl_gitlab_str(d->path), d->cell ? d->file_line : d->line));
    free(description);
    return issue;
}

/* A file devlint could not check has no line and no rule; it is still reported, so that a
 * merge request does not look clean because its files were never read. */
static cJSON *dl_gitlab_error(const DlFileError *e) {
    const char *path = dl_gitlab_str(e->path), *message = dl_gitlab_str(e->message);
    char fingerprint[17];
    DlDiag key = {.path = (char *)path, .source_line = (char *)message};
    dl_gitlab_fingerprint((DlFingerprint){dl_report_line_hash(&key), 1}, fingerprint);
    static const char prefix[] = "devlint could not check this file: ";
    size_t size = sizeof prefix + strlen(message);
    char *description = malloc(size);
    if (!description) abort();
    snprintf(description, size, "%s%s", prefix, message);

    cJSON *issue = cJSON_CreateObject();
    cJSON_AddStringToObject(issue, "type", "issue");
    cJSON_AddStringToObject(issue, "check_name", "devlint-error");
    cJSON_AddStringToObject(issue, "description", description);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(issue, "categories"),
                         cJSON_CreateString("Bug Risk"));
    cJSON_AddStringToObject(issue, "severity", "major");
    cJSON_AddStringToObject(issue, "fingerprint", fingerprint);
    cJSON_AddItemToObject(issue, "location", dl_gitlab_location(path, 1));
    free(description);
    return issue;
}

void dl_report_gitlab(FILE *out, const DlResult *r, const DlReportOptions *opts) {
    (void)opts;
    DlFingerprint *fps = calloc(r->diag_count ? r->diag_count : 1, sizeof *fps);
    cJSON *root = cJSON_CreateArray();
    if (!fps || !root) abort();
    dl_report_fingerprints(r, fps);
    for (size_t i = 0; i < r->diag_count; i++)
        cJSON_AddItemToArray(root, dl_gitlab_issue(&r->diags[i], fps[i]));
    for (size_t i = 0; i < r->error_count; i++)
        cJSON_AddItemToArray(root, dl_gitlab_error(&r->errors[i]));
    free(fps);
    char *text = cJSON_Print(root);
    if (!text) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    cJSON_Delete(root);
}
