/* The devlint command line: argument parsing and the subcommands `check` (the default),
 * `rules` and `explain`. Exit codes: 0 clean, 1 findings (or files that could not be checked),
 * 2 usage or internal error. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/commands.h"
#include "core/crash_restart.h"
#include "core/files.h"
#include "core/pool.h"
#include "core/vec.h"
#include "driver/baseline.h"
#include "driver/check.h"
#include "driver/fixing.h"
#include "driver/selection.h"
#include "driver/settings.h"
#ifdef DEVLINT_HAVE_CLANG
#include "frontend/cpp_parse_guard.h"
#endif
#include "report/report.h"
#include "rules/rule.h"

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 2 };
enum { DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024 };

typedef DL_VEC(const char *) StrVec;

typedef struct CliOptions {
    StrVec paths, select, ignore, exclude, extend_exclude;
    DlFormat format;
    const char *output_file;
    const char *stdin_filename;
    const char *config_path;
    const char *show_settings;
    const char *baseline, *write_baseline, *diff_base;
    const char *cache_dir; /* --cache-dir; NULL: .devlint_cache */
    bool no_cache;
    const char *compile_db_dir; /* -p DIR */
    bool no_pch;
    size_t max_file_bytes;
    bool exit_zero, statistics, quiet, exclude_given, fix, diff, unsafe_fixes, isolated;
    int jobs;
} CliOptions;

static const char usage_text[] =
    "devlint: finds PyTorch device-mismatch bugs before they run\n"
    "\n"
    "Usage:\n"
    "  devlint [check] [OPTIONS] PATH...   check files and directories (`-` reads stdin)\n"
    "  devlint rules                       list every rule\n"
    "  devlint explain CODE|NAME           print a rule's documentation\n"
    "  devlint lsp                         run the language server on stdin/stdout\n"
    "  devlint run [OPTIONS] -- python ... run a program and confirm the findings on it\n"
    "\n"
    "Options:\n"
    "  --select LIST           rules to enable: codes (DL101), prefixes (DL1) or names\n"
    "                          (unassigned-to), comma-separated; repeatable\n"
    "  --ignore LIST           rules to disable, same forms; repeatable\n"
    "  --format FORMAT         text (default), json, sarif, github or gitlab\n"
    "  --output-file FILE      write the report to FILE instead of stdout\n"
    "  --fix                   apply the safe fixes in place, then report what is left\n"
    "  --diff                  print the fixes as a unified diff instead of writing them\n"
    "                          (exit 1 when there is one)\n"
    "  --unsafe-fixes          also apply fixes marked unsafe (with --fix or --diff)\n"
    "  --exit-zero             exit 0 even when problems are found\n"
    "  --baseline FILE         report only findings that are not in this baseline\n"
    "  --write-baseline FILE   record the current findings as the baseline and exit 0\n"
    "  --diff-base REV         report only findings on lines changed since git revision REV\n"
    "  --max-file-size BYTES   files larger than this are reported as errors (default 10 MiB)\n"
    "  --config FILE           use this configuration file (devlint.toml, or a pyproject.toml\n"
    "                          with [tool.devlint]) instead of the nearest one of each file\n"
    "  --isolated              ignore all configuration files\n"
    "  --cache-dir DIR         keep per-file results here (default .devlint_cache); a file whose\n"
    "                          bytes, settings and project did not change is not analysed again\n"
    "  --no-cache              neither read nor write the result cache\n"
    "  -p DIR                  C++/CUDA: the directory of the compile_commands.json to take\n"
    "                          each file's flags from (default: the nearest one above the\n"
    "                          file, or in a build/ directory there)\n"
    "  --no-pch                C++/CUDA: do not use or build precompiled headers\n"
    "  --show-settings FILE    print the settings FILE would be checked with, and exit\n"
    "  --statistics            print how many findings each rule has instead of the findings\n"
    "  -j, --jobs N            worker threads (default: all cores)\n"
    "  -q, --quiet             print findings only, no summary\n"
    "  --exclude GLOB          paths to skip, replacing the default list (venv, .venv,\n"
    "                          node_modules, __pycache__, build, dist, site-packages; hidden\n"
    "                          entries such as .git are always skipped); repeatable\n"
    "  --extend-exclude GLOB   paths to skip in addition to the defaults; repeatable\n"
    "  --stdin-filename NAME   the file name to report when reading `-` (stdin)\n"
    "  --version               print the version and exit\n"
    "  -h, --help              print this help and exit\n"
    "\n"
    "Exit status: 0 no problems, 1 problems found (or files that could not be checked),\n"
    "2 usage or internal error.\n";

