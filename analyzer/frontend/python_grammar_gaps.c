/* Valid Python that tree-sitter-python 0.23.6 rejects, made parseable without moving a byte.
 * Tried only after a parse fails; used only when the patched text parses. Every other byte keeps
 * its offset, so positions and texts are unchanged.
 *
 * The grammar takes `*x` in a bare expression list but not `*(x)` or `*[x]`:
 * `return dq, dk, *((None,) * 30)` (an autograd backward returning its gradients, as
 * flash-attention's does), `x = a, *(b)`, `for x in a, *(b):`. Such a star, outside every bracket
 * and after `,`, `=`, `return`, `yield` or `in`, becomes a space: the element is then the
 * parenthesised value itself, which the analysis reads the same way (a sequence's elements are
 * not counted).
 *
 * An annotation that starts with `Name[...]` is taken as a generic type, which no operator may
 * follow: `scale: list[float] or None = None` (MobileSAMv2's efficientvit), `-> list[int] or
 * None`, `x: dict[str, int] if a else None`. There the brackets become parentheses: the
 * annotation is then an expression the grammar takes (a call), and what the analysis reads of an
 * annotation (a tensor's or module's type) is never such an expression. Slices in an
 * annotation's subscripts (`results[j]['saits']: out[0, :, :]`, an author's `:` for `=`) are
 * taken by no type either: each `:` there becomes `,` or `0`, a subscript the grammar takes.
 *
 * In an f-string's replacement field, a format spec whose fill is `=` (`f"{w:=>{pad}f}"`, openvla's
 * data-mixture table; `f"{x:=10}"`) is read as the walrus `:=`. There the `=` becomes a space,
 * another fill (or sign) the grammar takes: the spec is text the analysis never reads. A walrus
 * in parentheses (`f"{(n:=10)}"`) is one, and stays. A bare generator in a field
 * (`f'{img.shape for img in self.obj}'`, Python prints the generator object) is another gap: its
 * `for` clauses become spaces.
 *
 * Inside brackets, a line holding only a comment indented less than the block around it is taken
 * for a dedent: such a comment becomes spaces. So is a line that goes on after an operator and
 * starts left of the block: inside brackets each line break becomes a space, as Python's
 * tokenizer ignores it. */
#include "frontend/python_grammar_gaps.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\f';
}

