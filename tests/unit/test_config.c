/* Unit tests for config/: the TOML reader, loading [tool.devlint] and devlint.toml (every key,
 * every error message), and finding the nearest config file. */
#define _GNU_SOURCE /* nftw, for removing the temporary trees */
#include "config/config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/toml.h"
#include "temp_dirs.h"

TestSuite(toml);
TestSuite(config_load, .fini = remove_temp_dirs);
TestSuite(config_find, .fini = remove_temp_dirs);

/* ---------------------------------------------------------------- helpers */

static char *join(const char *dir, const char *name) {
    char *path = malloc(strlen(dir) + strlen(name) + 2);
    cr_assert_not_null(path);
    sprintf(path, "%s/%s", dir, name);
    return path;
}

static void make_dir(const char *dir, const char *name) {
    char *path = join(dir, name);
    cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s", path);
    free(path);
}

static char *write_file(const char *dir, const char *name, const char *text) {
    char *path = join(dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "create %s", path);
    fputs(text, f);
    fclose(f);
    return path;
}

/* The test's own directory for the files it loads (each test runs in its own process). */
static const char *load_dir(void) {
    static const char *dir;
    if (!dir) dir = make_temp_dir("dl_config");
    return dir;
}

/* Loads `text` written as `name` in the test's directory; returns the path (caller frees). */
static char *load_text(const char *name, const char *text, DlConfig *out, bool *found, char **error,
                       bool *ok) {
    char *path = write_file(load_dir(), name, text);
    *ok = dl_config_load(path, out, found, error);
    return path;
}

/* `text` as `name` must fail with exactly "PATH" + `suffix`. */
static void expect_error(const char *name, const char *text, const char *suffix) {
    DlConfig c;
    bool found = true, ok;
    char *error = NULL;
    char *path = load_text(name, text, &c, &found, &error, &ok);
    cr_assert_not(ok, "expected an error for:\n%s", text);
    cr_assert_not(found);
    cr_assert_null(c.path);
    cr_assert_eq(c.select_count, 0);
    cr_assert_not_null(error);
    char want[512];
    snprintf(want, sizeof want, "%s%s", path, suffix);
    cr_assert_str_eq(error, want);
    free(error);
    free(path);
}

static void assert_strings(char **items, int *lines, size_t count, const char *const *want,
                           const int *want_lines, size_t want_count) {
    cr_assert_eq(count, want_count, "count %zu, want %zu", count, want_count);
    for (size_t i = 0; i < count; i++) {
        cr_assert_str_eq(items[i], want[i]);
        cr_assert_eq(lines[i], want_lines[i], "%s on line %d, want %d", items[i], lines[i],
                     want_lines[i]);
    }
}

#define STRINGS(...)                                                                               \
    (const char *const[]) {                                                                        \
        __VA_ARGS__                                                                                \
    }
#define LINES(...)                                                                                 \
    (const int[]) {                                                                                \
        __VA_ARGS__                                                                                \
    }

/* ---------------------------------------------------------------- the TOML reader */

static DlTomlDoc parse_ok(const char *text) {
    DlTomlDoc doc;
    DlTomlError err;
    bool ok = dl_toml_parse(text, strlen(text), &doc, &err);
    cr_assert(ok, "parse failed: %s", err.message);
    return doc;
}

static void parse_fails(const char *text, const char *message) {
    DlTomlDoc doc;
    DlTomlError err;
    cr_assert_not(dl_toml_parse(text, strlen(text), &doc, &err), "parsed:\n%s", text);
    cr_assert_null(doc.root);
    cr_assert_str_eq(err.message, message);
    dl_toml_free(&doc);
}

