/* The compile command of one C++/CUDA file (see cpp_flags.h): finding and caching
 * compile_commands.json, cleaning an entry's arguments up for libclang (nvcc's included), and
 * the default command. */
#define _GNU_SOURCE /* vasprintf */
#include "frontend/cpp_flags.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/files.h"
#include "core/vec.h"

typedef DL_VEC(char *) ArgVec;
typedef DL_VEC(char) CharVec;

/* ---- strings and paths ------------------------------------------------------------------- */

static void push(ArgVec *v, const char *s) {
    dl_vec_push(v, dl_xstrdup(s));
}

static void push_owned(ArgVec *v, char *s) {
    dl_vec_push(v, s);
}

static void args_free(ArgVec *v) {
    for (size_t i = 0; i < v->len; i++)
        free(v->items[i]);
    dl_vec_free(v);
}

static bool starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool is_one_of(const char *s, const char *const *list) {
    for (; *list; list++)
        if (strcmp(s, *list) == 0) return true;
    return false;
}

/* `abs` without ".", ".." and repeated slashes (lexically: symlinks are not consulted). */
static char *path_normalize(const char *abs) {
    char *out = malloc(strlen(abs) + 2);
    if (!out) abort();
    size_t len = 0;
    for (const char *p = abs; *p;) {
        while (*p == '/')
            p++;
        const char *seg = p;
        while (*p && *p != '/')
            p++;
        size_t n = (size_t)(p - seg);
        if (n == 0 || (n == 1 && seg[0] == '.')) continue;
        if (n == 2 && seg[0] == '.' && seg[1] == '.') {
            while (len > 0 && out[len - 1] != '/')
                len--;
            if (len > 0) len--;
            continue;
        }
        out[len++] = '/';
        memcpy(out + len, seg, n);
        len += n;
    }
    if (len == 0) out[len++] = '/';
    out[len] = '\0';
    return out;
}

/* `path` made absolute against `base` (itself absolute) and normalised. */
static char *path_resolve(const char *base, const char *path) {
    char *joined = path[0] == '/' ? dl_xstrdup(path) : dl_xasprintf("%s/%s", base, path);
    char *norm = path_normalize(joined);
    free(joined);
    return norm;
}

/* Like path_resolve, then realpath when the file exists: how files are compared. */
static char *path_real(const char *base, const char *path) {
    char *abs = path_resolve(base, path);
    char *real = realpath(abs, NULL);
    if (!real) return abs;
    free(abs);
    return real;
}

static char *current_dir(void) {
    char *cwd = getcwd(NULL, 0);
    return cwd ? cwd : dl_xstrdup("/");
}

static char *dir_name(const char *abs) {
    const char *slash = strrchr(abs, '/');
    if (!slash || slash == abs) return dl_xstrdup("/");
    char *dir = strndup(abs, (size_t)(slash - abs));
    if (!dir) abort();
    return dir;
}

static const char *const header_exts[] = {"h", "hh", "hpp", "hxx", "h++", "cuh", "inl", NULL};
static const char *const source_exts[] = {"c",  "cc", "cpp", "cxx", "c++", "C", "cp",
                                          "cu", "m",  "mm",  "o",   "obj", NULL};

bool dl_cpp_is_header_path(const char *path) {
    return is_one_of(dl_path_extension(path), header_exts);
}

static bool is_header(const char *path) {
    return dl_cpp_is_header_path(path);
}

static bool is_cuda_ext(const char *path) {
    const char *ext = dl_path_extension(path);
    return strcmp(ext, "cu") == 0 || strcmp(ext, "cuh") == 0;
}

static bool is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---- CUDA host mode ---------------------------------------------------------------------- */

char *dl_cpp_cuda_path(void) {
    const char *candidates[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        if (!candidates[i] || !candidates[i][0]) continue;
        char *probe = dl_xasprintf("%s/include/cuda.h", candidates[i]);
        bool found = is_file(probe);
        free(probe);
        if (found) return dl_xstrdup(candidates[i]);
    }
    return NULL;
}

