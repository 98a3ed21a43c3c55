/* C++ that crashes the compiler, found by a small lexer (see cpp_crash_guard.h). It reads the
 * text as the compiler's first phases do where that matters: comments, string and character
 * literals (raw strings too), numbers (`1.<2` is `1.` then `<`), `...`, and spliced lines. */
#include "frontend/cpp_crash_guard.h"

#include <string.h>

#include "frontend/cpp_lex.h"

typedef struct Lexer {
    const char *p, *start, *end;
} Lexer;

static bool is_ident(unsigned char c) {
    return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c >= 0x80;
}

/* The length of a line end at `p` (\n, \r\n or a lone \r), or 0. */
static size_t line_end(const Lexer *x, const char *p) {
    if (p >= x->end) return 0;
    if (*p == '\n') return 1;
    if (*p == '\r') return p + 1 < x->end && p[1] == '\n' ? 2 : 1;
    return 0;
}

/* Past blanks, line ends, splices and comments. */
static void skip_space(Lexer *x) {
    while (x->p < x->end) {
        size_t n;
        if (*x->p == ' ' || *x->p == '\t' || *x->p == '\f' || *x->p == '\v') {
            x->p++;
        } else if ((n = line_end(x, x->p))) {
            x->p += n;
        } else if (*x->p == '\\' && (n = line_end(x, x->p + 1))) {
            x->p += 1 + n;
        } else if (*x->p == '/' && x->p + 1 < x->end && x->p[1] == '/') {
            while (x->p < x->end) { /* a line comment goes on over a splice */
                if (*x->p == '\\' && (n = line_end(x, x->p + 1)))
                    x->p += 1 + n;
                else if (line_end(x, x->p))
                    break;
                else
                    x->p++;
            }
        } else if (*x->p == '/' && x->p + 1 < x->end && x->p[1] == '*') {
            const char *close = NULL;
            for (const char *q = x->p + 2; q + 1 < x->end && !close; q++)
                if (q[0] == '*' && q[1] == '/') close = q;
            x->p = close ? close + 2 : x->end;
        } else {
            return;
        }
    }
}

/* Past a quoted literal whose opening quote is at p; an unterminated one ends with its line. */
static void skip_quoted(Lexer *x) {
    x->p = dl_cpp_literal_end(x->p, x->end);
}

/* R"(...)", u8R"(...)", uR, UR, LR. */
static bool raw_prefix(const char *word, size_t n) {
    static const char *const prefixes[] = {"R", "u8R", "uR", "UR", "LR"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strlen(prefixes[i]) == n && memcmp(word, prefixes[i], n) == 0) return true;
    return false;
}

/* Past a raw string whose `"` is at p (cpp_lex.h); false when it has no delimiter. One that
 * never closes takes the rest of the file, as the compiler reads it. */
static bool skip_raw(Lexer *x) {
    const char *after = dl_cpp_raw_string_end(x->p, x->end);
    if (after) x->p = after;
    return after != NULL;
}

/* Past a number (a pp-number: digits, letters, '.', digit separators, signed exponents). */
static void skip_number(Lexer *x) {
    x->p++;
    while (x->p < x->end) {
        unsigned char c = (unsigned char)*x->p;
        char before = x->p[-1];
        bool exponent_sign = (c == '+' || c == '-') &&
                             (before == 'e' || before == 'E' || before == 'p' || before == 'P');
        bool separator = c == '\'' && x->p + 1 < x->end && is_ident((unsigned char)x->p[1]);
        if (!(is_ident(c) || c == '.' || exponent_sign || separator)) break;
        x->p++;
    }
}

static void locate(const Lexer *x, const char *at, DlCppCrashSite *site) {
    unsigned line = 1;
    const char *line_start = x->start;
    for (const char *q = x->start; q < at; q++) {
        size_t n = line_end(x, q);
        if (!n) continue;
        line++;
        q += n - 1;
        line_start = q + 1;
    }
    site->line = line;
    site->column = (unsigned)(at - line_start) + 1;
}

