/* Source files in memory: loading with the bad-input checks (directory, size, binary, UTF-8),
 * the line index, and byte offset <-> (line, code-point column) conversion. */
#define _GNU_SOURCE /* memmem */
#include "source.h"

#include "vec.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* line_starts are 32-bit and must also hold len (the start of a last, empty line). */
#define DL_SOURCE_HARD_LIMIT ((size_t)UINT32_MAX - 1)

/* Chunk for reads whose size stat cannot tell (pipes, character devices). */
enum { DL_SOURCE_READ_CHUNK = 64 * 1024 };

static void *dl_source_xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* Always returns false so callers can `return dl_source_fail(...)`. */
__attribute__((format(printf, 2, 3))) static bool dl_source_fail(char **error, const char *fmt,
                                                                 ...) {
    if (!error) return false;
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    *error = dl_source_xmalloc((size_t)n + 1);
    vsnprintf(*error, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return false;
}

static size_t dl_source_limit(size_t max_bytes) {
    return max_bytes == 0 || max_bytes > DL_SOURCE_HARD_LIMIT ? DL_SOURCE_HARD_LIMIT : max_bytes;
}

static bool dl_source_has_bom(const char *text, size_t len) {
    return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0;
}

/* \n, \r\n and a lone \r each end a line; a terminator at the very end opens an empty line,
 * so every offset up to and including len belongs to some line. */
static void dl_source_index_lines(DlSource *src) {
    DL_VEC(uint32_t) starts = {0};
    dl_vec_push(&starts, 0);
    const char *t = src->text;
    if (!memchr(t, '\r', src->len)) { /* the common case: memchr finds each \n */
        for (const char *nl = t, *end = t + src->len; (nl = memchr(nl, '\n', (size_t)(end - nl)));)
            dl_vec_push(&starts, (uint32_t)(++nl - t));
        src->line_starts = starts.items;
        src->line_count = starts.len;
        return;
    }
    for (size_t i = 0; i < src->len; i++) {
        if (t[i] == '\r' && i + 1 < src->len && t[i + 1] == '\n')
            i++;
        else if (t[i] != '\n' && t[i] != '\r')
            continue;
        dl_vec_push(&starts, (uint32_t)(i + 1));
    }
    src->line_starts = starts.items;
    src->line_count = starts.len;
}

/* Python reads a lone \r as the end of a line (universal newlines); tree-sitter's grammar and
 * the text scans expect \n. Each lone \r becomes \n in `text` (same length: offsets, lines
 * and columns stay those of the file), the bytes as they were kept for writing fixes back. */
static void dl_source_end_lines_with_newlines(DlSource *src) {
    char *t = src->text, *end = t + src->len, *p = t;
    while ((p = memchr(p, '\r', (size_t)(end - p))) != NULL && p + 1 < end && p[1] == '\n')
        p++;
    if (!p) return; /* none, or each ends a \r\n */
    src->original = dl_source_xmalloc(src->len + 1);
    memcpy(src->original, t, src->len + 1);
    for (; (p = memchr(p, '\r', (size_t)(end - p))) != NULL; p++)
        if (p + 1 == end || p[1] != '\n') *p = '\n';
}

/* Takes ownership of `buf` (len bytes + room for the NUL) and runs the content checks. */
static bool dl_source_adopt(DlSource *src, const char *path, char *buf, size_t len, char **error) {
    buf[len] = '\0';
    src->text = buf;
    src->len = len;
    src->path = dl_source_xmalloc(strlen(path) + 1);
    strcpy(src->path, path);
    dl_source_index_lines(src);

    int line = 0, column = 0;
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        dl_source_position(src, (size_t)(nul - buf), &line, &column);
        dl_source_free(src);
        return dl_source_fail(error, "binary file (NUL byte at line %d)", line);
    }
    size_t bad = 0;
    if (!dl_utf8_valid(buf, len, &bad)) {
        dl_source_position(src, bad, &line, &column);
        dl_source_free(src);
        return dl_source_fail(error, "not valid UTF-8 (line %d, column %d)", line, column);
    }
    dl_source_end_lines_with_newlines(src);
    return true;
}

/* Reads to EOF, never keeping more than limit + 1 bytes. `hint` is the size fstat reported for
 * a regular file (0 for a pipe). Plain descriptor reads, no stdio: a regular file's text comes
 * in one read of hint + 1 bytes, whose shortfall is its end (a warm run over a large tree is
 * mostly these system calls). */
