/* Small queries over the program model shared by the dataflow engine and the rules. */
#define _GNU_SOURCE /* memmem */
#include "ir/ir.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

/* dl_expr_extra() reads the extra right after the expression: it must be aligned there. */
_Static_assert(sizeof(DlExpr) % _Alignof(DlExprExtra) == 0, "DlExprExtra after a DlExpr");
#if UINTPTR_MAX == 0xffffffffffffffffu /* the sizes the memory figures (docs/memory.md) assume */
_Static_assert(sizeof(DlExpr) == 48, "DlExpr grew: a project holds millions");
_Static_assert(sizeof(DlStmt) == 48, "DlStmt grew: a project holds hundreds of thousands");
#endif
_Static_assert(DL_EXF_EXTRA <= UINT8_MAX, "DlExpr.flags is one byte");

const DlStmtParts dl_stmt_no_parts;

DlStmtParts *dl_stmt_own_parts(DlArena *arena, DlStmt *s) {
    if (s->parts == &dl_stmt_no_parts || !s->parts)
        s->parts = dl_arena_alloc(arena, sizeof *s->parts);
    return s->parts;
}

const char *dl_ir_span_text(DlArena *arena, const DlSource *src, DlSpan span) {
    if (span.end > src->len || span.start > span.end) return "";
    return dl_arena_strndup(arena, src->text + span.start, span.end - span.start);
}

/* The brackets `t[0..n)` leaves open (outside string literals, roughly), innermost last; at
 * most `max` of them. */
static size_t open_brackets(const char *t, size_t n, char *open, size_t max) {
    size_t depth = 0;
    char quote = 0;
    for (size_t i = 0; i < n; i++) {
        char c = t[i];
        if (quote) {
            if (c == '\\' && i + 1 < n) i++;
            else if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            if (depth < max) open[depth] = c;
            depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth) {
            depth--;
        }
    }
    return depth < max ? depth : max;
}

const char *dl_ir_cut(DlArena *arena, const char *text, size_t keep) {
    char open[8];
    size_t depth = open_brackets(text, keep, open, sizeof open);
    char *s = dl_arena_alloc(arena, keep + 4 + depth);
    memcpy(s, text, keep);
    memcpy(s + keep, "...", 3);
    for (size_t i = 0; i < depth; i++) {
        char c = open[depth - 1 - i];
        s[keep + 3 + i] = c == '(' ? ')' : c == '[' ? ']' : '}';
    }
    s[keep + 3 + depth] = '\0';
    return s;
}

size_t dl_ir_comment_start(const char *t, size_t n, char *quote) {
    for (size_t i = 0; i < n; i++) {
        if (*quote && t[i] == '\\') {
            i++; /* an escaped character, a quote among them */
        } else if (t[i] == '\'' || t[i] == '"') {
            *quote = !*quote ? t[i] : *quote == t[i] ? 0 : *quote;
        } else if (!*quote && t[i] == '#') {
            return i;
        }
    }
    return n;
}

