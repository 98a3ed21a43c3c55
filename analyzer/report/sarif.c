/* The SARIF 2.1.0 format, for GitHub code scanning and other SARIF viewers: rule metadata for
 * every rule that fired (with a link to its documentation), one result per finding with its fix
 * and a fingerprint that survives line moves, per-file errors as notifications. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../rules/rule.h"
#include "../core/vec.h"
#include "report.h"

/* docs/rules.md, generated from `devlint explain` by scripts/gen-rules-doc.sh: one `## DL101`
 * heading per rule, so `#dl101` is a stable anchor. */
#define DL_SARIF_RULES_DOC "https://github.com/devlint/devlint/blob/main/docs/rules.md"

static const char *dl_sarif_str(const char *s) {
    return s ? s : "";
}

static const char *dl_sarif_level(DlSeverity s) {
    return s == DL_SEV_WARNING ? "warning" : s == DL_SEV_INFO ? "note" : "error";
}

/* RFC 3986 unreserved characters and the path separator pass; everything else (spaces, '%',
 * '#', ':', non-ASCII bytes) is percent-encoded so the path is a valid URI reference. */
static bool dl_sarif_uri_plain(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~' || c == '/';
}

static bool dl_sarif_is_separator(char c) {
#ifdef _WIN32
    return c == '/' || c == '\\';
#else
    return c == '/';
#endif
}

/* A path as a URI: relative paths stay relative (GitHub resolves them against the checkout),
 * without a leading "./"; absolute ones become file:// URIs. Returns a malloc'ed string. */
static char *dl_sarif_uri(const char *path) {
    while (path[0] == '.' && dl_sarif_is_separator(path[1]))
        path += 2;
    size_t n = strlen(path);
    char *uri = malloc(sizeof "file:///" + 3 * n);
    if (!uri) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    char *o = uri;
    bool drive = ((path[0] | 0x20) >= 'a' && (path[0] | 0x20) <= 'z') && path[1] == ':' &&
                 dl_sarif_is_separator(path[2]);
    if (dl_sarif_is_separator(path[0])) o += sprintf(o, "file://");
    if (drive) {
        o += sprintf(o, "file:///%c:", path[0]);
        path += 2;
    }
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (dl_sarif_is_separator((char)*p))
            *o++ = '/';
        else if (dl_sarif_uri_plain(*p))
            *o++ = (char)*p;
        else
            o += sprintf(o, "%%%02X", *p);
    }
    *o = '\0';
    return uri;
}

static cJSON *dl_sarif_text(const char *text) {
    cJSON *obj = cJSON_CreateObject();
    cJSON_AddStringToObject(obj, "text", dl_sarif_str(text));
    return obj;
}

static cJSON *dl_sarif_artifact(const char *path) {
    char *uri = dl_sarif_uri(dl_sarif_str(path));
    cJSON *obj = cJSON_CreateObject();
    cJSON_AddStringToObject(obj, "uri", uri);
    free(uri);
    return obj;
}

/* SARIF positions are >= 1; an unknown end (0) is left out rather than written invalid. */
static cJSON *dl_sarif_region(int line, int column, int end_line, int end_column) {
    cJSON *region = cJSON_CreateObject();
    const char *keys[] = {"startLine", "startColumn", "endLine", "endColumn"};
    int values[] = {line, column, end_line, end_column};
    for (size_t i = 0; i < 4; i++)
        if (values[i] > 0) cJSON_AddNumberToObject(region, keys[i], values[i]);
    return region;
}

static int dl_sarif_rule_cmp(const void *pa, const void *pb) {
    const DlRule *a = *(const DlRule *const *)pa, *b = *(const DlRule *const *)pb;
    return strcmp(a->code, b->code);
}

typedef DL_VEC(const DlRule *) DlRuleList;

/* The rules that fired, sorted by code and distinct by code; result.ruleIndex points here.
 * Taken from the findings so the writer does not depend on the registry. */
static DlRuleList dl_sarif_collect_rules(const DlResult *r) {
    DlRuleList rules = {0};
    for (size_t i = 0; i < r->diag_count; i++)
        dl_vec_push(&rules, r->diags[i].rule);
    if (rules.len > 1) qsort(rules.items, rules.len, sizeof *rules.items, dl_sarif_rule_cmp);
    size_t kept = 0;
    for (size_t i = 0; i < rules.len; i++)
        if (!kept || dl_sarif_rule_cmp(&rules.items[kept - 1], &rules.items[i]) != 0)
            rules.items[kept++] = rules.items[i];
    rules.len = kept;
    return rules;
}

static int dl_sarif_rule_index(const DlRuleList *rules, const DlRule *rule) {
    const DlRule *const *hit =
        bsearch(&rule, rules->items, rules->len, sizeof *rules->items, dl_sarif_rule_cmp);
    return hit ? (int)(hit - rules->items) : -1;
}

