"""The command line every unittest suite that drives a devlint executable shares:
`--devlint PATH` (or `--devlint=PATH`; else $DEVLINT; else build/devlint), then unittest's own
options. Used by tests/cli/test_*.py and tests/regress/run_regress.py. Also the test case with a
temporary project directory that several suites use."""
import os
import sys
import tempfile
import unittest


class ProjectCase(unittest.TestCase):
    """A fresh project directory per test (`self.dir`, removed after it) and `write()`."""
    maxDiff = None
    dir_prefix = "devlint-"

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix=self.dir_prefix)
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, rel, content):
        """Writes `content` (text as UTF-8, or bytes as they are) to `rel`; returns `rel`."""
        path = os.path.join(self.dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(content.encode("utf-8") if isinstance(content, str) else content)
        return rel


def parse_args(script):
    """(absolute path of devlint, argv for unittest.main); exits when devlint is not there."""
    devlint = None
    argv = [sys.argv[0]]
    args = iter(sys.argv[1:])
    for arg in args:
        if arg == "--devlint":
            devlint = next(args, None)
        elif arg.startswith("--devlint="):
            devlint = arg.split("=", 1)[1]
        else:
            argv.append(arg)
    devlint = os.path.abspath(devlint or os.environ.get("DEVLINT") or "build/devlint")
    if not os.access(devlint, os.X_OK):
        sys.exit("%s: devlint not found at %s (pass --devlint PATH)"
                 % (os.path.basename(script), devlint))
    return devlint, argv
