/* The rough tokenizer run before tree-sitter parses a Python file: see python_prescan.h. */
#include "frontend/python_prescan.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/files.h"

/* tree-sitter 0.20.7 (Debian 12's) keeps a node's child count in 16 bits (widened in 0.20.8,
 * commit 67d13cf): a node with 65,536 children or more corrupts the heap, and freeing its tree
 * aborts. Valid code builds one only from a long run of comments; invalid code does when error
 * recovery wraps everything still pending (unclosed brackets, prefix or right-associative
 * operators: `x = - - - ...`, `a ** a ** ...`, `x = x = ...`) into one ERROR node. Such files
 * are refused before parsing by a rough tokenizer, which also applies CPython's limits on
 * brackets and blocks (keeping lowering's recursion shallow). */
enum {
    DL_MAX_BRACKETS = 1000, /* levels of brackets and f-string fields (CPython: 200) */
    DL_MAX_INDENTS = 100,   /* levels of blocks (CPython: 100) */
    DL_MAX_EXTRAS = 50000,  /* comments and line continuations in a row */
    DL_MAX_CHAIN = 15000,   /* operators an expression leaves pending (two entries each at most) */
};

typedef struct LimitScan {
    const char *s;
    size_t len, i;
    int line;
    int depth;   /* open brackets and f-string fields */
    int pending; /* the frames' chains, plus `assign` */
    int assign;  /* `=` of the statement (chained across commas) */
    int levels;
    int extras;        /* comments and line continuations since the last token */
    bool operand;      /* the last token ends an operand: a following `-` is binary */
    bool string;       /* ... and it is a string literal, which another may follow */
    bool line_start, continued;
    const char *over; /* what went over its limit */
    DlPrescanProblem problem;
    /* Compound statements: a header (`if x:`) needs its colon, and a colon that ends its line
     * needs an indented block on the next one. tree-sitter-python takes `def f(x):` at the end
     * of a file, or before a line indented no deeper, as a definition with an empty body. */
    size_t token_end;        /* the end of the last token */
    bool first_token;        /* the next token starts a logical line */
    int line_col;            /* the current logical line's indentation */
    const char *header;      /* the logical line's compound keyword (`if`), else NULL */
    const char *soft_header; /* `match` or `case` starting it: a header only if its colon ends it */
    int header_line;
    bool header_colon;       /* its colon was met */
    size_t colon_end;        /* just after that colon */
    const char *block_after; /* a header whose line ended with its colon awaits its block */
    int block_line, block_col;
    /* tree-sitter-python's scanner emits no line break where the grammar cannot take one, so it
     * joins `x =` and the next line into one statement; CPython does not. */
    bool awaits_operand;  /* the last token is an operator that needs its right operand */
    size_t operator_at, operator_len;
    /* The grammar also takes Python 2's `print "x"` and `exec code`. */
    const char *print_word; /* the logical line's first token is `print` or `exec` */
    size_t print_at;
    /* Last, and not cleared when the scan starts (each entry is written before it is read):
     * 24 KiB cleared for every file was a tenth of the scan's cost. */
    struct {
        size_t at;   /* the bracket's byte; an f-string's field: the string's opening quote */
        int chain;   /* operators pending in the current item at this level */
        int lambdas; /* lambdas whose parameters are being read at this level */
        char kind;   /* '(' '[' '{' a bracket; 'f' an f-string's field, resumed at its '}' */
        char quote;  /* the f-string's quote */
        bool triple;
    } frames[DL_MAX_BRACKETS + 1];   /* frames[0]: the statement itself */
    int indents[DL_MAX_INDENTS + 1]; /* columns of the open blocks (the module's 0 implicit) */
    int alt_indents[DL_MAX_INDENTS + 1]; /* the same with a tab as one column (CPython's altcol) */
} LimitScan;

/* The first problem is the one reported: true when this one is it. */
static bool note_problem(LimitScan *S, DlPrescanProblemKind kind, size_t at) {
    if (S->problem.kind) return false;
    S->problem.kind = kind;
    S->problem.at = at;
    return true;
}

/* A problem of a compound statement's header (`def` on line 3). */
static void note_header_problem(LimitScan *S, DlPrescanProblemKind kind, size_t at,
                                const char *header, int header_line) {
    if (!note_problem(S, kind, at)) return;
    S->problem.header = header;
    S->problem.header_line = header_line;
}