const char *dl_ir_span_snippet(DlArena *arena, const DlSource *src, DlSpan span) {
    enum { MAX = 80 };
    if (span.end > src->len || span.start > span.end) return "";
    const char *t = src->text + span.start;
    size_t n = span.end - span.start;
    if (n <= MAX && !memchr(t, '\n', n) && !memchr(t, '\r', n))
        return dl_arena_strndup(arena, t, n);
    char *flat = dl_arena_alloc(arena, n + 1); /* every run of blanks and breaks one space */
    size_t len = 0;
    char quote = 0; /* inside a string literal opened by this quote */
    for (size_t line = 0; line < n;) {
        const char *nl = memchr(t + line, '\n', n - line);
        size_t end = nl ? (size_t)(nl - t) + 1 : n; /* the line with its break */
        /* a comment of a call written over lines ends at the line's break */
        size_t comment = line + dl_ir_comment_start(t + line, end - line, &quote);
        for (size_t i = line; i < end; i++) {
            if (i >= comment && t[i] != '\n') continue;
            bool blank = t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r';
            if (!blank) {
                flat[len++] = t[i];
            } else if (len && flat[len - 1] != ' ') {
                flat[len++] = ' ';
            }
        }
        line = end;
    }
    while (len && flat[len - 1] == ' ') len--;
    /* no space just inside brackets: `generate( model` reads `generate(model` */
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (flat[i] == ' ' && k && (flat[k - 1] == '(' || flat[k - 1] == '[' || flat[k - 1] == '{'))
            continue;
        if ((flat[i] == ')' || flat[i] == ']' || flat[i] == '}') && k && flat[k - 1] == ' ')
            k--;
        flat[k++] = flat[i];
    }
    flat[k] = '\0';
    return k <= MAX ? flat : dl_ir_cut(arena, flat, MAX - 3);
}

bool dl_ir_span_mentions(const DlSource *src, DlSpan span, const char *needle) {
    size_t n = strlen(needle);
    if (span.end > src->len || span.end < span.start + n) return false;
    return memmem(src->text + span.start, span.end - span.start, needle, n) != NULL;
}

bool dl_ir_span_mentions_in_code(const DlSource *src, DlSpan span, const char *needle) {
    size_t n = strlen(needle);
    if (span.end > src->len || span.end < span.start + n) return false;
    const char *start = src->text + span.start, *end = src->text + span.end;
    for (const char *p = start; p + n <= end;) {
        const char *hit = memmem(p, (size_t)(end - p), needle, n);
        if (!hit) return false;
        const char *line = hit;
        while (line > src->text && line[-1] != '\n')
            line--;
        if (!memchr(line, '#', (size_t)(hit - line))) return true;
        p = hit + 1;
    }
    return false;
}

bool dl_ir_is_dotted_name(const char *s) {
    if (!s || !*s || isdigit((unsigned char)*s)) return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.') return false;
    return true;
}

static size_t dotted_len(const DlExpr *e) {
    if (!e) return 0;
    if (e->kind == DL_EX_NAME) return strlen(e->name);
    if (e->kind == DL_EX_ATTR) {
        size_t inner = dotted_len(e->object);
        return inner ? inner + 1 + strlen(e->name) : 0;
    }
    return 0;
}

static char *dotted_write(const DlExpr *e, char *out) {
    if (e->kind == DL_EX_ATTR) {
        out = dotted_write(e->object, out);
        *out++ = '.';
    }
    size_t n = strlen(e->name);
    memcpy(out, e->name, n);
    return out + n;
}

const char *dl_ir_dotted(DlArena *arena, const DlExpr *e) {
    size_t n = dotted_len(e);
    if (!n) return NULL;
    char *s = dl_arena_alloc(arena, n + 1);
    *dotted_write(e, s) = '\0';
    return s;
}

const DlArg *dl_ir_keyword(const DlExpr *call, const char *keyword) {
    if (!call || call->kind != DL_EX_CALL) return NULL;
    for (uint32_t i = 0; i < call->arg_count; i++)
        if (call->args[i].keyword && strcmp(call->args[i].keyword, keyword) == 0)
            return &call->args[i];
    return NULL;
}

/* The argument of `call` that reaches parameter `param` of `fn`, whose first `first` parameters
 * the call does not pass (0 for a top-level def; 1 for `self`, a class called to construct);
 * NULL when none does or a splat may. */
const DlExpr *dl_ir_argument_for(const DlExpr *call, const DlFunction *fn, uint32_t param,
                                 uint32_t first) {
    const DlParam *p = &fn->params[param];
    uint32_t position = first;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        const char *kw = call->args[i].keyword;
        if (kw && kw[0] == '*') return NULL;
        if (kw) {
            if (strcmp(kw, p->name) == 0) return call->args[i].value;
            continue;
        }
        if (call->args[i].value && call->args[i].value->kind == DL_EX_STARRED) return NULL;
        if (position++ == param && !p->star && !p->keyword_only) return call->args[i].value;
    }
    return NULL;
}

