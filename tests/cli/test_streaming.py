#!/usr/bin/env python3
"""End-to-end tests of the streamed pipeline (analyzer/driver/sharing.c, dl_project_build_leaf):
files no other file reads ("leaves") are parsed, summarised, analysed and dropped one at a time,
after the shared files' summaries. A run reports exactly what the pipeline that keeps every
program model reports (DEVLINT_NO_STREAMING=1), including where a leaf's summaries reach into a
shared file (a DataLoader over a shared dataset) and from the result cache.

    /usr/bin/python3 tests/cli/test_streaming.py --devlint build/devlint [unittest options]
"""
import json
import os
import re
import subprocess
import unittest

import devlint_main

DEVLINT = None
TIMEOUT = 300
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# a dataset that moves each sample to the GPU in its worker (DL113), loaded by another file
DATASET = '''import torch
from torch.utils.data import Dataset


class Frames(Dataset):
    def __len__(self):
        return 100

    def __getitem__(self, idx):
        return torch.randn(3, 32, 32).cuda()
'''
TRAIN = '''import torch
from torch.utils.data import DataLoader

from frames import Frames


def main():
    loader = DataLoader(Frames(), batch_size=8, num_workers=4)
    for batch in loader:
        print(batch.shape)
'''
# a leaf that reaches its own class through a name no import resolves: the unique class of
# that name in the project, which only this file defines
FALLBACK = '''import torch
import torch.nn as nn
import registry


class TinyHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def predict():
    head = registry.TinyHead()
    x = torch.randn(3, 4, device="cuda")
    return head(x)
'''


def run(args, cwd=None, streaming=True, env_extra=None):
    env = dict(os.environ)
    env.pop("DEVLINT_NO_STREAMING", None)
    if not streaming:
        env["DEVLINT_NO_STREAMING"] = "1"
    env.update(env_extra or {})
    proc = subprocess.run([DEVLINT] + args, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
    if proc.returncode not in (0, 1):
        raise AssertionError("devlint %s exited %d: %s" % (args, proc.returncode, proc.stderr))
    return proc


def findings(proc):
    return [(f["path"], f["line"], f["code"]) for f in json.loads(proc.stdout)["findings"]]


class StreamingCase(devlint_main.ProjectCase):
    dir_prefix = "devlint-stream-"

    def check(self, *args, streaming=True):
        return findings(run(["--format", "json", "--exit-zero"] + list(args), cwd=self.dir,
                            streaming=streaming))

    def test_the_fixtures_and_examples_report_the_same_when_streamed(self):
        for rel in ("tests/fixtures/python", "tests/fixtures/notebooks", "examples"):
            with self.subTest(rel):
                args = ["--no-cache", "--format", "json", "--exit-zero", os.path.join(ROOT, rel)]
                streamed = run(args, env_extra={"DEVLINT_TIMING": "1"})
                kept = run(args, streaming=False)
                self.assertEqual(json.loads(streamed.stdout), json.loads(kept.stdout))
                if rel == "tests/fixtures/python":
                    # most fixture files are read by no other file, and some are
                    found = re.search(r"find the files no other file reads \((\d+) of (\d+);",
                                      streamed.stderr)
                    self.assertIsNotNone(found, streamed.stderr)
                    leaves, files = int(found.group(1)), int(found.group(2))
                    self.assertGreater(leaves, files // 2)
                    self.assertLess(leaves, files)

    def test_a_leafs_dataloader_marks_the_shared_dataset_it_loads(self):
        self.write("frames.py", DATASET)
        self.write("train.py", TRAIN)
        expected = [("frames.py", 10, "DL113")]
        self.assertEqual(self.check("--no-cache", "."), expected)
        self.assertEqual(self.check("--no-cache", ".", streaming=False), expected)

    def test_a_cached_leaf_still_marks_the_dataset_it_loads(self):
        # train.py's result comes from the cache, frames.py's does not (its entry is gone):
        # frames.py is analysed again and must still know that train.py's DataLoader runs it
        # in workers, which only train.py's summaries tell
        self.write("frames.py", DATASET)
        self.write("train.py", TRAIN)
        cache = os.path.join(self.dir, "cache")
        self.assertEqual(self.check("--cache-dir", cache, "."), [("frames.py", 10, "DL113")])
        entries = {}
        for name in os.listdir(cache):
            if name.endswith(".json"):
                with open(os.path.join(cache, name), encoding="utf-8") as fh:
                    entries[json.load(fh)["path"]] = os.path.join(cache, name)
        self.assertEqual(sorted(entries), ["frames.py", "train.py"])
        os.remove(entries["frames.py"])
        self.assertEqual(self.check("--cache-dir", cache, "."), [("frames.py", 10, "DL113")])
        self.assertTrue(os.path.exists(entries["train.py"]))

    def test_a_leaf_reaches_its_own_class_by_the_unique_name(self):
        self.write("serve.py", FALLBACK)
        self.write("other.py", "import torch\nx = torch.zeros(2)\n")
        expected = [("serve.py", 18, "DL105")]
        self.assertEqual(self.check("--no-cache", "."), expected)
        self.assertEqual(self.check("--no-cache", ".", streaming=False), expected)


if __name__ == "__main__":
    DEVLINT, argv = devlint_main.parse_args(__file__)
    unittest.main(argv=argv)
