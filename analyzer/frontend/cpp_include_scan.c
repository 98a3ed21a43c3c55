/* A missing header found from the #include lines alone (see cpp_include_scan.h). */
#include "frontend/cpp_include_scan.h"

#include <ctype.h>
#include <glob.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/files.h"
#include "core/hash.h"
#include "core/vec.h"
#include "frontend/cpp_lex.h"

typedef DL_VEC(char *) PathVec;

enum { MAX_DEPTH = 32, MAX_HEADER_BYTES = 8 << 20, MAX_CONDITIONALS = 256 };

/* A set of 64-bit hashes (0 is never stored: hashes are made odd). */
typedef struct HashSet {
    uint64_t *slots;
    size_t cap, count; /* cap: a power of two, or 0 */
} HashSet;

static bool hash_set_contains(const HashSet *set, uint64_t h) {
    for (size_t i = h & (set->cap - 1); set->cap && set->slots[i]; i = (i + 1) & (set->cap - 1))
        if (set->slots[i] == h) return true;
    return false;
}

static void hash_set_add(HashSet *set, uint64_t h) {
    if (hash_set_contains(set, h)) return;
    if (2 * (set->count + 1) > set->cap) {
        HashSet bigger = {calloc(set->cap ? set->cap * 2 : 64, sizeof(uint64_t)),
                          set->cap ? set->cap * 2 : 64, 0};
        if (!bigger.slots) abort();
        for (size_t i = 0; i < set->cap; i++)
            if (set->slots[i]) hash_set_add(&bigger, set->slots[i]);
        free(set->slots);
        *set = bigger;
    }
    size_t i = h & (set->cap - 1);
    while (set->slots[i]) i = (i + 1) & (set->cap - 1);
    set->slots[i] = h;
    set->count++;
}

struct DlCppIncludeMemo {
    pthread_mutex_t lock;
    HashSet clean; /* (search path, header) pairs whose unconditional includes are all found */
};

DlCppIncludeMemo *dl_cpp_include_memo_new(void) {
    DlCppIncludeMemo *memo = calloc(1, sizeof *memo);
    if (!memo) abort();
    pthread_mutex_init(&memo->lock, NULL);
    return memo;
}

void dl_cpp_include_memo_free(DlCppIncludeMemo *memo) {
    if (!memo) return;
    pthread_mutex_destroy(&memo->lock);
    free(memo->clean.slots);
    free(memo);
}

static bool memo_is_clean(DlCppIncludeMemo *memo, uint64_t key) {
    if (!memo) return false;
    pthread_mutex_lock(&memo->lock);
    bool clean = hash_set_contains(&memo->clean, key);
    pthread_mutex_unlock(&memo->lock);
    return clean;
}

static void memo_add_clean(DlCppIncludeMemo *memo, uint64_t key) {
    if (!memo) return;
    pthread_mutex_lock(&memo->lock);
    hash_set_add(&memo->clean, key);
    pthread_mutex_unlock(&memo->lock);
}

/* Macros only a compile command defines (-D): libtorch's switches for a build whose CUDA
 * headers are generated otherwise (`#ifndef C10_USING_CUSTOM_GENERATED_MACROS` in
 * c10/cuda/CUDAMacros.h and c10/macros/Macros.h guard an `#include` of a header a CPU-only
 * libtorch does not have). The scan decides their conditionals from the command; a file that
 * defines or undefines one itself is left to the compiler. */
static const char *const command_line_macros[] = {"C10_USING_CUSTOM_GENERATED_MACROS",
                                                  "C10_CUDA_NO_CMAKE_CONFIGURE_FILE"};
enum { COMMAND_LINE_MACROS = sizeof command_line_macros / sizeof *command_line_macros };

static int command_line_macro(const char *name, size_t n) {
    for (int i = 0; i < COMMAND_LINE_MACROS; i++)
        if (strlen(command_line_macros[i]) == n && memcmp(command_line_macros[i], name, n) == 0)
            return i;
    return -1;
}

