/* Where a C++/CUDA file's compile flags come from: a compile_commands.json (given with -p DIR
 * like clang-tidy, else the nearest one found walking up from the file, also in build/), else a
 * default C++17 command with the libtorch and Python include paths this machine has.
 *
 * The result is the argument list for clang_parseTranslationUnit, already cleaned up:
 *   - no compiler (argv[0], nor a ccache/sccache/distcc launcher before it), no source file, no
 *     -c, -o X, -M/-MM/-MD/-MMD/-MG/-MP, -MF/-MT/-MQ/-MJ X;
 *   - every path-taking flag (-I, -isystem, -iquote, -idirafter, -include, -imacros,
 *     -include-pch, -isysroot, --sysroot, -F, --cuda-path; separate or joined) made absolute
 *     against the entry's `directory`, so the caller needs no chdir and identical flags from
 *     different directories stay identical (one PCH for them, see cpp_pch.h);
 *   - nvcc entries reduced to what clang understands: -I/-isystem/-include/-D/-U/-std (short and
 *     long forms) are kept, everything else (-gencode, -arch, --expt-relaxed-constexpr,
 *     --use_fast_math, -Xcompiler X, -ccbin X, ...) is dropped;
 *   - CUDA files (.cu/.cuh, -x cuda, nvcc compiling a .cu) parsed in host mode: the flags come
 *     from one function, cpp_flags.c's add_cuda_host_flags (-x cuda --cuda-host-only -nocudalib
 *     --cuda-path=DIR).
 * A header (.h .hh .hpp .hxx .cuh .inl) that has no entry of its own borrows the entry of the
 * nearest source file in the same database (clangd's heuristic: the longest common directory,
 * then the same stem), parsed in that file's language; else it gets the default command.
 *
 * Parsed databases are cached per path for the whole process (the only state here, guarded by
 * a mutex: files are analysed in parallel) and reread when their size or mtime changes. */
#ifndef DL_FRONTEND_CPP_FLAGS_H
#define DL_FRONTEND_CPP_FLAGS_H
#include <stdbool.h>
#include <stddef.h>

typedef struct DlCompileCommand {
    /* for clang_parseTranslationUnit: no compiler, no source file, no -c/-o/-M* flags;
     * args[arg_count] is NULL */
    char **args;
    size_t arg_count;
    char *file;      /* the file the command is for: absolute, realpath when it exists */
    char *directory; /* the entry's directory (absolute), or the cwd for a default command */
    char *database;  /* path of the compile_commands.json used, or NULL for the default */
    bool is_cuda;    /* .cu/.cuh, or -x cuda / nvcc on a .cu in the entry */
} DlCompileCommand;

/* The command for `file`. db_dir: the -p DIR the user gave, or NULL to search. Returns false
 * with *error = "PATH: reason" (malloc'ed) when the database to use cannot be read or parsed
 * (with -p, also when DIR has none); `out` is then empty. On success *error is untouched and
 * `out` must be freed with dl_cpp_compile_command_free. Thread-safe. */
bool dl_cpp_compile_command(const char *file, const char *db_dir, DlCompileCommand *out,
                            char **error);
void dl_cpp_compile_command_free(DlCompileCommand *c);

/* A header's extension (.h .hh .hpp .hxx .h++ .cuh .inl). */
bool dl_cpp_is_header_path(const char *path);

/* The CUDA toolkit the CUDA flags point at: $CUDA_HOME, $CUDA_PATH, then /usr/local/cuda (the
 * first that has include/cuda.h); NULL if none, else malloc'ed. */
char *dl_cpp_cuda_path(void);

/* Forgets every cached database (tests, and the language server when asked to reload). */
void dl_cpp_flags_forget(void);

#endif
