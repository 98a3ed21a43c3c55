/* Pieces of C++ lexing that devlint's text scanners share (the include scan, the crash guard,
 * the launch-spacing join): they read a file before the compiler does, and must agree with it
 * on what is a literal or a comment. */
#ifndef DL_FRONTEND_CPP_LEX_H
#define DL_FRONTEND_CPP_LEX_H
#include <stdbool.h>

/* The end of a raw string literal whose opening quote is at `quote` (right after its R prefix):
 * just past its closing `)delim"`; `end` when it never closes (the compiler reads it to the end
 * of the file); NULL when what follows the quote is no delimiter: over 16 characters, or a
 * space, a parenthesis, a backslash or a control character before its `(`. */
const char *dl_cpp_raw_string_end(const char *quote, const char *end);

/* Past a string or character literal opening at `quote`: just past its closing quote or,
 * unterminated, at the end of its line. A backslash at the end of a line splices the next one
 * on, inside a literal too (`"usage: \` then `#include <x>` is one string, no directive). */
const char *dl_cpp_literal_end(const char *quote, const char *end);

/* Whether the `'` at `quote` (in `text`) starts a character literal rather than separating
 * digits (1'000, 0x7f'ff): a separator is inside a number, whose token starts with a digit;
 * `L'x'`, `u8'x'` and `name'` (an unterminated literal the compiler reads as one) start with a
 * letter. */
bool dl_cpp_starts_char_literal(const char *text, const char *quote);

/* The end of the block comment opening at `slash` if it closes before `end`, else NULL. */
const char *dl_cpp_block_comment_end(const char *slash, const char *end);

#endif