/* The body of a string literal from `i` (just after its opening quote): returns where it ends
 * (after the closing quote, or at the line break of an unclosed one-line string, *closed
 * false), or, in an f-string, just after a `{` that opens a replacement field (*field set). */
static size_t skip_string_body(const char *s, size_t len, size_t i, char quote, bool triple,
                               bool fstring, int *line, bool *field, bool *closed) {
    *field = false;
    *closed = true;
    while (i < len) {
        char c = s[i];
        if (c == '\\') { /* an escape, or a line continuation inside the string */
            if (i + 1 < len && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
                (*line)++;
                i += s[i + 1] == '\r' && i + 2 < len && s[i + 2] == '\n' ? 3 : 2;
            } else {
                i += 2;
            }
        } else if (c == '\n' || c == '\r') {
            if (!triple) {
                *closed = false;
                return i;
            }
            if (c == '\n' || i + 1 >= len || s[i + 1] != '\n') (*line)++;
            i++;
        } else if (c == quote) {
            if (!triple) return i + 1;
            if (i + 2 < len && s[i + 1] == quote && s[i + 2] == quote) return i + 3;
            i++;
        } else if (fstring && c == '{') {
            if (i + 1 < len && s[i + 1] == '{') {
                i += 2;
                continue;
            }
            *field = true;
            return i + 1;
        } else {
            i++;
        }
    }
    *closed = false;
    return len;
}

/* The prefix of the string whose quote is at `i` (`f`, `rb`, `Fr`, `t`...): returns where the
 * string starts (`i` when it has none), and whether it is an f-string (or a t-string). Letters
 * that end an identifier are no prefix. */
static size_t string_prefix(const char *s, size_t i, bool *fstring) {
    size_t k = i;
    bool f = false;
    while (k > 0 && i - k < 3 && s[k - 1] && strchr("rRbBuUfFtT", s[k - 1])) {
        f |= strchr("fFtT", s[k - 1]) != NULL;
        k--;
    }
    bool after_word = k > 0 && dl_source_name_byte(s[k - 1]);
    *fstring = f && !after_word;
    return after_word || i - k > 2 ? i : k; /* a prefix has two letters at most */
}

static void limit_chain(LimitScan *S) {
    S->frames[S->depth].chain++;
    if (++S->pending > DL_MAX_CHAIN) S->over = "operators";
}

/* The end of an item (`,`) or of a statement (`;`, a line break): what it chained reduces. */
static void limit_item_end(LimitScan *S, bool statement) {
    if (statement && !S->depth) S->frames[0].lambdas = 0;
    if (S->frames[S->depth].lambdas) return; /* `lambda a, b:` reads on */
    S->pending -= S->frames[S->depth].chain;
    S->frames[S->depth].chain = 0;
    if (!statement || S->depth) return;
    S->pending -= S->assign;
    S->assign = 0;
}

static void limit_open(LimitScan *S, char kind, size_t at, char quote, bool triple) {
    if (S->depth == DL_MAX_BRACKETS) {
        S->over = "brackets";
        return;
    }
    S->depth++;
    S->frames[S->depth].kind = kind;
    S->frames[S->depth].at = at;
    S->frames[S->depth].quote = quote;
    S->frames[S->depth].triple = triple;
    S->frames[S->depth].chain = 0;
    S->frames[S->depth].lambdas = 0;
    S->operand = false;
}

/* A closing bracket of another kind than the innermost open one. */
static void limit_check_match(LimitScan *S, char close) {
    char open = S->frames[S->depth].kind;
    if ((open == '(' && close == ')') || (open == '[' && close == ']') ||
        (open == '{' && close == '}'))
        return;
    if (!note_problem(S, DL_PRESCAN_MISMATCHED_CLOSE, S->i - 1)) return;
    S->problem.open = open;
    S->problem.close = close;
    S->problem.open_at = S->frames[S->depth].at;
}

static void limit_close(LimitScan *S) {
    S->pending -= S->frames[S->depth].chain;
    S->depth--;
    S->operand = true;
}

/* Indentation at the start of a logical line: blocks nest by growing it. Like CPython's
 * tokenizer, each line's indentation is measured twice, with tabs to the next multiple of 8 and
 * with a tab as one column: where the two disagree on whether it opens, continues or closes a
 * block, the file mixes tabs and spaces in a way CPython refuses (TabError). */
