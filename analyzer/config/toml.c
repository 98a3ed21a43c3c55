/* TOML reader: parses with the tree-sitter TOML grammar and builds the DlTomlValue tree of
 * toml.h, enforcing the TOML rules the grammar cannot see (keys and tables defined once). */
#include "config/toml.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_toml(void);

enum {
    DL_TOML_MAX_KEY_PARTS = 64, /* a.b.c... longer keys are refused */
    DL_TOML_MAX_DEPTH = 128,    /* nested arrays / inline tables */
};

/* Table and array flags (DlTomlValue.flags): how the value came to exist decides whether a
 * later header or dotted key may add to it. */
enum {
    F_IMPLICIT = 1u << 0, /* table made on the way to a deeper [a.b.c] header */
    F_HEADER = 1u << 1,   /* table defined by its own [header] or [[header]] */
    F_DOTTED = 1u << 2,   /* table made by a dotted key (a.b = 1) */
    F_INLINE = 1u << 3,   /* inline table: closed once written */
    F_TABLES = 1u << 4,   /* array made by [[header]]: more elements may follow */
};

typedef struct Reader {
    const char *text;
    DlArena *arena;
    DlTomlError *err;
    bool failed;
    int depth;
} Reader;

typedef struct KeyPath {
    const char *part[DL_TOML_MAX_KEY_PARTS];
    int line[DL_TOML_MAX_KEY_PARTS];
    int count;
} KeyPath;

static bool fail(Reader *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool fail(Reader *r, int line, const char *fmt, ...) {
    if (r->failed) return false; /* keep the first error */
    r->failed = true;
    r->err->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err->reason, sizeof r->err->reason, fmt, ap);
    va_end(ap);
    snprintf(r->err->message, sizeof r->err->message, "%s at line %d", r->err->reason, line);
    return false;
}

static int line_of(TSNode n) {
    return (int)ts_node_start_point(n).row + 1;
}

static bool is(TSNode n, const char *type) {
    return strcmp(ts_node_type(n), type) == 0;
}

static bool is_key(TSNode n) {
    return is(n, "bare_key") || is(n, "quoted_key") || is(n, "dotted_key");
}

/* The key parts joined with '.', up to and including part `upto`, for messages. */
static const char *key_text(Reader *r, const KeyPath *k, int upto) {
    char buf[sizeof r->err->reason];
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i <= upto && used < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? "." : "", k->part[i]);
    return dl_arena_strdup(r->arena, buf);
}

/* ---------------------------------------------------------------- the tree */

static DlTomlValue *new_value(Reader *r, DlTomlKind kind, int line) {
    DlTomlValue *v = dl_arena_alloc(r->arena, sizeof *v);
    v->kind = kind;
    v->line = line;
    return v;
}

static DlTomlEntry *table_find(const DlTomlValue *t, const char *key) {
    for (DlTomlEntry *e = t->entries; e; e = e->next)
        if (strcmp(e->key, key) == 0) return e;
    return NULL;
}

static DlTomlEntry *table_add(Reader *r, DlTomlValue *t, const char *key, int line,
                              DlTomlValue *v) {
    DlTomlEntry *e = dl_arena_alloc(r->arena, sizeof *e);
    e->key = key;
    e->line = line;
    e->value = v;
    if (t->last_entry)
        t->last_entry->next = e;
    else
        t->entries = e;
    t->last_entry = e;
    t->entry_count++;
    return e;
}

static void array_push(Reader *r, DlTomlValue *a, DlTomlValue *v) {
    if (a->item_count == a->item_cap) {
        size_t cap = a->item_cap ? a->item_cap * 2 : 4;
        DlTomlValue **items = dl_arena_alloc(r->arena, cap * sizeof *items);
        if (a->item_count) memcpy(items, a->items, a->item_count * sizeof *items);
        a->items = items;
        a->item_cap = cap;
    }
    a->items[a->item_count++] = v;
}

/* ---------------------------------------------------------------- strings and keys */

