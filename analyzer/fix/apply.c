/* Applying fixes to a source's text: (line, code-point column) -> byte offsets, choosing the
 * fixes that do not collide, and splicing their edits in with the file's own line ending. */
#include "fix/fix.h"

#include "core/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One edit resolved to bytes. `fix` is the fix's rank in the processing order and `seq` the
 * edit's index inside its fix, so equal positions keep a stable, documented order. */
typedef struct {
    size_t start, end;
    const char *text;
    size_t fix, seq;
} DlFixSpan;

/* A fix with its edits resolved, and its sort key: its earliest edit, then its array index. */
typedef struct {
    size_t index;
    size_t first;
    DlFixSpan *spans;
    size_t span_count;
    bool valid;
} DlFixPlan;

static void *dl_fix_xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("devlint: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* Byte offset of (line, column). Positions past a line's text clamp to its end (before the
 * terminator), lines past the file to the end of the file, anything before 1:1 to the start
 * (after a BOM): a rule that is off by one must not make us write into a line ending. */
static size_t dl_fix_offset(const DlSource *src, int line, int column) {
    if (line < 1) {
        line = 1;
        column = 1;
    }
    if ((size_t)line > src->line_count) return src->len;
    size_t length = 0;
    const char *text = dl_source_line(src, line, &length);
    size_t byte = 0;
    /* Step over column - 1 code points: a code point is a lead byte and its continuations. */
    for (int c = 1; c < column && byte < length; c++) {
        byte++;
        while (byte < length && ((unsigned char)text[byte] & 0xC0) == 0x80)
            byte++;
    }
    return (size_t)(text - src->text) + byte;
}

/* The ending the file already uses, taken from its first line; "\n" when it has none. */
static const char *dl_fix_line_ending(const DlSource *src) {
    if (src->line_count < 2) return "\n";
    size_t end = src->line_starts[1]; /* just past line 1's terminator */
    const char *bytes = dl_source_bytes(src);
    if (bytes[end - 1] == '\r') return "\r";
    if (end >= 2 && bytes[end - 2] == '\r') return "\r\n";
    return "\n";
}

