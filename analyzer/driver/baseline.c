/* Baselines (--write-baseline, --baseline) and --diff-base: adopting devlint on code that already
 * has findings.
 *
 * A baseline is a JSON document:
 *
 *   {"tool": "devlint", "version": 1, "entries": [
 *     {"rule": "DL101", "path": "src/train.py", "fingerprint": "9f2c0d6e1a4b7c35", "count": 2}]}
 *
 * one entry per (rule, path, fingerprint), where the fingerprint is dl_report_line_hash: the
 * rule, the path and the text of the finding's line, trimmed, but not its number. Moving code
 * keeps a finding in the baseline; editing its line, or adding a third identical one where the
 * baseline counts two, makes it new. Paths are compared as devlint prints them, so a baseline is
 * used from the directory it was written in (the repository root, as a rule).
 *
 * --diff-base asks git which lines of each file with findings were added or changed since a
 * revision (`git diff --unified=0 REV -- PATH`, hunk headers only) and keeps the findings there;
 * a file git does not track is new as a whole. */
#include "driver/baseline.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/vec.h"
#include "report/report.h"
#include "rules/rule.h"

extern char **environ;

enum { DL_BASELINE_VERSION = 1 };

static bool dl_baseline_fail(char **error, const char *fmt, ...) {
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    *error = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (*error) vsnprintf(*error, (size_t)n + 1, fmt, again);
    va_end(again);
    va_end(ap);
    return false;
}

static const char *dl_baseline_path_key(const char *path) {
    path = path ? path : "";
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    return path;
}

/* Drops the findings whose keep[i] is false, freeing them; the order of the rest is kept. */
static void dl_baseline_compact(DlResult *r, const bool *keep) {
    size_t kept = 0;
    for (size_t i = 0; i < r->diag_count; i++) {
        if (keep[i])
            r->diags[kept++] = r->diags[i];
        else
            dl_diag_free(&r->diags[i]);
    }
    r->diag_count = kept;
}

/* ---- baseline entries ---- */

typedef struct DlBaselineEntry {
    const char *rule, *path; /* borrowed: from the findings or the parsed document */
    uint64_t fingerprint;
    long count;
} DlBaselineEntry;

typedef DL_VEC(DlBaselineEntry) DlBaselineEntries;

static int dl_baseline_entry_cmp(const void *pa, const void *pb) {
    const DlBaselineEntry *a = pa, *b = pb;
    int c = strcmp(a->path, b->path);
    if (!c) c = strcmp(a->rule, b->rule);
    if (!c && a->fingerprint != b->fingerprint) c = a->fingerprint < b->fingerprint ? -1 : 1;
    return c;
}

static DlBaselineEntry dl_baseline_entry_of(const DlDiag *d) {
    return (DlBaselineEntry){d->rule->code, dl_baseline_path_key(d->path), dl_report_line_hash(d),
                             1};
}

/* The findings of r, one entry per (path, rule, fingerprint) with how many there are. */
static DlBaselineEntries dl_baseline_collect(const DlResult *r) {
    DlBaselineEntries all = {0};
    for (size_t i = 0; i < r->diag_count; i++)
        dl_vec_push(&all, dl_baseline_entry_of(&r->diags[i]));
    if (all.len > 1) qsort(all.items, all.len, sizeof *all.items, dl_baseline_entry_cmp);
    size_t groups = 0;
    for (size_t i = 0; i < all.len; i++) {
        if (groups && dl_baseline_entry_cmp(&all.items[groups - 1], &all.items[i]) == 0)
            all.items[groups - 1].count++;
        else
            all.items[groups++] = all.items[i];
    }
    all.len = groups;
    return all;
}