static void put_utf8(char **out, uint32_t c) {
    unsigned char *o = (unsigned char *)*out;
    if (c < 0x80) {
        *o++ = (unsigned char)c;
    } else if (c < 0x800) {
        *o++ = (unsigned char)(0xC0 | (c >> 6));
        *o++ = (unsigned char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        *o++ = (unsigned char)(0xE0 | (c >> 12));
        *o++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (unsigned char)(0x80 | (c & 0x3F));
    } else {
        *o++ = (unsigned char)(0xF0 | (c >> 18));
        *o++ = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
        *o++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (unsigned char)(0x80 | (c & 0x3F));
    }
    *out = (char *)o;
}

static bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Decodes the escapes of a basic string body (the grammar has checked their shape). A
 * backslash at the end of a line (multi-line strings) drops the line break and the blanks
 * after it. The result is never longer than the source. */
static bool unescape(Reader *r, int line, const char *s, size_t n, char *out, size_t *out_len) {
    char *o = out;
    for (size_t i = 0; i < n;) {
        if (s[i] != '\\') {
            *o++ = s[i++];
            continue;
        }
        if (i + 1 >= n) return fail(r, line, "syntax error");
        char c = s[i + 1];
        i += 2;
        switch (c) {
        case 'b':
            *o++ = '\b';
            break;
        case 't':
            *o++ = '\t';
            break;
        case 'n':
            *o++ = '\n';
            break;
        case 'f':
            *o++ = '\f';
            break;
        case 'r':
            *o++ = '\r';
            break;
        case '"':
            *o++ = '"';
            break;
        case '\\':
            *o++ = '\\';
            break;
        case '\r':
        case '\n':
            while (i < n && is_blank(s[i]))
                i++;
            break;
        case 'u':
        case 'U': {
            size_t digits = c == 'u' ? 4 : 8;
            if (i + digits > n) return fail(r, line, "syntax error");
            uint32_t cp = 0;
            for (size_t k = 0; k < digits; k++) {
                char h = s[i + k];
                uint32_t d = h >= '0' && h <= '9'   ? (uint32_t)(h - '0')
                             : h >= 'a' && h <= 'f' ? (uint32_t)(h - 'a' + 10)
                             : h >= 'A' && h <= 'F' ? (uint32_t)(h - 'A' + 10)
                                                    : 16;
                if (d == 16) return fail(r, line, "syntax error");
                cp = cp * 16 + d;
            }
            i += digits;
            if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                return fail(r, line, "invalid unicode escape");
            put_utf8(&o, cp);
            break;
        }
        default:
            return fail(r, line, "syntax error");
        }
    }
    *o = '\0';
    *out_len = (size_t)(o - out);
    return true;
}

/* A `string` or `quoted_key` node: the delimiter is its first child ( " ' """ ''' ). */
static bool decode_string(Reader *r, TSNode n, const char **out, size_t *out_len) {
    if (ts_node_child_count(n) == 0) return fail(r, line_of(n), "syntax error");
    const char *delim = ts_node_type(ts_node_child(n, 0));
    size_t dlen = strlen(delim);
    uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
    if (end - start < 2 * dlen) return fail(r, line_of(n), "syntax error");
    const char *s = r->text + start + dlen;
    size_t len = end - start - 2 * dlen;
    if (dlen == 3) { /* a line break right after the opening quotes is not content */
        if (len >= 1 && s[0] == '\n') {
            s++, len--;
        } else if (len >= 2 && s[0] == '\r' && s[1] == '\n') {
            s += 2, len -= 2;
        }
    }
    char *buf = dl_arena_alloc(r->arena, len + 1);
    if (delim[0] == '\'') {
        memcpy(buf, s, len);
        *out = buf;
        *out_len = len;
        return true;
    }
    if (!unescape(r, line_of(n), s, len, buf, out_len)) return false;
    *out = buf;
    return true;
}

static bool collect_key(Reader *r, TSNode n, KeyPath *k) {
    if (is(n, "dotted_key")) {
        uint32_t count = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < count; i++)
            if (!collect_key(r, ts_node_named_child(n, i), k)) return false;
        return true;
    }
    if (k->count == DL_TOML_MAX_KEY_PARTS)
        return fail(r, line_of(n), "key has more than %d parts", DL_TOML_MAX_KEY_PARTS);
    const char *part;
    if (is(n, "bare_key")) {
        part = dl_arena_strndup(r->arena, r->text + ts_node_start_byte(n),
                                ts_node_end_byte(n) - ts_node_start_byte(n));
    } else if (is(n, "quoted_key")) {
        size_t len;
        if (!decode_string(r, n, &part, &len)) return false;
    } else {
        return fail(r, line_of(n), "syntax error");
    }
    k->part[k->count] = part;
    k->line[k->count] = line_of(n);
    k->count++;
    return true;
}

