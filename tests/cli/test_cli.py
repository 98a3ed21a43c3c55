#!/usr/bin/env python3
"""End-to-end tests of the devlint command line: options, exit codes, output formats, per-file
errors, the directory walk, suppressions and the `rules` / `explain` subcommands.

Each test writes small Python files into a fresh temporary directory and runs devlint there, so
paths in the output are short and relative (`bug.py`, `pkg/a.py`). Standard library only:

    /usr/bin/python3 tests/cli/test_cli.py --devlint build/devlint [unittest options]
"""
import glob
import json
import os
import pty
import re
import select
import subprocess
import sys
import unittest

import devlint_main

DEVLINT = None  # absolute path, set from --devlint before the tests run

# The smallest DL101: a tensor's `.to()` whose result is thrown away.
BUGGY = 'import torch\nx = torch.randn(4, 10)\nx.to("cuda")\n'
CLEAN = 'import torch\nx = torch.randn(4, 10)\nx = x.to("cuda")\n'
BUG_LINE = 'x.to("cuda")'

RULE_CODES = ["DL101", "DL102", "DL103", "DL104", "DL105", "DL106", "DL107"]
TOP_KEYS = {"version", "files_checked", "findings", "errors"}
FINDING_KEYS = {"code", "name", "severity", "path", "line", "column", "end_line", "end_column",
                "message", "fix"}
FIX_KEYS = {"title", "applicability", "edits"}
EDIT_KEYS = {"line", "column", "end_line", "end_column", "text"}
ERROR_KEYS = {"path", "message"}

ESC = "\x1b"
TIMEOUT = 120  # seconds per run; the sanitizer build is slow