static char *dl_source_read_all(int fd, size_t hint, bool regular, size_t limit, size_t *len,
                                char **error) {
    size_t cap = hint ? hint + 1 : DL_SOURCE_READ_CHUNK;
    if (cap > limit + 1) cap = limit + 1;
    char *buf = dl_source_xmalloc(cap + 1); /* + 1 for the NUL */
    size_t n = 0;
    for (;;) {
        size_t want = cap - n;
        ssize_t got = read(fd, buf + n, want);
        if (got < 0) {
            if (errno == EINTR) continue;
            int err = errno;
            free(buf);
            dl_source_fail(error, "cannot read: %s", strerror(err));
            return NULL;
        }
        n += (size_t)got;
        if (n > limit) {
            free(buf);
            dl_source_fail(error, "file too large (over the %zu-byte limit)", limit);
            return NULL;
        }
        if (got == 0 || (regular && (size_t)got < want)) break;
        if (n < cap) continue;
        cap = cap > limit / 2 ? limit + 1 : cap * 2;
        char *grown = realloc(buf, cap + 1);
        if (!grown) {
            fputs("devlint: out of memory\n", stderr);
            abort();
        }
        buf = grown;
    }
    *len = n;
    if (cap - n > 4096) { /* every file's text is kept for the whole run: no slack */
        char *fitted = realloc(buf, n + 1);
        if (fitted) buf = fitted;
    }
    return buf;
}

bool dl_source_load(DlSource *src, const char *path, size_t max_bytes, char **error) {
    memset(src, 0, sizeof *src);
    size_t limit = dl_source_limit(max_bytes);
    /* Opened without blocking: a named pipe nobody writes to would otherwise hang the run here
     * (with O_NONBLOCK cleared again, reading it gives end of file: an empty source). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return dl_source_fail(error, "cannot read: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return dl_source_fail(error, "cannot read: %s", strerror(err));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return dl_source_fail(error, "is a directory");
    }
    bool regular = S_ISREG(st.st_mode);
    size_t hint = 0;
    if (regular) {
        if ((uintmax_t)st.st_size > limit) {
            close(fd);
            return dl_source_fail(error, "file too large (%jd bytes, limit %zu)",
                                  (intmax_t)st.st_size, limit);
        }
        hint = (size_t)st.st_size;
    } else { /* a pipe or a device: reads block again, as they should once it is open */
        int flags = fcntl(fd, F_GETFL);
        if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
            int err = errno;
            close(fd);
            return dl_source_fail(error, "cannot read: %s", strerror(err));
        }
    }
    size_t len = 0;
    char *buf = dl_source_read_all(fd, hint, regular, limit, &len, error);
    close(fd);
    if (!buf) return false;
    return dl_source_adopt(src, path, buf, len, error);
}

bool dl_source_from_bytes(DlSource *src, const char *path, const char *bytes, size_t len,
                          size_t max_bytes, char **error) {
    memset(src, 0, sizeof *src);
    size_t limit = dl_source_limit(max_bytes);
    if (len > limit)
        return dl_source_fail(error, "file too large (%zu bytes, limit %zu)", len, limit);
    char *buf = dl_source_xmalloc(len + 1);
    if (len) memcpy(buf, bytes, len);
    return dl_source_adopt(src, path, buf, len, error);
}

void dl_source_free(DlSource *src) {
    free(src->path);
    free(src->text);
    free(src->original);
    free(src->line_starts);
    memset(src, 0, sizeof *src);
}

/* Index of the last line starting at or before `byte`. */
static size_t dl_source_line_index(const DlSource *src, size_t byte) {
    size_t lo = 0, hi = src->line_count; /* answer in [lo, hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (src->line_starts[mid] <= byte)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void dl_source_position(const DlSource *src, size_t byte, int *line, int *column) {
    *line = 1;
    *column = 1;
    if (!src->line_count) return;
    if (byte > src->len) byte = src->len;
    size_t index = dl_source_line_index(src, byte);
    size_t start = src->line_starts[index];
    if (index == 0 && dl_source_has_bom(src->text, src->len)) start = byte < 3 ? byte : 3;
    /* Back up to the first byte of the character the offset falls in. */
    while (byte > start && ((unsigned char)src->text[byte] & 0xC0) == 0x80)
        byte--;
    *line = index + 1 > INT_MAX ? INT_MAX : (int)(index + 1);
    int count = dl_utf8_count(src->text + start, byte - start);
    *column = count == INT_MAX ? INT_MAX : count + 1;
}

