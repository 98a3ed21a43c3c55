#!/usr/bin/env python3
"""End-to-end tests of devlint in CI and pre-commit: SARIF checked by Microsoft's SARIF Multitool
(including the rules GitHub code scanning applies on upload), fingerprints that survive line
moves, GitHub workflow-command escaping, the GitLab Code Quality report, the pre-commit hook
driven by Debian's `pre-commit` in a scratch repository, baselines and --diff-base on scripted
git histories, and docs/rules.md being what scripts/gen-rules-doc.sh writes.

The tools come from scripts/setup.sh (git, pre-commit, node and tools/node_modules); a test whose
tool is missing fails and says so rather than skipping. Standard library only:

    /usr/bin/python3 tests/cli/test_ci.py --devlint build/devlint [unittest options]
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import devlint_main

DEVLINT = None  # absolute path, set from --devlint before the tests run
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")
SETUP_HINT = "run scripts/setup.sh (it installs git, pre-commit and tools/node_modules)"

BUGGY = 'import torch\nx = torch.randn(4, 10)\nx.to("cuda")\n'
CLEAN = 'import torch\nx = torch.randn(4, 10)\nx = x.to("cuda")\n'
# A second, different DL101 (its own line text, so its own fingerprint).
OTHER_BUG = 'y = torch.zeros(3)\ny.cuda()\n'
# A file devlint cannot check (a per-file error, not a finding): not UTF-8.
UNREADABLE = b"x = '\xff'\n"

RULES_DOC_URI = "https://github.com/devlint/devlint/blob/main/docs/rules.md"
GITLAB_SEVERITIES = {"info", "minor", "major", "critical", "blocker"}
TIMEOUT = 120  # seconds per run; the sanitizer build is slow


def run(cmd, cwd, env=None, stdin=None):
    """Runs a command; text stdout/stderr. A missing executable fails the calling test."""
    try:
        return subprocess.run(cmd, cwd=cwd, env=env, input=stdin, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=TIMEOUT, universal_newlines=True,
                              errors="replace")
    except FileNotFoundError as exc:
        raise AssertionError("%s not found (%s): %s" % (cmd[0], exc, SETUP_HINT))


def notebook(*cells):
    """An .ipynb document whose code cells hold `cells` (one source line per JSON line)."""
    return json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                   "source": cell.splitlines(keepends=True)} for cell in cells],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }, indent=1) + "\n"


class CiTestCase(unittest.TestCase):
    """A temporary directory per test, git that ignores the user's configuration, and helpers
    to run devlint there."""

    maxDiff = None

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="devlint-ci-")
        self.dir = os.path.realpath(self._tmp.name)
        self.home = os.path.join(self.dir, ".home")
        os.makedirs(self.home)
        gitconfig = os.path.join(self.home, "gitconfig")
        with open(gitconfig, "w") as fh:
            fh.write("[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n")
        self.env = dict(os.environ)
        for key in ("NO_COLOR", "FORCE_COLOR", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
            self.env.pop(key, None)
        self.env.update({
            "HOME": self.home,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": gitconfig,
            "GIT_AUTHOR_NAME": "devlint tests", "GIT_AUTHOR_EMAIL": "tests@devlint.invalid",
            "GIT_COMMITTER_NAME": "devlint tests", "GIT_COMMITTER_EMAIL": "tests@devlint.invalid",
            "PRE_COMMIT_HOME": os.path.join(self.home, "pre-commit"),
            # the Multitool is a .NET program: no ICU needed, no telemetry
            "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT": "1",
            "DOTNET_CLI_TELEMETRY_OPTOUT": "1",
        })
        self.work = os.path.join(self.dir, "work")
        os.makedirs(self.work)

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, rel):
        return os.path.join(self.work, rel)

    def write(self, rel, content):
        path = self.path(rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(content)
        return rel

    def write_bytes(self, rel, content):
        with open(self.path(rel), "wb") as fh:
            fh.write(content)
        return rel

    def read(self, rel):
        with open(self.path(rel), encoding="utf-8") as fh:
            return fh.read()

    def devlint(self, *args, cwd=None):
        return run([DEVLINT] + list(args), cwd or self.work, env=self.env)

    def describe(self, proc):
        return "exit %d\n--- stdout\n%s\n--- stderr\n%s" % (proc.returncode, proc.stdout,
                                                             proc.stderr)

    def assertExit(self, proc, code):
        self.assertEqual(proc.returncode, code, self.describe(proc))

    def report(self, fmt, *args, cwd=None, exit_code=None):
        proc = self.devlint("--format", fmt, *args, cwd=cwd)
        if exit_code is not None:
            self.assertExit(proc, exit_code)
        try:
            return json.loads(proc.stdout)
        except ValueError as exc:
            self.fail("--format %s did not print JSON (%s)\n%s" % (fmt, exc, self.describe(proc)))

    def findings(self, *args, cwd=None):
        """(path, line, code) of each finding, from the JSON report."""
        doc = self.report("json", *args, cwd=cwd)
        return [(f["path"], f["line"], f["code"]) for f in doc["findings"]]

    # ---- git ----

    def git(self, *args, cwd=None):
        proc = run(["git"] + list(args), cwd or self.work, env=self.env)
        self.assertEqual(proc.returncode, 0, "git %s\n%s" % (" ".join(args), self.describe(proc)))
        return proc.stdout

    def git_init(self, cwd=None):
        self.git("init", "-q", cwd=cwd)

    def commit(self, message, cwd=None):
        self.git("add", "-A", cwd=cwd)
        self.git("commit", "-q", "--no-verify", "-m", message, cwd=cwd)
        return self.git("rev-parse", "HEAD", cwd=cwd).strip()


# ---- SARIF ----

def sarif_multitool():
    """The Multitool's executable for this platform, as its npm package resolves it."""
    if not shutil.which("node"):
        raise AssertionError("node is not installed: " + SETUP_HINT)
    proc = run(["node", "-p", 'require("@microsoft/sarif-multitool")'], TOOLS)
    tool = proc.stdout.strip()
    if proc.returncode != 0 or not os.path.isfile(tool):
        raise AssertionError("the SARIF Multitool is not installed in tools/node_modules: %s\n%s"
                             % (SETUP_HINT, proc.stderr))
    if not os.access(tool, os.X_OK):
        raise AssertionError("%s is not executable: %s" % (tool, SETUP_HINT))
    return tool


