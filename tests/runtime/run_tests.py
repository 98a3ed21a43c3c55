#!/usr/bin/env python3
"""End-to-end tests of `devlint run`: real programs, run with and without devlint.

Each folder of tests/runtime/cases/ is one program (main.py, or the command line in its `args`
file, e.g. `-m app.train --steps 2`). It runs twice in its folder, as `python ARGS` and as
`devlint run --format json --report R -- python ARGS`, and the test checks that

  - the exit status, stdout, and the start of stderr are the same both ways (the rest of stderr
    is devlint's report, the same JSON as R);
  - every finding has the verdict its line announces:
        x.to(device)  # verdict: DL101 confirmed (still on cpu) [cuda: driver:]
    the text in parentheses must be in the evidence; the one in [cuda: ...] too, when the
    device is CUDA. A verdict on a line without such a comment is a failure;
  - the device mismatches no finding predicted are exactly the lines marked `# unpredicted`;
  - the exit status is the one a `# exit-status: N` comment announces (default 0).

Findings come from devlint's own static check, unless the folder has a findings.json (used with
--findings; its paths are relative to the folder). The second device is `meta` unless
DEVLINT_TEST_DEVICE (or --device) says otherwise: meta tensors mixed with CPU tensors in
elementwise ops raise the same "Expected all tensors to be on the same device" as CUDA ones.
tests/gpu/run.sh runs the same programs with --device cuda --require-driver.

    /usr/bin/python3 tests/runtime/run_tests.py --devlint build/devlint [-k NAME] [-v]

Exits 77 (ctest: skipped) when the interpreter has no torch.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")
TIMEOUT = 600

VERDICT = re.compile(r"#\s*verdict:\s*(DL\d+)\s+(confirmed|refuted|not-reached|inconclusive)"
                     r"(?:\s+\((.*?)\))?(?:\s+\[cuda:\s*(.*?)\])?\s*$")
UNPREDICTED = re.compile(r"#\s*unpredicted\b")
EXIT_STATUS = re.compile(r"#\s*exit-status:\s*(\d+)")

CONFIG = argparse.Namespace(devlint=None, python="/usr/bin/python3", device="meta",
                            require_driver=False, jobs=2, save=None)


def case_names():
    return sorted(d for d in os.listdir(CASES)
                  if not d.startswith((".", "_")) and os.path.isdir(os.path.join(CASES, d)))


def case_command(folder):
    path = os.path.join(folder, "args")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return shlex.split(f.read())
    return ["main.py"]


def annotations(folder):
    """{(relative path, line): ...} for verdicts, unpredicted lines, and the exit status."""
    verdicts, unpredicted, status = {}, set(), 0
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, folder)
            with open(path, encoding="utf-8") as f:
                for number, text in enumerate(f, 1):
                    m = VERDICT.search(text)
                    if m:
                        verdicts[(rel, number, m.group(1))] = m.groups()[1:]
                    if UNPREDICTED.search(text):
                        unpredicted.add((rel, number))
                    m = EXIT_STATUS.search(text)
                    if m:
                        status = int(m.group(1))
    return verdicts, unpredicted, status


def environment():
    env = dict(os.environ)
    env["DEVLINT_TEST_DEVICE"] = CONFIG.device
    env["PYTHONPATH"] = "/nonexistent/devlint-test-pythonpath"  # must reach the program as is
    env["OMP_NUM_THREADS"] = "1"
    env.pop("DEVLINT_RUNTIME_DIR", None)
    return env


def run(cmd, cwd, env=None):
    proc = subprocess.run(cmd, cwd=cwd, env=env or environment(), stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), \
        proc.stderr.decode("utf-8", "replace")


def run_case(name):
    """Both runs of one case: (plain, traced, report document or None)."""
    folder = os.path.join(CASES, name)
    argv = case_command(folder)
    plain = run([CONFIG.python] + argv, folder)
    with tempfile.TemporaryDirectory(prefix="devlint-run-test-") as tmp:
        report_path = os.path.join(tmp, "report.json")
        cmd = [CONFIG.devlint, "run", "--format", "json", "--report", report_path]
        if os.path.exists(os.path.join(folder, "findings.json")):
            cmd += ["--findings", "findings.json"]
        traced = run(cmd + ["--", CONFIG.python] + argv, folder)
        report = None
        if os.path.exists(report_path):
            with open(report_path, encoding="utf-8") as f:
                report = json.load(f)
    if CONFIG.save:
        save(name, plain, traced)
    return plain, traced, report


def save(name, plain, traced):
    """--save DIR: both runs' output, for reading a run on another machine."""
    os.makedirs(CONFIG.save, exist_ok=True)
    for label, (rc, out, err) in (("plain", plain), ("devlint", traced)):
        with open(os.path.join(CONFIG.save, "%s.%s.txt" % (name, label)), "w") as f:
            f.write("exit status %d\n--- stdout ---\n%s--- stderr ---\n%s" % (rc, out, err))


