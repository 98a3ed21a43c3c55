/* UTF-16 positions of the protocol <-> byte offsets and devlint's code-point columns. */
#include "lsp/positions.h"

#include <stdbool.h>
#include <string.h>

#include "core/vec.h"

void dl_lsp_lines_build(DlLspLines *lines, const char *text, size_t len) {
    DL_VEC(size_t) starts = {0};
    dl_vec_push(&starts, 0);
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')
            i++;
        else if (text[i] != '\n' && text[i] != '\r')
            continue;
        dl_vec_push(&starts, i + 1);
    }
    lines->starts = starts.items;
    lines->count = starts.len;
}

void dl_lsp_lines_free(DlLspLines *lines) {
    free(lines->starts);
    lines->starts = NULL;
    lines->count = 0;
}

void dl_lsp_line_span(const DlLspLines *lines, const char *text, size_t len, size_t line,
                      size_t *start, size_t *end) {
    if (line >= lines->count) {
        *start = *end = len;
        return;
    }
    *start = lines->starts[line];
    size_t e = line + 1 < lines->count ? lines->starts[line + 1] : len;
    if (line + 1 < lines->count) {
        if (e > *start && text[e - 1] == '\n') e--;
        if (e > *start && text[e - 1] == '\r') e--;
    }
    *end = e;
}

/* Bytes of the UTF-8 sequence led by `c` (1 for a stray continuation byte). */
static size_t sequence_length(unsigned char c) {
    if (c >= 0xF0) return 4;
    if (c >= 0xE0) return 3;
    if (c >= 0xC0) return 2;
    return 1;
}

size_t dl_lsp_utf16_count(const char *text, size_t nbytes) {
    size_t units = 0;
    for (size_t i = 0; i < nbytes; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c & 0xC0) == 0x80) continue;
        units += c >= 0xF0 ? 2 : 1;
    }
    return units;
}

size_t dl_lsp_offset(const DlLspLines *lines, const char *text, size_t len, long line,
                     long character) {
    if (line < 0) return 0;
    if ((size_t)line >= lines->count) return len;
    size_t start, end;
    dl_lsp_line_span(lines, text, len, (size_t)line, &start, &end);
    size_t at = start;
    long units = 0;
    while (at < end && units < character) {
        unsigned char c = (unsigned char)text[at];
        size_t n = sequence_length(c);
        units += n == 4 ? 2 : 1;
        at += n;
    }
    return at > end ? end : at;
}

static bool has_bom(const char *text, size_t len) {
    return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0;
}

void dl_lsp_position(const DlLspLines *lines, const char *text, size_t len, int line, int column,
                     long *lsp_line, long *lsp_character) {
    size_t index = line < 1 ? 0 : (size_t)line - 1;
    if (index >= lines->count) index = lines->count - 1;
    size_t start, end;
    dl_lsp_line_span(lines, text, len, index, &start, &end);
    long units = 0;
    if (index == 0 && has_bom(text, len)) { /* the BOM is a character to the protocol */
        start = 3;
        units = 1;
    }
    size_t at = start;
    for (int c = 1; c < column && at < end; c++) {
        size_t n = sequence_length((unsigned char)text[at]);
        units += n == 4 ? 2 : 1;
        at += n;
    }
    *lsp_line = (long)index;
    *lsp_character = units;
}
