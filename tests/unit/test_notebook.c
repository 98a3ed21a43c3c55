/* Unit tests for frontend/notebook: the JSON scanner, the joined program and its line map, magic
 * masking, byte-exact write-back, and the error messages. */
#include "frontend/notebook.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The notebooks below are written with ' for JSON's " so they stay readable (a \' is an escaped
 * quote inside a JSON string); js() turns them into real JSON. Caller frees. */
static char *js(const char *text) {
    char *out = strdup(text);
    for (char *p = out; *p; p++)
        if (*p == '\'') *p = '"';
    return out;
}

/* `text` with its only occurrence of `from` replaced by `to`. Caller frees. */
static char *replace_once(const char *text, const char *from, const char *to) {
    const char *at = strstr(text, from);
    cr_assert_not_null(at, "missing: %s", from);
    cr_assert_null(strstr(at + 1, from), "not unique: %s", from);
    size_t head = (size_t)(at - text), nf = strlen(from), nt = strlen(to);
    char *out = malloc(strlen(text) - nf + nt + 1);
    memcpy(out, text, head);
    memcpy(out + head, to, nt);
    strcpy(out + head + nt, at + nf);
    return out;
}

static DlNotebook load_ok(const char *json) {
    DlNotebook nb;
    char *error = NULL;
    bool ok = dl_notebook_load(json, strlen(json), &nb, &error);
    cr_assert(ok, "unexpected error: %s", error ? error : "(none)");
    cr_assert_eq(nb.program[nb.program_len], '\0');
    return nb;
}

static void assert_load_error(const char *json, const char *want) {
    DlNotebook nb;
    char *error = NULL;
    bool ok = dl_notebook_load(json, strlen(json), &nb, &error);
    cr_assert_not(ok, "loaded, expected the error: %s", want);
    cr_assert_null(nb.program, "a failed load leaves the notebook zeroed");
    cr_assert_null(nb.lines);
    cr_assert_null(nb.internal);
    cr_assert_not_null(error);
    cr_assert_str_eq(error, want);
    free(error);
}

static void assert_program(const DlNotebook *nb, const char *want) {
    cr_assert_eq(nb->program_len, strlen(want), "program length %zu, want %zu:\n%s",
                 nb->program_len, strlen(want), nb->program);
    cr_assert(memcmp(nb->program, want, nb->program_len) == 0, "program:\n%s\nwant:\n%s",
              nb->program, want);
}

/* Writes `program` back into `json`; the result must equal `want` byte for byte. */
static void assert_write_back(const DlNotebook *nb, const char *json, const char *program,
                              const char *want) {
    size_t out_len = 0;
    char *error = NULL;
    char *out =
        dl_notebook_write_back(nb, json, strlen(json), program, strlen(program), &out_len, &error);
    cr_assert_not_null(out, "unexpected error: %s", error ? error : "(none)");
    cr_assert_eq(out_len, strlen(want), "length %zu, want %zu:\n%s", out_len, strlen(want), out);
    cr_assert(memcmp(out, want, out_len) == 0, "got:\n%s\nwant:\n%s", out, want);
    cr_assert_eq(out[out_len], '\0');
    free(out);
}

static void assert_write_back_error(const DlNotebook *nb, const char *json, const char *program,
                                    const char *want) {
    size_t out_len = 0;
    char *error = NULL;
    char *out =
        dl_notebook_write_back(nb, json, strlen(json), program, strlen(program), &out_len, &error);
    cr_assert_null(out);
    cr_assert_not_null(error);
    cr_assert_str_eq(error, want);
    free(error);
}

/* A notebook as Jupyter saves it: markdown, code with outputs, a single-string source (as some
 * tools write), a raw cell, unicode both escaped and plain, escaped quotes, metadata. */
