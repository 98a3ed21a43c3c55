/* Fuzz target: notebook JSON -> dl_notebook_load, the two write-back paths, then the whole
 * pipeline on the notebook and one round of fixes written back into it.
 *
 * Properties beyond "no crash, no leak, no undefined behaviour":
 *   - writing back the unchanged program gives back the input byte for byte;
 *   - writing back a program whose lines were replaced (same line count) gives a notebook that
 *     loads again, with each line either the new text or, for masked magics, the old one;
 *   - a cell that grows by a line is written as a notebook that loads again;
 *   - the notebook left by a round of fixes loads again. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/vec.h"
#include "driver/check.h"
#include "driver/fixing.h"
#include "frontend/notebook.h"
#include "fuzz_common.h"

/* A line that needs every JSON escape: quote, backslash, tab, a control character, non-ASCII. */
static const char NEW_LINE[] = "x = \"q\\\"b\\\\\t\x01\xc3\xa9\"";

/* Line `i` of a notebook's program (lines end with '\n'). */
static const char *program_line(const DlNotebook *nb, size_t i, size_t *len) {
    const char *p = nb->program, *end = nb->program + nb->program_len;
    for (size_t k = 0; k < i && p < end; k++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *len = (size_t)((nl ? nl : end) - p);
    return p;
}

static void check_reload(const char *json, size_t len, DlNotebook *out, const char *what) {
    char *error = NULL;
    bool ok = dl_notebook_load(json, len, out, &error);
    FUZZ_ASSERT(ok, "%s gave a notebook that does not load (%s):\n%.*s", what, error ? error : "?",
                (int)len, json);
}

/* A masked magic's placeholder: blanks, with `0` where the magic starts when it is a block's
 * first statement, which depends on the line before it (notebook.c, nb_mask_cell). */
static bool placeholder(const char *line, size_t len) {
    for (size_t i = 0; i < len; i++)
        if (line[i] != ' ' && line[i] != '\t' && line[i] != '\f' && line[i] != '0') return false;
    return true;
}

/* The same placeholder, but for whether its `0` is there. */
static bool same_placeholder(const char *a, size_t a_len, const char *b, size_t b_len) {
    if (a_len != b_len || !placeholder(a, a_len) || !placeholder(b, b_len)) return false;
    for (size_t i = 0; i < a_len; i++)
        if (a[i] != b[i] && !(a[i] == '0' && b[i] == ' ') && !(a[i] == ' ' && b[i] == '0'))
            return false;
    return true;
}

static void fuzz_same_line_count(const DlNotebook *nb, const char *json, size_t size) {
    DL_VEC(char) program = {0};
    for (size_t i = 0; i < nb->line_count; i++) {
        for (const char *c = NEW_LINE; *c; c++)
            dl_vec_push(&program, *c);
        dl_vec_push(&program, '\n');
    }
    size_t out_len = 0;
    char *error = NULL;
    char *out = dl_notebook_write_back(nb, json, size, program.items ? program.items : "",
                                       program.len, &out_len, &error);
    if (out) {
        DlNotebook again;
        check_reload(out, out_len, &again, "dl_notebook_write_back");
        FUZZ_ASSERT(again.line_count == nb->line_count, "write-back changed the line count");
        for (size_t i = 0; i < nb->line_count; i++) {
            size_t len, old_len;
            const char *line = program_line(&again, i, &len);
            const char *old = program_line(nb, i, &old_len);
            bool is_new = len == strlen(NEW_LINE) && memcmp(line, NEW_LINE, len) == 0;
            bool is_old = (len == old_len && memcmp(line, old, len) == 0) ||
                          same_placeholder(line, len, old, old_len);
            FUZZ_ASSERT(is_new || is_old, "line %zu was written back as %.*s", i + 1, (int)len,
                        line);
        }
        dl_notebook_free(&again);
        free(out);
    }
    free(error);
    dl_vec_free(&program);
}

static void fuzz_grown_cells(const DlNotebook *nb, const char *json, size_t size) {
    int cells = nb->line_count ? nb->lines[nb->line_count - 1].cell : 0;
    if (cells <= 0) return;
    char **texts = calloc((size_t)cells, sizeof *texts);
    size_t *lens = calloc((size_t)cells, sizeof *lens);
    if (!texts || !lens) abort();
    for (size_t i = 0; i < nb->line_count; i++) { /* each code cell's lines, then one more */
        int c = nb->lines[i].cell - 1;
        size_t len;
        const char *line = program_line(nb, i, &len);
        texts[c] = realloc(texts[c], lens[c] + len + 1);
        if (!texts[c]) abort();
        memcpy(texts[c] + lens[c], line, len);
        lens[c] += len;
        texts[c][lens[c]++] = '\n';
    }
    for (int c = 0; c < cells; c++) {
        if (!texts[c]) continue;
        texts[c] = realloc(texts[c], lens[c] + sizeof "y = 1\n");
        if (!texts[c]) abort();
        memcpy(texts[c] + lens[c], "y = 1\n", sizeof "y = 1\n");
        lens[c] += sizeof "y = 1\n" - 1;
    }
    size_t out_len = 0;
    char *error = NULL;
    char *out = dl_notebook_write_cells(nb, json, size, (const char *const *)texts, lens,
                                        (size_t)cells, &out_len, &error);
    if (out) {
        DlNotebook again;
        check_reload(out, out_len, &again, "dl_notebook_write_cells");
        dl_notebook_free(&again);
        free(out);
    }
    free(error);
    for (int c = 0; c < cells; c++)
        free(texts[c]);
    free(texts);
    free(lens);
}

/* The pipeline on the notebook as a file, then a round of fixes written into that file. */
static void fuzz_check_and_fix(const uint8_t *data, size_t size) {
    char path[128];
    fuzz_write_file("fuzz.ipynb", data, size, path, sizeof path);
    const DlSettings *settings[1] = {fuzz_all_rules()};
    DlCheckOptions opts = {.settings = settings, .jobs = 1};
    char *paths[1] = {path};
    DlResult result = {0}, errors = {0};
    dl_check_files(paths, 1, &opts, &result);
    fuzz_write_reports(&result);
    DlFixRun run = {.unsafe = true, .write = true, .diff_out = fuzz_devnull()};
    if (dl_fix_round(&result, &run, &errors)) {
        FILE *f = fopen(path, "rb");
        if (!f) abort();
        DL_VEC(char) fixed = {0};
        int c;
        while ((c = fgetc(f)) != EOF)
            dl_vec_push(&fixed, (char)c);
        fclose(f);
        DlNotebook again;
        check_reload(fixed.items ? fixed.items : "", fixed.len, &again, "a round of fixes");
        dl_notebook_free(&again);
        dl_vec_free(&fixed);
    }
    dl_result_free(&errors);
    dl_result_free(&result);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *json = size ? (const char *)data : "";
    DlNotebook nb;
    char *error = NULL;
    if (!dl_notebook_load(json, size, &nb, &error)) {
        FUZZ_ASSERT(error, "dl_notebook_load failed without a reason");
        free(error);
        return 0;
    }
    size_t out_len = 0;
    char *out =
        dl_notebook_write_back(&nb, json, size, nb.program, nb.program_len, &out_len, &error);
    FUZZ_ASSERT(out && out_len == size && memcmp(out, json, size) == 0,
                "writing back the unchanged program changed the notebook (%s)",
                out ? "different bytes" : error);
    free(out);
    fuzz_same_line_count(&nb, json, size);
    fuzz_grown_cells(&nb, json, size);
    dl_notebook_free(&nb);
    fuzz_check_and_fix(data, size);
    return 0;
}