class Sarif(CiTestCase):
    def validate(self, sarif_path):
        """Runs `sarif-multitool validate` with the SARIF rules and GitHub's ingestion rules
        (Gh, Ghas) at every level; returns its findings as (ruleId, level, message)."""
        out = os.path.join(self.dir, "validation.sarif")
        proc = run([sarif_multitool(), "validate", "--rule-kind", "Sarif;Gh;Ghas",
                    "--level", "Error;Warning;Note", "--output", out,
                    "--log", "ForceOverwrite;PrettyPrint", sarif_path], self.dir, env=self.env)
        self.assertTrue(os.path.exists(out), "the validator wrote nothing\n" + self.describe(proc))
        with open(out, encoding="utf-8-sig") as fh:
            log = json.load(fh)
        run_ = log["runs"][0]
        for note in run_.get("invocations", [{}])[0].get("toolExecutionNotifications", []):
            if note.get("level") == "error":
                self.fail("the validator failed: %s" % note["message"].get("text"))
        found = []
        for res in run_.get("results", []):
            message = res["message"].get("text") or ", ".join(res["message"].get("arguments", []))
            found.append((res["ruleId"], res.get("level", "warning"), message))
        return found

    def project(self):
        """Findings of many rules with fixes, warnings and infos, a notebook, an unreadable file,
        an unknown suppression and a path that needs percent-encoding."""
        shutil.copytree(os.path.join(ROOT, "examples"), self.path("examples"))
        self.write("odd dir/50% #1,é.py", BUGGY)
        self.write_bytes("broken.py", UNREADABLE)
        self.write("nb.ipynb", notebook("import torch\n", "x = torch.randn(4, 10)\nx.to('cuda')\n"))
        self.write("sup.py", CLEAN.replace('x = x.to("cuda")', 'x = x.to("cuda")  # noqa: DL999'))
        self.write("hard.py", 'import torch\nx = torch.randn(4)\nx = x.cuda()\n')

    def test_validator_accepts_devlint_sarif(self):
        self.project()
        out = self.path("devlint.sarif")
        proc = self.devlint("--format", "sarif", "--select", "DL0,DL1,DL2,DL3",
                            "--output-file", out, ".")
        self.assertExit(proc, 1)
        with open(out, encoding="utf-8") as fh:
            doc = json.load(fh)
        run_ = doc["runs"][0]
        results = run_["results"]
        # the log exercises what the validator should see
        levels = {r["level"] for r in results}
        self.assertEqual(levels, {"error", "warning", "note"})
        self.assertTrue(any("fixes" in r for r in results), "some result carries a fix")
        self.assertTrue(any("properties" in r and "cell" in r["properties"] for r in results),
                        "a notebook finding")
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
        self.assertIn("odd%20dir/50%25%20%231%2C%C3%A9.py", uris)
        notes = run_["invocations"][0]["toolExecutionNotifications"]
        self.assertEqual([n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                          for n in notes], ["broken.py"])

        problems = [f for f in self.validate(out) if f[1] in ("error", "warning")]
        self.assertEqual(problems, [], "the SARIF Multitool rejects devlint's SARIF")

    def test_validator_notes_left_are_known(self):
        """Notes are advice, but each kind left is one we chose: a new kind is a regression to
        look at (help URIs and snippets, for one, are there and must stay)."""
        self.write("bug.py", BUGGY)
        out = self.path("devlint.sarif")
        self.assertExit(self.devlint("--format", "sarif", "--output-file", out, "bug.py"), 1)
        allowed = {
            "SARIF2002",  # messages as text, not message ids with arguments
            "SARIF2003",  # no versionControlProvenance: the upload action adds the commit
            "SARIF2006",  # the schema and help URIs were not fetched (no network here)
            "SARIF2012",  # rule names are devlint's kebab-case names, not PascalCase
        }
        notes = {f[0] for f in self.validate(out) if f[1] == "note"}
        self.assertLessEqual(notes, allowed)
        self.assertNotIn("SARIF2010", notes, "results carry region snippets")

    def test_validator_catches_a_broken_log(self):
        """The check above is not vacuous: an invalid log gets errors."""
        self.write("bug.py", BUGGY)
        doc = self.report("sarif", "bug.py", exit_code=1)
        region = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
        region["startLine"] = 0
        del doc["runs"][0]["tool"]["driver"]["rules"]
        bad = self.path("bad.sarif")
        with open(bad, "w", encoding="utf-8") as fh:
            json.dump(doc, fh)
        errors = {f[0] for f in self.validate(bad) if f[1] == "error"}
        self.assertTrue(errors, "the validator found nothing wrong with a broken log")

    def test_rules_have_help_and_a_help_uri_into_rules_md(self):
        shutil.copytree(os.path.join(ROOT, "examples"), self.path("examples"))
        doc = self.report("sarif", "examples", exit_code=1)
        with open(os.path.join(ROOT, "docs", "rules.md"), encoding="utf-8") as fh:
            headings = set(re.findall(r"^## (DL\d+)$", fh.read(), re.M))
        rules = doc["runs"][0]["tool"]["driver"]["rules"]
        self.assertGreater(len(rules), 5)
        for rule in rules:
            self.assertEqual(rule["helpUri"], "%s#%s" % (RULES_DOC_URI, rule["id"].lower()))
            self.assertIn(rule["id"], headings, "docs/rules.md has a `## %s` heading" % rule["id"])
            self.assertIn("## What it does", rule["help"]["markdown"])
            self.assertTrue(rule["help"]["text"])
            self.assertTrue(rule["shortDescription"]["text"])

    def test_fix_as_sarif_fixes(self):
        self.write("bug.py", BUGGY)
        result = self.report("sarif", "bug.py", exit_code=1)["runs"][0]["results"][0]
        change = result["fixes"][0]["artifactChanges"][0]
        self.assertEqual(change["artifactLocation"]["uri"], "bug.py")
        rep = change["replacements"][0]
        self.assertEqual(rep["deletedRegion"]["startLine"], 3)
        self.assertIn("x = ", rep["insertedContent"]["text"])
        self.assertIn("x = x.to", result["fixes"][0]["description"]["text"])
        region = result["locations"][0]["physicalLocation"]["region"]
        self.assertEqual(region["snippet"]["text"], 'x.to("cuda")')