static const char TRAINING[] =
    "{\n"                                           /*  1 */
    " 'cells': [\n"                                 /*  2 */
    "  {\n"                                         /*  3 */
    "   'cell_type': 'markdown',\n"                 /*  4 */
    "   'id': '5f1c2a',\n"                          /*  5 */
    "   'metadata': {},\n"                          /*  6 */
    "   'source': [\n"                              /*  7 */
    "    '# Training \\u2192 a small CNN\\n',\n"    /*  8 */
    "    'Uses `x.to(device)` \\'everywhere\\''\n"  /*  9 */
    "   ]\n"                                        /* 10 */
    "  },\n"                                        /* 11 */
    "  {\n"                                         /* 12 */
    "   'cell_type': 'code',\n"                     /* 13 */
    "   'execution_count': 1,\n"                    /* 14 */
    "   'id': '8d3e4b',\n"                          /* 15 */
    "   'metadata': {},\n"                          /* 16 */
    "   'outputs': [\n"                             /* 17 */
    "    {\n"                                       /* 18 */
    "     'name': 'stdout',\n"                      /* 19 */
    "     'output_type': 'stream',\n"               /* 20 */
    "     'text': [\n"                              /* 21 */
    "      'cuda \\'source\\': [\\n'\n"             /* 22 */
    "     ]\n"                                      /* 23 */
    "    }\n"                                       /* 24 */
    "   ],\n"                                       /* 25 */
    "   'source': [\n"                              /* 26 */
    "    '%matplotlib inline\\n',\n"                /* 27 */
    "    'import torch\\n',\n"                      /* 28 */
    "    'device = torch.device(\\'cuda\\')\\n',\n" /* 29 */
    "    'print(device)'\n"                         /* 30 */
    "   ]\n"                                        /* 31 */
    "  },\n"                                        /* 32 */
    "  {\n"                                         /* 33 */
    "   'cell_type': 'code',\n"                     /* 34 */
    "   'execution_count': 2,\n"                    /* 35 */
    "   'id': '0a9b7c',\n"                          /* 36 */
    "   'metadata': {'tags': ['train']},\n"         /* 37 */
    "   'outputs': [],\n"                           /* 38 */
    "   'source': 'x = torch.randn(4, 3)\\nx.to(device)\\nname = \\'caf\\u00e9 "
    "\\\\\\'ok\\\\\\'\\'  # é'\n"                                      /* 39 */
    "  },\n"                                                           /* 40 */
    "  {\n"                                                            /* 41 */
    "   'cell_type': 'raw',\n"                                         /* 42 */
    "   'metadata': {},\n"                                             /* 43 */
    "   'source': ['raw text\\n']\n"                                   /* 44 */
    "  },\n"                                                           /* 45 */
    "  {\n"                                                            /* 46 */
    "   'cell_type': 'code',\n"                                        /* 47 */
    "   'execution_count': null,\n"                                    /* 48 */
    "   'metadata': {'collapsed': false, 'scale': [1.5e-3, -2, 0]},\n" /* 49 */
    "   'outputs': [],\n"                                              /* 50 */
    "   'source': [\n"                                                 /* 51 */
    "    'for images, labels in loader:\\n',\n"                        /* 52 */
    "    '    out = model(images)  # 😀 \\ud83d\\ude00\\n',\n"          /* 53 */
    "    '\\n',\n"                                                     /* 54 */
    "    '    !nvidia-smi\\n',\n"                                      /* 55 */
    "    '\\tloss = out.sum()\\n'\n"                                   /* 56 */
    "   ]\n"                                                           /* 57 */
    "  }\n"                                                            /* 58 */
    " ],\n"                                                            /* 59 */
    " 'metadata': {\n"                                                 /* 60 */
    "  'kernelspec': {'display_name': 'Python 3', 'language': 'python', 'name': 'python3'},\n"
    "  'language_info': {'name': 'python', 'version': '3.11.4'}\n" /* 62 */
    " },\n"                                                        /* 63 */
    " 'nbformat': 4,\n"                                            /* 64 */
    " 'nbformat_minor': 5\n"                                       /* 65 */
    "}\n";                                                         /* 66 */

