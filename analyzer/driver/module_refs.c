/* The identifiers through which a file may name a module (see module_refs.h): a small scanner
 * over Python's tokens (names, dots, brackets, strings, comments, line ends), not a parser. */
#include "driver/module_refs.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/vec.h"

/* What a byte starts (one table lookup per byte: the scan runs over every file's text). */
enum {
    C_OTHER = 0, /* operators, and anything else that ends a chain of names */
    C_SPACE,
    C_NEWLINE,
    C_NAME, /* a letter, '_' or (conservatively) any non-ASCII byte */
    C_DIGIT,
    C_QUOTE,
    C_HASH,
    C_DOT,
    C_OPEN,
    C_CLOSE,
    C_BACKSLASH,
    C_SEMICOLON,
    C_COLON,
};

static const unsigned char byte_class[256] = {
    [' '] = C_SPACE,         ['\t'] = C_SPACE,      ['\f'] = C_SPACE,     ['\r'] = C_SPACE,
    ['\n'] = C_NEWLINE,      ['a' ... 'z'] = C_NAME, ['A' ... 'Z'] = C_NAME, ['_'] = C_NAME,
    [0x80 ... 0xff] = C_NAME, ['0' ... '9'] = C_DIGIT, ['\''] = C_QUOTE,    ['"'] = C_QUOTE,
    ['#'] = C_HASH,          ['.'] = C_DOT,         ['('] = C_OPEN,       ['['] = C_OPEN,
    ['{'] = C_OPEN,          [')'] = C_CLOSE,       [']'] = C_CLOSE,      ['}'] = C_CLOSE,
    ['\\'] = C_BACKSLASH,    [';'] = C_SEMICOLON,   [':'] = C_COLON,
};

static bool name_char(unsigned char c) {
    return byte_class[c] == C_NAME || byte_class[c] == C_DIGIT;
}

typedef DL_VEC(uint32_t) HashVec;

typedef struct Member {
    uint32_t root, name; /* `root.….name` */
} Member;

typedef struct Scanner {
    const unsigned char *text;
    size_t len, at;
    HashVec listed;  /* import statements, base lists, f-strings */
    HashVec bases;   /* base lists only */
    bool import_alias; /* an import binds a name under another (`import x as y`) */
    HashVec imports; /* the identifiers of import statements: the roots that count */
    DL_VEC(Member) members;
    int depth;            /* open brackets */
    bool in_import;       /* between `import`/`from` and the end of its statement */
    int import_depth;     /* the depth it started at */
    int class_state;      /* 0, 1 after `class`, 2 after its name, 3 in its base list */
    int base_depth;       /* the depth inside the base list's parenthesis */
    bool after_dot;       /* the last token was `.` */
    bool has_root;        /* a chain is open: a name, then `.name`s */
    size_t root_at, root_len; /* its first name, hashed only once a `.name` follows */
    bool root_hashed;
    uint32_t root;
    const char *wanted; /* dl_code_names: the identifier looked for, and whether it was seen */
    size_t wanted_len;
    bool seen;
} Scanner;

static void end_statement(Scanner *s) {
    s->in_import = false;
    s->class_state = 0;
    s->has_root = s->after_dot = false;
}

static uint32_t hash_at(const Scanner *s, size_t at, size_t n) {
    return dl_name_hash((const char *)s->text + at, n);
}

/* A string literal from its opening quote (`prefix_f`: an f-string); every identifier of an
 * f-string is listed, since its braces hold code. */