static int usage_error(const char *fmt, const char *arg) {
    fputs("devlint: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nRun `devlint --help` for usage.\n", stderr);
    return EXIT_USAGE;
}

/* --opt VALUE or --opt=VALUE; advances *i. NULL when the value is missing. */
static const char *option_value(int argc, char **argv, int *i, const char *name) {
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) == 0 && arg[n] == '=') return arg + n + 1;
    if (*i + 1 >= argc) return NULL;
    return argv[++*i];
}

static bool is_option(const char *arg, const char *name) {
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

static int parse_jobs(const char *value, int *out) {
    char *end = NULL;
    errno = 0;
    long n = value ? strtol(value, &end, 10) : 0;
    if (!value || *end || errno || n < 1 || n > 1024) return -1;
    *out = (int)n;
    return 0;
}

static int parse_args(int argc, char **argv, int first, CliOptions *o) {
    bool only_paths = false;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (only_paths || a[0] != '-' || strcmp(a, "-") == 0) {
            dl_vec_push(&o->paths, a);
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_paths = true;
            continue;
        }
        const char *v;
#define VALUE(name)                                                                                \
    do {                                                                                           \
        v = option_value(argc, argv, &i, name);                                                    \
        if (!v) return usage_error("option %s needs a value", name);                               \
    } while (0)
        if (is_option(a, "--select")) {
            VALUE("--select");
            dl_vec_push(&o->select, v);
        } else if (is_option(a, "--ignore")) {
            VALUE("--ignore");
            dl_vec_push(&o->ignore, v);
        } else if (is_option(a, "--format")) {
            VALUE("--format");
            if (!dl_format_parse(v, &o->format))
                return usage_error("unknown format `%s` (text, json, sarif, github, gitlab)", v);
        } else if (is_option(a, "--output-file")) {
            VALUE("--output-file");
            o->output_file = v;
        } else if (is_option(a, "--exclude")) {
            VALUE("--exclude");
            dl_vec_push(&o->exclude, v);
            o->exclude_given = true;
        } else if (is_option(a, "--extend-exclude")) {
            VALUE("--extend-exclude");
            dl_vec_push(&o->extend_exclude, v);
        } else if (is_option(a, "--stdin-filename")) {
            VALUE("--stdin-filename");
            o->stdin_filename = v;
        } else if (is_option(a, "--jobs") || strcmp(a, "-j") == 0) {
            VALUE(strcmp(a, "-j") == 0 ? "-j" : "--jobs");
            if (parse_jobs(v, &o->jobs) != 0)
                return usage_error("--jobs needs a whole number from 1 to 1024, not `%s`", v);
        } else if (strncmp(a, "-j", 2) == 0 && isdigit((unsigned char)a[2])) {
            if (parse_jobs(a + 2, &o->jobs) != 0)
                return usage_error("--jobs needs a whole number from 1 to 1024, not `%s`", a + 2);
        } else if (is_option(a, "--config")) {
            VALUE("--config");
            o->config_path = v;
        } else if (is_option(a, "--show-settings")) {
            VALUE("--show-settings");
            o->show_settings = v;
        } else if (is_option(a, "--baseline")) {
            VALUE("--baseline");
            o->baseline = v;
        } else if (is_option(a, "--write-baseline")) {
            VALUE("--write-baseline");
            o->write_baseline = v;
        } else if (is_option(a, "--diff-base")) {
            VALUE("--diff-base");
            o->diff_base = v;
        } else if (is_option(a, "--max-file-size")) {
            VALUE("--max-file-size");
            char *end = NULL;
            unsigned long long n = strtoull(v, &end, 10);
            if (!*v || *end || n == 0)
                return usage_error("--max-file-size needs a positive number of bytes, not `%s`", v);
            o->max_file_bytes = (size_t)n;
        } else if (strcmp(a, "--isolated") == 0) {
            o->isolated = true;
        } else if (is_option(a, "--cache-dir")) {
            VALUE("--cache-dir");
            if (!*v) return usage_error("%s", "--cache-dir needs a directory");
            o->cache_dir = v;
        } else if (strcmp(a, "--no-cache") == 0) {
            o->no_cache = true;
        } else if (is_option(a, "-p")) {
            VALUE("-p");
            o->compile_db_dir = v;
        } else if (strcmp(a, "--no-pch") == 0) {
            o->no_pch = true;
        } else if (strcmp(a, "--fix") == 0) {
            o->fix = true;
        } else if (strcmp(a, "--diff") == 0) {
            o->diff = true;
        } else if (strcmp(a, "--unsafe-fixes") == 0) {
            o->unsafe_fixes = true;
        } else if (strcmp(a, "--exit-zero") == 0) {
            o->exit_zero = true;
        } else if (strcmp(a, "--statistics") == 0) {
            o->statistics = true;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            o->quiet = true;
        } else {
            return usage_error("unknown option `%s`", a);
        }
#undef VALUE
    }
    return 0;
}