static void limit_indent(LimitScan *S) {
    int col = 0, alt_col = 0;
    for (; S->i < S->len && (S->s[S->i] == ' ' || S->s[S->i] == '\t' || S->s[S->i] == '\f');
         S->i++) {
        char c = S->s[S->i];
        col = c == ' ' ? col + 1 : c == '\t' ? (col / 8 + 1) * 8 : 0;
        alt_col = c == '\f' ? 0 : alt_col + 1;
    }
    char c = S->i < S->len ? S->s[S->i] : '\n';
    if (c == '#' || c == '\n' || c == '\r') return; /* a blank or comment line */
    bool awaited = S->block_after != NULL; /* the line before ended with a header's colon */
    S->first_token = true;
    S->line_col = col;
    int top = S->levels ? S->indents[S->levels - 1] : 0;
    int alt_top = S->levels ? S->alt_indents[S->levels - 1] : 0;
    if (col > top) {
        if (alt_col <= alt_top) note_problem(S, DL_PRESCAN_INCONSISTENT_TABS, S->i);
        if (!awaited) note_problem(S, DL_PRESCAN_UNEXPECTED_INDENT, S->i);
        if (S->levels == DL_MAX_INDENTS) {
            S->over = "indentation";
        } else {
            S->indents[S->levels] = col;
            S->alt_indents[S->levels++] = alt_col;
        }
    }
    while (S->levels && S->indents[S->levels - 1] > col) S->levels--;
    top = S->levels ? S->indents[S->levels - 1] : 0;
    alt_top = S->levels ? S->alt_indents[S->levels - 1] : 0;
    /* between two open levels; CPython's tokenizer says so before its parser can miss the
     * block a header awaited (a block indented with spaces under a header indented with tabs) */
    if (col != top)
        note_problem(S, DL_PRESCAN_UNINDENT_MISMATCH, S->i);
    else if (alt_col != alt_top)
        note_problem(S, DL_PRESCAN_INCONSISTENT_TABS, S->i);
    else if (awaited && col <= S->block_col)
        note_header_problem(S, DL_PRESCAN_EXPECTED_BLOCK, S->i, S->block_after, S->block_line);
    S->block_after = NULL;
}

/* A name or a number: keywords that start or continue a right-nested expression chain. */
static void limit_word(LimitScan *S) {
    size_t start = S->i;
    while (S->i < S->len && dl_source_name_byte(S->s[S->i])) S->i++;
    size_t n = S->i - start;
    const char *w = S->s + start;
#define IS(kw) (n == sizeof kw - 1 && memcmp(w, kw, n) == 0)
    if (S->first_token && !IS("async")) {
        static const struct {
            const char *word;
            size_t len;
        } compound[] = {{"if", 2},  {"elif", 4},  {"else", 4}, {"for", 3},    {"while", 5},
                        {"with", 4}, {"def", 3},  {"class", 5}, {"try", 3},   {"except", 6},
                        {"finally", 7}};
        for (size_t k = 0; k < sizeof compound / sizeof *compound; k++)
            if (n == compound[k].len && memcmp(w, compound[k].word, n) == 0) {
                S->header = compound[k].word;
                S->header_line = S->line;
            }
        if (IS("match") || IS("case")) { /* also names: `match = re.match(...)` */
            S->soft_header = IS("match") ? "match" : "case";
            S->header_line = S->line;
        }
        if (IS("print") || IS("exec")) {
            S->print_word = IS("print") ? "print" : "exec";
            S->print_at = start;
        }
    }
    if (IS("and") || IS("or") || IS("not") || IS("in") || IS("is")) {
        S->awaits_operand = true;
        S->operator_at = start;
        S->operator_len = n;
    }
    /* `input.cuda(async=True)` (PyTorch 0.3's spelling of non_blocking): `async` and `await`
     * are keywords since Python 3.7, which no argument may be named */
    if ((IS("async") || IS("await")) && S->depth && S->frames[S->depth].kind == '(') {
        size_t j = S->i;
        while (j < S->len && (S->s[j] == ' ' || S->s[j] == '\t'))
            j++;
        if (j < S->len && S->s[j] == '=' && (j + 1 == S->len || S->s[j + 1] != '=') &&
            note_problem(S, DL_PRESCAN_KEYWORD_ARGUMENT, start))
            S->problem.header = IS("async") ? "async" : "await";
    }
    if (IS("lambda")) S->frames[S->depth].lambdas++;
    if (IS("lambda") || IS("if") || IS("else") || IS("await") || IS("yield") ||
        (IS("not") && !S->operand))
        limit_chain(S);
    S->operand = !(IS("lambda") || IS("if") || IS("else") || IS("await") || IS("yield") ||
                   IS("not") || IS("and") || IS("or") || IS("in") || IS("is") || IS("for") ||
                   IS("return") || IS("elif") || IS("while") || IS("with") || IS("as") ||
                   IS("from") || IS("import") || IS("del") || IS("assert") || IS("raise"));
#undef IS
}