/* After a member access's `.` (x->p just past it): what follows crashes the compiler. */
static bool crashing_member(Lexer *x) {
    skip_space(x);
    if (x->p < x->end && *x->p == '~') {
        x->p++;
        skip_space(x);
    } else if ((size_t)(x->end - x->p) >= 8 && memcmp(x->p, "template", 8) == 0 &&
               !(x->p + 8 < x->end && is_ident((unsigned char)x->p[8]))) {
        x->p += 8;
        skip_space(x);
    }
    return x->p < x->end && *x->p == '<';
}

/* Whether the word at `word` (`n` bytes) is a class template of the standard library named
 * with `std::` before it. Such a name followed by `.` is a syntax error (C++ needs its template
 * arguments and then no `.`), and `std::vector.device();` with torch's headers included makes
 * clang 16 recurse until its stack overflows (found by fuzz_cpp); an object such as `std::cout`
 * is not in the list. */
static bool std_class_template(const Lexer *x, const char *word, size_t n) {
    static const char *const templates[] = {
        "vector", "map", "unordered_map", "set", "unordered_set", "multimap", "multiset",
        "deque", "list", "forward_list", "array", "pair", "tuple", "optional", "variant",
        "shared_ptr", "unique_ptr", "weak_ptr", "function", "basic_string", "span", NULL};
    bool listed = false;
    for (const char *const *t = templates; *t && !listed; t++)
        listed = strlen(*t) == n && memcmp(*t, word, n) == 0;
    if (!listed) return false;
    const char *p = word;
    while (p > x->start && (p[-1] == ' ' || p[-1] == '\t')) p--;
    if (p - x->start < 2 || p[-1] != ':' || p[-2] != ':') return false;
    p -= 2;
    while (p > x->start && (p[-1] == ' ' || p[-1] == '\t')) p--;
    return p - x->start >= 3 && memcmp(p - 3, "std", 3) == 0 &&
           (p - x->start == 3 || !is_ident((unsigned char)p[-4]));
}

/* A `.` at x->p that is a member access (not part of a number or of `...`). */
static bool member_dot(const Lexer *x) {
    if (x->p >= x->end || *x->p != '.') return false;
    if (x->p + 1 < x->end && x->p[1] >= '0' && x->p[1] <= '9') return false;
    return !(x->p + 1 < x->end && x->p[1] == '.');
}

bool dl_cpp_crashing_code(const char *text, size_t len, DlCppCrashSite *site) {
    Lexer x = {text, text, text + len};
    while (x.p < x.end) {
        skip_space(&x);
        if (x.p >= x.end) break;
        unsigned char c = (unsigned char)*x.p;
        if (c == '"' || c == '\'') {
            skip_quoted(&x);
        } else if (c >= '0' && c <= '9') {
            skip_number(&x);
        } else if (is_ident(c)) {
            const char *word = x.p;
            while (x.p < x.end && is_ident((unsigned char)*x.p))
                x.p++;
            if (x.p < x.end && *x.p == '"' && raw_prefix(word, (size_t)(x.p - word)) &&
                !skip_raw(&x))
                return false; /* a raw string it does not understand: the compiler decides */
            if (std_class_template(&x, word, (size_t)(x.p - word))) {
                Lexer after = x;
                skip_space(&after);
                Lexer member = after;
                /* `std::vector.<int>` is reported at its `.` below, as any `.<` is */
                if (member_dot(&after) && (member.p++, !crashing_member(&member))) {
                    locate(&after, after.p, site);
                    site->what = "a `.` right after a class template's name (`std::vector.`)";
                    return true;
                }
            }
        } else if (c == '.') {
            if (x.p + 1 < x.end && x.p[1] >= '0' && x.p[1] <= '9') { /* .5 */
                skip_number(&x);
            } else if (x.p + 2 < x.end && x.p[1] == '.' && x.p[2] == '.') { /* ... (a fold) */
                x.p += 3;
            } else {
                const char *dot = x.p++;
                if (crashing_member(&x)) {
                    locate(&x, dot, site);
                    site->what = "a `.` with no member name after it (`x.<`, `x.template <`, "
                                 "`x.~<`)";
                    return true;
                }
            }
        } else {
            x.p++;
        }
    }
    return false;
}
