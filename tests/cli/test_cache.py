#!/usr/bin/env python3
"""End-to-end tests of the result cache (analyzer/driver/cache.c): a warm run reports exactly
what a cold one does, and every input the result depends on invalidates it — the file's bytes,
the settings, another project file the analysis reads, devlint itself.

    /usr/bin/python3 tests/cli/test_cache.py --devlint build/devlint [unittest options]
"""
import glob
import json
import os
import subprocess
import unittest

import devlint_main

DEVLINT = None
TIMEOUT = 300  # a hang guard, no speed check: the sanitizer build parses C++ slowly when busy

BUGGY = 'import torch\nx = torch.randn(4, 10)\nx.to("cuda")\n'
CLEAN = 'import torch\nx = torch.randn(4, 10)\nx = x.to("cuda")\n'
# a device defined in one file and used in another: model.py's finding depends on config.py
CONFIG_CPU = 'import torch\nDEVICE = torch.device("cpu")\n'
CONFIG_CUDA = 'import torch\nDEVICE = torch.device("cuda")\n'
# a shared helper with a finding of its own, and a file that reads its summary
HELPERS = BUGGY + "\n\ndef scale(t):\n    return t * 2\n"
USER = ("import torch\nfrom helpers import scale\n"
        "y = scale(torch.ones(2))\nz = torch.randn(2)\nz.to('cuda')\n")
MODEL = ('import torch\nfrom config import DEVICE\n\n'
         'def step(model):\n    x = torch.randn(8, 4)\n    w = torch.ones(4, device=DEVICE)\n'
         '    return x * w\n')


class CacheCase(devlint_main.ProjectCase):
    dir_prefix = "devlint-cache-"

    def setUp(self):
        super().setUp()
        self.cache = os.path.join(self.dir, "cache")

    def devlint(self, *args, cache=True, env=None):
        extra = ["--cache-dir", self.cache] if cache else []
        proc = subprocess.run([DEVLINT] + extra + list(args), cwd=self.dir, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=TIMEOUT)
        self.assertIn(proc.returncode, (0, 1), proc.stderr)
        return proc

    def entries(self):
        return sorted(glob.glob(os.path.join(self.cache, "*.json")))

    def codes(self, proc):
        return [(f["path"], f["line"], f["code"]) for f in json.loads(proc.stdout)["findings"]]