const DlExpr *dl_ir_positional(const DlExpr *call, unsigned n) {
    if (!call || call->kind != DL_EX_CALL) return NULL;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        if (call->args[i].keyword) continue;
        if (n-- == 0) return call->args[i].value;
    }
    return NULL;
}

bool dl_ir_tests_membership_or_identity(const char *op) {
    return op && (!strcmp(op, "in") || !strcmp(op, "not in") || !strcmp(op, "is") ||
                  !strcmp(op, "is not"));
}

/* ---------------------------------------------------------------- guards */

static const DlExpr *strip_zero_arg_call(const DlExpr *e) {
    return e && e->kind == DL_EX_CALL && e->arg_count == 0 ? e->object : e;
}

static bool names_cuda(const DlExpr *e) {
    if (!e) return false;
    if (e->kind == DL_EX_STRING) return e->name && strncmp(e->name, "cuda", 4) == 0;
    if (e->kind == DL_EX_ATTR) return e->name && (!strcmp(e->name, "CUDA") || !strcmp(e->name, "kCUDA"));
    return false;
}

bool dl_ir_names_cuda_device(const DlExpr *d) {
    /* `torch.device("cuda")` */
    if (d && d->kind == DL_EX_CALL && d->object && d->object->kind == DL_EX_ATTR &&
        d->object->name && !strcmp(d->object->name, "device") && d->arg_count == 1 &&
        !d->args[0].keyword)
        d = d->args[0].value;
    /* `.to(0)`: a GPU's index (a number with no point or exponent, not a float) */
    if (d && d->kind == DL_EX_NUMBER && d->name && *d->name &&
        strspn(d->name, "0123456789") == strlen(d->name))
        return true;
    return d && d->kind == DL_EX_STRING && d->name && strncmp(d->name, "cuda", 4) == 0;
}

bool dl_ir_moves_to_cuda(const DlExpr *call) {
    if (!call || call->kind != DL_EX_CALL || !call->object || call->object->kind != DL_EX_ATTR ||
        !call->object->name)
        return false;
    if (!strcmp(call->object->name, "cuda")) return true;
    if (strcmp(call->object->name, "to") != 0) return false;
    const DlExpr *d = call->arg_count && !call->args[0].keyword ? call->args[0].value : NULL;
    for (uint32_t i = 0; !d && i < call->arg_count; i++)
        if (call->args[i].keyword && !strcmp(call->args[i].keyword, "device"))
            d = call->args[i].value;
    return dl_ir_names_cuda_device(d);
}

static const DlExpr *tensor_of_device(const DlExpr *e) {
    /* x.device / x.device() / x.device().type() -> x */
    e = strip_zero_arg_call(e);
    if (e && e->kind == DL_EX_ATTR && e->name && strcmp(e->name, "type") == 0)
        e = strip_zero_arg_call(e->object);
    if (!e || e->kind != DL_EX_ATTR || !e->name || strcmp(e->name, "device") != 0) return NULL;
    const DlExpr *x = e->object;
    return x && (x->kind == DL_EX_NAME || x->kind == DL_EX_ATTR) ? x : NULL;
}