# ---- fingerprints ----

class Fingerprints(CiTestCase):
    def sarif_prints(self, *paths):
        doc = self.report("sarif", *paths)
        return [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"],
                 r["partialFingerprints"]["primaryLocationLineHash"])
                for r in doc["runs"][0]["results"]]

    def gitlab_prints(self, *paths):
        return [(i["check_name"], i["location"]["lines"]["begin"], i["fingerprint"])
                for i in self.report("gitlab", *paths)]

    def test_line_move_keeps_fingerprints(self):
        self.write("a.py", BUGGY + OTHER_BUG)
        before_sarif, before_gitlab = self.sarif_prints("a.py"), self.gitlab_prints("a.py")
        self.assertEqual(len(before_sarif), 2)
        self.assertEqual(len({p for _, _, p in before_sarif}), 2, "distinct findings differ")
        # lines added above, and the second bug moved further down
        self.write("a.py", '"""Docstring."""\nimport os\n\n' + BUGGY + "\n\nz = 1\n" + OTHER_BUG)
        after_sarif, after_gitlab = self.sarif_prints("a.py"), self.gitlab_prints("a.py")
        self.assertNotEqual([l for _, l, _ in before_sarif], [l for _, l, _ in after_sarif])
        self.assertEqual([p for _, _, p in before_sarif], [p for _, _, p in after_sarif])
        self.assertEqual([p for _, _, p in before_gitlab], [p for _, _, p in after_gitlab])

    def test_fingerprint_shape(self):
        self.write("a.py", BUGGY)
        [(_, _, fp)] = self.sarif_prints("a.py")
        self.assertRegex(fp, r"^[0-9a-f]{16}:1$")

    def test_editing_the_line_or_the_path_changes_it(self):
        self.write("a.py", BUGGY)
        [(_, _, before)] = self.sarif_prints("a.py")
        self.write("a.py", BUGGY.replace('x.to("cuda")', 'x.to("cuda:0")'))
        [(_, _, edited)] = self.sarif_prints("a.py")
        self.write("b.py", BUGGY)
        [(_, _, other_file)] = self.sarif_prints("b.py")
        self.assertEqual(len({before, edited, other_file}), 3)

    def test_identical_lines_are_numbered(self):
        self.write("a.py", BUGGY + 'x.to("cuda")\n')
        prints = [p for _, _, p in self.sarif_prints("a.py")]
        self.assertEqual(len(prints), 2)
        self.assertEqual(prints[0].split(":")[0], prints[1].split(":")[0])
        self.assertEqual([p.split(":")[1] for p in prints], ["1", "2"])
        gitlab = [p for _, _, p in self.gitlab_prints("a.py")]
        self.assertEqual(len(set(gitlab)), 2, "GitLab fingerprints are unique within a report")

    def test_indentation_does_not_count(self):
        self.write("a.py", BUGGY)
        [(_, _, flat)] = self.sarif_prints("a.py")
        self.write("a.py", BUGGY.replace('x.to("cuda")', 'if True:\n    x.to("cuda")  '))
        [(_, _, nested)] = self.sarif_prints("a.py")
        self.assertEqual(flat, nested)