class CacheTest(CacheCase):
    def test_warm_run_reports_what_the_cold_run_did(self):
        self.write("bug.py", BUGGY)
        self.write("nb.ipynb", json.dumps({"cells": [
            {"cell_type": "code", "source": ["import torch\n"], "metadata": {}, "outputs": []},
            {"cell_type": "code", "source": ["x = torch.randn(4)\n", "x.cuda()\n"],
             "metadata": {}, "outputs": []}], "metadata": {}, "nbformat": 4,
            "nbformat_minor": 5}))
        self.write("broken.py", "import torch\ndef f(:\n")
        self.write("plain.py", "print('no tensors here')\n")
        for fmt in ("json", "text", "sarif"):
            cold = self.devlint("--format", fmt, ".", cache=False)
            first = self.devlint("--format", fmt, ".")
            warm = self.devlint("--format", fmt, ".")
            self.assertEqual(first.stdout, cold.stdout, fmt)
            self.assertEqual(warm.stdout, cold.stdout, fmt)
            self.assertEqual(warm.stderr, cold.stderr, fmt)
            self.assertEqual(warm.returncode, cold.returncode, fmt)
        self.assertEqual(len(self.entries()), 4)
        with open(os.path.join(self.cache, ".gitignore"), encoding="utf-8") as fh:
            self.assertIn("*", fh.read().split())

    def test_the_warm_run_reads_the_entry(self):
        # Proof that nothing is re-analysed: an entry edited by hand (same key) is what is shown.
        self.write("bug.py", BUGGY)
        self.devlint("bug.py")
        [entry] = self.entries()
        with open(entry, encoding="utf-8") as fh:
            doc = json.load(fh)
        doc["result"]["diags"][0]["message"] = "served from the cache"
        with open(entry, "w", encoding="utf-8") as fh:
            json.dump(doc, fh)
        self.assertIn("served from the cache", self.devlint("bug.py").stdout)
        self.assertNotIn("served from the cache", self.devlint("--no-cache", "bug.py").stdout)

    def test_editing_the_file_invalidates_its_entry(self):
        self.write("bug.py", BUGGY)
        self.assertEqual(self.devlint("--format", "json", "bug.py").returncode, 1)
        self.write("bug.py", CLEAN)
        proc = self.devlint("--format", "json", "bug.py")
        self.assertEqual(self.codes(proc), [])
        self.assertEqual(proc.returncode, 0)

    def assert_config_edit_invalidates(self, model_name):
        self.write("config.py", CONFIG_CPU)
        self.write(model_name, MODEL)
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")), [])
        self.write("config.py", CONFIG_CUDA)
        uncached = self.codes(self.devlint("--format", "json", ".", cache=False))
        self.assertTrue(uncached, "the fixture must produce a finding once DEVICE is CUDA")
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")), uncached)

    def test_editing_another_project_file_invalidates(self):
        # model.py names its own module (`def step(model)`): every file is shared
        self.assert_config_edit_invalidates("model.py")

    def test_editing_a_file_a_leaf_reads_invalidates_the_leaf(self):
        # step_fn.py is read by no other file (a leaf, analyzer/driver/sharing.c); its result
        # still depends on config.py, which it imports
        self.assert_config_edit_invalidates("step_fn.py")

    def test_editing_a_file_no_other_file_reads_keeps_the_others_entries(self):
        # two files that import nothing of each other (leaves, analyzer/driver/sharing.c): a
        # change to one leaves the other's result valid
        self.write("first.py", BUGGY)
        self.write("second.py", HELPERS)
        self.devlint(".")
        for entry in self.entries():
            with open(entry, encoding="utf-8") as fh:
                doc = json.load(fh)
            if doc["path"] == "second.py":
                doc["result"]["diags"][0]["message"] = "served from the cache"
                with open(entry, "w", encoding="utf-8") as fh:
                    json.dump(doc, fh)
        self.write("first.py", CLEAN)
        out = self.devlint(".").stdout
        self.assertIn("second.py:3:1: DL101 [unassigned-to] served from the cache", out)
        self.assertNotIn("first.py", out)
        # what the analysis learns of the leaves from their text is part of the key: once a
        # file calls a function no file called before (it may need a summary now), the leaves'
        # results are computed again
        self.write("third.py", "import torch\ny = scale(torch.ones(2))\n")
        self.assertNotIn("served from the cache", self.devlint(".").stdout)

    def test_a_gpu_default_set_in_another_file_invalidates_every_result(self):
        # `torch.set_default_tensor_type('torch.cuda.FloatTensor')` in one file makes where the
        # factories of every other file's functions create not known (DlProject.
        # default_device_set): a cached result taken without it must not survive it, nor the
        # other way round
        loss = ("import torch\nimport torch.nn as nn\n\n\nclass Loss(nn.Module):\n"
                "    def forward(self, pred):\n"
                "        return pred + torch.zeros(pred.shape)\n")
        self.write("loss.py", loss)
        plain = 'import torch\nDEVICE = torch.device("cuda")\n\n\ndef init_torch():\n    pass\n'
        self.write("core.py", plain)
        cold = self.codes(self.devlint("--format", "json", "."))
        self.assertIn(("loss.py", 7, "DL102"), cold)
        self.write("core.py", plain.replace("pass", "torch.set_default_tensor_type("
                                            "'torch.cuda.FloatTensor')"))
        self.assertEqual([], self.codes(self.devlint("--format", "json", ".")))
        self.write("core.py", plain)
        self.assertEqual(cold, self.codes(self.devlint("--format", "json", ".")))

    def mark_served_from_cache(self, *paths):
        """Rewrites the first finding of each entry for `paths` (same key): a run that shows
        it has taken the entry, not analysed the file again."""
        for entry in self.entries():
            with open(entry, encoding="utf-8") as fh:
                doc = json.load(fh)
            if doc["path"] in paths:
                doc["result"]["diags"][0]["message"] = "served from the cache"
                with open(entry, "w", encoding="utf-8") as fh:
                    json.dump(doc, fh)

    def test_editing_a_shared_file_keeps_the_results_that_did_not_read_it(self):
        # helpers.py is shared (user.py imports it) but reads nothing of config.py: a Python
        # result is stored with the files whose facts it read, and only those invalidate it
        self.write("config.py", CONFIG_CPU)
        self.write("model.py", MODEL)
        self.write("helpers.py", HELPERS)
        self.write("user.py", USER)
        self.devlint(".")
        self.mark_served_from_cache("helpers.py", "user.py")
        self.write("config.py", CONFIG_CUDA)
        out = self.devlint(".").stdout
        self.assertIn("helpers.py:3:1: DL101 [unassigned-to] served from the cache", out)
        self.assertIn("user.py:5:1: DL101 [unassigned-to] served from the cache", out)
        self.assertIn("model.py:", out, "model.py reads config.py: analysed again")
        # an edit of a file user.py read does invalidate it
        self.write("helpers.py", BUGGY + "\n\ndef scale(t):\n    return t * 3\n")
        self.assertNotIn("served from the cache", self.devlint(".").stdout)

    def test_a_name_defined_anew_invalidates_the_results_that_may_look_it_up(self):
        # a lookup that found nothing (or the one class of a name) records no file: a key holds
        # where the names its file mentions are defined, and an entry stores that of each file
        # it read with the file's bytes (dl_sharing_names_digest)
        self.write("helpers.py", BUGGY + "\n\ndef scale(t):\n    return t * 2  # no Widget\n")
        self.write("user.py", USER)
        self.write("other.py", "import torch\nimport registry\nnet = registry.Net()\n"
                               "w = torch.randn(2)\nw.to('cuda')\n")
        self.write("config.py", CONFIG_CPU)
        # config.py is shared (main.py imports it): a lookup may find the names it defines
        self.write("main.py", "import torch\nimport config\n")
        self.devlint(".")
        self.mark_served_from_cache("user.py", "other.py")
        # other.py's `registry.Net()` may find the one class Net of the project
        self.write("config.py", CONFIG_CPU + "\n\nclass Net:\n    pass\n")
        out = self.devlint(".").stdout
        self.assertIn("user.py:5:1: DL101 [unassigned-to] served from the cache", out)
        self.assertIn("other.py:5:1: DL101 [unassigned-to] the result", out)
        # helpers.py, whose facts user.py read, mentions Widget (which makes widgets.py shared)
        self.mark_served_from_cache("user.py", "other.py")
        self.write("widgets.py", "import torch\n\n\nclass Widget:\n    pass\n")
        out = self.devlint(".").stdout
        self.assertIn("other.py:5:1: DL101 [unassigned-to] served from the cache", out)
        self.assertIn("user.py:5:1: DL101 [unassigned-to] the result", out)

    def test_a_copied_training_script_keeps_the_other_results(self):
        # the copy defines the class it mentions: each script's `Points` is its own, so both
        # stay scripts no other file reads, and every result but the copy's is kept
        self.write("helpers.py", HELPERS)
        self.write("user.py", USER)
        train = ("import torch\nfrom helpers import scale\n\n\nclass Points:\n    pass\n\n\n"
                 "p = Points()\ny = scale(torch.ones(2))\nx = torch.randn(2)\nx.to('cuda')\n")
        self.write("train.py", train)
        self.devlint(".")
        self.mark_served_from_cache("helpers.py", "user.py", "train.py")
        self.write("train_copy.py", train)
        proc = self.devlint("--format", "json", ".")
        served = sorted(f["path"] for f in json.loads(proc.stdout)["findings"]
                        if f["message"] == "served from the cache")
        self.assertEqual(served, ["helpers.py", "train.py", "user.py"])
        self.assertEqual(len(json.loads(proc.stdout)["findings"]), 4)

    def test_a_function_named_for_the_first_time_invalidates_the_results_that_read_its_file(self):
        # a function no file names gets no summary: naming it changes its file's facts, which
        # user.py read, not other.py's
        self.write("helpers.py", BUGGY + "\n\ndef scale(t):\n    return t * 2\n\n\n"
                                 "def spare(t):\n    return t.cpu()\n")
        self.write("user.py", USER)
        self.write("other.py", "import torch\nw = torch.randn(2)\nw.to('cuda')\n")
        self.devlint(".")
        self.mark_served_from_cache("user.py", "other.py")
        self.write("new.py", "import torch\nfrom helpers import spare\n")
        out = self.devlint(".").stdout
        self.assertIn("other.py:3:1: DL101 [unassigned-to] served from the cache", out)
        self.assertIn("user.py:5:1: DL101 [unassigned-to] the result", out)

    def test_a_call_of_a_function_defaulting_to_the_cpu_made_in_another_file_invalidates_it(self):
        # training.py's `device` is the CPU while no call hands it another (dataflow/
        # flow_callers.c): cli.py's call leaves it out, and run.py's `trainer.fit(model)` is
        # another object's method. Edited into a call of training's `fit` with a GPU, run.py
        # changes no file's mentions of `fit`, and training.py's per-batch read is reported again
        self.write("training.py", "import torch\n\n\ndef fit(model, loader, device='cpu'):\n"
                   "    model = model.to(device)\n    for x, y in loader:\n"
                   "        loss = (model(x.to(device)) - y.to(device)).pow(2).mean()\n"
                   "        print(loss.item())\n")
        self.write("cli.py", "import torch\nfrom training import fit\n\n\n"
                   "def run(model, loader):\n    fit(model, loader)\n")
        self.write("run.py", "import torch\n\n\ndef tune(trainer, model, loader):\n"
                   "    trainer.fit(model)\n")
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")), [])
        self.write("run.py", "import torch\nimport training\n\n\n"
                   "def tune(trainer, model, loader):\n    training.fit(model, loader, 'cuda')\n")
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")),
                         [("training.py", 8, "DL201")])

    def test_a_dataloader_in_another_file_invalidates_the_dataset_it_marks(self):
        # DL113 is reported in dataset.py, and decided by train.py's DataLoader, which
        # dataset.py does not read
        self.write("dataset.py", "import torch\nfrom torch.utils.data import Dataset\n\n\n"
                                 "class Points(Dataset):\n    def __len__(self):\n"
                                 "        return 8\n\n    def __getitem__(self, i):\n"
                                 "        return torch.randn(3).cuda()\n")
        train = ("import torch\nfrom torch.utils.data import DataLoader\n"
                 "from dataset import Points\n\n"
                 "loader = DataLoader(Points(), batch_size=2, num_workers=%d)\n")
        self.write("train.py", train % 0)
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")), [])
        self.write("train.py", train % 4)
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")),
                         [("dataset.py", 10, "DL113")])
        self.write("train.py", train % 0)
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")), [])

    def test_a_helper_a_dataloader_reads_invalidates_the_dataset_it_marks(self):
        # which dataset train.py's DataLoader loads is decided in helper.py, which mentions no
        # DataLoader and which dataset.py's analysis does not read: dataset.py's result is
        # stored with the files the DataLoader files read
        self.write("dataset.py", "import torch\nfrom torch.utils.data import Dataset\n\n\n"
                                 "class Points(Dataset):\n    def __len__(self):\n"
                                 "        return 8\n\n    def __getitem__(self, i):\n"
                                 "        return torch.randn(3).cuda()\n\n\n"
                                 "class Other(Dataset):\n    def __len__(self):\n"
                                 "        return 8\n\n    def __getitem__(self, i):\n"
                                 "        return torch.randn(3)\n")
        helper = "import torch\nfrom dataset import Points, Other\n\n\ndef make_ds():\n"
        self.write("helper.py", helper + "    return Points()\n")
        self.write("train.py", "import torch\nfrom torch.utils.data import DataLoader\n"
                               "from helper import make_ds\n\n"
                               "loader = DataLoader(make_ds(), batch_size=2, num_workers=4)\n")
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")),
                         [("dataset.py", 10, "DL113")])
        self.write("helper.py", helper + "    return Other()\n")
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")), [])
        self.write("helper.py", helper + "    return Points()\n")
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")),
                         [("dataset.py", 10, "DL113")])

    POINTS = ("import torch\nfrom torch.utils.data import Dataset\n\n\n"
              "class Points(Dataset):\n    def __len__(self):\n"
              "        return 8\n\n    def __getitem__(self, i):\n"
              "        return torch.randn(3).cuda()\n")
    TRAIN = ("import torch\nfrom torch.utils.data import DataLoader\n"
             "from dataset import Points\n\n"
             "loader = DataLoader(Points(), batch_size=2, num_workers=%d)\n")

    def timed(self, *args):
        return self.devlint("--format", "json", *args, env=dict(os.environ, DEVLINT_TIMING="1"))

    def assert_same_as_without_cache(self, proc):
        self.assertEqual(self.codes(proc), self.codes(self.devlint("--format", "json", ".",
                                                                    cache=False)))

    def test_an_edit_of_a_dataloader_file_that_changes_no_mark_keeps_the_shared_results(self):
        # dataset.py's entry stores the marks on its own datasets and what they were computed
        # from; train.py's edit changes what they were computed from, not the marks
        self.write("dataset.py", self.POINTS)
        self.write("train.py", self.TRAIN % 4)
        self.write("model.py", "import torch\nfrom dataset import Points\nx = torch.randn(2)\n"
                               "x.to('cuda')\n")
        self.write("main.py", "import torch\nimport model\n")  # model.py is shared too
        self.timed(".")
        self.mark_served_from_cache("dataset.py", "model.py")
        self.write("train.py", self.TRAIN % 4 + "for batch in loader:\n    print(batch)\n")
        proc = self.timed(".")
        self.assertIn("2 of 2 pending results reused", proc.stderr)
        self.assertEqual(proc.stdout.count("served from the cache"), 2, proc.stdout)
        # and the run after it takes both as they are, comparing nothing
        proc = self.timed(".")
        self.assertEqual(proc.stdout.count("served from the cache"), 2, proc.stdout)
        self.assertNotIn("pending", proc.stderr)
        self.assertIn("cache look-up (4 of 4 results reused)", proc.stderr)
        # an edit that changes a mark analyses the dataset's file again, and only it
        self.write("train.py", self.TRAIN % 0)
        proc = self.timed(".")
        self.assertIn("1 of 2 pending results reused", proc.stderr)
        self.assertEqual(proc.stdout.count("served from the cache"), 1, proc.stdout)
        self.assertEqual([c for c in self.codes(proc) if c[2] == "DL113"], [])

    def test_a_dataloader_file_added_or_removed_marks_the_dataset_or_not(self):
        self.write("dataset.py", self.POINTS)
        self.write("main.py", "import torch\nfrom dataset import Points\n")
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")), [])
        self.write("train.py", self.TRAIN % 4)
        proc = self.devlint("--format", "json", ".")
        self.assertEqual(self.codes(proc), [("dataset.py", 10, "DL113")])
        self.assert_same_as_without_cache(proc)
        os.unlink(os.path.join(self.dir, "train.py"))
        proc = self.devlint("--format", "json", ".")
        self.assertEqual(self.codes(proc), [])
        self.assert_same_as_without_cache(proc)

    def test_a_skipped_dataloader_file_still_marks_from_what_it_reads(self):
        # train.py is not analysed (skip-file), but its DataLoader still marks the dataset
        # helper.py chooses: its entry is stored with what its facts read
        self.write("dataset.py", self.POINTS.replace("Points", "Other").replace(".cuda()", "")
                   + "\n\n" + self.POINTS.split("\n\n\n", 1)[1])
        helper = "import torch\nfrom dataset import Points, Other\n\n\ndef make_ds():\n"
        self.write("helper.py", helper + "    return Points()\n")
        self.write("train.py", "# devlint: skip-file\nimport torch\n"
                               "from torch.utils.data import DataLoader\n"
                               "from helper import make_ds\n\n"
                               "loader = DataLoader(make_ds(), batch_size=2, num_workers=4)\n")
        proc = self.devlint("--format", "json", ".")
        self.assertEqual([c[2] for c in self.codes(proc)], ["DL113"])
        self.write("helper.py", helper + "    return Other()\n")
        proc = self.devlint("--format", "json", ".")
        self.assertEqual(self.codes(proc), [])
        self.assert_same_as_without_cache(proc)

    TWO_DATASETS = POINTS + ("\n\nclass Other(Dataset):\n    def __len__(self):\n"
                             "        return 8\n\n    def __getitem__(self, i):\n"
                             "        return torch.randn(3)\n")
    TRAINER = ("import torch\n\n\nclass Trainer:\n    def __init__(self, ds):\n"
               "        self._setup(ds)\n\n    def _setup(self, ds):\n"
               "        self.loader = torch.utils.data.DataLoader(ds, batch_size=2, num_workers=4)\n")
    SUBCLASS = ("import torch\nfrom base import Trainer\nfrom dataset import Points, Other\n\n\n"
                "class MyTrainer(Trainer):\n    def __init__(self):\n        self._setup(%s())\n")

    def test_a_subclass_that_runs_a_base_class_dataloader_marks_from_its_own_file(self):
        # sub.py names no DataLoader: its __init__ runs base.py's helper inline, and the
        # DataLoader there marks the dataset sub.py passes, from sub.py's facts
        self.write("dataset.py", self.TWO_DATASETS)
        self.write("base.py", self.TRAINER)
        self.write("sub.py", self.SUBCLASS % "Points")
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")),
                         [("dataset.py", 10, "DL113")])
        self.write("sub.py", self.SUBCLASS % "Other")
        proc = self.devlint("--format", "json", ".")
        self.assertEqual(self.codes(proc), [])
        self.assert_same_as_without_cache(proc)
        self.write("sub.py", self.SUBCLASS % "Points")
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")),
                         [("dataset.py", 10, "DL113")])
        # another DataLoader file: a partial build, where sub.py's entry gives the marks it
        # placed
        self.write("other.py", "import torch\nfrom torch.utils.data import DataLoader\n"
                               "loader = DataLoader([1, 2], num_workers=2)\n")
        proc = self.timed(".")
        self.assertIn("(2 DataLoader files' marks from their entries)", proc.stderr)
        self.assertEqual(self.codes(proc), [("dataset.py", 10, "DL113")])

    def test_settings_are_part_of_the_key(self):
        self.write("bug.py", BUGGY)
        self.assertEqual(self.codes(self.devlint("--format", "json", "bug.py")),
                         [("bug.py", 3, "DL101")])
        self.assertEqual(self.codes(self.devlint("--format", "json", "--ignore", "DL101",
                                                 "bug.py")), [])
        self.write("devlint.toml", 'ignore = ["DL101"]\n')
        self.assertEqual(self.codes(self.devlint("--format", "json", "bug.py")), [])

    def test_fixes_come_back_from_the_cache(self):
        self.write("bug.py", BUGGY)
        self.devlint("bug.py")
        diff = self.devlint("--diff", "bug.py")
        self.assertIn('+x = x.to("cuda")', diff.stdout)
        self.devlint("--fix", "bug.py")
        with open(os.path.join(self.dir, "bug.py"), encoding="utf-8") as fh:
            self.assertEqual(fh.read(), CLEAN)

    def test_no_cache_writes_nothing(self):
        self.write("bug.py", BUGGY)
        self.devlint("--no-cache", "bug.py", cache=False)
        self.assertFalse(os.path.exists(os.path.join(self.dir, ".devlint_cache")))
        self.devlint("bug.py", cache=False)  # the default location
        self.assertTrue(os.path.isdir(os.path.join(self.dir, ".devlint_cache")))

    def test_a_damaged_entry_is_a_miss(self):
        self.write("bug.py", BUGGY)
        self.devlint("bug.py")
        [entry] = self.entries()
        with open(entry, "w", encoding="utf-8") as fh:
            fh.write('{"path": "bug.py", "key": ')
        proc = self.devlint("bug.py")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("bug.py:3:1: DL101", proc.stdout)
        self.assertEqual(proc.stderr, "")

    def test_an_unusable_cache_dir_is_a_warning(self):
        self.write("bug.py", BUGGY)
        self.write("blocker", "a file where the directory should be\n")
        proc = subprocess.run([DEVLINT, "--cache-dir", "blocker/cache", "bug.py"], cwd=self.dir,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=TIMEOUT)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("bug.py:3:1: DL101", proc.stdout)
        self.assertIn("warning: cannot create the cache directory blocker/cache", proc.stderr)

    def test_concurrent_runs_share_the_cache(self):
        for i in range(40):
            self.write("pkg/m%02d.py" % i, BUGGY if i % 3 == 0 else CLEAN)
        expected = self.devlint("--format", "json", "pkg", cache=False).stdout
        procs = [subprocess.Popen([DEVLINT, "--cache-dir", self.cache, "--format", "json", "pkg"],
                                  cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for _ in range(6)]
        for p in procs:
            out, err = p.communicate(timeout=TIMEOUT)
            self.assertEqual(out, expected)
            self.assertEqual(err, "")
        self.assertEqual(len(self.entries()), 40)
        self.assertEqual(glob.glob(os.path.join(self.cache, "*.tmp")), [])
        self.assertEqual(self.devlint("--format", "json", "pkg").stdout, expected)


# C++: a project header decides the finding (the macro throws the moved tensor away, or keeps it)
CPP_FILE = ('#include <torch/torch.h>\n#include "helpers.h"\n\n'
            'torch::Tensor run(torch::Tensor t) {\n  MOVE(t);\n  return t;\n}\n')
HEADER_DISCARDS = "#pragma once\n#define MOVE(x) x.to(torch::kCUDA)\n"
HEADER_ASSIGNS = "#pragma once\n#define MOVE(x) x = x.to(torch::kCUDA)\n"


def has_cpp():
    proc = subprocess.run([DEVLINT, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=TIMEOUT)
    return "--no-pch" in proc.stdout


class PartialBuildTest(CacheCase):
    """A re-run whose results to analyse all have entries builds the project over the files
    those entries read (driver/check_partial.c), and checks again over every shared
    file when an edited file now reads one it left out."""

    def timed(self, *args):
        env = dict(os.environ, DEVLINT_TIMING="1")
        return self.devlint("--format", "json", *args, env=env)

    def assert_same_as_without_cache(self, proc):
        self.assertEqual(self.codes(proc), self.codes(self.devlint("--format", "json", ".",
                                                                    cache=False)))

    def write_two_configs(self):
        self.write("config_cpu.py", CONFIG_CPU)
        self.write("config_gpu.py", CONFIG_CUDA)
        self.write("main.py", "import torch\nimport config_cpu\nimport config_gpu\n")

    def test_a_rerun_builds_over_the_files_the_results_read(self):
        self.write_two_configs()
        self.write("model.py", MODEL.replace("from config ", "from config_cpu "))
        self.timed(".")
        self.write("model.py", MODEL.replace("from config ", "from config_cpu ") + "# edited\n")
        proc = self.timed(".")
        self.assertIn("partial build: 1 of 2 shared files", proc.stderr)
        self.assertNotIn("checking again", proc.stderr)
        self.assert_same_as_without_cache(proc)

    def test_a_result_that_reads_a_file_left_out_is_checked_again(self):
        # model.py mentions the same names before and after, and imports only a.py (and a
        # package of the project, a folder, in which no file defines B): `registry.B()` finds
        # b.py's B by the unique-class fallback
        klass = ("import torch\nimport torch.nn as nn\n\n\nclass %s(nn.Module):\n"
                 "    def __init__(self):\n        super().__init__()\n"
                 "        self.fc = nn.Linear(4, 2)\n")
        self.write("a.py", klass % "A")
        self.write("b.py", klass % "B")
        self.write("main.py", "import torch\nimport a\nimport b\n")
        self.write("registry/names.py", "NAMES = ['A', 'B']\n")
        use = "\nmodel = %s()  # %s\nx = torch.randn(8, 4).cuda()\ny = model(x)\n"
        head = "import torch\nimport a\nimport registry  # the folder's package\n"
        self.write("model.py", head + use % ("a.A", "B"))
        self.assertEqual(self.codes(self.timed(".")), [("model.py", 7, "DL105")])
        self.write("model.py", head + use % ("registry.B", "A"))
        proc = self.timed(".")
        self.assertIn("partial build: 1 of 2 shared files", proc.stderr)
        self.assertIn("checking again", proc.stderr)
        self.assertEqual(self.codes(proc), [("model.py", 7, "DL105")])
        self.assert_same_as_without_cache(proc)

    def test_an_edit_that_names_another_definition_builds_what_its_text_reaches(self):
        self.write_two_configs()
        self.write("config_other.py", CONFIG_CPU)
        self.write("main.py", "import torch\nimport config_cpu\nimport config_gpu\nimport config_other\n")
        self.write("model.py", MODEL.replace("from config ", "from config_cpu "))
        self.assertEqual(self.codes(self.timed(".")), [])
        # the names model.py mentions change: the files its text now reaches are built too
        self.write("model.py", MODEL.replace("from config ", "from config_gpu "))
        proc = self.timed(".")
        self.assertIn("partial build: 2 of 3 shared files", proc.stderr)
        self.assertNotIn("checking again", proc.stderr)
        self.assertEqual(self.codes(proc), [("model.py", 5, "DL102")])
        self.assert_same_as_without_cache(proc)

    def test_a_file_that_fails_to_parse_is_not_a_file_left_out(self):
        # broken.py is shared (model.py imports it) and has no model, in a full build too: a
        # partial build that leaves it out looks `convert` up where a full build does
        self.write_two_configs()
        self.write("broken.py", "import torch\n\ndef convert(:\n    return torch.zeros(2)\n")
        model = MODEL.replace("from config ", "from config_cpu ") + "from broken import convert\n"
        self.write("model.py", model + "EXPORTERS = {'onnx': convert}\n")
        self.assertIn("syntax error", self.timed(".").stdout)  # broken.py
        self.write("model.py", model + "EXPORTERS = {'onnx': convert}  # edited\n")
        proc = self.timed(".")
        self.assertIn("partial build: 1 of 3 shared files", proc.stderr)
        self.assertNotIn("checking again", proc.stderr)
        self.assert_same_as_without_cache(proc)

    def test_the_dataloaders_that_read_a_shared_file_mark_it_again(self):
        # DL113 in dataset.py is decided by train.py's DataLoader. Editing other.py, which only
        # dataset.py's warm() reads (no summary: it returns nothing), analyses dataset.py again
        # but reuses train.py's result: the partial build takes the marks train.py placed from
        # its entry instead of summarising it again (and leaves unrelated.py out)
        self.write("dataset.py", "import torch\nfrom torch.utils.data import Dataset\n"
                                 "from other import make\n\n\n"
                                 "class Points(Dataset):\n    def __len__(self):\n"
                                 "        return 8\n\n    def __getitem__(self, i):\n"
                                 "        return torch.randn(3).cuda()\n\n\n"
                                 "def warm():\n    t = make()\n    t.cuda()\n")
        other = "import torch\n\n\ndef make():\n    return torch.zeros(2)\n"
        self.write("other.py", other)
        self.write("train.py", "import torch\nfrom torch.utils.data import DataLoader\n"
                               "from dataset import Points\n\n"
                               "loader = DataLoader(Points(), batch_size=2, num_workers=4)\n")
        self.write("main.py", "import torch\nfrom unrelated import Frames\n")
        self.write("unrelated.py", "import torch\nfrom torch.utils.data import Dataset\n\n\n"
                                   "class Frames(Dataset):\n    pass\n")
        found = [("dataset.py", 11, "DL113"), ("dataset.py", 16, "DL101")]
        self.assertEqual(self.codes(self.timed(".")), found)
        self.write("other.py", other + "# edited\n")
        proc = self.timed(".")
        self.assertIn("partial build: 2 of 3 shared files (1 DataLoader files' marks from their "
                      "entries)", proc.stderr)
        self.assertIn("cache look-up (3 of 5 results reused)", proc.stderr)
        self.assertNotIn("checking again", proc.stderr)
        self.assertEqual(self.codes(proc), found)

    def test_a_new_file_is_built_with_the_files_its_text_reaches(self):
        # a new file has no entry to say what it reads: the shared files whose module its text
        # imports (and what their entries read) stand in, and the lookups check the guess
        self.write_two_configs()
        self.write("model.py", MODEL.replace("from config ", "from config_cpu "))
        self.write("unrelated.py", "import torch\nimport main\n")
        self.assertEqual(self.codes(self.timed(".")), [])
        self.write("step.py", MODEL.replace("from config ", "from config_gpu "))
        proc = self.timed(".")
        self.assertIn("partial build: 1 of 3 shared files", proc.stderr)  # config_gpu.py
        self.assertNotIn("checking again", proc.stderr)
        self.assertEqual(self.codes(proc), [("step.py", 5, "DL102")])
        self.assert_same_as_without_cache(proc)

    def test_a_base_class_defined_twice_is_ambiguous_with_a_file_left_out(self):
        # `from pkg import Base` finds the one class Base of the project, and none when two
        # files define one: the bases of the shared files' classes are resolved as the build
        # starts, and that must already count the classes of the files left out (base_b.py here)
        self.write("base_a.py", "import torch.nn as nn\n\n\nclass Base(nn.Module):\n    pass\n"
                                "\n\ndef helper():\n    return 1\n")
        self.write("base_b.py", "import torch\n\n\nclass Base:\n    pass\n")
        # with one class Base (an nn.Module), Net is a module that run() never moves (DL105)
        model = ("import torch\nimport base_a\nfrom pkg import Base\n\n\nclass Net(Base):\n"
                 "    def __init__(self):\n        super().__init__()\n"
                 "        self.fc = torch.nn.Linear(2, 2)\n\n    def forward(self, x):\n"
                 "        return self.fc(x)\n\n\ndef run():\n    n = base_a.helper()\n"
                 "    model = Net()\n    x = torch.randn(2).to('cuda')\n    return model(x)\n")
        self.write("model.py", model)
        self.write("main.py", "import torch\nimport base_a\nimport base_b\nimport model\n")
        self.assertEqual(self.codes(self.timed(".")), [])
        self.write("model.py", model + "# edited\n")
        proc = self.timed(".")
        self.assertIn("partial build: 2 of 3 shared files", proc.stderr)
        self.assertEqual(self.codes(proc), [])
        self.assert_same_as_without_cache(proc)

    def test_a_class_defined_twice_is_ambiguous_with_a_file_left_out(self):
        # `models.Net` names no file's module (nothing is called models.py): the unique fallback
        # finds the one class Net of the project, and none when two files define one. The
        # partial build leaves b.py out; it counts b.py's Net in from its entry.
        net = ("import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n"
               "    def __init__(self):\n        super().__init__()\n"
               "        self.fc = nn.Linear(4, 2)\n")
        self.write("a.py", net)
        self.write("b.py", net)
        self.write("main.py", "import torch\nimport a\nimport b\n")
        use = "\nmodel = %s()\nx = torch.randn(8, 4).cuda()\ny = model(x)\n"
        # train.py names the same definitions before and after (else what its text reaches is
        # built too)
        self.write("train.py", "import torch\nimport models\nfrom a import Net\n" + use % "Net")
        self.assertEqual(self.codes(self.timed(".")), [("train.py", 7, "DL105")])
        self.write("train.py", "import torch\nimport models\nimport a\n" + use % "models.Net")
        proc = self.timed(".")
        self.assertIn("partial build: 1 of 2 shared files", proc.stderr)
        self.assertNotIn("checking again", proc.stderr)
        self.assertEqual(self.codes(proc), [])
        self.assert_same_as_without_cache(proc)


class CppCacheTest(CacheCase):
    """C++ results are cached with every header the compiler read (cache.h)."""

    def setUp(self):
        super().setUp()
        if not has_cpp():
            self.skipTest("this devlint was built without libclang")

    def test_a_header_change_invalidates(self):
        self.write("ext.cpp", CPP_FILE)
        self.write("helpers.h", HEADER_DISCARDS)
        self.assertEqual(self.codes(self.devlint("--format", "json", "ext.cpp")),
                         [("ext.cpp", 5, "DL101")])
        self.assertEqual(len(self.entries()), 1)
        with open(self.entries()[0], encoding="utf-8") as fh:
            deps = [d[0] for d in json.load(fh)["deps"]]
        self.assertIn(os.path.join(self.dir, "helpers.h"), deps)
        self.assertTrue(any(d.endswith("torch/torch.h") for d in deps), deps[:5])
        self.write("helpers.h", HEADER_ASSIGNS)
        self.assertEqual(self.codes(self.devlint("--format", "json", "ext.cpp")), [])

    def test_a_warm_run_does_not_open_libclang(self):
        # The key names the compiler by its library file; opening libclang maps LLVM (about
        # 60 MB and tens of milliseconds) for a result that is already there.
        self.write("ext.cpp", CPP_FILE)
        self.write("helpers.h", HEADER_DISCARDS)
        self.write("train.py", "import torch\nx = torch.randn(2)\nx.to('cuda')\n")
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")),
                         [("ext.cpp", 5, "DL101"), ("train.py", 3, "DL101")])
        warm = self.devlint("--format", "json", ".", env=dict(os.environ, LD_DEBUG="files"))
        self.assertEqual(self.codes(warm), [("ext.cpp", 5, "DL101"), ("train.py", 3, "DL101")])
        opened = [line.split("file=")[1].split()[0] for line in warm.stderr.splitlines()
                  if "file=" in line]
        self.assertTrue(any("libc.so" in f for f in opened), opened)  # LD_DEBUG reports them
        self.assertEqual([f for f in opened if "libclang" in f], [])

    def errors(self, *args):
        return json.loads(self.devlint("--format", "json", *args).stdout)["errors"]

    def edit_entry_errors(self, text):
        """Rewrites the one entry's error messages by hand (same key): a run that shows them
        read the entry instead of parsing."""
        [entry] = self.entries()
        with open(entry, encoding="utf-8") as fh:
            doc = json.load(fh)
        for e in doc["result"]["errors"]:
            e["message"] = text
        with open(entry, "w", encoding="utf-8") as fh:
            json.dump(doc, fh)

    def test_a_file_that_includes_nothing_is_cached(self):
        # Its dependency list is empty, not missing: a file left uncached makes every warm run
        # parse all the files the project's facts are built from (DeepSpeed's shm.h).
        self.write("shm.h", "#pragma once\nvoid all_reduce(torch::Tensor &data);\n")
        first = self.devlint("--format", "json", "shm.h")
        self.assertIn("compile error", json.dumps(json.loads(first.stdout)["errors"]))
        self.assertEqual(len(self.entries()), 1)
        self.edit_entry_errors("served from the cache")
        self.assertIn("served from the cache", json.dumps(self.errors("shm.h")))

    def test_a_result_outlives_its_pch(self):
        # The PCH cache keeps 8 PCHs: one evicted and rebuilt must not make the results that used
        # it stale, or a project with more preludes than that never has a warm run.
        xdg = os.path.join(self.dir, "xdg")
        env = dict(os.environ, XDG_CACHE_HOME=xdg)
        self.write("ext.cpp", CPP_FILE)
        self.write("helpers.h", HEADER_DISCARDS)
        run = lambda: self.devlint("--format", "json", "ext.cpp", env=env)
        self.assertEqual(run().returncode, 1)
        pch_dir = os.path.join(xdg, "devlint", "pch")
        self.assertTrue(glob.glob(os.path.join(pch_dir, "*.pch")), "no PCH was built")
        [entry] = self.entries()
        with open(entry, encoding="utf-8") as fh:
            doc = json.load(fh)
        self.assertFalse([d for d in doc["deps"] if d[0].startswith(pch_dir)], doc["deps"][:3])
        doc["result"]["diags"][0]["message"] = "served from the cache"
        with open(entry, "w", encoding="utf-8") as fh:
            json.dump(doc, fh)
        for f in glob.glob(os.path.join(pch_dir, "*")):
            os.remove(f)
        self.assertIn("served from the cache", run().stdout)

    def mark_entries(self, *paths):
        """Rewrites the messages of these files' entries by hand (same keys): a run that shows
        them read the entries instead of analysing the files again."""
        marked = set()
        for entry in self.entries():
            with open(entry, encoding="utf-8") as fh:
                doc = json.load(fh)
            if doc["path"] not in paths:
                continue
            for d in doc["result"]["diags"]:
                d["message"] = "served from the cache"
            with open(entry, "w", encoding="utf-8") as fh:
                json.dump(doc, fh)
            marked.add(doc["path"])
        self.assertEqual(marked, set(paths))

    def served(self, proc):
        return sorted({line.split(":")[0] for line in proc.stdout.splitlines()
                       if "served from the cache" in line})

    def write_mixed_project(self):
        """A C++ file and three Python files (model.py imports config.py; no file reads
        bug.py), checked once."""
        self.write("ext.cpp", CPP_FILE)
        self.write("helpers.h", HEADER_DISCARDS)
        self.write("config.py", CONFIG_CUDA)
        self.write("model.py", MODEL)
        self.write("bug.py", BUGGY)
        self.devlint(".")

    def test_editing_python_keeps_the_cpp_results(self):
        # A C++ file's result reads no other file: a Python edit must not make a C++-heavy
        # project parse its translation units again (DeepSpeed: minutes)
        self.write_mixed_project()
        self.mark_entries("ext.cpp")
        self.write("bug.py", CLEAN)
        self.write("config.py", CONFIG_CPU)
        proc = self.devlint(".")
        self.assertEqual(self.served(proc), ["ext.cpp"])
        self.assertNotIn("bug.py", proc.stdout)

    def test_editing_cpp_keeps_the_python_results(self):
        # the shared files (config.py, model.py) and the leaf (bug.py) read nothing of ext.cpp
        # but that the project has one
        self.write_mixed_project()
        self.mark_entries("model.py", "bug.py")
        self.write("ext.cpp", CPP_FILE.replace("MOVE(t);", "t = t.to(torch::kCUDA);"))
        proc = self.devlint(".")
        self.assertEqual(self.served(proc), ["bug.py", "model.py"])
        self.assertNotIn("ext.cpp", proc.stdout)

    def test_a_cpp_file_is_part_of_the_python_key(self):
        # a project with a C++ extension uses devices: "the module's device" in forward is one,
        # and a CPU tensor meeting it is reported (net.py names no device itself)
        self.write("net.py", "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n"
                             "    def __init__(self):\n        super().__init__()\n"
                             "        self.fc = nn.Linear(4, 4)\n\n    def forward(self, x):\n"
                             "        return self.fc(x) + torch.ones(4)\n")
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")), [])
        self.write("ext.cpp", CPP_FILE)
        self.write("helpers.h", HEADER_ASSIGNS)
        uncached = self.codes(self.devlint("--format", "json", ".", cache=False))
        self.assertEqual(uncached, [("net.py", 11, "DL102")])
        self.assertEqual(self.codes(self.devlint("--format", "json", ".")), uncached)

    def test_a_missing_header_is_checked_again_once_it_exists(self):
        self.write("ext.cpp", CPP_FILE)
        self.assertIn("helpers.h", json.dumps(self.errors("ext.cpp")))
        # the failure is kept: a CPU-only libtorch makes every CUDA file fail this way, after
        # seconds of parsing, on every run
        self.assertEqual(len(self.entries()), 1)
        self.edit_entry_errors("served from the cache")
        self.assertIn("served from the cache", json.dumps(self.errors("ext.cpp")))
        self.write("helpers.h", HEADER_DISCARDS)
        self.assertEqual(self.codes(self.devlint("--format", "json", "ext.cpp")),
                         [("ext.cpp", 5, "DL101")])

    def test_a_missing_header_is_watched_where_it_would_appear(self):
        # gen/ does not exist: the file's directory is watched; inc/ is an include directory of
        # the command, where extra/defs.h would appear
        self.write("ops.cpp", '// part of the torch extension\n#include "gen/config.h"\n'
                              '#include <extra/defs.h>\nint f() { return SCALE + OFFSET; }\n')
        os.makedirs(os.path.join(self.dir, "inc"))
        self.write("compile_commands.json", json.dumps([{
            "directory": self.dir, "file": "ops.cpp",
            "arguments": ["c++", "-std=c++17", "-Iinc", "-c", "ops.cpp"]}]))
        self.assertIn("`gen/config.h` not found", json.dumps(self.errors("ops.cpp")))
        self.edit_entry_errors("served from the cache")
        self.assertIn("served from the cache", json.dumps(self.errors("ops.cpp")))
        self.write("gen/config.h", "#define SCALE 2\n")
        self.assertIn("`extra/defs.h` not found", json.dumps(self.errors("ops.cpp")))
        self.edit_entry_errors("served from the cache")
        self.assertIn("served from the cache", json.dumps(self.errors("ops.cpp")))
        self.write("inc/extra/defs.h", "#define OFFSET 1\n")
        self.assertEqual(self.errors("ops.cpp"), [])


def main():
    global DEVLINT
    DEVLINT, argv = devlint_main.parse_args(__file__)
    unittest.main(argv=argv, verbosity=2)


if __name__ == "__main__":
    main()
