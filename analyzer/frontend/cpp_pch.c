/* The PCH cache of the C++ front end (see cpp_pch.h): the prelude scanner, the key, freshness
 * by the .deps sidecar, and building through libclang under a per-key mutex and flock. */
#define _GNU_SOURCE /* dladdr, vasprintf, gettid */
#include "frontend/cpp_pch.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/files.h"
#include "core/hash.h"
#include "core/stat_memo.h"
#include "core/vec.h"
#include "frontend/cpp_parse_guard.h"

typedef DL_VEC(char) CharVec;

static void append(CharVec *v, const char *s, size_t n) {
    dl_vec_reserve(v, v->len + n + 1);
    memcpy(v->items + v->len, s, n);
    v->len += n;
    v->items[v->len] = '\0';
}

/* ---- the prelude ------------------------------------------------------------------------- */

typedef struct Scan {
    const char *p, *end;
} Scan;

static bool at(const Scan *s, const char *word) {
    size_t n = strlen(word);
    return (size_t)(s->end - s->p) >= n && memcmp(s->p, word, n) == 0;
}

static void skip_blanks(Scan *s) {
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\f' || *s->p == '\v'))
        s->p++;
}

/* Skips blanks and comments up to the end of the line; false if something else is there (or a
 * block comment runs past it). */
static bool rest_of_line_empty(Scan *s) {
    for (;;) {
        skip_blanks(s);
        if (s->p >= s->end || *s->p == '\n' || *s->p == '\r') return true;
        if (at(s, "//")) {
            while (s->p < s->end && *s->p != '\n')
                s->p++;
            return true;
        }
        if (!at(s, "/*")) return false;
        const char *q = s->p + 2;
        while (q + 1 < s->end && !(q[0] == '*' && q[1] == '/') && *q != '\n')
            q++;
        if (q + 1 >= s->end || *q == '\n') return false;
        s->p = q + 2;
    }
}

/* Skips whitespace, newlines and comments; false on an unterminated block comment. */
static bool skip_space(Scan *s) {
    for (;;) {
        while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r' ||
                                 *s->p == '\f' || *s->p == '\v'))
            s->p++;
        if (at(s, "//")) {
            while (s->p < s->end && *s->p != '\n')
                s->p++;
        } else if (at(s, "/*")) {
            const char *q = s->p + 2;
            while (q + 1 < s->end && !(q[0] == '*' && q[1] == '/'))
                q++;
            if (q + 1 >= s->end) return false;
            s->p = q + 2;
        } else {
            return true;
        }
    }
}

/* An identifier at the cursor (a directive name, a macro name); empty if none. */
static size_t identifier(Scan *s, const char **start) {
    *start = s->p;
    while (s->p < s->end && (*s->p == '_' || (*s->p >= 'a' && *s->p <= 'z') ||
                             (*s->p >= 'A' && *s->p <= 'Z') || (*s->p >= '0' && *s->p <= '9')))
        s->p++;
    return (size_t)(s->p - *start);
}

static bool has_prefix(const char *s, size_t n, const char *prefix) {
    size_t k = strlen(prefix);
    return n >= k && memcmp(s, prefix, k) == 0;
}

static bool name_is(const char *s, size_t n, const char *name) {
    return n == strlen(name) && memcmp(s, name, n) == 0;
}

/* libtorch: a prelude holding none of these gets no PCH */
static bool is_libtorch(const char *name, size_t n) {
    return has_prefix(name, n, "torch/") || has_prefix(name, n, "ATen/") ||
           has_prefix(name, n, "c10/");
}

/* Heavy library headers worth precompiling (and stable: installed, not the project's). */
static bool is_heavy(const char *name, size_t n) {
    static const char *const prefixes[] = {
        "torch/", "ATen/",  "c10/",       "caffe2/",  "pybind11/", "thrust/",  "cub/",
        "cuda",   "cublas", "cufft",      "curand",   "cusparse",  "cusolver", "cudnn",
        "nccl",   "nvrtc",  "nvToolsExt", "Python.h", NULL};
    for (const char *const *p = prefixes; *p; p++)
        if (has_prefix(name, n, *p)) return true;
    return false;
}

/* The C and C++ standard library: <vector>, <cmath>, <stdio.h>, ... */
static bool is_standard(const char *name, size_t n) {
    static const char *const c_headers[] = {
        "assert.h", "complex.h",   "ctype.h",   "errno.h",  "fenv.h",   "float.h",  "inttypes.h",
        "iso646.h", "limits.h",    "locale.h",  "math.h",   "setjmp.h", "signal.h", "stdalign.h",
        "stdarg.h", "stdatomic.h", "stdbool.h", "stddef.h", "stdint.h", "stdio.h",  "stdlib.h",
        "string.h", "tgmath.h",    "time.h",    "uchar.h",  "wchar.h",  "wctype.h", NULL};
    if (memchr(name, '/', n)) return false;
    if (!memchr(name, '.', n)) return true; /* the C++ headers have no extension */
    for (const char *const *h = c_headers; *h; h++)
        if (name_is(name, n, *h)) return true;
    return false;
}