const DlExpr *dl_ir_cuda_check_subject(const DlExpr *cond) {
    if (!cond) return NULL;
    if (cond->kind == DL_EX_COMPARE && cond->name && strcmp(cond->name, "==") == 0 &&
        cond->item_count == 2) {
        const DlExpr *a = cond->items[0], *b = cond->items[1];
        if (names_cuda(b) && tensor_of_device(a)) return tensor_of_device(a);
        if (names_cuda(a) && tensor_of_device(b)) return tensor_of_device(b);
        return NULL;
    }
    const DlExpr *c = strip_zero_arg_call(cond);
    if (!c || c->kind != DL_EX_ATTR || !c->name || strcmp(c->name, "is_cuda") != 0) return NULL;
    const DlExpr *x = strip_zero_arg_call(c->object);
    /* `x.device().is_cuda()`, and the deprecated `x.type().is_cuda()` of older extensions */
    if (x && x->kind == DL_EX_ATTR && x->name &&
        (strcmp(x->name, "device") == 0 || strcmp(x->name, "type") == 0))
        x = x->object;
    return x && (x->kind == DL_EX_NAME || x->kind == DL_EX_ATTR) ? x : NULL;
}

/* ---------------------------------------------------------------- debugging */

static void dump_expr(FILE *out, const DlExpr *e, int depth) {
    if (!e) {
        fputs("<null>", out);
        return;
    }
    if (depth > 40) {
        fputs("...", out);
        return;
    }
    static const char *const kinds[] = {"?", "name", "attr", "call", "sub", "num", "str", "const",
                                        "tuple", "list", "set", "dict", "binop", "unary",
                                        "compare", "boolop", "cond", "comp", "lambda", "star",
                                        "await", "walrus"};
    switch (e->kind) {
    case DL_EX_NAME:
    case DL_EX_NUMBER:
    case DL_EX_CONST:
        fputs(e->name ? e->name : "?", out);
        return;
    case DL_EX_STRING:
        fprintf(out, "\"%s\"", e->name ? e->name : "");
        return;
    case DL_EX_ATTR:
        dump_expr(out, e->object, depth + 1);
        fprintf(out, ".%s", e->name);
        return;
    case DL_EX_CALL:
        dump_expr(out, e->object, depth + 1);
        if (e->flags & DL_EXF_KERNEL_LAUNCH) fputs("<<<>>>", out);
        fputc('(', out);
        for (uint32_t i = 0; i < e->arg_count; i++) {
            if (i) fputs(", ", out);
            if (e->args[i].keyword) fprintf(out, "%s=", e->args[i].keyword);
            dump_expr(out, e->args[i].value, depth + 1);
        }
        fputc(')', out);
        return;
    default:
        fprintf(out, "%s%s%s(", kinds[e->kind < sizeof kinds / sizeof kinds[0] ? e->kind : 0],
                e->name ? " " : "", e->name ? e->name : "");
        if (e->object) dump_expr(out, e->object, depth + 1);
        for (uint32_t i = 0; i < e->item_count; i++) {
            fputs(", ", out);
            dump_expr(out, e->items[i], depth + 1);
        }
        fputc(')', out);
    }
}

static void dump_block(FILE *out, const DlBlock *b, int indent);

static void dump_stmt(FILE *out, const DlStmt *s, int indent) {
    static const char *const kinds[] = {"other", "expr", "assign", "augassign", "return", "raise",
                                        "break", "continue", "if", "for", "while", "with", "try",
                                        "def", "class", "import", "check"};
    fprintf(out, "%*s%s ", indent, "", kinds[s->kind < sizeof kinds / sizeof kinds[0] ? s->kind : 0]);
    for (uint32_t i = 0; i < s->target_count; i++) {
        dump_expr(out, s->targets[i], 0);
        fputs(" ", out);
    }
    if (s->kind == DL_ST_ASSIGN && s->annotation) {
        fputs(": ", out);
        dump_expr(out, s->annotation, 0);
        fputs(" ", out);
    }
    if (s->value) {
        fputs("= ", out);
        dump_expr(out, s->value, 0);
    }
    if (s->parts->func) {
        fprintf(out, "%s(", s->parts->func->name);
        for (uint32_t i = 0; i < s->parts->func->param_count; i++) {
            fprintf(out, "%s%s", i ? ", " : "", s->parts->func->params[i].name);
            if (s->parts->func->params[i].annotation) {
                fputs(": ", out);
                dump_expr(out, s->parts->func->params[i].annotation, 0);
            }
        }
        fputs(")\n", out);
        dump_block(out, &s->parts->func->body, indent + 2);
        return;
    }
    if (s->parts->cls) {
        fprintf(out, "%s\n", s->parts->cls->name);
        dump_block(out, &s->parts->cls->body, indent + 2);
        return;
    }
    fputc('\n', out);
    dump_block(out, &s->parts->body, indent + 2);
    if (s->parts->orelse.count) {
        fprintf(out, "%*selse\n", indent, "");
        dump_block(out, &s->parts->orelse, indent + 2);
    }
}