static bool is_word(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* Does the word ending just before `end` read `kw`? */
static bool word_before(const char *s, size_t end, const char *kw) {
    size_t n = strlen(kw);
    if (end < n || memcmp(s + end - n, kw, n) != 0) return false;
    return end == n || !is_word(s[end - n - 1]);
}

/* The star at `i` starts an element of a bare expression list: what precedes it (spaces
 * skipped) ends one, and a bracket follows. */
static bool bare_starred_bracket(const char *s, size_t len, size_t i) {
    if ((i > 0 && s[i - 1] == '*') || (i + 1 < len && s[i + 1] == '*')) return false; /* ** */
    size_t j = i + 1;
    while (j < len && is_space(s[j])) j++;
    if (j >= len || (s[j] != '(' && s[j] != '[')) return false;
    size_t k = i;
    while (k > 0 && is_space(s[k - 1])) k--;
    if (k == 0) return false;
    char before = s[k - 1];
    if (before == ',') return true;
    if (before == '=') return k < 2 || !strchr("=!<>+-*/%&|^@:", s[k - 2]); /* not `==`, `+=` */
    return word_before(s, k, "return") || word_before(s, k, "yield") || word_before(s, k, "in");
}

/* The offset past the string or comment that starts at `i`, or `i` when none does (a
 * backslash escapes the next byte; an unterminated string ends at its line, the parser says so). */
static size_t skip_string_or_comment(const char *text, size_t len, size_t i) {
    char c = text[i];
    if (c == '#') {
        while (i < len && text[i] != '\n') i++;
        return i;
    }
    if (c != '\'' && c != '"') return i;
    bool triple = i + 2 < len && text[i + 1] == c && text[i + 2] == c;
    i += triple ? 3 : 1;
    while (i < len) {
        if (text[i] == '\\') {
            i += 2;
            continue;
        }
        if (text[i] == c && (!triple || (i + 2 < len && text[i + 1] == c && text[i + 2] == c)))
            return i + (triple ? 3 : 1);
        if (!triple && text[i] == '\n') return i;
        i++;
    }
    return len;
}

static char *patch(char **out, const char *text, size_t len, size_t at, char with) {
    if (!*out) {
        *out = malloc(len + 1);
        if (!*out) return NULL;
        memcpy(*out, text, len);
        (*out)[len] = '\0';
    }
    (*out)[at] = with;
    return *out;
}

/* ---------------------------------------------------------------- `return a, *(b)` */

static bool patch_bare_starred_brackets(const char *text, size_t len, char **out) {
    int depth = 0;
    size_t i = 0;
    while (i < len) {
        size_t past = skip_string_or_comment(text, len, i);
        if (past != i) {
            i = past;
            continue;
        }
        char c = text[i];
        if (c == '(' || c == '[' || c == '{') depth++;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
        else if (c == '*' && depth == 0 && bare_starred_bracket(text, len, i) &&
                 !patch(out, text, len, i, ' '))
            return false;
        i++;
    }
    return true;
}

/* ---------------------------------------------------------------- `x: list[float] or None` */

static size_t skip_spaces(const char *s, size_t len, size_t i) {
    while (i < len && is_space(s[i])) i++;
    return i;
}

static size_t word_end(const char *s, size_t len, size_t i) {
    while (i < len && is_word(s[i])) i++;
    return i;
}

static bool is_word_at(const char *s, size_t len, size_t i, const char *w) {
    size_t n = strlen(w);
    return i + n <= len && memcmp(s + i, w, n) == 0 && (i + n == len || !is_word(s[i + n]));
}

static bool is_statement_keyword(const char *s, size_t len, size_t i) {
    static const char *const keywords[] = {"if",   "elif",    "else",    "while", "for",
                                           "with", "try",     "except",  "finally", "lambda",
                                           "class", "def",    "match",   "case",  "async", NULL};
    for (const char *const *k = keywords; *k; k++)
        if (is_word_at(s, len, i, *k)) return true;
    return false;
}

/* The offset of the `]` matching the `[` at `open`, or 0 (also when it is not within 64 KiB:
 * a file of unclosed annotations must not cost a scan to its end for each). */
static size_t matching_bracket(const char *s, size_t len, size_t open) {
    int depth = 0;
    if (len - open > 65536) len = open + 65536;
    for (size_t i = open; i < len;) {
        size_t past = skip_string_or_comment(s, len, i);
        if (past != i) {
            i = past;
            continue;
        }
        if (s[i] == '(' || s[i] == '[' || s[i] == '{') depth++;
        else if ((s[i] == ')' || s[i] == ']' || s[i] == '}') && --depth == 0)
            return s[i] == ']' ? i : 0;
        i++;
    }
    return 0;
}

/* What follows a generic type makes the annotation an expression: `or`, `and`, `if`, `is`,
 * `in`, `not in`, arithmetic or a comparison (not `|`, a union the grammar takes, nor `=`). */
static bool operator_follows(const char *s, size_t len, size_t i) {
    i = skip_spaces(s, len, i);
    if (i >= len) return false;
    static const char *const words[] = {"or", "and", "if", "is", "in", "not", NULL};
    for (const char *const *w = words; *w; w++)
        if (is_word_at(s, len, i, *w)) return true;
    if (strchr("+-*/%<>&^@", s[i])) return true;
    return (s[i] == '=' || s[i] == '!') && i + 1 < len && s[i + 1] == '=';
}

/* An annotation starts at `i`: `Name[...] <operator>` there gets parentheses. */
static bool patch_annotation(const char *text, size_t len, size_t i, char **out) {
    i = skip_spaces(text, len, i);
    if (i >= len || !is_word(text[i]) || (text[i] >= '0' && text[i] <= '9')) return true;
    size_t open = word_end(text, len, i);
    if (open >= len || text[open] != '[') return true;
    size_t close = matching_bracket(text, len, open);
    if (!close || !operator_follows(text, len, close + 1)) return true;
    return patch(out, text, len, open, '(') && patch(out, text, len, close, ')');
}

/* Is the `:` at `colon` the one of an annotated assignment, `name: T`, `self.x: T` or
 * `results[j]['saits']: T` at the start of a logical line? */
static bool annotates_a_target(const char *text, size_t line_start, size_t colon) {
    size_t i = skip_spaces(text, colon, line_start);
    if (i >= colon || !is_word(text[i]) || is_statement_keyword(text, colon, i)) return false;
    while (i < colon && (is_word(text[i]) || text[i] == '.' || text[i] == '[')) {
        if (text[i] == '[') {
            size_t close = matching_bracket(text, colon, i);
            if (!close) return false;
            i = close;
        }
        i++;
    }
    i = skip_spaces(text, colon, i);
    return i == colon;
}

/* The slices in the subscripts of an annotation starting at `i` (`x: saits_output[0, :, :]`,
 * valid Python, an author's `:` for `=`), which the grammar's types do not take: each `:` becomes
 * `,` after an index (`a[1:3]` reads `a[1,3]`) or `0` where no index stands before it (`a[:, :]`
 * reads `a[0, 0]`), a subscript the grammar takes. The annotation ends at a `=`, `,` or `)` outside
 * its brackets, or at the end of the line. */
static bool patch_annotation_slices(const char *text, size_t len, size_t i, char **out) {
    char open[32];
    int depth = 0;
    while (i < len) {
        size_t past = skip_string_or_comment(text, len, i);
        if (past != i) {
            if (text[i] == '#') return true;
            i = past;
            continue;
        }
        char c = text[i];
        if (depth == 0 && (c == '\n' || c == ',' || c == ')' || c == ']' || c == '}' ||
                           (c == '=' && (i + 1 >= len || text[i + 1] != '='))))
            return true;
        if (c == '(' || c == '[' || c == '{') {
            if (depth == (int)sizeof open) return true;
            open[depth++] = c;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
        } else if (c == ':' && depth > 0 && open[depth - 1] == '[') {
            size_t b = i;
            while (b > 0 && is_space(text[b - 1])) b--;
            char before = b > 0 ? text[b - 1] : '[';
            bool empty = before == '[' || before == ',' || before == ':';
            if (!patch(out, text, len, i, empty ? '0' : ',')) return false;
        }
        i++;
    }
    return true;
}

static bool patch_generic_operands(const char *text, size_t len, char **out) {
    int depth = 0;
    int params = -1; /* the bracket depth of a def's parameter list, while in it */
    bool def_seen = false; /* `def name` read, its `(` not yet */
    size_t line_start = 0;
    size_t i = 0;
    while (i < len) {
        size_t past = skip_string_or_comment(text, len, i);
        if (past != i) {
            i = past;
            continue;
        }
        char c = text[i];
        if (c == '\n' && depth == 0) line_start = i + 1;
        if (is_word(c) && (i == 0 || !is_word(text[i - 1]))) {
            if (is_word_at(text, len, i, "def")) def_seen = true;
            i = word_end(text, len, i);
            continue;
        }
        if (c == '(' || c == '[' || c == '{') {
            depth++;
            if (c == '(' && def_seen) params = depth;
            def_seen = false;
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth == params) params = -1;
            if (depth > 0) depth--;
        } else if (c == ':' && i + 1 < len && text[i + 1] != '=') {
            bool parameter = params >= 0 && depth == params;
            bool target = depth == 0 && annotates_a_target(text, line_start, i);
            if ((parameter || target) && (!patch_annotation(text, len, i + 1, out) ||
                                          !patch_annotation_slices(text, len, i + 1, out)))
                return false;
        } else if (c == '-' && i + 1 < len && text[i + 1] == '>' && depth == 0) {
            if (!patch_annotation(text, len, i + 2, out)) return false;
            i++;
        }
        i++;
    }
    return true;
}

