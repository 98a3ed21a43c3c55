/* `devlint run [--findings FILE] [--report FILE] [--format text|json] -- python SCRIPT ARGS`
 * (or `-- python -m MODULE ARGS`): runs the user's program unchanged under devlint's runtime and
 * reports, at exit, whether each finding was confirmed, refuted, not reached or inconclusive.
 *
 * This command only prepares: without --findings it checks the program's project statically
 * (this same binary, as a subprocess, with --format json), then it execs the user's python as
 * `python [its options] -m devlint_runtime --findings F ... -- SCRIPT ARGS` with PYTHONPATH
 * pointing at the runtime built next to this binary (build/runtime/). From then on the process is
 * the user's program: its output and exit status are the program's, and the runtime's report is
 * written to stderr (and --report) when it exits. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/files.h"

enum { RUN_USAGE = 2, RUN_NOT_FOUND = 127 };

typedef struct RunOptions {
    const char *findings, *report, *format;
    char **program; /* python [options] (SCRIPT | -m MODULE) ARGS... */
    int program_argc;
    int target; /* index in program of SCRIPT, or of MODULE after -m */
    bool module;
} RunOptions;

static const char run_usage[] =
    "Usage: devlint run [OPTIONS] -- python SCRIPT [ARGS...]\n"
    "       devlint run [OPTIONS] -- python -m MODULE [ARGS...]\n"
    "\n"
    "Runs the program unchanged and checks devlint's findings on it: each is confirmed (the\n"
    "devices really differed where the finding said), refuted (the line ran and the devices\n"
    "agreed), not-reached or inconclusive (e.g. everything stayed on the CPU). Device mismatches\n"
    "that no finding predicted are reported too. The report goes to stderr when the program\n"
    "exits; the program's own output and exit status are unchanged.\n"
    "\n"
    "Options:\n"
    "  --findings FILE   the findings to check (devlint --format json output); default: check\n"
    "                    the script's directory (for -m, the current directory) first\n"
    "  --report FILE     also write the report to FILE (JSON)\n"
    "  --format FORMAT   text (default) or json, for the report on stderr\n"
    "  -h, --help        print this help and exit\n";

static int run_error(const char *fmt, const char *arg) {
    fputs("devlint: error: run: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nRun `devlint run --help` for usage.\n", stderr);
    return RUN_USAGE;
}

/* --name VALUE or --name=VALUE at argv[*i]; NULL when it is another option. */
static const char *take_value(int argc, char **argv, int *i, const char *name, bool *missing) {
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0) return NULL;
    if (a[n] == '=') return a + n + 1;
    if (a[n] != '\0') return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

/* Finds SCRIPT or -m MODULE after python's own options (-u, -O, -W arg, -X arg...). */
static int parse_program(RunOptions *o) {
    if (o->program_argc < 2)
        return run_error("%s", "no program: give `-- python SCRIPT [ARGS...]`");
    for (int j = 1; j < o->program_argc; j++) {
        const char *a = o->program[j];
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (strcmp(a, "-") == 0) return run_error("%s", "cannot run a program read from stdin");
            o->target = j;
            return 0;
        }
        if (strcmp(a, "-m") == 0) {
            if (j + 1 >= o->program_argc) return run_error("%s", "-m needs a module name");
            o->module = true;
            o->target = j + 1;
            return 0;
        }
        if (strcmp(a, "-E") == 0 || strcmp(a, "-I") == 0)
            return run_error("python's `%s` ignores PYTHONPATH, which `devlint run` needs", a);
        if (strcmp(a, "-c") == 0)
            return run_error("%s", "`-c` is not supported: run a script or -m MODULE");
        if ((strcmp(a, "-W") == 0 || strcmp(a, "-X") == 0) && j + 1 < o->program_argc) j++;
    }
    return run_error("%s", "no script or -m MODULE after the python command");
}

static int parse_run_args(int argc, char **argv, RunOptions *o) {
    o->format = "text";
    int i = 0;
    for (; i < argc; i++) {
        const char *a = argv[i], *v;
        bool missing = false;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(run_usage, stdout);
            return -1;
        }
        if ((v = take_value(argc, argv, &i, "--findings", &missing)))
            o->findings = v;
        else if ((v = take_value(argc, argv, &i, "--report", &missing)))
            o->report = v;
        else if ((v = take_value(argc, argv, &i, "--format", &missing)))
            o->format = v;
        else if (missing)
            return run_error("option %s needs a value", a);
        else if (a[0] == '-')
            return run_error("unknown option `%s`", a);
        else
            break; /* the program, without `--` */
    }
    if (strcmp(o->format, "text") != 0 && strcmp(o->format, "json") != 0)
        return run_error("unknown format `%s` (text, json)", o->format);
    o->program = argv + i;
    o->program_argc = argc - i;
    return parse_program(o);
}

static bool is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* This binary's path (for the static check) and the runtime's directory: $DEVLINT_RUNTIME_DIR,
 * or runtime/ next to the binary, holding devlint_runtime/__main__.py. */
static bool find_runtime(char *exe, char *dir, size_t n) {
    ssize_t len = readlink("/proc/self/exe", exe, PATH_MAX - 1);
    if (len <= 0) return false;
    exe[len] = '\0';
    char probe[PATH_MAX + 64];
    const char *env = getenv("DEVLINT_RUNTIME_DIR");
    if (env && *env) {
        snprintf(dir, n, "%s", env);
    } else {
        snprintf(dir, n, "%s", exe);
        char *slash = strrchr(dir, '/');
        if (!slash) return false;
        snprintf(slash + 1, n - (size_t)(slash + 1 - dir), "runtime");
    }
    snprintf(probe, sizeof probe, "%s/devlint_runtime/__main__.py", dir);
    return is_file(probe);
}