def run_devlint(args, cwd, stdin=None, env_extra=None):
    """Runs devlint; returns CompletedProcess with text stdout/stderr (output must be UTF-8)."""
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    env.update(env_extra or {})
    proc = subprocess.run([DEVLINT] + list(args), cwd=cwd, env=env,
                          input=stdin.encode("utf-8") if stdin is not None else None,
                          stdin=None if stdin is not None else subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    proc.stdout = proc.stdout.decode("utf-8")
    proc.stderr = proc.stderr.decode("utf-8")
    return proc


class CliTestCase(devlint_main.ProjectCase):
    """A temporary project directory per test, and helpers to run devlint in it."""

    dir_prefix = "devlint-cli-"

    def run_cli(self, *args, stdin=None, env=None):
        return run_devlint(args, self.dir, stdin=stdin, env_extra=env)

    def describe(self, proc):
        return "exit %d\n--- stdout\n%s\n--- stderr\n%s" % (proc.returncode, proc.stdout,
                                                             proc.stderr)

    def assertExit(self, proc, code):
        self.assertEqual(proc.returncode, code, self.describe(proc))

    def run_json(self, *args, expect_exit=None, stdin=None):
        proc = self.run_cli("--format", "json", *args, stdin=stdin)
        if expect_exit is not None:
            self.assertExit(proc, expect_exit)
        try:
            doc = json.loads(proc.stdout)
        except ValueError as exc:
            self.fail("stdout is not JSON (%s)\n%s" % (exc, self.describe(proc)))
        self.assertEqual(set(doc), TOP_KEYS, "top-level JSON keys")
        return doc

    def codes(self, doc):
        return [(f["path"], f["line"], f["code"]) for f in doc["findings"]]

    def the_one_finding_message(self, path, line, code):
        """Checks the project in the test folder, expects exactly that finding, returns its
        message (the message tests below each pin one finding's wording)."""
        doc = self.run_json("--no-cache", ".", expect_exit=1)
        self.assertEqual(self.codes(doc), [(path, line, code)])
        return doc["findings"][0]["message"]


class ExitCodes(CliTestCase):
    def test_clean_file_exits_0(self):
        self.write("ok.py", CLEAN)
        proc = self.run_cli("ok.py")
        self.assertExit(proc, 0)
        self.assertIn("All checks passed!", proc.stdout)

    def test_finding_exits_1(self):
        self.write("bug.py", BUGGY)
        self.assertExit(self.run_cli("bug.py"), 1)

    def test_check_subcommand_is_the_default(self):
        self.write("bug.py", BUGGY)
        plain, check = self.run_cli("bug.py"), self.run_cli("check", "bug.py")
        self.assertExit(check, 1)
        self.assertEqual(plain.stdout, check.stdout)

    def test_unknown_option_exits_2_with_message(self):
        self.write("ok.py", CLEAN)
        proc = self.run_cli("--no-such-option", "ok.py")
        self.assertExit(proc, 2)
        self.assertIn("--no-such-option", proc.stderr)

    def test_bad_format_exits_2(self):
        self.write("ok.py", CLEAN)
        proc = self.run_cli("--format", "yaml", "ok.py")
        self.assertExit(proc, 2)
        self.assertTrue(proc.stderr.strip(), "a usage error says why on stderr")

    def test_bad_jobs_exits_2(self):
        self.write("ok.py", CLEAN)
        self.assertExit(self.run_cli("-j", "many", "ok.py"), 2)

    def test_option_missing_its_value_exits_2(self):
        self.write("ok.py", CLEAN)
        self.assertExit(self.run_cli("ok.py", "--format"), 2)

    def test_exit_zero_keeps_findings(self):
        self.write("bug.py", BUGGY)
        proc = self.run_cli("--exit-zero", "bug.py")
        self.assertExit(proc, 0)
        self.assertIn("DL101", proc.stdout)

    def test_jobs_long_and_short(self):
        self.write("bug.py", BUGGY)
        self.assertExit(self.run_cli("-j", "2", "bug.py"), 1)
        self.assertExit(self.run_cli("--jobs", "1", "bug.py"), 1)


class VersionAndHelp(CliTestCase):
    def test_version(self):
        proc = self.run_cli("--version")
        self.assertExit(proc, 0)
        self.assertEqual(proc.stdout.strip(), "devlint 0.1.0")

    def test_help_lists_the_options(self):
        for flag in ("--help", "-h"):
            proc = self.run_cli(flag)
            self.assertExit(proc, 0)
            for option in ("--select", "--ignore", "--format", "--output-file", "--exit-zero",
                           "--statistics", "--jobs", "--quiet", "--exclude", "--extend-exclude",
                           "--stdin-filename", "--version"):
                self.assertIn(option, proc.stdout, "%s does not mention %s" % (flag, option))
            for command in ("rules", "explain"):
                self.assertIn(command, proc.stdout)


class JsonFormat(CliTestCase):
    def test_shape_of_a_finding_and_its_fix(self):
        self.write("bug.py", BUGGY)
        doc = self.run_json("bug.py", expect_exit=1)
        self.assertIsInstance(doc["version"], str)
        self.assertEqual(doc["files_checked"], 1)
        self.assertEqual(doc["errors"], [])
        self.assertEqual(len(doc["findings"]), 1, doc["findings"])
        f = doc["findings"][0]
        self.assertEqual(set(f), FINDING_KEYS)
        self.assertEqual((f["code"], f["name"], f["severity"], f["path"]),
                         ("DL101", "unassigned-to", "error", "bug.py"))
        self.assertEqual((f["line"], f["column"], f["end_line"], f["end_column"]), (3, 1, 3, 13))
        self.assertIsInstance(f["message"], str)
        self.assertIn("x", f["message"])
        fix = f["fix"]
        self.assertIsInstance(fix, dict)
        self.assertEqual(set(fix), FIX_KEYS)
        self.assertTrue(fix["title"])
        self.assertEqual(len(fix["edits"]), 1)
        edit = fix["edits"][0]
        self.assertEqual(set(edit), EDIT_KEYS)
        self.assertEqual(edit, {"line": 3, "column": 1, "end_line": 3, "end_column": 13,
                                "text": 'x = x.to("cuda")'})

    def test_json_version_matches_the_tool(self):
        self.write("ok.py", CLEAN)
        doc = self.run_json("ok.py", expect_exit=0)
        version = self.run_cli("--version").stdout.split()[-1]
        self.assertEqual(doc["version"], version)
        self.assertEqual(doc["findings"], [])

    def test_applying_the_fix_makes_the_file_clean(self):
        self.write("bug.py", BUGGY)
        doc = self.run_json("bug.py", expect_exit=1)
        lines = BUGGY.splitlines(keepends=True)
        for edit in doc["findings"][0]["fix"]["edits"]:
            self.assertEqual(edit["line"], edit["end_line"])  # one-line edit in this snippet
            text = lines[edit["line"] - 1]
            lines[edit["line"] - 1] = (text[:edit["column"] - 1] + edit["text"]
                                       + text[edit["end_column"] - 1:])
        self.write("bug.py", "".join(lines))
        self.assertExit(self.run_cli("bug.py"), 0)


class OtherFormats(CliTestCase):
    def test_sarif(self):
        self.write("bug.py", BUGGY)
        proc = self.run_cli("--format", "sarif", "bug.py")
        self.assertExit(proc, 1)
        doc = json.loads(proc.stdout)
        self.assertEqual(doc["version"], "2.1.0")
        run = doc["runs"][0]
        self.assertEqual(run["tool"]["driver"]["name"], "devlint")
        self.assertEqual(len(run["results"]), 1)
        result = run["results"][0]
        self.assertEqual(result["ruleId"], "DL101")
        location = result["locations"][0]["physicalLocation"]
        self.assertIn("bug.py", location["artifactLocation"]["uri"])
        self.assertEqual(location["region"]["startLine"], 3)
        self.assertEqual(location["region"]["startColumn"], 1)

    def test_sarif_without_findings_has_empty_results(self):
        self.write("ok.py", CLEAN)
        proc = self.run_cli("--format", "sarif", "ok.py")
        self.assertExit(proc, 0)
        doc = json.loads(proc.stdout)
        self.assertEqual(doc["version"], "2.1.0")
        self.assertEqual(doc["runs"][0]["results"], [])

    def test_github(self):
        self.write("bug.py", BUGGY)
        proc = self.run_cli("--format", "github", "bug.py")
        self.assertExit(proc, 1)
        lines = [l for l in proc.stdout.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, proc.stdout)
        self.assertTrue(lines[0].startswith("::error file=bug.py,"), lines[0])
        self.assertIn("line=3", lines[0])
        self.assertIn("DL101", lines[0])

    def test_output_file(self):
        self.write("bug.py", BUGGY)
        proc = self.run_cli("--format", "json", "--output-file", "report.json", "bug.py")
        self.assertExit(proc, 1)
        self.assertEqual(proc.stdout, "")
        with open(os.path.join(self.dir, "report.json"), encoding="utf-8") as fh:
            doc = json.load(fh)
        self.assertEqual([f["code"] for f in doc["findings"]], ["DL101"])

    def test_output_file_text(self):
        self.write("bug.py", BUGGY)
        proc = self.run_cli("--output-file", "report.txt", "bug.py")
        self.assertExit(proc, 1)
        self.assertEqual(proc.stdout, "")
        with open(os.path.join(self.dir, "report.txt"), encoding="utf-8") as fh:
            self.assertIn("bug.py:3:1: DL101 [unassigned-to]", fh.read())


class TextFormat(CliTestCase):
    HEAD_RE = re.compile(r"^bug\.py:3:1: DL101 \[unassigned-to\] (\S.*)$", re.M)

    def test_finding_excerpt_underline_help_and_summary(self):
        self.write("bug.py", BUGGY)
        proc = self.run_cli("bug.py")
        self.assertExit(proc, 1)
        out = proc.stdout.splitlines()
        heads = [i for i, l in enumerate(out) if self.HEAD_RE.match(l)]
        self.assertEqual(len(heads), 1, proc.stdout)
        # The excerpt line, then the underline: a caret under each code point of the span.
        rest = out[heads[0] + 1:]
        excerpt = next(i for i, l in enumerate(rest) if BUG_LINE in l)
        underline = rest[excerpt + 1]
        self.assertRegex(underline, r"^\s*\^+\s*$")
        self.assertEqual(underline.index("^"), rest[excerpt].index(BUG_LINE))
        self.assertEqual(underline.count("^"), len(BUG_LINE))
        title = self.run_json("bug.py")["findings"][0]["fix"]["title"]
        self.assertIn("  help: " + title, out)
        self.assertRegex(proc.stdout, r"Found 1 problems? in 1 files? \(1 fixable\)\.")
        self.assertNotIn(ESC, proc.stdout + proc.stderr)

    def test_a_place_is_named_in_the_file_that_holds_it(self):
        # `labels` comes from another file's function, then is moved here: the message names
        # this file's line of the move, not the line number in the other file (a trl finding
        # said "utils.py line 1631", past that file's end).
        self.write("utils.py", "import torch\n\n\ndef pad(rows):\n    return torch.stack(rows)\n")
        self.write("train.py", "import torch\nfrom utils import pad\n\n\n"
                               "def compute_loss(model, rows, device):\n"
                               "    labels = pad(rows)\n"
                               "    labels = labels.to(device)\n"
                               "    offsets = torch.tensor([1, 2])\n"
                               "    return model(labels) + labels * offsets\n")
        message = self.the_one_finding_message("train.py", 8, "DL102")
        self.assertIn("(line 7: labels.to(device))", message)
        self.assertNotIn("utils.py", message)

    def test_an_item_of_a_tuple_from_another_file_is_placed_in_that_file(self):
        # Super-SloMo's `wCoeff = model.getWarpCoeff(idx, device)`, then `wCoeff[0]`: the
        # message said "line 3: torch.Tensor(C0)...", a line of train.py, for model.py's line 7
        self.write("model.py", "import torch\n\n\n"
                               "def get_coeff(indices, device):\n"
                               "    c0 = 1.0 - indices.float()\n"
                               "    c1 = indices.float()\n"
                               "    return torch.Tensor(c0).to(device), torch.Tensor(c1).to(device)\n")
        self.write("train.py", "import torch\nimport model\n\n"
                               "device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')\n"
                               "loader = torch.utils.data.DataLoader(torch.randint(0, 7, (8,)), batch_size=2)\n"
                               "total = 0\n"
                               "for step, idx in enumerate(loader):\n"
                               "    coeff = model.get_coeff(idx, device)\n"
                               "    loss = (coeff[0] * coeff[1]).mean()\n"
                               "    total += loss.item()\n")
        message = self.the_one_finding_message("train.py", 10, "DL201")
        self.assertIn("model.py line 7: torch.Tensor(c0)", message)

    def test_a_module_built_where_it_is_called_is_moved_where_it_is_built(self):
        # captum's `nn.Linear(2, 2)(x)` in forward: the advice was "`nn.Linear(2, 2) =
        # nn.Linear(2, 2).to(device)`", an assignment to a call
        self.write("net.py", "import torch\nimport torch.nn as nn\n\n\n"
                             "class Net(nn.Module):\n"
                             "    def __init__(self):\n"
                             "        super().__init__()\n"
                             "        self.fc = nn.Linear(2, 2)\n\n"
                             "    def forward(self, x):\n"
                             "        return nn.Linear(2, 2)(self.fc(x))\n\n\n"
                             "def run(device):\n"
                             "    model = nn.Linear(2, 2)\n"
                             "    return model(torch.randn(4, 2, device=device))\n")
        doc = self.run_json("--no-cache", ".", expect_exit=1)
        self.assertEqual(self.codes(doc), [("net.py", 11, "DL105"), ("net.py", 16, "DL105")])
        inline, named = (f["message"] for f in doc["findings"])
        self.assertTrue(inline.endswith("move it: `nn.Linear(2, 2).to(device)`"), inline)
        self.assertTrue(named.endswith("move it: `model = model.to(device)`"), named)

    def test_a_cast_thrown_away_is_called_a_cast(self):
        # HunyuanVideo's `attn_bias.to(q.dtype)`: the message spoke of moving, to a device the
        # tensor was already on
        self.write("attn.py", "import torch\n\n\n"
                              "def bias(q):\n"
                              "    b = torch.zeros(4, 4, device=q.device)\n"
                              "    b.to(q.dtype)\n"
                              "    b.to(torch.float16)\n"
                              "    b.to(q.device, torch.float16)\n"
                              "    return b\n")
        doc = self.run_json("--no-cache", ".", expect_exit=1)
        self.assertEqual(self.codes(doc), [("attn.py", 6, "DL101"), ("attn.py", 7, "DL101"),
                                           ("attn.py", 8, "DL101")])
        by_dtype, by_name, with_device = (f["message"] for f in doc["findings"])
        self.assertIn("tensors are not cast in place, so `b` keeps its dtype", by_dtype)
        self.assertIn("tensors are not cast in place", by_name)
        self.assertIn("tensors do not move in place", with_device)

    def test_a_value_formatted_into_a_string_is_named_as_formatted(self):
        # deep-text-recognition's `print(f"{confidence_score:0.4f}")` said only "`confidence_score`
        # waits for the device", as if the name itself were the read
        self.write("loop.py", "import torch\n\n\n"
                              "def run(model: torch.nn.Module, loader, device):\n"
                              "    model = model.to(device)\n"
                              "    for x in loader:\n"
                              "        score = model(x.to(device)).max()\n"
                              "        print(f\"{score:0.4f}\")\n")
        message = self.the_one_finding_message("loop.py", 8, "DL201")
        self.assertTrue(message.startswith(
            "formatting `score` into a string waits for the device"), message)

    def test_a_plain_attribute_is_named_as_the_attribute(self):
        # pixel2style2pixel's `w = self.k.type(...)`: the message named `w`, a local variable,
        # as the plain tensor attribute
        self.write("blur.py", "import torch\nfrom torch import nn\n\n\n"
                              "class Blur(nn.Module):\n"
                              "    def __init__(self):\n"
                              "        super().__init__()\n"
                              "        self.lin = nn.Linear(3, 3)\n"
                              "        self.kernel = torch.ones(3)\n\n"
                              "    def forward(self, x):\n"
                              "        w = self.kernel.float()\n"
                              "        return self.lin(x) * w\n\n\n"
                              "model = Blur().cuda()\n")
        message = self.the_one_finding_message("blur.py", 9, "DL106")
        self.assertTrue(message.startswith("`self.kernel` is a plain tensor attribute"), message)

    def test_a_device_named_by_its_type_is_quoted_in_the_fix(self):
        # `device="mps"` written as `device=mps` (a name that is not bound) by the fix
        self.write("mps.py", "import torch\n\n\n"
                             "def warm_up():\n"
                             "    probe = torch.ones(8, device=\"mps\")\n"
                             "    scale = torch.full((8,), 0.5)\n"
                             "    return probe * scale\n")
        doc = self.run_json("--no-cache", ".", expect_exit=1)
        self.assertEqual(self.codes(doc), [("mps.py", 6, "DL102")])
        edits = doc["findings"][0]["fix"]["edits"]
        self.assertEqual([e["text"] for e in edits], [', device="mps"'])

    def test_an_index_expression_is_parenthesised_in_the_advice(self):
        # the advice read "move the index (`ids > 2.cpu()`)", and the sentence "with `ids > 2`
        # is on cuda"
        self.write("idx.py", "import torch\n\n\n"
                             "def f(n):\n"
                             "    ids = torch.arange(n, device=\"cuda\")\n"
                             "    cpu_t = torch.zeros(n)\n"
                             "    return cpu_t[ids > 2]\n")
        message = self.the_one_finding_message("idx.py", 7, "DL114")
        self.assertIn("is indexed with `ids > 2`, which is on cuda (line 5:", message)
        self.assertTrue(message.endswith("move the index (`(ids > 2).cpu()`) or the tensor"),
                        message)

    def test_a_first_wait_of_unknown_device_is_not_said_to_leave_nothing_to_wait_for(self):
        # the message said the later `loss.item()` "finds nothing left to wait for", though
        # `opt.step()` queued work between the two reads (a stock-prediction trainer)
        self.write("step.py", "import torch\nfrom torch import nn\n\n\n"
                              "def train(loader, device):\n"
                              "    model = nn.Linear(4, 1).to(device)\n"
                              "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
                              "    for x, y in loader:\n"
                              "        x, y = x.to(device), y.to(device)\n"
                              "        loss = nn.functional.mse_loss(model(x), y)\n"
                              "        loss.backward()\n"
                              "        gn = nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n"
                              "        if not torch.isfinite(gn):\n"
                              "            continue\n"
                              "        opt.step()\n"
                              "        print(loss.item())\n")
        message = self.the_one_finding_message("step.py", 13, "DL201")
        self.assertIn("first waits for the work queued on the device, as a read of a device "
                      "value after it shows", message)
        self.assertNotIn("nothing left to wait for", message)

    def test_a_product_is_parenthesised_in_the_copy_advice(self):
        # DL108 advised `a * b.cpu()`, which copies `b` only
        self.write("prod.py", "import torch\n\n\n"
                              "def f(loader):\n"
                              "    for x, y in loader:\n"
                              "        a = x.cuda()\n"
                              "        b = y.cuda()\n"
                              "        print((a * b).numpy())\n")
        message = self.the_one_finding_message("prod.py", 8, "DL108")
        self.assertTrue(message.endswith("copy it first: `(a * b).cpu()`"), message)

    def test_summary_counts_problems_and_files(self):
        self.write("a.py", BUGGY)
        self.write("b.py", BUGGY)
        self.write("c.py", CLEAN)
        proc = self.run_cli(".")
        self.assertExit(proc, 1)
        self.assertIn("Found 2 problems in 2 files (2 fixable).", proc.stdout)

    def test_columns_count_code_points(self):
        # `s = "é"; ` is 9 code points (10 bytes): the finding starts at column 10.
        line = 's = "é"; ' + BUG_LINE
        self.write("bug.py", "import torch\nx = torch.randn(4, 10)\n" + line + "\n")
        doc = self.run_json("bug.py", expect_exit=1)
        f = doc["findings"][0]
        self.assertEqual((f["line"], f["column"], f["end_line"], f["end_column"]), (3, 10, 3, 22))
        edit = f["fix"]["edits"][0]
        self.assertEqual((edit["column"], edit["end_column"]), (10, 22))
        proc = self.run_cli("bug.py")
        self.assertIn("bug.py:3:10: DL101 [unassigned-to]", proc.stdout)
        out = proc.stdout.splitlines()
        excerpt = next(i for i, l in enumerate(out) if line in l)
        self.assertEqual(out[excerpt + 1].index("^"), out[excerpt].index(BUG_LINE))
        self.assertEqual(out[excerpt + 1].count("^"), len(BUG_LINE))

    def test_no_escape_codes_when_not_a_terminal(self):
        self.write("bug.py", BUGGY)
        self.write("blob.py", b"\x00\x01\x02")
        proc = self.run_cli("bug.py", "blob.py")
        self.assertNotIn(ESC, proc.stdout)
        self.assertNotIn(ESC, proc.stderr)

    def test_no_color_on_a_terminal(self):
        self.write("bug.py", BUGGY)
        output = self.run_on_terminal(["bug.py"], {"NO_COLOR": "1"})
        self.assertIn("DL101", output)
        self.assertNotIn(ESC, output)

    def run_on_terminal(self, args, env_extra):
        """Runs devlint with stdout and stderr on a pseudo-terminal; returns what it printed."""
        env = dict(os.environ, TERM="xterm-256color", **env_extra)
        master, slave = pty.openpty()
        try:
            proc = subprocess.Popen([DEVLINT] + args, cwd=self.dir, env=env,
                                    stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
            os.close(slave)
            chunks = []
            while True:
                ready, _, _ = select.select([master], [], [], TIMEOUT)
                if not ready:
                    proc.kill()
                    self.fail("devlint on a terminal timed out")
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                chunks.append(chunk)
            proc.wait(timeout=TIMEOUT)
        finally:
            os.close(master)
        return b"".join(chunks).decode("utf-8")

    def test_quiet(self):
        self.write("bug.py", BUGGY)
        self.write("ok.py", CLEAN)
        proc = self.run_cli("--quiet", "bug.py")
        self.assertExit(proc, 1)
        self.assertIn("bug.py:3:1: DL101", proc.stdout)
        self.assertNotIn("Found", proc.stdout)
        proc = self.run_cli("-q", "ok.py")
        self.assertExit(proc, 0)
        self.assertEqual(proc.stdout.strip(), "")

    def test_statistics(self):
        self.write("a.py", BUGGY)
        self.write("b.py", BUGGY)
        proc = self.run_cli("--statistics", "a.py", "b.py")
        self.assertExit(proc, 1)
        rows = [l.split() for l in proc.stdout.splitlines() if "DL101" in l]
        self.assertEqual(len(rows), 1, proc.stdout)
        self.assertIn("2", rows[0])
        self.assertNotIn("a.py:3:1", proc.stdout)


class PerFileErrors(CliTestCase):
    def setUp(self):
        super().setUp()
        self.write("bug.py", BUGGY)
        self.write("blob.py", b"import torch\x00\x00\x01\x02\xff\n")
        self.write("latin.py", b"name = 'caf\xe9'\n")
        self.write("broken.py", "import torch\n\ndef f(:\n    return 1\n")

    def test_missing_path_is_reported_and_others_checked(self):
        proc = self.run_cli("missing.py", "bug.py")
        self.assertExit(proc, 1)
        self.assertRegex(proc.stderr, r"(?m)^devlint: error: missing\.py: \S")
        self.assertIn("bug.py:3:1: DL101", proc.stdout)
        doc = self.run_json("missing.py", "bug.py", expect_exit=1)
        self.assertEqual([e["path"] for e in doc["errors"]], ["missing.py"])
        self.assertEqual(self.codes(doc), [("bug.py", 3, "DL101")])

    def test_bad_files_named_explicitly(self):
        bad = ["blob.py", "broken.py", "latin.py"]
        doc = self.run_json("blob.py", "latin.py", "broken.py", "bug.py", expect_exit=1)
        self.assertEqual(sorted(e["path"] for e in doc["errors"]), bad)
        for error in doc["errors"]:
            self.assertEqual(set(error), ERROR_KEYS)
            self.assertTrue(error["message"])
        self.assertEqual(self.codes(doc), [("bug.py", 3, "DL101")])

        proc = self.run_cli("blob.py", "latin.py", "broken.py", "bug.py")
        self.assertExit(proc, 1)
        for path in bad:
            self.assertRegex(proc.stderr, r"(?m)^devlint: error: %s: \S" % re.escape(path))
        self.assertIn("bug.py:3:1: DL101 [unassigned-to]", proc.stdout)

    def test_errors_alone_exit_1(self):
        for path in ("blob.py", "latin.py", "broken.py", "missing.py"):
            proc = self.run_cli(path)
            self.assertExit(proc, 1)
            self.assertIn("devlint: error: %s: " % path, proc.stderr)

    def test_files_that_name_no_tensor_are_not_parsed(self):
        # Device bugs need tensors, modules or devices: a file naming none is not parsed, so its
        # syntax error is not devlint's to report (DEVLINT_PARSE_ALL=1 parses it anyway).
        self.write("plain.py", "def g(:\n    return 1\n")
        proc = self.run_cli("plain.py")
        self.assertExit(proc, 0)
        self.assertEqual(proc.stderr, "")
        proc = self.run_cli("plain.py", env={"DEVLINT_PARSE_ALL": "1"})
        self.assertExit(proc, 1)
        self.assertIn("devlint: error: plain.py: syntax error", proc.stderr)

    def test_full_model_dump_names_every_field_with_its_span(self):
        # DEVLINT_DUMP_IR=full is how a front-end change is shown not to change the model: two
        # builds' dumps of the same tree are compared byte for byte, spans included.
        text = ("import torch.nn as nn\n"
                "@dec\n"
                "def f(x, *rest, y: int = 2):\n"
                "    with ctx() as c:\n"
                "        return [v for v in x]\n")
        self.write("m.py", text)
        proc = self.run_cli("--no-cache", "m.py", env={"DEVLINT_DUMP_IR": "full"})
        self.assertExit(proc, 0)
        dump = proc.stderr
        self.assertIn("import module=torch.nn name=- alias=nn level=0", dump)
        start = text.index("@dec")
        self.assertIn("def f [%d,%d) name [%d,%d)" % (start, len(text) - 1, text.index("f("),
                                                      text.index("f(") + 1), dump)
        self.assertIn("decorator: expr", dump)
        self.assertIn("param rest [%d,%d) star=1" % (text.index("*rest"),
                                                     text.index("*rest") + 5), dump)
        self.assertIn("default: expr", dump)
        self.assertIn("with: expr", dump)
        self.assertIn("target: expr", dump)  # the comprehension's `v`, and the with's `c`
        self.assertIn("iter: expr", dump)
        self.assertIn("referenced torch.nn", dump)

    def test_libclang_missing_is_an_error_for_cpp_files_only(self):
        # libclang is opened when the first C++ file needs it: without it, each C++ file gets an
        # error saying so, and the Python files are checked as before.
        self.write("ext/ops.cpp", "#include <torch/extension.h>\nat::Tensor f(at::Tensor x) {\n"
                   "  x.to(torch::kCUDA);\n  return x;\n}\n")
        env = {"DEVLINT_LIBCLANG": os.path.join(self.dir, "no-such-libclang.so")}
        proc = self.run_cli("--no-cache", "ext/ops.cpp", "bug.py", env=env)
        self.assertExit(proc, 1)
        self.assertRegex(proc.stderr,
                         r"(?m)^devlint: error: ext/ops\.cpp: libclang could not be opened "
                         r"\(.*no-such-libclang\.so.*\): install libclang-16-dev, or name the "
                         r"library with DEVLINT_LIBCLANG$")
        self.assertIn("bug.py:3:1: DL101", proc.stdout)
        # a Python-only run never opens libclang: it does not matter that it is missing
        proc = self.run_cli("--no-cache", "bug.py", env=env)
        self.assertExit(proc, 1)
        self.assertEqual(proc.stderr, "")

    def test_bad_file_found_by_the_walk(self):
        doc = self.run_json(".", expect_exit=1)
        self.assertEqual(sorted(e["path"] for e in doc["errors"]),
                         ["blob.py", "broken.py", "latin.py"])
        self.assertEqual(self.codes(doc), [("bug.py", 3, "DL101")])


class CppMissingHeaders(CliTestCase):
    """A header no include directory holds is found from the #include lines, before the compiler
    runs (frontend/cpp_include_scan.h): the error the compiler would give, without its seconds."""

    def setUp(self):
        super().setUp()
        if "--no-pch" not in self.run_cli("--help").stdout:
            self.skipTest("this devlint was built without libclang")
        self.write("ext/ops.cu", "#include <torch/extension.h>\n// #include \"old.h\"\n"
                   "#include \"kernels.h\"\n__global__ void k(float *x) {}\n")
        self.write("ext/layers.h", "#ifndef LAYERS_H\n#define LAYERS_H\n#include <vector>\n"
                   "#include \"gen/config.h\"\n#endif\n")
        self.write("ext/bind.cpp", "#include <torch/extension.h>\n#include \"layers.h\"\n"
                   "at::Tensor f(at::Tensor x) { return x; }\n")
        # under a conditional the compiler takes: the scan leaves it to the compiler
        self.write("ext/cond.cpp", "#include <torch/extension.h>\n#ifdef __cplusplus\n"
                   "#include \"cond_only.h\"\n#endif\nat::Tensor g(at::Tensor x) { return x; }\n")
        self.write("ext/fine.cpp", "#include <torch/extension.h>\n#if 0\n#include \"gone.h\"\n"
                   "#endif\nat::Tensor h(at::Tensor x) {\n  x.to(torch::kCUDA);\n  return x;\n}\n")

    def run_ext(self, *paths, scan=True, env=None):
        env = dict(env or {})
        if not scan:
            env["DEVLINT_CPP_INCLUDE_SCAN"] = "0"
        return self.run_cli("--no-cache", *(paths or ("ext",)), env=env)

    def test_the_scan_says_what_the_compiler_says(self):
        scanned, compiled = self.run_ext(), self.run_ext(scan=False)
        # devlint's own lines (a sanitizer build may add its warnings about libclang's threads)
        own = lambda text: [line for line in text.splitlines() if line.startswith("devlint: ")]
        self.assertEqual(own(scanned.stderr), own(compiled.stderr), self.describe(scanned))
        self.assertEqual(scanned.stdout, compiled.stdout)
        self.assertExit(scanned, 1)
        self.assertIn("ext/fine.cpp:6:3: DL101", scanned.stdout)
        errors = sorted(line.split(": ")[2] for line in scanned.stderr.splitlines()
                        if line.startswith("devlint: error: "))
        self.assertEqual(errors, ["ext/bind.cpp", "ext/cond.cpp", "ext/ops.cu"], scanned.stderr)
        self.assertRegex(scanned.stderr, r"ext/bind\.cpp: header `gen/config\.h` not found "
                                         r"\(included at .*/ext/layers\.h:4\)")
        self.assertRegex(scanned.stderr, r"ext/ops\.cu: header `kernels\.h` not found "
                                         r"\(included at .*/ext/ops\.cu:3\)")
        self.assertRegex(scanned.stderr, r"ext/cond\.cpp: header `cond_only\.h` not found")

    def test_a_file_that_fails_on_its_includes_is_not_compiled(self):
        # DEVLINT_CPP_DEBUG prints each command the compiler runs with (and what it said)
        debug = {"DEVLINT_CPP_DEBUG": "1"}
        proc = self.run_ext("ext/ops.cu", "ext/bind.cpp", env=debug)
        self.assertExit(proc, 1)
        self.assertIn("ext/ops.cu: header `kernels.h` not found", proc.stderr)
        self.assertNotRegex(proc.stderr, r"(?m)^devlint: ext/(ops\.cu|bind\.cpp): ")
        # where the scan cannot decide (a conditional), the compiler runs
        proc = self.run_ext("ext/cond.cpp", env=dict(debug, DEVLINT_CPP_INCLUDE_SCAN="1"))
        self.assertRegex(proc.stderr, r"(?m)^devlint: ext/cond\.cpp: ")


class CppCompilerCrash(CliTestCase):
    """clang recurses until it overflows its stack on a member access with no name after a class
    template (`std::vector.<int> out;`), and libclang's own recovery cannot catch that: the file
    is reported as unreadable before the compiler runs (frontend/cpp_crash_guard.h), and the
    other files are still checked. Shapes the pre-check does not know are caught when the
    compiler crashes (frontend/cpp_parse_guard.h): DEVLINT_CPP_CRASH_GUARD=0 turns the pre-check
    off to show it."""

    def setUp(self):
        super().setUp()
        if "--no-pch" not in self.run_cli("--help").stdout:
            self.skipTest("this devlint was built without libclang")
        self.write("ext/typo.cpp", "#include <torch/extension.h>\n#include <vector>\n"
                   "void f() {\n  std::vector.<torch::Tensor> out;\n}\n")
        self.write("ext/fine.cpp", "#include <torch/extension.h>\nat::Tensor h(at::Tensor x) {\n"
                   "  x.to(torch::kCUDA);\n  return x;\n}\n")
        self.write("bug.py", BUGGY)

    def test_the_file_is_reported_and_the_others_checked(self):
        proc = self.run_cli("--no-cache", "ext", "bug.py")
        self.assertExit(proc, 1)
        self.assertIn("devlint: error: ext/typo.cpp: line 4, column 14: a `.` with no member "
                      "name after it", proc.stderr)
        self.assertIn("ext/fine.cpp:3:3: DL101", proc.stdout)
        self.assertIn("bug.py:", proc.stdout)

    def test_a_crash_of_the_compiler_costs_only_its_file(self):
        for jobs in ("1", "2"):
            proc = self.run_cli("--no-cache", "-j", jobs, "ext", "bug.py",
                                env={"DEVLINT_CPP_CRASH_GUARD": "0"})
            self.assertExit(proc, 1)
            self.assertIn("devlint: error: ext/typo.cpp: the C++ compiler devlint embeds "
                          "(libclang) crashed on this file: its parser ran out of stack; devlint "
                          "could not check it", proc.stderr)
            self.assertIn("ext/fine.cpp:3:3: DL101", proc.stdout)
            self.assertIn("bug.py:", proc.stdout)


class Selection(CliTestCase):
    def setUp(self):
        super().setUp()
        self.write("bug.py", BUGGY)

    def found(self, *args):
        proc = self.run_cli(*args, "bug.py")
        self.assertIn(proc.returncode, (0, 1), self.describe(proc))
        return "DL101" in proc.stdout

    def test_select(self):
        for selector in ("DL101", "DL1", "DL", "unassigned-to", "DL102,DL101"):
            self.assertTrue(self.found("--select", selector), selector)
        for selector in ("DL102", "DL2", "factory-without-device"):
            self.assertFalse(self.found("--select", selector), selector)
        self.assertTrue(self.found("--select", "DL102", "--select", "DL101"))

    def test_ignore(self):
        for selector in ("DL101", "DL1", "unassigned-to", "DL102,DL101"):
            self.assertFalse(self.found("--ignore", selector), selector)
        self.assertFalse(self.found("--ignore", "DL102", "--ignore", "DL101"))
        self.assertTrue(self.found("--ignore", "DL102"))

    def test_ignore_wins_over_select(self):
        self.assertFalse(self.found("--select", "DL1", "--ignore", "DL101"))

    def test_not_selected_exits_0(self):
        self.assertExit(self.run_cli("--select", "DL102", "bug.py"), 0)


class Stdin(CliTestCase):
    def test_stdin_with_filename(self):
        doc = self.run_json("--stdin-filename", "src/model.py", "-", stdin=BUGGY, expect_exit=1)
        self.assertEqual(self.codes(doc), [("src/model.py", 3, "DL101")])
        proc = self.run_cli("--stdin-filename", "src/model.py", "-", stdin=BUGGY)
        self.assertExit(proc, 1)
        self.assertIn("src/model.py:3:1: DL101 [unassigned-to]", proc.stdout)

    def test_clean_stdin(self):
        proc = self.run_cli("--stdin-filename", "ok.py", "-", stdin=CLEAN)
        self.assertExit(proc, 0)


class Walk(CliTestCase):
    def test_default_skips(self):
        self.write("src/model.py", BUGGY)
        for skipped in (".git", ".venv", "node_modules", "__pycache__", "build"):
            self.write(skipped + "/bad.py", BUGGY)
        doc = self.run_json(".", expect_exit=1)
        self.assertEqual(self.codes(doc), [("src/model.py", 3, "DL101")])
        self.assertEqual(doc["files_checked"], 1)

    def test_only_python_files_are_walked(self):
        self.write("pkg/model.py", BUGGY)
        self.write("pkg/notes.txt", BUGGY)
        self.write("pkg/data.bin", b"\x00\xff")
        doc = self.run_json("pkg", expect_exit=1)
        self.assertEqual(self.codes(doc), [("pkg/model.py", 3, "DL101")])
        self.assertEqual(doc["errors"], [])

    def test_exclude(self):
        self.write("src/model.py", BUGGY)
        self.write("gen/model_pb2.py", BUGGY)
        self.write("src/thing_pb2.py", BUGGY)
        doc = self.run_json("--exclude", "gen", "--exclude", "*_pb2.py", ".", expect_exit=1)
        self.assertEqual(self.codes(doc), [("src/model.py", 3, "DL101")])

    def test_extend_exclude_keeps_the_defaults(self):
        self.write("src/model.py", BUGGY)
        self.write("gen/model.py", BUGGY)
        self.write("third/model.py", BUGGY)
        self.write(".venv/lib.py", BUGGY)
        doc = self.run_json("--extend-exclude", "gen", "--extend-exclude", "third", ".",
                            expect_exit=1)
        self.assertEqual(self.codes(doc), [("src/model.py", 3, "DL101")])

    def test_deterministic_order(self):
        for name in ("b.py", "a.py", "pkg/z.py", "pkg/c.py", "d/e/f.py", "m.py"):
            self.write(name, BUGGY + BUGGY.replace("import torch\n", ""))
        first = self.run_cli("-j", "2", ".")
        second = self.run_cli("-j", "2", ".")
        one_worker = self.run_cli("-j", "1", ".")
        self.assertExit(first, 1)
        self.assertEqual(first.stdout, second.stdout)
        self.assertEqual(first.stdout, one_worker.stdout)
        doc = self.run_json("-j", "2", ".", expect_exit=1)
        keys = self.codes(doc)
        self.assertEqual(keys, sorted(keys))
        self.assertEqual(len(keys), 12)


class Links(CliTestCase):
    """A file reached through several paths (symlinks, hard links) is one file: its findings are
    reported once, where the file is, and --fix edits it once."""

    def link(self, target, name):
        os.makedirs(os.path.dirname(os.path.join(self.dir, name)), exist_ok=True)
        os.symlink(target, os.path.join(self.dir, name))

    def test_a_symlinked_file_is_reported_once_at_its_own_path(self):
        self.write("a/m.py", BUGGY)
        self.link("../a/m.py", "b/m.py")
        self.link("../a/m.py", "c/m.py")
        doc = self.run_json(".", expect_exit=1)
        self.assertEqual(self.codes(doc), [("a/m.py", 3, "DL101")])
        self.assertEqual(doc["files_checked"], 1)
        text = self.run_cli(".")
        self.assertIn("Found 1 problem in 1 file", text.stdout)

    def test_fix_through_symlinks_edits_the_file_once(self):
        self.write("a/m.py", BUGGY)
        self.link("../a/m.py", "b/m.py")
        proc = self.run_cli("--fix", ".")
        self.assertExit(proc, 0)
        with open(os.path.join(self.dir, "a/m.py")) as f:
            self.assertEqual(f.read(), CLEAN)
        self.assertTrue(os.path.islink(os.path.join(self.dir, "b/m.py")))

    def test_a_link_to_a_file_not_checked_reports_at_the_link(self):
        self.write("a/m.py", BUGGY)
        self.link("../a/m.py", "b/m.py")
        self.link("../a/m.py", "b/n.py")
        doc = self.run_json("b", expect_exit=1)
        self.assertEqual(self.codes(doc), [("b/m.py", 3, "DL101")])

    def test_hard_links_are_one_file(self):
        self.write("a/m.py", BUGGY)
        os.makedirs(os.path.join(self.dir, "b"))
        os.link(os.path.join(self.dir, "a/m.py"), os.path.join(self.dir, "b/m.py"))
        doc = self.run_json(".", expect_exit=1)
        self.assertEqual(self.codes(doc), [("a/m.py", 3, "DL101")])

    def test_each_link_is_still_a_module_of_its_directory(self):
        # b/model.py links to a/model.py; b's train.py imports it as its sibling `model` and
        # never moves the module it builds (DL105 needs to know that Net is a module)
        self.write("a/model.py", "import torch.nn as nn\n\n\nclass Net(nn.Module):\n"
                   "    def __init__(self):\n        super().__init__()\n"
                   "        self.fc = nn.Linear(4, 2)\n\n"
                   "    def forward(self, x):\n        return self.fc(x)\n")
        self.link("../a/model.py", "b/model.py")
        self.write("b/train.py", "import torch\nfrom model import Net\n\n\ndef main():\n"
                   "    net = Net()\n    x = torch.randn(8, 4).cuda()\n    return net(x)\n")
        doc = self.run_json(".", expect_exit=1)
        self.assertEqual([(p, c) for p, _, c in self.codes(doc)], [("b/train.py", "DL105")])


class Suppressions(CliTestCase):
    def check_line(self, line):
        self.write("bug.py", "import torch\nx = torch.randn(4, 10)\n" + line + "\n")
        return self.run_json("bug.py")

    def test_suppressions_silence(self):
        for comment in ("# devlint: ignore[DL101]", "# noqa: DL101",
                        "# devlint: ignore[unassigned-to]", "# devlint: ignore",
                        "# noqa", "# devlint: ignore[DL102, DL101]"):
            doc = self.check_line(BUG_LINE + "  " + comment)
            self.assertEqual(doc["findings"], [], comment)

    def test_suppression_of_another_rule_does_not_silence(self):
        doc = self.check_line(BUG_LINE + "  # devlint: ignore[DL102]")
        self.assertEqual([f["code"] for f in doc["findings"]], ["DL101"])
        doc = self.check_line(BUG_LINE + "  # noqa: DL102")
        self.assertEqual([f["code"] for f in doc["findings"]], ["DL101"])

    def test_suppression_inside_a_string_is_not_one(self):
        doc = self.check_line(BUG_LINE + '; s = "# noqa: DL101"')
        self.assertEqual([f["code"] for f in doc["findings"]], ["DL101"])

    def test_unknown_code_in_suppression(self):
        doc = self.check_line(BUG_LINE + "  # devlint: ignore[DL999]")
        found = sorted((f["code"], f["line"]) for f in doc["findings"])
        self.assertEqual(found, [("DL000", 3), ("DL101", 3)])
        dl000 = next(f for f in doc["findings"] if f["code"] == "DL000")
        self.assertEqual(dl000["name"], "unknown-suppression")
        self.assertIn("DL999", dl000["message"])
        proc = self.run_cli("bug.py")
        self.assertExit(proc, 1)
        self.assertIn("DL000 [unknown-suppression]", proc.stdout)

    def test_skip_file(self):
        self.write("bug.py", "# devlint: skip-file\n" + BUGGY)
        self.assertExit(self.run_cli("bug.py"), 0)


class Rules(CliTestCase):
    def test_rules_lists_the_catalogue(self):
        proc = self.run_cli("rules")
        self.assertExit(proc, 0)
        lines = proc.stdout.splitlines()
        for code in RULE_CODES:
            line = next((l for l in lines if re.search(r"\b%s\b" % code, l)), None)
            self.assertIsNotNone(line, "%s missing from `devlint rules`" % code)
            self.assertIn("error", line)
        self.assertRegex(proc.stdout, r"(?i)fix")
        self.assertIn("unassigned-to", proc.stdout)
        positions = [proc.stdout.index(code) for code in RULE_CODES]
        self.assertEqual(positions, sorted(positions), "rules are listed by code")

    def test_explain_by_code_and_name(self):
        by_code = self.run_cli("explain", "DL101")
        self.assertExit(by_code, 0)
        self.assertIn("DL101", by_code.stdout)
        self.assertIn("unassigned-to", by_code.stdout)
        self.assertIn(".to(", by_code.stdout)
        self.assertGreater(len(by_code.stdout.splitlines()), 5)
        by_name = self.run_cli("explain", "unassigned-to")
        self.assertExit(by_name, 0)
        self.assertEqual(by_code.stdout, by_name.stdout)

    def test_explain_every_listed_rule(self):
        for code in RULE_CODES:
            proc = self.run_cli("explain", code)
            self.assertExit(proc, 0)
            self.assertIn(code, proc.stdout)

    def test_explain_unknown_exits_2(self):
        proc = self.run_cli("explain", "DL999")
        self.assertExit(proc, 2)
        self.assertIn("DL999", proc.stderr)
        self.assertEqual(proc.stdout, "")


class Advice(CliTestCase):
    """What a message tells the user to do, where the fix depends on the code."""

    def test_transfer_in_loop_advice_for_constants_and_other_tensors(self):
        # a tensor built from constants may be a fresh accumulator, which cannot be hoisted:
        # the advice is to make it on the device; a tensor the loop only reads can be hoisted
        self.write("train.py", (
            "import torch\n"
            "def train(model, loader, device, prior):\n"
            "    for x in loader:\n"
            "        loss = torch.tensor(0.0).to(device)\n"
            "        loss += (model(x.to(device)) * prior.to(device)).sum()\n"
            "        loss.backward()\n"
            "prior = torch.ones(4)\n"
            "train(torch.nn.Linear(4, 4).cuda(), [], torch.device('cuda'), prior)\n"))
        doc = self.run_json("train.py", expect_exit=1)
        advice = {f["line"]: f["message"] for f in doc["findings"] if f["code"] == "DL204"}
        self.assertIn(4, advice, doc["findings"])
        self.assertIn("make it there instead (`device=` in the factory)", advice[4])

    def test_no_buffer_fix_for_an_attribute_that_may_be_a_parameter(self):
        # `nn.Parameter(...) if train_freq else t` (safari's Hyena): a buffer of the whole would
        # stop training the parameter, so DL106 offers no fix there; a plain tensor gets one
        self.write("sin.py", (
            "import torch\n"
            "import torch.nn as nn\n"
            "class Sin(nn.Module):\n"
            "    def __init__(self, dim, w=10, train_freq=True):\n"
            "        super().__init__()\n"
            "        self.freq = (nn.Parameter(w * torch.ones(1, dim)) if train_freq\n"
            "                     else w * torch.ones(1, dim))\n"
            "        self.shift = torch.zeros(1, dim)\n"
            "    def forward(self, x):\n"
            "        return torch.sin(self.freq * x) + self.shift\n"
            "m = Sin(4).cuda()\n"
            "print(m(torch.randn(2, 4, device='cuda')))\n"))
        doc = self.run_json("sin.py", expect_exit=1)
        fixes = {f["line"]: f["fix"] for f in doc["findings"] if f["code"] == "DL106"}
        self.assertEqual(sorted(fixes), [6, 8], doc["findings"])
        self.assertIsNone(fixes[6])
        self.assertIsNotNone(fixes[8])

    def test_place_in_another_file_is_named_with_its_file(self):
        # the tensor the non-blocking copy reads was made in a helper of another file: the
        # message names that file's line, not a line of this one (Cream's tokenizer)
        self.write("tokenizer.py", (
            "import torch\n"
            "\n"
            "\n"
            "def tokenize(texts):\n"
            "    return torch.zeros(len(texts), 77, dtype=torch.long)\n"))
        self.write("zero_shot.py", (
            "import torch\n"
            "from tokenizer import tokenize\n"
            "texts = tokenize(['a photo of a cat']).cuda(non_blocking=True)\n"))
        doc = self.run_json("zero_shot.py", "tokenizer.py", expect_exit=1)
        messages = [f["message"] for f in doc["findings"] if f["code"] == "DL202"]
        self.assertEqual(len(messages), 1, doc["findings"])
        self.assertIn("tokenizer.py line 5", messages[0])


def main():
    global DEVLINT
    DEVLINT, argv = devlint_main.parse_args(__file__)
    unittest.main(argv=argv, verbosity=2)


if __name__ == "__main__":
    main()