static const char TRAINING_PROGRAM[] =
    "                  \n" /* %matplotlib inline */
    "import torch\n"
    "device = torch.device(\"cuda\")\n"
    "print(device)\n"
    "x = torch.randn(4, 3)\n"
    "x.to(device)\n"
    "name = \"caf\xc3\xa9 \\\"ok\\\"\"  # \xc3\xa9\n"
    "for images, labels in loader:\n"
    "    out = model(images)  # \xf0\x9f\x98\x80 \xf0\x9f\x98\x80\n"
    "\n"
    "               \n" /*     !nvidia-smi */
    "\tloss = out.sum()\n"
    "\n"; /* the source ends with "\n": an empty last line, as in a file */

TestSuite(notebook);

Test(notebook, program_joins_code_cells_decoded) {
    char *json = js(TRAINING);
    DlNotebook nb = load_ok(json);
    assert_program(&nb, TRAINING_PROGRAM);
    dl_notebook_free(&nb);
    cr_assert_null(nb.program, "free leaves the notebook zeroed");
    free(json);
}

Test(notebook, line_map_gives_cell_cell_line_and_file_line) {
    static const struct { int cell, cell_line, file_line; } want[] = {
        {2, 1, 27}, {2, 2, 28}, {2, 3, 29}, {2, 4, 30},             /* array form */
        {3, 1, 39}, {3, 2, 39}, {3, 3, 39},                         /* single string */
        {5, 1, 52}, {5, 2, 53}, {5, 3, 54}, {5, 4, 55}, {5, 5, 56}, /* raw cell 4 skipped */
        {5, 6, 56}, /* the empty line after the last "\n" lives in the last string */
    };
    char *json = js(TRAINING);
    DlNotebook nb = load_ok(json);
    size_t n = sizeof want / sizeof want[0];
    cr_assert_eq(nb.line_count, n, "line_count %zu, want %zu", nb.line_count, n);
    for (size_t i = 0; i < n; i++) {
        const DlNotebookLine *l = &nb.lines[i];
        cr_assert(l->cell == want[i].cell && l->cell_line == want[i].cell_line &&
                      l->file_line == want[i].file_line,
                  "program line %zu: cell %d line %d file line %d, want %d %d %d", i + 1, l->cell,
                  l->cell_line, l->file_line, want[i].cell, want[i].cell_line, want[i].file_line);
    }
    dl_notebook_free(&nb);
    free(json);
}

/* `program` (TRAINING's program, or one made from it) with `device = torch.device("cuda")`
 * edited to "cuda:0" is written back as TRAINING's JSON with only that string changed. */
static void assert_device_edit_written_back(const DlNotebook *nb, const char *json,
                                            const char *program) {
    char *edited = replace_once(program, "device = torch.device(\"cuda\")",
                                "device = torch.device(\"cuda:0\")");
    char *from = js("'device = torch.device(\\'cuda\\')\\n'");
    char *to = js("'device = torch.device(\\'cuda:0\\')\\n'");
    char *want = replace_once(json, from, to);
    assert_write_back(nb, json, edited, want);
    free(want);
    free(to);
    free(from);
    free(edited);
}

Test(notebook, write_back_changes_only_the_edited_string) {
    char *json = js(TRAINING);
    DlNotebook nb = load_ok(json);
    assert_device_edit_written_back(&nb, json, TRAINING_PROGRAM);
    dl_notebook_free(&nb);
    free(json);
}

Test(notebook, write_back_in_a_single_string_source_keeps_the_other_lines_bytes) {
    char *json = js(TRAINING);
    DlNotebook nb = load_ok(json);
    char *program = replace_once(TRAINING_PROGRAM, "x.to(device)\n", "x = x.to(device)\n");
    /* The neighbours keep their escapes (\u00e9 is not re-encoded as é). */
    char *want = replace_once(json, "\\nx.to(device)\\n", "\\nx = x.to(device)\\n");
    assert_write_back(&nb, json, program, want);
    free(want);
    free(program);
    dl_notebook_free(&nb);
    free(json);
}

Test(notebook, unchanged_program_gives_identical_bytes) {
    char *json = js(TRAINING);
    DlNotebook nb = load_ok(json);
    assert_write_back(&nb, json, TRAINING_PROGRAM, json);
    dl_notebook_free(&nb);
    free(json);
}

