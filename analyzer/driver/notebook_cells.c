/* Jupyter compiles each code cell by itself: a cell of shell commands written without `!`, or
 * of output pasted as code, fails only when it runs, and every other cell still works. devlint
 * joins the cells into one program, so one such cell would make the whole notebook a syntax
 * error. When the joined program does not parse, each cell is parsed alone; those that fail are
 * blanked (their lines kept, so positions elsewhere do not move) and named in the file's note,
 * and the rest is checked. A valid notebook pays nothing: this runs only after a failed parse. */
#define _GNU_SOURCE
#include "driver/notebook_cells.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "frontend/python.h"

/* The syntax error of the program's lines [first, first + count) parsed alone (malloc'ed; its
 * position is within the cell), or NULL when they parse. */
static char *cell_error(const DlSource *program, size_t first, size_t count) {
    if (first >= program->line_count) return NULL;
    size_t start = program->line_starts[first];
    size_t end = first + count < program->line_count ? program->line_starts[first + count]
                                                     : program->len;
    DlSource cell;
    char *error = NULL;
    if (!dl_source_from_bytes(&cell, program->path, program->text + start, end - start, 0,
                              &error))
        return error;
    DlArena scratch;
    dl_arena_init(&scratch);
    DlParseResult parsed = dl_python_parse(&cell, &scratch, false, NULL);
    dl_arena_release(&scratch);
    dl_source_free(&cell);
    return parsed.error;
}

/* The parser's "at line L, column C" counts in the program, whose lines IPython's dedent of an
 * indented cell shortened; the note should give the column the cell itself shows. */
static char *in_cell_columns(char *error, const DlNotebook *nb, size_t first) {
    const char *at = strstr(error, " at line ");
    int line = 0, column = 0, used = 0;
    if (!at || sscanf(at, " at line %d, column %d%n", &line, &column, &used) != 2 ||
        at[used] || line < 1 || first + (size_t)line > nb->line_count)
        return error;
    int shift = nb->lines[first + (size_t)line - 1].column_shift;
    if (!shift) return error;
    char *shifted = NULL;
    if (asprintf(&shifted, "%.*s at line %d, column %d", (int)(at - error), error, line,
                 column + shift) < 0)
        abort();
    free(error);
    return shifted;
}

char *dl_notebook_leave_out_bad_cells(DlNotebook *nb, DlSource *program) {
    size_t n = dl_notebook_code_cells(nb, NULL, NULL, NULL, 0);
    if (!n) return NULL;
    int *cells = calloc(n, sizeof *cells);
    size_t *firsts = calloc(n, sizeof *firsts), *counts = calloc(n, sizeof *counts);
    if (!cells || !firsts || !counts) abort();
    dl_notebook_code_cells(nb, cells, firsts, counts, n);
    size_t bad = 0;
    int first_bad = 0;
    char *first_error = NULL;
    char *list = NULL; /* "3, 65, 67" */
    size_t list_len = 0;
    FILE *list_out = open_memstream(&list, &list_len);
    if (!list_out) abort();
    for (size_t i = 0; i < n; i++) {
        char *error = cell_error(program, firsts[i], counts[i]);
        if (!error) continue;
        error = in_cell_columns(error, nb, firsts[i]);
        fprintf(list_out, "%s%d", bad ? ", " : "", cells[i]);
        if (!bad++) {
            first_bad = cells[i];
            first_error = error;
        } else {
            free(error);
        }
        dl_notebook_mask_cell(nb, cells[i]);
    }
    fclose(list_out);
    free(cells);
    free(firsts);
    free(counts);
    char *note = NULL;
    if (bad) {
        char *path = strdup(program->path);
        char *rebuild_error = NULL;
        dl_source_free(program);
        if (!path ||
            !dl_source_from_bytes(program, path, nb->program, nb->program_len, 0, &rebuild_error))
            abort(); /* the same bytes as before, blanked: cannot fail but for memory */
        free(path);
        if (bad == 1 &&
            asprintf(&note,
                     "cell %d does not parse on its own (%s of the cell), so it was not checked; "
                     "the notebook's other cells were",
                     first_bad, first_error) < 0)
            abort();
        if (bad > 1 &&
            asprintf(&note,
                     "%zu cells do not parse on their own (cells %s; cell %d: %s of the cell), so "
                     "they were not checked; the notebook's other cells were",
                     bad, list, first_bad, first_error) < 0)
            abort();
    }
    free(first_error);
    free(list);
    return note;
}