/* ---------------------------------------------------------------- `f"{w:=>{pad}f}"` */

/* Does the string whose quote is at `quote` have an f among its prefix letters (`f`, `rf`, `Fr`)? */
static bool f_string_at(const char *s, size_t quote) {
    bool f = false;
    size_t k = quote;
    while (k > 0 && strchr("rRbBuUfF", s[k - 1]) && quote - k < 2) {
        k--;
        if (s[k] == 'f' || s[k] == 'F') f = true;
    }
    return f && (k == 0 || !is_word(s[k - 1]));
}

/* The f-string opened by `quote` (three of them when `triple`) closes at `i`. */
static bool closing_quote_at(const char *s, size_t len, size_t i, char quote, bool triple) {
    return s[i] == quote && (!triple || (i + 2 < len && s[i + 1] == quote && s[i + 2] == quote));
}

static size_t patch_field(const char *s, size_t len, size_t i, char quote, bool triple,
                          char **out, bool *failed, int nesting);

/* The end of the f-string body from `i` (past its closing quote), patching its fields. */
static size_t patch_f_string_body(const char *s, size_t len, size_t i, char quote, bool triple,
                                  char **out, bool *failed, int nesting) {
    while (i < len && !*failed) {
        char c = s[i];
        if (c == '\\') {
            i += 2;
        } else if (closing_quote_at(s, len, i, quote, triple)) {
            return i + (triple ? 3 : 1);
        } else if (c == '\n' && !triple) {
            return i;
        } else if (c == '{' && i + 1 < len && s[i + 1] == '{') {
            i += 2;
        } else if (c == '{') {
            i = patch_field(s, len, i + 1, quote, triple, out, failed, nesting + 1);
        } else {
            i++;
        }
    }
    return i;
}