static void dump_block(FILE *out, const DlBlock *b, int indent) {
    for (uint32_t i = 0; i < b->count; i++) dump_stmt(out, b->items[i], indent);
}

void dl_ir_dump(FILE *out, const DlModuleIR *m) {
    fprintf(out, "# %s\n", m->source ? m->source->path : "?");
    dump_block(out, &m->body, 0);
}

/* ---------------------------------------------------------------- full dump */

/* Every field of the model, spans included, one node per line: two front ends (or two versions
 * of one) that build the same model print the same text (DEVLINT_DUMP_IR=full). */
static void full_expr(FILE *out, const DlExpr *e, int indent, const char *role);

static void full_exprs(FILE *out, DlExpr *const *items, uint32_t count, int indent,
                       const char *role) {
    for (uint32_t i = 0; i < count; i++) full_expr(out, items[i], indent, role);
}

static void full_expr(FILE *out, const DlExpr *e, int indent, const char *role) {
    if (!e) {
        fprintf(out, "%*s%s: null\n", indent, "", role);
        return;
    }
    fprintf(out, "%*s%s: expr %d [%u,%u) flags=%u name=%s\n", indent, "", role, (int)e->kind,
            e->span.start, e->span.end, e->flags & ~DL_EXF_EXTRA /* where, not what */,
            e->name ? e->name : "-");
    if (e->object) full_expr(out, e->object, indent + 2, "object");
    full_exprs(out, e->items, e->item_count, indent + 2, "item");
    for (uint32_t i = 0; i < e->arg_count; i++) {
        fprintf(out, "%*sarg [%u,%u) keyword=%s\n", indent + 2, "", e->args[i].span.start,
                e->args[i].span.end, e->args[i].keyword ? e->args[i].keyword : "-");
        full_expr(out, e->args[i].value, indent + 4, "value");
    }
    const DlExprExtra *extra = dl_expr_extra(e);
    if (extra && !(e->flags & DL_EXF_CPP)) {
        full_expr(out, extra->target, indent + 2, "target");
        full_expr(out, extra->iter, indent + 2, "iter");
    } else if (extra) {
        fprintf(out, "%*scallee=%s ctype=%s\n", indent + 2, "",
                extra->cpp_callee ? extra->cpp_callee : "-",
                extra->cpp_ctype ? extra->cpp_ctype : "-");
    }
}

static void full_block(FILE *out, const DlBlock *b, int indent, const char *role);

static void full_function(FILE *out, const DlFunction *f, int indent) {
    fprintf(out, "%*sdef %s [%u,%u) name [%u,%u) owner=%s parent=%s\n", indent, "", f->name,
            f->span.start, f->span.end, f->name_span.start, f->name_span.end,
            f->owner ? f->owner->name : "-", f->parent ? f->parent->name : "-");
    full_exprs(out, f->decorators, f->decorator_count, indent + 2, "decorator");
    for (uint32_t i = 0; i < f->param_count; i++) {
        const DlParam *p = &f->params[i];
        fprintf(out, "%*sparam %s [%u,%u) star=%d\n", indent + 2, "", p->name, p->span.start,
                p->span.end, p->star);
        if (p->annotation) full_expr(out, p->annotation, indent + 4, "annotation");
        if (p->default_value) full_expr(out, p->default_value, indent + 4, "default");
    }
    full_block(out, &f->body, indent + 2, "body");
}

