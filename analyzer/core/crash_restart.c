/* devlint starts itself again without the file it crashed on (see crash_restart.h). */
#include "core/crash_restart.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

enum {
    MAX_RESTARTS = 16,              /* files left out before a crash ends the run after all */
    MAX_PATH_BYTES = 4096,          /* a longer path is not restarted for */
    SIGNAL_STACK_BYTES = 256 << 10, /* room for a sanitizer's handler, which we may call */
};

static const char variable[] = "DEVLINT_CRASHED_FILES=";

static const int caught_signals[DL_FAULT_SIGNAL_COUNT] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
static DlFaultHandlers previous; /* what the restart's handlers replaced */

static _Thread_local const char *working_on;
static bool installed;
/* the main thread's signal stack, in use until the process ends (static: no leak to report) */
static char main_signal_stack[SIGNAL_STACK_BYTES];

/* What the handler needs, made before any fault: it may not allocate. */
static char **restart_argv;
static char **restart_envp;  /* the environment without the variable, a slot for it, NULL */
static size_t variable_slot; /* restart_envp[variable_slot] is the new variable's entry */
static char *entry;          /* "DEVLINT_CRASHED_FILES=" + the earlier lines + room for one */
static size_t entry_used, entry_capacity;

/* The earlier processes' crashes: one line "SIGSEGV\tpath\n" each. */
static char **crashed_paths;
static char **crashed_signals;
static size_t crashed_count;

/* ---- async-signal-safe helpers (no locale, no allocation) -------------------------------- */

