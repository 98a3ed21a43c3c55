/* Report entry points: the format names the CLI accepts, the dispatch to one writer, and the
 * fingerprints that give a finding an identity across commits. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "../../rules/rule.h"

static const struct {
    const char *name;
    DlFormat format;
} dl_format_names[] = {
    {"text", DL_FORMAT_TEXT},
    {"json", DL_FORMAT_JSON},
    {"sarif", DL_FORMAT_SARIF},
    {"github", DL_FORMAT_GITHUB},
    {"gitlab", DL_FORMAT_GITLAB},
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
    case DL_FORMAT_GITLAB:
        dl_report_gitlab(out, r, opts);
        break;
    }
    fflush(out);
}

/* 64-bit FNV-1a: small, and the same on every platform, so a fingerprint written on one machine
 * matches on another. */
#define DL_FNV_PRIME 0x100000001b3ULL
#define DL_FNV_OFFSET 0xcbf29ce484222325ULL

static uint64_t dl_fnv(uint64_t h, const char *data, size_t n) {
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)data[i];
        h *= DL_FNV_PRIME;
    }
    return h;
}

static bool dl_report_is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

uint64_t dl_report_line_hash(const DlDiag *d) {
    const char *code = d->rule && d->rule->code ? d->rule->code : "";
    const char *path = d->path ? d->path : "";
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    const char *line = d->source_line ? d->source_line : "";
    size_t n = strlen(line);
    while (n && dl_report_is_space(line[n - 1]))
        n--;
    while (n && dl_report_is_space(*line)) {
        line++;
        n--;
    }
    /* the NULs keep ("DL1", "01a.py") apart from ("DL10", "1a.py") */
    uint64_t h = dl_fnv(DL_FNV_OFFSET, code, strlen(code) + 1);
    h = dl_fnv(h, path, strlen(path) + 1);
    return dl_fnv(h, line, n);
}

typedef struct DlFingerprintSlot {
    uint64_t hash;
    size_t index;
} DlFingerprintSlot;

static int dl_fingerprint_slot_cmp(const void *pa, const void *pb) {
    const DlFingerprintSlot *a = pa, *b = pb;
    if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

void dl_report_fingerprints(const DlResult *r, DlFingerprint *fp) {
    if (!r->diag_count) return;
    DlFingerprintSlot *slots = malloc(r->diag_count * sizeof *slots);
    if (!slots) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    for (size_t i = 0; i < r->diag_count; i++)
        slots[i] = (DlFingerprintSlot){dl_report_line_hash(&r->diags[i]), i};
    /* equal hashes end up together, in report order: their rank is the occurrence */
    qsort(slots, r->diag_count, sizeof *slots, dl_fingerprint_slot_cmp);
    for (size_t i = 0; i < r->diag_count; i++) {
        bool same = i > 0 && slots[i - 1].hash == slots[i].hash;
        int occurrence = same ? fp[slots[i - 1].index].occurrence + 1 : 1;
        fp[slots[i].index] = (DlFingerprint){slots[i].hash, occurrence};
    }
    free(slots);
}