/* One entry per line, so that a baseline under version control diffs line by line. */
bool dl_baseline_write(const char *path, const DlResult *r, char **error) {
    FILE *f = fopen(path, "w");
    if (!f) return dl_baseline_fail(error, "cannot write baseline %s: %s", path, strerror(errno));
    DlBaselineEntries entries = dl_baseline_collect(r);
    fprintf(f, "{\n  \"tool\": \"devlint\",\n  \"version\": %d,\n  \"entries\": [",
            DL_BASELINE_VERSION);
    for (size_t i = 0; i < entries.len; i++) {
        const DlBaselineEntry *e = &entries.items[i];
        char fingerprint[17];
        snprintf(fingerprint, sizeof fingerprint, "%016" PRIx64, e->fingerprint);
        cJSON *obj = cJSON_CreateObject();
        cJSON_AddStringToObject(obj, "rule", e->rule);
        cJSON_AddStringToObject(obj, "path", e->path);
        cJSON_AddStringToObject(obj, "fingerprint", fingerprint);
        cJSON_AddNumberToObject(obj, "count", (double)e->count);
        char *text = cJSON_PrintUnformatted(obj);
        if (!text) abort();
        fprintf(f, "%s\n    %s", i ? "," : "", text);
        cJSON_free(text);
        cJSON_Delete(obj);
    }
    fputs(entries.len ? "\n  ]\n}\n" : "]\n}\n", f);
    dl_vec_free(&entries);
    bool failed = ferror(f) != 0;
    if (fclose(f) != 0) failed = true;
    if (failed)
        return dl_baseline_fail(error, "cannot write baseline %s: %s", path, strerror(errno));
    return true;
}

static char *dl_baseline_read_file(const char *path, char **error) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        dl_baseline_fail(error, "cannot read baseline %s: %s", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *grown = realloc(text, cap);
            if (!grown) abort();
            text = grown;
        }
        size_t n = fread(text + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0) break;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        free(text);
        dl_baseline_fail(error, "cannot read baseline %s", path);
        return NULL;
    }
    text[len] = '\0';
    return text;
}

/* The entries of a parsed baseline, borrowing its strings; false with *error if it is not one
 * this devlint can read. */
static bool dl_baseline_parse(const char *path, const cJSON *doc, DlBaselineEntries *out,
                              char **error) {
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(doc, "version");
    const cJSON *entries = cJSON_GetObjectItemCaseSensitive(doc, "entries");
    if (!cJSON_IsObject(doc) || !cJSON_IsNumber(version) || !cJSON_IsArray(entries))
        return dl_baseline_fail(error,
                                "%s is not a devlint baseline (expected an object with \"version\" "
                                "and \"entries\"; write one with --write-baseline)",
                                path);
    if (version->valuedouble != DL_BASELINE_VERSION)
        return dl_baseline_fail(error,
                                "%s: baseline version %g is not supported (this devlint reads "
                                "version %d)",
                                path, version->valuedouble, DL_BASELINE_VERSION);
    int index = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, entries) {
        const cJSON *rule = cJSON_GetObjectItemCaseSensitive(item, "rule");
        const cJSON *file = cJSON_GetObjectItemCaseSensitive(item, "path");
        const cJSON *fp = cJSON_GetObjectItemCaseSensitive(item, "fingerprint");
        const cJSON *count = cJSON_GetObjectItemCaseSensitive(item, "count");
        char *end = NULL;
        uint64_t hash = cJSON_IsString(fp) ? strtoull(fp->valuestring, &end, 16) : 0;
        if (!cJSON_IsString(rule) || !cJSON_IsString(file) || !end || *end ||
            end == fp->valuestring || !cJSON_IsNumber(count) || count->valuedouble < 1)
            return dl_baseline_fail(
                error,
                "%s: entry %d is not {\"rule\", \"path\", \"fingerprint\" (hex), "
                "\"count\" (>= 1)}",
                path, index);
        /* a rule named by its name still matches its code */
        const DlRule *known = dl_rule_find(rule->valuestring);
        dl_vec_push(out, ((DlBaselineEntry){known ? known->code : rule->valuestring,
                                            dl_baseline_path_key(file->valuestring), hash,
                                            (long)count->valuedouble}));
        index++;
    }
    return true;
}

