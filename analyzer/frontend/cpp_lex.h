/* Pieces of C++ lexing that devlint's text scanners share (the include scan, the crash guard):
 * both read a file before the compiler does, and must agree with it on what is a literal. */
#ifndef DL_FRONTEND_CPP_LEX_H
#define DL_FRONTEND_CPP_LEX_H

/* The end of a raw string literal whose opening quote is at `quote` (right after its R prefix):
 * just past its closing `)delim"`; `end` when it never closes (the compiler reads it to the end
 * of the file); NULL when what follows the quote is no delimiter: over 16 characters, or a
 * space, a parenthesis, a backslash or a control character before its `(`. */
const char *dl_cpp_raw_string_end(const char *quote, const char *end);

#endif
