/* What rules see: facts the dataflow engine derives (operands meeting in one operation, a
 * result thrown away, a class's attributes) and the few services a rule needs to report. */
#ifndef DL_FACTS_H
#define DL_FACTS_H
#include "dataflow/project.h"
#include "dataflow/value.h"
#include "ir/ir.h"
#include "rules/rule.h"

typedef struct DlOperand {
    const DlExpr *expr;
    const DlValue *value;
} DlOperand;

/* Values that meet in one operation: `a + b`, `torch.cat([a, b])`, `model(x)`, `loss(out, y)`.
 * Only emitted when one operand is on the CPU (or is an unmoved module / a loss holding a CPU
 * weight) and another is on a device. */
typedef struct DlPlace DlPlace;

struct DlMeetFact {
    const DlExpr *site;      /* the whole operation */
    const DlOperand *operands;
    uint32_t count;
    int callee;              /* index of the module / loss being called, or -1 */
    const DlPlace *place;
};

/* A bare expression statement whose value is a tensor's .to()/.cuda()/.cpu(). */
struct DlDiscardFact {
    const DlStmt *stmt;
    const DlExpr *receiver;
    const DlExpr *call;      /* the .to(...) call (inside a comprehension for that form) */
    const DlValue *value;    /* the receiver's value */
    const char *method;      /* "to", "cuda", "cpu" */
    bool element_of_sequence; /* the receiver is a loop/comprehension variable over tensors */
    const DlStmt *loop;      /* `for t in tensors:` whose variable the receiver is, or NULL */
    const DlExpr *comprehension; /* `[t.to(d) for t in ts]` as a statement, or NULL */
};

/* A class with what its __init__ stores on self. */
struct DlClassFact {
    const DlClassInfo *info;
};

/* Where in the program a fact happens: the loops and contexts that the speed and placement
 * rules ask about. */
struct DlPlace {
    const DlStmt *batch_loop;    /* innermost loop over a data loader (or a step-counted while) */
    bool every_iteration;        /* inside batch_loop and not under a periodic guard
                                    (`if step % N == 0:`) */
    bool steps_environment;      /* batch_loop steps a simulator with the policy's choice
                                    (`env.step(action)`), which must reach the host each time */
    bool solves_on_the_host;     /* batch_loop solves a matching on the host each step
                                    (`linear_sum_assignment(cost)`): its cost must be read back */
    bool trains_itself;          /* batch_loop's body runs backward() or an optimizer step
                                    outside its inner loops */
    bool exports_outputs;        /* batch_loop trains nothing and writes images, audio or
                                    arrays to files (`save_image(out, path)`) or shows them */
    bool synchronizes_each_step; /* batch_loop calls `torch.cuda.synchronize()` every iteration
                                    (to time it): it waits for the device by its own choice */
    bool generated;              /* a library model's `generate()` ran earlier in this iteration
                                    of batch_loop: its decoding loop asks the host after every
                                    token, so a read after it adds no wait of note (DL201) */
    const DlExpr *cuda_context;  /* `torch.cuda.device(i)` of an enclosing `with`, or NULL */
    bool in_worker;              /* Dataset.__getitem__ / collate_fn run by DataLoader workers */
    bool cuda_checked;           /* in the branch of `if torch.cuda.is_available():` (or of a
                                    name bound to a conjunction with it) that runs with a GPU,
                                    or after a check whose other branch raises or exits */
    const DlFunction *function;  /* NULL at module level */
};

/* A call, once its arguments are evaluated. */
struct DlCallFact {
    const DlExpr *call;
    const char *qualified;        /* library or project callee: "torch.load", "time.time" */
    const char *method;           /* x.method(...) on a value (not a module path), else NULL */
    const DlExpr *receiver;       /* for method calls */
    const DlValue *receiver_value;
    const DlValue *const *args;   /* parallel to call->args */
    const DlValue *result;
    const DlValue *target_device; /* .to()/.cuda()/.cpu() and factories: where to, or NULL */
    bool receiver_invariant;      /* method call in a batch loop on a name the loop never binds */
    const char *device_in_scope;  /* torch.load: a name bound to a device here ("device") */
    uint32_t positional_devices;  /* factories: bit i set when positional argument i is a
                                     device (`torch.zeros(n, device)`) */
    bool immediately_moved;       /* the result is the receiver of .to()/.cuda()/.cpu():
                                     `torch.ones(n).cuda()` */
    bool without_cuda;            /* runs only without a GPU: in the else of `if
                                     torch.cuda.is_available():`, the body of `if not ...` */
    const DlValue *const *arg_tensors; /* kernel launches (call->flags & DL_EXF_KERNEL_LAUNCH),
                                     parallel to call->args: the tensor whose memory argument i
                                     points into (`t.data_ptr<float>()`: t's value), else NULL */
    const DlExpr *const *arg_tensor_exprs; /* ... and that tensor's expression (`t`) */
    const DlPlace *place;
};

/* A device value read back on the host: `.item()`, `.cpu()`, `.tolist()`, `.numpy()`,
 * `print(t)`, `float(t)`, `bool(t)`, `if t:`, `np.asarray(t)`, `plt.plot(t)`. */