static cJSON *dl_sarif_rule(const DlRule *rule) {
    const char *summary = rule->summary ? rule->summary : dl_sarif_str(rule->name);
    const char *doc = rule->doc ? rule->doc : summary;
    cJSON *obj = cJSON_CreateObject();
    cJSON_AddStringToObject(obj, "id", rule->code);
    cJSON_AddStringToObject(obj, "name", dl_sarif_str(rule->name));
    cJSON_AddItemToObject(obj, "shortDescription", dl_sarif_text(summary));
    cJSON_AddItemToObject(obj, "fullDescription", dl_sarif_text(summary));
    cJSON *help = dl_sarif_text(doc);
    cJSON_AddStringToObject(help, "markdown", doc);
    cJSON_AddItemToObject(obj, "help", help);
    char uri[sizeof DL_SARIF_RULES_DOC + 32];
    int n = snprintf(uri, sizeof uri, "%s#", DL_SARIF_RULES_DOC);
    for (const char *c = rule->code; *c && (size_t)n + 1 < sizeof uri; c++)
        uri[n++] = (char)tolower((unsigned char)*c);
    uri[n] = '\0';
    cJSON_AddStringToObject(obj, "helpUri", uri);
    cJSON *config = cJSON_AddObjectToObject(obj, "defaultConfiguration");
    cJSON_AddStringToObject(config, "level", dl_sarif_level(rule->severity));
    return obj;
}

static cJSON *dl_sarif_driver(const DlRuleList *rules, const DlReportOptions *opts) {
    cJSON *driver = cJSON_CreateObject();
    cJSON_AddStringToObject(driver, "name", "devlint");
    cJSON_AddStringToObject(driver, "version", opts ? dl_sarif_str(opts->tool_version) : "");
    cJSON_AddStringToObject(driver, "informationUri", "https://github.com/devlint/devlint");
    cJSON *array = cJSON_AddArrayToObject(driver, "rules");
    for (size_t i = 0; i < rules->len; i++)
        cJSON_AddItemToArray(array, dl_sarif_rule(rules->items[i]));
    return driver;
}

static cJSON *dl_sarif_fixes(const DlDiag *d) {
    cJSON *change = cJSON_CreateObject();
    cJSON_AddItemToObject(change, "artifactLocation", dl_sarif_artifact(d->path));
    cJSON *replacements = cJSON_AddArrayToObject(change, "replacements");
    for (size_t i = 0; i < d->fix->edit_count; i++) {
        const DlEdit *e = &d->fix->edits[i];
        cJSON *rep = cJSON_CreateObject();
        cJSON_AddItemToObject(rep, "deletedRegion",
                              dl_sarif_region(e->line, e->column, e->end_line, e->end_column));
        cJSON_AddItemToObject(rep, "insertedContent", dl_sarif_text(e->text));
        cJSON_AddItemToArray(replacements, rep);
    }
    cJSON *fix = cJSON_CreateObject();
    cJSON_AddItemToObject(fix, "description", dl_sarif_text(d->fix->title));
    cJSON_AddItemToArray(cJSON_AddArrayToObject(fix, "artifactChanges"), change);
    cJSON *fixes = cJSON_CreateArray();
    cJSON_AddItemToArray(fixes, fix);
    return fixes;
}

/* The code points [from, to) (1-based) of a line, for a region's snippet; NULL when the line
 * is shorter. Returns a malloc'ed string. */
static char *dl_sarif_slice(const char *line, int from, int to) {
    const char *start = NULL, *p = line;
    int column = 1;
    for (;; p++) {
        bool boundary = ((unsigned char)*p & 0xC0) != 0x80;
        if (boundary && column == from) start = p;
        if (boundary && column == to) break;
        if (!*p) return NULL;
        if (boundary) column++;
    }
    if (!start) return NULL;
    return strndup(start, (size_t)(p - start));
}

/* The finding's line as context, and the span's own text, so viewers without the sources
 * can still show the code. Only for one-line spans, which is what nearly every rule reports. */
static void dl_sarif_add_snippets(cJSON *physical, cJSON *region, const DlDiag *d) {
    if (!d->source_line || d->line != d->end_line || d->end_column <= d->column) return;
    size_t n = strcspn(d->source_line, "\r\n");
    char *line = strndup(d->source_line, n);
    char *span = line ? dl_sarif_slice(line, d->column, d->end_column) : NULL;
    if (span) {
        cJSON_AddItemToObject(region, "snippet", dl_sarif_text(span));
        cJSON *context = dl_sarif_region(d->line, 0, d->line, 0);
        cJSON_AddItemToObject(context, "snippet", dl_sarif_text(line));
        cJSON_AddItemToObject(physical, "contextRegion", context);
    }
    free(span);
    free(line);
}

/* GitHub code scanning matches alerts across commits by `primaryLocationLineHash` (the
 * upload-sarif action computes one only when it is missing): ours is the line hash and the
 * occurrence, so moving code keeps the alert and editing the flagged line makes a new one. */