# ---- GitHub workflow commands ----

def github_unescape(text):
    return (text.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":")
            .replace("%2C", ",").replace("%25", "%"))


COMMAND = re.compile(r"^::(error|warning|notice) (?P<props>[^:]*)::(?P<data>.*)$")


class GitHub(CiTestCase):
    def commands(self, *args):
        proc = self.devlint("--format", "github", *args)
        lines = proc.stdout.split("\n")
        self.assertEqual(lines[-1], "", "ends with a newline")
        parsed = []
        for line in lines[:-1]:
            m = COMMAND.match(line)
            self.assertIsNotNone(m, "not a workflow command: %r" % line)
            props = {}
            for prop in m.group("props").split(","):
                key, _, value = prop.partition("=")
                props[key] = github_unescape(value)
            parsed.append((m.group(1), props, m.group("data")))
        return proc, parsed

    def test_escaping_round_trips_against_json(self):
        names = ["plain.py", "a,b:c.py", "50%.py", "new\nline.py", "carriage\rreturn.py"]
        for name in names:
            self.write(name, BUGGY)
        # a message with '%' (the quoted creation), ':' and ','
        self.write("pct.py", 'import torch\nx = torch.randn(10 % 3, 2)\nx.to("cuda:0")\n')
        self.write_bytes("broken,1:2%.py", UNREADABLE)
        args = names + ["pct.py", "broken,1:2%.py"]
        proc, commands = self.commands(*args)
        self.assertExit(proc, 1)
        doc = self.report("json", *args)
        self.assertEqual(len(commands), len(doc["findings"]) + len(doc["errors"]),
                         "one command per finding and per error\n" + proc.stdout)
        for (kind, props, data), finding in zip(commands, doc["findings"]):
            self.assertEqual(kind, "error")
            self.assertEqual(props["file"], finding["path"])
            self.assertEqual(int(props["line"]), finding["line"])
            self.assertEqual(int(props["col"]), finding["column"])
            self.assertEqual(props["title"], "DL101 [unassigned-to]")
            self.assertNotRegex(data, r"%(?!25|0A|0D)", "a bare %% in the data")
            self.assertEqual(github_unescape(data), finding["message"])
        errors = commands[len(doc["findings"]):]
        self.assertEqual([(k, p["file"]) for k, p, _ in errors], [("error", "broken,1:2%.py")])
        self.assertEqual(github_unescape(errors[0][2]), doc["errors"][0]["message"])
        messages = " ".join(f["message"] for f in doc["findings"])
        for c in "%:,":
            self.assertIn(c, messages, "the inputs put %r in a message" % c)
        raw = proc.stdout
        self.assertIn("file=a%2Cb%3Ac.py,", raw)
        self.assertIn("file=50%25.py,", raw)
        self.assertIn("file=new%0Aline.py,", raw)
        self.assertIn("file=carriage%0Dreturn.py,", raw)
        self.assertIn("file=broken%2C1%3A2%25.py::", raw)
        self.assertIn("torch.randn(10 %25 3, 2)", raw)
        self.assertIn('x.to("cuda:0")', raw, "':' stays as it is in the message")

    def test_severities_and_notebook_lines(self):
        self.write("hard.py", 'import torch\nx = torch.randn(4)\nx = x.cuda()\n')
        self.write("nb.ipynb", notebook("import torch\n", "x = torch.randn(4, 10)\nx.to('cuda')\n"))
        proc, commands = self.commands("--select", "DL101,DL301", "hard.py", "nb.ipynb")
        self.assertExit(proc, 1)
        kinds = {props["title"].split()[0]: kind for kind, props, _ in commands}
        self.assertEqual(kinds, {"DL301": "notice", "DL101": "error"})
        nb = [props for _, props, _ in commands if props["file"] == "nb.ipynb"][0]
        lines = self.read("nb.ipynb").split("\n")
        self.assertIn("x.to('cuda')", lines[int(nb["line"]) - 1], "the .ipynb file's own line")

    def test_clean_prints_nothing(self):
        self.write("ok.py", CLEAN)
        proc = self.devlint("--format", "github", "ok.py")
        self.assertExit(proc, 0)
        self.assertEqual(proc.stdout, "")