Test(notebook, masked_lines_are_written_back_as_they_were) {
    char *json = js(TRAINING);
    DlNotebook nb = load_ok(json);
    /* Whatever the new program holds on a masked line, the magic stays. */
    char *program = replace_once(TRAINING_PROGRAM, "                  \n", "pass\n");
    assert_write_back(&nb, json, program, json);
    free(program);
    dl_notebook_free(&nb);
    free(json);
}

Test(notebook, write_back_encodes_like_jupyter) {
    const char *json =
        "{\"cells\": [{\"cell_type\": \"code\", \"source\": [\"a = 1\\n\", \"b\"]}]}";
    DlNotebook nb = load_ok(json);
    /* quote, backslash, tab, a control character, DEL and non-ASCII (kept as UTF-8) */
    assert_write_back(&nb, json, "a = \"\\\t\x01\x1b\x7f\xc3\xa9\nb\n",
                      "{\"cells\": [{\"cell_type\": \"code\", \"source\": "
                      "[\"a = \\\"\\\\\\t\\u0001\\u001b\x7f\xc3\xa9\\n\", \"b\"]}]}");
    dl_notebook_free(&nb);
}

Test(notebook, line_split_over_strings_is_written_into_the_first) {
    const char *json = "{\"cells\": [{\"cell_type\": \"code\", \"source\": [\"x.to(\", "
                       "\"device)\\n\", \"y = 2\"]}]}";
    DlNotebook nb = load_ok(json);
    assert_program(&nb, "x.to(device)\ny = 2\n");
    assert_write_back(&nb, json, "x = x.to(device)\ny = 2\n",
                      "{\"cells\": [{\"cell_type\": \"code\", \"source\": [\"x = x.to(device)\", "
                      "\"\\n\", \"y = 2\"]}]}");
    dl_notebook_free(&nb);
}

Test(notebook, write_back_rejects_another_line_count_or_another_text) {
    char *json = js(TRAINING);
    DlNotebook nb = load_ok(json);
    assert_write_back_error(&nb, json, "import torch\n",
                            "the new program has 1 lines, the notebook's has 13");
    char *other = replace_once(json, "3.11.4", "3.11.5");
    assert_write_back_error(&nb, other, TRAINING_PROGRAM,
                            "the notebook changed since it was loaded");
    free(other);
    dl_notebook_free(&nb);
    free(json);
}

Test(notebook, write_back_into_the_empty_last_line_extends_the_last_string) {
    const char *json = "{\"cells\": [{\"cell_type\": \"code\", \"source\": [\"a\\n\"]}]}";
    DlNotebook nb = load_ok(json);
    assert_program(&nb, "a\n\n");
    assert_write_back(&nb, json, "a\nb\n",
                      "{\"cells\": [{\"cell_type\": \"code\", \"source\": [\"a\\nb\"]}]}");
    dl_notebook_free(&nb);
}

Test(notebook, write_back_into_an_empty_array_is_refused) {
    const char *json = "{\"cells\": [\n"
                       " {\"cell_type\": \"code\",\n"
                       "  \"source\":\n"
                       "   []}]}";
    DlNotebook nb = load_ok(json);
    assert_program(&nb, "\n");
    cr_assert_eq(nb.line_count, 1);
    cr_assert_eq(nb.lines[0].cell, 1);
    cr_assert_eq(nb.lines[0].cell_line, 1);
    cr_assert_eq(nb.lines[0].file_line, 4, "an empty array's line is where the array starts");
    assert_write_back(&nb, json, "\n", json);
    assert_write_back_error(&nb, json, "x = 1\n", "cell 1: cannot write code into an empty source");
    dl_notebook_free(&nb);
}

/* The program a one-cell notebook with `source` lines (JSON strings, ' notation) gives. */
static void assert_cell_program(const char *source_strings, const char *want) {
    char *wrapped = malloc(strlen(source_strings) + 64);
    sprintf(wrapped, "{'cells': [{'cell_type': 'code', 'source': [%s]}]}", source_strings);
    char *json = js(wrapped);
    DlNotebook nb = load_ok(json);
    assert_program(&nb, want);
    dl_notebook_free(&nb);
    free(json);
    free(wrapped);
}