Test(toml, scalars_strings_and_lines) {
    DlTomlDoc doc = parse_ok("# comment\n"
                             "basic = \"a\\tb\\\"c\\\\d\\u00e9\\U0001F600\" # trailing\n"
                             "literal = 'C:\\path\\*'\n"
                             "multi = \"\"\"\nfirst \\\n   second\"\"\"\n"
                             "raw = '''\nno \\n escapes'''\n"
                             "n = -1_000\n"
                             "hex = 0xff\n"
                             "yes = true\n"
                             "pi = 3.14\n"
                             "when = 1979-05-27\n");
    const DlTomlValue *v = dl_toml_get(doc.root, "basic");
    cr_assert_eq(v->kind, DL_TOML_STRING);
    cr_assert_str_eq(v->string, "a\tb\"c\\d\xc3\xa9\xf0\x9f\x98\x80");
    cr_assert_eq(v->line, 2);
    cr_assert_str_eq(dl_toml_get(doc.root, "literal")->string, "C:\\path\\*");
    cr_assert_str_eq(dl_toml_get(doc.root, "multi")->string, "first second");
    cr_assert_str_eq(dl_toml_get(doc.root, "raw")->string, "no \\n escapes");
    cr_assert_eq(dl_toml_get(doc.root, "n")->integer, -1000);
    cr_assert_eq(dl_toml_get(doc.root, "hex")->integer, 255);
    cr_assert_eq(dl_toml_get(doc.root, "yes")->kind, DL_TOML_BOOLEAN);
    cr_assert(dl_toml_get(doc.root, "yes")->boolean);
    cr_assert_eq(dl_toml_get(doc.root, "pi")->kind, DL_TOML_FLOAT);
    cr_assert_str_eq(dl_toml_get(doc.root, "pi")->string, "3.14");
    cr_assert_eq(dl_toml_get(doc.root, "when")->kind, DL_TOML_DATETIME);
    const DlTomlEntry *e = dl_toml_entry(doc.root, "raw");
    cr_assert_eq(e->line, 7);
    cr_assert_null(dl_toml_get(doc.root, "missing"));
    dl_toml_free(&doc);
}

Test(toml, tables_dotted_keys_and_arrays_of_tables) {
    DlTomlDoc doc = parse_ok("top.inner = 1\n"
                             "[a.b]\n"
                             "x = [1, [2, 3], {y = \"z\"}]\n"
                             "[a]\n"
                             "c.d = 'e'\n"
                             "[[list]]\n"
                             "k = 1\n"
                             "[[list]]\n"
                             "k = 2\n");
    cr_assert_eq(dl_toml_get(dl_toml_get(doc.root, "top"), "inner")->integer, 1);
    const DlTomlValue *a = dl_toml_get(doc.root, "a");
    cr_assert_eq(a->kind, DL_TOML_TABLE);
    cr_assert_eq(a->entry_count, 2);
    cr_assert_eq(dl_toml_entry(doc.root, "a")->line, 4); /* where [a] is defined */
    const DlTomlValue *x = dl_toml_get(dl_toml_get(a, "b"), "x");
    cr_assert_eq(x->item_count, 3);
    cr_assert_eq(x->items[1]->kind, DL_TOML_ARRAY);
    cr_assert_eq(x->items[1]->items[1]->integer, 3);
    cr_assert_str_eq(dl_toml_get(x->items[2], "y")->string, "z");
    cr_assert_str_eq(dl_toml_get(dl_toml_get(a, "c"), "d")->string, "e");
    const DlTomlValue *list = dl_toml_get(doc.root, "list");
    cr_assert_eq(list->kind, DL_TOML_ARRAY);
    cr_assert_eq(list->item_count, 2);
    cr_assert_eq(dl_toml_get(list->items[1], "k")->integer, 2);
    cr_assert_eq(list->items[1]->line, 8);
    dl_toml_free(&doc);
}