/* The flags that make clang read a .cu file in CUDA host mode: device code is parsed for its
 * declarations and kernel launches but never compiled for a GPU, so no GPU arch and no libdevice
 * are needed. Every CUDA command (default or from a database) starts with these; an entry's own
 * --cuda-path comes later and wins. The one place to change when a libclang and a toolkit
 * disagree (clang 14 cannot read CUDA 13's headers: see the front end's per-file error). */
static void add_cuda_host_flags(ArgVec *args) {
    push(args, "-x");
    push(args, "cuda");
    push(args, "--cuda-host-only");
    push(args, "-nocudalib");
    push(args, "-Wno-unknown-cuda-version"); /* a toolkit newer than clang knows: not news */
    char *cuda = dl_cpp_cuda_path();
    if (cuda) push_owned(args, dl_xasprintf("--cuda-path=%s", cuda));
    free(cuda);
}

/* ---- the default command ----------------------------------------------------------------- */

/* The newest /usr/include/python3.N holding Python.h (torch/extension.h includes it). */
static char *python_include_dir(void) {
    DIR *d = opendir("/usr/include");
    if (!d) return NULL;
    char *best = NULL;
    long best_minor = -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!starts_with(e->d_name, "python3.")) continue;
        char *end;
        long minor = strtol(e->d_name + 8, &end, 10);
        if (end == e->d_name + 8 || *end || minor <= best_minor) continue;
        char *probe = dl_xasprintf("/usr/include/%s/Python.h", e->d_name);
        if (is_file(probe)) {
            free(best);
            best = dl_xasprintf("/usr/include/%s", e->d_name);
            best_minor = minor;
        }
        free(probe);
    }
    closedir(d);
    return best;
}

/* libtorch's C++ API (torch/torch.h), Python, and the CUDA headers for C++ files that include
 * cuda_runtime.h (CUDA files get them from --cuda-path). -isystem: their warnings are not ours. */
static void add_default_includes(ArgVec *args, bool cuda) {
    static const char torch_api[] = "/usr/include/torch/csrc/api/include";
    if (dl_is_dir(torch_api)) {
        push(args, "-isystem");
        push(args, torch_api);
    }
    char *python = python_include_dir();
    if (python) {
        push(args, "-isystem");
        push_owned(args, python);
    }
    char *toolkit = cuda ? NULL : dl_cpp_cuda_path();
    if (toolkit) {
        push(args, "-isystem");
        push_owned(args, dl_xasprintf("%s/include", toolkit));
        free(toolkit);
    }
}

static void finish(DlCompileCommand *out, ArgVec *args) {
    dl_vec_push(args, NULL); /* clang_parseTranslationUnit takes a count; others like NULL */
    out->args = args->items;
    out->arg_count = args->len - 1;
}

/* Does the file at `path` name `word`, and not `other` (NULL: no such test), in its first
 * megabyte? */
static bool file_mentions(const char *path, const char *word, const char *other) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    static const size_t most = 1 << 20;
    char *text = malloc(most);
    size_t n = text ? fread(text, 1, most, f) : 0;
    fclose(f);
    bool found = text && memmem(text, n, word, strlen(word)) != NULL &&
                 !(other && memmem(text, n, other, strlen(other)));
    free(text);
    return found;
}

/* A Python extension's source (`PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)`) is built by
 * torch.utils.cpp_extension, which defines the module's name and makes <torch/torch.h> include
 * <torch/extension.h> (pybind11's macros): the same here, for a file that needs it (one that
 * includes <torch/extension.h> itself has both). One name for every file: the flags are part of
 * the PCH's key, and a name per file would build a PCH per file. */
static void add_extension_macros(ArgVec *args, const char *real) {
    if (!file_mentions(real, "PYBIND11_MODULE", "<torch/extension.h>")) return;
    push(args, "-DTORCH_API_INCLUDE_EXTENSION_H");
    push(args, "-DTORCH_EXTENSION_NAME=devlint_extension");
}

