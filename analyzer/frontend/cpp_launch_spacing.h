/* Kernel launches written with spaces inside their chevrons, `kernel << <grid, block >> > (args)`
 * (Visual Studio's formatter writes them; graphdeco-inria's diff-gaussian-rasterization has all
 * its launches so). nvcc reads them as launches; clang does not, and every such launch is lost
 * behind an "expected expression". The compiler is handed the text with each such pair joined,
 * `<<< ` and `>>> `, the same length, so every offset and line stays where it was. */
#ifndef DL_FRONTEND_CPP_LAUNCH_SPACING_H
#define DL_FRONTEND_CPP_LAUNCH_SPACING_H
#include <stddef.h>

/* A malloc'ed copy of `text` (NUL-terminated) with the spaced chevrons joined, or NULL when it
 * has none. Comments and string and character literals are left as they are. */
char *dl_cpp_join_spaced_chevrons(const char *text, size_t len);

#endif
