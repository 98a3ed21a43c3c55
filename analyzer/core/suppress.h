/* Suppression comments: `# devlint: ignore[DL101, unassigned-to]`, `# devlint: ignore` (all
 * rules on that line), `# noqa: DL101` / `# noqa` and a file-level `# devlint: skip-file`.
 * C++ uses `//` instead of `#`. Codes may be written as codes or rule names. */
#ifndef DL_SUPPRESS_H
#define DL_SUPPRESS_H
#include <stdbool.h>
#include <stddef.h>

typedef struct DlSuppressionCode {
    char *text;     /* as written ("DL101", "unassigned-to", "DL999") */
    int column;     /* 1-based code-point column of the code in the line, for DL000 */
    int end_column; /* exclusive, like DlDiag */
} DlSuppressionCode;

typedef struct DlSuppression {
    int line;     /* 1-based */
    bool all;     /* no codes listed: suppress every rule on the line */
    bool is_noqa; /* written as `# noqa` (then unknown non-DL codes like E501 are not ours) */
    DlSuppressionCode *codes;
    size_t code_count;
} DlSuppression;

typedef struct DlSuppressions {
    bool skip_file;
    DlSuppression *items; /* sorted by line */
    size_t count, cap;
} DlSuppressions;

/* One whole comment, marker included (`# ...`, `// ...`, a C block comment), as a parser's
 * comment node spans it. Only text inside comments counts: the caller passes the byte ranges
 * of the file's comments, so a string that contains "# noqa" is not a suppression. */
typedef struct DlCommentSpan {
    size_t start, end; /* byte offsets into text */
    int line;          /* 1-based line of `start` */
} DlCommentSpan;

/* `out` is initialised here. One item per directive found (a line may have several).
 * `devlint: ignore[...]` lists codes or rule names; `noqa: ...` lists code-shaped words
 * (letters then digits, e.g. E501, DL101) and stops at the first other word, so
 * `# noqa: DL101 because ...` lists DL101; `noqa` (any case) must follow a comment marker
 * (`# noqa`, `// NOQA`, `# text # noqa`). `noqa` and `noqa:` with no codes, and
 * `devlint: ignore` without a list, silence every rule; `devlint: ignore[]` silences nothing.
 * A directive in a multi-line comment belongs to the line it is written on. */
void dl_suppressions_parse(const char *text, const DlCommentSpan *comments, size_t comment_count,
                           DlSuppressions *out);

/* Does a suppression on `line` silence the rule `code` ("DL101", compared case-insensitively)
 * named `name` ("unassigned-to", compared exactly)? Either may be NULL. */
bool dl_suppressions_match(const DlSuppressions *s, int line, const char *code, const char *name);

void dl_suppressions_free(DlSuppressions *s);

#endif
