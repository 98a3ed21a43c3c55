/* Helpers shared by the rules that read a DlMeetFact: find the CPU-side operand of a given
 * origin and the operand on a device it meets; and whether a named device may be the CPU. */
#ifndef DL_RULES_MISMATCH_H
#define DL_RULES_MISMATCH_H
#include "rules/facts.h"

/* First operand that is a CPU tensor (not 0-dim) with this origin, or NULL. */
const DlOperand *dl_meet_cpu_operand(const DlMeetFact *fact, DlOrigin origin);
/* First operand on a device (cuda, a device variable, the module's device), or NULL. */
const DlOperand *dl_meet_device_operand(const DlMeetFact *fact);
/* "`x` is on device (line 9: x.to(device))" for an operand. */
const char *dl_meet_describe(DlRuleContext *ctx, const DlOperand *op);

/* Code that names `dev`'s device where a fix can write it ("device", "args.device",
 * "\"cuda\"", "x.device"), or NULL when there is none. */
const char *dl_device_expression(DlRuleContext *ctx, const DlOperand *op);

/* `v` is on `x.device` of a parameter `x` of `fn` (not self): where the caller's tensor is,
 * which may be the CPU (`torch.randint(..., device=x.device)`, `lengths.to(x.device)`). */
bool dl_on_a_parameters_device(const DlFunction *fn, const DlValue *v);

#endif