Test(notebook, line_magics_shell_and_help_are_masked) {
    assert_cell_program("'%matplotlib inline\\n', '!pip install torch\\n', '?torch.zeros\\n', "
                        "'torch.zeros??\\n', 'files = !ls -1\\n', 't = %timeit -o f()\\n', 'y = 1'",
                        "                  \n"
                        "                  \n"
                        "            \n"
                        "             \n"
                        "              \n"
                        "                  \n"
                        "y = 1\n");
}

Test(notebook, indented_magics_are_masked) {
    assert_cell_program("'for i in range(3):\\n', '    %time f(i)\\n', '\\t!echo {i}\\n', "
                        "'    g(i)'",
                        "for i in range(3):\n"
                        "    0         \n"
                        "\t         \n" /* the tab is kept: only what follows it is blanked */
                        "    g(i)\n");
}

Test(notebook, a_magic_that_starts_a_block_stays_a_statement) {
    /* IPython runs `!wget ...` as a call: the `if` keeps a body */
    assert_cell_program("'if not os.path.exists(data):\\n', '  !wget -P data/ http://x/y\\n', "
                        "'print(1)'",
                        "if not os.path.exists(data):\n"
                        "  0                        \n"
                        "print(1)\n");
}

Test(notebook, a_shell_escape_goes_on_over_its_backslashes) {
    assert_cell_program("'!python prepare.py \\\\\\n', '  --data_root data/ \\\\\\n', '  --log\\n', "
                        "'manifest = 1'",
                        "                    \n"
                        "                     \n"
                        "       \n"
                        "manifest = 1\n");
}

Test(notebook, automagic_lines_are_masked) {
    /* IPython runs these as %cd, %pip, %ls, %matplotlib: Colab notebooks write them bare */
    assert_cell_program("'cd ..\\n', 'pip install onnx onnxruntime-gpu\\n', 'ls -la data/\\n', "
                        "'pwd\\n', 'matplotlib inline\\n', 'y = 1'",
                        "     \n"
                        "                                \n"
                        "            \n"
                        "   \n"
                        "                 \n"
                        "y = 1\n");
}

Test(notebook, python_named_like_an_automagic_is_kept) {
    /* an assignment, a comparison, a call, an attribute, an indented line, a longer name */
    const char *python = "cd = 1\n"
                         "ls == 2\n"
                         "rm(path)\n"
                         "cat.x = 3\n"
                         "if cd:\n"
                         "    cd .. \n"
                         "cdx -y\n";
    assert_cell_program("'cd = 1\\n', 'ls == 2\\n', 'rm(path)\\n', 'cat.x = 3\\n', 'if cd:\\n', "
                        "'    cd .. \\n', 'cdx -y'",
                        python);
}

Test(notebook, python_that_looks_like_a_magic_is_kept) {
    /* % continuing an expression, ! inside a string, ? in a comment and in a string */
    const char *python = "total = (a\n"
                         "         % b)\n"
                         "doc = \"\"\"Why?\n"
                         "!important\n"
                         "\"\"\"\n"
                         "y = x  # really?\n"
                         "z = \"what?\"\n"
                         "w = a != b\n"
                         "v = 10 \\\n"
                         "    % 3\n";
    assert_cell_program("'total = (a\\n', '         % b)\\n', 'doc = \\'\\'\\'Why?\\n', "
                        "'!important\\n', '\\'\\'\\'\\n', 'y = x  # really?\\n', "
                        "'z = \\'what?\\'\\n', 'w = a != b\\n', 'v = 10 \\\\\\n', '    % 3'",
                        python);
}

