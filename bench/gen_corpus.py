#!/usr/bin/env python3
"""Generates a PyTorch-heavy benchmark corpus: packages of models, datasets, training and
evaluation scripts, and the plain-Python utilities real projects carry alongside them (config
parsing, logging, text and path helpers). Deterministic for a given seed; nothing is committed.

    /usr/bin/python3 bench/gen_corpus.py OUT_DIR [--lines 1000000] [--seed 1]

About one finding per few thousand lines is planted (a thrown-away .to(), an unmoved batch, a
factory without device= in forward), so the analysis has real work to do.
"""
import argparse
import os
import random

MODEL = '''

class {name}(nn.Module):
    """{doc}"""

    def __init__(self, in_dim={d}, hidden={h}, out_dim={o}, dropout={p}):
        super().__init__()
        self.embed = nn.Linear(in_dim, hidden)
        self.blocks = nn.ModuleList([nn.Sequential(nn.LayerNorm(hidden), nn.Linear(hidden, hidden), nn.GELU()) for _ in range({n})])
        self.head = nn.Linear(hidden, out_dim)
        self.drop = nn.Dropout(dropout)
        self.register_buffer("scale", torch.ones(1) * {s})

    def forward(self, x, mask=None):
        h = self.drop(self.embed(x))
        for block in self.blocks:
            h = h + block(h)
        if mask is not None:
            h = h * mask.unsqueeze(-1)
        {bug_forward}
        return self.head(h) * self.scale

    def num_parameters(self):
        return sum(p.numel() for p in self.parameters())
'''

FORWARD_BUG = "noise = torch.randn(h.shape[0], h.shape[1], h.shape[2])\n        h = h + 0.01 * noise"

DATASET = '''

class {name}(Dataset):
    """{doc}"""

    def __init__(self, root, split="train", length={n}, transform=None):
        self.root = root
        self.split = split
        self.length = length
        self.transform = transform
        self.index = [os.path.join(root, split, "%06d.npy" % i) for i in range(length)]

    def __len__(self):
        return self.length

    def __getitem__(self, i):
        features = torch.randn({d})
        label = torch.tensor(i % {k})
        if self.transform is not None:
            features = self.transform(features)
        return features, label
'''

TRAIN = '''

def {name}(model, train_set, val_set, epochs={e}, lr={lr}, batch_size={b}, log_every=100):
    """{doc}"""
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    train_loader = DataLoader(train_set, batch_size=batch_size, shuffle=True, num_workers=2, pin_memory=True)
    val_loader = DataLoader(val_set, batch_size=batch_size, pin_memory=True)
    for epoch in range(epochs):
        model.train()
        running = torch.zeros((), device=device)
        for step, (x, y) in enumerate(train_loader):
            x = x.to(device, non_blocking=True)
            {bug_train}
            logits = model(x)
            loss = criterion(logits, y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            running += loss.detach()
            if step % log_every == 0:
                print("epoch %d step %d loss %.4f" % (epoch, step, running.item() / (step + 1)))
        scheduler.step()
        model.eval()
        correct = torch.zeros((), device=device)
        total = 0
        with torch.no_grad():
            for x, y in val_loader:
                x, y = x.to(device), y.to(device)
                correct += (model(x).argmax(dim=1) == y).sum()
                total += y.numel()
        print("epoch %d accuracy %.3f" % (epoch, correct.item() / max(total, 1)))
    return model
'''

TRAIN_OK = "y = y.to(device, non_blocking=True)"
TRAIN_BUG = "y.to(device)"

