/* One round of --fix / --diff over a run's findings (see fixing.h). Findings are sorted by path,
 * so each file's fixes are consecutive. */
#include "driver/fixing.h"

#include <stdlib.h>
#include <string.h>

#include "fix/fix.h"
#include "frontend/notebook.h"

bool dl_fix_applicable(const DlDiag *d, const DlFixRun *run) {
    return d->fix && d->fix->edit_count && (run->unsafe || !d->fix->unsafe);
}

static bool is_notebook(const char *path) {
    size_t n = strlen(path);
    return n > 6 && strcmp(path + n - 6, ".ipynb") == 0;
}

/* The text the fixes' positions refer to: the file itself, or a notebook's joined program. */
typedef struct FixTarget {
    DlSource source; /* the text fixes apply to */
    char *raw;       /* notebooks: the JSON file */
    size_t raw_len;
    DlNotebook notebook;
    bool has_notebook;
} FixTarget;

static bool load_target(const char *path, const DlFixRun *run, FixTarget *t, char **error) {
    memset(t, 0, sizeof *t);
    if (run->stdin_path && strcmp(path, run->stdin_path) == 0)
        return dl_source_from_bytes(&t->source, path, run->stdin_text, run->stdin_len, 0, error);
    if (!is_notebook(path)) return dl_source_load(&t->source, path, 0, error);
    DlSource raw;
    if (!dl_source_load(&raw, path, 0, error)) return false;
    t->raw_len = raw.len;
    t->raw = malloc(raw.len + 1);
    if (!t->raw) abort();
    memcpy(t->raw, raw.text, raw.len + 1);
    dl_source_free(&raw);
    if (!dl_notebook_load(t->raw, t->raw_len, &t->notebook, error)) return false;
    t->has_notebook = true;
    return dl_source_from_bytes(&t->source, path, t->notebook.program, t->notebook.program_len, 0,
                                error);
}

/* Notebooks: each cell's fixes apply to that cell's code (edit lines are relative to their
 * cell), then the changed cells are written back into the JSON. Returns the new JSON, or NULL
 * when nothing changed (or on error, with *error set). */
static char *fix_notebook(const FixTarget *t, const DlFix **fixes, size_t n, size_t *out_len,
                          size_t *applied, char **error) {
    const DlNotebook *nb = &t->notebook;
    int cells = nb->line_count ? nb->lines[nb->line_count - 1].cell : 0;
    char **texts = calloc((size_t)cells + 1, sizeof *texts);
    size_t *lens = calloc((size_t)cells + 1, sizeof *lens);
    const DlFix **cell_fixes = malloc((n ? n : 1) * sizeof *cell_fixes);
    if (!texts || !lens || !cell_fixes) abort();
    *applied = 0;
    for (size_t first = 0; first < nb->line_count;) {
        int cell = nb->lines[first].cell;
        size_t last = first;
        while (last < nb->line_count && nb->lines[last].cell == cell) last++;
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (fixes[i]->edit_count && fixes[i]->edits[0].cell == cell) cell_fixes[k++] = fixes[i];
        /* the cell's code as the cell holds it: the fixes' columns are the cell's */
        size_t code_len = 0;
        char *code = k ? dl_notebook_cell_text(nb, cell, &code_len) : NULL;
        if (code) {
            DlSource cell_src;
            char *ignored = NULL;
            if (dl_source_from_bytes(&cell_src, "cell", code, code_len, 0, &ignored)) {
                size_t taken = 0;
                texts[cell - 1] = dl_fix_apply(&cell_src, cell_fixes, k, &lens[cell - 1], &taken);
                *applied += taken;
                dl_source_free(&cell_src);
            }
            free(ignored);
            free(code);
        }
        first = last;
    }
    char *out = NULL;
    if (*applied)
        out = dl_notebook_write_cells(nb, t->raw, t->raw_len, (const char *const *)texts, lens,
                                      (size_t)cells, out_len, error);
    for (int c = 0; c < cells; c++) free(texts[c]);
    free(texts);
    free(lens);
    free(cell_fixes);
    return out;
}

static void free_target(FixTarget *t) {
    dl_source_free(&t->source);
    if (t->has_notebook) dl_notebook_free(&t->notebook);
    free(t->raw);
}

static void file_error(DlResult *errors, const char *path, char *message) {
    dl_result_add_error(errors, path, message ? message : "cannot apply fixes");
    free(message);
}

/* Applies the fixes of diags[first, last) (all for one path). Returns how many were taken. */
static size_t fix_file(const DlDiag *diags, size_t first, size_t last, DlFixRun *run,
                       DlResult *errors) {
    const char *path = diags[first].path;
    const DlFix **fixes = malloc((last - first) * sizeof *fixes);
    if (!fixes) abort();
    size_t n = 0;
    for (size_t i = first; i < last; i++)
        if (dl_fix_applicable(&diags[i], run)) fixes[n++] = diags[i].fix;
    size_t applied = 0;
    FixTarget t;
    char *error = NULL;
    if (!n) {
        free(fixes);
        return 0;
    }
    if (!load_target(path, run, &t, &error)) {
        file_error(errors, path, error);
        free_target(&t);
        free(fixes);
        return 0;
    }
    char *out = NULL;
    size_t out_len = 0;
    const char *old_out = t.has_notebook ? t.raw : t.source.text;
    size_t old_len = t.has_notebook ? t.raw_len : t.source.len;
    if (t.has_notebook) {
        out = fix_notebook(&t, fixes, n, &out_len, &applied, &error);
        if (!out && error) {
            file_error(errors, path, error);
            free(fixes);
            free_target(&t);
            return 0;
        }
    } else {
        out = dl_fix_apply(&t.source, fixes, n, &out_len, &applied);
    }
    free(fixes);
    bool changed = applied && (out_len != old_len || memcmp(out, old_out, out_len) != 0);
    if (changed && run->diff_out) dl_diff_unified(run->diff_out, path, old_out, old_len, out, out_len);
    if (changed && run->stdin_path && strcmp(path, run->stdin_path) == 0) {
        free(run->stdin_fixed);
        run->stdin_fixed = out;
        run->stdin_fixed_len = out_len;
        out = NULL;
    } else if (changed && run->write && !dl_write_atomic(path, out, out_len, &error)) {
        file_error(errors, path, error);
        applied = 0;
    }
    free(out);
    free_target(&t);
    return changed ? applied : 0;
}

size_t dl_fix_round(const DlResult *result, DlFixRun *run, DlResult *errors) {
    size_t applied = 0;
    for (size_t first = 0; first < result->diag_count;) {
        size_t last = first + 1;
        while (last < result->diag_count &&
               strcmp(result->diags[last].path, result->diags[first].path) == 0)
            last++;
        applied += fix_file(result->diags, first, last, run, errors);
        first = last;
    }
    return applied;
}