# ---- GitLab Code Quality ----

class GitLab(CiTestCase):
    def check_issue(self, issue):
        """The fields GitLab documents for a Code Quality report, with their types."""
        for key in ("description", "check_name", "fingerprint", "severity"):
            self.assertIsInstance(issue.get(key), str, "%s in %r" % (key, issue))
            self.assertTrue(issue[key], key)
        self.assertIn(issue["severity"], GITLAB_SEVERITIES)
        location = issue["location"]
        self.assertIsInstance(location["path"], str)
        self.assertFalse(location["path"].startswith(("/", "./")), "relative to the checkout")
        self.assertIsInstance(location["lines"]["begin"], int)
        self.assertGreaterEqual(location["lines"]["begin"], 1)

    def test_documented_fields(self):
        shutil.copytree(os.path.join(ROOT, "examples"), self.path("examples"))
        issues = self.report("gitlab", "examples", exit_code=1)
        json_doc = self.report("json", "examples")
        self.assertIsInstance(issues, list)
        self.assertEqual(len(issues), len(json_doc["findings"]))
        for issue, finding in zip(issues, json_doc["findings"]):
            self.check_issue(issue)
            self.assertEqual(issue["check_name"], finding["code"])
            self.assertEqual(issue["location"]["path"], finding["path"])
            self.assertEqual(issue["location"]["lines"]["begin"], finding["line"])
            self.assertEqual(issue["description"], "%s [%s] %s" % (finding["code"], finding["name"],
                                                                   finding["message"]))
            want = {"error": "major", "warning": "minor", "info": "info"}[finding["severity"]]
            self.assertEqual(issue["severity"], want)
            self.assertEqual(issue["type"], "issue")
            self.assertIsInstance(issue["categories"], list)
        self.assertEqual(len({i["fingerprint"] for i in issues}), len(issues), "unique fingerprints")
        self.assertEqual({i["severity"] for i in issues}, {"major", "minor"})

    def test_info_notebook_and_errors(self):
        self.write("hard.py", 'import torch\nx = torch.randn(4)\nx = x.cuda()\n')
        self.write("nb.ipynb", notebook("import torch\n", "x = torch.randn(4, 10)\nx.to('cuda')\n"))
        self.write_bytes("broken.py", UNREADABLE)
        issues = self.report("gitlab", "--select", "DL101,DL301", "hard.py", "nb.ipynb",
                             "broken.py", exit_code=1)
        for issue in issues:
            self.check_issue(issue)
        by_path = {i["location"]["path"]: i for i in issues}
        self.assertEqual(by_path["hard.py"]["severity"], "info")
        lines = self.read("nb.ipynb").split("\n")
        self.assertIn("x.to('cuda')", lines[by_path["nb.ipynb"]["location"]["lines"]["begin"] - 1])
        self.assertEqual(by_path["broken.py"]["check_name"], "devlint-error")
        self.assertIn("not valid UTF-8", by_path["broken.py"]["description"])

    def test_nothing_found_is_an_empty_array(self):
        self.write("ok.py", CLEAN)
        self.assertEqual(self.report("gitlab", "ok.py", exit_code=0), [])

    def test_output_file(self):
        self.write("a.py", BUGGY)
        proc = self.devlint("--format", "gitlab", "--output-file", "gl-code-quality-report.json",
                            "a.py")
        self.assertExit(proc, 1)
        self.assertEqual(proc.stdout, "")
        with open(self.path("gl-code-quality-report.json"), encoding="utf-8") as fh:
            self.assertEqual(len(json.load(fh)), 1)


# ---- pre-commit ----