Test(toml, errors) {
    parse_fails("a = 1\n\nb = [1,\n2,,]\n", "syntax error at line 4");
    parse_fails("x =\n", "syntax error at line 1");
    parse_fails("a = 1 b = 2\n", "syntax error at line 1");
    parse_fails("ok = 1\ns = \"unterminated\n", "syntax error at line 2");
    parse_fails("s = \"\\q\"\n", "syntax error at line 1");
    parse_fails("a = 1\na = 2\n", "duplicate key `a` at line 2");
    parse_fails("[t]\nx.y = 1\n[t]\n", "duplicate key `t` at line 3");
    parse_fails("a = {x = 1}\na.y = 2\n", "cannot redefine `a` at line 2");
    parse_fails("a = 1\n[a.b]\n", "cannot redefine `a` at line 2");
    parse_fails("s = \"\\uD800\"\n", "invalid unicode escape at line 1");
    parse_fails("n = 99999999999999999999\n", "integer out of range at line 1");
}

/* tree-sitter 0.20 crashes freeing trees of ~65536 unclosed brackets: refused before parsing. */
Test(toml, deep_nesting_is_refused_before_parsing) {
    const char head[] = "ok = 1\na = ";
    size_t n = 70000;
    char *text = malloc(sizeof head + n);
    cr_assert_not_null(text);
    memcpy(text, head, sizeof head - 1);
    memset(text + sizeof head - 1, '[', n);
    text[sizeof head - 1 + n] = '\0';
    parse_fails(text, "values nested more than 128 deep at line 2");
    free(text);

    /* brackets in strings and comments do not count */
    char open[201];
    memset(open, '[', 200);
    open[200] = '\0';
    char quoted[1024];
    snprintf(quoted, sizeof quoted, "s = \"%s\"\n# %s\nt = '''\n%s'''\nu = 'x\\'\n", open, open,
             open);
    DlTomlDoc doc = parse_ok(quoted);
    cr_assert_eq(strlen(dl_toml_get(doc.root, "s")->string), 200);
    cr_assert_eq(dl_toml_get(doc.root, "t")->line, 3);
    cr_assert_str_eq(dl_toml_get(doc.root, "u")->string, "x\\");
    dl_toml_free(&doc);
}

/* ---------------------------------------------------------------- loading */

static const char PYPROJECT_ALL[] = "[project]\n"                            /* 1 */
                                    "name = \"demo\"\n"                      /* 2 */
                                    "\n"                                     /* 3 */
                                    "[tool.ruff]\n"                          /* 4 */
                                    "line-length = 100\n"                    /* 5 */
                                    "\n"                                     /* 6 */
                                    "[tool.devlint]\n"                       /* 7 */
                                    "select = [\"DL1\", \"DL201\"]\n"        /* 8 */
                                    "ignore = [\n"                           /* 9 */
                                    "  \"DL103\",  # why\n"                  /* 10 */
                                    "  'DL104',\n"                           /* 11 */
                                    "]\n"                                    /* 12 */
                                    "extend-select = [\"DL3\"]\n"            /* 13 */
                                    "exclude = [\"build\", \"gen/**\"]\n"    /* 14 */
                                    "extend-exclude = [\"legacy\"]\n"        /* 15 */
                                    "device-names = [\"dev\", \"accel\"]\n"  /* 16 */
                                    "severity = { DL201 = \"warning\" }\n"   /* 17 */
                                    "\n"                                     /* 18 */
                                    "[tool.devlint.per-file-ignores]\n"      /* 19 */
                                    "\"tests/*\" = [\"DL201\", \"DL202\"]\n" /* 20 */
                                    "\"**/conftest.py\" = [\"DL1\"]\n"       /* 21 */
                                    "\n"                                     /* 22 */
                                    "[tool.mypy]\n"                          /* 23 */
                                    "strict = true\n";                       /* 24 */

