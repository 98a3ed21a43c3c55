/* A rough tokenizer run over a Python file before tree-sitter parses it (python.c): it refuses
 * the files tree-sitter cannot parse safely, and it notes the first bracket or string that does
 * not close, so that a syntax error is reported where CPython reports it rather than where
 * tree-sitter's error recovery happens to start (an unclosed `[` at line 402 makes one ERROR
 * node of the whole file, from line 1). */
#ifndef DL_FRONTEND_PYTHON_PRESCAN_H
#define DL_FRONTEND_PYTHON_PRESCAN_H
#include <stddef.h>

#include "core/source.h"

typedef enum DlPrescanProblemKind {
    DL_PRESCAN_NO_PROBLEM = 0,
    DL_PRESCAN_UNMATCHED_CLOSE,     /* `)` with no bracket open */
    DL_PRESCAN_MISMATCHED_CLOSE,    /* `]` closing a `(` */
    DL_PRESCAN_NEVER_CLOSED,        /* a bracket still open at the end of the file */
    DL_PRESCAN_UNTERMINATED_STRING, /* a one-line string that reaches its line's end */
    DL_PRESCAN_UNTERMINATED_TRIPLE, /* a triple-quoted string that reaches the file's end */
    DL_PRESCAN_EXPECTED_COLON,      /* a compound statement's header without its `:` */
    DL_PRESCAN_EXPECTED_BLOCK,      /* a header's `:` that ends its line, and no deeper line */
    DL_PRESCAN_UNEXPECTED_INDENT,   /* a line indented deeper than the block it is in */
    DL_PRESCAN_UNINDENT_MISMATCH,   /* a line indented between two enclosing blocks' levels */
    DL_PRESCAN_INCONSISTENT_TABS,   /* tabs and spaces mixed so that blocks depend on tab size */
    DL_PRESCAN_MISSING_COMMA,       /* inside brackets, an operand right after another (`{'a': 1
                                       'b': 2}`): the second one's start */
    DL_PRESCAN_EXPECTED_OPERAND,    /* a statement that ends on an operator (`x =`, `a +`) */
    DL_PRESCAN_PRINT_STATEMENT,     /* Python 2's `print "x"` or `exec code` */
    DL_PRESCAN_KEYWORD_ARGUMENT,    /* `x.cuda(async=True)`: a keyword (since Python 3.7) naming
                                       an argument, which the grammar takes */
} DlPrescanProblemKind;

/* The first such problem, in the order the tokenizer meets them (a bracket never closed is met
 * at the end of the file). */
typedef struct DlPrescanProblem {
    DlPrescanProblemKind kind;
    size_t at;      /* the byte of the closing bracket, the bracket never closed, the quote,
                       the end of a header, the line that should have been indented */
    char open;      /* the bracket left open or mismatched: ( [ { */
    char close;     /* the closing bracket met: ) ] } */
    size_t open_at; /* MISMATCHED_CLOSE: where `open` is */
    const char *header;  /* EXPECTED_COLON, EXPECTED_BLOCK: the header's keyword (`if`);
                            PRINT_STATEMENT: `print` or `exec`; KEYWORD_ARGUMENT: the keyword */
    size_t operator_len; /* EXPECTED_OPERAND: the operator's bytes at `at` */
    int header_line;
} DlPrescanProblem;

/* Scans `src`. Returns NULL, or a malloc'ed reason when the file goes over a limit (then it is
 * not to be parsed). *problem is the first bracket or string problem met, if any: a hint to use
 * only once tree-sitter has found the file invalid too, since the tokenizer is rough. */
char *dl_python_prescan(const DlSource *src, DlPrescanProblem *problem);

/* A malloc'ed description of `problem` for a message, e.g. "`[` was never closed"; NULL for
 * DL_PRESCAN_NO_PROBLEM. */
char *dl_python_prescan_describe(const DlSource *src, const DlPrescanProblem *problem);

#endif