/* Whether the one-byte operator `c` at `at` ends an operand rather than awaiting one: the
 * dots of `...` and of a number (`1.`), `*` of `from m import *`. (`:` ends headers, lambdas'
 * parameters and annotations' names, and is never taken to await anything.) */
static bool operator_is_complete(const char *s, size_t at, char c) {
    if (c == ':') return true;
    if (c == '.' && at > 0 && s[at - 1] == '.') return true;
    if (c == '.' && at > 0 && s[at - 1] >= '0' && s[at - 1] <= '9') {
        size_t k = at;
        while (k > 0 && dl_source_name_byte(s[k - 1])) k--;
        return s[k] >= '0' && s[k] <= '9';
    }
    if (c == '*') {
        size_t k = at;
        while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t')) k--;
        return k >= 6 && memcmp(s + k - 6, "import", 6) == 0 &&
               (k == 6 || !dl_source_name_byte(s[k - 7]));
    }
    return false;
}

/* Operators: prefix ones (`-x`, `*args`, `not`), right-associative ones (`**`, `:=`, `=` of
 * chained assignments) chain; the rest reduce as they go. */
static void limit_operator(LimitScan *S) {
    const char *s = S->s + S->i;
    size_t left = S->len - S->i;
    char c = s[0];
    bool two = left > 1 && (s[1] == '=' || (s[1] == c && strchr("*/<>", c)) ||
                            (c == '-' && s[1] == '>'));
    bool three = two && left > 2 && s[1] == c && s[2] == '=';
    if (c == ':' && !two && S->frames[S->depth].lambdas) {
        S->frames[S->depth].lambdas--;
    } else if (c == ':' && !two && S->depth == 0 && (S->header || S->soft_header) &&
               !S->header_colon) {
        S->header_colon = true;
        S->colon_end = S->i + 1;
    }
    if (c == '=' && !two && S->depth == 0) {
        S->assign++;
        if (++S->pending > DL_MAX_CHAIN) S->over = "operators";
    } else if ((c == '*' && two && s[1] == '*') || (c == ':' && two)) {
        limit_chain(S); /* `**`, `:=` */
    } else if (!two && !S->operand && (c == '-' || c == '+' || c == '~' || c == '*')) {
        limit_chain(S); /* prefix */
    }
    size_t len = three ? 3 : two ? 2 : 1;
    S->awaits_operand = len > 1 || !operator_is_complete(S->s, S->i, c);
    S->operator_at = S->i;
    S->operator_len = len;
    S->i += len;
    S->operand = false;
}

static void note_unterminated(LimitScan *S, size_t quote_at, bool triple) {
    note_problem(S, triple ? DL_PRESCAN_UNTERMINATED_TRIPLE : DL_PRESCAN_UNTERMINATED_STRING,
                 quote_at);
}

static void limit_string(LimitScan *S) {
    bool fstring;
    size_t quote_at = string_prefix(S->s, S->i, &fstring);
    char c = S->s[S->i];
    bool triple = S->i + 2 < S->len && S->s[S->i + 1] == c && S->s[S->i + 2] == c;
    bool field, closed;
    S->i = skip_string_body(S->s, S->len, S->i + (triple ? 3 : 1), c, triple, fstring, &S->line,
                            &field, &closed);
    S->operand = true;
    S->string = true;
    if (!closed) note_unterminated(S, quote_at, triple);
    if (field) limit_open(S, 'f', quote_at, c, triple);
}

