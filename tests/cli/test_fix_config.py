#!/usr/bin/env python3
"""End-to-end tests of `--fix`, `--diff`, `--unsafe-fixes` and project configuration
(`[tool.devlint]` in pyproject.toml, devlint.toml, `--config`, `--isolated`, `--show-settings`).

    /usr/bin/python3 tests/cli/test_fix_config.py --devlint build/devlint [unittest options]
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

DEVLINT = None

BUGGY = 'import torch\nx = torch.randn(4, 10)\nx.to("cuda")\n'
FIXED = 'import torch\nx = torch.randn(4, 10)\nx = x.to("cuda")\n'

# Two different fixes in one file, one of them safe only with --unsafe-fixes.
TWO_FIXES = '''import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.mask = torch.ones(8)
        self.layers = [nn.Linear(8, 8) for _ in range(2)]

    def forward(self, x):
        return x * self.mask


def run(device):
    x = torch.randn(2, 8)
    x.to(device)
    return x
'''


def run(args, cwd, stdin=None):
    proc = subprocess.run([DEVLINT] + list(args), cwd=cwd, timeout=120,
                          input=stdin.encode() if stdin is not None else None,
                          stdin=None if stdin is not None else subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout = proc.stdout.decode()
    proc.stderr = proc.stderr.decode()
    return proc


class Case(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="devlint-fix-")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, rel, text, mode=None):
        path = os.path.join(self.dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", newline="") as fh:
            fh.write(text)
        if mode is not None:
            os.chmod(path, mode)
        return path

    def read(self, rel):
        with open(os.path.join(self.dir, rel), newline="") as fh:
            return fh.read()

    def findings(self, *args):
        proc = run(["--format", "json"] + list(args), self.dir)
        return json.loads(proc.stdout)["findings"]


class Fix(Case):
    def test_fix_rewrites_the_file_and_reports_what_is_left(self):
        self.write("a.py", BUGGY)
        proc = run(["--fix", "a.py"], self.dir)
        self.assertEqual(self.read("a.py"), FIXED)
        self.assertIn("Fixed 1 problem.", proc.stdout)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)

    def test_fix_is_idempotent(self):
        self.write("a.py", TWO_FIXES)
        run(["--fix", "--unsafe-fixes", "a.py"], self.dir)
        once = self.read("a.py")
        run(["--fix", "--unsafe-fixes", "a.py"], self.dir)
        self.assertEqual(self.read("a.py"), once)
        self.assertEqual(self.findings("a.py"), [])

    def test_unsafe_fixes_only_when_asked(self):
        self.write("a.py", TWO_FIXES)
        run(["--fix", "a.py"], self.dir)
        text = self.read("a.py")
        self.assertIn('self.register_buffer("mask", torch.ones(8))', text)
        self.assertIn("x = x.to(device)", text)
        self.assertIn("self.layers = [nn.Linear(8, 8) for _ in range(2)]", text)  # unsafe: kept
        self.assertEqual([f["code"] for f in self.findings("a.py")], ["DL107"])
        run(["--fix", "--unsafe-fixes", "a.py"], self.dir)
        self.assertIn("self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(2)])",
                      self.read("a.py"))

    def test_fix_keeps_mode_and_crlf_line_endings(self):
        self.write("a.py", BUGGY.replace("\n", "\r\n"), mode=0o754)
        run(["--fix", "a.py"], self.dir)
        self.assertEqual(self.read("a.py"), FIXED.replace("\n", "\r\n"))
        self.assertEqual(stat.S_IMODE(os.stat(os.path.join(self.dir, "a.py")).st_mode), 0o754)

    def test_fix_from_stdin_prints_the_fixed_source(self):
        proc = run(["--fix", "-", "--stdin-filename", "a.py"], self.dir, stdin=BUGGY)
        self.assertEqual(proc.stdout, FIXED)

    def test_fix_writes_notebooks_back_without_reformatting(self):
        nb = {"cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# A notebook\n"]},
            {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
             "source": ["import torch\n", "x = torch.randn(4, 10)\n", "x.to(\"cuda\")"]}],
            "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
        original = json.dumps(nb, indent=1) + "\n"
        self.write("nb.ipynb", original)
        f = self.findings("nb.ipynb")
        self.assertEqual([(x["code"], x["cell"], x["line"]) for x in f], [("DL101", 2, 3)])
        run(["--fix", "nb.ipynb"], self.dir)
        self.assertEqual(self.read("nb.ipynb"),
                         original.replace('"x.to(\\"cuda\\")"', '"x = x.to(\\"cuda\\")"'))

    def test_indented_notebook_cell_is_checked_at_its_own_columns_and_fixed_in_place(self):
        """A cell pasted from inside a function runs in IPython, which strips the first line's
        indentation: devlint checks it, reports the cell's own columns and snippet, and writes a
        fix back with the indentation kept."""
        nb = {"cells": [
            {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
             "source": ["import torch\n", "model = torch.nn.Linear(2, 2).cuda()"]},
            {"cell_type": "code", "execution_count": 2, "metadata": {}, "outputs": [],
             "source": ["    x = torch.randn(3, 2).cuda()\n", "    x.to(\"cpu\")\n",
                        "    print(model(x))"]}],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        original = json.dumps(nb, indent=1) + "\n"
        self.write("nb.ipynb", original)
        proc = run(["--format", "json", "nb.ipynb"], self.dir)
        doc = json.loads(proc.stdout)
        self.assertEqual(doc["errors"], [], "the cell parses as IPython runs it")
        f = [(x["code"], x["cell"], x["line"], x["column"], x["end_column"]) for x in doc["findings"]]
        self.assertEqual(f, [("DL101", 2, 2, 5, 16)])
        text = run(["nb.ipynb"], self.dir).stdout
        self.assertIn('\n        x.to("cpu")\n        ^^^^^^^^^^^\n', text,
                      "the snippet is the cell's line, the carets under the call")
        run(["--fix", "nb.ipynb"], self.dir)
        self.assertEqual(self.read("nb.ipynb"),
                         original.replace('"    x.to(\\"cpu\\")\\n"',
                                          '"    x = x.to(\\"cpu\\")\\n"'))


# Findings whose device is named in another def than the line a fix would edit, or bound only
# after it: a fix writing `device=device` there would raise a NameError, so none is offered.
DEVICE_OUT_OF_SCOPE = """import torch
import torch.nn as nn


