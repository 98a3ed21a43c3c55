/* Suppression comments: finds `devlint: ignore[...]`, `noqa[: codes]` and `devlint: skip-file`
 * in the comments a front end hands over, and answers whether a finding on a line is silenced. */
#include "suppress.h"

#include "source.h"
#include "vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The part of one comment that lies on one line of the file. Directives never span lines,
 * so the codes of a directive share its line and their columns count from line_start. */
typedef struct DlCommentLine {
    const char *text;  /* the whole file */
    size_t line_start; /* first byte of the file's line, after a BOM on line 1 */
    size_t begin, end; /* the comment's bytes on this line */
    int line;
} DlCommentLine;

typedef DL_VEC(DlSuppressionCode) DlCodeVec;

/* Characters of a code or rule name ("DL101", "unassigned-to"); ASCII only, so for a code
 * bytes and code points are the same count. */
static bool dl_suppress_is_word(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

static bool dl_suppress_is_blank(char c) {
    return c == ' ' || c == '\t';
}

static size_t dl_suppress_skip_blanks(const DlCommentLine *ln, size_t q) {
    while (q < ln->end && dl_suppress_is_blank(ln->text[q]))
        q++;
    return q;
}

/* Is the whole word `word` at q (followed by a non-word character or the end)? */
static bool dl_suppress_word_at(const DlCommentLine *ln, size_t q, const char *word) {
    size_t n = strlen(word);
    if (ln->end - q < n || memcmp(ln->text + q, word, n) != 0) return false;
    return q + n == ln->end || !dl_suppress_is_word(ln->text[q + n]);
}

/* Letters then digits, the shape of every linter's codes (E501, B008, DL101). */
static bool dl_suppress_code_shaped(const char *s, size_t n) {
    size_t i = 0;
    while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
        i++;
    if (i == 0 || i == n) return false;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i == n;
}

static void dl_suppress_add_code(const DlCommentLine *ln, size_t start, size_t len,
                                 DlCodeVec *codes) {
    char *text = malloc(len + 1);
    if (!text) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    memcpy(text, ln->text + start, len);
    text[len] = '\0';
    int column = dl_utf8_count(ln->text + ln->line_start, start - ln->line_start) + 1;
    DlSuppressionCode code = {text, column, column + (int)len};
    dl_vec_push(codes, code);
}

/* Keeps items sorted by line; comments arrive in order, so this rarely moves anything. */
static void dl_suppress_push(DlSuppressions *out, DlSuppression item, DlCodeVec *codes) {
    item.codes = codes->items;
    item.code_count = codes->len;
    if (out->count == out->cap) {
        size_t cap = out->cap ? out->cap * 2 : 8;
        DlSuppression *grown = realloc(out->items, cap * sizeof *grown);
        if (!grown) {
            fputs("devlint: out of memory\n", stderr);
            abort();
        }
        out->items = grown;
        out->cap = cap;
    }
    size_t i = out->count++;
    for (; i > 0 && out->items[i - 1].line > item.line; i--)
        out->items[i] = out->items[i - 1];
    out->items[i] = item;
}

/* `ignore[...]`'s list from q (just past the '['): words separated by anything else. Returns
 * the position after the ']' (or the end of the line when it is missing). */
static size_t dl_suppress_list(const DlCommentLine *ln, size_t q, DlCodeVec *codes) {
    const char *t = ln->text;
    while (q < ln->end && t[q] != ']') {
        if (!dl_suppress_is_word(t[q])) {
            q++;
            continue;
        }
        size_t start = q;
        while (q < ln->end && dl_suppress_is_word(t[q]))
            q++;
        dl_suppress_add_code(ln, start, q - start, codes);
    }
    return q < ln->end ? q + 1 : q;
}

/* `devlint` at k: `: skip-file` or `: ignore` with an optional list. Returns where to go on. */
static size_t dl_suppress_devlint(const DlCommentLine *ln, size_t k, DlSuppressions *out) {
    size_t q = dl_suppress_skip_blanks(ln, k + strlen("devlint"));
    if (q >= ln->end || ln->text[q] != ':') return q;
    q = dl_suppress_skip_blanks(ln, q + 1);
    if (dl_suppress_word_at(ln, q, "skip-file")) {
        out->skip_file = true;
        return q + strlen("skip-file");
    }
    if (!dl_suppress_word_at(ln, q, "ignore")) return q;
    q += strlen("ignore");
    size_t bracket = dl_suppress_skip_blanks(ln, q);
    DlSuppression item = {.line = ln->line};
    DlCodeVec codes = {0};
    if (bracket < ln->end && ln->text[bracket] == '[') {
        q = dl_suppress_list(ln, bracket + 1, &codes);
        if (!codes.len) return q; /* `ignore[]` names nothing, so silences nothing */
    } else {
        item.all = true;
    }
    dl_suppress_push(out, item, &codes);
    return q;
}

/* `# noqa`, `// noqa`, `# text # noqa`, or a comment line that starts with it; not prose
 * that merely mentions noqa ("# why not noqa here"). */
static bool dl_suppress_after_marker(const DlCommentLine *ln, size_t k) {
    while (k > ln->begin && dl_suppress_is_blank(ln->text[k - 1]))
        k--;
    if (k == ln->begin) return true;
    char c = ln->text[k - 1];
    return c == '#' || c == '/' || c == '*';
}

/* `noqa` at k (any case): blanket, or `: CODE, CODE CODE` up to the first non-code word. */
static size_t dl_suppress_noqa(const DlCommentLine *ln, size_t k, DlSuppressions *out) {
    const char *t = ln->text;
    size_t q = k + strlen("noqa");
    if (q < ln->end && dl_suppress_is_word(t[q])) return q; /* "noqa_x", "noqa1" */
    if (!dl_suppress_after_marker(ln, k)) return q;
    DlSuppression item = {.line = ln->line, .is_noqa = true};
    DlCodeVec codes = {0};
    if (q < ln->end && t[q] == ':') {
        for (q++;;) {
            while (q < ln->end && (dl_suppress_is_blank(t[q]) || t[q] == ','))
                q++;
            size_t start = q;
            while (q < ln->end && dl_suppress_is_word(t[q]))
                q++;
            if (q == start || !dl_suppress_code_shaped(t + start, q - start)) {
                q = start;
                break;
            }
            dl_suppress_add_code(ln, start, q - start, &codes);
        }
    }
    item.all = codes.len == 0;
    dl_suppress_push(out, item, &codes);
    return q;
}

static void dl_suppress_scan_line(const DlCommentLine *ln, DlSuppressions *out) {
    const char *t = ln->text;
    for (size_t k = ln->begin; k < ln->end;) {
        bool word_start = k == ln->begin || !dl_suppress_is_word(t[k - 1]);
        if (word_start && dl_suppress_word_at(ln, k, "devlint")) {
            k = dl_suppress_devlint(ln, k, out);
        } else if (word_start && ln->end - k >= 4 && strncasecmp(t + k, "noqa", 4) == 0) {
            k = dl_suppress_noqa(ln, k, out);
        } else {
            k++;
        }
    }
}

/* Start of the file line holding `pos`; a BOM on line 1 takes no column. */
static size_t dl_suppress_line_start(const char *text, size_t pos) {
    while (pos > 0 && text[pos - 1] != '\n' && text[pos - 1] != '\r')
        pos--;
    if (pos == 0 && strncmp(text, "\xEF\xBB\xBF", 3) == 0) return 3;
    return pos;
}

static void dl_suppress_scan_comment(const char *text, const DlCommentSpan *c,
                                     DlSuppressions *out) {
    DlCommentLine ln = {text, dl_suppress_line_start(text, c->start), c->start, c->start, c->line};
    while (ln.begin < c->end) {
        ln.end = ln.begin;
        while (ln.end < c->end && text[ln.end] != '\n' && text[ln.end] != '\r')
            ln.end++;
        if (ln.line_start > ln.begin) ln.line_start = ln.begin; /* a comment inside the BOM */
        dl_suppress_scan_line(&ln, out);
        size_t next = ln.end + 1;
        if (ln.end + 1 < c->end && text[ln.end] == '\r' && text[ln.end + 1] == '\n') next++;
        ln.begin = ln.line_start = next;
        ln.line++;
    }
}

void dl_suppressions_parse(const char *text, const DlCommentSpan *comments, size_t comment_count,
                           DlSuppressions *out) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < comment_count; i++)
        dl_suppress_scan_comment(text, &comments[i], out);
}

static bool dl_suppression_covers(const DlSuppression *s, const char *code, const char *name) {
    if (s->all) return true;
    for (size_t i = 0; i < s->code_count; i++) {
        const char *listed = s->codes[i].text;
        if (code && strcasecmp(listed, code) == 0) return true;
        if (name && strcmp(listed, name) == 0) return true;
    }
    return false;
}

bool dl_suppressions_match(const DlSuppressions *s, int line, const char *code, const char *name) {
    size_t lo = 0, hi = s->count; /* first item on `line` or after it */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->items[mid].line < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < s->count && s->items[i].line == line; i++)
        if (dl_suppression_covers(&s->items[i], code, name)) return true;
    return false;
}

void dl_suppressions_free(DlSuppressions *s) {
    for (size_t i = 0; i < s->count; i++) {
        for (size_t j = 0; j < s->items[i].code_count; j++)
            free(s->items[i].codes[j].text);
        free(s->items[i].codes);
    }
    free(s->items);
    memset(s, 0, sizeof *s);
}