def has_cpp_front_end():
    proc = subprocess.run([DEVLINT, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    return "--no-pch" in proc.stdout


class PreCommit(CiTestCase):
    """The hook of .pre-commit-hooks.yaml, installed from a scratch hooks repository (a commit of
    that one file) into a scratch project, with the devlint under test on PATH."""

    def setUp(self):
        super().setUp()
        self.pre_commit = shutil.which("pre-commit", path=self.env.get("PATH")) or \
            ("/usr/bin/pre-commit" if os.path.exists("/usr/bin/pre-commit") else None)
        if not self.pre_commit:
            self.fail("pre-commit is not installed: " + SETUP_HINT)
        bin_dir = os.path.join(self.dir, "bin")
        os.makedirs(bin_dir)
        os.symlink(DEVLINT, os.path.join(bin_dir, "devlint"))
        self.env["PATH"] = bin_dir + os.pathsep + self.env.get("PATH", "/usr/bin:/bin")

        hooks = os.path.join(self.dir, "hooks")
        os.makedirs(hooks)
        shutil.copy(os.path.join(ROOT, ".pre-commit-hooks.yaml"), hooks)
        self.git_init(cwd=hooks)
        self.hooks_rev = self.commit("hooks", cwd=hooks)
        self.hooks = hooks
        self.git_init()

    def configure(self, args=None):
        config = ("repos:\n- repo: %s\n  rev: %s\n  hooks:\n  - id: devlint\n"
                  % (self.hooks, self.hooks_rev))
        if args:
            config += "    args: %s\n" % json.dumps(args)
        self.write(".pre-commit-config.yaml", config)
        proc = run([self.pre_commit, "install"], self.work, env=self.env)
        self.assertEqual(proc.returncode, 0, self.describe(proc))
        self.git("add", ".pre-commit-config.yaml")
        self.git("commit", "-q", "--no-verify", "-m", "pre-commit")

    def try_commit(self, *files):
        self.git("add", *files)
        return run(["git", "commit", "-m", "change"], self.work, env=self.env)

    def head(self):
        return self.git("rev-parse", "HEAD").strip()

    def test_manifest_is_valid(self):
        proc = run([self.pre_commit, "validate-manifest",
                    os.path.join(ROOT, ".pre-commit-hooks.yaml")], self.work, env=self.env)
        self.assertEqual(proc.returncode, 0, self.describe(proc))
        with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as fh:
            manifest = fh.read()
        for line in ("- id: devlint", "name: devlint", "entry: devlint", "language: system",
                     "require_serial: false"):
            self.assertIn(line, manifest)
        self.assertRegex(manifest, r"types_or: \[python, (pyi, )?jupyter, c\+\+, cuda\]")

    def test_blocks_a_bug_and_passes_clean_code(self):
        self.configure()
        self.write("ok.py", CLEAN)
        self.write("README.txt", "x.to('cuda') in a text file is not Python\n")
        ok = self.try_commit("ok.py", "README.txt")
        self.assertEqual(ok.returncode, 0, self.describe(ok))
        self.assertRegex(ok.stdout + ok.stderr, r"devlint\.+Passed")
        good = self.head()

        self.write("bug.py", BUGGY)
        bad = self.try_commit("bug.py")
        self.assertNotEqual(bad.returncode, 0, "the commit of a DL101 went through")
        out = bad.stdout + bad.stderr
        self.assertRegex(out, r"devlint\.+Failed")
        self.assertIn("bug.py:3:1: DL101", out)
        self.assertEqual(self.head(), good, "nothing was committed")

    def test_notebooks_are_checked(self):
        self.configure()
        self.write("nb.ipynb", notebook("import torch\n", "x = torch.randn(4, 10)\nx.to('cuda')\n"))
        bad = self.try_commit("nb.ipynb")
        self.assertNotEqual(bad.returncode, 0, self.describe(bad))
        self.assertIn("nb.ipynb:cell 2:2:1: DL101", bad.stdout + bad.stderr)

    def test_cpp_sources_are_checked(self):
        self.configure()
        self.write("ops.cpp", "#include <torch/torch.h>\n\n"
                              "torch::Tensor f(torch::Tensor x) {\n  x.to(torch::kCUDA);\n"
                              "  return x;\n}\n")
        self.write("plain.c", "int main(void) { return 0; }\n")
        bad = self.try_commit("ops.cpp", "plain.c")
        out = bad.stdout + bad.stderr
        if "ops.cpp" not in out and "Passed" in out and not has_cpp_front_end():
            self.skipTest("this devlint was built without libclang")
        self.assertNotEqual(bad.returncode, 0, self.describe(bad))
        self.assertIn("ops.cpp:4:3: DL101", out)

    def test_fix_mode(self):
        self.configure(args=["--fix"])
        self.write("bug.py", BUGGY)
        first = self.try_commit("bug.py")
        self.assertNotEqual(first.returncode, 0, "pre-commit stops a commit whose files it changed")
        self.assertEqual(self.read("bug.py"), CLEAN, "the fix was applied")
        second = self.try_commit("bug.py")
        self.assertEqual(second.returncode, 0, self.describe(second))


# ---- baselines ----

class Baseline(CiTestCase):
    """A scripted history: findings recorded in a baseline, then code moved, then new bugs."""

    def setUp(self):
        super().setUp()
        self.git_init()

    def test_only_new_findings_after_moves(self):
        self.write("pkg/train.py", BUGGY + OTHER_BUG)
        self.write("eval.py", BUGGY)
        self.commit("legacy code with three bugs")
        proc = self.devlint("--write-baseline", ".devlint-baseline.json", ".")
        self.assertExit(proc, 0)
        self.assertIn("wrote 3 findings to .devlint-baseline.json", proc.stderr)
        self.commit("baseline")
        self.assertEqual(self.findings("--baseline", ".devlint-baseline.json", "."), [])

        # move code around: lines above, blocks swapped, reindented into a function
        self.write("pkg/train.py", "import os\n\n\n" + OTHER_BUG + "\n" + BUGGY + "\n# end\n")
        self.write("eval.py", 'import torch\n\n\ndef main():\n    x = torch.randn(4, 10)\n'
                              '    x.to("cuda")\n')
        self.commit("move lines")
        self.assertEqual(len(self.findings(".")), 3, "the three bugs are still there")
        proc = self.devlint("--baseline", ".devlint-baseline.json", ".")
        self.assertExit(proc, 0)

        # a new bug: only it is reported
        self.write("pkg/train.py", self.read("pkg/train.py") + "w = torch.ones(2)\nw.cuda()\n")
        self.commit("new bug")
        found = self.findings("--baseline", ".devlint-baseline.json", ".")
        self.assertEqual(found, [("pkg/train.py", 13, "DL101")])

    def test_one_more_copy_than_counted_is_new(self):
        self.write("a.py", BUGGY)
        self.assertExit(self.devlint("--write-baseline", "base.json", "a.py"), 0)
        self.write("a.py", BUGGY + 'x.to("cuda")\n')
        self.assertEqual(self.findings("--baseline", "base.json", "a.py"), [("a.py", 4, "DL101")])

    def test_file_format(self):
        self.write("a.py", BUGGY + 'x.to("cuda")\n' + OTHER_BUG)
        self.assertExit(self.devlint("--write-baseline", "base.json", "a.py"), 0)
        text = self.read("base.json")
        doc = json.loads(text)
        self.assertEqual(doc["version"], 1)
        self.assertEqual(doc["tool"], "devlint")
        entries = doc["entries"]
        self.assertEqual(sorted(e["count"] for e in entries), [1, 2])
        for e in entries:
            self.assertEqual(set(e), {"rule", "path", "fingerprint", "count"})
            self.assertEqual((e["rule"], e["path"]), ("DL101", "a.py"))
            self.assertRegex(e["fingerprint"], r"^[0-9a-f]{16}$")
        # one entry per line, so a committed baseline diffs line by line
        self.assertEqual(len([l for l in text.splitlines() if '"fingerprint"' in l]), 2)
        # written again on the same code: the same bytes
        self.assertExit(self.devlint("--write-baseline", "again.json", "a.py"), 0)
        self.assertEqual(self.read("again.json"), text)

    def test_empty_baseline(self):
        self.write("ok.py", CLEAN)
        self.assertExit(self.devlint("--write-baseline", "base.json", "ok.py"), 0)
        self.assertEqual(json.loads(self.read("base.json"))["entries"], [])
        self.write("a.py", BUGGY)
        self.assertEqual(self.findings("--baseline", "base.json", "a.py"), [("a.py", 3, "DL101")])

    def test_rule_by_name_and_errors_still_reported(self):
        self.write("a.py", BUGGY)
        self.assertExit(self.devlint("--write-baseline", "base.json", "a.py"), 0)
        doc = json.loads(self.read("base.json"))
        doc["entries"][0]["rule"] = "unassigned-to"
        self.write("base.json", json.dumps(doc))
        self.write_bytes("broken.py", UNREADABLE)
        proc = self.devlint("--format", "json", "--baseline", "base.json", "a.py", "broken.py")
        self.assertExit(proc, 1)
        report = json.loads(proc.stdout)
        self.assertEqual(report["findings"], [])
        self.assertEqual([e["path"] for e in report["errors"]], ["broken.py"])

    def test_bad_baselines_exit_2(self):
        self.write("a.py", BUGGY)
        cases = {
            "missing.json": None,
            "notjson.json": "{not json",
            "array.json": "[]",
            "future.json": '{"version": 99, "entries": []}',
            "badentry.json": '{"version": 1, "entries": [{"rule": "DL101"}]}',
        }
        for name, content in cases.items():
            if content is not None:
                self.write(name, content)
            proc = self.devlint("--baseline", name, "a.py")
            self.assertExit(proc, 2)
            self.assertIn(name, proc.stderr)
            self.assertEqual(proc.stdout, "", name)

    def test_write_baseline_to_a_bad_place_exits_2(self):
        self.write("a.py", BUGGY)
        proc = self.devlint("--write-baseline", "no/such/dir/base.json", "a.py")
        self.assertExit(proc, 2)
        self.assertIn("no/such/dir/base.json", proc.stderr)


# ---- --diff-base ----

class DiffBase(CiTestCase):
    def setUp(self):
        super().setUp()
        self.git_init()

    def test_moved_lines_are_old_added_lines_are_new(self):
        self.write("train.py", BUGGY)
        first = self.commit("a bug")
        # lines inserted above move the old bug down; a new bug is added below it
        self.write("train.py", '"""Training."""\nimport os\n\n' + BUGGY + "\n" + OTHER_BUG)
        self.assertEqual(self.findings("train.py"),
                         [("train.py", 6, "DL101"), ("train.py", 9, "DL101")])
        self.assertEqual(self.findings("--diff-base", "HEAD", "train.py"), [("train.py", 9, "DL101")])
        self.commit("move and a new bug")
        self.assertEqual(self.findings("--diff-base", first, "."), [("train.py", 9, "DL101")])
        self.assertEqual(self.findings("--diff-base", "HEAD~1", "."), [("train.py", 9, "DL101")])
        proc = self.devlint("--diff-base", "HEAD", ".")
        self.assertExit(proc, 0)

    def test_changed_line_is_new(self):
        self.write("a.py", CLEAN)
        self.commit("clean")
        self.write("a.py", BUGGY)  # line 3 edited into a bug
        self.assertEqual(self.findings("--diff-base", "HEAD", "a.py"), [("a.py", 3, "DL101")])

    def test_untracked_and_staged_files_are_new(self):
        self.write("old.py", BUGGY)
        self.commit("old")
        self.write("untracked.py", BUGGY)
        self.write("staged.py", BUGGY)
        self.git("add", "staged.py")
        self.assertEqual(self.findings("--diff-base", "HEAD", "."),
                         [("staged.py", 3, "DL101"), ("untracked.py", 3, "DL101")])

    def test_from_a_subdirectory(self):
        self.write("top.py", BUGGY)
        self.write("sub/inner.py", BUGGY)
        self.commit("two bugs")
        self.write("top.py", BUGGY + OTHER_BUG)
        self.write("sub/new.py", BUGGY)
        sub = self.path("sub")
        self.assertEqual(self.findings("--diff-base", "HEAD", "..", cwd=sub),
                         [("../sub/new.py", 3, "DL101"), ("../top.py", 5, "DL101")])
        self.assertEqual(self.findings("--diff-base", "HEAD", ".", cwd=sub),
                         [("new.py", 3, "DL101")])

    def test_notebook_cells(self):
        self.write("nb.ipynb", notebook("import torch\n", "x = torch.randn(4, 10)\nx.to('cuda')\n"))
        self.commit("a notebook with a bug")
        self.write("nb.ipynb", notebook("import torch\n", "x = torch.randn(4, 10)\nx.to('cuda')\n",
                                        "y = torch.zeros(2)\ny.cuda()\n"))
        doc = self.report("json", "--diff-base", "HEAD", "nb.ipynb")
        self.assertEqual([(f["cell"], f["line"]) for f in doc["findings"]], [(3, 2)])

    def test_with_a_baseline(self):
        self.write("a.py", BUGGY)
        self.assertExit(self.devlint("--write-baseline", "base.json", "a.py"), 0)
        self.commit("bug and baseline")
        self.write("a.py", BUGGY + OTHER_BUG)
        self.write("b.py", 'import torch\nx = torch.randn(4, 10)\nx.to("cuda")\n')
        # b.py is new to git, but its bug is not in the baseline either: reported
        self.assertEqual(self.findings("--baseline", "base.json", "--diff-base", "HEAD", "."),
                         [("a.py", 5, "DL101"), ("b.py", 3, "DL101")])

    def test_unknown_revision_and_no_repository_exit_2(self):
        self.write("a.py", BUGGY)
        self.commit("one")
        proc = self.devlint("--diff-base", "no-such-rev", "a.py")
        self.assertExit(proc, 2)
        self.assertIn("no-such-rev", proc.stderr)
        outside = os.path.join(self.dir, "outside")
        os.makedirs(outside)
        with open(os.path.join(outside, "a.py"), "w") as fh:
            fh.write(BUGGY)
        self.env["GIT_CEILING_DIRECTORIES"] = self.dir
        proc = self.devlint("--diff-base", "HEAD", "a.py", cwd=outside)
        self.assertExit(proc, 2)
        self.assertIn("not in a git repository", proc.stderr)


# ---- docs/rules.md ----

class RulesDoc(CiTestCase):
    def test_rules_md_is_current(self):
        proc = run(["bash", os.path.join(ROOT, "scripts", "gen-rules-doc.sh"), "--check", DEVLINT],
                   ROOT, env=self.env)
        self.assertEqual(proc.returncode, 0,
                         "docs/rules.md is stale: run scripts/gen-rules-doc.sh\n" + self.describe(proc))

    def test_every_rule_has_an_anchor(self):
        with open(os.path.join(ROOT, "docs", "rules.md"), encoding="utf-8") as fh:
            headings = re.findall(r"^## (DL\d+)$", fh.read(), re.M)
        proc = self.devlint("rules")
        codes = re.findall(r"^(DL\d+)\s", proc.stdout, re.M)
        self.assertTrue(codes)
        self.assertEqual(headings, codes)


def main():
    global DEVLINT
    DEVLINT, argv = devlint_main.parse_args(__file__)
    unittest.main(argv=argv, verbosity=2)


if __name__ == "__main__":
    main()
