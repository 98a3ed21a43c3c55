/* Content-Length framing over file descriptors. */
#include "lsp/transport.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum { READ_CHUNK = 64 * 1024 };

void dl_lsp_reader_init(DlLspReader *r, int fd) {
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->max_body = DL_LSP_MAX_MESSAGE;
}

void dl_lsp_reader_free(DlLspReader *r) {
    free(r->buf);
    r->buf = NULL;
}

__attribute__((format(printf, 1, 2))) static char *message_printf(const char *fmt, ...) {
    char *s = malloc(200);
    if (!s) abort();
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, 200, fmt, ap);
    va_end(ap);
    return s;
}

/* Reads what the descriptor has (at least one byte unless at the end). False at end of input. */
static bool fill(DlLspReader *r) {
    if (r->eof) return false;
    if (r->start > 0 && r->start == r->end) r->start = r->end = 0;
    if (r->cap - r->end < READ_CHUNK) {
        if (r->start > 0) { /* compact before growing */
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start;
            r->start = 0;
        }
        if (r->cap - r->end < READ_CHUNK) {
            size_t cap = r->cap ? r->cap * 2 : 2 * READ_CHUNK;
            while (cap - r->end < READ_CHUNK)
                cap *= 2;
            char *buf = realloc(r->buf, cap);
            if (!buf) abort();
            r->buf = buf;
            r->cap = cap;
        }
    }
    for (;;) {
        ssize_t n = read(r->fd, r->buf + r->end, r->cap - r->end);
        if (n > 0) {
            r->end += (size_t)n;
            return true;
        }
        if (n < 0 && errno == EINTR) continue;
        r->eof = true;
        return false;
    }
}

/* The end of the header block (the byte after the blank line) in the buffer, or 0. */
static size_t header_end(const DlLspReader *r) {
    size_t n = r->end - r->start;
    if (n < 2) return 0; /* before the first read, buf is NULL */
    const char *b = r->buf + r->start;
    for (size_t i = 0; i + 1 < n; i++) {
        if (b[i] != '\n') continue;
        if (b[i + 1] == '\n') return i + 2;
        if (b[i + 1] == '\r' && i + 2 < n && b[i + 2] == '\n') return i + 3;
    }
    return 0;
}

/* Content-Length of a header block; -1 when it has none or it is not a number. */
static long long content_length(const char *h, size_t n) {
    long long value = -1;
    for (size_t i = 0; i < n;) {
        size_t eol = i;
        while (eol < n && h[eol] != '\n')
            eol++;
        static const char key[] = "content-length:";
        size_t k = sizeof key - 1;
        if (eol - i > k && strncasecmp(h + i, key, k) == 0) {
            size_t p = i + k;
            while (p < eol && (h[p] == ' ' || h[p] == '\t'))
                p++;
            long long v = 0;
            size_t digits = 0;
            while (p < eol && h[p] >= '0' && h[p] <= '9' && digits < 18) {
                v = v * 10 + (h[p] - '0');
                p++;
                digits++;
            }
            while (p < eol && (h[p] == ' ' || h[p] == '\t' || h[p] == '\r'))
                p++;
            value = digits && p == eol ? v : -1; /* 19 digits and more: not a length */
        }
        i = eol + 1;
    }
    return value;
}

/* Reads and drops `n` bytes of input (an oversized body). */
static void skip_bytes(DlLspReader *r, size_t n) {
    while (n > 0) {
        if (r->start == r->end && !fill(r)) return;
        size_t have = r->end - r->start;
        size_t take = have < n ? have : n;
        r->start += take;
        n -= take;
    }
}

/* The input ended: a partial message left in the buffer is dropped. */
static DlLspRead end_of_input(DlLspReader *r) {
    r->start = r->end = 0;
    return DL_LSP_READ_EOF;
}

DlLspRead dl_lsp_read(DlLspReader *r, char **body, size_t *len, char **error) {
    *body = NULL;
    *len = 0;
    *error = NULL;
    size_t hend;
    while (!(hend = header_end(r))) {
        if (r->end - r->start > DL_LSP_MAX_HEADER) {
            size_t dropped = r->end - r->start;
            r->start = r->end;
            *error = message_printf("no message header in %zu bytes of input (dropped)", dropped);
            return DL_LSP_READ_BAD;
        }
        if (!fill(r)) return end_of_input(r);
    }
    long long length = content_length(r->buf + r->start, hend);
    r->start += hend;
    if (length < 0) {
        *error = message_printf("a message header without a valid Content-Length");
        return DL_LSP_READ_BAD;
    }
    if ((unsigned long long)length > r->max_body) {
        skip_bytes(r, (size_t)length);
        *error = message_printf("message of %zu bytes is over the %zu-byte limit (dropped)",
                                (size_t)length, r->max_body);
        return DL_LSP_READ_BAD;
    }
    while (r->end - r->start < (size_t)length)
        if (!fill(r)) return end_of_input(r);
    char *b = malloc((size_t)length + 1);
    if (!b) abort();
    memcpy(b, r->buf + r->start, (size_t)length);
    b[length] = '\0';
    r->start += (size_t)length;
    *body = b;
    *len = (size_t)length;
    return DL_LSP_READ_MESSAGE;
}

bool dl_lsp_reader_pending(DlLspReader *r) {
    if (r->start < r->end) return true;
    if (r->eof) return false;
    struct pollfd p = {.fd = r->fd, .events = POLLIN};
    return poll(&p, 1, 0) > 0;
}

static bool write_all(int fd, const char *data, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        len -= (size_t)n;
    }
    return true;
}

bool dl_lsp_write(int fd, const char *json, size_t len) {
    char header[64];
    int n = snprintf(header, sizeof header, "Content-Length: %zu\r\n\r\n", len);
    return write_all(fd, header, (size_t)n) && write_all(fd, json, len);
}
