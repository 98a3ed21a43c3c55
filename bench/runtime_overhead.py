#!/usr/bin/env python3
"""What `devlint run` costs a training loop: the same CPU training program (Debian's torch), run
plainly and under `devlint run`, best of N runs each; prints the loop's time both ways and the
ratio (the target is 1.1x or less).

    /usr/bin/python3 bench/runtime_overhead.py [--devlint build/devlint] [--runs 3] [--steps 400]

The program (written to a temporary directory) is an ordinary loop: a DataLoader over random
data, an MLP, cross-entropy, SGD with momentum, and a `loss.item()` every step. That `.item()`
is a DL201 finding, so under `devlint run` the program's file is armed and its loop runs with
line events, and a site evaluates on every step: the worst case for the tracer in a program's
own code. torch's own Python code (nn.Module.__call__, the optimizer) runs with the tracer
installed but without line events. The loop times itself (torch's import and devlint's static
check are not in the loop ratio; the process ratio includes them).

Two model widths: 32, where a step is well under a millisecond and the loop is bound by Python
(the interpreter's tracing mode costs every Python instruction, whatever the tracer does), and
256, an ordinary compute-bound step.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

PROGRAM = '''
import os
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device(os.environ.get("BENCH_DEVICE", "cpu"))
torch.manual_seed(0)
torch.set_num_threads(int(os.environ.get("BENCH_THREADS", "1")))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        width = int(os.environ.get("BENCH_WIDTH", "256"))
        self.body = nn.Sequential(nn.Linear(64, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
        self.head = nn.Linear(width, 10)

    def forward(self, x):
        return self.head(self.body(x))


def main(steps):
    data = TensorDataset(torch.randn(steps * 64, 64), torch.randint(0, 10, (steps * 64,)))
    loader = DataLoader(data, batch_size=64, shuffle=True)
    model = MLP().to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    losses = []
    start = time.perf_counter()
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        loss = criterion(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print("loop_seconds %.6f steps %d" % (time.perf_counter() - start, len(losses)))


main(int(os.environ.get("BENCH_STEPS", "400")))
'''


def run(cmd, env):
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    m = re.search(r"loop_seconds ([0-9.]+)", proc.stdout)
    if proc.returncode != 0 or not m:
        sys.exit("runtime_overhead: %s failed (exit %d):\n%s%s"
                 % (" ".join(cmd), proc.returncode, proc.stdout, proc.stderr))
    return float(m.group(1)), wall, proc.stderr


def measure(args, width, tmp):
    env = dict(os.environ, BENCH_STEPS=str(args.steps), BENCH_WIDTH=str(width))
    program = os.path.join(tmp, "train.py")
    plain_cmd = [args.python, program]
    devlint_cmd = [args.devlint, "run", "--", args.python, program]
    plain, traced, report = [], [], ""
    for _ in range(args.runs):  # interleaved, so drift hits both alike
        plain.append(run(plain_cmd, env)[:2])
        loop, wall, report = run(devlint_cmd, env)
        traced.append((loop, wall))
    best = lambda runs, i: min(r[i] for r in runs)
    return best(plain, 0), best(plain, 1), best(traced, 0), best(traced, 1), report


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devlint", default=os.path.join(root, "build", "devlint"))
    parser.add_argument("--python", default="/usr/bin/python3")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--widths", default="32,256",
                        help="hidden widths to measure (comma-separated; 32 is Python-bound)")
    args = parser.parse_args()
    if not os.access(args.devlint, os.X_OK):
        sys.exit("runtime_overhead: %s is not built (cmake --build build)" % args.devlint)
    with tempfile.TemporaryDirectory(prefix="devlint-bench-") as tmp:
        with open(os.path.join(tmp, "train.py"), "w") as f:
            f.write(PROGRAM)
        print("CPU training loop: MLP 64-W-W-10, batch 64, %d steps, SGD; best of %d runs"
              % (args.steps, args.runs))
        print("%-7s %9s %9s %9s %12s %12s" % ("width", "ms/step", "plain s", "devlint s",
                                             "loop ratio", "process ratio"))
        report = ""
        for width in [int(w) for w in args.widths.split(",") if w]:
            p_loop, p_wall, t_loop, t_wall, report = measure(args, width, tmp)
            print("%-7d %9.2f %9.3f %9.3f %11.3fx %11.3fx"
                  % (width, 1000 * p_loop / args.steps, p_loop, t_loop, t_loop / p_loop,
                     t_wall / p_wall))
    checked = [line for line in report.splitlines() if " DL" in line]
    print("finding checked under devlint run: %s"
          % (checked[0].split(": ", 1)[1] if checked else "none (the static check found none)"))


if __name__ == "__main__":
    main()
