/* Jupyter notebooks: a small JSON scanner that finds each cell's `source` strings with their byte
 * offsets and file lines, the joined program with IPython magics masked, and write-back that
 * replaces only the bytes of changed lines (cJSON keeps no positions, so it cannot do this).
 *
 * Representation. The scanner validates the whole document (Python's json module is the
 * reference: NaN/Infinity are accepted, raw control characters in strings are not) and records
 * every source string token as the offsets of its two quotes. Decoding a cell's tokens yields
 * its lines; a line break is a decoded "\n", "\r\n" or lone "\r" (the same breaks as
 * core/source, so the program's line numbers agree with the line map). Each program line keeps
 * the raw JSON spans ("segments") its text was decoded from, the escapes of its line break
 * excluded. A line usually has one segment; one that continues over several strings of the
 * array form (["a", "b\n"]) has one per string; a line of an empty array has none.
 *
 * Write-back replaces the first segment of a changed line with the new text, encoded the way
 * Jupyter writes JSON, and empties its other segments; every other byte of the file (line-break
 * escapes, the other lines, quotes, commas, indentation, outputs, metadata) is copied. */
#define _GNU_SOURCE
#include "frontend/notebook.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/source.h"
#include "core/vec.h"

enum { NB_MAX_DEPTH = 1000 }; /* Python's json gives up at about the same nesting */

/* ---- errors and memory ---- */

static void *nb_xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* Always returns false so callers can `return nb_fail(...)`. */
__attribute__((format(printf, 2, 3))) static bool nb_fail(char **error, const char *fmt, ...) {
    if (!error) return false;
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    *error = nb_xmalloc((size_t)n + 1);
    vsnprintf(*error, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return false;
}

/* ---- the JSON scanner ---- */

/* One JSON string token. A string cannot hold a raw newline, so it sits on one file line. */
typedef struct {
    size_t open, close; /* offsets of the opening and the closing quote */
    int line;
} NbString;

typedef enum { NB_SRC_MISSING, NB_SRC_STRING, NB_SRC_ARRAY, NB_SRC_BAD } NbSourceKind;

typedef struct {
    bool is_object, is_code;
    NbSourceKind kind;
    int value_line;                    /* file line where the source value starts */
    size_t first_string, string_count; /* the source's tokens in NbScan.strings */
    size_t value_start, value_end;     /* the source value's bytes, `[`...`]` or `"`...`"` */
} NbCell;

typedef struct {
    const char *s;
    size_t len, pos;
    int line;
    int fail_line; /* 0 until the text turns out not to be JSON */
    bool too_deep, bad_utf8;
    bool has_cells, cells_not_list, has_worksheets;
    /* the language its metadata names (`language_info.name`, else `kernelspec.language`):
     * a notebook of another kernel (Lua's iTorch, R, Julia) holds no Python to check */
    NbString language_info, kernel_language;
    bool has_language_info, has_kernel_language;
    DL_VEC(NbString) strings;
    DL_VEC(NbCell) cells;
} NbScan;

static bool nb_syntax(NbScan *sc) {
    if (!sc->fail_line) sc->fail_line = sc->line;
    return false;
}

static void nb_ws(NbScan *sc) {
    while (sc->pos < sc->len) {
        char c = sc->s[sc->pos];
        if (c == '\n')
            sc->line++;
        else if (c != ' ' && c != '\t' && c != '\r')
            return;
        sc->pos++;
    }
}

static char nb_peek(NbScan *sc) {
    nb_ws(sc);
    return sc->pos < sc->len ? sc->s[sc->pos] : '\0';
}

static bool nb_hex4(const char *s, size_t at, size_t end, unsigned *out) {
    if (at + 4 > end) return false;
    unsigned v = 0;
    for (size_t i = at; i < at + 4; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (d == 16) return false;
        v = v * 16 + d;
    }
    *out = v;
    return true;
}

/* The length of the UTF-8 sequence at s[p] (RFC 3629: no overlongs, no surrogates), 0 if the
 * bytes are not one. Python's json, the reference, decodes the whole file first. */
static size_t nb_utf8_len(const unsigned char *s, size_t p, size_t end) {
    unsigned char c = s[p];
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    if (c < 0xC2 || c > 0xF4 || p + n > end) return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[p + i] & 0xC0) != 0x80) return 0;
    unsigned char c1 = s[p + 1];
    if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) || (c == 0xF0 && c1 < 0x90) ||
        (c == 0xF4 && c1 > 0x8F))
        return 0;
    return n;
}

/* Scans the string at pos (which is a quote), checking its escapes and its UTF-8. */
static bool nb_string(NbScan *sc, NbString *out) {
    out->open = sc->pos++;
    out->line = sc->line;
    while (sc->pos < sc->len) {
        unsigned char c = (unsigned char)sc->s[sc->pos];
        if (c == '"') {
            out->close = sc->pos++;
            return true;
        }
        if (c < 0x20) return nb_syntax(sc);
        if (c >= 0x80) {
            size_t n = nb_utf8_len((const unsigned char *)sc->s, sc->pos, sc->len);
            if (n == 0) {
                sc->bad_utf8 = true;
                return nb_syntax(sc);
            }
            sc->pos += n;
            continue;
        }
        if (c != '\\') {
            sc->pos++;
            continue;
        }
        if (sc->pos + 1 >= sc->len) break;
        char e = sc->s[sc->pos + 1];
        unsigned ignored;
        if (e == 'u') {
            if (!nb_hex4(sc->s, sc->pos + 2, sc->len, &ignored)) return nb_syntax(sc);
            sc->pos += 6;
        } else if (e && strchr("\"\\/bfnrt", e)) {
            sc->pos += 2;
        } else {
            return nb_syntax(sc);
        }
    }
    return nb_syntax(sc);
}

