/* Runs a function over indices 0..count-1 on N threads (work stealing by an atomic counter).
 * The only concurrency primitive devlint needs: files are independent units of work. */
#ifndef DL_POOL_H
#define DL_POOL_H
#include <stddef.h>

typedef void (*DlPoolTask)(void *ctx, size_t index);

/* threads <= 1 runs inline on the calling thread. */
void dl_parallel_for(size_t count, int threads, DlPoolTask task, void *ctx);

/* Number of online CPUs (at least 1). */
int dl_cpu_count(void);

#endif