UTILS = '''

def {name}(text, width={w}, sep="{sep}"):
    """{doc}"""
    words = text.split()
    lines, current = [], []
    for word in words:
        if sum(len(w) + 1 for w in current) + len(word) > width:
            lines.append(sep.join(current))
            current = []
        current.append(word)
    if current:
        lines.append(sep.join(current))
    return "\\n".join(lines)


def {name}_config(path, defaults=None):
    values = dict(defaults or {{}})
    with open(path) as fh:
        for raw in fh:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition("=")
            key = key.strip()
            value = value.strip()
            if value.isdigit():
                values[key] = int(value)
            elif value.lower() in ("true", "false"):
                values[key] = value.lower() == "true"
            else:
                values[key] = value
    return values


class {cname}:
    """{doc}"""

    def __init__(self, name, level={lvl}):
        self.name = name
        self.level = level
        self.records = []

    def log(self, level, message, *args):
        if level < self.level:
            return
        text = message % args if args else message
        self.records.append((level, text))
        if len(self.records) > {cap}:
            self.records = self.records[-{cap}:]

    def summary(self):
        counts = {{}}
        for level, _ in self.records:
            counts[level] = counts.get(level, 0) + 1
        return ", ".join("%s=%d" % (k, v) for k, v in sorted(counts.items()))
'''

HEADER_TORCH = '''"""{doc}"""
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
'''

HEADER_PLAIN = '''"""{doc}"""
import json
import os
import re
import sys
'''

WORDS = ("encoder decoder residual attention pooling projection adapter mixer router expert "
         "gate norm scale shift patch token stem head neck backbone bridge fusion").split()


def ident(rng, prefix=""):
    return prefix + "".join(w.capitalize() for w in rng.sample(WORDS, 2)) + str(rng.randint(0, 999))


def lower(rng):
    return "_".join(rng.sample(WORDS, 2)) + str(rng.randint(0, 999))


def torch_file(rng, plant):
    parts = [HEADER_TORCH.format(doc="Models and training for " + lower(rng))]
    for _ in range(rng.randint(2, 4)):
        parts.append(MODEL.format(name=ident(rng), doc="A %s block." % lower(rng),
                                  d=rng.choice([64, 128, 256]), h=rng.choice([256, 512]),
                                  o=rng.choice([10, 100, 1000]), p=rng.choice([0.0, 0.1]),
                                  n=rng.randint(2, 8), s=rng.choice([0.5, 1.0, 2.0]),
                                  bug_forward=FORWARD_BUG if plant() else "pass"))
    parts.append(DATASET.format(name=ident(rng, "Data"), doc="Samples of " + lower(rng),
                                n=rng.randint(100, 10000), d=rng.choice([64, 128, 256]),
                                k=rng.choice([10, 100])))
    for _ in range(rng.randint(1, 3)):
        parts.append(TRAIN.format(name="train_" + lower(rng), doc="Trains " + lower(rng),
                                  e=rng.randint(1, 90), lr=rng.choice(["1e-3", "3e-4"]),
                                  b=rng.choice([32, 64, 256]),
                                  bug_train=TRAIN_BUG if plant() else TRAIN_OK))
    return "".join(parts)


def plain_file(rng):
    parts = [HEADER_PLAIN.format(doc="Helpers for " + lower(rng))]
    for _ in range(rng.randint(2, 5)):
        parts.append(UTILS.format(name=lower(rng), cname=ident(rng, "Log"), doc=lower(rng),
                                  w=rng.randint(40, 120), sep=rng.choice([" ", "-"]),
                                  lvl=rng.randint(0, 40), cap=rng.randint(100, 10000)))
    return "".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--torch-share", type=float, default=0.7,
                    help="share of files that use PyTorch (default 0.7)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    planted = [0]

    def plant():
        if rng.random() < 0.02:
            planted[0] += 1
            return True
        return False

    total, n = 0, 0
    while total < args.lines:
        pkg = os.path.join(args.out, "pkg%03d" % (n // 50))
        os.makedirs(pkg, exist_ok=True)
        text = torch_file(rng, plant) if rng.random() < args.torch_share else plain_file(rng)
        with open(os.path.join(pkg, "mod%05d.py" % n), "w") as fh:
            fh.write(text)
        total += text.count("\n")
        n += 1
    # bench/run.sh compares what devlint finds with this: every planted bug, and nothing else
    with open(os.path.join(args.out, ".planted"), "w") as fh:
        fh.write("%d\n" % planted[0])
    print("%d files, %d lines, %d planted bugs in %s" % (n, total, planted[0], args.out))


if __name__ == "__main__":
    main()