static void free_options(CliOptions *o) {
    dl_vec_free(&o->paths);
    dl_vec_free(&o->select);
    dl_vec_free(&o->ignore);
    dl_vec_free(&o->exclude);
    dl_vec_free(&o->extend_exclude);
}

/* ---------------------------------------------------------------- rules / explain */

static int cmd_rules(void) {
    printf("%-6s  %-30s  %-8s  %-8s  %s\n", "code", "name", "severity", "fix", "summary");
    for (size_t i = 0; i < dl_rule_count; i++) {
        const DlRule *r = dl_rules[i];
        printf("%-6s  %-30s  %-8s  %-8s  %s%s\n", r->code, r->name, dl_severity_name(r->severity),
               r->fixable ? "fixable" : "-", r->summary, r->default_enabled ? "" : " (off by default)");
    }
    return EXIT_CLEAN;
}

static int cmd_explain(int argc, char **argv, int first) {
    if (first >= argc) return usage_error("%s", "`devlint explain` needs a rule code or name");
    const DlRule *r = dl_rule_find(argv[first]);
    if (!r) return usage_error("unknown rule `%s` (see `devlint rules`)", argv[first]);
    printf("# %s (%s)\n\n", r->code, r->name);
    printf("Severity: %s. %s%s\n\n", dl_severity_name(r->severity),
           r->fixable ? "A fix is available." : "No automatic fix.",
           r->default_enabled ? "" : " Off by default: enable it with --select.");
    printf("%s\n\n%s", r->summary, r->doc);
    return EXIT_CLEAN;
}

/* ---------------------------------------------------------------- check */

static char *read_all(FILE *in, size_t *len) {
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    if (!buf) abort();
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) abort();
        }
        size_t got = fread(buf + n, 1, cap - n, in);
        n += got;
        if (got == 0) break;
    }
    *len = n;
    return buf;
}

/* What one check reads: the walked files (or stdin), kept across --fix rounds. */
typedef struct CheckInput {
    DlFileList files;
    char **paths; /* the files checked: walked ones a config excludes are left out */
    const DlSettings **settings; /* parallel to paths */
    DlFileStat *stats;           /* parallel to paths (not for stdin) */
    size_t count;
    char *stdin_text;
    size_t stdin_len;
    char *stdin_name;
} CheckInput;