Test(config_load, pyproject_with_every_key) {
    DlConfig c;
    bool found = false, ok;
    char *error = NULL;
    char *path = load_text("pyproject.toml", PYPROJECT_ALL, &c, &found, &error, &ok);
    cr_assert(ok, "%s", error);
    cr_assert(found);
    cr_assert_null(error);
    cr_assert_str_eq(c.path, path);
    char *dir = strdup(path);
    *strrchr(dir, '/') = '\0';
    cr_assert_str_eq(c.directory, dir);
    cr_assert(c.has_select);
    assert_strings(c.select, c.select_lines, c.select_count, STRINGS("DL1", "DL201"), LINES(8, 8),
                   2);
    assert_strings(c.ignore, c.ignore_lines, c.ignore_count, STRINGS("DL103", "DL104"),
                   LINES(10, 11), 2);
    assert_strings(c.extend_select, c.extend_select_lines, c.extend_select_count, STRINGS("DL3"),
                   LINES(13), 1);
    assert_strings(c.exclude, c.exclude_lines, c.exclude_count, STRINGS("build", "gen/**"),
                   LINES(14, 14), 2);
    assert_strings(c.extend_exclude, c.extend_exclude_lines, c.extend_exclude_count,
                   STRINGS("legacy"), LINES(15), 1);
    assert_strings(c.device_names, c.device_name_lines, c.device_name_count,
                   STRINGS("dev", "accel"), LINES(16, 16), 2);
    cr_assert_eq(c.severity_count, 1);
    cr_assert_str_eq(c.severities[0].selector, "DL201");
    cr_assert_eq(c.severities[0].severity, DL_SEV_WARNING);
    cr_assert_eq(c.severities[0].line, 17);
    cr_assert_eq(c.per_file_ignore_count, 2);
    const DlPerFileIgnore *p = c.per_file_ignores;
    cr_assert_str_eq(p[0].pattern, "tests/*");
    cr_assert_eq(p[0].line, 20);
    assert_strings(p[0].codes, p[0].code_lines, p[0].code_count, STRINGS("DL201", "DL202"),
                   LINES(20, 20), 2);
    cr_assert_str_eq(p[1].pattern, "**/conftest.py");
    cr_assert_eq(p[1].line, 21);
    assert_strings(p[1].codes, p[1].code_lines, p[1].code_count, STRINGS("DL1"), LINES(21), 1);
    dl_config_free(&c);
    cr_assert_null(c.path);
    dl_config_free(&c); /* freeing twice is harmless: free zeroes the struct */
    free(dir);
    free(path);
}

Test(config_load, pyproject_without_the_table) {
    DlConfig c;
    bool found = true, ok;
    char *error = NULL;
    char *path = load_text("pyproject.toml", "[project]\nname = \"x\"\n[tool.ruff]\nselect = [1]\n",
                           &c, &found, &error, &ok);
    cr_assert(ok);
    cr_assert_not(found);
    cr_assert_null(error);
    cr_assert_null(c.path);
    cr_assert_not(c.has_select);
    cr_assert_eq(c.select_count + c.ignore_count + c.per_file_ignore_count + c.severity_count, 0);
    dl_config_free(&c);
    free(path);
}

Test(config_load, empty_devlint_table_is_found) {
    DlConfig c;
    bool found = false, ok;
    char *error = NULL;
    char *path = load_text("pyproject.toml", "[tool.devlint]\n", &c, &found, &error, &ok);
    cr_assert(ok);
    cr_assert(found);
    cr_assert_str_eq(c.path, path);
    cr_assert_not(c.has_select);
    dl_config_free(&c);
    free(path);
}