typedef struct Scan {
    PathVec command_dirs; /* the command's include directories, in its order */
    PathVec machine_dirs; /* every other directory the compiler may search on this machine */
    PathVec forced;       /* headers the command includes first (-include, -imacros) */
    unsigned defined;     /* the command_line_macros the command defines (-D), a bit each */
    uint64_t search_hash; /* of command_dirs and defined: what a memo entry holds for */
    const char *main_dir;
    HashSet opened; /* the headers read (their paths' hashes), so that each is read once */
    PathVec found;  /* every header found, in order (DlCppIncludeScan.read) */
    DlStatMemo *stats;
    DlCppIncludeMemo *memo;
    DlCppIncludeScan *out;
} Scan;

/* Directories compilers search without being told, and the ones they find by themselves (C++
 * library, compiler resource directory, CUDA wrappers): more than any one compiler searches,
 * which only makes "missing" rarer. */
static const char *const machine_dir_patterns[] = {
    "/usr/local/include",
    "/usr/include",
    "/usr/include/*-linux-gnu",
    "/usr/include/c++/*",
    "/usr/include/c++/*/backward",
    "/usr/include/*-linux-gnu/c++/*",
    "/usr/lib/gcc/*/*/include",
    "/usr/lib/llvm-*/lib/clang/*/include",
    "/usr/lib/llvm-*/lib/clang/*/include/cuda_wrappers",
    "/usr/lib/clang/*/include",
    "/usr/lib/clang/*/include/cuda_wrappers",
    "/usr/local/lib/clang/*/include",
    "/usr/local/cuda*/include",
    "/usr/local/cuda*/include/cccl",
    "/usr/local/cuda*/targets/*/include",
    "/opt/cuda/include",
    "/usr/lib/cuda/include",
};

static void add_machine_dirs(Scan *s) {
    for (size_t p = 0; p < sizeof machine_dir_patterns / sizeof *machine_dir_patterns; p++) {
        glob_t g;
        if (glob(machine_dir_patterns[p], GLOB_ONLYDIR | GLOB_NOSORT, NULL, &g) != 0) continue;
        for (size_t i = 0; i < g.gl_pathc; i++)
            dl_vec_push(&s->machine_dirs, dl_xstrdup(g.gl_pathv[i]));
        globfree(&g);
    }
    /* the compiler's driver reads these too */
    static const char *const env_paths[] = {"CPATH", "CPLUS_INCLUDE_PATH", "C_INCLUDE_PATH",
                                            "CUDA_HOME", "CUDA_PATH"};
    for (size_t e = 0; e < sizeof env_paths / sizeof *env_paths; e++) {
        const char *value = getenv(env_paths[e]);
        bool cuda = env_paths[e][0] == 'C' && env_paths[e][1] == 'U';
        for (const char *p = value; p && *p;) {
            size_t n = strcspn(p, ":");
            if (n && p[0] == '/')
                dl_vec_push(&s->machine_dirs, dl_xasprintf("%.*s%s", (int)n, p,
                                                           cuda ? "/include" : ""));
            p += n + (p[n] == ':');
        }
    }
}

/* Flags that move the search path in ways the scan does not follow. (-nostdinc and the like
 * only take directories away: the scan's search path stays a superset.) */
static bool unfollowed_flag(const char *a) {
    static const char *const prefixes[] = {
        "--sysroot", "-isysroot", "-iprefix", "-iwithprefix", "-iwithsysroot", "-iframework",
        "-ivfsoverlay", "-cxx-isystem", "-F", "-I-", "--include", "-include-pch",
        "-Xpreprocessor", "-Wp,", "-Xclang=",
    };
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strncmp(a, prefixes[i], strlen(prefixes[i])) == 0) return true;
    return false;
}

/* The command's include directories, and the headers it includes before the file's own
 * (-include, -imacros); false when it has a flag the scan does not follow. Paths in the command
 * are absolute already (cpp_flags.h): a relative one is not followed either. */
