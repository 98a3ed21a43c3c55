/* Phase timings for profiling a run: with DEVLINT_TIMING=1 in the environment, each
 * dl_timing_mark() prints the wall time since the previous mark, and the resident memory at the
 * mark and at its peak so far (Linux), to stderr ("devlint: timing: parse 1.234 s   resident
 * 339 MiB, peak 339 MiB"). Costs one getenv per run when off. */
#ifndef DL_TIMING_H
#define DL_TIMING_H

/* Prints the time since the previous mark (or since the first call) labelled `phase`. */
void dl_timing_mark(const char *phase);

#endif