static void default_command(const char *real, const char *cwd, DlCompileCommand *out) {
    ArgVec args = {0};
    out->is_cuda = is_cuda_ext(real);
    if (out->is_cuda) {
        add_cuda_host_flags(&args);
    } else {
        push(&args, "-x");
        push(&args, "c++");
    }
    push(&args, "-std=c++17");
    add_default_includes(&args, out->is_cuda);
    add_extension_macros(&args, real);
    finish(out, &args);
    out->directory = dl_xstrdup(cwd);
}

/* ---- compile_commands.json --------------------------------------------------------------- */

typedef struct DbEntry {
    char *directory; /* absolute */
    char *file;      /* absolute; realpath when the file exists */
    char **argv;     /* as written, compiler first */
    size_t argc;
} DbEntry;

typedef struct Db {
    char *path;
    struct timespec mtime;
    off_t size; /* -1: the file could not be stat'ed */
    DL_VEC(DbEntry) entries;
    char *error; /* "PATH: reason" when the database cannot be used */
} Db;

static void db_free(Db *db) {
    for (size_t i = 0; i < db->entries.len; i++) {
        DbEntry *e = &db->entries.items[i];
        free(e->directory);
        free(e->file);
        for (size_t j = 0; j < e->argc; j++)
            free(e->argv[j]);
        free(e->argv);
    }
    dl_vec_free(&db->entries);
    free(db->path);
    free(db->error);
    free(db);
}

/* POSIX shell words: blanks separate, '...' is literal, "..." keeps \" \\ \$ \` escapes, a
 * backslash outside quotes escapes the next character. Enough for what build systems write. */
static void shell_split(const char *s, ArgVec *out) {
    CharVec word = {0};
    bool in_word = false;
    for (const char *p = s; *p; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            if (!in_word) continue;
            dl_vec_push(&word, '\0');
            push_owned(out, word.items);
            word = (CharVec){0};
            in_word = false;
            continue;
        }
        in_word = true;
        if (*p == '\\') {
            if (p[1]) dl_vec_push(&word, *++p);
        } else if (*p == '\'') {
            while (*++p && *p != '\'')
                dl_vec_push(&word, *p);
            if (!*p) break;
        } else if (*p == '"') {
            while (*++p && *p != '"') {
                if (*p == '\\' && p[1] && strchr("\"\\$`", p[1])) p++;
                dl_vec_push(&word, *p);
            }
            if (!*p) break;
        } else {
            dl_vec_push(&word, *p);
        }
    }
    if (in_word) {
        dl_vec_push(&word, '\0');
        push_owned(out, word.items);
    } else {
        dl_vec_free(&word);
    }
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    CharVec buf = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        dl_vec_reserve(&buf, buf.len + n + 1);
        memcpy(buf.items + buf.len, chunk, n);
        buf.len += n;
    }
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (err) {
        dl_vec_free(&buf);
        errno = err;
        return NULL;
    }
    dl_vec_reserve(&buf, buf.len + 1);
    buf.items[buf.len] = '\0';
    *len = buf.len;
    return buf.items;
}

