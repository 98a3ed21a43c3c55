/* Phase timings for profiling a run: with DEVLINT_TIMING=1 in the environment, each
 * dl_timing_mark() prints the wall time since the previous mark to stderr
 * ("devlint: timing: parse 1.234 s"). Costs one getenv per run when off. */
#ifndef DL_TIMING_H
#define DL_TIMING_H

/* Prints the time since the previous mark (or since the first call) labelled `phase`. */
void dl_timing_mark(const char *phase);

#endif
