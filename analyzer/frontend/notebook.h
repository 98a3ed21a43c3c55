/* Jupyter notebooks: the code cells of an .ipynb joined into one Python program (magics and
 * shell lines masked so the parser sees valid Python), the map from the program's lines back to
 * cells and to the notebook file's own lines, and writing changed code back into the JSON
 * without touching anything else (outputs, metadata, key order, formatting). */
#ifndef DL_NOTEBOOK_H
#define DL_NOTEBOOK_H
#include <stdbool.h>
#include <stddef.h>

typedef struct DlNotebookLine {
    int cell;      /* 1-based index of the cell among all cells of the notebook */
    int cell_line; /* 1-based line within that cell */
    int file_line; /* 1-based line of the notebook file where that source line's string is */
    /* Columns IPython strips from the start of this line before it runs the cell (the first
     * line's indentation, from every line that starts with it): the program holds the line
     * without them, so a program column + column_shift is the cell's column. */
    int column_shift;
} DlNotebookLine;

typedef struct DlNotebook {
    char *program;       /* code cells joined, each followed by "\n"; NUL-terminated (owned) */
    size_t program_len;
    DlNotebookLine *lines; /* one per program line (owned) */
    size_t line_count;
    void *internal;       /* positions of each code cell's source in the JSON text (owned) */
} DlNotebook;

/* Parses the notebook JSON `json` (len bytes). Code cells (cell_type "code") are joined in
 * order; markdown/raw cells contribute no lines but count in cell numbering. A cell's `source`
 * may be a string or an array of strings. Lines that are IPython magics or shell escapes
 * (`%time x`, `!pip install ...`, `?obj`) are replaced by spaces of the same length; a cell
 * starting with a non-Python cell magic (`%%bash`, `%%sh`, `%%html`, `%%javascript`,
 * `%%writefile`, `%%latex`, `%%markdown`, `%%script`) is masked whole; other `%%` magics
 * (`%%time`) mask only their first line. On error returns false with *error (malloc'ed):
 * "not valid JSON (line L)", "no cells", "cell 3: source is not a string or list of
 * strings", ... */
bool dl_notebook_load(const char *json, size_t len, DlNotebook *out, char **error);

/* The notebook JSON with each code cell's source replaced by the corresponding lines of
 * `new_program` (in the program's columns; it must have the same number of lines per cell as
 * the program it was made from: fixes here edit within lines). Bytes outside the changed source
 * strings are kept exactly; a cell whose lines did not change keeps its original bytes, and so
 * does each unchanged line. Masked magic lines are written back as they were. Returns malloc'ed text
 * (length in *out_len) or NULL with *error. */
char *dl_notebook_write_back(const DlNotebook *nb, const char *json, size_t json_len,
                             const char *new_program, size_t new_len, size_t *out_len,
                             char **error);

/* The notebook JSON with the code cells whose new text is given (cell_texts[n-1] for cell n,
 * NULL: unchanged; in the cell's columns, as dl_notebook_cell_text gives it) written back. A cell that keeps its number of lines changes only the
 * strings of the lines that changed; one whose line count changed (a fix added or removed
 * lines) has its whole source rewritten, one string per line, in the original layout. Masked
 * magic lines are kept; a cell with magics cannot change its line count. */
char *dl_notebook_write_cells(const DlNotebook *nb, const char *json, size_t json_len,
                              const char *const *cell_texts, const size_t *cell_lens,
                              size_t cell_count, size_t *out_len, char **error);

/* The notebook's code cells, in order: each one's 1-based number among all cells, its first
 * line in the program (0-based) and its number of lines; up to `max` written (any array may be
 * NULL). Returns the number of code cells. */
size_t dl_notebook_code_cells(const DlNotebook *nb, int *cells, size_t *first_lines,
                              size_t *line_counts, size_t max);

/* Blanks every line of code cell `cell` (1-based number among all cells) in nb->program, keeping
 * the lines (so positions elsewhere do not move); write-back keeps the cell's text as it was. */
void dl_notebook_mask_cell(DlNotebook *nb, int cell);

/* Code cell `cell`'s lines as the cell holds them (the indentation IPython strips put back;
 * masked lines as the program has them), each ending in "\n": the text a cell's fixes, whose
 * columns are the cell's, apply to. malloc'ed (length in *len), or NULL if there is no such
 * code cell. */
char *dl_notebook_cell_text(const DlNotebook *nb, int cell, size_t *len);

/* Program line `line` (0-based) as its cell holds it, the stripped indentation put back
 * (malloc'ed, NUL-terminated), or NULL past the last line. */
char *dl_notebook_line_text(const DlNotebook *nb, size_t line);

void dl_notebook_free(DlNotebook *nb);

#endif
