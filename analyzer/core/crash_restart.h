/* A crash of devlint's own code while it works on one file costs that file, not the run.
 *
 * A bug in the analysis (a null pointer on a shape of code nobody foresaw) used to end the whole
 * process: a CI job or a pre-commit hook got a bare "Segmentation fault" and no result for any
 * file. Jumping out of the fault is not safe (the C library's malloc may hold a lock, an arena
 * may be half written), so devlint starts itself again instead: the handler of SIGSEGV, SIGBUS,
 * SIGILL and SIGFPE, when the thread that faulted was working on a file, adds that file to
 * DEVLINT_CRASHED_FILES and execs /proc/self/exe with the same arguments. The new process leaves
 * the files named there out and reports each as a per-file error, and exits 2 (an internal
 * error); the other files are checked as usual (what the first process stored in the result
 * cache is reused). Each crash costs one file; after MAX_RESTARTS crashes, or a crash outside
 * any file's work, or a second crash on a file already left out, the signal goes on to the
 * handler that was there before (the default: the process ends), after one line naming it.
 *
 * Only `devlint check` over files installs it (not stdin, which was read already, nor the
 * language server, whose editor restarts it). Stack overflows are caught too: each thread that
 * works on files gets an alternate signal stack. */
#ifndef DL_CRASH_RESTART_H
#define DL_CRASH_RESTART_H
#include <signal.h>
#include <stdbool.h>

/* Installs the handlers and gives the calling thread a signal stack. `argv` is main's, kept for
 * the exec. Call it before any worker thread starts, once. */
void dl_crash_restart_install(char **argv);

/* Names the file the calling thread now works on (NULL: none). Cheap: a thread-local store. */
void dl_crash_restart_working_on(const char *path);
const char *dl_crash_restart_current(void);

/* Whether an earlier process of this run crashed on `path`; *signal_name is then "SIGSEGV"... */
bool dl_crash_restart_crashed_on(const char *path, const char **signal_name);
/* Whether any file was left out after a crash. */
bool dl_crash_restart_any(void);

/* A signal stack for a worker thread when the handlers are installed and the thread has none
 * (a sanitizer gives each thread one: it is kept). Hand the result to ..._thread_end. */
void *dl_crash_restart_thread_begin(void);
void dl_crash_restart_thread_end(void *signal_stack);

/* The fault signals devlint's two handlers catch (SIGSEGV, SIGBUS, SIGILL, SIGFPE: this file's
 * restart and cpp_parse_guard.c's recovery), with the actions a handler replaced. */
enum { DL_FAULT_SIGNAL_COUNT = 4 };
typedef struct DlFaultHandlers {
    struct sigaction previous[DL_FAULT_SIGNAL_COUNT];
} DlFaultHandlers;

/* Installs `handler` (SA_SIGINFO, run on the thread's signal stack) for the fault signals,
 * keeping in `h` the actions it replaces. */
void dl_fault_handlers_install(DlFaultHandlers *h, void (*handler)(int, siginfo_t *, void *));

/* Hands a fault signal to the action `h` kept for it: its handler, or the default action (the
 * faulting instruction runs again and ends the process; a signal sent, not raised by a fault, is
 * sent again). Async-signal-safe. */
void dl_fault_pass_on(const DlFaultHandlers *h, int sig, siginfo_t *info, void *context);

#endif
