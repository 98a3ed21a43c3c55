/* Pieces of C++ lexing shared by the text scanners (see cpp_lex.h). */
#include "frontend/cpp_lex.h"

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
