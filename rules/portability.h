/* Shared reading for the portability rules DL301/DL302: where a call names CUDA literally. */
#ifndef DL_RULES_PORTABILITY_H
#define DL_RULES_PORTABILITY_H
#include "rules/facts.h"

/* A device string literal ("cuda", "cuda:1") a call uses: a `device=` / `map_location=`
 * keyword, the first positional argument of `.to(...)`, `torch.device(...)` or
 * `torch.set_default_device(...)`, or the literal a device variable was set from
 * (`DEVICE = "cuda"` ... `x.to(DEVICE)`). Returns false when there is none. */
typedef struct DlDeviceLiteral {
    const char *text; /* the string's contents */
    DlSpan span;      /* the literal, in `home` */
    const DlModuleIR *home;
} DlDeviceLiteral;

bool dl_call_device_literal(const DlCallFact *fact, DlDeviceLiteral *out);

#endif