const char *dl_source_line(const DlSource *src, int line, size_t *length) {
    *length = 0;
    if (line < 1 || (size_t)line > src->line_count) return NULL;
    size_t index = (size_t)line - 1;
    size_t start = src->line_starts[index];
    size_t end = src->len;
    if (index + 1 < src->line_count) {
        end = src->line_starts[index + 1];
        if (end > start && src->text[end - 1] == '\n') end--;
        if (end > start && src->text[end - 1] == '\r') end--;
    }
    if (index == 0 && dl_source_has_bom(src->text, src->len)) start = 3;
    if (start > end) start = end; /* a BOM-only first line */
    *length = end - start;
    return src->text + start;
}

int dl_utf8_count(const char *s, size_t nbytes) {
    size_t count = 0;
    for (size_t i = 0; i < nbytes; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) count++;
    return count > INT_MAX ? INT_MAX : (int)count;
}

/* Length of the well-formed sequence at s[0..avail), or 0 when it is ill-formed. The bounds
 * on the second byte are Unicode's table 3-7: they exclude overlong forms (E0, F0),
 * surrogates (ED) and everything above U+10FFFF (F4); C0, C1 and F5..FF never lead. */
static size_t dl_utf8_sequence(const unsigned char *s, size_t avail) {
    unsigned char c = s[0], lo = 0x80, hi = 0xBF;
    size_t n;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
    if (avail < n || s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    return n;
}

bool dl_utf8_valid(const char *s, size_t len, size_t *bad_offset) {
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        /* source code is mostly ASCII: eight bytes at a time while no high bit is set */
        uint64_t word;
        while (i + 8 <= len && (memcpy(&word, u + i, 8), (word & 0x8080808080808080u) == 0)) i += 8;
        if (i >= len) break;
        if (u[i] < 0x80) {
            i++;
            continue;
        }
        size_t n = dl_utf8_sequence(u + i, len - i);
        if (!n) {
            if (bad_offset) *bad_offset = i;
            return false;
        }
        i += n;
    }
    return true;
}

bool dl_source_mentions(const DlSource *src, const char *needle) {
    return memmem(src->text, src->len, needle, strlen(needle)) != NULL;
}

bool dl_source_mentions_outside_comments(const DlSource *src, const char *needle) {
    size_t n = strlen(needle);
    const char *end = src->text + src->len;
    for (const char *p = src->text; (p = memmem(p, (size_t)(end - p), needle, n)); p += n) {
        const char *line = dl_source_line_start_of(src->text, p);
        if (!memchr(line, '#', (size_t)(p - line))) return true;
    }
    return false;
}

bool dl_text_declares_global(const char *text, const char *name) {
    size_t n = strlen(name);
    for (const char *p = strstr(text, "global "); p; p = strstr(p + 1, "global ")) {
        const char *line = p;
        while (line > text && (line[-1] == ' ' || line[-1] == '\t'))
            line--;
        if (line > text && line[-1] != '\n' && line[-1] != ';') continue; /* not a statement */
        for (const char *q = p + 7; *q && *q != '\n' && *q != '#' && *q != ';'; q++) {
            bool starts = q[-1] == ' ' || q[-1] == ',' || q[-1] == '\t';
            bool ends = !(isalnum((unsigned char)q[n]) || q[n] == '_');
            if (starts && strncmp(q, name, n) == 0 && ends) return true;
        }
    }
    return false;
}

bool dl_source_mentions_any_case(const DlSource *src, const char *needle) {
    size_t n = strlen(needle);
    if (n > src->len) return false;
    if (!n) return true;
    const char *last = src->text + (src->len - n); /* the last place it can start */
    char lower = (char)tolower((unsigned char)needle[0]);
    char upper = (char)toupper((unsigned char)needle[0]);
    /* memchr finds the candidates (once per case of the first letter): several times faster
     * than strcasestr, which folds the case of every byte */
    for (int pass = 0; pass < (lower == upper ? 1 : 2); pass++) {
        char first = pass ? upper : lower;
        for (const char *p = src->text; p <= last; p++) {
            p = memchr(p, first, (size_t)(last - p) + 1);
            if (!p) break;
            if (strncasecmp(p + 1, needle + 1, n - 1) == 0) return true;
        }
    }
    return false;
}