static void full_class(FILE *out, const DlClass *c, int indent) {
    fprintf(out, "%*sclass %s [%u,%u) name [%u,%u) methods=%u\n", indent, "", c->name,
            c->span.start, c->span.end, c->name_span.start, c->name_span.end, c->method_count);
    for (uint32_t i = 0; i < c->method_count; i++)
        fprintf(out, "%*smethod %s\n", indent + 2, "", c->methods[i]->name);
    full_exprs(out, c->bases, c->base_count, indent + 2, "base");
    full_block(out, &c->body, indent + 2, "body");
}

static void full_stmt(FILE *out, const DlStmt *s, int indent) {
    fprintf(out, "%*sstmt %d [%u,%u)\n", indent, "", (int)s->kind, s->span.start, s->span.end);
    full_exprs(out, s->targets, s->target_count, indent + 2, "target");
    full_expr(out, s->value, indent + 2, "value");
    switch (s->kind) {
    case DL_ST_ASSIGN:
        if (s->annotation) full_expr(out, s->annotation, indent + 2, "annotation");
        break;
    case DL_ST_AUGASSIGN: fprintf(out, "%*sop %s\n", indent + 2, "", s->op ? s->op : "-"); break;
    case DL_ST_WITH: full_exprs(out, s->withs, s->with_count, indent + 2, "with"); break;
    case DL_ST_IMPORT:
        for (uint32_t i = 0; i < s->import_count; i++)
            fprintf(out, "%*simport module=%s name=%s alias=%s level=%d\n", indent + 2, "",
                    s->imports[i].module ? s->imports[i].module : "-",
                    s->imports[i].name ? s->imports[i].name : "-",
                    s->imports[i].alias ? s->imports[i].alias : "-", s->imports[i].level);
        break;
    default: break;
    }
    full_block(out, &s->parts->body, indent + 2, "body");
    full_block(out, &s->parts->orelse, indent + 2, "orelse");
    for (uint32_t i = 0; i < s->parts->handler_count; i++)
        full_block(out, &s->parts->handlers[i], indent + 2, "handler");
    full_block(out, &s->parts->finalbody, indent + 2, "finally");
    if (s->parts->func) full_function(out, s->parts->func, indent + 2);
    if (s->parts->cls) full_class(out, s->parts->cls, indent + 2);
}

static void full_block(FILE *out, const DlBlock *b, int indent, const char *role) {
    if (!b->count) return;
    fprintf(out, "%*s%s %u\n", indent, "", role, b->count);
    for (uint32_t i = 0; i < b->count; i++) full_stmt(out, b->items[i], indent + 2);
}

void dl_ir_dump_full(FILE *out, const DlModuleIR *m) {
    fprintf(out, "# %s module=%s functions=%u classes=%u comments=%u sets_default_device=%d "
                 "mentions_devices=%d imports_in_defs=%d\n",
            m->source ? m->source->path : "?", m->module_name ? m->module_name : "-",
            m->function_count, m->class_count, m->comment_count, m->sets_default_device,
            m->mentions_devices, m->imports_in_defs);
    for (uint32_t i = 0; i < m->function_count; i++)
        fprintf(out, "function %s [%u,%u)\n", m->functions[i]->name, m->functions[i]->span.start,
                m->functions[i]->span.end);
    for (uint32_t i = 0; i < m->class_count; i++)
        fprintf(out, "class %s [%u,%u)\n", m->classes[i]->name, m->classes[i]->span.start,
                m->classes[i]->span.end);
    for (uint32_t i = 0; i < m->comment_count; i++)
        fprintf(out, "comment [%zu,%zu) line %d\n", m->comments[i].start, m->comments[i].end,
                m->comments[i].line);
    if (m->names_known)
        for (uint32_t i = 0; i < m->referenced_name_count; i++)
            fprintf(out, "referenced %s\n", m->referenced_names[i]);
    full_block(out, &m->body, 0, "body");
}