/* `#ifndef G` directly followed by `#define G` (nothing else): an include guard, which is true
 * in the file's own parse, so what follows is still the file's beginning. */
static bool skip_guard(Scan *s) {
    Scan t = *s;
    const char *g;
    skip_blanks(&t);
    size_t gn = identifier(&t, &g);
    if (!gn || !rest_of_line_empty(&t) || !skip_space(&t) || t.p >= t.end || *t.p != '#')
        return false;
    t.p++;
    skip_blanks(&t);
    const char *d;
    size_t dn = identifier(&t, &d);
    if (!name_is(d, dn, "define")) return false;
    skip_blanks(&t);
    const char *g2;
    size_t g2n = identifier(&t, &g2);
    if (g2n != gn || memcmp(g, g2, gn) != 0 || !rest_of_line_empty(&t)) return false;
    *s = t;
    return true;
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    CharVec buf = {0};
    char chunk[16384];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        append(&buf, chunk, n);
    bool failed = ferror(f);
    fclose(f);
    if (failed || !buf.items) {
        dl_vec_free(&buf);
        return NULL;
    }
    *len = buf.len;
    return buf.items;
}

static bool is_regular(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The directory of search-path flag `flag` at args[*i] ("-I dir" or "-Idir"), else NULL. */
static const char *search_dir(const DlCompileCommand *cmd, size_t *i, const char *flag) {
    const char *a = cmd->args[*i];
    size_t n = strlen(flag);
    if (strncmp(a, flag, n) != 0) return NULL;
    if (a[n]) return a + n;
    return *i + 1 < cmd->arg_count ? cmd->args[++*i] : NULL;
}

/* Where clang finds `#include "name"` written in `from`: from's directory, then the -iquote,
 * -I and -isystem directories in that order. NULL if nowhere (the prelude then just ends).
 * `quote_only`: only where no `<name>` would look (from's directory, -iquote). */
static char *resolve_quoted(const DlCompileCommand *cmd, const char *from, const char *name,
                            size_t n, bool quote_only) {
    const char *slash = strrchr(from, '/');
    char *candidate =
        dl_xasprintf("%.*s/%.*s", slash ? (int)(slash - from) : 1, slash ? from : ".", (int)n, name);
    if (name[0] == '/') {
        free(candidate);
        candidate = dl_xasprintf("%.*s", (int)n, name);
    }
    if (is_regular(candidate)) return candidate;
    static const char *const flags[] = {"-iquote", "-I", "-isystem"};
    size_t flag_count = quote_only ? 1 : sizeof flags / sizeof *flags;
    for (size_t f = 0; f < flag_count && name[0] != '/'; f++) {
        for (size_t i = 0; i < cmd->arg_count; i++) {
            const char *dir = search_dir(cmd, &i, flags[f]);
            if (!dir) continue;
            free(candidate);
            candidate = dl_xasprintf("%s/%.*s", dir, (int)n, name);
            if (is_regular(candidate)) return candidate;
        }
    }
    free(candidate);
    return NULL;
}

/* Would clang fail to find `#include <name>`? Only when it is in none of the directories clang
 * could search: the command's -I/-isystem/-idirafter, the CUDA toolkit's, and every system,
 * C++ library and compiler resource directory of this machine (a superset of clang's list, so
 * "missing" is never a guess). With a sysroot or frameworks in play: never missing. */
static bool angle_include_missing(const DlCompileCommand *cmd, const char *name, size_t n) {
    if (!cmd) return false;
    DL_VEC(char *) dirs = {0};
    for (size_t i = 0; i < cmd->arg_count; i++) {
        const char *a = cmd->args[i];
        const char *next = i + 1 < cmd->arg_count ? cmd->args[i + 1] : "";
        bool xclang_search =
            strcmp(a, "-Xclang") == 0 && (next[0] == '-' && (next[1] == 'i' || next[1] == 'I' ||
                                                             next[1] == 'F' || next[1] == 'n'));
        if (strncmp(a, "--sysroot", 9) == 0 || strncmp(a, "-isysroot", 9) == 0 ||
            strncmp(a, "-F", 2) == 0 || strncmp(a, "-iframework", 11) == 0 || xclang_search) {
            for (size_t k = 0; k < dirs.len; k++)
                free(dirs.items[k]);
            dl_vec_free(&dirs);
            return false;
        }
        static const char *const flags[] = {"-isystem", "-idirafter", "-cxx-isystem", "-I"};
        for (size_t f = 0; f < sizeof flags / sizeof *flags; f++) {
            size_t j = i;
            const char *dir = search_dir(cmd, &j, flags[f]);
            if (dir) {
                dl_vec_push(&dirs, dl_xstrdup(dir));
                i = j;
                break;
            }
        }
        if (strncmp(a, "--cuda-path=", 12) == 0)
            dl_vec_push(&dirs, dl_xasprintf("%s/include", a + 12));
    }
    static const char *const patterns[] = {"/usr/local/include",
                                           "/usr/include",
                                           "/usr/include/*-linux-gnu",
                                           "/usr/include/c++/*",
                                           "/usr/include/*-linux-gnu/c++/*",
                                           "/usr/lib/llvm-*/lib/clang/*/include",
                                           "/usr/lib/clang/*/include",
                                           "/usr/include/clang/*/include",
                                           "/usr/lib/gcc/*/*/include",
                                           "/usr/local/cuda/include"};
    for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
        glob_t g;
        if (glob(patterns[i], GLOB_NOSORT | GLOB_ONLYDIR, NULL, &g) != 0) continue;
        for (size_t k = 0; k < g.gl_pathc; k++)
            dl_vec_push(&dirs, dl_xstrdup(g.gl_pathv[k]));
        globfree(&g);
    }
    bool found = false;
    for (size_t k = 0; k < dirs.len; k++) {
        char *path = dl_xasprintf("%s/%.*s", dirs.items[k], (int)n, name);
        struct stat st;
        found = found || stat(path, &st) == 0;
        free(path);
        free(dirs.items[k]);
    }
    dl_vec_free(&dirs);
    return !found;
}