/* What the static check looks at: the script's directory; for -m, the package's directory when
 * MODULE is in a package of the current directory, else the current directory. */
static void static_target(const RunOptions *o, char *out, size_t n) {
    const char *t = o->program[o->target];
    if (!o->module) {
        const char *slash = strrchr(t, '/');
        if (!slash)
            snprintf(out, n, ".");
        else if (slash == t)
            snprintf(out, n, "/");
        else
            snprintf(out, n, "%.*s", (int)(slash - t), t);
        return;
    }
    snprintf(out, n, "%.*s", (int)strcspn(t, "."), t);
    if (!dl_is_dir(out)) snprintf(out, n, ".");
}

/* Runs `devlint --format json --output-file FILE TARGET` quietly; true when FILE holds findings.
 * No result cache: `devlint run` leaves no .devlint_cache behind in the user's directory. */
static bool static_check(const char *exe, const char *target, const char *file) {
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        FILE *null = fopen("/dev/null", "w");
        if (null) {
            dup2(fileno(null), STDOUT_FILENO);
            dup2(fileno(null), STDERR_FILENO);
        }
        char *args[] = {"devlint",       "--format",   "json", "--exit-zero",  "--no-cache",
                        "--output-file", (char *)file, "--",   (char *)target, NULL};
        execv(exe, args);
        _exit(RUN_NOT_FOUND);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static bool temporary_file(char *path, size_t n) {
    const char *tmp = getenv("TMPDIR");
    snprintf(path, n, "%s/devlint-findings-XXXXXX.json", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemps(path, 5);
    if (fd < 0) return false;
    close(fd);
    return true;
}

/* PYTHONPATH with the runtime first; the launcher restores the user's value. */
static bool set_environment(const char *runtime_dir) {
    const char *old = getenv("PYTHONPATH");
    char *value;
    if (old && *old) {
        if (setenv("DEVLINT_RUNTIME_PYTHONPATH", old, 1) != 0) return false;
        size_t n = strlen(runtime_dir) + strlen(old) + 2;
        value = malloc(n);
        if (!value) return false;
        snprintf(value, n, "%s:%s", runtime_dir, old);
    } else {
        if (setenv(old ? "DEVLINT_RUNTIME_PYTHONPATH" : "DEVLINT_RUNTIME_PYTHONPATH_UNSET",
                   old ? old : "1", 1) != 0)
            return false;
        value = strdup(runtime_dir);
        if (!value) return false;
    }
    bool ok = setenv("PYTHONPATH", value, 1) == 0;
    free(value);
    return ok;
}

static int exec_program(const RunOptions *o, const char *findings, bool temporary) {
    /* python [options] -m devlint_runtime --findings F [--findings-temp] [--report R]
     * --format FMT -- (SCRIPT | -m MODULE) ARGS... */
    char **args = calloc((size_t)o->program_argc + 16, sizeof *args);
    if (!args) return run_error("%s", "out of memory");
    int n = 0;
    int options_end = o->module ? o->target - 1 : o->target;
    for (int j = 0; j < options_end; j++)
        args[n++] = o->program[j];
    args[n++] = "-m";
    args[n++] = "devlint_runtime";
    if (findings) {
        args[n++] = "--findings";
        args[n++] = (char *)findings;
    }
    if (temporary) args[n++] = "--findings-temp";
    if (o->report) {
        args[n++] = "--report";
        args[n++] = (char *)o->report;
    }
    args[n++] = "--format";
    args[n++] = (char *)o->format;
    args[n++] = "--";
    if (o->module) args[n++] = "-m";
    for (int j = o->target; j < o->program_argc; j++)
        args[n++] = o->program[j];
    args[n] = NULL;
    fflush(NULL);
    execvp(o->program[0], args);
    int err = errno;
    free(args);
    fprintf(stderr, "devlint: error: run: cannot run `%s`: %s\n", o->program[0], strerror(err));
    if (temporary) unlink(findings);
    return RUN_NOT_FOUND;
}

int dl_cmd_run(int argc, char **argv) {
    RunOptions o = {0};
    int rc = parse_run_args(argc, argv, &o);
    if (rc < 0) return 0; /* --help */
    if (rc) return rc;
    char exe[PATH_MAX], runtime_dir[PATH_MAX];
    if (!find_runtime(exe, runtime_dir, sizeof runtime_dir)) {
        fputs("devlint: error: run: the runtime is not built: configure with a Python 3 that has "
              "its headers (apt-get install python3-dev) and -DDEVLINT_RUNTIME=ON, or set "
              "DEVLINT_RUNTIME_DIR\n",
              stderr);
        return RUN_USAGE;
    }
    if (o.findings && !is_file(o.findings))
        return run_error("cannot read findings file `%s`", o.findings);
    char findings[PATH_MAX];
    bool temporary = false;
    if (!o.findings) {
        char target[PATH_MAX];
        static_target(&o, target, sizeof target);
        if (!temporary_file(findings, sizeof findings)) {
            fprintf(stderr, "devlint: error: run: cannot create a temporary file: %s\n",
                    strerror(errno));
            return RUN_USAGE;
        }
        temporary = static_check(exe, target, findings);
        if (!temporary) {
            unlink(findings);
            fprintf(stderr,
                    "devlint: warning: run: the static check of %s failed; running "
                    "without findings\n",
                    target);
        }
    }
    if (!set_environment(runtime_dir)) return run_error("%s", "cannot set PYTHONPATH");
    return exec_program(&o, o.findings ? o.findings : temporary ? findings : NULL, temporary);
}
