/* What the kernel-launch rules (DL120, DL121) share: walking C++ function bodies of the program
 * model for declarations, guards and callers. */
#ifndef DL_RULES_KERNEL_H
#define DL_RULES_KERNEL_H
#include <stdbool.h>

#include "rules/facts.h"

/* The statement that declares local `name` in `fn` (`float buf[16];`, `auto p = malloc(n);`),
 * or NULL. */
const DlStmt *dl_kernel_local_decl(const DlFunction *fn, const char *name);

/* Is `name` a parameter of `fn`? Its index (counting a method's `self`) or -1. */
int dl_kernel_param_index(const DlFunction *fn, const char *name);

/* Does `fn` check `name` for CUDA (`TORCH_CHECK(name.is_cuda())`, `CHECK_CUDA(name)`) before
 * byte `before`? */
bool dl_kernel_checked_before(const DlFunction *fn, const char *name, uint32_t before);

/* Does every call of `fn` in the project's C++ files pass, as argument `param`, a tensor its
 * caller checked for CUDA (or moved there), and is there at least one such call? Follows
 * callers that pass their own parameters on, `depth` levels. */
bool dl_kernel_callers_check(DlRuleContext *ctx, const DlFunction *fn, int param, int depth);

/* Maps a local to the tensor whose device it has (`y = torch::empty_like(x)` -> x), or returns
 * the name itself. */
typedef const char *(*DlKernelTensorRoot)(const DlFunction *fn, const char *name);

/* Counts the kernel launches in `fn` that hand on data of tensor `tensor`: an argument naming a
 * local whose root is `tensor`. Those starting before byte `at` in `*before`, after it in
 * `*after` (the launch at `at` itself in neither). */
void dl_kernel_launches_passing(const DlFunction *fn, const char *tensor, DlKernelTensorRoot root,
                                uint32_t at, int *before, int *after);

#endif