/* ---------------------------------------------------------------- values */

static bool read_integer(Reader *r, TSNode n, DlTomlValue *v) {
    uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
    char buf[128];
    size_t len = 0;
    for (uint32_t i = start; i < end && len + 1 < sizeof buf; i++)
        if (r->text[i] != '_') buf[len++] = r->text[i];
    buf[len] = '\0';
    int base = 10;
    const char *digits = buf;
    if (len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'o' || buf[1] == 'b')) {
        base = buf[1] == 'x' ? 16 : buf[1] == 'o' ? 8 : 2;
        digits = buf + 2;
    }
    errno = 0;
    char *rest;
    long long value = strtoll(digits, &rest, base);
    if (errno == ERANGE) return fail(r, line_of(n), "integer out of range");
    if (*rest != '\0' || rest == digits) return fail(r, line_of(n), "syntax error");
    v->integer = value;
    return true;
}

static bool add_pair(Reader *r, DlTomlValue *table, TSNode pair);

static DlTomlValue *read_value(Reader *r, TSNode n) {
    int line = line_of(n);
    if (is(n, "string")) {
        DlTomlValue *v = new_value(r, DL_TOML_STRING, line);
        return decode_string(r, n, &v->string, &v->string_len) ? v : NULL;
    }
    if (is(n, "integer")) {
        DlTomlValue *v = new_value(r, DL_TOML_INTEGER, line);
        return read_integer(r, n, v) ? v : NULL;
    }
    if (is(n, "boolean")) {
        DlTomlValue *v = new_value(r, DL_TOML_BOOLEAN, line);
        v->boolean = r->text[ts_node_start_byte(n)] == 't';
        return v;
    }
    bool is_float = is(n, "float");
    if (is_float || is(n, "offset_date_time") || is(n, "local_date_time") || is(n, "local_date") ||
        is(n, "local_time")) {
        DlTomlValue *v = new_value(r, is_float ? DL_TOML_FLOAT : DL_TOML_DATETIME, line);
        v->string_len = ts_node_end_byte(n) - ts_node_start_byte(n);
        v->string = dl_arena_strndup(r->arena, r->text + ts_node_start_byte(n), v->string_len);
        return v;
    }
    bool is_array = is(n, "array");
    if (!is_array && !is(n, "inline_table")) {
        fail(r, line, "syntax error");
        return NULL;
    }
    if (r->depth >= DL_TOML_MAX_DEPTH) {
        fail(r, line, "values nested more than %d deep", DL_TOML_MAX_DEPTH);
        return NULL;
    }
    r->depth++;
    DlTomlValue *v = new_value(r, is_array ? DL_TOML_ARRAY : DL_TOML_TABLE, line);
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count && !r->failed; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (is(c, "comment")) continue;
        if (is_array) {
            DlTomlValue *item = read_value(r, c);
            if (item) array_push(r, v, item);
        } else {
            add_pair(r, v, c);
        }
    }
    r->depth--;
    v->flags = is_array ? 0 : F_INLINE;
    return r->failed ? NULL : v;
}

/* ---------------------------------------------------------------- keys into tables */

/* `a.b.c = value` inside `table`: a and b may be new tables or tables made the same way. */
static bool add_pair(Reader *r, DlTomlValue *table, TSNode pair) {
    if (!is(pair, "pair")) return fail(r, line_of(pair), "syntax error");
    TSNode parts[2]; /* key, value; a trailing comment is a child of the pair too */
    uint32_t found = 0, count = ts_node_named_child_count(pair);
    for (uint32_t i = 0; i < count && found < 2; i++) {
        TSNode c = ts_node_named_child(pair, i);
        if (!is(c, "comment")) parts[found++] = c;
    }
    if (found < 2) return fail(r, line_of(pair), "syntax error");
    KeyPath k = {0};
    if (!collect_key(r, parts[0], &k)) return false;
    DlTomlValue *t = table;
    for (int i = 0; i < k.count - 1; i++) {
        DlTomlEntry *e = table_find(t, k.part[i]);
        if (!e) {
            DlTomlValue *sub = new_value(r, DL_TOML_TABLE, k.line[i]);
            sub->flags = F_DOTTED;
            table_add(r, t, k.part[i], k.line[i], sub);
            t = sub;
        } else if (e->value->kind == DL_TOML_TABLE && e->value->flags == F_DOTTED) {
            t = e->value;
        } else {
            return fail(r, k.line[i], "cannot redefine `%s`", key_text(r, &k, i));
        }
    }
    const char *last = k.part[k.count - 1];
    if (table_find(t, last))
        return fail(r, k.line[k.count - 1], "duplicate key `%s`", key_text(r, &k, k.count - 1));
    DlTomlValue *v = read_value(r, parts[1]);
    if (!v) return false;
    table_add(r, t, last, k.line[k.count - 1], v);
    return true;
}