Test(config_load, devlint_toml_holds_keys_at_top_level) {
    DlConfig c;
    bool found = false, ok;
    char *error = NULL;
    char *path = load_text("devlint.toml",
                           "select = []\n"
                           "extend-select = ['DL2']\n"
                           "[severity]\n"
                           "DL201 = \"info\"\n"
                           "host-sync-in-loop = 'error'\n"
                           "[per-file-ignores]\n"
                           "'tests\\*.py' = []\n",
                           &c, &found, &error, &ok);
    cr_assert(ok, "%s", error);
    cr_assert(found);
    cr_assert(c.has_select);
    cr_assert_eq(c.select_count, 0);
    assert_strings(c.extend_select, c.extend_select_lines, c.extend_select_count, STRINGS("DL2"),
                   LINES(2), 1);
    cr_assert_eq(c.severity_count, 2);
    cr_assert_str_eq(c.severities[0].selector, "DL201");
    cr_assert_eq(c.severities[0].severity, DL_SEV_INFO);
    cr_assert_eq(c.severities[0].line, 4);
    cr_assert_str_eq(c.severities[1].selector, "host-sync-in-loop");
    cr_assert_eq(c.severities[1].severity, DL_SEV_ERROR);
    cr_assert_eq(c.severities[1].line, 5);
    cr_assert_eq(c.per_file_ignore_count, 1);
    cr_assert_str_eq(c.per_file_ignores[0].pattern, "tests\\*.py"); /* literal: no escapes */
    cr_assert_eq(c.per_file_ignores[0].code_count, 0);
    dl_config_free(&c);
    free(path);
}

Test(config_load, literal_and_escaped_strings) {
    DlConfig c;
    bool found, ok;
    char *error = NULL;
    char *path = load_text("pyproject.toml",
                           "[tool.devlint]\n"
                           "select = ['DL1', \"\\u0044L2\", '''DL3''', \"\"\"DL\\\n   4\"\"\"]\n"
                           "exclude = ['C:\\build\\', \"a\\\\b\"]\n",
                           &c, &found, &error, &ok);
    cr_assert(ok, "%s", error);
    assert_strings(c.select, c.select_lines, c.select_count, STRINGS("DL1", "DL2", "DL3", "DL4"),
                   LINES(2, 2, 2, 2), 4);
    assert_strings(c.exclude, c.exclude_lines, c.exclude_count, STRINGS("C:\\build\\", "a\\b"),
                   LINES(4, 4), 2); /* the multi-line string took two lines */
    dl_config_free(&c);
    free(path);
}

Test(config_load, inline_per_file_ignores_and_severity_sub_table) {
    DlConfig c;
    bool found, ok;
    char *error = NULL;
    char *path =
        load_text("pyproject.toml",
                  "[tool.devlint]\n"
                  "per-file-ignores = {\"tests/*\" = [\"DL201\"], 'x.py' = ['DL1', 'DL2']}\n"
                  "[tool.devlint.severity]\n"
                  "DL2 = \"error\"\n",
                  &c, &found, &error, &ok);
    cr_assert(ok, "%s", error);
    cr_assert_eq(c.per_file_ignore_count, 2);
    cr_assert_str_eq(c.per_file_ignores[0].pattern, "tests/*");
    cr_assert_eq(c.per_file_ignores[0].line, 2);
    assert_strings(c.per_file_ignores[0].codes, c.per_file_ignores[0].code_lines,
                   c.per_file_ignores[0].code_count, STRINGS("DL201"), LINES(2), 1);
    cr_assert_str_eq(c.per_file_ignores[1].pattern, "x.py");
    assert_strings(c.per_file_ignores[1].codes, c.per_file_ignores[1].code_lines,
                   c.per_file_ignores[1].code_count, STRINGS("DL1", "DL2"), LINES(2, 2), 2);
    cr_assert_eq(c.severity_count, 1);
    cr_assert_eq(c.severities[0].severity, DL_SEV_ERROR);
    cr_assert_eq(c.severities[0].line, 4);
    dl_config_free(&c);
    free(path);
}