/* `}` of an f-string's field: the string goes on. */
static void limit_resume_string(LimitScan *S) {
    char quote = S->frames[S->depth].quote;
    size_t quote_at = S->frames[S->depth].at;
    bool triple = S->frames[S->depth].triple, field, closed;
    limit_close(S);
    S->string = true;
    S->i = skip_string_body(S->s, S->len, S->i, quote, triple, true, &S->line, &field, &closed);
    if (!closed) note_unterminated(S, quote_at, triple);
    if (field) limit_open(S, 'f', quote_at, quote, triple);
}

/* `:` at an f-string field's own level starts its format spec (`{id(self):#x}`, `{x:=^10}`),
 * which is text up to the field's `}` or a nested field's `{`, not code: a `#` there is no
 * comment. */
static void limit_format_spec(LimitScan *S) {
    bool triple = S->frames[S->depth].triple;
    S->i++;
    while (S->i < S->len) {
        char c = S->s[S->i];
        if (c == '{' || c == '}') break;
        if (c == '\n' || c == '\r') {
            if (!triple) break; /* the string's line ends: unterminated, as limit_token sees */
            if (c == '\n' || S->i + 1 >= S->len || S->s[S->i + 1] != '\n') S->line++;
        }
        S->i++;
    }
    S->operand = false;
}

/* The end of a logical line, or a `;` outside brackets: an operator cannot end it, a compound
 * statement's header needs its colon, and a colon that ends the line awaits an indented block. */
static void limit_line_end(LimitScan *S) {
    if (S->awaits_operand && note_problem(S, DL_PRESCAN_EXPECTED_OPERAND, S->operator_at))
        S->problem.operator_len = S->operator_len;
    S->awaits_operand = false;
    S->print_word = NULL;
    if (S->header && !S->header_colon) {
        note_header_problem(S, DL_PRESCAN_EXPECTED_COLON, S->token_end, S->header,
                            S->header_line);
    } else if ((S->header || S->soft_header) && S->header_colon &&
               S->colon_end == S->token_end) {
        S->block_after = S->header ? S->header : S->soft_header;
        S->block_line = S->header_line;
        S->block_col = S->line_col;
    }
    S->header = NULL;
    S->soft_header = NULL;
    S->header_colon = false;
    S->first_token = false;
}

/* A keyword other than False, None and True, which are operands. */
static bool is_keyword(const char *w, size_t n) {
    static const char *const keywords[] = {
        "and",  "as",     "assert", "async", "await",    "break", "class",  "continue",
        "def",  "del",    "elif",   "else",  "except",   "finally", "for",  "from",
        "global", "if",   "import", "in",    "is",       "lambda", "nonlocal", "not",
        "or",   "pass",   "raise",  "return", "try",     "while", "with",   "yield", NULL};
    for (const char *const *k = keywords; *k; k++)
        if (strlen(*k) == n && memcmp(*k, w, n) == 0) return true;
    return false;
}

/* The token after a logical line's first `print` (or `exec`): a string, a number or a name
 * other than a keyword makes it Python 2's statement (`print "x"`, `print x, y`); Python 3 reads
 * `print`, `print(x)`, `print -1` and `print if a else b` as expressions. */
static void check_print_statement(LimitScan *S) {
    char c = S->s[S->i];
    bool statement = c == '"' || c == '\'';
    if (dl_source_name_byte(c)) {
        size_t end = S->i;
        while (end < S->len && dl_source_name_byte(S->s[end])) end++;
        statement = !is_keyword(S->s + S->i, end - S->i);
    }
    if (statement && note_problem(S, DL_PRESCAN_PRINT_STATEMENT, S->print_at))
        S->problem.header = S->print_word;
    S->print_word = NULL;
}

/* Inside brackets, an operand that starts right after another one (`{'a': loss_fn()` then
 * `'b': 2}` on the next line): CPython's "Perhaps you forgot a comma?". Strings written side
 * by side are one string (`"a" f"{b}"`), and keywords go on an expression (`x for x in y`). */