Test(notebook, cell_magics_mask_their_line_or_the_whole_cell) {
    /* %%time runs its body as Python; %%bash, %%shell and %%writefile do not. */
    assert_cell_program("'\\n', '%%time\\n', 'train()'", "\n      \ntrain()\n");
    assert_cell_program("'%%bash\\n', 'pip install torch\\n', 'echo done'",
                        "      \n                 \n         \n");
    assert_cell_program("'%%writefile train.py\\n', 'import torch'",
                        "                    \n            \n");
    /* Colab's %%shell */
    assert_cell_program("'%%shell\\n', 'cd StyleTTS2'", "       \n            \n");
    /* IPython's aliases %%HTML and %%SVG (SuGaR's viewer notebook) */
    assert_cell_program("'%%HTML\\n', '<div></div>'", "      \n           \n");
    assert_cell_program("'%%SVG\\n', '<svg></svg>'", "     \n           \n");
}

Test(notebook, escapes_are_decoded) {
    assert_cell_program("'s = \\'\\\\\\\\ \\\\/ \\/ \\b\\f\\t\\u0041\\u00e9\\u20ac\\ud83d\\ude00"
                        "\\ud800x\\''",
                        "s = \"\\\\ \\/ / \b\f\tA\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
                        "\xef\xbf\xbdx\"\n");
}

Test(notebook, carriage_returns_end_lines_like_in_a_file) {
    const char *json =
        "{\"cells\": [{\"cell_type\": \"code\", \"source\": \"a = 1\\r\\nb = 2\\rc = 3\"}]}";
    DlNotebook nb = load_ok(json);
    assert_program(&nb, "a = 1\nb = 2\nc = 3\n");
    assert_write_back(&nb, json, "a = 1\nb = 22\nc = 3\n",
                      "{\"cells\": [{\"cell_type\": \"code\", \"source\": "
                      "\"a = 1\\r\\nb = 22\\rc = 3\"}]}");
    dl_notebook_free(&nb);
}

Test(notebook, empty_cells_array_is_an_empty_program) {
    DlNotebook nb = load_ok("{\"cells\": [], \"metadata\": {}, \"nbformat\": 4}");
    assert_program(&nb, "");
    cr_assert_eq(nb.line_count, 0);
    size_t out_len = 0;
    char *error = NULL;
    const char *json = "{\"cells\": [], \"metadata\": {}, \"nbformat\": 4}";
    char *out = dl_notebook_write_back(&nb, json, strlen(json), "", 0, &out_len, &error);
    cr_assert_not_null(out);
    cr_assert_str_eq(out, json);
    free(out);
    dl_notebook_free(&nb);
}

Test(notebook, python_json_extensions_and_bom_are_accepted) {
    const char *json = "\xef\xbb\xbf{\"metadata\": {\"v\": [NaN, Infinity, -Infinity, -0.5E+2]},"
                       " \"cells\": [{\"source\": \"x = 1\", \"cell_type\": \"code\"}]}";
    DlNotebook nb = load_ok(json);
    assert_program(&nb, "x = 1\n");
    dl_notebook_free(&nb);
}

Test(notebook, errors_say_what_is_wrong) {
    assert_load_error("{\"cells\": [\n  {\"cell_type\": \"code\",}\n]}", "not valid JSON (line 2)");
    assert_load_error("{\"cells\": []}\n\nx", "not valid JSON (line 3)");
    assert_load_error("{\"cells\": [\"a\nb\"]}", "not valid JSON (line 1)"); /* raw newline */
    assert_load_error("{\"cells\": [\"\\x\"]}", "not valid JSON (line 1)");  /* bad escape */
    assert_load_error("{\"cells\": [\"\\u12G4\"]}", "not valid JSON (line 1)");
    assert_load_error("{\"cells\": [01]}", "not valid JSON (line 1)");
    assert_load_error("", "empty file (a notebook is a JSON object)");
    assert_load_error(" \n\n", "empty file (a notebook is a JSON object)");
    assert_load_error("{\"cells\": [\n\"\xc3(\"]}", "not valid UTF-8 (line 2)");
    assert_load_error("{\"cells\": [\"\xed\xa0\x80\"]}",
                      "not valid UTF-8 (line 1)");                                /* surrogate */
    assert_load_error("{\"cells\": [\"\xc0\xaf\"]}", "not valid UTF-8 (line 1)"); /* overlong */
    assert_load_error("[1, 2]", "not a notebook (no top-level object)");
    assert_load_error("{\"metadata\": {}, \"nbformat\": 4}", "no cells");
    assert_load_error("{\"worksheets\": [{\"cells\": []}], \"nbformat\": 3}",
                      "no cells (an nbformat 3 notebook: convert it with "
                      "`jupyter nbconvert --to notebook --nbformat 4`)");
    assert_load_error("{\"cells\": {}}", "\"cells\" is not a list");
    assert_load_error("{\"cells\": [{\"cell_type\": \"markdown\", \"source\": \"\"}, "
                      "{\"cell_type\": \"code\", \"source\": [\"a\", 1]}]}",
                      "cell 2: source is not a string or list of strings");
    assert_load_error("{\"cells\": [{\"cell_type\": \"code\", \"source\": null}]}",
                      "cell 1: source is not a string or list of strings");
    assert_load_error("{\"cells\": [{\"cell_type\": \"markdown\"}, {\"cell_type\": \"code\"}]}",
                      "cell 2: code cell without source");
    assert_load_error("{\"cells\": [[]]}", "cell 1: not an object");
}

