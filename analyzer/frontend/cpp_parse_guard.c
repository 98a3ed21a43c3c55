/* libclang's parse on a thread where the compiler's crashes are caught (see cpp_parse_guard.h). */
#define _GNU_SOURCE /* dl_iterate_phdr, pthread_getattr_np, REG_RIP */
#include "frontend/cpp_parse_guard.h"

#include "core/crash_restart.h"

#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#if defined(__SANITIZE_ADDRESS__)
#define DL_LEAK_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DL_LEAK_CHECKED 1
#endif
#endif
#ifdef DL_LEAK_CHECKED
#include <sanitizer/lsan_interface.h>
#endif

enum {
    PARSE_STACK_BYTES = 8 << 20,       /* what libclang gives its own parse thread */
    SIGNAL_STACK_BYTES = 256 << 10,    /* room for a sanitizer's handler, which we may call */
    MAX_CODE_RANGES = 32,
};

void dl_cpp_parse_guard_setup_process(void) {
    setenv("LIBCLANG_NOTHREADS", "1", 1);
    setenv("LIBCLANG_DISABLE_CRASH_RECOVERY", "1", 1);
}

/* ---- where the compiler's code lies ------------------------------------------------------ */

typedef struct CodeRange {
    uintptr_t lo, hi;
} CodeRange;

static CodeRange code_ranges[MAX_CODE_RANGES];
static size_t code_range_count;

/* libclang, the LLVM it links and the C++ runtime they call: a fault there, on the parse
 * thread, is the compiler's. The C library is left out: its malloc holds a lock that a jump
 * out of it would never release. */
static bool compiler_library(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return strncmp(base, "libclang", 8) == 0 || strncmp(base, "libLLVM", 7) == 0 ||
           strncmp(base, "libstdc++", 9) == 0;
}

static int add_code_ranges(struct dl_phdr_info *info, size_t size, void *unused) {
    (void)size, (void)unused;
    if (!info->dlpi_name || !compiler_library(info->dlpi_name)) return 0;
    for (size_t i = 0; i < info->dlpi_phnum && code_range_count < MAX_CODE_RANGES; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
        uintptr_t lo = (uintptr_t)info->dlpi_addr + (uintptr_t)ph->p_vaddr;
        code_ranges[code_range_count++] = (CodeRange){lo, lo + (uintptr_t)ph->p_memsz};
    }
    return 0;
}

static bool in_compiler_code(uintptr_t pc) {
    for (size_t i = 0; i < code_range_count; i++)
        if (pc >= code_ranges[i].lo && pc < code_ranges[i].hi) return true;
    return false;
}

static uintptr_t fault_pc(const void *context) {
    const ucontext_t *uc = context;
#if defined(__x86_64__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)uc->uc_mcontext.pc;
#else
    (void)uc;
    return 0; /* unknown: nothing is caught */
#endif
}

/* ---- the handler ------------------------------------------------------------------------- */

typedef struct Guard {
    sigjmp_buf jump;
    uintptr_t stack_lo; /* the lowest address of the parse thread's stack */
} Guard;

static _Thread_local Guard *active_guard; /* set while this thread parses */
/* What the handler saw, for after the jump (a local changed between sigsetjmp and siglongjmp
 * would be indeterminate) */
static _Thread_local int crash_signal;
static _Thread_local bool crash_overflow;

static DlFaultHandlers previous; /* what the guard's handlers replaced (core/crash_restart.h) */

static void on_fault(int sig, siginfo_t *info, void *context) {
    Guard *guard = active_guard;
    if (!guard || info->si_code <= 0 || !in_compiler_code(fault_pc(context))) {
        dl_fault_pass_on(&previous, sig, info, context);
        return;
    }
    active_guard = NULL;
    uintptr_t addr = (uintptr_t)info->si_addr;
    crash_signal = sig;
    /* a fault in the guard page below the stack, or a frame's width further down */
    crash_overflow =
        sig == SIGSEGV && addr < guard->stack_lo + 4096 && addr + (1u << 20) >= guard->stack_lo;
    siglongjmp(guard->jump, 1);
}