bool dl_baseline_filter(const char *path, DlResult *r, char **error) {
    char *text = dl_baseline_read_file(path, error);
    if (!text) return false;
    cJSON *doc = cJSON_Parse(text);
    free(text);
    if (!doc) return dl_baseline_fail(error, "%s is not a devlint baseline (not valid JSON)", path);
    DlBaselineEntries entries = {0};
    if (!dl_baseline_parse(path, doc, &entries, error)) {
        dl_vec_free(&entries);
        cJSON_Delete(doc);
        return false;
    }
    if (entries.len > 1)
        qsort(entries.items, entries.len, sizeof *entries.items, dl_baseline_entry_cmp);
    bool *keep = calloc(r->diag_count ? r->diag_count : 1, sizeof *keep);
    if (!keep) abort();
    /* findings in report order use up their entry's count; the ones past it are new */
    for (size_t i = 0; i < r->diag_count; i++) {
        DlBaselineEntry key = dl_baseline_entry_of(&r->diags[i]);
        DlBaselineEntry *hit = entries.len ? bsearch(&key, entries.items, entries.len,
                                                     sizeof *entries.items, dl_baseline_entry_cmp)
                                           : NULL;
        keep[i] = !hit || hit->count <= 0;
        if (hit && hit->count > 0) hit->count--;
    }
    dl_baseline_compact(r, keep);
    free(keep);
    dl_vec_free(&entries);
    cJSON_Delete(doc);
    return true;
}

/* ---- --diff-base ---- */

/* Runs git with `args` (NULL-terminated, without "git"), standard input and error closed to
 * /dev/null. Returns its exit status (-1 when it could not be started) and, when `out` is not
 * NULL, what it printed (malloc'ed, NUL-terminated). */
