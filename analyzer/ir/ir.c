/* Small queries over the program model shared by the dataflow engine and the rules. */
#include "ir/ir.h"

#include <string.h>

const char *dl_ir_span_text(DlArena *arena, const DlSource *src, DlSpan span) {
    if (span.end > src->len || span.start > span.end) return "";
    return dl_arena_strndup(arena, src->text + span.start, span.end - span.start);
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

const DlExpr *dl_ir_positional(const DlExpr *call, unsigned n) {
    if (!call || call->kind != DL_EX_CALL) return NULL;
    for (uint32_t i = 0; i < call->arg_count; i++) {
        if (call->args[i].keyword) continue;
        if (n-- == 0) return call->args[i].value;
    }
    return NULL;
}