/* The table a [a.b.c] or [[a.b.c]] header opens, made or found from the root. */
static DlTomlValue *open_table(Reader *r, DlTomlValue *root, TSNode key, bool array) {
    KeyPath k = {0};
    if (!collect_key(r, key, &k)) return NULL;
    DlTomlValue *t = root;
    for (int i = 0; i < k.count - 1; i++) {
        DlTomlEntry *e = table_find(t, k.part[i]);
        if (!e) {
            DlTomlValue *sub = new_value(r, DL_TOML_TABLE, k.line[i]);
            sub->flags = F_IMPLICIT;
            table_add(r, t, k.part[i], k.line[i], sub);
            t = sub;
        } else if (e->value->kind == DL_TOML_TABLE && !(e->value->flags & F_INLINE)) {
            t = e->value;
        } else if (e->value->kind == DL_TOML_ARRAY && (e->value->flags & F_TABLES)) {
            t = e->value->items[e->value->item_count - 1];
        } else {
            fail(r, k.line[i], "cannot redefine `%s`", key_text(r, &k, i));
            return NULL;
        }
    }
    int line = k.line[k.count - 1];
    const char *last = k.part[k.count - 1];
    DlTomlEntry *e = table_find(t, last);
    DlTomlValue *fresh = new_value(r, DL_TOML_TABLE, line);
    fresh->flags = F_HEADER;
    if (array) {
        DlTomlValue *list = e ? e->value : NULL;
        if (!list) {
            list = new_value(r, DL_TOML_ARRAY, line);
            list->flags = F_TABLES;
            table_add(r, t, last, line, list);
        } else if (list->kind != DL_TOML_ARRAY || !(list->flags & F_TABLES)) {
            fail(r, line, "cannot redefine `%s`", key_text(r, &k, k.count - 1));
            return NULL;
        }
        array_push(r, list, fresh);
        return fresh;
    }
    if (!e) {
        table_add(r, t, last, line, fresh);
        return fresh;
    }
    if (e->value->kind == DL_TOML_TABLE && e->value->flags == F_IMPLICIT) {
        e->value->flags |= F_HEADER;
        e->value->line = line;
        e->line = line;
        return e->value;
    }
    if (e->value->kind == DL_TOML_TABLE && (e->value->flags & F_HEADER))
        fail(r, line, "duplicate key `%s`", key_text(r, &k, k.count - 1));
    else
        fail(r, line, "cannot redefine `%s`", key_text(r, &k, k.count - 1));
    return NULL;
}

static bool read_section(Reader *r, DlTomlValue *root, TSNode section, bool array) {
    uint32_t count = ts_node_named_child_count(section);
    DlTomlValue *table = NULL;
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(section, i);
        if (is(c, "comment")) continue;
        if (!table) {
            if (!is_key(c)) return fail(r, line_of(c), "syntax error");
            table = open_table(r, root, c, array);
            if (!table) return false;
            continue;
        }
        if (!add_pair(r, table, c)) return false;
    }
    return table ? true : fail(r, line_of(section), "syntax error");
}

/* ---------------------------------------------------------------- the document */

/* Where the text after the string opening at s[i] resumes: past the closing delimiter, or at the
 * end of the line for an unclosed one-line string. `*lines` counts the newlines skipped. */
static size_t skip_string(const char *s, size_t i, size_t len, int *lines) {
    char q = s[i];
    bool triple = i + 2 < len && s[i + 1] == q && s[i + 2] == q;
    i += triple ? 3 : 1;
    while (i < len) {
        if (q == '"' && s[i] == '\\' && i + 1 < len) {
            if (s[i + 1] == '\n') ++*lines;
            i += 2;
            continue;
        }
        if (s[i] == '\n') {
            if (!triple) return i;
            ++*lines;
        }
        if (s[i] == q && (!triple || (i + 2 < len && s[i + 1] == q && s[i + 2] == q)))
            return i + (triple ? 3 : 1);
        i++;
    }
    return i;
}