static bool nb_word(NbScan *sc, const char *word) {
    size_t n = strlen(word);
    if (sc->len - sc->pos < n || memcmp(sc->s + sc->pos, word, n) != 0) return nb_syntax(sc);
    sc->pos += n;
    return true;
}

static size_t nb_digits(NbScan *sc) {
    size_t start = sc->pos;
    while (sc->pos < sc->len && sc->s[sc->pos] >= '0' && sc->s[sc->pos] <= '9')
        sc->pos++;
    return sc->pos - start;
}

/* JSON's number grammar, plus the NaN/Infinity/-Infinity that Python's json writes. */
static bool nb_number(NbScan *sc) {
    if (sc->s[sc->pos] == 'N') return nb_word(sc, "NaN");
    if (sc->s[sc->pos] == '-') sc->pos++;
    if (sc->pos < sc->len && sc->s[sc->pos] == 'I') return nb_word(sc, "Infinity");
    if (sc->pos < sc->len && sc->s[sc->pos] == '0')
        sc->pos++;
    else if (nb_digits(sc) == 0)
        return nb_syntax(sc);
    if (sc->pos < sc->len && sc->s[sc->pos] == '.') {
        sc->pos++;
        if (nb_digits(sc) == 0) return nb_syntax(sc);
    }
    if (sc->pos < sc->len && (sc->s[sc->pos] == 'e' || sc->s[sc->pos] == 'E')) {
        sc->pos++;
        if (sc->pos < sc->len && (sc->s[sc->pos] == '+' || sc->s[sc->pos] == '-')) sc->pos++;
        if (nb_digits(sc) == 0) return nb_syntax(sc);
    }
    return true;
}

/* Called with the scanner at a member's value (or an element); must consume it. */
typedef bool (*NbMemberFn)(NbScan *sc, const NbString *key, int depth, void *ctx);
typedef bool (*NbElementFn)(NbScan *sc, size_t index, int depth, void *ctx);

static bool nb_value(NbScan *sc, int depth);

static bool nb_object(NbScan *sc, int depth, NbMemberFn member, void *ctx) {
    sc->pos++; /* { */
    if (nb_peek(sc) == '}') {
        sc->pos++;
        return true;
    }
    for (;;) {
        NbString key;
        if (nb_peek(sc) != '"' || !nb_string(sc, &key)) return nb_syntax(sc);
        if (nb_peek(sc) != ':') return nb_syntax(sc);
        sc->pos++;
        nb_ws(sc);
        if (!member(sc, &key, depth + 1, ctx)) return false;
        char c = nb_peek(sc);
        sc->pos++;
        if (c == '}') return true;
        if (c != ',') {
            sc->pos--;
            return nb_syntax(sc);
        }
    }
}

static bool nb_array(NbScan *sc, int depth, NbElementFn element, void *ctx) {
    sc->pos++; /* [ */
    if (nb_peek(sc) == ']') {
        sc->pos++;
        return true;
    }
    for (size_t i = 0;; i++) {
        nb_ws(sc);
        if (!element(sc, i, depth + 1, ctx)) return false;
        char c = nb_peek(sc);
        sc->pos++;
        if (c == ']') return true;
        if (c != ',') {
            sc->pos--;
            return nb_syntax(sc);
        }
    }
}

static bool nb_any_member(NbScan *sc, const NbString *key, int depth, void *ctx) {
    return nb_value(sc, depth);
}

static bool nb_any_element(NbScan *sc, size_t index, int depth, void *ctx) {
    return nb_value(sc, depth);
}

static bool nb_value(NbScan *sc, int depth) {
    if (depth > NB_MAX_DEPTH) {
        sc->too_deep = true;
        return nb_syntax(sc);
    }
    NbString ignored;
    switch (nb_peek(sc)) {
    case '{':
        return nb_object(sc, depth, nb_any_member, NULL);
    case '[':
        return nb_array(sc, depth, nb_any_element, NULL);
    case '"':
        return nb_string(sc, &ignored);
    case 't':
        return nb_word(sc, "true");
    case 'f':
        return nb_word(sc, "false");
    case 'n':
        return nb_word(sc, "null");
    case '-':
    case 'N':
    case 'I':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
        return nb_number(sc);
    default:
        return nb_syntax(sc);
    }
}

/* ---- decoding string contents ---- */

static int nb_utf8(unsigned cp, char out[4]) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Decodes the character at s[p] of an already validated string that ends at `end` (its
 * closing quote) into out; returns the offset after it. A surrogate that is not half of a
 * pair cannot be UTF-8 and becomes U+FFFD (an unchanged line still writes back its escape). */
static size_t nb_decode_char(const char *s, size_t p, size_t end, char out[4], int *n) {
    if (s[p] != '\\') {
        out[0] = s[p];
        *n = 1;
        return p + 1;
    }
    char e = s[p + 1];
    if (e != 'u') {
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        out[0] = to[strchr(from, e) - from];
        *n = 1;
        return p + 2;
    }
    unsigned cp = 0, lo = 0;
    nb_hex4(s, p + 2, end, &cp);
    size_t q = p + 6;
    if (cp >= 0xD800 && cp < 0xDC00 && q + 6 <= end && s[q] == '\\' && s[q + 1] == 'u' &&
        nb_hex4(s, q + 2, end, &lo) && lo >= 0xDC00 && lo < 0xE000) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        q += 6;
    } else if (cp >= 0xD800 && cp < 0xE000) {
        cp = 0xFFFD;
    }
    *n = nb_utf8(cp, out);
    return q;
}

/* Whether the token's decoded text equals `lit` (keys and cell types are short). */
static bool nb_string_is(const char *s, const NbString *t, const char *lit) {
    size_t n = strlen(lit), i = 0;
    for (size_t p = t->open + 1; p < t->close;) {
        char buf[4];
        int k;
        p = nb_decode_char(s, p, t->close, buf, &k);
        if (i + (size_t)k > n || memcmp(lit + i, buf, (size_t)k) != 0) return false;
        i += (size_t)k;
    }
    return i == n;
}

