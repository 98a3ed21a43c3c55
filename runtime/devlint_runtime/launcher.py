"""Runs the user's program as `python SCRIPT ARGS` (or `python -m MODULE ARGS`) would, under the
tracer, and reports the verdicts at exit.

The program must not be able to tell: sys.argv, sys.path[0], __main__, PYTHONPATH, its stdout,
its stderr (tracebacks show the program's frames only), and its exit status are what they would
be without devlint. The report is written to the real stderr by an atexit handler registered
before the program starts, so it runs last: after the program's own atexit handlers and after
its non-daemon threads have finished.
"""
import atexit
import builtins
import json
import os
import re
import runpy
import site
import sys
import sysconfig
import threading
import types

from devlint_runtime import report

USAGE = ("usage: python -m devlint_runtime [--findings FILE] [--findings-temp] [--report FILE] "
         "[--format text|json] -- (SCRIPT | -m MODULE) [ARGS...]")
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class Options:
    def __init__(self):
        self.findings = None
        self.findings_temp = False
        self.report = None
        self.format = "text"
        self.module = None
        self.script = None
        self.args = []


def usage_error(message):
    sys.stderr.write("devlint run: error: %s\n%s\n" % (message, USAGE))
    sys.exit(2)


def parse_args(argv):
    opts = Options()
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        name, eq, value = arg.partition("=")
        if name in ("--findings", "--report", "--format"):
            if not eq:
                if i + 1 >= len(argv):
                    usage_error("option %s needs a value" % name)
                i += 1
                value = argv[i]
            setattr(opts, name[2:], value)
        elif arg == "--findings-temp":
            opts.findings_temp = True
        else:
            break
        i += 1
    if opts.format not in ("text", "json"):
        usage_error("unknown format %r (text, json)" % opts.format)
    rest = argv[i:]
    if not rest:
        usage_error("no program to run")
    if rest[0] == "-m":
        if len(rest) < 2:
            usage_error("-m needs a module name")
        opts.module, opts.args = rest[1], rest[2:]
    else:
        opts.script, opts.args = rest[0], rest[1:]
    return opts


def restore_environment():
    """PYTHONPATH as it was before `devlint run` added the runtime to it."""
    saved = os.environ.pop("DEVLINT_RUNTIME_PYTHONPATH", None)
    unset = os.environ.pop("DEVLINT_RUNTIME_PYTHONPATH_UNSET", None)
    if unset is not None:
        os.environ.pop("PYTHONPATH", None)
    elif saved is not None:
        os.environ["PYTHONPATH"] = saved
    runtime_dir = os.path.realpath(os.path.dirname(PACKAGE_DIR))
    sys.path[1:] = [p for p in sys.path[1:] if os.path.realpath(p or ".") != runtime_dir]


def load_findings(path, temporary):
    """The findings of devlint's JSON report (or a bare list of them), for the tracer."""
    if not path:
        return []
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as err:
        sys.stderr.write("devlint run: error: cannot read findings %s: %s\n" % (path, err))
        sys.exit(2)
    finally:
        if temporary:
            try:
                os.unlink(path)
            except OSError:
                pass
    items = doc.get("findings", []) if isinstance(doc, dict) else doc
    findings = []
    for d in items if isinstance(items, list) else []:
        if not isinstance(d, dict) or d.get("cell") or not isinstance(d.get("path"), str):
            continue  # notebook cells do not run as files
        line = d.get("line") if isinstance(d.get("line"), int) else 0
        end_line = d.get("end_line") if isinstance(d.get("end_line"), int) else line
        findings.append({
            "code": str(d.get("code", "")),
            "name": str(d.get("name", "")),
            "path": d["path"],
            "real": os.path.realpath(d["path"]),
            "line": line,
            "end_line": end_line,
            "message": str(d.get("message", "")),
        })
    return findings


def library_prefixes():
    """Paths whose code is not the user's: the standard library, site-packages, this runtime."""
    paths = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            paths.add(p)
    try:
        paths.update(site.getsitepackages())
        paths.add(site.getusersitepackages())
    except AttributeError:
        pass
    paths.update(p for p in sys.path if p.endswith(("site-packages", "dist-packages")))
    paths.add(PACKAGE_DIR)
    prefixes = set()
    for p in paths:
        for q in (p, os.path.realpath(p)):
            prefixes.add(q.rstrip("/") + "/")
    return sorted(prefixes)