def make_criterion():
    return nn.CrossEntropyLoss(weight=torch.tensor([1.0, 3.0]))


def train(model, loader, device):
    model.to(device)
    criterion = make_criterion()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y)
        loss.backward()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        grid = torch.linspace(0.0, 1.0, 4)
        out = x
        return self.fc(out + grid)


def build():
    return Net()


def run(loader, device):
    model = build()
    for x, y in loader:
        model(x.to(device))
"""


class FixScope(Case):
    def test_no_fix_names_a_device_the_edited_line_cannot_see(self):
        self.write("a.py", DEVICE_OUT_OF_SCOPE)
        found = self.findings("a.py")
        self.assertEqual(sorted(f["code"] for f in found), ["DL102", "DL103", "DL105"])
        self.assertEqual([f["code"] for f in found if f.get("fix")], [])
        run(["--fix", "--unsafe-fixes", "a.py"], self.dir)
        self.assertEqual(self.read("a.py"), DEVICE_OUT_OF_SCOPE)


class Diff(Case):
    def test_diff_prints_a_patch_that_applies(self):
        self.write("pkg/a.py", TWO_FIXES)
        proc = run(["--diff", "pkg/a.py"], self.dir)
        self.assertEqual(proc.returncode, 1)
        self.assertTrue(proc.stdout.startswith("--- a/pkg/a.py\n+++ b/pkg/a.py\n@@ "), proc.stdout)
        self.assertEqual(self.read("pkg/a.py"), TWO_FIXES)  # nothing written
        patch = self.write("fix.patch", proc.stdout)
        tool = ["patch", "-p1", "-i", patch] if shutil.which("patch") else ["git", "apply", patch]
        subprocess.run(tool, cwd=self.dir, check=True, stdout=subprocess.DEVNULL)
        run(["--fix", "pkg/a.py"], self.dir)  # what --fix writes is what the patch made
        fixed = self.read("pkg/a.py")
        self.write("pkg/b.py", TWO_FIXES)
        run(["--fix", "pkg/b.py"], self.dir)
        self.assertEqual(fixed, self.read("pkg/b.py"))

    def test_diff_exits_zero_when_there_is_nothing_to_fix(self):
        self.write("a.py", FIXED)
        proc = run(["--diff", "a.py"], self.dir)
        self.assertEqual((proc.returncode, proc.stdout), (0, ""))


class Config(Case):
    def project(self):
        self.write("src/a.py", BUGGY)
        self.write("tests/test_a.py", BUGGY)

    def test_pyproject_per_file_ignores(self):
        self.project()
        self.write("pyproject.toml", '[project]\nname = "p"\n\n[tool.devlint]\n'
                   'per-file-ignores = {"tests/*" = ["DL101"]}\n')
        self.assertEqual([(f["code"], f["path"]) for f in self.findings(".")],
                         [("DL101", "src/a.py")])

    def test_nearest_config_wins_and_devlint_toml_beats_pyproject(self):
        self.project()
        self.write("pyproject.toml", '[tool.devlint]\nignore = ["DL101"]\n')
        self.write("tests/devlint.toml", 'select = ["DL1"]\n')
        self.assertEqual([f["path"] for f in self.findings(".")], ["tests/test_a.py"])

    def test_severity_override_and_extend_select(self):
        self.project()
        self.write("devlint.toml", 'extend-select = ["DL3"]\n\n[severity]\nDL301 = "error"\n'
                   'unassigned-to = "warning"\n')
        got = {(f["code"], f["severity"]) for f in self.findings("src/a.py")}
        self.assertEqual(got, {("DL101", "warning"), ("DL301", "error")})

    def test_exclude_in_config(self):
        self.project()
        self.write("devlint.toml", 'extend-exclude = ["tests"]\n')
        self.assertEqual([f["path"] for f in self.findings(".")], ["src/a.py"])

    def test_isolated_and_explicit_config(self):
        self.project()
        self.write("devlint.toml", 'ignore = ["DL1"]\n')
        self.assertEqual(self.findings("."), [])
        self.assertEqual(len(self.findings("--isolated", ".")), 2)
        other = self.write("other/devlint.toml", 'select = ["DL101"]\n')
        self.assertEqual(len(self.findings("--config", other, ".")), 2)

    def test_bad_config_names_file_line_and_key(self):
        self.project()
        self.write("devlint.toml", 'select = ["DL1"]\nignroe = ["DL101"]\n')
        proc = run(["."], self.dir)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("devlint.toml:2: unknown key `ignroe`", proc.stderr)
        self.write("devlint.toml", 'select = ["DL1", "DL1O1"]\n')
        proc = run(["."], self.dir)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("devlint.toml:1: unknown rule `DL1O1` in `select`", proc.stderr)
        self.write("devlint.toml", 'select = [\n')
        proc = run(["."], self.dir)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("devlint.toml:", proc.stderr)

    def test_show_settings(self):
        self.project()
        self.write("pyproject.toml", '[tool.devlint]\nper-file-ignores = {"tests/*" = ["DL101"]}\n'
                   'device-names = ["accelerator"]\n')
        proc = run(["--show-settings", "tests/test_a.py"], self.dir)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("pyproject.toml", proc.stdout)
        self.assertNotIn("DL101", proc.stdout)
        self.assertIn("DL104", proc.stdout)
        self.assertIn("device-names: accelerator", proc.stdout)

    def test_many_files_each_get_their_settings(self):
        # regression: per-file settings once lived in an array that moved as it grew
        for i in range(300):
            self.write("pkg%d/m%d.py" % (i % 7, i), BUGGY if i % 50 == 0 else "x = %d\n" % i)
        self.write("pkg3/devlint.toml", 'ignore = ["DL101"]\n')
        paths = sorted(f["path"] for f in self.findings("."))
        self.assertEqual(paths, ["pkg0/m0.py", "pkg1/m50.py", "pkg2/m100.py", "pkg4/m200.py",
                                 "pkg5/m250.py"])

    def test_device_names_make_a_name_a_device(self):
        self.write("a.py", "import torch\n\ndef f(accelerator):\n"
                   "    return torch.zeros(3, accelerator)\n")
        self.assertEqual(self.findings("a.py"), [])
        self.write("devlint.toml", 'device-names = ["accelerator"]\n')
        self.assertEqual([f["code"] for f in self.findings("a.py")], ["DL112"])


def main():
    global DEVLINT
    argv = list(sys.argv)
    i = argv.index("--devlint")
    DEVLINT = os.path.abspath(argv[i + 1])
    del argv[i:i + 2]
    unittest.main(argv=argv, verbosity=2)


if __name__ == "__main__":
    main()
