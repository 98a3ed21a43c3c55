#include "core/file_name.h"

static int name_byte(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-' || c == '.';
}

size_t dl_file_name_ending(const char *text, size_t n, size_t *start) {
    size_t at = n;
    while (at > 0 && name_byte(text[at - 1]))
        at--;
    if (at > 0 && text[at - 1] != '/' && text[at - 1] != '\\' && text[at - 1] != '}')
        return 0; /* a space or other text before it: not a path */
    const char *base = text + at;
    size_t len = n - at, dot = len;
    while (dot > 0 && base[dot - 1] != '.')
        dot--;
    if (dot < 3) return 0; /* no `.`, or a stem shorter than two characters */
    size_t ext = len - dot;
    if (ext < 1 || ext > 8) return 0;
    for (size_t i = dot; i < len; i++)
        if (base[i] == '_' || base[i] == '-') return 0;
    *start = at;
    return len;
}