static size_t line_of(const char *text, const char *at) {
    size_t line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* One entry; NULL on success, else the reason. */
static const char *db_entry(const cJSON *item, const char *db_dir, DbEntry *e) {
    if (!cJSON_IsObject(item)) return "is not an object";
    const cJSON *dir = cJSON_GetObjectItemCaseSensitive(item, "directory");
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(item, "file");
    const cJSON *arguments = cJSON_GetObjectItemCaseSensitive(item, "arguments");
    const cJSON *command = cJSON_GetObjectItemCaseSensitive(item, "command");
    if (!cJSON_IsString(dir)) return "has no \"directory\" string";
    if (!cJSON_IsString(file)) return "has no \"file\" string";
    ArgVec argv = {0};
    if (cJSON_IsArray(arguments)) {
        const cJSON *a;
        cJSON_ArrayForEach(a, arguments) {
            if (!cJSON_IsString(a)) {
                args_free(&argv);
                return "has a non-string in \"arguments\"";
            }
            push(&argv, a->valuestring);
        }
    } else if (cJSON_IsString(command)) {
        shell_split(command->valuestring, &argv);
    } else {
        return "has neither \"arguments\" nor \"command\"";
    }
    if (argv.len == 0) {
        args_free(&argv);
        return "has an empty command";
    }
    /* the format wants an absolute directory; a relative one is taken from the database's */
    e->directory = path_resolve(db_dir, dir->valuestring);
    e->file = path_real(e->directory, file->valuestring);
    e->argv = argv.items;
    e->argc = argv.len;
    return NULL;
}

static void db_parse(Db *db, const char *text, size_t len) {
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!root) {
        db->error =
            dl_xasprintf("%s: invalid JSON at line %zu", db->path, line_of(text, end ? end : text));
        return;
    }
    if (!cJSON_IsArray(root)) {
        db->error = dl_xasprintf("%s: expected an array of compile commands", db->path);
        cJSON_Delete(root);
        return;
    }
    char *db_dir = dir_name(db->path);
    size_t index = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, root) {
        DbEntry e = {0};
        const char *why = db_entry(item, db_dir, &e);
        if (why) {
            db->error = dl_xasprintf("%s: entry %zu %s", db->path, index + 1, why);
            break;
        }
        dl_vec_push(&db->entries, e);
        index++;
    }
    free(db_dir);
    cJSON_Delete(root);
}

static Db *db_load(const char *path, const struct stat *st) {
    Db *db = calloc(1, sizeof *db);
    if (!db) abort();
    db->path = dl_xstrdup(path);
    db->mtime = st->st_mtim;
    db->size = st->st_size;
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text) {
        db->error = dl_xasprintf("%s: %s", path, strerror(errno));
        return db;
    }
    db_parse(db, text, len);
    free(text);
    return db;
}

/* Databases by path. Guarded by db_lock, which is also held while a command is built from one
 * (so a reload cannot free an entry in use). */
static pthread_mutex_t db_lock = PTHREAD_MUTEX_INITIALIZER;
static DL_VEC(Db *) db_cache;

/* The database at `path`, loaded or reloaded as needed (a file that cannot be stat'ed is a
 * cached error too, until it appears). Call with db_lock held. */
static Db *db_get_locked(const char *path) {
    struct stat st;
    bool exists = stat(path, &st) == 0;
    int err = errno;
    size_t i = 0;
    while (i < db_cache.len && strcmp(db_cache.items[i]->path, path) != 0)
        i++;
    if (i < db_cache.len) {
        Db *db = db_cache.items[i];
        bool fresh = exists ? db->size == st.st_size && db->mtime.tv_sec == st.st_mtim.tv_sec &&
                                  db->mtime.tv_nsec == st.st_mtim.tv_nsec
                            : db->size < 0;
        if (fresh) return db;
        db_free(db);
    } else {
        dl_vec_push(&db_cache, NULL);
    }
    Db *db;
    if (exists) {
        db = db_load(path, &st);
    } else {
        db = calloc(1, sizeof *db);
        if (!db) abort();
        db->path = dl_xstrdup(path);
        db->size = -1;
        db->error = dl_xasprintf("%s: %s", path, strerror(err));
    }
    db_cache.items[i] = db;
    return db;
}

void dl_cpp_flags_forget(void) {
    pthread_mutex_lock(&db_lock);
    for (size_t i = 0; i < db_cache.len; i++)
        db_free(db_cache.items[i]);
    dl_vec_free(&db_cache);
    pthread_mutex_unlock(&db_lock);
}

/* The nearest compile_commands.json or build/compile_commands.json above `real`. */
static char *find_database(const char *real) {
    char *dir = dir_name(real);
    for (;;) {
        static const char *const names[] = {"compile_commands.json", "build/compile_commands.json"};
        for (size_t i = 0; i < 2; i++) {
            char *candidate = dl_xasprintf("%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", names[i]);
            if (is_file(candidate)) {
                free(dir);
                return candidate;
            }
            free(candidate);
        }
        if (strcmp(dir, "/") == 0) break;
        char *up = dir_name(dir);
        free(dir);
        dir = up;
    }
    free(dir);
    return NULL;
}