RESULTS = {}


def results(name):
    if name not in RESULTS:
        RESULTS[name] = run_case(name)
    return RESULTS[name]


class ProgramTest(unittest.TestCase):
    """One test per case folder (methods added below)."""

    maxDiff = None

    def check_case(self, name):
        folder = os.path.join(CASES, name)
        (p_rc, p_out, p_err), (t_rc, t_out, t_err), report = results(name)
        verdicts, unpredicted, status = annotations(folder)
        context = "\n--- stderr under devlint run ---\n" + t_err
        self.assertEqual(p_rc, status, "the program itself exited %d, not %d:\n%s"
                         % (p_rc, status, p_err))
        self.assertEqual(t_rc, p_rc, "exit status changed under devlint run" + context)
        self.assertEqual(t_out, p_out, "stdout changed under devlint run")
        self.assertTrue(t_err.startswith(p_err),
                        "stderr changed under devlint run:\n--- plain ---\n" + p_err + context)
        self.assertIsNotNone(report, "no --report written" + context)
        self.assertEqual(json.loads(t_err[len(p_err):]), report,
                         "the report on stderr differs from the --report file")
        self.assertEqual(set(report), {"verdicts", "unpredicted"})
        self.check_verdicts(report["verdicts"], verdicts, context)
        got = {(u["path"], u["line"]) for u in report["unpredicted"]}
        self.assertEqual(got, unpredicted, "unpredicted mismatches" + context)
        for u in report["unpredicted"]:
            self.assertIn("same device", u["message"])

    def check_verdicts(self, got, expected, context):
        seen = set()
        for v in got:
            self.assertEqual(set(v), {"code", "name", "path", "line", "verdict", "evidence"})
            key = (os.path.normpath(v["path"]), v["line"], v["code"])
            self.assertIn(key, expected, "a verdict on a line without `# verdict:`: %s" % v)
            self.assertNotIn(key, seen, "two verdicts for one finding: %s" % v)
            seen.add(key)
            verdict, text, cuda_text = expected[key]
            self.assertEqual(v["verdict"], verdict, "%s:%d %s: %s%s"
                             % (v["path"], v["line"], v["code"], v["evidence"], context))
            if text:
                self.assertIn(text, v["evidence"])
            if cuda_text and CONFIG.device.startswith("cuda"):
                self.assertIn(cuda_text, v["evidence"])
            if CONFIG.require_driver and verdict in ("confirmed", "refuted"):
                self.assertNotIn("no CUDA driver", v["evidence"])
                if re.search(r"`[^`]+` on cuda", v["evidence"]):
                    self.assertIn("driver: device memory on GPU", v["evidence"])
        missing = set(expected) - seen
        self.assertFalse(missing, "findings with no verdict (is the finding gone from the "
                                  "static check?): %s%s" % (sorted(missing), context))


def add_case_tests():
    for name in case_names():
        def test(self, name=name):
            self.check_case(name)
        setattr(ProgramTest, "test_" + name, test)


add_case_tests()


