#!/usr/bin/env python3
"""Replays every crash regression case through devlint (see README.md in this directory).

    /usr/bin/python3 tests/regress/run_regress.py --devlint build/devlint [unittest options]

Cases live in python/, notebook/, toml/, lsp/ and cpp/; each was a crash (or hang) once. A case passes when
devlint exits normally (0, 1, or 2 for a bad configuration), says nothing about sanitizers, and
prints the message `expected.txt` lists for it (a per-file error, usually: in the text report
it must follow the file's name). Python cases are
checked plainly, as JSON, and with --diff; notebook cases likewise; TOML cases are used as the
configuration (--config) of a small clean file; LSP cases are a client's whole input to
`devlint lsp` (exit 0, or 1 without shutdown); C++ cases are checked as k.cpp, or k.cu when
they declare or launch a kernel (a per-file error when this devlint has no libclang). Standard
library only.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import devlint_main  # noqa: E402  (tests/cli/devlint_main.py)

DEVLINT = None  # absolute path, set from --devlint before the tests run
HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT = 300  # seconds per run: the sanitizer build is slow on the big cases
SANITIZER_WORDS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer",
                   "runtime error:", "ThreadSanitizer")


def load_expected():
    """expected.txt: `KIND/FILE: text the output must contain`, one per line."""
    expected = {}
    with open(os.path.join(HERE, "expected.txt"), encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            case, _, text = line.partition(": ")
            expected[case] = text
    return expected


def cases(kind):
    folder = os.path.join(HERE, kind)
    if not os.path.isdir(folder):
        return []
    return sorted(name for name in os.listdir(folder) if not name.startswith("."))


class RegressionTest(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.expected = load_expected()

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="devlint-regress-")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def run_devlint(self, *args):
        proc = subprocess.run([DEVLINT, "--no-cache"] + list(args), cwd=self.dir,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=TIMEOUT)
        return (proc.returncode, proc.stdout.decode("utf-8", "replace"),
                proc.stderr.decode("utf-8", "replace"))

    def assertCalm(self, case, result, allowed=(0, 1), path=None, expect=True):
        """A normal exit, no sanitizer report, and the expected message (after `path: ` when
        given: the text report's per-file error line)."""
        rc, out, err = result
        where = "%s: exit %d\n--- stdout\n%s\n--- stderr\n%s" % (case, rc, out[-3000:], err[-3000:])
        self.assertIn(rc, allowed, where)
        for word in SANITIZER_WORDS:
            self.assertNotIn(word, err, where)
        text = self.expected.get(case)
        if text and expect:
            self.assertIn("%s: %s" % (path, text) if path else text, out + err, where)

    def copy_case(self, kind, name, as_name=None):
        dest = os.path.join(self.dir, as_name or name)
        shutil.copyfile(os.path.join(HERE, kind, name), dest)
        return os.path.basename(dest)

    def test_python(self):
        for name in cases("python"):
            with self.subTest(case=name):
                path = self.copy_case("python", name)
                case = "python/" + name
                self.assertCalm(case, self.run_devlint(path), path=path)
                self.assertCalm(case, self.run_devlint("--format", "json", path))
                # --diff prints no per-file errors (yet): only calm
                self.assertCalm(case, self.run_devlint("--diff", path), expect=False)

    def test_notebook(self):
        for name in cases("notebook"):
            with self.subTest(case=name):
                stem = os.path.splitext(name)[0]
                path = self.copy_case("notebook", name, stem + ".ipynb")
                case = "notebook/" + name
                self.assertCalm(case, self.run_devlint(path), path=path)
                # --diff prints no per-file errors (yet): only calm
                self.assertCalm(case, self.run_devlint("--diff", path), expect=False)

    def test_toml(self):
        with open(os.path.join(self.dir, "model.py"), "w") as fh:
            fh.write("import torch\nx = torch.zeros(3)\n")
        for name in cases("toml"):
            with self.subTest(case=name):
                for as_name in ("devlint.toml", "pyproject.toml"):
                    path = self.copy_case("toml", name, as_name)
                    result = self.run_devlint("--config", path, "model.py")
                    self.assertCalm("toml/" + name, result, allowed=(0, 1, 2))

    def test_lsp(self):
        for name in cases("lsp"):
            with self.subTest(case=name):
                with open(os.path.join(HERE, "lsp", name), "rb") as fh:
                    data = fh.read()
                proc = subprocess.run([DEVLINT, "lsp", "--jobs", "2"], cwd=self.dir, input=data,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      timeout=TIMEOUT)
                result = (proc.returncode, proc.stdout.decode("utf-8", "replace"),
                          proc.stderr.decode("utf-8", "replace"))
                self.assertCalm("lsp/" + name, result)

    def test_cpp(self):
        for name in cases("cpp"):
            with self.subTest(case=name):
                with open(os.path.join(HERE, "cpp", name), "rb") as fh:
                    text = fh.read()
                kernel = any(w in text for w in (b"__global__", b"__device__", b"<<<"))
                path = self.copy_case("cpp", name, "k.cu" if kernel else "k.cpp")
                self.assertCalm("cpp/" + name, self.run_devlint(path))


def main():
    global DEVLINT
    DEVLINT, argv = devlint_main.parse_args(__file__)
    unittest.main(argv=argv, verbosity=2)


if __name__ == "__main__":
    main()