static void check_missing_comma(LimitScan *S, bool after_string) {
    if (!S->operand || !S->depth || S->frames[S->depth].kind == 'f' || S->problem.kind) return;
    char c = S->s[S->i];
    bool fstring, starts_string;
    if (c == '"' || c == '\'') {
        if (string_prefix(S->s, S->i, &fstring) != S->i) return; /* its prefix was checked */
        starts_string = true;
    } else if (dl_source_name_byte(c)) {
        size_t end = S->i;
        while (end < S->len && dl_source_name_byte(S->s[end])) end++;
        starts_string = end < S->len && (S->s[end] == '"' || S->s[end] == '\'') &&
                        string_prefix(S->s, end, &fstring) == S->i;
        if (!starts_string && is_keyword(S->s + S->i, end - S->i)) return;
    } else {
        return;
    }
    if (!(starts_string && after_string)) note_problem(S, DL_PRESCAN_MISSING_COMMA, S->i);
}

static void limit_token(LimitScan *S) {
    size_t start = S->i;
    char c = S->s[S->i];
    bool token = c != ' ' && c != '\t' && c != '\f' && c != '\n' && c != '\r' && c != '#' &&
                 c != '\\';
    if (token) S->extras = 0; /* a token: the run of comments is over */
    bool after_string = S->string;
    if (token) {
        check_missing_comma(S, after_string);
        if (S->print_word) check_print_statement(S);
        S->string = false;
        if (c != ';') S->awaits_operand = false; /* `;` ends the statement: limit_line_end */
    }
    switch (c) {
    case '\r':
        if (S->i + 1 < S->len && S->s[S->i + 1] == '\n') S->i++;
        /* fall through */
    case '\n':
        S->line++;
        S->line_start = true;
        S->i++;
        if (!S->depth && !S->continued) {
            limit_item_end(S, true);
            limit_line_end(S);
        }
        break;
    case '\\':
        S->continued = S->i + 1 < S->len && (S->s[S->i + 1] == '\n' || S->s[S->i + 1] == '\r');
        S->extras = S->continued ? S->extras + 1 : 0;
        if (S->extras > DL_MAX_EXTRAS) S->over = "comments";
        S->i++;
        break;
    case '#':
        if (S->depth && S->frames[S->depth].kind == 'f') { /* no comment inside a field */
            S->i++;
            break;
        }
        if (++S->extras > DL_MAX_EXTRAS) S->over = "comments";
        while (S->i < S->len && S->s[S->i] != '\n' && S->s[S->i] != '\r') S->i++;
        break;
    case ' ':
    case '\t':
    case '\f': /* a run of them */
        do S->i++;
        while (S->i < S->len && (S->s[S->i] == ' ' || S->s[S->i] == '\t' || S->s[S->i] == '\f'));
        break;
    case '"':
    case '\'':
        limit_string(S);
        break;
    case '(':
    case '[':
    case '{':
        S->i++;
        limit_open(S, c, S->i - 1, 0, false);
        break;
    case ')':
    case ']':
    case '}':
        S->i++;
        if (!S->depth) {
            if (note_problem(S, DL_PRESCAN_UNMATCHED_CLOSE, S->i - 1)) S->problem.close = c;
            break;
        }
        if (c == '}' && S->frames[S->depth].kind == 'f') {
            limit_resume_string(S);
        } else if (S->frames[S->depth].kind != 'f') {
            limit_check_match(S, c);
            limit_close(S);
        }
        break;
    case ',':
    case ';':
        S->i++;
        limit_item_end(S, c == ';');
        if (c == ';' && !S->depth) limit_line_end(S);
        S->operand = false;
        break;
    default:
        if (c == ':' && S->depth && S->frames[S->depth].kind == 'f') limit_format_spec(S);
        else if (dl_source_name_byte(c)) limit_word(S);
        else if (strchr("-+~*/%@&|^<>=!:.", c)) limit_operator(S);
        else S->i++;
    }
    if (token && !(c == ';' && !S->depth)) {
        S->token_end = S->i;
        /* `async def`: the keyword after it decides */
        if (!(S->i - start == 5 && memcmp(S->s + start, "async", 5) == 0)) S->first_token = false;
    }
}

