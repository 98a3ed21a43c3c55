/* Notebooks whose joined code cells do not parse: the cells to blame are left out, the others
 * checked (see notebook_cells.c). */
#ifndef DL_NOTEBOOK_CELLS_H
#define DL_NOTEBOOK_CELLS_H
#include "core/source.h"
#include "frontend/notebook.h"

/* Blanks in nb->program the code cells that do not parse on their own and rebuilds `program`
 * (the source made from nb->program) from what is left. Returns the malloc'ed note for the
 * file ("cell 3 does not parse ... the other cells were checked"), or NULL when every cell
 * parses alone (nothing changed then: the joined program's own error stands). */
char *dl_notebook_leave_out_bad_cells(DlNotebook *nb, DlSource *program);

#endif