typedef struct Prelude {
    CharVec text;
    size_t keep; /* up to and including the last heavy include */
    bool libtorch;
} Prelude;

enum { MAX_QUOTED_DEPTH = 8 };

/* Moves the cursor past the rest of a directive's line, and the lines a trailing backslash
 * continues it onto. */
static void skip_directive_line(Scan *s) {
    while (s->p < s->end) {
        const char *nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
        if (!nl) {
            s->p = s->end;
            return;
        }
        const char *last = nl;
        while (last > s->p && (last[-1] == '\r' || last[-1] == ' ' || last[-1] == '\t'))
            last--;
        bool continued = last > s->p && last[-1] == '\\';
        s->p = nl + 1;
        if (!continued) return;
    }
}

/* A header of configuration only (gsplat's Config.h): directives and comments, no code, no
 * #include. Read in the PCH where the file includes it, it is exactly what the file reads, and
 * what follows it is still the file's beginning. */
static bool configuration_only(const char *text, size_t len) {
    Scan s = {text, text + len};
    if (at(&s, "\xEF\xBB\xBF")) s.p += 3;
    bool any = false;
    while (skip_space(&s) && s.p < s.end) {
        if (*s.p != '#') return false;
        s.p++;
        skip_blanks(&s);
        const char *d;
        size_t dn = identifier(&s, &d);
        if (name_is(d, dn, "include") || name_is(d, dn, "include_next") ||
            name_is(d, dn, "import"))
            return false;
        skip_directive_line(&s);
        any = true;
    }
    return any && s.p >= s.end;
}

/* At the line after an `#if`/`#ifdef`/`#ifndef`: does its `#endif` close the file, with only
 * blanks and comments after it and no `#else`/`#elif` of its own (gsplat's `#if
 * GSPLAT_BUILD_LOSSES` around a whole source)? Then the includes it holds are the file's
 * beginning whenever the file has any code at all. */
static bool conditional_wraps_the_rest(Scan s) {
    int depth = 0;
    while (s.p < s.end) {
        const char *line = s.p;
        skip_blanks(&s);
        if (s.p < s.end && *s.p == '#') {
            s.p++;
            skip_blanks(&s);
            const char *d;
            size_t dn = identifier(&s, &d);
            if (name_is(d, dn, "if") || name_is(d, dn, "ifdef") || name_is(d, dn, "ifndef")) {
                depth++;
            } else if (depth == 0 && (name_is(d, dn, "else") || name_is(d, dn, "elif") ||
                                      name_is(d, dn, "elifdef") || name_is(d, dn, "elifndef"))) {
                return false;
            } else if (name_is(d, dn, "endif")) {
                if (depth-- == 0) {
                    skip_directive_line(&s);
                    return skip_space(&s) && s.p >= s.end;
                }
            }
        }
        s.p = line;
        skip_directive_line(&s);
    }
    return false;
}

/* A `#define` or `#undef` on one line: copied into the prelude, it is read in the PCH where the
 * file reads it, before the same includes. */