/* ---- the notebook's shape: top object, cells, sources ---- */

static bool nb_source_element(NbScan *sc, size_t index, int depth, void *ctx) {
    NbCell *cell = &sc->cells.items[*(size_t *)ctx];
    if (nb_peek(sc) != '"') {
        cell->kind = NB_SRC_BAD;
        return nb_value(sc, depth);
    }
    NbString t;
    if (!nb_string(sc, &t)) return false;
    dl_vec_push(&sc->strings, t);
    cell->string_count++;
    return true;
}

static bool nb_source(NbScan *sc, size_t ci, int depth) {
    NbCell *cell = &sc->cells.items[ci];
    cell->kind = NB_SRC_BAD; /* until it turns out to be a string or an array of strings */
    cell->value_line = sc->line;
    cell->first_string = sc->strings.len;
    cell->string_count = 0;
    char c = nb_peek(sc);
    cell->value_start = sc->pos;
    if (c == '"') {
        NbString t;
        if (!nb_string(sc, &t)) return false;
        dl_vec_push(&sc->strings, t);
        cell->kind = NB_SRC_STRING;
        cell->string_count = 1;
        cell->value_end = sc->pos;
        return true;
    }
    if (c != '[') return nb_value(sc, depth);
    cell->kind = NB_SRC_ARRAY;
    bool ok = nb_array(sc, depth, nb_source_element, &ci);
    sc->cells.items[ci].value_end = sc->pos;
    return ok;
}

static bool nb_cell_member(NbScan *sc, const NbString *key, int depth, void *ctx) {
    size_t ci = *(size_t *)ctx;
    if (nb_string_is(sc->s, key, "source")) return nb_source(sc, ci, depth);
    if (!nb_string_is(sc->s, key, "cell_type")) return nb_value(sc, depth);
    sc->cells.items[ci].is_code = false;
    if (nb_peek(sc) != '"') return nb_value(sc, depth);
    NbString t;
    if (!nb_string(sc, &t)) return false;
    sc->cells.items[ci].is_code = nb_string_is(sc->s, &t, "code");
    return true;
}

static bool nb_cell_element(NbScan *sc, size_t index, int depth, void *ctx) {
    NbCell cell = {.kind = NB_SRC_MISSING};
    cell.is_object = nb_peek(sc) == '{';
    dl_vec_push(&sc->cells, cell);
    if (!cell.is_object) return nb_value(sc, depth);
    size_t ci = sc->cells.len - 1;
    return nb_object(sc, depth, nb_cell_member, &ci);
}

/* Whether the token names Python, in any case and any version (`python`, `Python 3`,
 * `python3`, `ipython`). */
static bool nb_string_names_python(const char *s, const NbString *t) {
    static const char want[] = "python";
    for (size_t p = t->open + 1; p + 6 <= t->close; p++) {
        size_t i = 0;
        while (i < 6 && (s[p + i] | 0x20) == want[i]) i++;
        if (i == 6) return true;
    }
    return false;
}

/* `"name": "lua"` of the metadata's language_info, `"language": "lua"` of its kernelspec. */
static bool nb_language_member(NbScan *sc, const NbString *key, int depth, void *ctx) {
    bool kernelspec = ctx != NULL;
    if (!nb_string_is(sc->s, key, kernelspec ? "language" : "name") || nb_peek(sc) != '"')
        return nb_value(sc, depth);
    NbString *out = kernelspec ? &sc->kernel_language : &sc->language_info;
    if (!nb_string(sc, out)) return false;
    *(kernelspec ? &sc->has_kernel_language : &sc->has_language_info) = true;
    return true;
}

static bool nb_metadata_member(NbScan *sc, const NbString *key, int depth, void *ctx) {
    bool info = nb_string_is(sc->s, key, "language_info");
    bool kernelspec = !info && nb_string_is(sc->s, key, "kernelspec");
    if ((!info && !kernelspec) || nb_peek(sc) != '{') return nb_value(sc, depth);
    return nb_object(sc, depth, nb_language_member, kernelspec ? sc : NULL);
}

/* Whether the metadata names a language other than Python. */
static bool nb_other_language(const NbScan *sc) {
    const NbString *named = sc->has_language_info     ? &sc->language_info
                            : sc->has_kernel_language ? &sc->kernel_language
                                                      : NULL;
    return named && !nb_string_names_python(sc->s, named);
}

static bool nb_top_member(NbScan *sc, const NbString *key, int depth, void *ctx) {
    if (nb_string_is(sc->s, key, "metadata") && nb_peek(sc) == '{')
        return nb_object(sc, depth, nb_metadata_member, NULL);
    if (nb_string_is(sc->s, key, "worksheets")) sc->has_worksheets = true;
    if (!nb_string_is(sc->s, key, "cells")) return nb_value(sc, depth);
    sc->has_cells = true; /* a repeated key wins, as in Python's json */
    sc->cells.len = 0;
    sc->cells_not_list = nb_peek(sc) != '[';
    if (sc->cells_not_list) return nb_value(sc, depth);
    return nb_array(sc, depth, nb_cell_element, NULL);
}

