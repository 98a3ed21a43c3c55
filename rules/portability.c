/* Shared helpers for DL301/DL302 (see portability.h). */
#include "rules/portability.h"

#include <string.h>

static bool from_expr(const DlExpr *e, DlDeviceLiteral *out) {
    if (!e || e->kind != DL_EX_STRING || !e->name) return false;
    *out = (DlDeviceLiteral){e->name, e->span, NULL};
    return true;
}

bool dl_call_device_literal(const DlCallFact *fact, DlDeviceLiteral *out) {
    static const char *const keywords[] = {"device", "map_location", NULL};
    for (const char *const *k = keywords; *k; k++) {
        const DlArg *kw = dl_ir_keyword(fact->call, *k);
        if (kw && from_expr(kw->value, out)) return true;
    }
    const char *q = fact->qualified;
    bool positional = (fact->method && strcmp(fact->method, "to") == 0) ||
                      (q && (strcmp(q, "torch.device") == 0 ||
                             strcmp(q, "torch.set_default_device") == 0));
    if (positional && from_expr(dl_ir_positional(fact->call, 0), out)) return true;
    const DlValue *d = fact->target_device;
    if (d && d->literal && d->dev_span.end) {
        *out = (DlDeviceLiteral){d->literal, d->dev_span, d->home};
        return true;
    }
    return false;
}