static bool copy_macro_line(Scan *s, const char *hash, CharVec *out) {
    const char *nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
    const char *end = nl ? nl : s->end;
    const char *last = end;
    while (last > s->p && (last[-1] == '\r' || last[-1] == ' ' || last[-1] == '\t'))
        last--;
    if (last > s->p && last[-1] == '\\') return false; /* continued: kept simple */
    for (const char *c = hash; c + 1 < end; c++)
        if (c[0] == '/' && c[1] == '*') return false; /* a comment that may run on */
    append(out, hash, (size_t)(last - hash));
    append(out, "\n", 1);
    s->p = nl ? nl + 1 : s->end;
    return true;
}

/* Adds the beginning of one file (`path`, NULL when unknown) to `out`. A first directive
 * `#include "x.h"` continues into x.h, whose beginning is then the translation unit's, and
 * ends the prelude there (what follows x.h's prelude is x.h's own code). */
static void scan_prelude(const DlCompileCommand *cmd, const char *path, const char *text,
                         size_t len, int depth, Prelude *out) {
    Scan s = {text, text + len};
    if (at(&s, "\xEF\xBB\xBF")) s.p += 3; /* UTF-8 byte order mark */
    bool included = false, guard_seen = false;
    while (skip_space(&s) && s.p < s.end && *s.p == '#') {
        const char *hash = s.p;
        s.p++;
        skip_blanks(&s);
        const char *d;
        size_t dn = identifier(&s, &d);
        if (name_is(d, dn, "define") || name_is(d, dn, "undef")) {
            if (!copy_macro_line(&s, hash, &out->text)) break;
            continue;
        }
        if ((name_is(d, dn, "if") || name_is(d, dn, "ifdef") || name_is(d, dn, "ifndef")) &&
            !(name_is(d, dn, "ifndef") && !guard_seen && !included && skip_guard(&s))) {
            Scan after = s;
            skip_directive_line(&after);
            if (!conditional_wraps_the_rest(after)) break;
            s = after;
            continue;
        }
        if (name_is(d, dn, "ifndef")) { /* the include guard skip_guard read above */
            guard_seen = true;
            continue;
        }
        if (name_is(d, dn, "pragma")) {
            skip_blanks(&s);
            const char *w;
            size_t wn = identifier(&s, &w);
            if (!name_is(w, wn, "once") || !rest_of_line_empty(&s)) break;
            continue;
        }
        if (!name_is(d, dn, "include")) break;
        skip_blanks(&s);
        if (s.p >= s.end || (*s.p != '<' && *s.p != '"')) break;
        char close = *s.p == '<' ? '>' : '"';
        const char *name = ++s.p;
        while (s.p < s.end && *s.p != close && *s.p != '\n')
            s.p++;
        if (s.p >= s.end || *s.p != close || s.p == name) break;
        size_t n = (size_t)(s.p - name);
        s.p++;
        if (!rest_of_line_empty(&s)) break;
        /* `#include "ATen/ATen.h"` (ChatRWKV's kernels): a library header that is neither
         * beside the file nor in an -iquote directory is found as `<ATen/ATen.h>` is */
        bool library = close == '"' && cmd && path && is_heavy(name, n);
        if (library) {
            char *beside = resolve_quoted(cmd, path, name, n, true);
            library = beside == NULL;
            free(beside);
        }
        if (close == '"' && !library) {
            char *header =
                path && depth < MAX_QUOTED_DEPTH ? resolve_quoted(cmd, path, name, n, false)
                                                 : NULL;
            size_t hlen = 0;
            char *htext = header ? read_file(header, &hlen) : NULL;
            bool configuration = htext && header[0] == '/' && !strchr(header, '"') &&
                                 configuration_only(htext, hlen);
            if (configuration) {
                append(&out->text, "#include \"", 10);
                append(&out->text, header, strlen(header));
                append(&out->text, "\"\n", 2);
            } else if (htext) {
                scan_prelude(cmd, header, htext, hlen, depth + 1, out);
            }
            free(htext);
            free(header);
            if (configuration) continue;
            break;
        }
        bool heavy = is_heavy(name, n);
        if (!heavy && !is_standard(name, n)) {
            /* a header clang will not find adds nothing to the file (clang says it is missing,
             * and the front end reports that): skipped, what follows still gets its PCH */
            if (angle_include_missing(cmd, name, n)) continue;
            break;
        }
        /* a header already in the prelude adds nothing (they all have include guards): one
         * PCH for `#include "kernels.h"` + <torch/extension.h> and for <torch/extension.h> */
        char line[512];
        int ln = snprintf(line, sizeof line, "#include <%.*s>\n", (int)n, name);
        bool again = ln > 0 && (size_t)ln < sizeof line && out->text.len &&
                     memmem(out->text.items, out->text.len, line, (size_t)ln) != NULL;
        if (!again) {
            append(&out->text, "#include <", 10);
            append(&out->text, name, n);
            append(&out->text, ">\n", 2);
        }
        if (heavy && !again) out->keep = out->text.len;
        out->libtorch = out->libtorch || is_libtorch(name, n);
        included = true;
    }
}