Test(config_load, dotted_keys_reach_the_table) {
    DlConfig c;
    bool found, ok;
    char *error = NULL;
    char *path = load_text("pyproject.toml",
                           "tool.devlint.select = [\"DL101\"]\n"
                           "[tool.devlint.per-file-ignores]\n"
                           "\"a.py\" = [\"DL1\"]\n",
                           &c, &found, &error, &ok);
    cr_assert(ok, "%s", error);
    cr_assert(found);
    assert_strings(c.select, c.select_lines, c.select_count, STRINGS("DL101"), LINES(1), 1);
    cr_assert_eq(c.per_file_ignore_count, 1);
    dl_config_free(&c);
    free(path);
}

Test(config_load, unknown_keys) {
    expect_error("pyproject.toml", "[tool.devlint]\nselect = []\nfoo = 1\n",
                 ":3: unknown key `foo` in [tool.devlint]");
    expect_error("pyproject.toml", "[tool.devlint]\n\n[tool.devlint.rules]\nx = 1\n",
                 ":3: unknown key `rules` in [tool.devlint]");
    expect_error("pyproject.toml", "[tool.devlint]\nextend_select = ['DL1']\n",
                 ":2: unknown key `extend_select` in [tool.devlint]");
    expect_error("devlint.toml", "\n\nline-length = 88\n",
                 ":3: unknown key `line-length` in devlint.toml");
}

Test(config_load, wrong_types) {
    static const char *const keys[] = {"select",  "ignore",         "extend-select",
                                       "exclude", "extend-exclude", "device-names"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        char text[256], want[128];
        snprintf(text, sizeof text, "[tool.devlint]\n%s = \"DL1\"\n", keys[i]);
        snprintf(want, sizeof want, ":2: `%s` must be an array of strings", keys[i]);
        expect_error("pyproject.toml", text, want);
        snprintf(text, sizeof text, "\n%s = [\n  'DL1',\n  2,\n]\n", keys[i]);
        expect_error("devlint.toml", text, want);
    }
    expect_error("pyproject.toml", "[tool.devlint]\nselect = [[\"DL1\"]]\n",
                 ":2: `select` must be an array of strings");
    expect_error("pyproject.toml", "[[tool.devlint.select]]\n",
                 ":1: `select` must be an array of strings");
    expect_error("pyproject.toml", "[tool.devlint]\nper-file-ignores = [\"tests/*\"]\n",
                 ":2: `per-file-ignores` must be a table");
    expect_error("pyproject.toml",
                 "[tool.devlint.per-file-ignores]\n\"a.py\" = []\n\"tests/*\" = \"DL201\"\n",
                 ":3: per-file-ignores for `tests/*` must be an array of strings");
    expect_error("pyproject.toml", "[tool.devlint]\nseverity = \"warning\"\n",
                 ":2: `severity` must be a table");
    expect_error("pyproject.toml", "[tool]\ndevlint = [\"DL1\"]\n",
                 ":2: `tool.devlint` must be a table");
}

Test(config_load, bad_severities) {
    expect_error("pyproject.toml", "[tool.devlint.severity]\nDL101 = 'info'\nDL201 = \"fatal\"\n",
                 ":3: severity for `DL201` must be \"error\", \"warning\" or \"info\"");
    expect_error("pyproject.toml", "[tool.devlint]\nseverity = {DL2 = 1}\n",
                 ":2: severity for `DL2` must be \"error\", \"warning\" or \"info\"");
    expect_error("devlint.toml", "[severity]\nDL201 = \"Warning\"\n",
                 ":2: severity for `DL201` must be \"error\", \"warning\" or \"info\"");
}

Test(config_load, toml_errors) {
    expect_error("pyproject.toml", "[tool.devlint]\nselect = [\"DL1\"\nignore = []\n",
                 ":3: invalid TOML: syntax error");
    expect_error("pyproject.toml", "[project\nname = 'x'\n", ":1: invalid TOML: syntax error");
    expect_error("devlint.toml", "select = []\n\nselect = ['DL1']\n",
                 ":3: invalid TOML: duplicate key `select`");
    expect_error("pyproject.toml", "[tool.devlint]\n[tool.devlint]\n",
                 ":2: invalid TOML: duplicate key `tool.devlint`");
    /* A broken pyproject is an error even when the broken part is another tool's. */
    expect_error("pyproject.toml", "[tool.devlint]\n[tool.black]\nx = 'y\n",
                 ":3: invalid TOML: syntax error");
}

