/* Thread pool for independent per-file work (see pool.h). */
#include "core/pool.h"

#include "core/crash_restart.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct PoolRun {
    atomic_size_t next;
    size_t count;
    DlPoolTask task;
    void *ctx;
} PoolRun;

static void *worker(void *arg) {
    PoolRun *run = arg;
    void *signal_stack = dl_crash_restart_thread_begin(); /* a stack overflow is caught too */
    for (;;) {
        size_t i = atomic_fetch_add(&run->next, 1);
        if (i >= run->count) break;
        run->task(run->ctx, i);
    }
    dl_crash_restart_thread_end(signal_stack);
    return NULL;
}

void dl_parallel_for(size_t count, int threads, DlPoolTask task, void *ctx) {
    if (threads > (int)count) threads = (int)count;
    if (threads <= 1) {
        for (size_t i = 0; i < count; i++) task(ctx, i);
        return;
    }
    PoolRun run = {.count = count, .task = task, .ctx = ctx};
    atomic_init(&run.next, 0);
    pthread_t *ids = malloc((size_t)threads * sizeof *ids);
    if (!ids) abort();
    int started = 0;
    for (int t = 1; t < threads; t++)
        if (pthread_create(&ids[started], NULL, worker, &run) == 0) started++;
    worker(&run); /* the calling thread works too */
    for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
    free(ids);
}

int dl_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