/* Returns a malloc'ed error when the file goes over a limit (see above), else NULL. */
char *dl_python_prescan(const DlSource *src, DlPrescanProblem *problem) {
    LimitScan *S = malloc(sizeof *S);
    if (!S) abort();
    memset(S, 0, offsetof(LimitScan, frames));
    memset(&S->frames[0], 0, sizeof S->frames[0]);
    S->s = src->text;
    S->len = src->len;
    S->line = 1;
    S->line_start = true;
    if (S->len >= 3 && memcmp(S->s, "\xEF\xBB\xBF", 3) == 0) S->i = 3;
    while (S->i < S->len && !S->over) {
        if (S->line_start) {
            S->line_start = false;
            if (S->depth == 0 && !S->continued) limit_indent(S);
            S->continued = false;
            continue;
        }
        limit_token(S);
    }
    if (!S->depth && !S->over) {
        limit_line_end(S);
        if (S->block_after)
            note_header_problem(S, DL_PRESCAN_EXPECTED_BLOCK, S->token_end, S->block_after,
                                S->block_line);
    } else if (S->depth && !S->over) { /* the innermost bracket or f-string left open */
        if (S->frames[S->depth].kind == 'f') {
            note_unterminated(S, S->frames[S->depth].at, S->frames[S->depth].triple);
        } else if (note_problem(S, DL_PRESCAN_NEVER_CLOSED, S->frames[S->depth].at)) {
            S->problem.open = S->frames[S->depth].kind;
        }
    }
    *problem = S->problem;
    char *msg = NULL;
    if (S->over) {
        msg = malloc(128);
        if (!msg) abort();
        if (S->over[0] == 'c')
            snprintf(msg, 128, "too many comment lines in a row to analyse (over %d at line %d)",
                     DL_MAX_EXTRAS, S->line);
        else if (S->over[0] == 'o')
            snprintf(msg, 128, "expression too deeply nested to analyse (over %d operators in a "
                               "chain at line %d)", DL_MAX_CHAIN, S->line);
        else
            snprintf(msg, 128, "nesting too deep to analyse (over %d levels of %s at line %d)",
                     S->over[0] == 'i' ? DL_MAX_INDENTS : DL_MAX_BRACKETS, S->over, S->line);
    }
    free(S);
    return msg;
}

char *dl_python_prescan_describe(const DlSource *src, const DlPrescanProblem *problem) {
    switch (problem->kind) {
    case DL_PRESCAN_NO_PROBLEM: return NULL;
    case DL_PRESCAN_UNMATCHED_CLOSE: return dl_xasprintf("unmatched `%c`", problem->close);
    case DL_PRESCAN_MISMATCHED_CLOSE: {
        int open_line, open_col, line, col;
        dl_source_position(src, problem->open_at, &open_line, &open_col);
        dl_source_position(src, problem->at, &line, &col);
        if (open_line == line)
            return dl_xasprintf("closing `%c` does not match `%c`", problem->close, problem->open);
        return dl_xasprintf("closing `%c` does not match `%c` on line %d", problem->close,
                            problem->open, open_line);
    }
    case DL_PRESCAN_NEVER_CLOSED: return dl_xasprintf("`%c` was never closed", problem->open);
    case DL_PRESCAN_UNTERMINATED_STRING: return dl_xasprintf("unterminated string");
    case DL_PRESCAN_UNTERMINATED_TRIPLE: return dl_xasprintf("unterminated triple-quoted string");
    case DL_PRESCAN_EXPECTED_COLON: return dl_xasprintf("expected `:`");
    case DL_PRESCAN_UNEXPECTED_INDENT: return dl_xasprintf("unexpected indent");
    case DL_PRESCAN_UNINDENT_MISMATCH:
        return dl_xasprintf("unindent does not match any outer indentation level");
    case DL_PRESCAN_INCONSISTENT_TABS:
        return dl_xasprintf("inconsistent use of tabs and spaces in indentation");
    case DL_PRESCAN_EXPECTED_BLOCK:
        return dl_xasprintf("expected an indented block after `%s` on line %d", problem->header,
                            problem->header_line);
    case DL_PRESCAN_MISSING_COMMA: return dl_xasprintf("perhaps a comma is missing before this");
    case DL_PRESCAN_EXPECTED_OPERAND:
        return dl_xasprintf("expected an expression after `%.*s`", (int)problem->operator_len,
                            src->text + problem->at);
    case DL_PRESCAN_PRINT_STATEMENT:
        return dl_xasprintf("missing parentheses in call to `%s`: Python 2 syntax",
                            problem->header);
    case DL_PRESCAN_KEYWORD_ARGUMENT:
        return dl_xasprintf("`%s` is a keyword since Python 3.7 and cannot name an argument",
                            problem->header);
    }
    return NULL;
}