static void skip_string(Scanner *s, bool prefix_f) {
    unsigned char q = s->text[s->at];
    bool triple = s->at + 2 < s->len && s->text[s->at + 1] == q && s->text[s->at + 2] == q;
    s->at += triple ? 3 : 1;
    while (s->at < s->len) {
        unsigned char c = s->text[s->at];
        if (c == '\\') {
            s->at += 2;
            continue;
        }
        if (c == q && (!triple || (s->at + 2 < s->len && s->text[s->at + 1] == q &&
                                   s->text[s->at + 2] == q))) {
            s->at += triple ? 3 : 1;
            return;
        }
        if (c == '\n' && !triple) return; /* unterminated: the line ends it */
        if (prefix_f && byte_class[c] == C_NAME) {
            size_t start = s->at;
            while (s->at < s->len && name_char(s->text[s->at])) s->at++;
            dl_vec_push(&s->listed, hash_at(s, start, s->at - start));
            s->seen |= s->wanted && s->at - start == s->wanted_len &&
                       memcmp(s->text + start, s->wanted, s->wanted_len) == 0;
            continue;
        }
        s->at++;
    }
}

/* A string prefix (r, b, u, f and their pairs, any case) right before a quote: true then, with
 * whether it has an f. */
static bool string_prefix(const Scanner *s, size_t start, size_t n, bool *f) {
    if (n > 2 || s->at >= s->len || byte_class[s->text[s->at]] != C_QUOTE) return false;
    *f = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s->text[start + i] | 0x20;
        if (c != 'r' && c != 'b' && c != 'u' && c != 'f') return false;
        *f |= c == 'f';
    }
    return true;
}

static bool word_is(const Scanner *s, size_t start, size_t n, const char *kw, size_t kwlen) {
    return n == kwlen && memcmp(s->text + start, kw, kwlen) == 0;
}

/* The scanner is just past a name that `(` follows (spaces between allowed): a call of it. */
static bool called_next(const Scanner *s) {
    size_t at = s->at;
    while (at < s->len && (s->text[at] == ' ' || s->text[at] == '\t')) at++;
    return at < s->len && s->text[at] == '(';
}

/* The name at [start, start + n): hashed only where it may be listed. */
static void name(Scanner *s, size_t start, size_t n) {
    s->seen |= s->wanted && n == s->wanted_len && memcmp(s->text + start, s->wanted, n) == 0;
    if (!s->after_dot && (word_is(s, start, n, "import", 6) || word_is(s, start, n, "from", 4))) {
        s->in_import = true;
        s->import_depth = s->depth;
    }
    bool listed = s->in_import || s->class_state == 3;
    bool member = s->after_dot && s->has_root;
    uint32_t h = listed || member ? hash_at(s, start, n) : 0;
    if (listed) dl_vec_push(&s->listed, h);
    if (s->class_state == 3) dl_vec_push(&s->bases, h);
    if (s->in_import && !s->after_dot && word_is(s, start, n, "as", 2)) s->import_alias = true;
    if (s->in_import) dl_vec_push(&s->imports, h);
    if (s->class_state == 1) s->class_state = 2;
    if (!s->after_dot && word_is(s, start, n, "class", 5)) s->class_state = 1;
    /* `model.train()` after `import model` (DARTS' RNN search, which rebinds `model` to the
     * network it builds): an attribute called right there is no module, a module being no
     * callable, so it does not make every `train.py` a module another file imports */
    if (member && called_next(s)) {
        s->after_dot = false;
        return;
    }
    if (member) {
        if (!s->root_hashed) {
            s->root = hash_at(s, s->root_at, s->root_len);
            s->root_hashed = true;
        }
        dl_vec_push(&s->members, ((Member){s->root, h}));
    } else if (!s->after_dot) {
        s->has_root = true;
        s->root_at = start;
        s->root_len = n;
        s->root_hashed = false;
    }
    s->after_dot = false;
}