def make_tracer(findings):
    """The C tracer, or (None, why) when the extension cannot load in this interpreter."""
    try:
        from devlint_runtime import _tracer
    except ImportError as err:
        return None, "the runtime's C extension does not load in Python %s (%s)" % (
            sys.version.split()[0], err)
    return _tracer.Tracer(findings, library_prefixes(), os.getcwd()), None


def main_module(filename):
    """A fresh __main__, as the interpreter makes one for a script."""
    from importlib.machinery import SourceFileLoader
    module = types.ModuleType("__main__")
    module.__file__ = filename
    module.__cached__ = None
    module.__loader__ = SourceFileLoader("__main__", filename)
    module.__builtins__ = builtins
    module.__annotations__ = {}
    sys.modules["__main__"] = module
    return module


def prepare_script(opts):
    """Compiled code and globals for `python SCRIPT`, or exits as python does."""
    filename = opts.script if os.path.isabs(opts.script) else os.path.join(os.getcwd(), opts.script)
    try:
        with open(filename, "rb") as f:
            source = f.read()
    except OSError as err:
        exe = (getattr(sys, "orig_argv", None) or [sys.executable or "python"])[0]
        sys.stderr.write("%s: can't open file %r: [Errno %d] %s\n"
                         % (exe, filename, err.errno, err.strerror))
        sys.exit(2)
    sys.argv[:] = [opts.script] + opts.args
    sys.path[0] = os.path.dirname(os.path.realpath(filename))
    try:
        code = compile(source, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as err:  # printed as python prints it: no traceback
        err.__traceback__ = None
        sys.excepthook(type(err), err, None)
        sys.exit(1)
    return code, main_module(filename).__dict__


def strip_traceback(tb):
    """The traceback without the launcher's frames (and runpy's before them)."""
    keep = tb
    while tb is not None:
        if os.path.dirname(os.path.abspath(tb.tb_frame.f_code.co_filename)) == PACKAGE_DIR:
            keep = tb.tb_next
        tb = tb.tb_next
    return keep


def user_code_frame(tb, library):
    """(path, line, function) of the innermost frame of the user's code in a traceback, or None:
    library frames and frozen importlib ones (`<frozen ...>`) are not the user's."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        path = os.path.abspath(code.co_filename)
        if not code.co_filename.startswith("<") and not path.startswith(library):
            found = (path, tb.tb_lineno, code.co_name)
        tb = tb.tb_next
    return found


def exception_text(err):
    """str(err), or "" when the program's own __str__ fails."""
    try:
        return str(err)
    except Exception:
        return ""


def how_it_ended(err, tb, library, start_dir):
    """Where and why an uncaught exception (or a non-zero sys.exit) ended the program, for the
    findings it kept from running: "the program ended at train.py:47 (in main) with TypeError:
    ..."."""
    if isinstance(err, SystemExit):
        if err.code is None or err.code == 0:
            return None
        what = "exit status %s" % (err.code if isinstance(err.code, int) else 1)
    else:
        first_line = (exception_text(err).strip().splitlines() or [""])[0]
        if len(first_line) > 160:
            first_line = first_line[:157] + "..."
        what = type(err).__name__ + (": " + first_line if first_line else "")
    where = user_code_frame(tb, library)
    if where is None:
        return "the program ended with %s" % what
    path, line, function = where
    relative = os.path.relpath(path, start_dir)  # as the findings' paths are
    if not relative.startswith(".." + os.sep):
        path = relative
    return "the program ended at %s:%d (in %s) with %s" % (path, line, function, what)


# A frame of the traceback text a DataLoader worker's exception carries into this process.
WORKER_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)', re.MULTILINE)


def worker_failure(err):
    """When `err` (or an exception it chains to) is a DataLoader worker's exception re-raised in
    this process ("Caught X in DataLoader worker process N. Original Traceback ...", torch's
    ExceptionWrapper) and the worker failed on CUDA: (the (absolute path, line) pairs its
    traceback passed through, the worker's last error line). Else None. Worker processes are
    not traced: this text is all this process learns of what ran in them."""
    seen = set()
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        text = exception_text(err)
        if "in DataLoader worker process" in text and "Original Traceback" in text:
            lines = [line for line in text.strip().splitlines() if line.strip()]
            last = lines[-1].strip() if lines else ""
            if "cuda" not in last.lower():
                return None
            frames = {(os.path.abspath(path), int(line))
                      for path, line in WORKER_FRAME.findall(text)}
            return frames, last
        err = err.__cause__ or err.__context__
    return None


