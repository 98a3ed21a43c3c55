/* Text the runtime reads and writes: growable strings, and the value chains (`x`, `self.mean`,
 * `batch[0]`) it finds in source lines and in the backticks of findings' messages. Chains are
 * the only expressions the runtime evaluates, so this scanner decides what may be looked at:
 * names, attributes and constant subscripts, never a call. */
#include "rt.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dl_buf_put(DlBuf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 128;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *data = realloc(b->data, cap);
        if (!data) return;
        b->data = data;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void dl_buf_vprintf(DlBuf *b, const char *fmt, va_list ap) {
    char small[512];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= 0 && (size_t)n < sizeof small) {
        dl_buf_put(b, small, (size_t)n);
    } else if (n >= 0) {
        char *big = malloc((size_t)n + 1);
        if (big) {
            vsnprintf(big, (size_t)n + 1, fmt, again);
            dl_buf_put(b, big, (size_t)n);
            free(big);
        }
    }
    va_end(again);
}

void dl_buf_printf(DlBuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    dl_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void dl_buf_free(DlBuf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

const char *dl_buf_str(const DlBuf *b) {
    return b->data ? b->data : "";
}

char *dl_strndup(const char *s, size_t n) {
    char *out = malloc(n + 1);
    if (!out) return NULL;
    memcpy(out, s, n);
    out[n] = '\0';
    return out;
}

static const char *const keywords[] = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield",
};

static bool is_keyword(const char *s, size_t n) {
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        if (strlen(keywords[i]) == n && memcmp(keywords[i], s, n) == 0) return true;
    return false;
}

static bool ident_start(char c) {
    return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c) {
    return isalnum((unsigned char)c) || c == '_';
}

/* Skips a string literal starting at text[i] (a quote); returns the index after it. */
static size_t skip_string(const char *text, size_t len, size_t i) {
    char q = text[i];
    bool triple = i + 2 < len && text[i + 1] == q && text[i + 2] == q;
    i += triple ? 3 : 1;
    while (i < len) {
        if (text[i] == '\\') {
            i += 2;
            continue;
        }
        if (text[i] == q) {
            if (!triple) return i + 1;
            if (i + 2 < len && text[i + 1] == q && text[i + 2] == q) return i + 3;
        }
        i++;
    }
    return len;
}

/* A constant subscript at text[i] ('['): an integer or a quoted string, then ']'. Returns the
 * index after ']' or 0. */
static size_t constant_subscript(const char *text, size_t len, size_t i) {
    size_t j = i + 1;
    if (j < len && (text[j] == '"' || text[j] == '\'')) {
        char q = text[j];
        j++;
        while (j < len && text[j] != q && text[j] != '\\' && text[j] != '\n')
            j++;
        if (j >= len || text[j] != q) return 0;
        j++;
    } else {
        if (j < len && text[j] == '-') j++;
        size_t digits = j;
        while (j < len && isdigit((unsigned char)text[j]))
            j++;
        if (j == digits) return 0;
    }
    return j < len && text[j] == ']' ? j + 1 : 0;
}

static int add_chain(char **out, int count, int max, const char *s, size_t n) {
    if (n == 0 || count >= max) return count;
    for (int i = 0; i < count; i++)
        if (strlen(out[i]) == n && memcmp(out[i], s, n) == 0) return count;
    char *copy = dl_strndup(s, n);
    if (!copy) return count;
    out[count] = copy;
    return count + 1;
}

/* The length of the chain without its last component (`a.b.c` -> `a.b`, `a[0]` -> `a`). */
static size_t drop_last(const char *s, size_t n) {
    for (size_t k = n; k > 0; k--)
        if (s[k - 1] == '.' || s[k - 1] == '[') return k - 1;
    return n;
}

int dl_scan_chains(const char *text, size_t len, char **out, int count, int max) {
    int depth = 0;
    size_t i = 0;
    while (i < len && count < max) {
        char c = text[i];
        if (c == '#') break;
        if (c == '"' || c == '\'') {
            i = skip_string(text, len, i);
            continue;
        }
        if (c == '(' || c == '[' || c == '{') depth++;
        if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
        if (!ident_start(c) || (i > 0 && (ident_char(text[i - 1]) || text[i - 1] == '.'))) {
            i++;
            continue;
        }
        size_t start = i, parts = 0;
        while (i < len && ident_char(text[i]))
            i++;
        /* An identifier glued to a quote is a string prefix: f"...", rb'...'. */
        if (i < len && (text[i] == '"' || text[i] == '\'') && i - start <= 2) {
            i = skip_string(text, len, i);
            continue;
        }
        size_t first_len = i - start;
        for (;;) {
            if (i + 1 < len && text[i] == '.' && ident_start(text[i + 1])) {
                i++;
                while (i < len && ident_char(text[i]))
                    i++;
                parts++;
                continue;
            }
            size_t after = i < len && text[i] == '[' ? constant_subscript(text, len, i) : 0;
            if (after) {
                i = after;
                parts++;
                continue;
            }
            break;
        }
        size_t n = i - start;
        size_t j = i;
        while (j < len && text[j] == ' ')
            j++;
        bool call = j < len && text[j] == '(';
        bool keyword_arg = depth > 0 && j + 1 < len && text[j] == '=' && text[j + 1] != '=';
        if (keyword_arg) continue;
        if (parts == 0 && is_keyword(text + start, first_len)) continue;
        if (call && parts > 0) n = drop_last(text + start, n);
        count = add_chain(out, count, max, text + start, n);
    }
    return count;
}

/* A fix, not a value: `x = x.to(device)`, `weight=w.to(device)`. */
static bool is_assignment(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '=') continue;
        char prev = i > 0 ? s[i - 1] : ' ';
        char next = i + 1 < n ? s[i + 1] : ' ';
        if (next == '=' || prev == '=' || prev == '!' || prev == '<' || prev == '>') continue;
        return true;
    }
    return false;
}

