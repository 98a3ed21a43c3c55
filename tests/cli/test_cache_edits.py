#!/usr/bin/env python3
"""The result cache under a stream of edits: after each edit of one file of a copy of the Python
fixtures (checked as one project, so that their names collide the way a monorepo's do), a run
with the cache must report exactly what a run without it does. Python results are stored with
the files whose facts they read (analyzer/driver/cache.h): an edit that such a file does not
record, or a fact read without noting it, shows here as a stale finding or a missing one.

The edits are seeded, so a failure replays:

    /usr/bin/python3 tests/cli/test_cache_edits.py --devlint build/devlint
    DEVLINT_CACHE_EDITS=200 DEVLINT_CACHE_EDITS_SEED=7 /usr/bin/python3 tests/cli/test_cache_edits.py
    DEVLINT_CACHE_EDITS_TREE=~/src/project ...     edit a copy of another project instead
"""
import os
import random
import re
import shutil
import subprocess
import unittest

import devlint_main

DEVLINT = None
TIMEOUT = 300  # a hang guard, no speed check: the sanitizer build is slow on a busy machine
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "python")

# Edits that change what a file tells other files: a device, a DataLoader's workers, a name
# defined or renamed, a value returned, a line gone or doubled.
SWAPS = [("cuda", "cpu"), ("cpu", "cuda"), ("num_workers=4", "num_workers=0"),
         ("num_workers=0", "num_workers=2"), ("return ", "return None and "),
         ("def ", "def renamed_"), ("class ", "class Renamed"), (".to(", ".float("),
         ("device=", "dtype=")]

DEFINITION = re.compile(r"^(class|def) (\w+)", re.M)


def edit(rng, text, definitions):
    lines = text.split("\n")
    kind = rng.randrange(5)
    at = rng.randrange(len(lines))
    if kind == 0:
        del lines[at]
    elif kind == 1:
        lines.insert(at, lines[at])
    elif kind == 2:
        indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
        lines.insert(at, indent + rng.choice(["x = torch.zeros(3)", "x = torch.zeros(3).cuda()",
                                              "DEVICE = 'cuda'", "def helper():\n" + indent
                                              + "    return torch.ones(2, device='cuda')"]))
    elif kind == 3 and definitions:
        # a file now uses a class or function another file defines: what its entry read last
        # time may not be enough (driver/check_partial.c)
        module, name = rng.choice(definitions)
        lines.insert(0, "from %s import %s" % (module, name))
        lines.append("probe = %s()" % name)
    else:
        candidates = [(i, a, b) for i, line in enumerate(lines) for a, b in SWAPS if a in line]
        if candidates:
            i, a, b = rng.choice(candidates)
            lines[i] = lines[i].replace(a, b, 1)
    return "\n".join(lines)


class CacheEditsTest(devlint_main.ProjectCase):
    dir_prefix = "devlint-cache-edits-"

    def run_devlint(self, *extra):
        # the timing lines tell whether the project was built over some shared files only
        env = dict(os.environ, DEVLINT_TIMING="1")
        proc = subprocess.run([DEVLINT, "--format", "json", "-j", "2", *extra, "project"],
                              cwd=self.dir, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
        self.assertIn(proc.returncode, (0, 1), proc.stderr)
        self.partial += "partial build:" in proc.stderr
        self.again += "checking again" in proc.stderr
        # shared results reused once the DataLoader marks on them were compared again
        for m in re.finditer(r"(\d+) of \d+ pending results reused", proc.stderr):
            self.reused += int(m.group(1))
        return proc.stdout

    def test_a_warm_run_after_each_edit_reports_what_a_cold_run_does(self):
        project = os.path.join(self.dir, "project")
        shutil.copytree(os.environ.get("DEVLINT_CACHE_EDITS_TREE", FIXTURES), project,
                        symlinks=True)
        files = sorted(os.path.relpath(os.path.join(d, f), project)
                       for d, _, names in os.walk(project) for f in names if f.endswith(".py"))
        multi = [f for f in files if f.count(os.sep) >= 2]
        definitions = []  # (module, name) of the project's top-level classes and functions
        for f in files:
            with open(os.path.join(project, f), encoding="utf-8", errors="replace") as fh:
                module = os.path.splitext(os.path.basename(f))[0]
                definitions += [(module, m.group(2)) for m in DEFINITION.finditer(fh.read())]
        originals = {}
        rng = random.Random(int(os.environ.get("DEVLINT_CACHE_EDITS_SEED", "1")))
        cache = ["--cache-dir", os.path.join(self.dir, "cache")]
        self.partial = self.again = self.reused = 0
        removed = {}  # path -> its text, while it is gone
        self.run_devlint(*cache)
        for step in range(int(os.environ.get("DEVLINT_CACHE_EDITS", "25"))):
            # mostly the multi-file fixtures' files, which other files read
            rel = rng.choice(multi if multi and rng.random() < 0.75 else files)
            path = os.path.join(project, rel)
            text = removed.get(rel)
            if text is None:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
            originals.setdefault(rel, text)
            # now and then a file goes back to what it was: entries stored for the old
            # bytes match again, and must still be checked against what they read; and now
            # and then one is removed (a DataLoader's marks go with it), until it is chosen again
            # and now and then a new file appears, a copy of one (its entry is not there to say
            # what it reads: driver/check.c guesses from its text)
            if rel in removed:
                new = removed.pop(rel)
            elif rng.random() < 0.05:
                removed[rel] = text
                os.unlink(path)
                new = None
            elif rng.random() < 0.05:
                path = os.path.join(os.path.dirname(path), "added_%d.py" % step)
                new = edit(rng, text, definitions)
            else:
                new = originals[rel] if rng.random() < 0.2 else edit(rng, text, definitions)
            if new is not None:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(new)
            warm = self.run_devlint(*cache)
            cold = self.run_devlint("--no-cache")
            self.assertEqual(warm, cold, "step %d: after editing %s" % (step, rel))
        # most runs after an edit build the project over the files the results read (and check
        # again when that was not enough: driver/check_partial.c)
        print("partial builds: %d, checked again: %d, reused after comparing marks: %d"
              % (self.partial, self.again, self.reused))
        if "DEVLINT_CACHE_EDITS_TREE" not in os.environ:
            self.assertGreater(self.partial, 0)


if __name__ == "__main__":
    DEVLINT, argv = devlint_main.parse_args(__file__)
    unittest.main(argv=argv, verbosity=2)