Test(config_load, unreadable_files) {
    const char *dir = load_dir();
    char *missing = join(dir, "devlint.toml");
    DlConfig c;
    bool found = true;
    char *error = NULL;
    cr_assert_not(dl_config_load(missing, &c, &found, &error));
    cr_assert_not(found);
    char want[256];
    snprintf(want, sizeof want, "%s: cannot read: No such file or directory", missing);
    cr_assert_str_eq(error, want);
    free(error);
    make_dir(dir, "pyproject.toml"); /* a directory where the file should be */
    char *as_dir = join(dir, "pyproject.toml");
    cr_assert_not(dl_config_load(as_dir, &c, NULL, &error));
    snprintf(want, sizeof want, "%s: cannot read: Is a directory", as_dir);
    cr_assert_str_eq(error, want);
    free(error);
    cr_assert_not(dl_config_load(missing, &c, NULL, NULL)); /* NULL out-params are allowed */
    free(as_dir);
    free(missing);
}

/* ---------------------------------------------------------------- finding */

static const char WITH_TABLE[] = "[tool.devlint]\nselect = [\"DL1\"]\n";
static const char WITHOUT_TABLE[] = "[project]\nname = \"x\"\n";

static void assert_found(const char *file, const char *want_dir, const char *want_name) {
    char *got = dl_config_find(file);
    cr_assert_not_null(got, "nothing found for %s", file);
    char *want = join(want_dir, want_name);
    cr_assert_str_eq(got, want, "for %s", file);
    free(want);
    free(got);
}

/* Layout (T = a temporary directory, realpath'd so comparisons are exact):
 *   T/pyproject.toml                with [tool.devlint]
 *   T/a/pyproject.toml              without it (skipped)
 *   T/a/b/x.py
 *   T/c/devlint.toml, T/c/pyproject.toml (with the table: devlint.toml wins)
 *   T/c/d/pyproject.toml            with the table (nearest for T/c/d/...)
 *   T/e/pyproject.toml              not valid TOML (found, so loading reports it) */
static char *make_tree(void) {
    char *t = realpath(make_temp_dir("dl_config_find"), NULL);
    cr_assert_not_null(t);
    free(write_file(t, "pyproject.toml", WITH_TABLE));
    make_dir(t, "a");
    make_dir(t, "a/b");
    free(write_file(t, "a/pyproject.toml", WITHOUT_TABLE));
    free(write_file(t, "a/b/x.py", "x = 1\n"));
    make_dir(t, "c");
    make_dir(t, "c/d");
    free(write_file(t, "c/devlint.toml", "select = []\n"));
    free(write_file(t, "c/pyproject.toml", WITH_TABLE));
    free(write_file(t, "c/d/pyproject.toml", WITH_TABLE));
    make_dir(t, "e");
    free(write_file(t, "e/pyproject.toml", "[tool.devlint\n"));
    return t;
}

Test(config_find, nearest_config_wins) {
    char *t = make_tree();
    char *x = join(t, "a/b/x.py");
    assert_found(x, t, "pyproject.toml"); /* T/a's pyproject has no table: skipped */
    free(x);
    char *y = join(t, "c/y.py"); /* need not exist */
    assert_found(y, t, "c/devlint.toml");
    free(y);
    char *z = join(t, "c/d/z.py");
    assert_found(z, t, "c/d/pyproject.toml");
    free(z);
    char *w = join(t, "e/w.py");
    assert_found(w, t, "e/pyproject.toml");
    free(w);
    free(t);
}

