/* The CPU as a string literal names it in a parameter's default (`device="cpu"`,
 * `torch.device("cpu:0")`): one definition for the text scan that shares a function's callers
 * (driver/sharing_callers.c) and the analysis that reads those calls (dataflow/flow_callers.c),
 * which must agree on what counts. */
#ifndef DL_CORE_CPU_LITERAL_H
#define DL_CORE_CPU_LITERAL_H
#include <stdbool.h>
#include <stddef.h>

/* `cpu` or `cpu:N`: the `n` bytes of a string literal's contents. */
static inline bool dl_names_the_cpu_literally(const char *s, size_t n) {
    if (n < 3 || s[0] != 'c' || s[1] != 'p' || s[2] != 'u') return false;
    if (n == 3) return true;
    if (s[3] != ':' || n == 4) return false;
    for (size_t i = 4; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

#endif