char *dl_cpp_pch_prelude(const DlCompileCommand *cmd, const char *text, size_t len) {
    Prelude p = {0};
    scan_prelude(cmd, cmd ? cmd->file : NULL, text, len, 0, &p);
    if (!p.libtorch) {
        dl_vec_free(&p.text);
        return NULL;
    }
    p.text.items[p.keep] = '\0';
    return p.text.items;
}

/* ---- the key ----------------------------------------------------------------------------- */

enum { PCH_FORMAT = 2 }; /* bump when how a PCH is built changes */

/* the key is a chain of hashes: each part seeds the next */
static uint64_t mix(uint64_t h, const void *data, size_t len) {
    return dl_hash_bytes(data, len, h);
}

static uint64_t mix_str(uint64_t h, const char *s) {
    return mix(h, s, strlen(s) + 1); /* with the NUL: ("ab","c") differs from ("a","bc") */
}

static uint64_t pch_key(const DlCompileCommand *cmd, const char *prelude) {
    uint64_t h = 0xcbf29ce484222325ull;
    char format[32];
    snprintf(format, sizeof format, "devlint-pch-%d", PCH_FORMAT);
    h = mix_str(h, format);
    CXString version = clang_getClangVersion();
    h = mix_str(h, clang_getCString(version));
    clang_disposeString(version);
    /* the library itself: two builds of one version need not read each other's PCHs */
    Dl_info info;
    struct stat st;
    if (dladdr((void *)clang_getClangVersion, &info) && info.dli_fname &&
        stat(info.dli_fname, &st) == 0) {
        int64_t id[3] = {(int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
                         (int64_t)st.st_mtim.tv_nsec};
        h = mix(h, id, sizeof id);
    }
    for (size_t i = 0; i < cmd->arg_count; i++)
        h = mix_str(h, cmd->args[i]);
    return mix_str(h, prelude);
}

/* ---- freshness: the .deps sidecar -------------------------------------------------------- */

/* "SIZE SEC NSEC PATH" lines: the .pch first, then every file it includes. The headers are
 * stat'ed through `stats` (the run's memo: every file of a project shares them), the .pch
 * itself never is (this run may have just rebuilt it). */
static bool same_stat(const char *line, const char **path_out, DlStatMemo *stats) {
    long long size, sec, nsec;
    int used = 0;
    if (sscanf(line, "%lld %lld %lld %n", &size, &sec, &nsec, &used) != 3 || !used) return false;
    const char *path = line + used;
    if (path_out) *path_out = path;
    struct stat st;
    return dl_stat_memo_stat(stats, path, &st) == 0 && st.st_size == size &&
           st.st_mtim.tv_sec == sec && st.st_mtim.tv_nsec == nsec;
}

static bool pch_fresh(const char *deps_path, const char *pch_path, DlStatMemo *stats) {
    FILE *f = fopen(deps_path, "r");
    if (!f) return false;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    bool fresh = true, first = true;
    while (fresh && (n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n') line[--n] = '\0';
        const char *path = NULL;
        fresh = same_stat(line, &path, first ? NULL : stats) &&
                (!first || strcmp(path, pch_path) == 0);
        first = false;
    }
    fresh = fresh && !first && !ferror(f);
    free(line);
    fclose(f);
    return fresh;
}

typedef DL_VEC(char *) PathVec;

static void collect_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth,
                              CXClientData data) {
    PathVec *paths = data;
    CXString name = clang_getFileName(file);
    const char *s = clang_getCString(name);
    if (s && *s && !strchr(s, '\n')) dl_vec_push(paths, dl_xstrdup(s));
    clang_disposeString(name);
}

static bool write_stat_line(FILE *f, const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return false;
    fprintf(f, "%lld %lld %lld %s\n", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
            (long long)st.st_mtim.tv_nsec, path);
    return true;
}

/* ---- files ------------------------------------------------------------------------------- */

static char *temp_name(const char *path) {
    return dl_xasprintf("%s.tmp.%ld.%ld", path, (long)getpid(), (long)gettid());
}

/* Writes `text` to `path` through a temporary and a rename, unless it already holds exactly that
 * (the PCH records the prelude's mtime: rewriting it would invalidate a good PCH). */
static bool write_if_changed(const char *path, const char *text) {
    size_t len = strlen(text);
    FILE *f = fopen(path, "rb");
    if (f) {
        char *old = malloc(len + 2);
        if (!old) abort();
        size_t n = fread(old, 1, len + 1, f);
        fclose(f);
        bool same = n == len && memcmp(old, text, len) == 0;
        free(old);
        if (same) return true;
    }
    char *tmp = temp_name(path);
    f = fopen(tmp, "wb");
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f) ok = fclose(f) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok) unlink(tmp);
    free(tmp);
    return ok;
}