/* Brackets nested tens of thousands deep crash tree-sitter 0.20's tree deletion, so deep
 * nesting is refused before parsing, by a scan that skips comments and strings. */
static bool check_nesting(Reader *r, size_t len) {
    const char *s = r->text;
    int depth = 0, line = 1;
    for (size_t i = 0; i < len;) {
        char c = s[i];
        if (c == '#') {
            while (i < len && s[i] != '\n')
                i++;
        } else if (c == '"' || c == '\'') {
            i = skip_string(s, i, len, &line);
        } else {
            if (c == '\n') line++;
            if (c == '[' || c == '{') {
                /* a [[header]] opens two; values may nest DL_TOML_MAX_DEPTH inside a header */
                if (++depth > DL_TOML_MAX_DEPTH + 2)
                    return fail(r, line, "values nested more than %d deep", DL_TOML_MAX_DEPTH);
            } else if ((c == ']' || c == '}') && depth > 0) {
                depth--;
            }
            i++;
        }
    }
    return true;
}

/* The first ERROR or MISSING node in document order. */
static TSNode first_error(TSNode n) {
    if (is(n, "ERROR") || ts_node_is_missing(n)) return n;
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_child(n, i);
        if (ts_node_has_error(c)) return first_error(c);
    }
    return n;
}

static bool read_document(Reader *r, TSNode doc, DlTomlValue *root) {
    if (ts_node_has_error(doc)) return fail(r, line_of(first_error(doc)), "syntax error");
    uint32_t count = ts_node_named_child_count(doc);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(doc, i);
        bool ok = true;
        if (is(c, "pair"))
            ok = add_pair(r, root, c);
        else if (is(c, "table"))
            ok = read_section(r, root, c, false);
        else if (is(c, "table_array_element"))
            ok = read_section(r, root, c, true);
        else if (!is(c, "comment"))
            ok = fail(r, line_of(c), "syntax error");
        if (!ok) return false;
    }
    return true;
}

bool dl_toml_parse(const char *text, size_t len, DlTomlDoc *doc, DlTomlError *err) {
    dl_arena_init(&doc->arena);
    doc->root = NULL;
    memset(err, 0, sizeof *err);
    Reader r = {.text = text, .arena = &doc->arena, .err = err};
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        r.text += 3; /* lines are unchanged; byte offsets are relative to r.text */
        len -= 3;
    }
    if (len > UINT32_MAX / 2) return fail(&r, 1, "file too large");
    if (!check_nesting(&r, len)) return false;
    TSParser *parser = ts_parser_new();
    if (!parser || !ts_parser_set_language(parser, tree_sitter_toml())) {
        if (parser) ts_parser_delete(parser);
        return fail(&r, 1, "the TOML grammar cannot be loaded");
    }
    TSTree *tree = ts_parser_parse_string(parser, NULL, r.text, (uint32_t)len);
    DlTomlValue *root = new_value(&r, DL_TOML_TABLE, 1);
    root->flags = F_HEADER;
    bool ok = tree && read_document(&r, ts_tree_root_node(tree), root);
    if (!tree) fail(&r, 1, "syntax error");
    if (tree) ts_tree_delete(tree);
    ts_parser_delete(parser);
    if (!ok) {
        dl_arena_release(&doc->arena);
        dl_arena_init(&doc->arena);
        return false;
    }
    doc->root = root;
    return true;
}

void dl_toml_free(DlTomlDoc *doc) {
    dl_arena_release(&doc->arena);
    doc->root = NULL;
}

const DlTomlEntry *dl_toml_entry(const DlTomlValue *table, const char *key) {
    if (!table || table->kind != DL_TOML_TABLE) return NULL;
    return table_find(table, key);
}

const DlTomlValue *dl_toml_get(const DlTomlValue *table, const char *key) {
    const DlTomlEntry *e = dl_toml_entry(table, key);
    return e ? e->value : NULL;
}

const char *dl_toml_kind_name(DlTomlKind kind) {
    switch (kind) {
    case DL_TOML_STRING:
        return "string";
    case DL_TOML_INTEGER:
        return "integer";
    case DL_TOML_FLOAT:
        return "float";
    case DL_TOML_BOOLEAN:
        return "boolean";
    case DL_TOML_DATETIME:
        return "datetime";
    case DL_TOML_ARRAY:
        return "array";
    case DL_TOML_TABLE:
        return "table";
    }
    return "value";
}