/* Scans the whole text; false with *error when it is not JSON or not a notebook. */
static bool nb_scan(NbScan *sc, char **error) {
    if (sc->len >= 3 && memcmp(sc->s, "\xEF\xBB\xBF", 3) == 0) sc->pos = 3;
    nb_ws(sc);
    if (sc->pos == sc->len) /* a notebook saved empty, or a placeholder in a repository */
        return nb_fail(error, "empty file (a notebook is a JSON object)");
    bool is_object = nb_peek(sc) == '{';
    bool ok = is_object ? nb_object(sc, 1, nb_top_member, NULL) : nb_value(sc, 1);
    nb_ws(sc);
    if (ok && sc->pos < sc->len) ok = nb_syntax(sc); /* something after the top-level value */
    if (!ok && sc->too_deep)
        return nb_fail(error, "JSON nested too deeply (line %d)", sc->fail_line);
    if (!ok && sc->bad_utf8) return nb_fail(error, "not valid UTF-8 (line %d)", sc->fail_line);
    if (!ok) return nb_fail(error, "not valid JSON (line %d)", sc->fail_line);
    if (!is_object) return nb_fail(error, "not a notebook (no top-level object)");
    if (!sc->has_cells && sc->has_worksheets)
        return nb_fail(error, "no cells (an nbformat 3 notebook: convert it with "
                              "`jupyter nbconvert --to notebook --nbformat 4`)");
    if (!sc->has_cells) return nb_fail(error, "no cells");
    if (sc->cells_not_list) return nb_fail(error, "\"cells\" is not a list");
    for (size_t i = 0; i < sc->cells.len; i++) {
        const NbCell *c = &sc->cells.items[i];
        if (!c->is_object) return nb_fail(error, "cell %zu: not an object", i + 1);
        if (c->kind == NB_SRC_BAD)
            return nb_fail(error, "cell %zu: source is not a string or list of strings", i + 1);
        if (c->is_code && c->kind == NB_SRC_MISSING)
            return nb_fail(error, "cell %zu: code cell without source", i + 1);
    }
    return true;
}

/* ---- the program and its line map ---- */

/* A raw span of the JSON text that a program line was decoded from. */
typedef struct {
    size_t start, end;
} NbSegment;

typedef struct {
    size_t text, len;            /* the line in the program (its "\n" excluded) */
    size_t seg_first, seg_count; /* its segments in NbInternal.segs */
    bool masked;                 /* a magic: the program holds spaces, the file the magic */
    size_t indent_at, dedent;    /* the indentation IPython strips (NbInternal.indents) */
} NbLine;

/* A code cell's source value in the JSON, for rewriting it whole when its line count changes. */
typedef struct {
    int cell;
    size_t start, end;              /* the value's bytes */
    size_t first_line, line_count;  /* its program lines */
    bool array;                     /* `[...]` (else one string) */
} NbCellSpan;

typedef struct {
    size_t json_len;
    uint64_t json_hash; /* write-back checks it is given the text the notebook came from */
    NbLine *info;       /* parallel to DlNotebook.lines */
    NbSegment *segs;
    NbCellSpan *cells;  /* code cells, in order */
    size_t cell_count;
    char *indents;      /* the stripped indentation of each cell that had one */
} NbInternal;

/* The indentation IPython strips from line `l` ("" when none: `indents` may be NULL then). */
static const char *nb_indent(const NbInternal *in, const NbLine *l) {
    return l->dedent ? in->indents + l->indent_at : "";
}

typedef struct {
    DL_VEC(char) program;
    DL_VEC(DlNotebookLine) lines;
    DL_VEC(NbLine) info;
    DL_VEC(NbSegment) segs;
    DL_VEC(char) indents;
    int cell;               /* the cell being decoded (1-based) */
    size_t cell_first_line; /* its first line's index */
} NbBuild;

