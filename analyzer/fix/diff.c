/* Unified diffs of a file before and after its fixes, in the format of GNU `diff -u` (without
 * timestamps, paths as a/PATH and b/PATH) so that `patch -p1` and `git apply` take them.
 *
 * Lines are split at "\n" only and compared with their terminator, as patch splits them: a
 * "\r" stays part of its line, and a last line without "\n" differs from the same line with
 * one (that is what "\ No newline at end of file" marks). The common prefix and suffix are
 * trimmed first; Myers' O((N+M)D) greedy algorithm aligns the rest, which for a few fixes is
 * a few diagonals. Past DL_DIFF_MAX_D differences the rest is shown as one replacement: still
 * a correct patch, only not a minimal one, and the trace stays under ~(D+1)^2 integers. */
#include "fix/fix.h"

#include "core/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { DL_DIFF_CONTEXT = 3, DL_DIFF_MAX_D = 2048 };

typedef struct {
    const char *text;
    size_t len; /* with the "\n" when there is one */
    uint64_t hash;
} DlDiffLine;

typedef DL_VEC(DlDiffLine) DlDiffLines;

/* A maximal run of differing lines: old[old_start, +old_count) became new[new_start, ...). */
typedef struct {
    size_t old_start, old_count, new_start, new_count;
} DlDiffChange;

typedef DL_VEC(DlDiffChange) DlDiffChanges;

static void *dl_diff_xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    return p;
}

static uint64_t dl_diff_hash(const char *s, size_t n) {
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static DlDiffLines dl_diff_split(const char *text, size_t len) {
    DlDiffLines lines = {0};
    size_t start = 0;
    while (start < len) {
        const char *nl = memchr(text + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - text) + 1 : len;
        DlDiffLine line = {text + start, end - start, dl_diff_hash(text + start, end - start)};
        dl_vec_push(&lines, line);
        start = end;
    }
    return lines;
}

static bool dl_diff_line_eq(const DlDiffLine *a, const DlDiffLine *b) {
    return a->hash == b->hash && a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

/* Aligns a[0, n) with b[0, m) and marks the lines that are not part of the alignment. Returns
 * false (marking nothing) when the files differ in more than DL_DIFF_MAX_D lines. */
static bool dl_diff_myers(const DlDiffLine *a, ptrdiff_t n, const DlDiffLine *b, ptrdiff_t m,
                          bool *a_changed, bool *b_changed) {
    ptrdiff_t max = n + m < DL_DIFF_MAX_D ? n + m : DL_DIFF_MAX_D;
    ptrdiff_t *v = dl_diff_xcalloc((size_t)(2 * max + 3), sizeof *v);
    ptrdiff_t *vk = v + max + 1; /* vk[k]: furthest x reached on diagonal k = x - y */
    /* trace[d] holds vk[-d..d] after round d, to walk the path back. */
    ptrdiff_t **trace = dl_diff_xcalloc((size_t)max + 1, sizeof *trace);
    ptrdiff_t found = -1;
    for (ptrdiff_t d = 0; d <= max && found < 0; d++) {
        for (ptrdiff_t k = -d; k <= d; k += 2) {
            ptrdiff_t x = k == -d || (k != d && vk[k - 1] < vk[k + 1]) ? vk[k + 1] : vk[k - 1] + 1;
            ptrdiff_t y = x - k;
            while (x < n && y < m && dl_diff_line_eq(&a[x], &b[y]))
                x++, y++;
            vk[k] = x;
            if (x >= n && y >= m) found = d;
        }
        trace[d] = dl_diff_xcalloc((size_t)(2 * d + 1), sizeof **trace);
        memcpy(trace[d], vk - d, (size_t)(2 * d + 1) * sizeof **trace);
    }
    for (ptrdiff_t d = found, x = n, y = m; d > 0; d--) {
        const ptrdiff_t *prev = trace[d - 1] + (d - 1); /* prev[k] for k in [-(d-1), d-1] */
        ptrdiff_t k = x - y;
        bool down = k == -d || (k != d && prev[k - 1] < prev[k + 1]);
        ptrdiff_t prev_k = down ? k + 1 : k - 1;
        x = prev[prev_k];
        y = x - prev_k;
        if (down)
            b_changed[y] = true; /* the step into round d inserted b[y] */
        else
            a_changed[x] = true; /* or deleted a[x] */
    }
    for (ptrdiff_t d = 0; d <= max && trace[d]; d++)
        free(trace[d]);
    free(trace);
    free(v);
    return found >= 0;
}

/* Pairs the unchanged lines in order and collects the runs between them. */
static DlDiffChanges dl_diff_changes(const bool *a_changed, size_t n, const bool *b_changed,
                                     size_t m) {
    DlDiffChanges changes = {0};
    size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && !a_changed[i] && !b_changed[j]) {
            i++, j++;
            continue;
        }
        DlDiffChange c = {.old_start = i, .new_start = j};
        while (i < n && a_changed[i])
            i++;
        while (j < m && b_changed[j])
            j++;
        c.old_count = i - c.old_start;
        c.new_count = j - c.new_start;
        dl_vec_push(&changes, c);
    }
    return changes;
}

