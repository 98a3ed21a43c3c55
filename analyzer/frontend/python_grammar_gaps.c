/* Valid Python that tree-sitter-python 0.23.6 rejects, made parseable without moving a byte.
 *
 * The grammar takes `*x` in a bare expression list but not `*(x)` or `*[x]`:
 * `return dq, dk, *((None,) * 30)` (an autograd backward returning its gradients, as
 * flash-attention's does), `x = a, *(b)`, `for x in a, *(b):`. Such a star, outside every bracket
 * and after `,`, `=`, `return`, `yield` or `in`, becomes a space: the element is then the
 * parenthesised value itself, which the analysis reads the same way (a sequence's elements are
 * not counted), and every other byte keeps its offset, so positions and texts are unchanged.
 * Tried only after a parse fails; used only when the patched text parses. */
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

char *dl_python_patch_grammar_gaps(const char *text, size_t len) {
    char *out = NULL;
    int depth = 0;
    size_t i = 0;
    while (i < len) {
        char c = text[i];
        if (c == '#') { /* a comment, to the end of the line */
            while (i < len && text[i] != '\n') i++;
            continue;
        }
        if (c == '\'' || c == '"') { /* a string; a backslash escapes the next byte */
            bool triple = i + 2 < len && text[i + 1] == c && text[i + 2] == c;
            i += triple ? 3 : 1;
            while (i < len) {
                if (text[i] == '\\') {
                    i += 2;
                    continue;
                }
                if (text[i] == c && (!triple || (i + 2 < len && text[i + 1] == c &&
                                                  text[i + 2] == c))) {
                    i += triple ? 3 : 1;
                    break;
                }
                if (!triple && text[i] == '\n') break; /* unterminated: the parser says so */
                i++;
            }
            continue;
        }
        if (c == '(' || c == '[' || c == '{') depth++;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
        else if (c == '*' && depth == 0 && bare_starred_bracket(text, len, i)) {
            if (!out) {
                out = malloc(len + 1);
                if (!out) return NULL;
                memcpy(out, text, len);
                out[len] = '\0';
            }
            out[i] = ' ';
        }
        i++;
    }
    return out;
}