static void run_check(const CheckInput *in, DlCheckOptions *check, DlResult *out) {
    check->settings = in->settings;
    if (in->stdin_name) {
        check->stdin_text = in->stdin_text;
        check->stdin_len = in->stdin_len;
        char *name = in->stdin_name;
        dl_check_files(&name, 1, check, out);
        return;
    }
    for (size_t i = 0; i < in->files.error_count; i++)
        dl_result_add_error(out, in->files.error_paths[i], in->files.error_messages[i]);
    for (size_t i = 0; i < in->files.count; i++) { /* left out by resolve_settings */
        const char *signal_name = NULL;
        if (!dl_crash_restart_crashed_on(in->files.paths[i], &signal_name)) continue;
        char message[160];
        snprintf(message, sizeof message,
                 "devlint crashed (%s) while analysing this file and checked the others "
                 "without it; this is a bug in devlint: please report it with the file",
                 signal_name);
        dl_result_add_error(out, in->files.paths[i], message);
    }
    check->file_stats = in->stats;
    dl_check_files(in->paths, in->count, check, out);
    check->file_stats = NULL;
}

static bool named_on_command_line(const CliOptions *o, const char *path) {
    for (size_t i = 0; i < o->paths.len; i++) {
        const char *p = o->paths.items[i];
        if (strncmp(p, "./", 2) == 0) p += 2;
        if (strcmp(p, path) == 0) return true;
    }
    return false;
}

/* Settings for every file; walked files a config excludes are dropped. False on a bad config
 * (the error is printed). */
static bool resolve_settings(const CliOptions *o, DlSettingsContext *sc, CheckInput *in) {
    size_t n = in->stdin_name ? 1 : in->files.count;
    in->paths = calloc(n ? n : 1, sizeof *in->paths);
    in->settings = calloc(n ? n : 1, sizeof *in->settings);
    in->stats = calloc(n ? n : 1, sizeof *in->stats);
    if (!in->paths || !in->settings || !in->stats) abort();
    for (size_t i = 0; i < n; i++) {
        char *path = in->stdin_name ? in->stdin_name : in->files.paths[i];
        char *error = NULL;
        const DlSettings *s = dl_settings_for(sc, path, &error);
        if (!s) {
            fprintf(stderr, "devlint: error: %s\n", error);
            free(error);
            return false;
        }
        if (s->excluded && !in->stdin_name && !named_on_command_line(o, path)) continue;
        if (!in->stdin_name && dl_crash_restart_crashed_on(path, NULL)) continue; /* run_check */
        if (!in->stdin_name) in->stats[in->count] = in->files.stats[i];
        in->paths[in->count] = path;
        in->settings[in->count++] = s;
    }
    return true;
}

static int report(CliOptions *o, DlResult *result, FILE *out) {
    DlReportOptions ro = {.color = out == stdout && !o->output_file && isatty(STDOUT_FILENO) &&
                                   !getenv("NO_COLOR"),
                          .quiet = o->quiet,
                          .statistics = o->statistics,
                          .tool_version = DEVLINT_VERSION};
    dl_report_write(out, stderr, o->format, result, &ro);
    bool problems = result->diag_count > 0 || result->error_count > 0;
    return problems && !o->exit_zero ? EXIT_FINDINGS : EXIT_CLEAN;
}

enum { MAX_FIX_ROUNDS = 10 };

/* --diff: one round of fixes, printed as a unified diff; exit 1 when there is a change. */
static int run_diff(CliOptions *o, CheckInput *in, DlCheckOptions *check) {
    DlResult result = {0}, errors = {0};
    run_check(in, check, &result);
    DlFixRun run = {.unsafe = o->unsafe_fixes, .diff_out = stdout, .stdin_path = in->stdin_name,
                    .stdin_text = in->stdin_text, .stdin_len = in->stdin_len};
    size_t applied = dl_fix_round(&result, &run, &errors);
    for (size_t i = 0; i < errors.error_count; i++)
        fprintf(stderr, "devlint: error: %s: %s\n", errors.errors[i].path, errors.errors[i].message);
    free(run.stdin_fixed);
    dl_result_free(&result);
    dl_result_free(&errors);
    if (o->exit_zero) return EXIT_CLEAN;
    return applied ? EXIT_FINDINGS : EXIT_CLEAN;
}

/* --fix: fix, re-check, repeat until nothing more applies; then report what is left. With
 * stdin, the fixed source goes to stdout and the report to stderr (like ruff). */