/* Leftovers of a builder that died (ours holds the key's lock, so no live one owns them). */
static void remove_stale_temporaries(const char *dir, const char *hex) {
    DIR *d = opendir(dir);
    if (!d) return;
    size_t n = strlen(hex);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, hex, n) != 0 || !strstr(e->d_name, ".tmp.")) continue;
        char *path = dl_xasprintf("%s/%s", dir, e->d_name);
        unlink(path);
        free(path);
    }
    closedir(d);
}

/* ---- eviction: at most PCH_KEEP PCHs, the least recently used go ---------------------- */

enum { PCH_KEEP = 8 }; /* ~80-100 MB each with libtorch */

/* When this process first looked for a PCH, a second early for coarse file timestamps. A PCH
 * used since then is one this run needs: a project with more than PCH_KEEP flag sets would
 * otherwise evict its own PCHs and rebuild them on every run. */
static struct timespec run_started;
static pthread_once_t run_started_once = PTHREAD_ONCE_INIT;

static void note_run_start(void) {
    clock_gettime(CLOCK_REALTIME, &run_started);
    run_started.tv_sec -= 1;
}

/* A PCH's last use is its .lock's mtime: touched by every dl_cpp_pch_for that returns it. */
static void mark_used(const char *lock) {
    utimensat(AT_FDCWD, lock, NULL, 0);
}

typedef struct Aged {
    char *hex;
    struct timespec used;
} Aged;

static int older_first(const void *a, const void *b) {
    const struct timespec *x = &((const Aged *)a)->used, *y = &((const Aged *)b)->used;
    if (x->tv_sec != y->tv_sec) return x->tv_sec < y->tv_sec ? -1 : 1;
    return x->tv_nsec < y->tv_nsec ? -1 : x->tv_nsec > y->tv_nsec;
}

/* Removes one PCH's files (a dead builder's temporaries too), unless someone holds its lock
 * (building it right now). */
static void evict(const char *dir, const char *hex) {
    char *lock = dl_xasprintf("%s/%s.lock", dir, hex);
    int fd = open(lock, O_RDWR | O_CLOEXEC);
    if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0) {
        static const char *const exts[] = {"pch", "deps", "h", "failed"};
        for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
            char *path = dl_xasprintf("%s/%s.%s", dir, hex, exts[i]);
            unlink(path);
            free(path);
        }
        remove_stale_temporaries(dir, hex);
        unlink(lock);
    }
    if (fd >= 0) close(fd);
    free(lock);
}

/* A key with a lock but no PCH, untouched for an hour: a build that failed or was killed (a
 * timeout), whose prelude, lock and half-written temporary (up to ~100 MB) stay behind. */
static bool abandoned(const char *dir, const char *lock_name) {
    char *lock = dl_xasprintf("%s/%s", dir, lock_name);
    char *pch = dl_xasprintf("%s/%.16s.pch", dir, lock_name);
    struct stat st;
    bool old = stat(lock, &st) == 0 && st.st_mtim.tv_sec + 3600 < time(NULL);
    bool gone = old && access(pch, F_OK) != 0;
    free(lock);
    free(pch);
    return gone;
}

static void evict_least_recently_used(const char *dir, const char *keep_hex) {
    DIR *d = opendir(dir);
    if (!d) return;
    DL_VEC(Aged) pchs = {0};
    DL_VEC(char *) leftovers = {0};
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n == 16 + 5 && strcmp(e->d_name + 16, ".lock") == 0 &&
            strncmp(e->d_name, keep_hex, 16) != 0 && abandoned(dir, e->d_name))
            dl_vec_push(&leftovers, strndup(e->d_name, 16));
        if (n != 16 + 4 || strcmp(e->d_name + 16, ".pch") != 0) continue;
        Aged a = {strndup(e->d_name, 16), {0, 0}};
        if (!a.hex) abort();
        char *lock = dl_xasprintf("%s/%s.lock", dir, a.hex);
        struct stat st;
        if (stat(lock, &st) == 0) a.used = st.st_mtim;
        free(lock);
        dl_vec_push(&pchs, a);
    }
    closedir(d);
    if (pchs.len > PCH_KEEP) {
        qsort(pchs.items, pchs.len, sizeof *pchs.items, older_first);
        size_t excess = pchs.len - PCH_KEEP;
        for (size_t i = 0; i < pchs.len && excess > 0; i++) {
            if (strcmp(pchs.items[i].hex, keep_hex) == 0) continue;
            if (older_first(&(Aged){NULL, run_started}, &pchs.items[i]) <= 0)
                break; /* this one and the rest were used by this run */
            evict(dir, pchs.items[i].hex);
            excess--;
        }
    }
    for (size_t i = 0; i < pchs.len; i++)
        free(pchs.items[i].hex);
    dl_vec_free(&pchs);
    for (size_t i = 0; i < leftovers.len; i++) {
        if (leftovers.items[i]) evict(dir, leftovers.items[i]);
        free(leftovers.items[i]);
    }
    dl_vec_free(&leftovers);
}

