#define _POSIX_C_SOURCE 200809L
#include "core/timing.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static bool timing_on;
static struct timespec last;
static pthread_once_t timing_once = PTHREAD_ONCE_INIT;

static void timing_init(void) {
    const char *v = getenv("DEVLINT_TIMING");
    timing_on = v && *v && strcmp(v, "0") != 0;
    clock_gettime(CLOCK_MONOTONIC, &last);
}

/* The process's resident memory now and at its peak so far, in MiB (Linux; -1 elsewhere). */
static void resident_mib(long *now, long *peak) {
    *now = *peak = -1;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        long kib;
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) *now = kib / 1024;
        if (sscanf(line, "VmHWM: %ld kB", &kib) == 1) *peak = kib / 1024;
    }
    fclose(f);
}

void dl_timing_mark(const char *phase) {
    pthread_once(&timing_once, timing_init);
    if (!timing_on) return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double s = (double)(now.tv_sec - last.tv_sec) + (double)(now.tv_nsec - last.tv_nsec) / 1e9;
    long rss, peak;
    resident_mib(&rss, &peak);
    fprintf(stderr, "devlint: timing: %-22s %8.3f s   resident %5ld MiB, peak %5ld MiB\n", phase, s,
            rss, peak);
    clock_gettime(CLOCK_MONOTONIC, &last); /* reading /proc is not the next stage's time */
}
