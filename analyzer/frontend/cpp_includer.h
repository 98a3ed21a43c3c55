/* The source file a header is read inside when it does not compile on its own. A CUDA
 * extension's .cuh often uses `at::` or a macro its .cu includes or defines before it
 * (pytorch_scatter's atomics.cuh), or is named .h but holds device code only a .cu can compile:
 * parsed alone it reports dozens of errors for code that builds. clangd then reads the header
 * as its includer sees it; devlint does the same, with the includer found on disk.
 *
 * Candidates are the C++ and CUDA sources (.cu .cpp .cc .cxx .c++) in the header's directory,
 * its parent, and the parent's other subdirectories (include/ next to src/), whose #include
 * lines name the header's file name; one whose quoted include resolves, from its own directory,
 * to the header itself comes first, then one with the header's stem (foo.cuh, foo.cu), then one
 * in the header's directory. The caller still checks that the includer's translation unit read
 * this very header. A header that only other headers include is followed up to three levels to
 * a source that includes one of them. */
#ifndef DL_FRONTEND_CPP_INCLUDER_H
#define DL_FRONTEND_CPP_INCLUDER_H
#include <stdbool.h>

/* The absolute path (malloc'ed) of the best includer of `header_path` as above, or NULL when
 * none names it. */
char *dl_cpp_find_includer(const char *header_path);

#endif