/* A replacement field from just past its `{` to just past its `}`: the expression (brackets and
 * strings in it skipped), then, after a `:` outside every bracket, the spec with its own fields. */
static size_t patch_field(const char *s, size_t len, size_t i, char quote, bool triple,
                          char **out, bool *failed, int nesting) {
    if (nesting > 4) return i;
    int depth = 0;
    while (i < len && !*failed) {
        char c = s[i];
        if (closing_quote_at(s, len, i, quote, triple) || (c == '\n' && !triple))
            return i; /* the string ends first: the parser says what is wrong */
        if (c == '\'' || c == '"') {
            i = skip_string_or_comment(s, len, i);
            continue;
        }
        if (depth == 0 && i > 0 && is_space(s[i - 1]) && is_word_at(s, len, i, "for")) {
            /* `f'{img.shape for img in self.obj}'`: a bare generator, which Python takes and the
             * grammar does not; its `for` clauses become spaces (the element stays) */
            size_t j = i;
            int inner = 0;
            while (j < len && !closing_quote_at(s, len, j, quote, triple) &&
                   !(s[j] == '\n' && !triple)) {
                char d = s[j];
                if (d == '\'' || d == '"') {
                    j = skip_string_or_comment(s, len, j);
                    continue;
                }
                if (d == '(' || d == '[' || d == '{') inner++;
                else if ((d == ')' || d == ']' || d == '}') && inner > 0) inner--;
                else if (inner == 0 && (d == '}' || d == ':' ||
                                        (d == '!' && !(j + 1 < len && s[j + 1] == '='))))
                    break;
                j++;
            }
            for (; i < j && !*failed; i++)
                if (s[i] != '\n' && !patch(out, s, len, i, ' ')) *failed = true;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') depth++;
        else if ((c == ')' || c == ']') && depth > 0) depth--;
        else if (c == '}' && depth > 0) depth--;
        else if (c == '}') return i + 1;
        else if (c == '!' && i + 1 < len && s[i + 1] == '=') i++; /* `a != b` */
        else if (c == ':' && depth == 0) {
            if (i + 1 < len && s[i + 1] == '=' && !patch(out, s, len, i + 1, ' ')) *failed = true;
            i++;
            /* the spec: text up to the field's `}`, with fields of its own (`{pad}`) */
            while (i < len && !*failed && s[i] != '}') {
                if (closing_quote_at(s, len, i, quote, triple) || (s[i] == '\n' && !triple))
                    return i;
                if (s[i] == '{') i = patch_field(s, len, i + 1, quote, triple, out, failed,
                                                 nesting + 1);
                else i++;
            }
            return i < len ? i + 1 : i;
        }
        i++;
    }
    return i;
}

static bool patch_format_spec_fills(const char *text, size_t len, char **out) {
    bool failed = false;
    size_t i = 0;
    while (i < len && !failed) {
        char c = text[i];
        if ((c == '\'' || c == '"') && f_string_at(text, i)) {
            bool triple = i + 2 < len && text[i + 1] == c && text[i + 2] == c;
            i = patch_f_string_body(text, len, i + (triple ? 3 : 1), c, triple, out, &failed, 0);
            continue;
        }
        size_t past = skip_string_or_comment(text, len, i);
        i = past != i ? past : i + 1;
    }
    return !failed;
}

/* ---------------------------------------------------------------- a comment line in brackets */

/* Inside brackets, a line holding only a comment that is indented less than the block around
 * (`res += ([s.upper()] if s.isupper()` / `#   else [s.title()]` / `else [s.lower()])`, fastai's
 * text.py) is taken by the grammar's scanner for a dedent. Such comment lines become spaces:
 * inside brackets, lines carry no indentation for Python. */
static bool patch_comment_lines_in_brackets(const char *text, size_t len, char **out) {
    int depth = 0;
    size_t line_start = 0;
    size_t i = 0;
    while (i < len) {
        char c = text[i];
        if (c == '#' && depth > 0 && skip_spaces(text, i, line_start) == i) {
            for (; i < len && text[i] != '\n' && text[i] != '\r'; i++)
                if (!patch(out, text, len, i, ' ')) return false;
            continue;
        }
        size_t past = skip_string_or_comment(text, len, i);
        if (past != i) {
            i = past;
            continue;
        }
        if (c == '\n')
            line_start = i + 1;
        else if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0)
            depth--;
        i++;
    }
    return true;
}