/* ---- from an entry to libclang's arguments ----------------------------------------------- */

/* Flags taking a path, made absolute. SEP_JOINED: "-I dir" or "-Idir"; SEP_EQ: "--sysroot dir"
 * or "--sysroot=dir"; EQ: "--cuda-path=dir" only. Longer names before their prefixes. */
typedef enum { SEP_JOINED, SEP_EQ, EQ } PathForm;
static const struct {
    const char *name;
    PathForm form;
} path_flags[] = {
    {"-include-pch", SEP_JOINED}, {"-include", SEP_JOINED},
    {"-imacros", SEP_JOINED},     {"-isystem", SEP_JOINED},
    {"-isysroot", SEP_JOINED},    {"-iquote", SEP_JOINED},
    {"-idirafter", SEP_JOINED},   {"-iframework", SEP_JOINED},
    {"-cxx-isystem", SEP_JOINED}, {"-ivfsoverlay", SEP_JOINED},
    {"-I", SEP_JOINED},           {"-F", SEP_JOINED},
    {"--sysroot", SEP_EQ},        {"--include-directory", SEP_EQ},
    {"--cuda-path", EQ},          {"-fmodule-map-file", EQ},
};

/* A path value as clang must see it: "=dir" is relative to the sysroot, so left alone. */
static char *path_value(const char *directory, const char *value) {
    if (value[0] == '=' || value[0] == '\0') return dl_xstrdup(value);
    return path_resolve(directory, value);
}

/* Handles a path flag at argv[i]: pushes its absolute form, returns how many arguments it
 * used (0: not a path flag). */
static size_t take_path_flag(char **argv, size_t argc, size_t i, const char *directory,
                             ArgVec *out) {
    const char *a = argv[i];
    for (size_t k = 0; k < sizeof path_flags / sizeof *path_flags; k++) {
        const char *name = path_flags[k].name;
        size_t n = strlen(name);
        if (strncmp(a, name, n) != 0) continue;
        PathForm form = path_flags[k].form;
        if (a[n] == '\0' && form != EQ) {
            if (i + 1 >= argc) return 1; /* dangling: dropped */
            push(out, name);
            push_owned(out, path_value(directory, argv[i + 1]));
            return 2;
        }
        if (form == SEP_JOINED && a[n] != '\0') {
            if (strcmp(name, "-I") == 0 && strcmp(a, "-I-") == 0) break; /* not a path */
            char *value = path_value(directory, a + n);
            push_owned(out, dl_xasprintf("%s%s", name, value));
            free(value);
            return 1;
        }
        if (form != SEP_JOINED && a[n] == '=') {
            char *value = path_value(directory, a + n + 1);
            push_owned(out, dl_xasprintf("%s=%s", name, value));
            free(value);
            return 1;
        }
    }
    return 0;
}

/* gcc/clang flags whose separate value must travel with them (so it is not taken for an
 * input file). */
static const char *const gcc_value_flags[] = {"-D",
                                              "-U",
                                              "-Xclang",
                                              "-Xpreprocessor",
                                              "-Xassembler",
                                              "-Xlinker",
                                              "-mllvm",
                                              "-target",
                                              "-arch",
                                              "--param",
                                              "-z",
                                              "-T",
                                              "-u",
                                              "-L",
                                              "-l",
                                              "-A",
                                              "-e",
                                              "-iprefix",
                                              "-iwithprefix",
                                              "-iwithprefixbefore",
                                              "-Xcuda-ptxas",
                                              "-Xcuda-fatbinary",
                                              "-Xarch_host",
                                              "-Xarch_device",
                                              "-Xopenmp-target",
                                              NULL};
/* dropped: build outputs and modes that are not a syntax-only parse */
static const char *const gcc_drop_flags[] = {"-c",
                                             "-S",
                                             "-E",
                                             "-M",
                                             "-MM",
                                             "-MD",
                                             "-MMD",
                                             "-MG",
                                             "-MP",
                                             "-MV",
                                             "--cuda-device-only",
                                             "--cuda-compile-host-device",
                                             "-fsyntax-only",
                                             NULL};
