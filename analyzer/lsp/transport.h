/* The protocol's base layer on a pair of file descriptors: messages framed by a
 * `Content-Length: N` header block and N bytes of JSON. The reader keeps its own buffer so the
 * server can ask whether more input is already waiting (to let a burst of edits through
 * before re-checking). Framing errors are reported, never fatal: a header block without a
 * usable Content-Length is dropped, a body over the size limit is read and thrown away, and
 * the next message is read as usual. */
#ifndef DL_LSP_TRANSPORT_H
#define DL_LSP_TRANSPORT_H
#include <stdbool.h>
#include <stddef.h>

enum { DL_LSP_MAX_MESSAGE = 64 * 1024 * 1024, DL_LSP_MAX_HEADER = 64 * 1024 };

typedef struct DlLspReader {
    int fd;
    char *buf;
    size_t start, end, cap; /* unread bytes are buf[start..end) */
    size_t max_body;        /* DL_LSP_MAX_MESSAGE unless a test sets less */
    bool eof;
} DlLspReader;

typedef enum {
    DL_LSP_READ_MESSAGE, /* *body (malloc'ed, NUL-terminated) and *len are set */
    DL_LSP_READ_EOF,     /* input closed (a partial message at the end is dropped) */
    DL_LSP_READ_BAD      /* a framing error; *error (malloc'ed) says what */
} DlLspRead;

void dl_lsp_reader_init(DlLspReader *r, int fd);
void dl_lsp_reader_free(DlLspReader *r);

/* Blocks until a whole message, the end of input or a framing error. */
DlLspRead dl_lsp_read(DlLspReader *r, char **body, size_t *len, char **error);

/* Is input already waiting (buffered, or readable on the descriptor without blocking)? */
bool dl_lsp_reader_pending(DlLspReader *r);

/* Writes one framed message; false when the output is gone (the client exited). */
bool dl_lsp_write(int fd, const char *json, size_t len);

#endif
