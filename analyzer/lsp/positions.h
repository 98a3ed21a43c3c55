/* Positions as the Language Server Protocol counts them: 0-based lines and UTF-16 code units
 * within a line, converted to and from byte offsets of a UTF-8 text and devlint's own 1-based
 * lines and code-point columns. A character outside the Basic Multilingual Plane (most emoji)
 * is one code point, 4 UTF-8 bytes and 2 UTF-16 units; a CJK character is 1 code point,
 * 3 bytes and 1 unit. Lines end at \n, \r\n or a lone \r, as in the protocol and DlSource. */
#ifndef DL_LSP_POSITIONS_H
#define DL_LSP_POSITIONS_H
#include <stddef.h>

/* Byte offset of each line's first byte. count >= 1: a text ending in a terminator has a last,
 * empty line. */
typedef struct DlLspLines {
    size_t *starts;
    size_t count;
} DlLspLines;

void dl_lsp_lines_build(DlLspLines *lines, const char *text, size_t len);
void dl_lsp_lines_free(DlLspLines *lines);

/* The bytes of 0-based `line` without its terminator: [*start, *end). Out of range: the end of
 * the text. */
void dl_lsp_line_span(const DlLspLines *lines, const char *text, size_t len, size_t line,
                      size_t *start, size_t *end);

/* UTF-16 code units in text[0..nbytes) (a 4-byte UTF-8 sequence counts 2). */
size_t dl_lsp_utf16_count(const char *text, size_t nbytes);

/* Protocol position -> byte offset. A line past the end is the end of the text; a character
 * past the end of its line is the end of the line; a character that falls inside a surrogate
 * pair lands after the pair. */
size_t dl_lsp_offset(const DlLspLines *lines, const char *text, size_t len, long line,
                     long character);

/* devlint position (1-based line, 1-based code-point column, a leading BOM taking no column)
 * -> protocol position. Lines past the end clamp to the last line, columns past the end of
 * the line to its end. */
void dl_lsp_position(const DlLspLines *lines, const char *text, size_t len, int line, int column,
                     long *lsp_line, long *lsp_character);

#endif
