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

void dl_timing_mark(const char *phase) {
    pthread_once(&timing_once, timing_init);
    if (!timing_on) return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double s = (double)(now.tv_sec - last.tv_sec) + (double)(now.tv_nsec - last.tv_nsec) / 1e9;
    fprintf(stderr, "devlint: timing: %-22s %8.3f s\n", phase, s);
    last = now;
}