static bool add_command_dirs(Scan *s, char *const *args, size_t count) {
    static const char *const flags[] = {"-isystem", "-iquote", "-idirafter", "-I", "-include",
                                        "-imacros"};
    for (size_t i = 0; i < count; i++) {
        const char *a = args[i];
        if (strcmp(a, "-Xclang") == 0) { /* -Xclang -I... would be one */
            if (i + 1 < count && (args[i + 1][0] == '-' && (args[i + 1][1] == 'I' ||
                                                           args[i + 1][1] == 'i')))
                return false;
            i++;
            continue;
        }
        if ((a[0] == '-' && (a[1] == 'D' || a[1] == 'U'))) { /* -DNAME[=value], -D NAME, -U */
            const char *name = a[2] ? a + 2 : i + 1 < count ? args[++i] : "";
            int m = command_line_macro(name, strcspn(name, "="));
            if (m >= 0 && a[1] == 'D') s->defined |= 1u << m;
            if (m >= 0 && a[1] == 'U') s->defined &= ~(1u << m);
            continue;
        }
        if (strncmp(a, "--cuda-path=", 12) == 0) {
            dl_vec_push(&s->command_dirs, dl_xasprintf("%s/include", a + 12));
            continue;
        }
        const char *dir = NULL;
        for (size_t f = 0; f < sizeof flags / sizeof *flags && !dir; f++) {
            size_t n = strlen(flags[f]);
            if (strncmp(a, flags[f], n) != 0) continue;
            if (a[n]) dir = a + n;
            else if (i + 1 < count) dir = args[++i];
            else return false;
        }
        if (dir) {
            if (dir[0] != '/') return false;
            bool header = a[1] == 'i' && (a[2] == 'n' || a[2] == 'm'); /* -include, -imacros */
            dl_vec_push(header ? &s->forced : &s->command_dirs, dl_xstrdup(dir));
        } else if (unfollowed_flag(a)) {
            return false;
        }
    }
    return true;
}

