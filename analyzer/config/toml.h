/* A small TOML reader over the tree-sitter TOML grammar: turns a document into a tree of
 * DlTomlValue that remembers the line of every key and value, for config error messages.
 *
 * Representation. The document is a TABLE. A table keeps its entries as a singly linked list
 * in the order the keys first appear (configs are small, so lookups are linear). Dotted keys
 * and [a.b] headers become nested tables, [[a.b]] an ARRAY of TABLEs. Strings are decoded
 * (escapes, line-ending backslashes, the newline after an opening triple quote); FLOAT and
 * DATETIME values keep their source text in `string`, since nothing in devlint reads them.
 * Everything lives in the document's arena and is freed by dl_toml_free.
 *
 * Errors. The grammar's ERROR/MISSING nodes give "syntax error"; TOML's own rules give
 * "duplicate key `a.b`" (a key or [table] defined twice) and "cannot redefine `a.b`" (a value,
 * inline table or [table] extended by a later header or dotted key); values give "integer out
 * of range" and "invalid unicode escape"; "values nested more than 128 deep" is refused before
 * parsing (tree-sitter 0.20 crashes on ~65536 unclosed brackets). The grammar rejects
 * whitespace between a line-ending backslash and the line break, and accepts dates such as
 * February 30: both are harmless for a config file. */
#ifndef DL_TOML_H
#define DL_TOML_H
#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"

typedef enum {
    DL_TOML_STRING,
    DL_TOML_INTEGER,
    DL_TOML_FLOAT,
    DL_TOML_BOOLEAN,
    DL_TOML_DATETIME,
    DL_TOML_ARRAY,
    DL_TOML_TABLE,
} DlTomlKind;

typedef struct DlTomlValue DlTomlValue;

typedef struct DlTomlEntry {
    const char *key; /* one key segment, decoded ("per-file-ignores", "DL201") */
    int line;        /* 1-based line of the key where the entry was first defined */
    DlTomlValue *value;
    struct DlTomlEntry *next;
} DlTomlEntry;

struct DlTomlValue {
    DlTomlKind kind;
    int line; /* 1-based line where the value (or the table's header) starts */
    /* STRING: decoded text, NUL-terminated (string_len counts an embedded \u0000);
     * FLOAT, DATETIME: the source text. */
    const char *string;
    size_t string_len;
    long long integer;   /* INTEGER */
    bool boolean;        /* BOOLEAN */
    DlTomlValue **items; /* ARRAY */
    size_t item_count, item_cap;
    DlTomlEntry *entries, *last_entry; /* TABLE, in source order */
    size_t entry_count;
    unsigned flags; /* how a table or array was defined; private to toml.c */
};

typedef struct DlTomlDoc {
    DlArena arena;
    DlTomlValue *root; /* a TABLE */
} DlTomlDoc;

typedef struct DlTomlError {
    int line;          /* 1-based */
    char reason[160];  /* "syntax error", "duplicate key `tool.devlint.select`" */
    char message[192]; /* reason + " at line N" */
} DlTomlError;

/* Parses `len` bytes of TOML (a leading UTF-8 BOM is skipped). On failure returns false, fills
 * *err and leaves `doc` empty; either way dl_toml_free releases it. */
bool dl_toml_parse(const char *text, size_t len, DlTomlDoc *doc, DlTomlError *err);
void dl_toml_free(DlTomlDoc *doc);

/* The entry for `key` in a TABLE (NULL if absent or `table` is not a table). */
const DlTomlEntry *dl_toml_entry(const DlTomlValue *table, const char *key);
/* Its value, or NULL. */
const DlTomlValue *dl_toml_get(const DlTomlValue *table, const char *key);

/* "string", "integer", "float", "boolean", "datetime", "array", "table". */
const char *dl_toml_kind_name(DlTomlKind kind);

#endif