static uint64_t nb_hash(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static void nb_begin_line(NbBuild *b, int file_line) {
    DlNotebookLine l = {b->cell, (int)(b->lines.len - b->cell_first_line) + 1, file_line, 0};
    NbLine info = {.text = b->program.len, .seg_first = b->segs.len};
    dl_vec_push(&b->lines, l);
    dl_vec_push(&b->info, info);
}

static void nb_push_segment(NbBuild *b, size_t start, size_t end) {
    NbSegment seg = {start, end};
    dl_vec_push(&b->segs, seg);
    b->info.items[b->info.len - 1].seg_count++;
}

static void nb_end_line(NbBuild *b) {
    NbLine *info = &b->info.items[b->info.len - 1];
    info->len = b->program.len - info->text;
    dl_vec_push(&b->program, '\n');
}

/* Decodes one cell's source tokens into program lines. A line belongs to the string where its
 * first character (or its line break) is, so ["a\n", "b"] puts "b" on the second string's
 * file line; a source ending in a line break ends with an empty line, like a file would. */
static void nb_cell_lines(NbBuild *b, const char *s, const NbString *tokens, size_t count,
                          int value_line) {
    bool open_line = false, seg_open = false, after_cr = false;
    size_t seg_start = 0;
    for (size_t i = 0; i < count; i++) {
        const NbString *t = &tokens[i];
        for (size_t p = t->open + 1; p < t->close;) {
            char buf[4];
            int n;
            size_t q = nb_decode_char(s, p, t->close, buf, &n);
            bool nl = n == 1 && buf[0] == '\n', cr = n == 1 && buf[0] == '\r';
            if (after_cr && nl) { /* the second half of a "\r\n" break */
                after_cr = false;
                p = q;
                continue;
            }
            after_cr = false;
            if (!open_line) nb_begin_line(b, t->line);
            if (!seg_open) seg_start = p;
            open_line = seg_open = true;
            if (nl || cr) {
                nb_push_segment(b, seg_start, p);
                nb_end_line(b);
                open_line = seg_open = false;
                after_cr = cr;
            } else {
                for (int k = 0; k < n; k++)
                    dl_vec_push(&b->program, buf[k]);
            }
            p = q;
        }
        if (seg_open) nb_push_segment(b, seg_start, t->close);
        seg_open = false;
    }
    if (open_line) {
        nb_end_line(b);
        return;
    }
    if (count == 0) { /* an empty array: a line with nowhere to write */
        nb_begin_line(b, value_line);
    } else {
        const NbString *last = &tokens[count - 1];
        nb_begin_line(b, last->line);
        nb_push_segment(b, last->close, last->close);
    }
    nb_end_line(b);
}

/* ---- masking IPython syntax ---- */

/* Cell magics whose body is not Python: the whole cell is masked. Others (%%time, %%capture,
 * unknown ones) run their body as Python, so only the magic line is masked. IPython also
 * registers `%%HTML` and `%%SVG` as aliases of `%%html` and `%%svg` (SuGaR's viewer notebook). */
static const char *const NB_FOREIGN_CELL_MAGICS[] = {
    "bash",  "sh",         "html",   "javascript", "js",      "writefile", "file",
    "latex", "markdown",   "script", "perl",       "ruby",    "svg",       "sql",
    "cmd",   "powershell", "cython", "R",          "python2", "bigquery",  "shell", /* Colab's */
    "sx",    "system",     "HTML",   "SVG",        NULL,
};

/* What the Python tokenizer would know at a line's start: open brackets, an open string, a
 * backslash continuation. A magic can only start a logical line; `% b` inside parentheses is
 * the modulo operator, and `!important` inside a docstring is text. */
typedef struct {
    int depth;
    char quote; /* the open string's quote, or 0 */
    bool triple, continued;
} NbPyState;

static bool nb_is_space(char c) {
    return c == ' ' || c == '\t' || c == '\f';
}

/* Advances the state over one line; returns the offset after its last character of code (not
 * blank, not in a string or a comment), 0 when it has none. */
static size_t nb_py_scan(NbPyState *st, const char *t, size_t n) {
    size_t i = 0, last = 0;
    st->continued = false;
    while (i < n) {
        char c = t[i];
        if (st->quote) {
            if (c == '\\') {
                st->continued = i + 1 == n;
                i += 2;
            } else if (c == st->quote &&
                       (!st->triple || (i + 2 < n && t[i + 1] == c && t[i + 2] == c))) {
                i += st->triple ? 3 : 1;
                st->quote = 0;
            } else {
                i++;
            }
            continue;
        }
        if (c == '#') break;
        if (c == '"' || c == '\'') {
            st->quote = c;
            st->triple = i + 2 < n && t[i + 1] == c && t[i + 2] == c;
            i += st->triple ? 3 : 1;
            last = i;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') st->depth++;
        if ((c == ')' || c == ']' || c == '}') && st->depth > 0) st->depth--;
        if (c == '\\' && i + 1 == n) st->continued = true;
        if (!nb_is_space(c)) last = i + 1;
        i++;
    }
    if (st->quote && !st->triple && !st->continued) st->quote = 0; /* unterminated: Python errs */
    return last;
}

/* `files = !ls`, `t = %timeit -o f()`: IPython assigns a magic's or a shell's result. */
static bool nb_is_magic_assignment(const char *t, size_t n) {
    size_t i = 0;
    if (n == 0 || !dl_source_name_byte(t[0]) || (t[0] >= '0' && t[0] <= '9')) return false;
    while (i < n && (dl_source_name_byte(t[i]) || nb_is_space(t[i]) || t[i] == '.' || t[i] == ','))
        i++;
    if (i + 1 >= n || t[i] != '=' || t[i + 1] == '=') return false;
    i++;
    while (i < n && nb_is_space(t[i]))
        i++;
    return i < n && (t[i] == '!' || t[i] == '%');
}

/* IPython's automagic: at the top level of a cell, a line magic or a shell alias may be written
 * without its `%` (`cd ..`, `pip install onnx`, `ls -la data`, `matplotlib inline`), as Colab
 * notebooks often do. Only names no one writes as a Python statement of their own are taken:
 * the name alone, or followed by a space and anything but an assignment or a comparison. */
static bool nb_is_automagic_line(const char *t, size_t n) {
    static const char *const names[] = {"cd",    "ls",    "pwd",      "pip",        "conda",
                                        "mkdir", "rmdir", "cp",       "mv",         "rm",
                                        "cat",   "clear", "load_ext", "matplotlib", NULL};
    size_t word = 0;
    while (word < n && dl_source_name_byte(t[word]))
        word++;
    bool known = false;
    for (const char *const *m = names; *m && !known; m++)
        known = strlen(*m) == word && memcmp(*m, t, word) == 0;
    if (!known) return false;
    size_t i = word;
    while (i < n && nb_is_space(t[i]))
        i++;
    if (i == n) return true;
    if (i == word) return false; /* `cd.x`, `ls(x)`, `rm[0]` */
    bool not_equal = t[i] == '!' && i + 1 < n && t[i + 1] == '=';
    return t[i] != '=' && t[i] != '<' && t[i] != '>' && !not_equal;
}

/* A line magic, a shell escape, or a help request, given where the line's code ends. */
static bool nb_is_magic_line(const char *t, size_t n, size_t code_end) {
    size_t i = 0;
    while (i < n && nb_is_space(t[i]))
        i++;
    if (i == n) return false;
    if (t[i] == '%' || t[i] == '!' || t[i] == '?') return true;
    if (i == 0 && nb_is_automagic_line(t, n)) return true;
    /* `obj?`, `obj??`: outside strings and comments `?` is no Python operator */
    if (code_end > 0 && t[code_end - 1] == '?') return true;
    return nb_is_magic_assignment(t + i, n - i);
}

static bool nb_is_foreign_cell_magic(const char *t, size_t n) {
    size_t i = 0;
    while (i < n && nb_is_space(t[i]))
        i++;
    if (n - i < 2 || t[i] != '%' || t[i + 1] != '%') return false;
    size_t name = i + 2, end = name;
    while (end < n && dl_source_name_byte(t[end]))
        end++;
    for (const char *const *m = NB_FOREIGN_CELL_MAGICS; *m; m++)
        if (strlen(*m) == end - name && memcmp(*m, t + name, end - name) == 0) return true;
    return false;
}

/* A masked line keeps its leading indentation as written (a tab stays a tab) and blanks the rest,
 * so the write-back can tell it from the text it replaced and the columns after it keep their
 * meaning. Returns the indentation's length. */
static size_t nb_mask(NbBuild *b, size_t line) {
    NbLine *l = &b->info.items[line];
    size_t indent = 0;
    while (indent < l->len && nb_is_space(b->program.items[l->text + indent]))
        indent++;
    memset(b->program.items + l->text + indent, ' ', l->len - indent);
    l->masked = true;
    return indent;
}

/* A line magic that starts a block becomes `0` at its indentation: IPython runs it as a
 * statement (`!wget ...` is `get_ipython().system(...)`), so a block whose body is only a magic
 * still has one. */
static void nb_mask_as_statement(NbBuild *b, size_t line) {
    NbLine *l = &b->info.items[line];
    size_t indent = nb_mask(b, line);
    if (indent < l->len) b->program.items[l->text + indent] = '0';
}

static bool nb_line_is_blank(const NbBuild *b, size_t line) {
    const NbLine *l = &b->info.items[line];
    for (size_t i = 0; i < l->len; i++)
        if (!nb_is_space(b->program.items[l->text + i])) return false;
    return true;
}

/* IPython strips the indentation of a cell's first line that is not blank from every line that
 * starts with it before it compiles the cell (inputtransformer2's leading_indent), so a cell
 * pasted from inside a function runs. The program holds lines [first, end) so stripped; each
 * line records what was taken, for positions and for write-back. */
static void nb_dedent_cell(NbBuild *b, size_t first, size_t end) {
    size_t i = first;
    while (i < end && nb_line_is_blank(b, i))
        i++;
    if (i == end) return;
    const char *t = b->program.items + b->info.items[i].text;
    size_t width = 0;
    while (width < b->info.items[i].len && (t[width] == ' ' || t[width] == '\t'))
        width++;
    if (!width) return;
    size_t indent_at = b->indents.len;
    for (size_t k = 0; k < width; k++)
        dl_vec_push(&b->indents, t[k]);
    const char *indent = b->indents.items + indent_at;
    size_t to = b->info.items[first].text; /* the cell's lines are contiguous: compact them */
    for (size_t k = first; k < end; k++) {
        NbLine *l = &b->info.items[k];
        const char *from = b->program.items + l->text;
        bool strip = l->len >= width && memcmp(from, indent, width) == 0;
        size_t keep = strip ? l->len - width : l->len;
        memmove(b->program.items + to, from + (strip ? width : 0), keep);
        b->program.items[to + keep] = '\n';
        l->text = to;
        l->len = keep;
        l->indent_at = indent_at;
        l->dedent = strip ? width : 0;
        b->lines.items[k].column_shift = (int)l->dedent;
        to += keep + 1;
    }
    b->program.len = to;
}

/* Masks the magics among lines [first, end) of one cell. */
static void nb_mask_cell(NbBuild *b, size_t first, size_t end) {
    size_t i = first;
    while (i < end && nb_line_is_blank(b, i))
        i++; /* IPython drops leading blank lines */
    if (i < end &&
        nb_is_foreign_cell_magic(b->program.items + b->info.items[i].text, b->info.items[i].len)) {
        for (; i < end; i++)
            nb_mask(b, i);
        return;
    }
    NbPyState st = {0};
    bool opens_block = false; /* the last line of code ended a block's header (`if x:`) */
    for (; i < end; i++) {
        const char *t = b->program.items + b->info.items[i].text;
        size_t n = b->info.items[i].len;
        bool logical_start = st.depth == 0 && !st.quote && !st.continued;
        NbPyState next = st;
        size_t code_end = nb_py_scan(&next, t, n);
        if (!logical_start || !nb_is_magic_line(t, n, code_end)) {
            st = next;
            if (code_end > 0)
                opens_block = t[code_end - 1] == ':' && !st.depth && !st.quote && !st.continued;
            continue;
        }
        /* the state stays as it was before the magic, which goes on over the lines its
         * backslashes continue (`!python prepare.py \` then `  --data_root data`) */
        bool continued = n > 0 && t[n - 1] == '\\';
        if (opens_block)
            nb_mask_as_statement(b, i);
        else
            nb_mask(b, i);
        opens_block = false;
        while (continued && i + 1 < end) {
            i++;
            t = b->program.items + b->info.items[i].text;
            n = b->info.items[i].len;
            continued = n > 0 && t[n - 1] == '\\';
            nb_mask(b, i);
        }
    }
}

/* ---- loading ---- */

bool dl_notebook_load(const char *json, size_t len, DlNotebook *out, char **error) {
    memset(out, 0, sizeof *out);
    NbScan sc = {.s = json, .len = len, .line = 1};
    if (!nb_scan(&sc, error)) {
        dl_vec_free(&sc.strings);
        dl_vec_free(&sc.cells);
        return false;
    }
    NbBuild b = {0};
    DL_VEC(NbCellSpan) spans = {0};
    bool python = !nb_other_language(&sc); /* ruff skips the others too */
    for (size_t i = 0; python && i < sc.cells.len; i++) {
        const NbCell *c = &sc.cells.items[i];
        if (!c->is_code) continue;
        b.cell = (int)i + 1;
        b.cell_first_line = b.lines.len;
        nb_cell_lines(&b, json, sc.strings.items + c->first_string, c->string_count, c->value_line);
        nb_dedent_cell(&b, b.cell_first_line, b.lines.len);
        nb_mask_cell(&b, b.cell_first_line, b.lines.len);
        NbCellSpan span = {b.cell, c->value_start, c->value_end, b.cell_first_line,
                           b.lines.len - b.cell_first_line, c->kind == NB_SRC_ARRAY};
        dl_vec_push(&spans, span);
    }
    dl_vec_free(&sc.strings);
    dl_vec_free(&sc.cells);

    dl_vec_push(&b.program, '\0');
    NbInternal *in = nb_xmalloc(sizeof *in);
    in->json_len = len;
    in->json_hash = nb_hash(json, len);
    in->info = b.info.items;
    in->segs = b.segs.items;
    in->cells = spans.items;
    in->cell_count = spans.len;
    in->indents = b.indents.items;
    out->program = b.program.items;
    out->program_len = b.program.len - 1;
    out->lines = b.lines.items;
    out->line_count = b.lines.len;
    out->internal = in;
    return true;
}

size_t dl_notebook_code_cells(const DlNotebook *nb, int *cells, size_t *first_lines,
                              size_t *line_counts, size_t max) {
    const NbInternal *in = nb->internal;
    size_t n = in ? in->cell_count : 0;
    for (size_t i = 0; i < n && i < max; i++) {
        if (cells) cells[i] = in->cells[i].cell;
        if (first_lines) first_lines[i] = in->cells[i].first_line;
        if (line_counts) line_counts[i] = in->cells[i].line_count;
    }
    return n;
}

void dl_notebook_mask_cell(DlNotebook *nb, int cell) {
    NbInternal *in = nb->internal;
    for (size_t i = 0; in && i < in->cell_count; i++) {
        if (in->cells[i].cell != cell) continue;
        for (size_t k = 0; k < in->cells[i].line_count; k++) {
            NbLine *l = &in->info[in->cells[i].first_line + k];
            memset(nb->program + l->text, ' ', l->len);
            l->masked = true; /* written back as it was */
        }
    }
}

void dl_notebook_free(DlNotebook *nb) {
    if (!nb) return;
    NbInternal *in = nb->internal;
    if (in) {
        free(in->info);
        free(in->segs);
        free(in->cells);
        free(in->indents);
        free(in);
    }
    free(nb->program);
    free(nb->lines);
    memset(nb, 0, sizeof *nb);
}

/* ---- write-back ---- */

typedef DL_VEC(char) NbText;

static void nb_append(NbText *out, const char *s, size_t n) {
    dl_vec_reserve(out, out->len + n);
    if (n) memcpy(out->items + out->len, s, n);
    out->len += n;
}

/* JSON-encodes string contents the way Jupyter (Python's json, ensure_ascii=False) does:
 * quotes, backslashes and control characters are escaped, everything else is kept. */
static void nb_encode(NbText *out, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = c == '"'    ? "\\\""
                          : c == '\\' ? "\\\\"
                          : c == '\n' ? "\\n"
                          : c == '\r' ? "\\r"
                          : c == '\t' ? "\\t"
                          : c == '\b' ? "\\b"
                          : c == '\f' ? "\\f"
                                      : NULL;
        char hex[8];
        if (!esc && c < 0x20) {
            snprintf(hex, sizeof hex, "\\u%04x", c);
            esc = hex;
        }
        if (esc)
            nb_append(out, esc, strlen(esc));
        else
            dl_vec_push(out, (char)c);
    }
}

/* Splits `text` at "\n" into exactly `want` lines (a final "\n" ends the last line). */
static bool nb_split_lines(const char *text, size_t len, size_t want, size_t *starts, size_t *lens,
                           char **error) {
    size_t count = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        bool at_end = i == len;
        if (!at_end && text[i] != '\n') continue;
        if (at_end && start == len) break; /* nothing after the last "\n" */
        if (count < want) {
            starts[count] = start;
            lens[count] = i - start;
        }
        count++;
        start = i + 1;
    }
    if (count != want)
        return nb_fail(error, "the new program has %zu lines, the notebook's has %zu", count, want);
    return true;
}