int dl_message_chains(const char *message, char **out, int count, int max) {
    const char *p = message;
    while ((p = strchr(p, '`')) != NULL) {
        const char *end = strchr(p + 1, '`');
        if (!end) break;
        size_t n = (size_t)(end - p - 1);
        if (n > 0 && !is_assignment(p + 1, n)) count = dl_scan_chains(p + 1, n, out, count, max);
        p = end + 1;
    }
    return count;
}

int dl_message_lines(const char *message, const char *prefix, int *out, int max) {
    int count = 0;
    size_t plen = strlen(prefix);
    for (const char *p = strstr(message, prefix); p && count < max; p = strstr(p + 1, prefix)) {
        const char *d = p + plen;
        if (!isdigit((unsigned char)*d)) continue;
        int line = atoi(d);
        bool dup = false;
        for (int i = 0; i < count; i++)
            dup |= out[i] == line;
        if (!dup && line > 0) out[count++] = line;
    }
    return count;
}

bool dl_call_parts(const char *line, const char *name, char **recv, char **arg) {
    *recv = *arg = NULL;
    size_t nlen = strlen(name);
    for (const char *p = strchr(line, '.'); p; p = strchr(p + 1, '.')) {
        if (strncmp(p + 1, name, nlen) != 0 || p[1 + nlen] != '(') continue;
        /* the receiver: a chain that ends right before the dot */
        const char *end = p, *start = p;
        while (start > line && (ident_char(start[-1]) || start[-1] == '.' || start[-1] == ']' ||
                                start[-1] == '[' || start[-1] == '"' || start[-1] == '\''))
            start--;
        while (start < end && !ident_start(*start))
            start++;
        if (start < end) *recv = dl_strndup(start, (size_t)(end - start));
        /* the first argument, up to a top-level ',' or ')' */
        const char *a = p + 2 + nlen;
        while (*a == ' ')
            a++;
        int depth = 0;
        const char *b = a;
        for (; *b; b++) {
            if (*b == '(' || *b == '[' || *b == '{')
                depth++;
            else if (*b == ')' || *b == ']' || *b == '}') {
                if (depth == 0) break;
                depth--;
            } else if (*b == ',' && depth == 0)
                break;
        }
        const char *e = b;
        while (e > a && e[-1] == ' ')
            e--;
        if (e > a) *arg = dl_strndup(a, (size_t)(e - a));
        return true;
    }
    return false;
}