/* ---- building ---------------------------------------------------------------------------- */

typedef struct PchPaths {
    char *dir, *hex, *pch, *deps, *header, *lock;
} PchPaths;

static void paths_free(PchPaths *p) {
    free(p->dir);
    free(p->hex);
    free(p->pch);
    free(p->deps);
    free(p->header);
    free(p->lock);
}

/* "FILE:LINE: message" of the first error in a file, or NULL if there is none. Errors about
 * the command (a gcc-only flag: "unknown argument") have no file: the PCH is as good as the
 * file's own parse with that command, which reports them itself. */
static char *first_error(CXTranslationUnit tu) {
    unsigned count = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < count; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        char *out = NULL;
        CXFile file = NULL;
        unsigned line = 0;
        clang_getSpellingLocation(clang_getDiagnosticLocation(d), &file, &line, NULL, NULL);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && file) {
            CXString name = clang_getFileName(file);
            CXString msg = clang_getDiagnosticSpelling(d);
            out = dl_xasprintf("%s:%u: %s", clang_getCString(name), line, clang_getCString(msg));
            clang_disposeString(name);
            clang_disposeString(msg);
        }
        clang_disposeDiagnostic(d);
        if (out) return out;
    }
    return NULL;
}

/* The deps sidecar for a PCH just saved: the .pch's own stat, then every included file's. */
static bool write_deps(CXTranslationUnit tu, const PchPaths *p) {
    PathVec included = {0};
    clang_getInclusions(tu, collect_inclusion, &included);
    char *tmp = temp_name(p->deps);
    FILE *f = fopen(tmp, "w");
    bool ok = f && write_stat_line(f, p->pch);
    for (size_t i = 0; i < included.len; i++) {
        ok = ok && write_stat_line(f, included.items[i]);
        free(included.items[i]);
    }
    dl_vec_free(&included);
    if (f) ok = fclose(f) == 0 && ok;
    ok = ok && rename(tmp, p->deps) == 0;
    if (!ok) unlink(tmp);
    free(tmp);
    return ok;
}

static char *build(CXIndex index, const DlCompileCommand *cmd, const char *prelude,
                   const PchPaths *p) {
    if (!write_if_changed(p->header, prelude))
        return dl_xasprintf("%s: cannot write: %s", p->header, strerror(errno));
    DL_VEC(const char *) args = {0};
    for (size_t i = 0; i < cmd->arg_count; i++)
        dl_vec_push(&args, cmd->args[i]);
    if (!cmd->is_cuda) { /* clang has no CUDA header kind: -x cuda serialises as well */
        dl_vec_push(&args, "-x");
        dl_vec_push(&args, "c++-header");
    }
    CXTranslationUnit tu = NULL;
    enum CXErrorCode rc = dl_cpp_parse_guarded(
        index, p->header, args.items, (int)args.len, NULL, 0,
        CXTranslationUnit_ForSerialization | CXTranslationUnit_Incomplete |
            CXTranslationUnit_SkipFunctionBodies,
        &tu, NULL);
    dl_vec_free(&args);
    if (rc != CXError_Success || !tu)
        return dl_xasprintf("%s: libclang could not parse the headers to precompile (error %d)",
                         p->header, (int)rc);
    char *error = first_error(tu);
    if (!error) {
        char *tmp = temp_name(p->pch);
        int saved = clang_saveTranslationUnit(tu, tmp, clang_defaultSaveOptions(tu));
        if (saved != CXSaveError_None)
            error = dl_xasprintf("%s: libclang could not save the PCH (error %d)", tmp, saved);
        else if (rename(tmp, p->pch) != 0)
            error = dl_xasprintf("%s: %s", p->pch, strerror(errno));
        else if (!write_deps(tu, p))
            error = dl_xasprintf("%s: cannot write: %s", p->deps, strerror(errno));
        if (error) unlink(tmp);
        free(tmp);
    }
    clang_disposeTranslationUnit(tu);
    return error;
}

/* ---- process-wide state: per-key build locks and remembered failures --------------------- */

enum { LOCK_STRIPES = 16 };
static pthread_mutex_t build_locks[LOCK_STRIPES] = {[0 ... LOCK_STRIPES - 1] =
                                                        PTHREAD_MUTEX_INITIALIZER};

typedef struct Failure {
    uint64_t key;
    char *error;
} Failure;
static pthread_mutex_t failures_lock = PTHREAD_MUTEX_INITIALIZER;
static DL_VEC(Failure) failures;

static char *remembered_failure(uint64_t key) {
    char *error = NULL;
    pthread_mutex_lock(&failures_lock);
    for (size_t i = 0; i < failures.len && !error; i++)
        if (failures.items[i].key == key) error = dl_xstrdup(failures.items[i].error);
    pthread_mutex_unlock(&failures_lock);
    return error;
}