static bool is_file(const Scan *s, const char *path) {
    struct stat st;
    return dl_stat_memo_stat(s->stats, path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* Where `name` is found (the includer's directory, the main file's, the command's, the
 * machine's), or NULL: nowhere. */
static char *find_header(const Scan *s, const char *name, const char *includer_dir) {
    if (name[0] == '/') return is_file(s, name) ? dl_xstrdup(name) : NULL;
    const char *local[2] = {includer_dir, s->main_dir};
    const PathVec *lists[2] = {&s->command_dirs, &s->machine_dirs};
    for (int k = 0; k < 4; k++) {
        size_t n = k < 2 ? 1 : lists[k - 2]->len;
        for (size_t i = 0; i < n; i++) {
            char *path = dl_xasprintf("%s/%s", k < 2 ? local[k] : lists[k - 2]->items[i], name);
            if (is_file(s, path)) return path;
            free(path);
        }
    }
    return NULL;
}

/* A header's bytes; false when it cannot be read or is over MAX_HEADER_BYTES. */
static bool read_whole(const char *path, char **text, size_t *len) {
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f) return false;
    if (fstat(fileno(f), &st) != 0 || st.st_size > MAX_HEADER_BYTES) {
        fclose(f);
        return false;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    if (!buf) abort();
    size_t n = fread(buf, 1, (size_t)st.st_size, f);
    bool ok = !ferror(f);
    fclose(f);
    if (!ok) {
        free(buf);
        return false;
    }
    *text = buf;
    *len = n;
    return true;
}

/* ---------------------------------------------------------------- directives */

typedef struct Cursor {
    const char *p, *end;
} Cursor;

static void skip_blanks(Cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t')) c->p++;
}

static size_t take_identifier(Cursor *c, const char **start) {
    *start = c->p;
    while (c->p < c->end && (*c->p == '_' || (*c->p >= 'a' && *c->p <= 'z') ||
                             (*c->p >= 'A' && *c->p <= 'Z') || (*c->p >= '0' && *c->p <= '9')))
        c->p++;
    return (size_t)(c->p - *start);
}

static bool word_is(const char *s, size_t n, const char *word) {
    return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* What the scan knows of one branch of a conditional. */
typedef enum { BRANCH_UNKNOWN, BRANCH_TAKEN, BRANCH_SKIPPED } Branch;

typedef struct Section {
    Branch branch;    /* the one the text is in now */
    bool all_known;   /* every condition of the chain so far was decided */
    bool taken_before; /* a branch of the chain was taken: the later ones are not */
} Section;

/* The conditional sections open at a point of a file. A header's include guard (`#ifndef X`
 * then `#define X` before anything else) is taken: its inside is what the header says. */
typedef struct Conditionals {
    Section sections[MAX_CONDITIONALS];
    size_t depth;
    unsigned defined; /* bit i: command_line_macros[i] is defined by the command */
    bool any_token;          /* something other than comments came before: no guard now */
    bool guard_pending;      /* the last directive opened a possible guard */
    char guard_name[128];    /* ... for this macro */
    size_t guard_name_len;
} Conditionals;

static bool unconditional(const Conditionals *k) {
    if (k->depth > MAX_CONDITIONALS) return false;
    for (size_t i = 0; i < k->depth; i++)
        if (k->sections[i].branch != BRANCH_TAKEN) return false;
    return true;
}

static void open_section(Conditionals *k, Branch branch) {
    if (k->depth < MAX_CONDITIONALS)
        k->sections[k->depth] = (Section){branch, branch != BRANCH_UNKNOWN, branch == BRANCH_TAKEN};
    k->depth++;
}

/* `#ifdef name` (`when_defined`) or `#ifndef name`: decided for a command-line macro. */
static Branch decide(const Conditionals *k, const char *name, size_t n, bool when_defined) {
    int m = command_line_macro(name, n);
    if (m < 0) return BRANCH_UNKNOWN;
    bool defined = (k->defined >> m) & 1;
    return defined == when_defined ? BRANCH_TAKEN : BRANCH_SKIPPED;
}

/* `#if !defined(X)` / `#if !defined X`: the name, or 0. */
static size_t not_defined_name(Cursor c, const char **name) {
    skip_blanks(&c);
    if (c.p >= c.end || *c.p != '!') return 0;
    c.p++;
    skip_blanks(&c);
    const char *w;
    size_t n = take_identifier(&c, &w);
    if (!word_is(w, n, "defined")) return 0;
    skip_blanks(&c);
    bool paren = c.p < c.end && *c.p == '(';
    if (paren) c.p++;
    skip_blanks(&c);
    n = take_identifier(&c, name);
    skip_blanks(&c);
    if (paren && (c.p >= c.end || *c.p != ')')) return 0;
    return n;
}

/* An include directive's target: its name (malloc'ed) and whether quoted; NULL for a computed
 * include (`#include MACRO`), which the scan cannot follow. NULL too for a quoted name followed
 * by a letter, `_`, a universal character name or a non-ASCII byte: C++ may read that as a
 * string literal with a user-defined suffix (`"a.h"_x`, `"a.h"s`, `"a.h"<U+FEFF>`), which names
 * no file, and include nothing ("expected FILENAME"); which suffixes it takes depends on the
 * compiler and the standard, so none is followed. */
static char *include_target(Cursor c, bool *quoted) {
    skip_blanks(&c);
    if (c.p >= c.end) return NULL;
    char close = *c.p == '"' ? '"' : *c.p == '<' ? '>' : 0;
    if (!close) return NULL;
    *quoted = close == '"';
    const char *start = ++c.p;
    while (c.p < c.end && *c.p != close && *c.p != '\n' && *c.p != '\r') c.p++;
    if (c.p >= c.end || *c.p != close || c.p == start) return NULL;
    unsigned char after = c.p + 1 < c.end ? (unsigned char)c.p[1] : 0;
    if (*quoted && (isalpha(after) || after == '_' || after == '\\' || after >= 0x80)) return NULL;
    char *name = strndup(start, (size_t)(c.p - start));
    if (!name) abort();
    return name;
}

/* An #include the compiler always reads (none under a conditional but a guard). */
typedef struct Include {
    char *name;
    bool quoted;
    unsigned line;
} Include;

typedef DL_VEC(Include) IncludeVec;

/* Whether a macro's replacement list (what follows its name) opens more parentheses than it
 * closes (`TORCH_CHECK(x.is_cuda(), #x "unterminated`): where the macro is used, the compiler
 * gathers the arguments of the call it leaves open over the lines after it, and an #include
 * among them is not included; the scan does not expand macros, so it cannot tell where. */
static bool replacement_opens_parentheses(Cursor c) {
    const char *text = c.p;
    long open = 0;
    if (c.p < c.end && *c.p == '(') /* a function-like macro's parameters */
        while (c.p < c.end && *c.p++ != ')') {}
    while (c.p < c.end) {
        if (*c.p == '"' || (*c.p == '\'' && dl_cpp_starts_char_literal(text, c.p))) {
            c.p = dl_cpp_literal_end(c.p, c.end);
            continue;
        }
        if (*c.p == '(') open++;
        else if (*c.p == ')') open--;
        c.p++;
    }
    return open > 0;
}

/* A directive (`c` starts just after its '#'). false: the file's structure is not understood (an
 * #endif with none open, a macro that may leave parentheses open). An #include between
 * parentheses (`in_parens`) is not followed: in the arguments of a function-like macro the
 * compiler does not include it. */
static bool directive(Conditionals *k, Cursor c, unsigned line, bool in_parens,
                      IncludeVec *out) {
    skip_blanks(&c);
    const char *w;
    size_t n = take_identifier(&c, &w);
    bool pending = k->guard_pending;
    k->guard_pending = false;
    bool first = !k->any_token;
    k->any_token = true;
    if (word_is(w, n, "ifndef") || word_is(w, n, "if")) {
        const char *name = NULL;
        size_t name_len = 0;
        if (word_is(w, n, "ifndef")) {
            skip_blanks(&c);
            name_len = take_identifier(&c, &name);
        } else {
            name_len = not_defined_name(c, &name);
        }
        open_section(k, name_len ? decide(k, name, name_len, false) : BRANCH_UNKNOWN);
        if (first && name_len && name_len < sizeof k->guard_name) {
            k->guard_pending = true;
            memcpy(k->guard_name, name, name_len);
            k->guard_name_len = name_len;
        }
    } else if (word_is(w, n, "ifdef")) {
        skip_blanks(&c);
        const char *name;
        size_t name_len = take_identifier(&c, &name);
        open_section(k, decide(k, name, name_len, true));
    } else if (word_is(w, n, "define") || word_is(w, n, "undef")) {
        skip_blanks(&c);
        const char *name;
        size_t name_len = take_identifier(&c, &name);
        if (command_line_macro(name, name_len) >= 0) return false; /* not the command's alone */
        if (word_is(w, n, "define") && replacement_opens_parentheses(c)) return false;
        if (pending && k->depth == 1 && name_len == k->guard_name_len &&
            memcmp(name, k->guard_name, name_len) == 0)
            k->sections[0] = (Section){BRANCH_TAKEN, true, true};
    } else if (word_is(w, n, "else") || word_is(w, n, "elif") || word_is(w, n, "elifdef") ||
               word_is(w, n, "elifndef")) {
        if (!k->depth) return false;
        Section *sec = k->depth <= MAX_CONDITIONALS ? &k->sections[k->depth - 1] : NULL;
        if (sec && sec->taken_before) {
            sec->branch = BRANCH_SKIPPED;
        } else if (sec && word_is(w, n, "else") && sec->all_known) {
            *sec = (Section){BRANCH_TAKEN, true, true};
        } else if (sec) {
            sec->branch = BRANCH_UNKNOWN;
            sec->all_known = false;
        }
    } else if (word_is(w, n, "endif")) {
        if (!k->depth) return false;
        k->depth--;
    } else if (word_is(w, n, "include") || word_is(w, n, "include_next") ||
               word_is(w, n, "import")) {
        bool quoted = false;
        char *name = unconditional(k) && !in_parens ? include_target(c, &quoted) : NULL;
        if (name) dl_vec_push(out, ((Include){name, quoted, line}));
    }
    return true;
}

/* The end of a directive's line: its line terminator, past lines spliced with a backslash. */
static const char *directive_end(const char *hash, const char *end) {
    for (const char *p = hash + 1; p < end; p++) {
        if (*p != '\n' && *p != '\r') continue; /* a line ends at \n, \r\n or a lone \r */
        const char *line_end = p;
        if (*p == '\r' && p + 1 < end && p[1] == '\n') p++;
        if (line_end[-1] != '\\') return line_end; /* else spliced: the directive goes on */
    }
    return end;
}


/* A directive's text as the preprocessor reads it: lines spliced with a backslash joined, a
 * comment that closes within it a space, the text from a comment that does not (or a line
 * comment) on left out. */
static char *directive_text(const char *p, const char *eol, size_t *len) {
    char *out = malloc((size_t)(eol - p) + 1);
    if (!out) abort();
    size_t n = 0;
    while (p < eol) {
        if (p[0] == '\\' && p + 1 < eol && (p[1] == '\n' || p[1] == '\r')) {
            p += p[1] == '\r' && p + 2 < eol && p[2] == '\n' ? 3 : 2;
        } else if (*p == '"' || *p == '\'') {
            const char *after = dl_cpp_literal_end(p, eol);
            memcpy(out + n, p, (size_t)(after - p));
            n += (size_t)(after - p);
            p = after;
        } else if (p[0] == '/' && p + 1 < eol && p[1] == '*') {
            const char *close = dl_cpp_block_comment_end(p, eol);
            if (!close) break;
            out[n++] = ' ';
            p = close;
        } else if (p[0] == '/' && p + 1 < eol && p[1] == '/') {
            break;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = 0;
    *len = n;
    return out;
}

/* The line ends (\n, \r\n, a lone \r) in [p, end). */
static unsigned line_ends(const char *p, const char *end) {
    unsigned n = 0;
    for (; p < end; p++)
        if (*p == '\n' || (*p == '\r' && !(p + 1 < end && p[1] == '\n'))) n++;
    return n;
}

static void free_includes(IncludeVec *v) {
    for (size_t i = 0; i < v->len; i++) free(v->items[i].name);
    free(v->items);
    memset(v, 0, sizeof *v);
}

/* The file's unconditional #include lines, in order. It walks the text as the preprocessor does
 * for what matters here: comments (a line comment continued by a backslash too), string,
 * character and raw string literals (which may hold a comment opener or "#include"), and directives, which
 * start a line. false: its structure was not understood (see `directive`). */
static bool collect_includes(const char *text, size_t len, unsigned defined, IncludeVec *out) {
    Conditionals k = {.defined = defined};
    const char *p = text, *end = text + len;
    unsigned line = 1;
    bool line_start = true;
    size_t parens = 0; /* open in the code, outside directives */
    while (p < end) {
        char ch = *p;
        if (ch == '\n' || (ch == '\r' && !(p + 1 < end && p[1] == '\n'))) {
            line++; /* \n, and a lone \r, as the compiler (and devlint's line index) count */
            line_start = true;
            p++;
        } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            p++;
        } else if (ch == '\\' && p + 1 < end && (p[1] == '\n' || p[1] == '\r')) {
            p += p[1] == '\r' && p + 2 < end && p[2] == '\n' ? 3 : 2; /* a spliced line */
            line++;
        } else if (ch == '/' && p + 1 < end && p[1] == '/') {
            for (; p < end && *p != '\n' && *p != '\r'; p++)
                if (*p == '\\' && p + 1 < end && (p[1] == '\n' || p[1] == '\r')) {
                    p += p[1] == '\r' && p + 2 < end && p[2] == '\n' ? 2 : 1;
                    line++;
                }
        } else if (ch == '/' && p + 1 < end && p[1] == '*') {
            /* a token after a comment that spans lines starts its line */
            for (p += 2; p < end && !(p[0] == '*' && p + 1 < end && p[1] == '/'); p++)
                if (*p == '\n') line++, line_start = true;
            p = p < end ? p + 2 : end;
        } else if (line_start && (ch == '#' || (ch == '%' && p + 1 < end && p[1] == ':'))) {
            const char *from = p + (ch == '#' ? 1 : 2); /* `%:` is `#` too (a digraph) */
            const char *eol = directive_end(p, end);
            size_t clean_len = 0;
            char *clean = directive_text(from, eol, &clean_len);
            bool ok = directive(&k, (Cursor){clean, clean + clean_len}, line, parens > 0, out);
            free(clean);
            if (!ok) return false;
            /* the rest of the directive: only a comment that goes on past it is left */
            for (p = from, line_start = false; p < eol;) {
                const char *close = NULL;
                /* a raw string in a directive may go on past its line (or, broken, to the end
                 * of the file, as the compiler reads it): the scan does not follow that */
                if (p[0] == 'R' && p + 1 < eol && p[1] == '"') return false;
                if (*p == '"' || *p == '\'') {
                    const char *after = dl_cpp_literal_end(p, eol);
                    line += line_ends(p, after); /* lines spliced on inside it */
                    p = after;
                } else if (p[0] == '/' && p + 1 < eol && p[1] == '*' &&
                           (close = dl_cpp_block_comment_end(p, eol)) != NULL) {
                    for (; p < close; p++)
                        if (*p == '\n') line++;
                } else if (p[0] == '/' && p + 1 < eol && (p[1] == '*' || p[1] == '/')) {
                    break;
                } else {
                    if (*p == '\n') line++;
                    p++;
                }
            }
        } else {
            line_start = false;
            k.any_token = true;
            k.guard_pending = false;
            bool raw_prefix = ch == 'R' && p + 1 < end && p[1] == '"';
            const char *raw = raw_prefix ? dl_cpp_raw_string_end(p + 1, end) : NULL;
            /* a broken raw string: the compiler skips ahead to a quote somewhere, maybe over
             * directives */
            if (raw_prefix && !raw) return false;
            if (raw) {
                for (; p < raw; p++)
                    if (*p == '\n') line++;
            } else if (ch == '"' || (ch == '\'' && dl_cpp_starts_char_literal(text, p))) {
                const char *after = dl_cpp_literal_end(p, end);
                line += line_ends(p, after); /* lines spliced on inside it */
                p = after;
            } else {
                if (ch == '(') parens++;
                else if (ch == ')' && parens) parens--;
                p++;
            }
        }
    }
    return k.depth == 0;
}

static bool follow(Scan *s, const char *path, int depth, bool *understood);

/* Resolves a file's unconditional includes in order, reading each header found as the compiler
 * would, before the rest of the file. true: a missing header was found (in
 * s->out). `*understood` turns false when a file's structure was not. */
static bool scan_file(Scan *s, const char *path, const char *text, size_t len, int depth,
                      bool *understood) {
    IncludeVec includes = {0};
    if (!collect_includes(text, len, s->defined, &includes)) {
        *understood = false;
        free_includes(&includes);
        return false;
    }
    char *includer_dir = dl_path_dir(path);
    bool missing = false;
    for (size_t i = 0; i < includes.len && !missing && *understood; i++) {
        Include *inc = &includes.items[i];
        char *found = find_header(s, inc->name, includer_dir);
        if (!found) {
            s->out->missing = inc->name;
            s->out->includer = dl_xstrdup(path);
            s->out->line = inc->line;
            inc->name = NULL;
            missing = true;
            break;
        }
        dl_vec_push(&s->found, found);
        if (depth < MAX_DEPTH)
            missing = follow(s, found, depth + 1, understood);
    }
    free(includer_dir);
    free_includes(&includes);
    return missing;
}

/* Reads a header once and scans it (a second #include of it is a no-op under its guard or
 * #pragma once; two spellings of one path are read twice, which changes nothing). A header
 * whose includes were all found in this run, with this search path, is not read again: most
 * translation units of a project include <torch/extension.h>, a few thousand headers. */
static bool follow(Scan *s, const char *path, int depth, bool *understood) {
    uint64_t h = dl_hash_bytes(path, strlen(path), 0) | 1;
    uint64_t memo_key = dl_hash_bytes(&h, sizeof h, s->search_hash) | 1;
    if (hash_set_contains(&s->opened, h) || memo_is_clean(s->memo, memo_key)) return false;
    hash_set_add(&s->opened, h);
    char *text = NULL;
    size_t len = 0;
    if (!read_whole(path, &text, &len)) { /* unreadable or huge: what it includes is unknown */
        *understood = false;
        return false;
    }
    bool missing = scan_file(s, path, text, len, depth, understood);
    free(text);
    /* an include skipped above as already open (a cycle) may make this answer too kind; a
     * wrong "clean" only means a missing header is found later or left to the compiler */
    if (!missing && *understood) memo_add_clean(s->memo, memo_key);
    return missing;
}

/* ---------------------------------------------------------------- entry point */

bool dl_cpp_include_scan(const char *path, const char *text, size_t len, char *const *args,
                         size_t arg_count, DlStatMemo *stats, DlCppIncludeMemo *memo,
                         DlCppIncludeScan *out) {
    memset(out, 0, sizeof *out);
    Scan s = {.out = out, .stats = stats, .memo = memo};
    bool followed = add_command_dirs(&s, args, arg_count);
    if (followed) {
        /* a memo entry holds for one search path and one set of the command's macros */
        s.search_hash = dl_hash_bytes(&s.defined, sizeof s.defined, 0);
        for (size_t i = 0; i < s.command_dirs.len; i++)
            s.search_hash = dl_hash_bytes(s.command_dirs.items[i],
                                          strlen(s.command_dirs.items[i]) + 1, s.search_hash);
        add_machine_dirs(&s);
        char *main_dir = dl_path_dir(path);
        s.main_dir = main_dir;
        hash_set_add(&s.opened, dl_hash_bytes(path, strlen(path), 0) | 1);
        bool understood = true, missing = false;
        for (size_t i = 0; i < s.forced.len && !missing && understood; i++) {
            /* a forced header that is missing fails without a line: left to the compiler */
            if (!is_file(&s, s.forced.items[i])) understood = false;
            else missing = follow(&s, s.forced.items[i], 1, &understood);
        }
        if (!missing && understood) scan_file(&s, path, text, len, 0, &understood);
        free(main_dir);
        /* a missing header after a part not understood may be one the compiler never reads */
        if (!understood) {
            free(out->missing);
            free(out->includer);
            out->missing = out->includer = NULL;
        }
    }
    if (out->missing) {
        out->read = s.found.items;
        out->read_count = s.found.len;
    } else {
        for (size_t i = 0; i < s.found.len; i++) free(s.found.items[i]);
        free(s.found.items);
    }
    free(s.opened.slots);
    PathVec *lists[] = {&s.command_dirs, &s.machine_dirs, &s.forced};
    for (size_t l = 0; l < sizeof lists / sizeof *lists; l++) {
        for (size_t i = 0; i < lists[l]->len; i++) free(lists[l]->items[i]);
        free(lists[l]->items);
    }
    return followed;
}

void dl_cpp_include_scan_free(DlCppIncludeScan *scan) {
    free(scan->missing);
    free(scan->includer);
    for (size_t i = 0; i < scan->read_count; i++) free(scan->read[i]);
    free(scan->read);
    memset(scan, 0, sizeof *scan);
}