class Run:
    """What the report at exit needs."""

    def __init__(self, opts, findings, tracer, why):
        self.opts = opts
        self.findings = findings
        self.tracer = tracer
        self.why = why
        self.pid = os.getpid()
        self.start_dir = os.getcwd()
        self.interrupted = False
        self.ended = None  # how_it_ended(), when the program did not run to its end
        self.worker_failed = None  # worker_failure() of the exception that ended the program

    def child_after_fork(self):
        if self.tracer is not None:
            self.tracer.stop()

    def finish(self):
        """atexit: stop tracing, write the report; in a forked child, nothing."""
        if os.getpid() != self.pid:
            return
        if self.tracer is not None:
            self.tracer.stop()
            if threading.gettrace() == self.tracer.thread_hook:
                threading.settrace(None)
        doc, driver = self.results()
        report.write(doc, driver, self.opts.format, self.opts.report)
        if self.interrupted:
            import signal
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)

    def results(self):
        if self.tracer is None:
            verdicts = [{"code": f["code"], "name": f["name"], "path": f["path"],
                         "line": f["line"], "verdict": "inconclusive", "evidence": self.why}
                        for f in self.findings]
            return {"verdicts": verdicts, "unpredicted": []}, self.why
        verdicts, unpredicted = self.tracer.results(device_used())
        if self.worker_failed:
            self.confirm_in_workers(verdicts)
        if self.ended:  # what kept the lines that never ran from running, as far as we know
            for v in verdicts:
                if v["verdict"] == "not-reached":
                    v["evidence"] += "; " + self.ended
        return {"verdicts": verdicts, "unpredicted": unpredicted}, self.tracer.driver()

    def confirm_in_workers(self, verdicts):
        """DL113 (CUDA in a DataLoader worker) is confirmed when a worker failed on CUDA at the
        finding's line: the worker's traceback, re-raised here, passes through it."""
        frames, last = self.worker_failed
        for v in verdicts:
            where = (os.path.abspath(os.path.join(self.start_dir, v["path"])), v["line"])
            if v["code"] == "DL113" and v["verdict"] != "confirmed" and where in frames:
                v["verdict"] = "confirmed"
                v["evidence"] = ("a DataLoader worker process ran line %d and failed on CUDA "
                                 "there: %s (its error, re-raised by the DataLoader here)"
                                 % (v["line"], last))


def device_used():
    """Whether the program initialised CUDA (asked of torch after the program is done)."""
    torch = sys.modules.get("torch")
    try:
        return bool(torch is not None and torch.cuda.is_initialized())
    except Exception:
        return False


def main(argv):
    opts = parse_args(argv)
    restore_environment()
    findings = load_findings(opts.findings, opts.findings_temp)
    tracer, why = make_tracer(findings)
    run = Run(opts, findings, tracer, why)
    atexit.register(run.finish)
    os.register_at_fork(after_in_child=run.child_after_fork)
    if opts.module is None:
        code, globals_ = prepare_script(opts)
    else:
        sys.argv[:] = ["-m"] + opts.args
        fresh = types.ModuleType("__main__")  # runpy fills it in, as for `python -m`
        fresh.__builtins__ = builtins
        fresh.__annotations__ = {}
        sys.modules["__main__"] = fresh
    if tracer is not None:
        threading.settrace(tracer.thread_hook)
        tracer.start()
    try:
        if opts.module is None:
            exec(code, globals_)
        else:
            runpy._run_module_as_main(opts.module, alter_argv=True)
    except SystemExit as err:
        run.ended = how_it_ended(err, err.__traceback__, tuple(library_prefixes()), run.start_dir)
        raise
    except BaseException as err:
        if tracer is not None:
            tracer.stop()
        tb = strip_traceback(err.__traceback__)
        run.ended = how_it_ended(err, tb, tuple(library_prefixes()), run.start_dir)
        run.worker_failed = worker_failure(err)
        err.__traceback__ = tb
        sys.last_type, sys.last_value, sys.last_traceback = type(err), err, tb
        sys.excepthook(type(err), err, tb)
        if isinstance(err, KeyboardInterrupt):
            run.interrupted = True
        sys.exit(1)