struct DlSyncFact {
    const DlExpr *site;   /* the call or condition */
    const DlExpr *tensor; /* the tensor expression */
    const DlValue *value;
    const char *how;      /* "item", "cpu", "tolist", "numpy", "print", "float", "int", "bool",
                             "if", "while", "np.asarray", "np.array", "plt.plot", ...;
                             "call": a project function that reads one back on every call;
                             "first-read": `y.cpu()` of a value of unknown device, the first
                             read of an iteration whose later read of `value` waited for
                             nothing (callee_read: that later read's tensor) */
    const DlPlace *place;
    DlSpan callee_read;             /* "call": that read, in the function called */
    const DlModuleIR *callee_home;  /* ... and its file */
    bool nothing_pending;           /* no device work queued since the host last surely waited
                                       for the device (a read of a value known there, a
                                       synchronize): the read copies finished values */
    bool without_cuda;              /* runs only without a GPU (the else of `if
                                       torch.cuda.is_available():`), the value not on a named
                                       accelerator: what a GPU branch moved is still here */
    bool of_items;                  /* `tensor` is a list the code appends to and `value` its
                                       items (`np.mean(losses)`) */
};

/* `end - start` of two wall-clock readings, with device work queued after `start` and not
 * waited for before `end` was read. */
struct DlTimingFact {
    const DlExpr *site;   /* the subtraction */
    DlSpan end_read;      /* the later clock read */
    DlSpan start_read;    /* the earlier one */
    DlSpan work;          /* the last unsynchronised device work before end_read */
    const DlPlace *place;
};

/* `object[index]`, read or assigned. */
struct DlIndexFact {
    const DlExpr *site;
    const DlExpr *object, *index;
    const DlValue *object_value, *index_value;
    bool store;
    const DlPlace *place;
};

/* Reporting: `key` deduplicates (one finding per rule and key); the span is where it shows. */
void dl_report_finding(DlRuleContext *ctx, const DlRule *rule, DlSpan span, DlSpan key,
                       const char *message, DlFix *fix);
/* The same for a place in another file of the run (`home`, from DlValue.home; NULL: this one):
 * a factory in a helper module is reported in that module, where the fix goes. */
void dl_report_finding_in(DlRuleContext *ctx, const DlRule *rule, const DlModuleIR *home,
                          DlSpan span, DlSpan key, const char *message, DlFix *fix);
DlArena *dl_rule_arena(DlRuleContext *ctx);
/* Every analysed file's facts and program model (C++ rules look for callers across files). */
const DlProject *dl_rule_project(DlRuleContext *ctx);
const DlSource *dl_rule_source(DlRuleContext *ctx);
/* The program model of the file being analysed. */
const DlModuleIR *dl_rule_module(DlRuleContext *ctx);
const char *dl_rule_text(DlRuleContext *ctx, DlSpan span);
/* The same text on one line, shortened past 80 characters: for quoting code in a message
 * (dl_rule_text for what a fix writes). */
const char *dl_rule_snippet(DlRuleContext *ctx, DlSpan span);
int dl_rule_line(DlRuleContext *ctx, uint32_t byte);
/* "line 12" for a place in this file, "utils.py:12" for one in another. */
const char *dl_rule_where(DlRuleContext *ctx, const DlModuleIR *home, uint32_t byte);
/* Text of a span in `home` (NULL: this file). */
const char *dl_rule_text_in(DlRuleContext *ctx, const DlModuleIR *home, DlSpan span);
/* "x (line 12: torch.randn(4, 10))" — a value and where it got its device. */
const char *dl_rule_describe(DlRuleContext *ctx, const char *fallback_name, const DlValue *v);
/* The same without the name: "on cuda (line 5: torch.ones(3, device=\"cuda\"))". */
const char *dl_rule_placement(DlRuleContext *ctx, const DlValue *v);
/* Does the code around `place` mention `needle`: the enclosing functions' text, or the
 * module's top-level statements (not other functions' bodies)? */
bool dl_rule_scope_mentions(DlRuleContext *ctx, const DlPlace *place, const char *needle);
/* Does the file's code mention `needle` outside test functions (`def test_*`, methods of
 * `Test*` classes) and comments? A test that needs a GPU says nothing about the rest of the
 * file, nor does a comment. */
bool dl_rule_file_mentions(DlRuleContext *ctx, const char *needle);
/* The same, test functions included (a test's `@pytest.mark.skipif(not
 * torch.cuda.is_available(), ...)` is a check like any other). */
bool dl_rule_code_mentions(DlRuleContext *ctx, const char *needle);
/* dl_rule_file_mentions, but not in a line that logs or prints (`logging.info("{} GPUs"
 * .format(torch.cuda.device_count()))` selects no device). */
bool dl_rule_file_uses(DlRuleContext *ctx, const char *needle);
/* A fix replacing `span` with `text`. */
DlFix *dl_rule_fix_replace(DlRuleContext *ctx, const char *title, DlSpan span, const char *text);
/* A fix inserting the line `code`, indented like `stmt`, before the line `stmt` starts on. */
DlFix *dl_rule_fix_insert_before(DlRuleContext *ctx, const char *title, DlSpan stmt,
                                 const char *code);
/* How this file spells torch.nn: "nn" (import torch.nn as nn / from torch import nn) or
 * "torch.nn". */
const char *dl_rule_nn_name(DlRuleContext *ctx);

/* The engine hands each fact to every enabled rule through these (implemented by the driver). */
void dl_rule_dispatch_meet(DlRuleContext *ctx, const DlMeetFact *fact);
void dl_rule_dispatch_discard(DlRuleContext *ctx, const DlDiscardFact *fact);
void dl_rule_dispatch_class(DlRuleContext *ctx, const DlClassFact *fact);
void dl_rule_dispatch_call(DlRuleContext *ctx, const DlCallFact *fact);
void dl_rule_dispatch_sync(DlRuleContext *ctx, const DlSyncFact *fact);
void dl_rule_dispatch_index(DlRuleContext *ctx, const DlIndexFact *fact);
void dl_rule_dispatch_timing(DlRuleContext *ctx, const DlTimingFact *fact);

#endif