static int run_fix(CliOptions *o, CheckInput *in, DlCheckOptions *check, FILE *out) {
    DlResult result = {0}, errors = {0};
    DlFixRun run = {.unsafe = o->unsafe_fixes, .write = true, .stdin_path = in->stdin_name,
                    .stdin_text = in->stdin_text, .stdin_len = in->stdin_len};
    size_t total = 0;
    run_check(in, check, &result);
    for (int round = 0; round < MAX_FIX_ROUNDS; round++) {
        size_t applied = dl_fix_round(&result, &run, &errors);
        if (!applied) break;
        total += applied;
        if (run.stdin_fixed) { /* stdin: the next round checks the fixed text */
            free(in->stdin_text);
            in->stdin_text = run.stdin_fixed;
            in->stdin_len = run.stdin_fixed_len;
            run.stdin_text = in->stdin_text;
            run.stdin_len = in->stdin_len;
            run.stdin_fixed = NULL;
        }
        dl_result_free(&result);
        run_check(in, check, &result);
    }
    dl_result_merge(&result, &errors);
    dl_result_sort(&result);
    if (in->stdin_name) {
        fwrite(in->stdin_text, 1, in->stdin_len, stdout);
        out = stderr;
    }
    if (o->format == DL_FORMAT_TEXT && !o->quiet)
        fprintf(out, "Fixed %zu problem%s.\n", total, total == 1 ? "" : "s");
    int rc = report(o, &result, out);
    dl_result_free(&result);
    dl_result_free(&errors);
    return rc;
}

/* --write-baseline / --baseline / --diff-base. Returns an exit code to stop with, or -1 to go
 * on and report (what is left of) the result. */
static int adopt(const CliOptions *o, DlResult *result) {
    char *error = NULL;
    if (o->write_baseline) {
        if (!dl_baseline_write(o->write_baseline, result, &error)) goto fail;
        fprintf(stderr, "devlint: wrote %zu finding%s to %s\n", result->diag_count,
                result->diag_count == 1 ? "" : "s", o->write_baseline);
        return EXIT_CLEAN;
    }
    if (o->baseline && !dl_baseline_filter(o->baseline, result, &error)) goto fail;
    if (o->diff_base && !dl_diff_base_filter(o->diff_base, result, &error)) goto fail;
    return -1;
fail:
    fprintf(stderr, "devlint: error: %s\n", error ? error : "failed");
    free(error);
    return EXIT_USAGE;
}

static int cmd_show_settings(CliOptions *o) {
    DlSettingsOptions so = {o->select.items, o->select.len, o->ignore.items, o->ignore.len,
                            o->config_path, o->isolated};
    DlSettingsContext *sc = dl_settings_new(&so);
    char *error = NULL;
    const DlSettings *s = dl_settings_for(sc, o->show_settings, &error);
    int rc = EXIT_CLEAN;
    if (s) {
        dl_settings_print(stdout, o->show_settings, s);
    } else {
        fprintf(stderr, "devlint: error: %s\n", error);
        free(error);
        rc = EXIT_USAGE;
    }
    dl_settings_free(sc);
    return rc;
}

static bool reads_stdin(const CliOptions *o) {
    for (size_t i = 0; i < o->paths.len; i++)
        if (strcmp(o->paths.items[i], "-") == 0) return true;
    return false;
}