static void scan(Scanner *s) {
    const unsigned char *t = s->text;
    /* dl_code_names is answered at the first use in code (`from torch.utils.data import
     * DataLoader`, most often near the top): the rest of the file cannot change it */
    while (s->at < s->len && !s->seen) {
        unsigned char c = t[s->at];
        switch (byte_class[c]) {
        case C_SPACE:
            s->at++;
            break;
        case C_BACKSLASH:
            s->at++;
            if (s->at < s->len && (t[s->at] == '\n' || t[s->at] == '\r')) { /* a continued line */
                s->at++;
                if (t[s->at - 1] == '\r' && s->at < s->len && t[s->at] == '\n') s->at++;
            } else {
                s->has_root = s->after_dot = false;
            }
            break;
        case C_NEWLINE:
            s->at++;
            if (s->depth <= 0) end_statement(s);
            else if (s->in_import && s->depth <= s->import_depth) s->in_import = false;
            break;
        case C_HASH:
            while (s->at < s->len && t[s->at] != '\n' && t[s->at] != '\r') s->at++;
            break;
        case C_QUOTE:
            skip_string(s, false);
            s->has_root = s->after_dot = false;
            break;
        case C_NAME: {
            size_t start = s->at;
            while (s->at < s->len && name_char(t[s->at])) s->at++;
            bool f = false;
            if (string_prefix(s, start, s->at - start, &f)) {
                skip_string(s, f);
                s->has_root = s->after_dot = false;
            } else {
                name(s, start, s->at - start);
            }
            break;
        }
        case C_DIGIT: /* a number, 1.5e-3 and 0x1f included */
            while (s->at < s->len && (name_char(t[s->at]) || t[s->at] == '.')) s->at++;
            s->has_root = s->after_dot = false;
            break;
        case C_DOT:
            s->at++;
            s->after_dot = true;
            break;
        case C_OPEN:
            s->at++;
            s->depth++;
            if (c == '(' && s->class_state == 2) {
                s->class_state = 3;
                s->base_depth = s->depth;
            }
            s->has_root = s->after_dot = false;
            break;
        case C_CLOSE:
            s->at++;
            if (s->depth > 0) s->depth--;
            if (s->class_state == 3 && s->depth < s->base_depth) s->class_state = 0;
            s->has_root = s->after_dot = false;
            break;
        case C_SEMICOLON:
            s->at++;
            end_statement(s);
            break;
        case C_COLON:
            s->at++;
            if (s->class_state != 3) s->class_state = 0;
            s->has_root = s->after_dot = false;
            break;
        default:
            s->at++;
            s->has_root = s->after_dot = false;
        }
    }
}

static int compare_hashes(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

bool dl_code_names(const DlSource *src, const char *identifier) {
    if (!dl_source_mentions(src, identifier)) return false; /* most files: one memmem */
    Scanner s = {.text = (const unsigned char *)src->text, .len = src->len};
    s.wanted = identifier;
    s.wanted_len = strlen(identifier);
    scan(&s);
    dl_vec_free(&s.listed);
    dl_vec_free(&s.bases);
    dl_vec_free(&s.imports);
    dl_vec_free(&s.members);
    return s.seen;
}

void dl_module_refs(const DlSource *src, DlModuleRefs *out) {
    Scanner s = {.text = (const unsigned char *)src->text, .len = src->len};
    scan(&s);
    /* the attributes of chains whose root an import binds */
    if (s.imports.len)
        qsort(s.imports.items, s.imports.len, sizeof *s.imports.items, compare_hashes);
    for (size_t i = 0; i < s.members.len; i++) {
        const Member *m = &s.members.items[i];
        if (s.imports.len && bsearch(&m->root, s.imports.items, s.imports.len,
                                     sizeof *s.imports.items, compare_hashes))
            dl_vec_push(&s.listed, m->name);
    }
    dl_vec_free(&s.imports);
    dl_vec_free(&s.members);
    out->count = s.listed.len;
    out->refs = s.listed.len ? s.listed.items : malloc(sizeof *out->refs);
    if (!out->refs) abort();
    out->base_count = s.bases.len;
    out->bases = s.bases.len ? s.bases.items : malloc(sizeof *out->bases);
    if (!out->bases) abort();
    out->import_alias = s.import_alias;
}