static int dl_git(const char *const *args, char **out) {
    const char *argv[16] = {"git", "--no-optional-locks"};
    size_t argc = 2;
    for (size_t i = 0; args[i] && argc + 1 < sizeof argv / sizeof argv[0]; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;

    int fds[2];
    if (pipe(fds) != 0) return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    pid_t pid;
    int spawned = posix_spawnp(&pid, "git", &actions, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (spawned != 0) {
        close(fds[0]);
        return -1;
    }

    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *grown = realloc(text, cap);
            if (!grown) abort();
            text = grown;
        }
        ssize_t n = read(fds[0], text + len, cap - len - 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        len += (size_t)n;
    }
    close(fds[0]);
    text[len] = '\0';
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            free(text);
            return -1;
        }
    if (out)
        *out = text;
    else
        free(text);
    /* posix_spawnp reports a missing git as exit 127 from the child on some systems */
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

typedef struct DlLineRange {
    int first, last; /* inclusive; lines of the file as it is now */
} DlLineRange;

/* What changed in one file since the revision. */
typedef struct DlChangedFile {
    const char *path; /* borrowed from the findings */
    bool whole;       /* untracked, or outside the repository: every line is new */
    DL_VEC(DlLineRange) ranges;
} DlChangedFile;

/* `@@ -a,b +c,d @@`: the file now has lines c .. c+d-1 where REV had a .. a+b-1; d is 1 when
 * left out and 0 for a pure deletion, which adds no line. */
static void dl_diff_parse_hunks(const char *diff, DlChangedFile *file) {
    for (const char *line = diff; line && *line;) {
        if (strncmp(line, "@@ -", 4) == 0) {
            const char *plus = strstr(line, " +");
            const char *eol = strchr(line, '\n');
            if (plus && (!eol || plus < eol)) {
                char *end;
                long first = strtol(plus + 2, &end, 10), count = 1;
                if (*end == ',') count = strtol(end + 1, &end, 10);
                if (count > 0)
                    dl_vec_push(&file->ranges,
                                ((DlLineRange){(int)first, (int)(first + count - 1)}));
            }
        }
        line = strchr(line, '\n');
        if (line) line++;
    }
}

/* Asks git about one path (relative to the current directory, as git's pathspecs are). */
static bool dl_diff_file(const char *rev, DlChangedFile *file, char **error) {
    size_t n = strlen(file->path) + sizeof ":(literal)";
    char *pathspec = malloc(n);
    if (!pathspec) abort();
    snprintf(pathspec, n, ":(literal)%s", file->path);
    char *diff = NULL;
    const char *diff_args[] = {"diff",
                               "--no-color",
                               "--no-ext-diff",
                               "--no-textconv",
                               "--no-renames",
                               "--unified=0",
                               rev,
                               "--",
                               pathspec,
                               NULL};
    int status = dl_git(diff_args, &diff);
    if (status == 0) {
        dl_diff_parse_hunks(diff, file);
        if (!file->ranges.len) { /* unchanged, or not tracked at all */
            const char *ls_args[] = {"ls-files", "--error-unmatch", "--", pathspec, NULL};
            file->whole = dl_git(ls_args, NULL) != 0;
        }
    } else if (status < 0 || status == 127) {
        free(diff);
        free(pathspec);
        return dl_baseline_fail(error, "--diff-base: cannot run git");
    } else {
        file->whole = true; /* outside the repository: nothing to compare it with */
    }
    free(diff);
    free(pathspec);
    return true;
}

static bool dl_diff_keeps(const DlChangedFile *file, const DlDiag *d) {
    if (file->whole) return true;
    int first = d->cell ? d->file_line : d->line; /* notebooks: the .ipynb file's line */
    int last = first;
    if (!d->cell && d->end_line > d->line) last = d->end_column > 1 ? d->end_line : d->end_line - 1;
    for (size_t i = 0; i < file->ranges.len; i++)
        if (file->ranges.items[i].first <= last && first <= file->ranges.items[i].last) return true;
    return false;
}

bool dl_diff_base_filter(const char *rev, DlResult *r, char **error) {
    size_t n = strlen(rev) + sizeof "^{commit}";
    char *commit = malloc(n);
    if (!commit) abort();
    snprintf(commit, n, "%s^{commit}", rev);
    const char *verify_args[] = {"rev-parse", "--verify", "--quiet", commit, NULL};
    int status = dl_git(verify_args, NULL);
    free(commit);
    if (status != 0) {
        const char *repo_args[] = {"rev-parse", "--git-dir", NULL};
        if (status < 0 || status == 127)
            return dl_baseline_fail(error, "--diff-base: cannot run git");
        if (dl_git(repo_args, NULL) != 0)
            return dl_baseline_fail(error, "--diff-base: the current directory is not in a git "
                                           "repository");
        return dl_baseline_fail(error, "--diff-base: unknown git revision `%s`", rev);
    }

    DL_VEC(DlChangedFile) files = {0};
    bool *keep = calloc(r->diag_count ? r->diag_count : 1, sizeof *keep);
    if (!keep) abort();
    bool ok = true;
    for (size_t i = 0; ok && i < r->diag_count; i++) {
        const char *path = r->diags[i].path ? r->diags[i].path : "";
        DlChangedFile *file = NULL;
        for (size_t j = files.len; j-- > 0 && !file;) /* findings come grouped by path */
            if (strcmp(files.items[j].path, path) == 0) file = &files.items[j];
        if (!file) {
            dl_vec_push(&files, ((DlChangedFile){.path = path}));
            file = &files.items[files.len - 1];
            ok = dl_diff_file(rev, file, error);
        }
        keep[i] = ok && dl_diff_keeps(file, &r->diags[i]);
    }
    if (ok) dl_baseline_compact(r, keep);
    for (size_t j = 0; j < files.len; j++)
        dl_vec_free(&files.items[j].ranges);
    dl_vec_free(&files);
    free(keep);
    return ok;
}
