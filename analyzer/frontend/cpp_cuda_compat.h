/* What clang needs on top of a CUDA toolkit's own flags to read CUDA 12/13 code in host mode as
 * nvcc does (measured with clang 16 on CUDA 13.0; bench/RESULTS.md):
 *   - clang's CUDA wrapper still includes texture_fetch_functions.h and
 *     texture_indirect_functions.h, which CUDA 12 removed: empty stand-ins, found after the
 *     toolkit's own directories;
 *   - CUDA 13 moved thrust and cub into include/cccl;
 *   - CCCL's type traits use C variadics in device code;
 *   - nvcc's math headers give host code `min` and `max` of two numbers (`int blocks =
 *     min(n / 256, 65535);` in a launcher), which clang's wrapper declares for the device only:
 *     host overloads, force-included (each computes what nvcc's does: the unsigned type when
 *     one side is unsigned, the wider type otherwise).
 * The headers are written once into <cache_dir>/cuda-compat, under names that carry their
 * version, each renamed into place so that concurrent runs never read half of one. */
#ifndef DL_FRONTEND_CPP_CUDA_COMPAT_H
#define DL_FRONTEND_CPP_CUDA_COMPAT_H
#include "core/vec.h"

/* A compiler command line being built (the arguments are not copied). */
typedef DL_VEC(const char *) DlCppArgList;

/* Appends those flags to `args`. Strings it allocates are appended to `owned` (`*owned_count`
 * of them, room for 3 more), for the caller to free after the parse. Without a cache directory
 * (NULL, or one that cannot be written) only the flags that need no file are added. */
void dl_cpp_add_cuda_compat_flags(DlCppArgList *args, const char *cache_dir, char **owned,
                                  size_t *owned_count);

/* The text of the force-included header of host `min`/`max` overloads (for tests). */
const char *dl_cpp_cuda_host_min_max_header(void);

#endif