static const char *const gcc_drop_value_flags[] = {
    "-o", "-MF", "-MT", "-MQ", "-MJ", "-dependency-file", "-serialize-diagnostics", NULL};
static const char *const gcc_drop_joined[] = {"-MF", "-MT", "-MQ", "-MJ", NULL};

static bool drop_joined(const char *a) {
    for (const char *const *p = gcc_drop_joined; *p; p++)
        if (starts_with(a, *p)) return true;
    return starts_with(a, "-o") && !starts_with(a, "-obj"); /* -ofile, not -objcmt-... */
}

/* A positional argument: the source file, or another input (object, source) that would make a
 * second job. Anything else (rare: a value of a flag we do not know) is kept. */
static bool is_input(const char *a) {
    return is_one_of(dl_path_extension(a), source_exts) || is_header(a);
}

/* gcc or clang: the arguments after the compiler, cleaned. *lang: the last -x value. */
static void translate_gcc(const DbEntry *e, size_t from, ArgVec *out, const char **lang) {
    for (size_t i = from; i < e->argc; i++) {
        const char *a = e->argv[i];
        bool has_next = i + 1 < e->argc;
        if (is_one_of(a, gcc_drop_flags)) continue;
        if (is_one_of(a, gcc_drop_value_flags)) {
            i++;
            continue;
        }
        if (drop_joined(a)) continue;
        if (strcmp(a, "-x") == 0) {
            if (has_next) *lang = e->argv[++i];
            continue;
        }
        if (starts_with(a, "-x")) {
            *lang = a + 2;
            continue;
        }
        size_t used = take_path_flag(e->argv, e->argc, i, e->directory, out);
        if (used) {
            i += used - 1;
            continue;
        }
        if (is_one_of(a, gcc_value_flags) && has_next) {
            push(out, a);
            push(out, e->argv[++i]);
            continue;
        }
        if (a[0] != '-' && is_input(a)) continue;
        push(out, a);
    }
}

/* nvcc options kept, in their clang spelling: short and long names, forms "-I dir", "-Idir",
 * "-I=dir", "--include-path dir", "--include-path=dir". */
static const struct {
    const char *short_name, *long_name, *clang;
    bool is_path, joined; /* joined: "-Idir" is a form of the short name */
} nvcc_kept[] = {
    {"-isystem", "--system-include", "-isystem", true, true},
    {"-include", "--pre-include", "-include", true, true},
    {"-I", "--include-path", "-I", true, true},
    {"-D", "--define-macro", "-D", false, true},
    {"-U", "--undefine-macro", "-U", false, true},
    {"-std", "--std", "-std=", false, false},
};
/* nvcc options with a separate value that may start with '-' (-Xcompiler -fPIC): dropped
 * with it. */
static const char *const nvcc_dash_value_flags[] = {"-Xcompiler",        "--compiler-options",
                                                    "-Xptxas",           "--ptxas-options",
                                                    "-Xlinker",          "--linker-options",
                                                    "-Xnvlink",          "--nvlink-options",
                                                    "-Xcudafe",          "-Xfatbin",
                                                    "--fatbin-options",  "-Xarchive",
                                                    "--archive-options", NULL};
/* nvcc options that take a separate value otherwise (-gencode arch=...,code=..., -ccbin g++). */
static const char *const nvcc_value_flags[] = {"-gencode",
                                               "--generate-code",
                                               "-arch",
                                               "--gpu-architecture",
                                               "-code",
                                               "--gpu-code",
                                               "-ccbin",
                                               "--compiler-bindir",
                                               "-maxrregcount",
                                               "--maxrregcount",
                                               "-t",
                                               "--threads",
                                               "-odir",
                                               "--output-directory",
                                               "-L",
                                               "--library-path",
                                               "-l",
                                               "--library",
                                               "-rdc",
                                               "--relocatable-device-code",
                                               "-default-stream",
                                               "--default-stream",
                                               "-ftz",
                                               "--ftz",
                                               "-prec-div",
                                               "--prec-div",
                                               "-prec-sqrt",
                                               "--prec-sqrt",
                                               "-fmad",
                                               "--fmad",
                                               "-o",
                                               "--output-file",
                                               "-MF",
                                               "--dependency-output",
                                               "-MT",
                                               "--dependency-target-name",
                                               "-m",
                                               "--machine",
                                               "-ldir",
                                               "--libdevice-directory",
                                               "-split-compile",
                                               "--split-compile",
                                               "-time",
                                               "--time",
                                               "-diag-suppress",
                                               "--diag-suppress",
                                               "-diag-error",
                                               "--diag-error",
                                               "-diag-warn",
                                               "--diag-warn",
                                               "-Werror",
                                               "--Werror",
                                               "--keep-dir",
                                               "-keep-dir",
                                               NULL};