static size_t length(const char *s) {
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

static void say(const char *s) {
    size_t n = length(s);
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

static const char *signal_name(int sig) {
    switch (sig) {
    case SIGBUS:
        return "SIGBUS";
    case SIGILL:
        return "SIGILL";
    case SIGFPE:
        return "SIGFPE";
    default:
        return "SIGSEGV";
    }
}

static bool same(const char *a, const char *b) {
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

static bool may_restart_without(const char *path) {
    if (!entry || crashed_count >= MAX_RESTARTS || !path[0]) return false;
    size_t n = length(path);
    if (n > MAX_PATH_BYTES || entry_used + 16 + n + 2 > entry_capacity) return false;
    for (size_t i = 0; i < n; i++)
        if (path[i] == '\n' || path[i] == '\t') return false;
    for (size_t i = 0; i < crashed_count; i++) /* it crashed again: not the file's doing */
        if (same(crashed_paths[i], path)) return false;
    return true;
}

static void append(const char *s) {
    while (*s)
        entry[entry_used++] = *s++;
    entry[entry_used] = '\0';
}

void dl_fault_pass_on(const DlFaultHandlers *h, int sig, siginfo_t *info, void *context) {
    for (size_t i = 0; i < DL_FAULT_SIGNAL_COUNT; i++) {
        if (caught_signals[i] != sig) continue;
        const struct sigaction *before = &h->previous[i];
        if (before->sa_flags & SA_SIGINFO) {
            before->sa_sigaction(sig, info, context);
        } else if (before->sa_handler != SIG_DFL && before->sa_handler != SIG_IGN) {
            before->sa_handler(sig);
        } else {
            signal(sig, SIG_DFL);
            if (info->si_code <= 0) raise(sig);
        }
        return;
    }
}

void dl_fault_handlers_install(DlFaultHandlers *h, void (*handler)(int, siginfo_t *, void *)) {
    struct sigaction ours;
    memset(&ours, 0, sizeof ours);
    ours.sa_sigaction = handler;
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&ours.sa_mask);
    for (size_t i = 0; i < DL_FAULT_SIGNAL_COUNT; i++)
        sigaction(caught_signals[i], &ours, &h->previous[i]);
}

static void on_fault(int sig, siginfo_t *info, void *context) {
    const char *path = working_on;
    say("devlint: internal error: ");
    say(signal_name(sig));
    if (path) {
        say(" while analysing ");
        say(path);
    }
    if (!path || !may_restart_without(path)) {
        say("\n");
        dl_fault_pass_on(&previous, sig, info, context);
        return;
    }
    say("; checking the other files again without it\n");
    append(signal_name(sig));
    append("\t");
    append(path);
    append("\n");
    restart_envp[variable_slot] = entry;
    /* the new process inherits this thread's mask, in which the signal is blocked: a fault
     * there would end it at once */
    sigset_t caught;
    sigemptyset(&caught);
    for (size_t i = 0; i < DL_FAULT_SIGNAL_COUNT; i++)
        sigaddset(&caught, caught_signals[i]);
    sigprocmask(SIG_UNBLOCK, &caught, NULL);
    execve("/proc/self/exe", restart_argv, restart_envp);
    say("devlint: internal error: could not start again\n");
    signal(sig, SIG_DFL);
    raise(sig);
}

/* ---- set-up ------------------------------------------------------------------------------ */

static void read_earlier_crashes(const char *value) {
    size_t lines = 0;
    for (const char *p = value; *p; p++)
        lines += *p == '\n';
    crashed_paths = calloc(lines + 1, sizeof *crashed_paths);
    crashed_signals = calloc(lines + 1, sizeof *crashed_signals);
    if (!crashed_paths || !crashed_signals) abort();
    const char *line = value;
    while (*line) {
        const char *end = strchr(line, '\n');
        if (!end) break;
        const char *tab = memchr(line, '\t', (size_t)(end - line));
        if (tab) {
            crashed_signals[crashed_count] = strndup(line, (size_t)(tab - line));
            crashed_paths[crashed_count] = strndup(tab + 1, (size_t)(end - tab - 1));
            if (!crashed_signals[crashed_count] || !crashed_paths[crashed_count]) abort();
            crashed_count++;
        }
        line = end + 1;
    }
}

static bool prepare_restart(char **argv, const char *earlier) {
    size_t count = 0;
    for (char **e = environ; e && *e; e++)
        count++;
    restart_envp = calloc(count + 2, sizeof *restart_envp);
    entry_capacity = sizeof variable + length(earlier) + 16 + MAX_PATH_BYTES + 2;
    entry = malloc(entry_capacity);
    if (!restart_envp || !entry) return false;
    for (char **e = environ; e && *e; e++)
        if (strncmp(*e, variable, sizeof variable - 1) != 0) restart_envp[variable_slot++] = *e;
    entry[0] = '\0';
    append(variable);
    append(earlier);
    restart_argv = argv;
    return true;
}

/* Gives the calling thread `stack` (NULL: one allocated) as its signal stack, unless it has one
 * (a sanitizer gives each thread one: it is kept). Returns what was allocated, or NULL. */
static void *give_signal_stack(char *stack) {
    stack_t current, own = {0};
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return NULL;
    char *allocated = stack ? NULL : malloc(SIGNAL_STACK_BYTES);
    own.ss_sp = stack ? stack : allocated;
    own.ss_size = SIGNAL_STACK_BYTES;
    if (!own.ss_sp || sigaltstack(&own, NULL) != 0) {
        free(allocated);
        return NULL;
    }
    return allocated;
}

void dl_crash_restart_install(char **argv) {
    if (installed) return;
    const char *earlier = getenv("DEVLINT_CRASHED_FILES");
    if (!earlier) earlier = "";
    read_earlier_crashes(earlier);
    if (!prepare_restart(argv, earlier)) return;
    give_signal_stack(main_signal_stack);
    dl_fault_handlers_install(&previous, on_fault);
    installed = true;
}

/* ---- per thread -------------------------------------------------------------------------- */

void dl_crash_restart_working_on(const char *path) {
    working_on = path;
}

const char *dl_crash_restart_current(void) {
    return working_on;
}

void *dl_crash_restart_thread_begin(void) {
    return installed ? give_signal_stack(NULL) : NULL;
}

void dl_crash_restart_thread_end(void *signal_stack) {
    if (!signal_stack) return;
    stack_t off = {.ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
    free(signal_stack);
}

/* ---- what earlier processes left out ------------------------------------------------------ */

bool dl_crash_restart_crashed_on(const char *path, const char **signal_name_out) {
    for (size_t i = 0; i < crashed_count; i++) {
        if (strcmp(crashed_paths[i], path) != 0) continue;
        if (signal_name_out) *signal_name_out = crashed_signals[i];
        return true;
    }
    return false;
}

bool dl_crash_restart_any(void) {
    return crashed_count > 0;
}