Test(notebook, deep_nesting_is_an_error_not_a_crash) {
    size_t depth = 100000;
    char *json = malloc(2 * depth + 16);
    char *p = json;
    p += sprintf(p, "{\"cells\": ");
    memset(p, '[', depth);
    memset(p + depth, ']', depth);
    strcpy(p + 2 * depth, "}");
    assert_load_error(json, "JSON nested too deeply (line 1)");
    free(json);
}

Test(notebook, code_cells_are_listed_with_their_program_lines) {
    char *json = js(TRAINING);
    DlNotebook nb = load_ok(json);
    int cells[8];
    size_t firsts[8], counts[8];
    size_t n = dl_notebook_code_cells(&nb, cells, firsts, counts, 8);
    cr_assert_eq(n, 3);
    cr_assert_eq(cells[0], 2);
    cr_assert_eq(firsts[0], 0);
    cr_assert_eq(counts[0], 4);
    cr_assert_eq(cells[1], 3);
    cr_assert_eq(firsts[1], 4);
    cr_assert_eq(counts[1], 3);
    cr_assert_eq(cells[2], 5);
    cr_assert_eq(firsts[2], 7);
    cr_assert_eq(firsts[2] + counts[2], nb.line_count);
    dl_notebook_free(&nb);
    free(json);
}

/* A cell left out of the check (it does not parse alone) is blanked in the program, keeping
 * its lines, and written back as it was while a fix elsewhere is applied. */
Test(notebook, masked_cell_is_blank_in_the_program_and_kept_by_write_back) {
    char *json = js(TRAINING);
    DlNotebook nb = load_ok(json);
    dl_notebook_mask_cell(&nb, 3);
    char *want_program = replace_once(
        TRAINING_PROGRAM,
        "x = torch.randn(4, 3)\nx.to(device)\nname = \"caf\xc3\xa9 \\\"ok\\\"\"  # \xc3\xa9\n",
        "                     \n            \n                           \n");
    assert_program(&nb, want_program);
    assert_device_edit_written_back(&nb, json, want_program);
    free(want_program);
    dl_notebook_free(&nb);
    free(json);
}

/* A cell pasted from inside a function: IPython strips its first line's indentation from every
 * line that starts with it, so the program holds the lines so stripped, and the line map says
 * how many columns each lost. A line not starting with it (a shallower comment) keeps its own. */
static const char INDENTED[] =
    "{'cells': [{'cell_type': 'code', 'source': ['import torch']},\n"
    " {'cell_type': 'code', 'source': ['\\n', '    x = torch.zeros(2)\\n', '    if x.sum():\\n',"
    " '\\ty = 1\\n', '        y = 2\\n', '  # note\\n', '    x.to(dev)']}]}";