static cJSON *dl_sarif_fingerprints(DlFingerprint fp) {
    char value[40];
    snprintf(value, sizeof value, "%016" PRIx64 ":%d", fp.hash, fp.occurrence);
    cJSON *obj = cJSON_CreateObject();
    cJSON_AddStringToObject(obj, "primaryLocationLineHash", value);
    return obj;
}

static cJSON *dl_sarif_result(const DlDiag *d, DlFingerprint fp, const DlRuleList *rules) {
    cJSON *obj = cJSON_CreateObject();
    cJSON_AddStringToObject(obj, "ruleId", d->rule->code);
    cJSON_AddNumberToObject(obj, "ruleIndex", dl_sarif_rule_index(rules, d->rule));
    cJSON_AddStringToObject(obj, "level", dl_sarif_level(dl_diag_severity(d)));
    cJSON_AddItemToObject(obj, "message", dl_sarif_text(d->message));
    cJSON *physical = cJSON_CreateObject();
    cJSON_AddItemToObject(physical, "artifactLocation", dl_sarif_artifact(d->path));
    if (d->cell) {
        /* a notebook: the region is the .ipynb file's line holding the code; where in the cell
         * it is goes in the properties (SARIF has no notion of cells) */
        cJSON_AddItemToObject(physical, "region", dl_sarif_region(d->file_line, 0, d->file_line, 0));
        cJSON *props = cJSON_AddObjectToObject(obj, "properties");
        cJSON_AddNumberToObject(props, "cell", d->cell);
        cJSON_AddNumberToObject(props, "cellLine", d->line);
        cJSON_AddNumberToObject(props, "cellColumn", d->column);
    } else {
        cJSON *region = dl_sarif_region(d->line, d->column, d->end_line, d->end_column);
        cJSON_AddItemToObject(physical, "region", region);
        dl_sarif_add_snippets(physical, region, d);
    }
    cJSON *location = cJSON_CreateObject();
    cJSON_AddItemToObject(location, "physicalLocation", physical);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(obj, "locations"), location);
    cJSON_AddItemToObject(obj, "partialFingerprints", dl_sarif_fingerprints(fp));
    if (d->fix && !d->cell) cJSON_AddItemToObject(obj, "fixes", dl_sarif_fixes(d));
    return obj;
}

/* A file that could not be analysed is not a finding, but the run still succeeded. */
static cJSON *dl_sarif_invocation(const DlResult *r) {
    cJSON *inv = cJSON_CreateObject();
    cJSON_AddTrueToObject(inv, "executionSuccessful");
    cJSON *notes = cJSON_AddArrayToObject(inv, "toolExecutionNotifications");
    for (size_t i = 0; i < r->error_count; i++) {
        cJSON *note = cJSON_CreateObject();
        cJSON_AddStringToObject(note, "level", "error");
        cJSON_AddItemToObject(note, "message", dl_sarif_text(r->errors[i].message));
        cJSON *physical = cJSON_CreateObject();
        cJSON_AddItemToObject(physical, "artifactLocation", dl_sarif_artifact(r->errors[i].path));
        cJSON *location = cJSON_CreateObject();
        cJSON_AddItemToObject(location, "physicalLocation", physical);
        cJSON_AddItemToArray(cJSON_AddArrayToObject(note, "locations"), location);
        cJSON_AddItemToArray(notes, note);
    }
    return inv;
}

static cJSON *dl_sarif_document(const DlResult *r, const DlReportOptions *opts) {
    DlRuleList rules = dl_sarif_collect_rules(r);
    cJSON *run = cJSON_CreateObject();
    cJSON *tool = cJSON_AddObjectToObject(run, "tool");
    cJSON_AddItemToObject(tool, "driver", dl_sarif_driver(&rules, opts));
    cJSON_AddItemToArray(cJSON_AddArrayToObject(run, "invocations"), dl_sarif_invocation(r));
    /* Our columns count code points; SARIF's default is UTF-16 code units. */
    cJSON_AddStringToObject(run, "columnKind", "unicodeCodePoints");
    cJSON *results = cJSON_AddArrayToObject(run, "results");
    DlFingerprint *fps = calloc(r->diag_count ? r->diag_count : 1, sizeof *fps);
    if (!fps) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    dl_report_fingerprints(r, fps);
    for (size_t i = 0; i < r->diag_count; i++)
        cJSON_AddItemToArray(results, dl_sarif_result(&r->diags[i], fps[i], &rules));
    free(fps);
    dl_vec_free(&rules);

    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    cJSON_AddStringToObject(root, "version", "2.1.0");
    cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "runs"), run);
    return root;
}

void dl_report_sarif(FILE *out, const DlResult *r, const DlReportOptions *opts) {
    cJSON *root = dl_sarif_document(r, opts);
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