class CommandLineTest(unittest.TestCase):
    """`devlint run`'s own errors, and the launcher without its C extension."""

    def devlint(self, *args, cwd=None, env=None):
        return run([CONFIG.devlint, "run"] + list(args), cwd or CASES, env)

    def test_help(self):
        rc, out, _ = self.devlint("--help")
        self.assertEqual(rc, 0)
        self.assertIn("devlint run [OPTIONS] -- python", out)

    def test_usage_errors(self):
        for args in ([], ["--format", "xml", "--", "python", "x.py"], ["--bogus"],
                     ["--", CONFIG.python], ["--", CONFIG.python, "-c", "pass"],
                     ["--", CONFIG.python, "-I", "x.py"],
                     ["--findings", "/nonexistent.json", "--", CONFIG.python, "x.py"]):
            rc, _, err = self.devlint(*args)
            self.assertEqual(rc, 2, args)
            self.assertIn("devlint: error: run:", err)

    def test_python_not_found(self):
        rc, _, err = self.devlint("--", "/nonexistent/python3", "main.py",
                                  cwd=os.path.join(CASES, "environment"))
        self.assertEqual(rc, 127)
        self.assertIn("cannot run `/nonexistent/python3`", err)

    def test_programs_that_do_not_start(self):
        """A syntax error, a missing script, a missing module: python's own messages."""
        with tempfile.TemporaryDirectory(prefix="devlint-run-test-") as tmp:
            with open(os.path.join(tmp, "bad.py"), "w") as f:
                f.write("x = 1\ndef (:\n")
            for argv in (["bad.py"], ["missing.py"], ["-m", "missing_module"]):
                plain = run([CONFIG.python] + argv, tmp)
                rc, out, err = self.devlint("--format", "json", "--", CONFIG.python, *argv,
                                            cwd=tmp)
                self.assertEqual((rc, out), plain[:2], argv)
                self.assertTrue(err.startswith(plain[2]), err)
                self.assertEqual(json.loads(err[len(plain[2]):]),
                                 {"verdicts": [], "unpredicted": []})

    def test_without_extension(self):
        """A Python the extension was not built for still runs the program, unchanged."""
        with tempfile.TemporaryDirectory(prefix="devlint-run-test-") as tmp:
            runtime = os.path.join(os.path.dirname(os.path.realpath(CONFIG.devlint)), "runtime")
            package = os.path.join(tmp, "devlint_runtime")
            os.mkdir(package)
            for name in os.listdir(os.path.join(runtime, "devlint_runtime")):
                if name.endswith(".py"):
                    shutil.copy(os.path.join(runtime, "devlint_runtime", name), package)
            env = environment()
            env["DEVLINT_RUNTIME_DIR"] = tmp
            folder = os.path.join(CASES, "dl101_confirmed")
            plain = run([CONFIG.python, "main.py"], folder)
            rc, out, err = self.devlint("--format", "json", "--", CONFIG.python, "main.py",
                                        cwd=folder, env=env)
            self.assertEqual((rc, out), plain[:2])
            doc = json.loads(err[len(plain[2]):])
            self.assertEqual([v["verdict"] for v in doc["verdicts"]], ["inconclusive"])
            self.assertIn("C extension does not load", doc["verdicts"][0]["evidence"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devlint", required=True)
    parser.add_argument("--python", default=CONFIG.python)
    parser.add_argument("--device", default=os.environ.get("DEVLINT_TEST_DEVICE", "meta"))
    parser.add_argument("--require-driver", action="store_true",
                        help="CUDA runs: evidence must come from the CUDA driver")
    parser.add_argument("--jobs", type=int, default=2, help="cases run in parallel")
    parser.add_argument("--save", help="write each case's output to this directory")
    args, rest = parser.parse_known_args()
    CONFIG.devlint = os.path.abspath(args.devlint)
    CONFIG.python, CONFIG.device = args.python, args.device
    CONFIG.require_driver, CONFIG.jobs = args.require_driver, args.jobs
    CONFIG.save = os.path.abspath(args.save) if args.save else None
    probe = subprocess.run([CONFIG.python, "-c", "import torch"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    if probe.returncode != 0:
        print("run_tests: %s has no torch: skipped (apt-get install python3-torch)"
              % CONFIG.python)
        return 77
    names = case_names()
    filters = [rest[i + 1] for i, a in enumerate(rest[:-1]) if a == "-k"]
    if filters:
        names = [n for n in names if any(f in n for f in filters)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, CONFIG.jobs)) as pool:
        for name, result in zip(names, pool.map(run_case, names)):
            RESULTS[name] = result
    program = unittest.main(argv=[sys.argv[0]] + rest, exit=False)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