static bool expr_any(const DlExpr *e, bool (*match)(const DlExpr *, void *), void *ctx,
                     int depth) {
    if (!e || depth > 64) return false;
    if (match(e, ctx) || expr_any(e->object, match, ctx, depth + 1)) return true;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (expr_any(e->items[i], match, ctx, depth + 1)) return true;
    for (uint32_t i = 0; i < e->arg_count; i++)
        if (expr_any(e->args[i].value, match, ctx, depth + 1)) return true;
    return false;
}

bool dl_ir_expr_any_with(const DlExpr *e, bool (*match)(const DlExpr *, void *), void *ctx) {
    return expr_any(e, match, ctx, 0);
}

static bool matches_alone(const DlExpr *e, void *match) {
    bool (*plain)(const DlExpr *) = *(bool (**)(const DlExpr *))match;
    return plain(e);
}

bool dl_ir_expr_any(const DlExpr *e, bool (*match)(const DlExpr *)) {
    return expr_any(e, matches_alone, &match, 0);
}

const DlExpr *dl_ir_map_location(const DlExpr *load) {
    const DlArg *a = dl_ir_keyword(load, "map_location");
    return a ? a->value : dl_ir_positional(load, 1);
}

bool dl_ir_names_nccl_backend(const DlExpr *call) {
    const DlArg *kw = dl_ir_keyword(call, "backend");
    const DlExpr *backend = kw ? kw->value : dl_ir_positional(call, 0);
    return backend && backend->kind == DL_EX_STRING && backend->name &&
           strcmp(backend->name, "nccl") == 0;
}

int dl_ir_non_blocking(const DlExpr *call) {
    const DlArg *a = dl_ir_keyword(call, "non_blocking");
    if (!a) return 0;
    const DlExpr *v = a->value;
    if (!v || v->kind != DL_EX_CONST || !v->name) return -1;
    return strcmp(v->name, "True") == 0 ? 1 : strcmp(v->name, "False") == 0 ? 0 : -1;
}

/* `name` starts with `prefix` as a word: `test`, `test_cuda`, `testCuda`, `TestModel`,
 * `Test2`; not `tester` or `Tester` (3DMPPE_POSENET's evaluation runner), `testing`. */
static bool starts_with_word(const char *name, const char *prefix) {
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0) return false;
    char next = name[n];
    return next == '\0' || next == '_' || isupper((unsigned char)next) ||
           isdigit((unsigned char)next);
}

bool dl_ir_names_a_test_class(const char *name) {
    return starts_with_word(name, "Test");
}

bool dl_ir_in_test_function(const DlFunction *fn) {
    for (int depth = 0; fn && depth < 64; depth++, fn = fn->parent) {
        if (starts_with_word(fn->name, "test") || starts_with_word(fn->name, "_test")) return true;
        if (fn->owner && dl_ir_names_a_test_class(fn->owner->name)) return true;
    }
    return false;
}

static bool target_names(const DlExpr *t, const char *name, int depth) {
    if (!t || depth > 16) return false;
    if (t->kind == DL_EX_NAME) return strcmp(t->name, name) == 0;
    if (t->kind == DL_EX_STARRED) return target_names(t->object, name, depth + 1);
    if (t->kind != DL_EX_TUPLE && t->kind != DL_EX_LIST) return false;
    for (uint32_t i = 0; i < t->item_count; i++)
        if (target_names(t->items[i], name, depth + 1)) return true;
    return false;
}

bool dl_ir_target_names(const DlExpr *t, const char *name) {
    return target_names(t, name, 0);
}

uint32_t dl_ir_body_start(const DlBlock *body) {
    return body->count > 1 && body->items[0]->kind == DL_ST_EXPR && body->items[0]->value &&
                   body->items[0]->value->kind == DL_EX_STRING
               ? 1
               : 0;
}

