#!/usr/bin/env python3
"""`devlint run` over examples/: the verdict on each of the nineteen planted Python bugs.

The example scripts run on a copy of examples/ in a temporary directory, on a tiny random
dataset, with `--device meta` (meta stands in for a GPU, as in run_tests.py). Two stages:

  shipped   the examples as they are. Each script stops at the first planted bug it meets, so
            that bug is confirmed and the ones after it are not reached, saying where and why
            the program ended.
  fixed     the bugs that stopped a script are fixed in the copy, one round at a time, on their
            own line (line numbers stay), so the next bug is reached and confirmed.

Every planted bug has one expectation per stage: a verdict and a text its evidence must
contain. Bugs that cannot show on CPU+meta (several GPUs, CUDA in a worker, a meta tensor read
back to the host, a module this Python lacks) must still say why.

    /usr/bin/python3 tests/runtime/run_examples.py --devlint build/devlint [-v]

Exits 77 (ctest: skipped) when the interpreter has no torch or numpy.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples")
TIMEOUT = 300

# The fix for a planted bug, on its own line: (file, line, text there, replacement).
FIXES = {
    "DL112": ("train.py", 47, "torch.zeros((), device)", "torch.zeros((), device=device)"),
    "DL106": ("model.py", 37, "self.std = torch.tensor(CIFAR_STD).view(1, 3, 1, 1)",
              'self.register_buffer("std", torch.tensor(CIFAR_STD).view(1, 3, 1, 1))'),
    "DL107": ("model.py", 43, "self.stages = []", "self.stages = nn.ModuleList()"),
    "DL102": ("model.py", 59, "torch.rand(features.size(0), 1)",
              "torch.rand(features.size(0), 1, device=features.device)"),
    "DL104": ("evaluate.py", 41, "(preds == labels)", "(preds == labels.to(device))"),
    # Not a planted bug: meta tensors hold no data, so a checkpoint cannot be loaded onto the
    # meta device. Loading it on the CPU and letting model.to(device) move it is the same on CUDA.
    "meta-checkpoint": ("utils.py", 29, "map_location=device", 'map_location="cpu"'),
}

TRAIN = ["train.py", "--data", "data/cifar10.npz", "--device", "meta", "--epochs", "1",
         "--batch-size", "16"]
# DL113's noise calls .cuda() in a DataLoader worker, which fails on a torch without CUDA before
# anything else runs: train+1 shows that (DL113 confirmed), the later runs turn the noise off
# (the script's own option).
TRAIN_NO_NOISE = TRAIN + ["--noise-std", "0"]
EVALUATE = ["evaluate.py", "--data", "data/cifar10.npz", "--device", "meta",
            "--output", "test_logits.pt"]
BENCHMARK = ["benchmark.py", "--device", "meta", "--batch-size", "8", "--steps", "2"]
PREDICT = ["predict.py", "image.png", "--device", "meta"]
EXPORT = ["export.py", "--output", "model.onnx"]

# name: (fixes applied to the copy, the command line)
RUNS = {
    "train": ((), TRAIN),
    "evaluate": ((), EVALUATE),
    "benchmark": ((), BENCHMARK),
    "predict": ((), PREDICT),
    "export": ((), EXPORT),
    "train+1": (("DL112",), TRAIN),
    "train+2": (("DL112", "DL106"), TRAIN_NO_NOISE),
    "train+3": (("DL112", "DL106", "DL107"), TRAIN_NO_NOISE),
    "train+4": (("DL112", "DL106", "DL107", "DL102"), TRAIN_NO_NOISE),
    "benchmark+2": (("DL106", "DL107"), BENCHMARK),
    "evaluate+3": (("DL106", "DL107", "meta-checkpoint"), EVALUATE),
    "evaluate+4": (("DL106", "DL107", "meta-checkpoint", "DL104"), EVALUATE),
}


def has_module(python, name):
    probe = subprocess.run([python, "-c", "import importlib.util, sys; "
                            "sys.exit(importlib.util.find_spec(%r) is None)" % name],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return probe.returncode == 0


def expectations(have_pil, have_onnxruntime):
    """{(path, line, code): [(run, verdict or verdicts, text the evidence contains)]}."""
    stopped_train = "the program ended at train.py:47 (in main) with TypeError"
    stopped_forward = "the program ended at model.py:52 (in forward) with RuntimeError: Expected " \
                      "all tensors to be on the same device"
    stopped_loading = "the program ended at utils.py:30 (in load_weights) with RuntimeError"
    no_pil = "the program ended at predict.py:9 (in <module>) with ModuleNotFoundError"
    no_ort = "the program ended at export.py:8 (in <module>) with ModuleNotFoundError"
    export = "not-reached" if not have_onnxruntime else ("not-reached", "inconclusive")
    export_why = no_ort if not have_onnxruntime else ""
    return {
        ("evaluate.py", 50, "DL101"): [
            ("evaluate", "not-reached", stopped_loading),
            # behind DL114, whose fix reads a meta tensor back to the host: never on meta
            ("evaluate+4", "not-reached", "the program ended at evaluate.py:42"),
        ],
        ("model.py", 59, "DL102"): [
            ("benchmark", "not-reached", stopped_forward),
            ("train+3", "confirmed", "RuntimeError raised at line 60 (in forward): Expected all "
                                     "tensors to be on the same device"),
        ],
        ("train.py", 40, "DL103"): [
            ("train", "not-reached", "line 52, where its values meet, never ran"),
            ("train+4", "confirmed", "at line 52 the devices differ: `criterion` on cpu"),
        ],
        ("evaluate.py", 41, "DL104"): [
            ("evaluate", "not-reached", stopped_loading),
            ("evaluate+3", "confirmed", "`labels` on cpu, `preds` on meta"),
        ],
        ("predict.py", 39, "DL105"): [
            ("predict", "confirmed", "`model` on cpu (module), `x` on meta") if have_pil
            else ("predict", "not-reached", no_pil),
        ],
        ("model.py", 37, "DL106"): [
            ("benchmark", "confirmed", "`self.std` on cpu, `x` on meta"),
            ("train", "not-reached", stopped_train),
        ],
        ("model.py", 43, "DL107"): [
            ("benchmark", "not-reached", stopped_forward),
            ("train+2", "confirmed", "RuntimeError raised at line 55 (in forward)"),
        ],
        ("export.py", 44, "DL108"): [("export", export, export_why)],
        ("export.py", 26, "DL109"): [("export", export, export_why)],
        # torch.cuda.device_count() is 0: the per-GPU warm-up loop has no iteration
        ("benchmark.py", 19, "DL110"): [("benchmark", "not-reached", "line 19 never ran")],
        # past DL106 and DL107, the float32 reference is read back from the meta device (`.cpu()`
        # at line 44), which holds no data: DL111, DL203 and DL204 need a real device
        ("benchmark.py", 47, "DL111"): [
            ("benchmark", "not-reached", stopped_forward),
            ("benchmark+2", "not-reached", "the program ended at benchmark.py:44 (in main) with "
                                           "NotImplementedError: Cannot copy out of meta tensor"),
        ],
        ("train.py", 47, "DL112"): [
            ("train", "confirmed", "TypeError raised at line 47 (in main): zeros()"),
        ],
        ("dataset.py", 26, "DL113"): [
            ("train", "not-reached", "DataLoader worker processes, where this line runs, are "
                                     "not traced"),
            # past DL112 the loader's workers run the noise: `.cuda()` fails in them (a torch
            # without CUDA; with one, CUDA cannot be initialised in a forked worker)
            ("train+1", "confirmed", "a DataLoader worker process ran line 26 and failed on "
                                     "CUDA there"),
        ],
        ("evaluate.py", 42, "DL114"): [
            ("evaluate", "not-reached", stopped_loading),
            ("evaluate+4", "confirmed", "`IS_VEHICLE` on cpu, `preds` on meta"),
        ],
        ("train.py", 53, "DL201"): [
            ("train", "not-reached", stopped_train),
            ("train+4", "confirmed", "`loss` is on meta: each run waits for the device"),
        ],
        ("evaluate.py", 38, "DL202"): [
            ("evaluate", "not-reached", stopped_loading),
            ("evaluate+3", "confirmed", "the source tensor is not pinned"),
        ],
        ("benchmark.py", 60, "DL203"): [("benchmark", "not-reached", stopped_forward)],
        ("benchmark.py", 54, "DL204"): [("benchmark", "not-reached", stopped_forward)],
        # nn.DataParallel only when several GPUs are visible
        ("train.py", 38, "DL205"): [("train", "not-reached", "line 38 never ran")],
    }


def write_dataset(python, folder):
    """A tiny random CIFAR-10 style .npz (fixed seed), a checkpoint of the copy's model and, with
    PIL, an image for predict.py."""
    script = (
        "import numpy as np, torch\n"
        "from model import SmallResNet\n"
        "from utils import save_checkpoint\n"
        "rng = np.random.default_rng(0)\n"
        "np.savez('data/cifar10.npz',\n"
        "         x_train=rng.integers(0, 256, (32, 32, 32, 3), dtype=np.uint8),\n"
        "         y_train=rng.integers(0, 10, 32), \n"
        "         x_test=rng.integers(0, 256, (16, 32, 32, 3), dtype=np.uint8),\n"
        "         y_test=rng.integers(0, 10, 16))\n"
        "torch.manual_seed(0)\n"
        "model = SmallResNet(num_classes=10)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "save_checkpoint(model, optimizer, 0, 'checkpoints/last.pt')\n"
        "try:\n"
        "    from PIL import Image\n"
        "except ImportError:  # predict.py then stops at its import, which the test expects\n"
        "    pass\n"
        "else:\n"
        "    pixels = rng.integers(0, 256, (40, 40, 3), dtype=np.uint8)\n"
        "    Image.fromarray(pixels).save('image.png')\n")
    os.makedirs(os.path.join(folder, "data"))
    subprocess.run([python, "-c", script], cwd=folder, env=environment(), check=True,
                   timeout=TIMEOUT)


def apply_fix(folder, code):
    path, line, old, new = FIXES[code]
    full = os.path.join(folder, path)
    with open(full, encoding="utf-8") as f:
        lines = f.readlines()
    if old not in lines[line - 1]:
        raise AssertionError("examples/%s:%d no longer reads %r: update FIXES" % (path, line, old))
    lines[line - 1] = lines[line - 1].replace(old, new)
    with open(full, "w", encoding="utf-8") as f:
        f.writelines(lines)


def environment():
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.pop("DEVLINT_RUNTIME_DIR", None)
    env["OMP_NUM_THREADS"] = "1"
    return env


def run_one(config, name, tmp):
    """One script under `devlint run` in its own copy of examples/: the report document."""
    fixes, argv = RUNS[name]
    folder = os.path.join(tmp, name)
    shutil.copytree(EXAMPLES, folder, ignore=shutil.ignore_patterns("extension", "__pycache__"))
    for code in fixes:
        apply_fix(folder, code)
    write_dataset(config.python, folder)
    report = os.path.join(folder, "report.json")
    cmd = [config.devlint, "run", "--format", "json", "--report", report, "--",
           config.python] + argv
    proc = subprocess.run(cmd, cwd=folder, env=environment(), stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    if not os.path.exists(report):
        raise AssertionError("%s: no report (exit status %d):\n%s"
                             % (name, proc.returncode, proc.stderr.decode("utf-8", "replace")))
    with open(report, encoding="utf-8") as f:
        return json.load(f)


def check(reports, expected):
    """The failures: one line each."""
    failures = []
    for (path, line, code), wanted in sorted(expected.items()):
        for name, verdicts, text in wanted:
            verdicts = (verdicts,) if isinstance(verdicts, str) else verdicts
            found = [v for v in reports[name]["verdicts"]
                     if (v["path"], v["line"], v["code"]) == (path, line, code)]
            where = "%s:%d %s in run %s" % (path, line, code, name)
            if len(found) != 1:
                failures.append("%s: %d verdicts, not 1" % (where, len(found)))
                continue
            v = found[0]
            if v["verdict"] not in verdicts:
                failures.append("%s: %s, expected %s: %s"
                                % (where, v["verdict"], " or ".join(verdicts), v["evidence"]))
            elif text not in v["evidence"]:
                failures.append("%s: the evidence lacks %r: %s" % (where, text, v["evidence"]))
            elif v["verdict"] != "confirmed" and not v["evidence"].strip():
                failures.append("%s: %s without a reason" % (where, v["verdict"]))
    for name, report in sorted(reports.items()):
        for u in report["unpredicted"]:
            failures.append("run %s: a device mismatch no finding predicted: %s" % (name, u))
    return failures


def table(reports, expected):
    """Each planted bug's verdict in the shipped examples and, when fixed in turn, after."""
    rows = []
    for (path, line, code), wanted in sorted(expected.items(), key=lambda kv: kv[0][2]):
        for name, _, _ in wanted:
            for v in reports[name]["verdicts"]:
                if (v["path"], v["line"], v["code"]) == (path, line, code):
                    rows.append("%-5s %-16s %-10s %-12s %s" % (code, "%s:%d" % (path, line), name,
                                                               v["verdict"], v["evidence"]))
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devlint", required=True)
    parser.add_argument("--python", default="/usr/bin/python3")
    parser.add_argument("--jobs", type=int, default=2, help="runs in parallel")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every verdict")
    config = parser.parse_args()
    config.devlint = os.path.abspath(config.devlint)
    if not (has_module(config.python, "torch") and has_module(config.python, "numpy")):
        print("run_examples: %s has no torch or numpy: skipped" % config.python)
        return 77
    expected = expectations(has_module(config.python, "PIL"),
                            has_module(config.python, "onnxruntime"))
    with tempfile.TemporaryDirectory(prefix="devlint-run-examples-") as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, config.jobs)) as pool:
            futures = {name: pool.submit(run_one, config, name, tmp) for name in RUNS}
            reports = {name: future.result() for name, future in futures.items()}
    if config.verbose:
        print(table(reports, expected))
    failures = check(reports, expected)
    for failure in failures:
        print("FAIL: " + failure)
    print("run_examples: %d planted bugs, %d runs: %s"
          % (len(expected), len(RUNS), "%d failures" % len(failures) if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