/* The value of option `name` at argv[i]: "name value", "name=value", or (joined, short names
 * only) "namevalue". NULL if argv[i] is not that option. */
static const char *option_value(const DbEntry *e, size_t *i, const char *name, bool joined) {
    const char *a = e->argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return NULL;
    if (a[n] == '\0') return *i + 1 < e->argc ? e->argv[++*i] : NULL;
    if (a[n] == '=') return a + n + 1;
    return joined ? a + n : NULL;
}

/* nvcc: only what clang understands is kept (include paths, macros, the standard). */
static void translate_nvcc(const DbEntry *e, size_t from, ArgVec *out, const char **lang) {
    for (size_t i = from; i < e->argc; i++) {
        const char *a = e->argv[i];
        bool kept = false;
        for (size_t k = 0; !kept && k < sizeof nvcc_kept / sizeof *nvcc_kept; k++) {
            const char *v = option_value(e, &i, nvcc_kept[k].short_name, nvcc_kept[k].joined);
            if (!v) v = option_value(e, &i, nvcc_kept[k].long_name, false);
            if (!v) continue;
            kept = true;
            if (nvcc_kept[k].is_path) {
                push(out, nvcc_kept[k].clang);
                push_owned(out, path_value(e->directory, v));
            } else {
                push_owned(out, dl_xasprintf("%s%s", nvcc_kept[k].clang, v));
            }
        }
        if (kept) continue;
        const char *x = option_value(e, &i, "-x", false);
        if (!x) x = option_value(e, &i, "--x", false);
        if (x) {
            *lang = strcmp(x, "cu") == 0 ? "cuda" : x;
            continue;
        }
        bool has_next = i + 1 < e->argc;
        if (is_one_of(a, nvcc_dash_value_flags) && has_next)
            i++;
        else if (is_one_of(a, nvcc_value_flags) && has_next && e->argv[i + 1][0] != '-')
            i++;
        /* everything else is nvcc's business */
    }
}

static bool is_launcher(const char *name) {
    static const char *const launchers[] = {"ccache", "sccache",    "distcc",
                                            "icecc",  "buildcache", NULL};
    return is_one_of(name, launchers);
}

/* The command for `real` from entry `e` (its own, or borrowed from a nearby source when `real`
 * is a header without one). */
static void command_from_entry(const Db *db, const DbEntry *e, const char *real,
                               DlCompileCommand *out) {
    size_t compiler = 0;
    while (compiler + 1 < e->argc && is_launcher(dl_path_base(e->argv[compiler])))
        compiler++;
    ArgVec flags = {0};
    const char *lang = NULL;
    if (strstr(dl_path_base(e->argv[compiler]), "nvcc"))
        translate_nvcc(e, compiler + 1, &flags, &lang);
    else
        translate_gcc(e, compiler + 1, &flags, &lang);

    /* One language flag, first: the entry's -x, else the file kind; a header borrowing a
     * C++ or CUDA file's command is parsed as that language (clang would take .h for C). */
    out->is_cuda = lang ? strcmp(lang, "cuda") == 0 : is_cuda_ext(e->file);
    if (is_cuda_ext(real)) out->is_cuda = true;
    ArgVec args = {0};
    if (out->is_cuda) {
        add_cuda_host_flags(&args);
    } else if (lang || is_header(real)) {
        push(&args, "-x");
        push(&args, lang ? lang : strcmp(dl_path_extension(e->file), "c") == 0 ? "c" : "c++");
    }
    for (size_t i = 0; i < flags.len; i++)
        push_owned(&args, flags.items[i]);
    dl_vec_free(&flags);
    finish(out, &args);
    out->directory = dl_xstrdup(e->directory);
    out->database = dl_xstrdup(db->path);
}