static int dl_fix_span_cmp(const void *a, const void *b) {
    const DlFixSpan *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    if (x->fix != y->fix) return x->fix < y->fix ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int dl_fix_plan_cmp(const void *a, const void *b) {
    const DlFixPlan *x = a, *y = b;
    if (x->first != y->first) return x->first < y->first ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Whether spans of two different fixes collide. Ranges collide when they share a byte; an
 * insertion collides with a range it falls strictly inside, and with another insertion at the
 * same point (which text goes first would be arbitrary). Touching ranges do not collide. */
static bool dl_fix_spans_collide(const DlFixSpan *x, const DlFixSpan *y) {
    bool x_insert = x->start == x->end, y_insert = y->start == y->end;
    if (x_insert && y_insert) return x->start == y->start;
    if (x_insert) return y->start < x->start && x->start < y->end;
    if (y_insert) return x->start < y->start && y->start < x->end;
    return x->start < y->end && y->start < x->end;
}

/* Resolves a fix's edits to bytes, sorted. A fix is invalid (never applied) when it has no
 * edits, an edit ends before it starts, or two of its own replaced ranges overlap. */
static DlFixPlan dl_fix_plan(const DlSource *src, const DlFix *fix, size_t index) {
    DlFixPlan plan = {.index = index};
    if (!fix || fix->edit_count == 0) return plan;
    plan.spans = dl_fix_xmalloc(fix->edit_count * sizeof *plan.spans);
    plan.span_count = fix->edit_count;
    for (size_t i = 0; i < fix->edit_count; i++) {
        const DlEdit *e = &fix->edits[i];
        DlFixSpan *s = &plan.spans[i];
        s->start = dl_fix_offset(src, e->line, e->column);
        s->end = dl_fix_offset(src, e->end_line, e->end_column);
        s->text = e->text ? e->text : "";
        s->seq = i;
        if (s->end < s->start) return plan;
    }
    qsort(plan.spans, plan.span_count, sizeof *plan.spans, dl_fix_span_cmp);
    for (size_t i = 1; i < plan.span_count; i++)
        if (plan.spans[i].start < plan.spans[i - 1].end) return plan;
    plan.first = plan.spans[0].start;
    plan.valid = true;
    return plan;
}

static bool dl_fix_collides(const DlFixSpan *taken, size_t taken_count, const DlFixPlan *plan) {
    for (size_t i = 0; i < plan->span_count; i++)
        for (size_t j = 0; j < taken_count; j++)
            if (dl_fix_spans_collide(&plan->spans[i], &taken[j])) return true;
    return false;
}

typedef DL_VEC(char) DlFixBuffer;

static void dl_fix_append(DlFixBuffer *out, const char *bytes, size_t n) {
    if (!n) return;
    dl_vec_reserve(out, out->len + n);
    memcpy(out->items + out->len, bytes, n);
    out->len += n;
}

/* Inserted text speaks "\n" (a "\r\n" in it counts as one); the file gets its own ending. */
static void dl_fix_append_text(DlFixBuffer *out, const char *text, const char *ending) {
    size_t ending_len = strlen(ending);
    for (const char *p = text; *p; p++) {
        if (*p == '\r' && p[1] == '\n') continue;
        if (*p == '\n')
            dl_fix_append(out, ending, ending_len);
        else
            dl_fix_append(out, p, 1);
    }
}

char *dl_fix_apply_marked(const DlSource *src, const DlFix *const *fixes, size_t fix_count,
                          size_t *out_len, bool *taken_fixes) {
    DlFixPlan *plans = dl_fix_xmalloc(fix_count * sizeof *plans);
    for (size_t i = 0; i < fix_count; i++)
        plans[i] = dl_fix_plan(src, fixes[i], i);
    qsort(plans, fix_count, sizeof *plans, dl_fix_plan_cmp);

    DL_VEC(DlFixSpan) taken = {0};
    for (size_t rank = 0; rank < fix_count; rank++) {
        DlFixPlan *plan = &plans[rank];
        bool take = plan->valid && !dl_fix_collides(taken.items, taken.len, plan);
        if (taken_fixes) taken_fixes[plan->index] = take;
        for (size_t i = 0; take && i < plan->span_count; i++) {
            plan->spans[i].fix = rank;
            dl_vec_push(&taken, plan->spans[i]);
        }
        free(plan->spans);
    }
    free(plans);
    /* Insertions sort before a range starting at the same point, so their text lands first. */
    if (taken.len) qsort(taken.items, taken.len, sizeof *taken.items, dl_fix_span_cmp);

    const char *ending = dl_fix_line_ending(src);
    DlFixBuffer out = {0};
    dl_vec_reserve(&out, src->len + 1);
    size_t cursor = 0;
    for (size_t i = 0; i < taken.len; i++) {
        dl_fix_append(&out, dl_source_bytes(src) + cursor, taken.items[i].start - cursor);
        dl_fix_append_text(&out, taken.items[i].text, ending);
        cursor = taken.items[i].end;
    }
    dl_fix_append(&out, dl_source_bytes(src) + cursor, src->len - cursor);
    dl_vec_free(&taken);
    dl_vec_push(&out, '\0');
    *out_len = out.len - 1;
    return out.items;
}

char *dl_fix_apply(const DlSource *src, const DlFix *const *fixes, size_t fix_count,
                   size_t *out_len, size_t *applied_count) {
    bool *taken = dl_fix_xmalloc(fix_count * sizeof *taken);
    char *text = dl_fix_apply_marked(src, fixes, fix_count, out_len, taken);
    size_t count = 0;
    for (size_t i = 0; i < fix_count; i++)
        count += taken[i];
    free(taken);
    if (applied_count) *applied_count = count;
    return text;
}