char *dl_notebook_write_back(const DlNotebook *nb, const char *json, size_t json_len,
                             const char *new_program, size_t new_len, size_t *out_len,
                             char **error) {
    const NbInternal *in = nb->internal;
    if (!in || json_len != in->json_len || nb_hash(json, json_len) != in->json_hash) {
        nb_fail(error, "the notebook changed since it was loaded");
        return NULL;
    }
    size_t n = nb->line_count;
    size_t *starts = nb_xmalloc(n * sizeof *starts), *lens = nb_xmalloc(n * sizeof *lens);
    NbText out = {0};
    if (!nb_split_lines(new_program, new_len, n, starts, lens, error)) goto fail;

    size_t copied = 0; /* json[0, copied) is already in out */
    for (size_t i = 0; i < n; i++) {
        const NbLine *l = &in->info[i];
        const char *text = new_program + starts[i];
        if (l->masked || (lens[i] == l->len && memcmp(text, nb->program + l->text, l->len) == 0))
            continue;
        if (l->seg_count == 0) {
            nb_fail(error, "cell %d: cannot write code into an empty source", nb->lines[i].cell);
            goto fail;
        }
        for (size_t k = 0; k < l->seg_count; k++) {
            const NbSegment *seg = &in->segs[l->seg_first + k];
            nb_append(&out, json + copied, seg->start - copied);
            if (k == 0) {
                nb_encode(&out, nb_indent(in, l), l->dedent);
                nb_encode(&out, text, lens[i]);
            }
            copied = seg->end;
        }
    }
    nb_append(&out, json + copied, json_len - copied);
    dl_vec_push(&out, '\0');
    free(starts);
    free(lens);
    *out_len = out.len - 1;
    return out.items;

fail:
    free(starts);
    free(lens);
    dl_vec_free(&out);
    return NULL;
}

