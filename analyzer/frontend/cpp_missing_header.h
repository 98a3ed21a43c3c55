/* Where a header the compiler could not find would appear. A C++ file that fails on a missing
 * header (a CPU-only libtorch has no c10/cuda/ headers, so every CUDA file of an extension
 * fails) fails the same way next time while the files the compiler read are unchanged and the
 * header is still missing: its result is cached (driver/cache.h), with these directories among
 * its dependencies. Creating the header anywhere it would be looked for changes the mtime of one
 * of them: the directory it would be created in, or the nearest existing one above it.
 *
 * Looked for: next to the file that includes it (a quoted include), in every include directory
 * of the command (-I -isystem -iquote -idirafter, --cuda-path's include/), and in the system
 * directories the compiler searches without being told (/usr/local/include, /usr/include and its
 * multiarch directory). As for the headers found (cache.h), a new header that would shadow one
 * found in a later directory is not watched. */
#ifndef DL_FRONTEND_CPP_MISSING_HEADER_H
#define DL_FRONTEND_CPP_MISSING_HEADER_H
#include <stddef.h>

/* The directories to watch for `name` (as written in the #include) included from the file
 * `includer` (NULL: the main file's directory is not known), with the command `args`:
 * malloc'ed paths, no duplicates, `*count` of them. */
char **dl_cpp_missing_header_watch(const char *name, const char *includer, char *const *args,
                                   size_t arg_count, size_t *count);

#endif