static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static void install(void) {
    dl_iterate_phdr(add_code_ranges, NULL);
    dl_fault_handlers_install(&previous, on_fault);
}

/* ---- the parse thread -------------------------------------------------------------------- */

typedef struct ParseCall {
    CXIndex index;
    const char *path;
    const char *const *args;
    int arg_count;
    struct CXUnsavedFile *unsaved;
    unsigned unsaved_count, options;
    CXTranslationUnit tu;
    enum CXErrorCode rc;
    const char *what;
    const char *working_on; /* the caller's file: a fault in devlint's own code costs it */
} ParseCall;

static void parse(ParseCall *call) {
    call->rc = clang_parseTranslationUnit2(call->index, call->path, call->args, call->arg_count,
                                           call->unsaved, call->unsaved_count, call->options,
                                           &call->tu);
}

static uintptr_t stack_low_end(void) {
    pthread_attr_t attr;
    void *addr = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    return (uintptr_t)addr;
}

static const char *crash_in_words(void) {
    if (crash_overflow) return "its parser ran out of stack";
    switch (crash_signal) {
    case SIGBUS: return "it faulted (SIGBUS)";
    case SIGILL: return "it faulted (SIGILL)";
    case SIGFPE: return "it faulted (SIGFPE)";
    default: return "it faulted (SIGSEGV)";
    }
}

static void *parse_thread(void *arg) {
    ParseCall *call = arg;
    dl_crash_restart_working_on(call->working_on);
#ifdef DL_LEAK_CHECKED
    /* what a crashed parse allocated is lost for good; the translation unit is freed by
     * clang_disposeTranslationUnit either way */
    __lsan_disable();
#endif
    /* a thread may have a signal stack already (a sanitizer gives each one): keep it */
    stack_t current, own = {0};
    bool has_stack = sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE);
    if (!has_stack && (own.ss_sp = malloc(SIGNAL_STACK_BYTES))) {
        own.ss_size = SIGNAL_STACK_BYTES;
        has_stack = sigaltstack(&own, NULL) == 0;
    }
    Guard guard = {.stack_lo = stack_low_end()};
    if (!has_stack) { /* no handler could run on a stack overflow: parse as libclang would */
        parse(call);
    } else if (sigsetjmp(guard.jump, 1) == 0) {
        active_guard = &guard;
        parse(call);
        active_guard = NULL;
    } else {
        call->rc = CXError_Crashed;
        call->tu = NULL;
        call->what = crash_in_words();
    }
    if (own.ss_sp) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
        free(own.ss_sp);
    }
    return NULL;
}

enum CXErrorCode dl_cpp_parse_guarded(CXIndex index, const char *path, const char *const *args,
                                      int arg_count, struct CXUnsavedFile *unsaved,
                                      unsigned unsaved_count, unsigned options,
                                      CXTranslationUnit *tu, const char **what) {
    pthread_once(&install_once, install);
    ParseCall call = {index,
                      path,
                      args,
                      arg_count,
                      unsaved,
                      unsaved_count,
                      options,
                      NULL,
                      CXError_Failure,
                      NULL,
                      dl_crash_restart_current()};
    pthread_attr_t attr;
    pthread_t thread;
    bool started = pthread_attr_init(&attr) == 0;
    if (started) {
        started = pthread_attr_setstacksize(&attr, PARSE_STACK_BYTES) == 0 &&
                  pthread_create(&thread, &attr, parse_thread, &call) == 0;
        pthread_attr_destroy(&attr);
    }
    if (started)
        pthread_join(thread, NULL);
    else /* no thread to spare: unguarded, as libclang would parse */
        parse(&call);
    *tu = call.tu;
    if (what) *what = call.what;
    return call.rc;
}