/* ---------------------------------------------------------------- line breaks in brackets */

/* Inside brackets, a line that starts left of the line the brackets opened on (`print('loss:
 * %.4f' %` / `(loss))` in an `if`, NIMA's main.py) is taken by the grammar's scanner for a
 * dedent. Python's tokenizer ignores line breaks inside brackets: the break before such a line
 * becomes a space, unless a comment ends the line before (the next would join the comment) or a
 * backslash does. */
static size_t indentation_at(const char *s, size_t len, size_t line_start) {
    return skip_spaces(s, len, line_start) - line_start;
}

static bool patch_line_breaks_in_brackets(const char *text, size_t len, char **out) {
    int depth = 0;
    bool after_comment = false;
    size_t line_start = 0, opened_at_indent = 0;
    size_t i = 0;
    while (i < len) {
        char c = text[i];
        size_t past = skip_string_or_comment(text, len, i);
        if (past != i) {
            after_comment = c == '#';
            i = past;
            continue;
        }
        if (c == '\n') {
            size_t next = i + 1, first = skip_spaces(text, len, next);
            bool blank = first >= len || text[first] == '\n' || text[first] == '\r' ||
                         text[first] == '#';
            bool continued = i > 0 && (text[i - 1] == '\\' ||
                                       (text[i - 1] == '\r' && i > 1 && text[i - 2] == '\\'));
            if (depth > 0 && !after_comment && !continued && !blank &&
                first - next < opened_at_indent) {
                if (i > 0 && text[i - 1] == '\r' && !patch(out, text, len, i - 1, ' '))
                    return false;
                if (!patch(out, text, len, i, ' ')) return false;
            }
            after_comment = false;
            line_start = next;
        } else if (c == '(' || c == '[' || c == '{') {
            if (depth++ == 0) opened_at_indent = indentation_at(text, len, line_start);
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
        }
        i++;
    }
    return true;
}

char *dl_python_patch_grammar_gaps(const char *text, size_t len) {
    char *out = NULL;
    if (!patch_bare_starred_brackets(text, len, &out) || !patch_generic_operands(text, len, &out) ||
        !patch_format_spec_fills(text, len, &out) ||
        !patch_comment_lines_in_brackets(text, len, &out) ||
        !patch_line_breaks_in_brackets(text, len, &out)) {
        free(out);
        return NULL;
    }
    return out;
}