const DlFunction *dl_ir_method_named(const DlClass *cls, const char *name) {
    for (uint32_t k = 0; k < cls->method_count; k++)
        if (strcmp(cls->methods[k]->name, name) == 0) return cls->methods[k];
    return NULL;
}

int dl_ir_param_index(const DlFunction *fn, const char *name) {
    for (uint32_t i = 0; i < fn->param_count; i++)
        if (strcmp(fn->params[i].name, name) == 0) return (int)i;
    return -1;
}

/* Does the target `t` bind `name`: by itself, or (`unpacked`) as an item of a tuple or list
 * (`_, pred = output.topk(k, 1)`)? */
static bool target_binds(const DlExpr *t, const char *name, bool unpacked) {
    if (t->kind == DL_EX_NAME) return strcmp(t->name, name) == 0;
    if (t->kind == DL_EX_ATTR && strncmp(name, "self.", 5) == 0)
        return dl_ir_is_self_attr(t, name + 5);
    if (!unpacked || (t->kind != DL_EX_TUPLE && t->kind != DL_EX_LIST)) return false;
    for (uint32_t i = 0; i < t->item_count; i++)
        if (t->items[i]->kind == DL_EX_NAME && strcmp(t->items[i]->name, name) == 0) return true;
    return false;
}

/* dl_ir_last_assignment; `wide`: dl_ir_last_binding's unpacked targets and loops too. */
static const DlExpr *last_assignment(const DlBlock *b, const char *name, uint32_t before, bool wide,
                                     const DlExpr *found, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count && b->items[i]->span.start < before; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->span.end <= before &&
            target_binds(s->targets[0], name, wide))
            found = s->value;
        if (wide && s->kind == DL_ST_FOR && s->target_count == 1 && before < s->span.end &&
            target_binds(s->targets[0], name, true))
            found = s->value;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            found = last_assignment(inner, name, before, wide, found, depth + 1);
    }
    return found;
}

const DlExpr *dl_ir_last_assignment(const DlBlock *b, const char *name, uint32_t before) {
    return last_assignment(b, name, before, false, NULL, 0);
}

const DlExpr *dl_ir_last_binding(const DlBlock *b, const char *name, uint32_t before) {
    return last_assignment(b, name, before, true, NULL, 0);
}

static bool binds_name_to(const DlBlock *b, const char *name,
                          bool (*holds)(const DlExpr *value, void *ctx), void *ctx, int depth) {
    for (uint32_t i = 0; depth < 16 && i < b->count; i++) {
        const DlStmt *s = b->items[i];
        if (s->kind == DL_ST_DEF || s->kind == DL_ST_CLASS) continue;
        if (s->kind == DL_ST_ASSIGN && s->target_count == 1 && s->value &&
            s->targets[0]->kind == DL_EX_NAME && strcmp(s->targets[0]->name, name) == 0 &&
            holds(s->value, ctx))
            return true;
        const DlBlock *inner;
        for (uint32_t k = 0; (inner = dl_stmt_block(s, k)); k++)
            if (binds_name_to(inner, name, holds, ctx, depth + 1)) return true;
    }
    return false;
}

bool dl_ir_binds_name_to(const DlBlock *b, const char *name,
                         bool (*holds)(const DlExpr *value, void *ctx), void *ctx) {
    return binds_name_to(b, name, holds, ctx, 0);
}

bool dl_ir_is_self(const DlExpr *e) {
    return e && e->kind == DL_EX_NAME && e->name && strcmp(e->name, "self") == 0;
}

bool dl_ir_is_self_attr(const DlExpr *e, const char *name) {
    return e && e->kind == DL_EX_ATTR && dl_ir_is_self(e->object) &&
           (!name || (e->name && strcmp(e->name, name) == 0));
}