Test(notebook, indented_cell_is_stripped_as_ipython_does) {
    char *json = js(INDENTED);
    DlNotebook nb = load_ok(json);
    assert_program(&nb, "import torch\n"
                        "\n"
                        "x = torch.zeros(2)\n"
                        "if x.sum():\n"
                        "\ty = 1\n"
                        "    y = 2\n"
                        "  # note\n"
                        "x.to(dev)\n");
    static const int shifts[] = {0, 0, 4, 4, 0, 4, 0, 4};
    cr_assert_eq(nb.line_count, 8);
    for (size_t i = 0; i < 8; i++)
        cr_assert_eq(nb.lines[i].column_shift, shifts[i], "line %zu: shift %d, want %d", i + 1,
                     nb.lines[i].column_shift, shifts[i]);
    char *line = dl_notebook_line_text(&nb, 7);
    cr_assert_str_eq(line, "    x.to(dev)");
    free(line);
    size_t len = 0;
    char *cell = dl_notebook_cell_text(&nb, 2, &len);
    cr_assert_str_eq(cell, "\n    x = torch.zeros(2)\n    if x.sum():\n\ty = 1\n        y = 2\n"
                           "  # note\n    x.to(dev)\n");
    cr_assert_eq(len, strlen(cell));
    free(cell);
    cr_assert_null(dl_notebook_cell_text(&nb, 3, &len), "no third cell");
    dl_notebook_free(&nb);
    free(json);
}

Test(notebook, indented_cell_is_written_back_with_its_indentation) {
    char *json = js(INDENTED);
    DlNotebook nb = load_ok(json);
    /* in the program's columns (write_back) ... */
    char *program = replace_once(nb.program, "x.to(dev)", "x = x.to(dev)");
    char *want = replace_once(json, "\"    x.to(dev)\"", "\"    x = x.to(dev)\"");
    assert_write_back(&nb, json, program, want);
    /* ... and in the cell's (write_cells, what fixes use) */
    size_t len = 0;
    char *cell = dl_notebook_cell_text(&nb, 2, &len);
    char *edited = replace_once(cell, "    x.to(dev)", "    x = x.to(dev)");
    const char *texts[2] = {NULL, edited};
    size_t lens[2] = {0, strlen(edited)};
    size_t out_len = 0;
    char *error = NULL;
    char *out = dl_notebook_write_cells(&nb, json, strlen(json), texts, lens, 2, &out_len, &error);
    cr_assert_not_null(out, "unexpected error: %s", error ? error : "(none)");
    cr_assert_str_eq(out, want);
    free(out);
    free(edited);
    free(cell);
    free(want);
    free(program);
    dl_notebook_free(&nb);
    free(json);
}

/* A notebook whose metadata names another kernel's language holds no Python: no program, no
 * error (ruff skips them too); `Python 3` or `python3` in any case is Python. */
Test(notebook, other_kernels_hold_no_program) {
    static const char *const other[] = {
        "{'cells': [{'cell_type': 'code', 'source': ['require \\'nn\\'\\n', 'x = 1']}],"
        " 'metadata': {'kernelspec': {'language': 'lua', 'name': 'itorch'}}}",
        "{'cells': [{'cell_type': 'code', 'source': 'library(torch)'}],"
        " 'metadata': {'language_info': {'name': 'R'}, 'kernelspec': {'language': 'python'}}}",
    };
    for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
        char *json = js(other[i]);
        DlNotebook nb = load_ok(json);
        cr_assert_eq(nb.program_len, 0, "%s", json);
        cr_assert_eq(dl_notebook_code_cells(&nb, NULL, NULL, NULL, 0), 0);
        dl_notebook_free(&nb);
        free(json);
    }
    static const char *const python[] = {
        "{'cells': [{'cell_type': 'code', 'source': 'x = 1'}],"
        " 'metadata': {'language_info': {'name': 'Python 3'}}}",
        "{'cells': [{'cell_type': 'code', 'source': 'x = 1'}],"
        " 'metadata': {'kernelspec': {'language': 'python3'}}}",
        "{'cells': [{'cell_type': 'code', 'source': 'x = 1'}], 'metadata': {}}",
    };
    for (size_t i = 0; i < sizeof python / sizeof *python; i++) {
        char *json = js(python[i]);
        DlNotebook nb = load_ok(json);
        assert_program(&nb, "x = 1\n");
        dl_notebook_free(&nb);
        free(json);
    }
}