static void remember_failure(uint64_t key, const char *error) {
    pthread_mutex_lock(&failures_lock);
    dl_vec_push(&failures, ((Failure){key, dl_xstrdup(error)}));
    pthread_mutex_unlock(&failures_lock);
}

void dl_cpp_pch_forget_failures(void) {
    pthread_mutex_lock(&failures_lock);
    for (size_t i = 0; i < failures.len; i++)
        free(failures.items[i].error);
    failures.len = 0;
    pthread_mutex_unlock(&failures_lock);
}

/* A build that failed in an earlier run, less than an hour ago (`<key>.failed`, which holds
 * its error): a prelude clang cannot compile (a CUDA header this libtorch lacks, under an #if
 * read through) is not tried again by every run; the key is evicted an hour after its last
 * try (abandoned), and tried afresh. The error, or NULL. */
static char *failed_recently(const char *failed) {
    struct stat st;
    if (stat(failed, &st) != 0 || st.st_mtim.tv_sec + 3600 < time(NULL)) return NULL;
    size_t len = 0;
    char *error = read_file(failed, &len);
    return error ? error : dl_xstrdup("an earlier run could not build it");
}

/* ---- the entry point --------------------------------------------------------------------- */

/* Under the key's mutex and flock: fresh now (another builder finished), or build. */
static char *build_locked(CXIndex index, const DlCompileCommand *cmd, const char *prelude,
                          const PchPaths *p) {
    int fd = open(p->lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) return dl_xasprintf("%s: %s", p->lock, strerror(errno));
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR) {
    }
    char *error = NULL;
    bool built = false;
    if (!pch_fresh(p->deps, p->pch, NULL)) { /* after waiting: stat everything afresh */
        remove_stale_temporaries(p->dir, p->hex);
        error = build(index, cmd, prelude, p);
        built = !error;
    }
    mark_used(p->lock);
    flock(fd, LOCK_UN);
    close(fd);
    if (built) evict_least_recently_used(p->dir, p->hex);
    return error;
}

char *dl_cpp_pch_for(CXIndex index, const DlCompileCommand *cmd, const char *text, size_t len,
                     const char *cache_dir, char **error) {
    return dl_cpp_pch_for_run(index, cmd, text, len, cache_dir, NULL, error);
}

char *dl_cpp_pch_for_run(CXIndex index, const DlCompileCommand *cmd, const char *text,
                         size_t len, const char *cache_dir, DlStatMemo *stats, char **error) {
    *error = NULL;
    pthread_once(&run_started_once, note_run_start);
    char *prelude = dl_cpp_pch_prelude(cmd, text, len);
    if (!prelude) return NULL;
    uint64_t key = pch_key(cmd, prelude);
    PchPaths p = {0};
    p.dir = dl_xasprintf("%s/pch", cache_dir);
    p.hex = dl_xasprintf("%016" PRIx64, key);
    p.pch = dl_xasprintf("%s/%s.pch", p.dir, p.hex);
    p.deps = dl_xasprintf("%s/%s.deps", p.dir, p.hex);
    p.header = dl_xasprintf("%s/%s.h", p.dir, p.hex);
    p.lock = dl_xasprintf("%s/%s.lock", p.dir, p.hex);
    char *failed = dl_xasprintf("%s/%s.failed", p.dir, p.hex);
    char *result = NULL;
    if (pch_fresh(p.deps, p.pch, stats)) {
        mark_used(p.lock);
        result = p.pch;
        p.pch = NULL;
    } else if ((*error = remembered_failure(key))) {
        /* tried in this process already */
    } else if ((*error = failed_recently(failed))) {
        /* tried by an earlier run */
    } else if (!dl_make_dirs(p.dir)) {
        *error = dl_xasprintf("%s: cannot create: %s", p.dir, strerror(errno));
    } else {
        pthread_mutex_t *lock = &build_locks[key % LOCK_STRIPES];
        pthread_mutex_lock(lock);
        bool failed_meanwhile = (*error = remembered_failure(key)) != NULL;
        if (!failed_meanwhile) *error = build_locked(index, cmd, prelude, &p);
        pthread_mutex_unlock(lock);
        if (*error) {
            if (!failed_meanwhile) {
                remember_failure(key, *error);
                write_if_changed(failed, *error);
            }
        } else {
            unlink(failed); /* a failure more than an hour old, tried again */
            result = p.pch;
            p.pch = NULL;
        }
    }
    paths_free(&p);
    free(failed);
    free(prelude);
    return result;
}

char *dl_cpp_default_cache_dir(void) {
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/') return dl_xasprintf("%s/devlint", xdg);
    const char *home = getenv("HOME");
    if (home && home[0]) return dl_xasprintf("%s/.cache/devlint", home);
    return NULL;
}