/* Length of the common leading directories of two absolute paths. */
static size_t common_dirs(const char *a, const char *b) {
    size_t common = 0;
    for (size_t i = 0; a[i] && a[i] == b[i]; i++)
        if (a[i] == '/') common = i + 1;
    return common;
}

static bool same_stem(const char *a, const char *b) {
    const char *an = dl_path_base(a), *bn = dl_path_base(b);
    size_t al = strlen(an) - (strlen(dl_path_extension(an)) + (strchr(an, '.') ? 1 : 0));
    size_t bl = strlen(bn) - (strlen(dl_path_extension(bn)) + (strchr(bn, '.') ? 1 : 0));
    return al == bl && strncmp(an, bn, al) == 0;
}

/* For a header without an entry: the source entry nearest to it (the longest common directory,
 * then the same stem: foo.h takes foo.cpp's command), as clangd does. NULL if none shares more
 * than "/". */
static const DbEntry *nearest_source(const Db *db, const char *real) {
    const DbEntry *best = NULL;
    size_t best_common = 1;
    bool best_stem = false;
    for (size_t i = 0; i < db->entries.len; i++) {
        const DbEntry *e = &db->entries.items[i];
        if (is_header(e->file)) continue;
        /* devlint checks headers for libtorch code: a C file's command would parse it as C */
        if (strcmp(dl_path_extension(e->file), "c") == 0) continue;
        size_t common = common_dirs(real, e->file);
        bool stem = same_stem(real, e->file);
        if (common > best_common || (common == best_common && best && stem && !best_stem)) {
            best = e;
            best_common = common;
            best_stem = stem;
        }
    }
    return best;
}

/* Fills `out` from `db` if it has a command for `real`. Call with db_lock held. */
static bool command_from_db(const Db *db, const char *real, DlCompileCommand *out) {
    for (size_t i = 0; i < db->entries.len; i++) {
        if (strcmp(db->entries.items[i].file, real) == 0) {
            command_from_entry(db, &db->entries.items[i], real, out);
            return true;
        }
    }
    const DbEntry *near = is_header(real) ? nearest_source(db, real) : NULL;
    if (!near) return false;
    command_from_entry(db, near, real, out);
    return true;
}

bool dl_cpp_compile_command(const char *file, const char *db_dir, DlCompileCommand *out,
                            char **error) {
    memset(out, 0, sizeof *out);
    char *cwd = current_dir();
    char *real = path_real(cwd, file);
    char *db_path = NULL;
    if (db_dir) {
        char *dir = path_resolve(cwd, db_dir);
        db_path =
            dl_xasprintf("%s%s", dir,
                      strcmp(dir, "/") == 0 ? "compile_commands.json" : "/compile_commands.json");
        free(dir);
    } else {
        db_path = find_database(real);
    }
    bool ok = true, found = false;
    if (db_path) {
        pthread_mutex_lock(&db_lock);
        const Db *db = db_get_locked(db_path);
        if (db->error) {
            *error = dl_xstrdup(db->error);
            ok = false;
        } else {
            found = command_from_db(db, real, out);
        }
        pthread_mutex_unlock(&db_lock);
    }
    if (ok && !found) default_command(real, cwd, out);
    if (ok) {
        out->file = real;
        real = NULL;
    }
    free(db_path);
    free(real);
    free(cwd);
    return ok;
}

void dl_cpp_compile_command_free(DlCompileCommand *c) {
    if (!c) return;
    for (size_t i = 0; i < c->arg_count; i++)
        free(c->args[i]);
    free(c->args);
    free(c->file);
    free(c->directory);
    free(c->database);
    memset(c, 0, sizeof *c);
}