static void dl_diff_emit(FILE *out, char mark, const DlDiffLine *line) {
    fputc(mark, out);
    fwrite(line->text, 1, line->len, out);
    if (line->len == 0 || line->text[line->len - 1] != '\n')
        fputs("\n\\ No newline at end of file\n", out);
}

/* GNU's range syntax: "start,count", the count left out when it is 1, and an empty range
 * named by the line before it. */
static void dl_diff_range(FILE *out, char sign, size_t start, size_t count) {
    if (count == 1)
        fprintf(out, " %c%zu", sign, start + 1);
    else
        fprintf(out, " %c%zu,%zu", sign, count ? start + 1 : start, count);
}

/* Prints changes[first, last] as one hunk with its context. */
static void dl_diff_hunk(FILE *out, const DlDiffLines *a, const DlDiffLines *b,
                         const DlDiffChange *changes, size_t first, size_t last) {
    const DlDiffChange *f = &changes[first], *l = &changes[last];
    size_t before = f->old_start < DL_DIFF_CONTEXT ? f->old_start : DL_DIFF_CONTEXT;
    size_t old_end = l->old_start + l->old_count;
    size_t after = a->len - old_end < DL_DIFF_CONTEXT ? a->len - old_end : DL_DIFF_CONTEXT;
    size_t old_start = f->old_start - before, new_start = f->new_start - before;
    size_t new_end = l->new_start + l->new_count;
    fputs("@@", out);
    dl_diff_range(out, '-', old_start, old_end + after - old_start);
    dl_diff_range(out, '+', new_start, new_end + after - new_start);
    fputs(" @@\n", out);

    size_t i = old_start;
    for (size_t c = first; c <= last; c++) {
        for (; i < changes[c].old_start; i++)
            dl_diff_emit(out, ' ', &a->items[i]);
        for (size_t k = 0; k < changes[c].old_count; k++)
            dl_diff_emit(out, '-', &a->items[i++]);
        for (size_t k = 0; k < changes[c].new_count; k++)
            dl_diff_emit(out, '+', &b->items[changes[c].new_start + k]);
    }
    for (; i < old_end + after; i++)
        dl_diff_emit(out, ' ', &a->items[i]);
}

bool dl_diff_unified(FILE *out, const char *path, const char *old_text, size_t old_len,
                     const char *new_text, size_t new_len) {
    if (old_len == new_len && memcmp(old_text, new_text, old_len) == 0) return false;
    DlDiffLines a = dl_diff_split(old_text, old_len), b = dl_diff_split(new_text, new_len);
    size_t prefix = 0, suffix = 0;
    while (prefix < a.len && prefix < b.len && dl_diff_line_eq(&a.items[prefix], &b.items[prefix]))
        prefix++;
    while (suffix < a.len - prefix && suffix < b.len - prefix &&
           dl_diff_line_eq(&a.items[a.len - 1 - suffix], &b.items[b.len - 1 - suffix]))
        suffix++;

    bool *a_changed = dl_diff_xcalloc(a.len, sizeof *a_changed);
    bool *b_changed = dl_diff_xcalloc(b.len, sizeof *b_changed);
    size_t n = a.len - prefix - suffix, m = b.len - prefix - suffix;
    if (!dl_diff_myers(a.items + prefix, (ptrdiff_t)n, b.items + prefix, (ptrdiff_t)m,
                       a_changed + prefix, b_changed + prefix)) {
        memset(a_changed + prefix, 1, n);
        memset(b_changed + prefix, 1, m);
    }
    DlDiffChanges changes = dl_diff_changes(a_changed, a.len, b_changed, b.len);
    free(a_changed);
    free(b_changed);

    fprintf(out, "--- a/%s\n+++ b/%s\n", path, path);
    /* Changes whose context would touch or overlap (at most 2 * context lines apart) share a
     * hunk, as in GNU diff. */
    for (size_t first = 0; first < changes.len;) {
        size_t last = first;
        while (last + 1 < changes.len &&
               changes.items[last + 1].old_start -
                       (changes.items[last].old_start + changes.items[last].old_count) <=
                   2 * DL_DIFF_CONTEXT)
            last++;
        dl_diff_hunk(out, &a, &b, changes.items, first, last);
        first = last + 1;
    }
    dl_vec_free(&changes);
    dl_vec_free(&a);
    dl_vec_free(&b);
    return true;
}