static int cmd_check(CliOptions *o) {
    if (o->show_settings) return cmd_show_settings(o);
    if (!o->paths.len) return usage_error("%s", "no paths given (try `devlint .`)");
    if (o->fix && o->diff) return usage_error("%s", "--fix and --diff cannot be combined");
    bool enabled[DL_MAX_RULES] = {0}; /* only to reject unknown selectors early */
    char *error = NULL;
    if (!dl_selection_resolve(o->select.items, o->select.len, o->ignore.items, o->ignore.len,
                              enabled, &error)) {
        int rc = usage_error("%s", error);
        free(error);
        return rc;
    }
    DlCheckOptions check = {.jobs = o->jobs > 0 ? o->jobs : dl_cpu_count(),
                            .max_file_bytes = o->max_file_bytes ? o->max_file_bytes
                                                                : DEFAULT_MAX_FILE_BYTES,
                            .cache_dir = o->no_cache    ? NULL
                                         : o->cache_dir ? o->cache_dir
                                                        : ".devlint_cache",
                            .compile_db_dir = o->compile_db_dir,
                            .no_pch = o->no_pch};
    DlSettingsOptions so = {o->select.items, o->select.len, o->ignore.items, o->ignore.len,
                            o->config_path, o->isolated};
    CheckInput in = {0};
    bool from_stdin = reads_stdin(o);
    if (from_stdin) {
        if (o->paths.len != 1) return usage_error("%s", "`-` (stdin) cannot be mixed with paths");
        in.stdin_text = read_all(stdin, &in.stdin_len);
        in.stdin_name = (char *)(o->stdin_filename ? o->stdin_filename : "-");
    } else {
        DlWalkOptions walk = {o->exclude_given ? o->exclude.items : NULL, o->exclude.len,
                              o->extend_exclude.items, o->extend_exclude.len};
        dl_files_collect(o->paths.items, o->paths.len, &walk, &in.files);
    }

    DlSettingsContext *sc = dl_settings_new(&so);
    FILE *out = stdout;
    bool ok = resolve_settings(o, sc, &in);
    if (ok && o->output_file) {
        out = fopen(o->output_file, "w");
        if (!out) {
            fprintf(stderr, "devlint: error: cannot write %s: %s\n", o->output_file, strerror(errno));
            ok = false;
        }
    }
    if (!ok) {
        free(in.stdin_text);
        free(in.paths);
        free(in.settings);
        free(in.stats);
        dl_files_free(&in.files);
        dl_settings_free(sc);
        return EXIT_USAGE;
    }
    int rc;
    if (o->diff) {
        rc = run_diff(o, &in, &check);
    } else if (o->fix) {
        rc = run_fix(o, &in, &check, out);
    } else {
        DlResult result = {0};
        run_check(&in, &check, &result);
        rc = adopt(o, &result);
        if (rc < 0) rc = report(o, &result, out);
        dl_result_free(&result);
    }
    if (out != stdout) fclose(out);
    free(in.stdin_text);
    free(in.paths);
    free(in.settings);
    free(in.stats);
    dl_files_free(&in.files);
    dl_settings_free(sc);
    return rc;
}

int main(int argc, char **argv) {
    int first = 1;
    /* subcommands with their own options (and their own --help); `run` checks through a child
     * devlint and runs the user's program, whose environment stays the user's */
    if (argc > 1 && strcmp(argv[1], "run") == 0) return dl_cmd_run(argc - 2, argv + 2);
#ifdef DEVLINT_HAVE_CLANG
    dl_cpp_parse_guard_setup_process(); /* before any thread starts: it sets the environment */
#endif
    if (argc > 1 && strcmp(argv[1], "lsp") == 0) return dl_cmd_lsp(argc - 2, argv + 2);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            return EXIT_CLEAN;
        }
        if (strcmp(argv[i], "--version") == 0) {
            printf("devlint %s\n", DEVLINT_VERSION);
            return EXIT_CLEAN;
        }
        if (strcmp(argv[i], "--") == 0) break;
    }
    if (argc > 1 && strcmp(argv[1], "rules") == 0) return cmd_rules();
    if (argc > 1 && strcmp(argv[1], "explain") == 0) return cmd_explain(argc, argv, 2);
    if (argc > 1 && strcmp(argv[1], "check") == 0) first = 2;
    CliOptions o = {.format = DL_FORMAT_TEXT};
    int rc = parse_args(argc, argv, first, &o);
    /* a crash costs one file, not the run; stdin cannot be read twice */
    if (rc == 0 && !reads_stdin(&o)) dl_crash_restart_install(argv);
    if (rc == 0) rc = cmd_check(&o);
    if (rc != EXIT_USAGE && dl_crash_restart_any()) rc = EXIT_INTERNAL; /* even --exit-zero */
    free_options(&o);
    return rc;
}
