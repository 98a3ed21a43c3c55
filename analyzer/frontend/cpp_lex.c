/* Pieces of C++ lexing shared by the text scanners (see cpp_lex.h). */
#include "frontend/cpp_lex.h"

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

static bool delimiter_char(char c) {
    return c != ' ' && c != '(' && c != ')' && c != '\\' && c != '\t' && c != '\v' && c != '\f' &&
           c != '\n' && c != '\r';
}

const char *dl_cpp_raw_string_end(const char *quote, const char *end) {
    const char *delim = quote + 1, *open = delim;
    while (open < end && open - delim < 16 && delimiter_char(*open))
        open++;
    if (open >= end || *open != '(') return NULL;
    size_t dlen = (size_t)(open - delim);
    for (const char *r = open + 1; r + dlen + 1 < end; r++)
        if (r[0] == ')' && memcmp(r + 1, delim, dlen) == 0 && r[1 + dlen] == '"')
            return r + dlen + 2;
    return end;
}

const char *dl_cpp_literal_end(const char *quote, const char *end) {
    char q = *quote;
    const char *p = quote + 1;
    for (; p < end && *p != q && *p != '\n' && *p != '\r'; p++) {
        if (*p != '\\' || p + 1 >= end) continue;
        /* an escape, or a backslash that splices the next line on (\n, \r\n or a lone \r) */
        p += p[1] == '\r' && p + 2 < end && p[2] == '\n' ? 2 : 1;
    }
    return p < end && *p == q ? p + 1 : p;
}

bool dl_cpp_starts_char_literal(const char *text, const char *quote) {
    const char *q = quote;
    while (q > text && (isalnum((unsigned char)q[-1]) || q[-1] == '_' || q[-1] == '.' ||
                        q[-1] == '\''))
        q--;
    return q == quote || !isdigit((unsigned char)*q);
}

const char *dl_cpp_block_comment_end(const char *slash, const char *end) {
    for (const char *p = slash + 2; p + 1 < end; p++)
        if (p[0] == '*' && p[1] == '/') return p + 2;
    return NULL;
}
