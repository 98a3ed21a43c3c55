/* A source file in memory: its bytes, a line index, and byte <-> (line, column) conversion.
 * Lines and columns are 1-based; columns count Unicode code points, not bytes (the JSON report
 * and the text underline both use them). The text is always NUL-terminated. */
#ifndef DL_SOURCE_H
#define DL_SOURCE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct DlSource {
    char *path;            /* as given on the command line (owned) */
    char *text;            /* file bytes + NUL (owned); a leading UTF-8 BOM is kept */
    size_t len;            /* bytes, without the NUL */
    uint32_t *line_starts; /* byte offset of each line's first byte (owned) */
    size_t line_count;     /* >= 1; a text ending in a terminator has a last, empty line */
    char *original;        /* the file's bytes when some line ends with a lone \r (old Mac
                              files): `text` has \n there, as Python reads it, for the parser
                              and the text scans; NULL otherwise (owned) */
} DlSource;

/* A Jupyter notebook's code cells joined into one program (its path names the .ipynb file): a
 * top-level statement runs in its cell, run by hand, not one after another as a script's. */
static inline bool dl_source_is_notebook(const DlSource *src) {
    size_t n = src && src->path ? strlen(src->path) : 0;
    return n > 6 && strcmp(src->path + n - 6, ".ipynb") == 0;
}

/* The file's bytes as they are on disk, for writing fixes back. */
static inline const char *dl_source_bytes(const DlSource *src) {
    return src->original ? src->original : src->text;
}

/* Reads `path` into `src`. On failure returns false, leaves `src` zeroed (nothing to free) and
 * sets *error (when error is non-NULL) to a malloc'ed reason: "cannot read: No such file or
 * directory", "is a directory", "binary file (NUL byte at line 12)", "not valid UTF-8 (line 3,
 * column 7)", "file too large (60000000 bytes, limit 10485760)". `max_bytes` 0 means no limit
 * but the index's own: no file may reach 4 GiB. */
bool dl_source_load(DlSource *src, const char *path, size_t max_bytes, char **error);

/* Takes a copy of `bytes` (e.g. stdin); the same checks as dl_source_load. */
bool dl_source_from_bytes(DlSource *src, const char *path, const char *bytes, size_t len,
                          size_t max_bytes, char **error);

void dl_source_free(DlSource *src);

/* Byte offset -> 1-based line and code-point column. Offsets past the end clamp to the end;
 * an offset inside a character gets that character's column. A leading BOM takes no column. */
void dl_source_position(const DlSource *src, size_t byte, int *line, int *column);

/* The text of 1-based `line` without its line terminator (\n, \r\n or \r), and without the
 * BOM on line 1, so column c is the c-th character of it. NULL (length 0) when out of range. */
const char *dl_source_line(const DlSource *src, int line, size_t *length);

/* Number of code points in the first `nbytes` bytes of `s`. */
int dl_utf8_count(const char *s, size_t nbytes);

/* Validates UTF-8 strictly (no overlong forms, surrogates or code points above U+10FFFF); on
 * error returns false and sets *bad_offset to the first byte of the ill-formed sequence. */
bool dl_utf8_valid(const char *s, size_t len, size_t *bad_offset);

/* A byte of a Python name: an ASCII letter, digit or `_`, or any byte of a non-ASCII UTF-8
 * character (names may use them). */
static inline bool dl_source_name_byte(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (unsigned char)c >= 0x80;
}

/* The first byte of the line of `text` that `p` is on (lines end with \n: a lone \r is one by
 * the time the text is loaded). */
static inline const char *dl_source_line_start_of(const char *text, const char *p) {
    while (p > text && p[-1] != '\n')
        p--;
    return p;
}

/* Does the text contain `needle` anywhere (a cheap relevance scan before parsing)? */
bool dl_source_mentions(const DlSource *src, const char *needle);
/* The same, outside comments: a line that names it only after a `#` (`#torch.cuda.set_device(1)`,
 * code commented out) says nothing of what runs. Roughly: a `#` inside a string before it on its
 * line is taken for a comment too. */
bool dl_source_mentions_outside_comments(const DlSource *src, const char *needle);
/* The same, in any case ("noqa" finds `# NOQA`): an ASCII needle. */
bool dl_source_mentions_any_case(const DlSource *src, const char *needle);
/* Does `text` (NUL-terminated) declare `name` in a `global` statement, as any of its names
 * (`global step, USE_GPU`)? A text test: a function's text, or a whole file's for "some
 * function may rebind this module-level name". */
bool dl_text_declares_global(const char *text, const char *name);

#endif
