/* Joining spaced kernel-launch chevrons (cpp_launch_spacing.h). */
#include "frontend/cpp_launch_spacing.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/cpp_lex.h"

/* The offset past a comment or a string or character literal starting at `i`, or `i`
 * (cpp_lex.h reads literals as the include scan does). */
static size_t skip_comment_or_literal(const char *s, size_t len, size_t i) {
    const char *p = s + i, *end = s + len;
    if (p[0] == '/' && i + 1 < len && p[1] == '/') {
        while (i < len && s[i] != '\n') i++;
        return i;
    }
    if (p[0] == '/' && i + 1 < len && p[1] == '*') {
        const char *close = dl_cpp_block_comment_end(p, end);
        return close ? (size_t)(close - s) : len;
    }
    if (p[0] == '"' && i > 0 && s[i - 1] == 'R') {
        const char *after = dl_cpp_raw_string_end(p, end);
        if (after) return (size_t)(after - s);
    }
    if (p[0] == '"' || (p[0] == '\'' && dl_cpp_starts_char_literal(s, p)))
        return (size_t)(dl_cpp_literal_end(p, end) - s);
    return i;
}

/* `c c <spaces> c` at `i` (the spaces on one line): the offset of the third `c`, or 0. */
static size_t spaced_triple(const char *s, size_t len, size_t i, char c) {
    if (i + 3 >= len || s[i] != c || s[i + 1] != c || (s[i + 2] != ' ' && s[i + 2] != '\t'))
        return 0;
    size_t j = i + 2;
    while (j < len && (s[j] == ' ' || s[j] == '\t')) j++;
    if (j >= len || s[j] != c) return 0;
    /* `<< <<`, `<< <=`: not a launch */
    if (j + 1 < len && (s[j + 1] == c || s[j + 1] == '=')) return 0;
    return j;
}

static void join(char *out, size_t i, size_t third, char c) {
    out[i + 2] = c;
    out[third] = ' ';
}

char *dl_cpp_join_spaced_chevrons(const char *text, size_t len) {
    char *out = NULL;
    size_t open_at = 0; /* after a joined `<< <`: where its `>> >` is looked for */
    bool in_launch = false;
    for (size_t i = 0; i < len;) {
        size_t past = skip_comment_or_literal(text, len, i);
        if (past != i) {
            i = past;
            continue;
        }
        if (!in_launch) {
            size_t third = spaced_triple(text, len, i, '<');
            if (third) {
                if (!out) {
                    out = malloc(len + 1);
                    if (!out) return NULL;
                    memcpy(out, text, len);
                    out[len] = '\0';
                }
                join(out, i, third, '<');
                in_launch = true;
                open_at = third + 1;
                i = third + 1;
                continue;
            }
        } else if (i >= open_at && text[i] == '>' && i + 2 < len && text[i + 1] == '>') {
            if (text[i + 2] == '>') { /* closed as `>>>` */
                in_launch = false;
                i += 3;
                continue;
            }
            size_t third = spaced_triple(text, len, i, '>');
            if (third) { /* `n >> 1` in the launch's configuration is a shift: not this */
                join(out, i, third, '>');
                in_launch = false;
                i = third + 1;
                continue;
            }
        }
        i++;
    }
    return out;
}