/* Rewrites a cell's whole source value: an array keeps the original's layout (the whitespace
 * before its first element and before `]`), one element per line like Jupyter writes them. */
static void nb_encode_cell(NbText *out, const char *json, const NbCellSpan *span, const char *text,
                           size_t len) {
    if (!span->array) {
        dl_vec_push(out, '"');
        nb_encode(out, text, len);
        dl_vec_push(out, '"');
        return;
    }
    const char *v = json + span->start;
    size_t vlen = span->end - span->start, open_ws = 1, close_ws = vlen - 1;
    while (open_ws < vlen && (v[open_ws] == ' ' || v[open_ws] == '\n' || v[open_ws] == '\r' ||
                              v[open_ws] == '\t'))
        open_ws++;
    while (close_ws > open_ws && (v[close_ws - 1] == ' ' || v[close_ws - 1] == '\n' ||
                                  v[close_ws - 1] == '\r' || v[close_ws - 1] == '\t'))
        close_ws--;
    const char *lead = open_ws > 1 && open_ws < vlen - 1 ? v + 1 : "\n    ";
    size_t lead_len = open_ws > 1 && open_ws < vlen - 1 ? open_ws - 1 : 5;
    const char *trail = close_ws < vlen - 1 ? v + close_ws : "\n   ";
    size_t trail_len = close_ws < vlen - 1 ? vlen - 1 - close_ws : 4;
    dl_vec_push(out, '[');
    size_t start = 0;
    bool first = true;
    while (start < len) {
        size_t end = start;
        while (end < len && text[end] != '\n') end++;
        if (end < len) end++; /* each element keeps its "\n" but the last */
        if (!first) dl_vec_push(out, ',');
        nb_append(out, lead, lead_len);
        dl_vec_push(out, '"');
        nb_encode(out, text + start, end - start);
        dl_vec_push(out, '"');
        first = false;
        start = end;
    }
    if (!first) nb_append(out, trail, trail_len);
    dl_vec_push(out, ']');
}