Test(config_find, directories_and_relative_paths) {
    char *t = make_tree();
    char *cd = join(t, "c/d");
    assert_found(cd, t, "c/d/pyproject.toml"); /* a directory is searched from itself */
    free(cd);
    char *a = join(t, "a");
    cr_assert_eq(chdir(a), 0);
    assert_found("b/x.py", t, "pyproject.toml");
    assert_found("./b/../b/./x.py", t, "pyproject.toml");
    assert_found("../c//d/../q.py", t, "c/devlint.toml");
    assert_found(".", t, "pyproject.toml");
    free(a);
    free(t);
}

Test(config_find, nothing_above) {
    char *t = realpath(make_temp_dir("dl_config_none"), NULL);
    make_dir(t, "sub");
    free(write_file(t, "sub/pyproject.toml", WITHOUT_TABLE));
    /* Only meaningful where no config sits above the temporary directory. */
    const char *above[] = {"/tmp/devlint.toml", "/tmp/pyproject.toml", "/devlint.toml",
                           "/pyproject.toml"};
    for (size_t i = 0; i < sizeof above / sizeof *above; i++)
        if (access(above[i], F_OK) == 0) cr_skip_test("%s exists", above[i]);
    char *file = join(t, "sub/x.py");
    cr_assert_null(dl_config_find(file));
    free(file);
    free(t);
}

/* One finder asked about every file of the tree gives each the answer dl_config_find gives, and
 * reads each directory once: a config written after the question is not seen by the same finder
 * (the language server starts a new one when a config file changes), but by a new one. */
/* Asks `find` about each of `files` (under the tree `t`) and checks it answers what
 * dl_config_find does. */
static void assert_finder_agrees(DlConfigFinder *finder, const char *t, const char *const *files,
                                 size_t count,
                                 char *(*find)(DlConfigFinder *, const char *)) {
    for (size_t i = 0; i < count; i++) {
        char *file = join(t, files[i]);
        char *want = dl_config_find(file), *got = find(finder, file);
        cr_assert_str_eq(got, want, "for %s", files[i]);
        free(want);
        free(got);
        free(file);
    }
}

Test(config_find, a_finder_remembers_each_directory) {
    char *t = make_tree();
    const char *files[] = {"a/b/x.py", "c/y.py", "c/d/z.py", "e/w.py", "a/b/x.py", "c/d/q.py",
                           "a/v.py"};
    DlConfigFinder *finder = dl_config_finder_new();
    assert_finder_agrees(finder, t, files, sizeof files / sizeof *files, dl_config_finder_find);
    free(write_file(t, "a/b/devlint.toml", "select = []\n"));
    char *x = join(t, "a/b/x.py"), *root = join(t, "pyproject.toml");
    char *remembered = dl_config_finder_find(finder, x);
    cr_assert_str_eq(remembered, root);
    dl_config_finder_free(finder);
    assert_found(x, t, "a/b/devlint.toml");
    free(remembered);
    free(root);
    free(x);
    free(t);
}

/* A path known to name a file is looked up from its directory without a stat: the same answers
 * as dl_config_find for files, and for a directory named like a file (`x.py/`) its parent's,
 * since such a path is never a file to check. */
Test(config_find, a_file_path_starts_at_its_directory) {
    char *t = make_tree();
    const char *files[] = {"a/b/x.py", "c/y.py", "c/d/z.py", "e/w.py", "a/v.py"};
    DlConfigFinder *finder = dl_config_finder_new();
    assert_finder_agrees(finder, t, files, sizeof files / sizeof *files,
                         dl_config_finder_find_for_file);
    make_dir(t, "dir.py");
    free(write_file(t, "dir.py/devlint.toml", "select = []\n"));
    char *dir = join(t, "dir.py"), *parents = dl_config_find(t);
    char *got = dl_config_finder_find_for_file(finder, dir);
    cr_assert_str_eq(got, parents);
    dl_config_finder_free(finder);
    free(got);
    free(parents);
    free(dir);
    free(t);
}