/* Is `text` (n bytes, in the cell's columns) program line `i` as the cell holds it? */
static bool nb_line_is(const NbInternal *in, const DlNotebook *nb, size_t i, const char *text,
                       size_t n) {
    const NbLine *l = &in->info[i];
    return n == l->dedent + l->len && memcmp(text, nb_indent(in, l), l->dedent) == 0 &&
           memcmp(text + l->dedent, nb->program + l->text, l->len) == 0;
}

char *dl_notebook_line_text(const DlNotebook *nb, size_t line) {
    const NbInternal *in = nb->internal;
    if (!in || line >= nb->line_count) return NULL;
    const NbLine *l = &in->info[line];
    NbText out = {0};
    nb_append(&out, nb_indent(in, l), l->dedent);
    nb_append(&out, nb->program + l->text, l->len);
    dl_vec_push(&out, '\0');
    return out.items;
}

char *dl_notebook_cell_text(const DlNotebook *nb, int cell, size_t *len) {
    const NbInternal *in = nb->internal;
    for (size_t c = 0; in && c < in->cell_count; c++) {
        const NbCellSpan *span = &in->cells[c];
        if (span->cell != cell) continue;
        NbText out = {0};
        for (size_t k = 0; k < span->line_count; k++) {
            const NbLine *l = &in->info[span->first_line + k];
            nb_append(&out, nb_indent(in, l), l->dedent);
            nb_append(&out, nb->program + l->text, l->len);
            dl_vec_push(&out, '\n');
        }
        *len = out.len;
        dl_vec_push(&out, '\0');
        return out.items;
    }
    return NULL;
}

char *dl_notebook_write_cells(const DlNotebook *nb, const char *json, size_t json_len,
                              const char *const *cell_texts, const size_t *cell_lens,
                              size_t cell_count, size_t *out_len, char **error) {
    const NbInternal *in = nb->internal;
    if (!in || json_len != in->json_len || nb_hash(json, json_len) != in->json_hash) {
        nb_fail(error, "the notebook changed since it was loaded");
        return NULL;
    }
    NbText out = {0};
    size_t copied = 0;
    for (size_t c = 0; c < in->cell_count; c++) {
        const NbCellSpan *span = &in->cells[c];
        size_t idx = (size_t)span->cell - 1;
        if (idx >= cell_count || !cell_texts[idx]) continue;
        const char *text = cell_texts[idx];
        size_t len = cell_lens[idx];
        /* its lines, without the "\n" that ends the cell in the program */
        size_t lines = 1;
        for (size_t i = 0; i + 1 < len; i++) lines += text[i] == '\n';
        if (len && text[len - 1] == '\n') len--;
        if (lines == span->line_count) {
            /* the same lines: replace only those that changed, keeping every other byte */
            size_t start = 0;
            for (size_t k = 0; k < span->line_count; k++) {
                size_t end = start;
                while (end < len && text[end] != '\n') end++;
                size_t i = span->first_line + k;
                const NbLine *l = &in->info[i];
                bool same = nb_line_is(in, nb, i, text + start, end - start);
                if (!l->masked && !same) {
                    if (l->seg_count == 0) {
                        nb_fail(error, "cell %d: cannot write code into an empty source", span->cell);
                        dl_vec_free(&out);
                        return NULL;
                    }
                    for (size_t g = 0; g < l->seg_count; g++) {
                        const NbSegment *seg = &in->segs[l->seg_first + g];
                        nb_append(&out, json + copied, seg->start - copied);
                        if (g == 0) nb_encode(&out, text + start, end - start);
                        copied = seg->end;
                    }
                }
                start = end + 1;
            }
            continue;
        }
        for (size_t k = 0; k < span->line_count; k++)
            if (in->info[span->first_line + k].masked) {
                nb_fail(error, "cell %d: cannot add or remove lines in a cell with magics", span->cell);
                dl_vec_free(&out);
                return NULL;
            }
        nb_append(&out, json + copied, span->start - copied);
        nb_encode_cell(&out, json, span, text, len);
        copied = span->end;
    }
    nb_append(&out, json + copied, json_len - copied);
    dl_vec_push(&out, '\0');
    *out_len = out.len - 1;
    return out.items;
}
