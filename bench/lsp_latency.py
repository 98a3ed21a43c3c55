#!/usr/bin/env python3
"""How quickly `devlint lsp` re-checks a file after an edit: the time from sending a
textDocument/didChange to receiving the textDocument/publishDiagnostics for that version, as an
editor would see it (framing, JSON, the workspace check and the reply all included).

    bench/lsp_latency.py                      1,000-line generated file, 50 edits
    bench/lsp_latency.py --lines 5000 --edits 100
    bench/lsp_latency.py --workspace ~/src/project   also check that project's files on disk
    bench/lsp_latency.py --workspace ~/src/project --edit pkg/model.py
                                              edit that file of the project instead
    bench/lsp_latency.py --devlint build-asan/devlint

The file is generated PyTorch code (modules, training loops, helpers) with one planted bug;
each edit alternately breaks and repairs a line near the end (x = x.to(...) <-> x.to(...)), so
every round changes the findings. Prints min / median / p90 / max in milliseconds; the target
is a median under 50 ms. Standard library only; not a timed test.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BLOCK = '''

class Block{n}(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)
        self.register_buffer("scale", torch.ones(dim))

    def forward(self, x):
        h = self.fc2(torch.relu(self.fc1(self.norm(x))))
        return x + h * self.scale


def train_{n}(model, loader, device, epochs=1):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    criterion = nn.MSELoss()
    model.to(device)
    for epoch in range(epochs):
        for inputs, targets in loader:
            inputs, targets = inputs.to(device), targets.to(device)
            loss = criterion(model(inputs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return model


def evaluate_{n}(model, data, device):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for x, y in data:
            x = x.to(device)
            total += float((model(x) - y.to(device)).abs().mean())
    return total / max(len(data), 1)
'''

HEADER = '"""Generated for bench/lsp_latency.py."""\nimport torch\nimport torch.nn as nn\n'
TAIL_FIXED = '\n\ndef main():\n    x = torch.randn(4, 10)\n    x = x.to("cuda")\n    return x\n'
TAIL_BROKEN = '\n\ndef main():\n    x = torch.randn(4, 10)\n    x.to("cuda")\n    return x\n'
# appended to a project's own file (--edit): its imports are its own
TAIL_EDIT = ('\n\ndef _devlint_bench_main():\n    import torch\n    x = torch.randn(4, 10)\n'
             '    x.to("cuda")\n    return x\n')


def generate(lines):
    text = HEADER
    n = 0
    while text.count("\n") + TAIL_FIXED.count("\n") < lines:
        text += BLOCK.format(n=n)
        n += 1
    return text + TAIL_BROKEN


class Client:
    def __init__(self, devlint, root):
        self.proc = subprocess.Popen([devlint, "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.next_id = 0
        self.root = root

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("server closed its output:\n" + self.proc.stderr.read().decode())
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            msg = self.read()
            if msg.get("id") == self.next_id and "method" not in msg:
                return msg

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_diagnostics(self, uri, version):
        while True:
            msg = self.read()
            if msg.get("method") == "textDocument/publishDiagnostics":
                p = msg["params"]
                if p["uri"] == uri and p.get("version", -1) >= version:
                    return p["diagnostics"]


def server_peak_kb(pid):
    """The server's peak resident set (VmHWM) in KiB, or None where /proc does not say."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--devlint", default=str(ROOT / "build" / "devlint"))
    ap.add_argument("--lines", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=50)
    ap.add_argument("--workspace", help="a project whose files are checked along (copied)")
    ap.add_argument("--edit", help="with --workspace: the project's file to edit (its text with a "
                    "buggy function appended), instead of a generated file")
    args = ap.parse_args()
    if not os.access(args.devlint, os.X_OK):
        sys.exit(f"lsp_latency: {args.devlint} is not built (cmake --build build)")

    tmp = Path(tempfile.mkdtemp(prefix="devlint-lsp-bench-"))
    try:
        root = tmp / "ws"
        if args.workspace:
            shutil.copytree(args.workspace, root, symlinks=True)
        else:
            root.mkdir()
        if args.edit:
            if not args.workspace:
                sys.exit("lsp_latency: --edit needs --workspace")
            target = root / args.edit
            text = target.read_text() + TAIL_EDIT  # in the editor's buffer only
        else:
            target = root / "bench_target.py"
            text = generate(args.lines)
            target.write_text(text)
        uri = target.as_uri()
        c = Client(args.devlint, root)
        c.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                 "capabilities": {}})
        c.notify("initialized", {})
        t0 = time.perf_counter()
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}})
        diags = c.wait_diagnostics(uri, 1)
        first_ms = (time.perf_counter() - t0) * 1e3
        assert any(d["code"] == "DL101" for d in diags), diags

        lines = text.split("\n")
        bug_line = max(i for i, l in enumerate(lines) if l == '    x.to("cuda")')
        broken = True
        samples = []
        for version in range(2, args.edits + 2):
            # toggle `x.to(...)` <-> `x = x.to(...)` by inserting or deleting "x = "
            if broken:
                change = {"range": {"start": {"line": bug_line, "character": 4},
                                    "end": {"line": bug_line, "character": 4}}, "text": "x = "}
            else:
                change = {"range": {"start": {"line": bug_line, "character": 4},
                                    "end": {"line": bug_line, "character": 8}}, "text": ""}
            t0 = time.perf_counter()
            c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                "contentChanges": [change]})
            diags = c.wait_diagnostics(uri, version)
            samples.append((time.perf_counter() - t0) * 1e3)
            broken = not broken
            found = any(d["code"] == "DL101" for d in diags)
            assert found == broken, f"version {version}: DL101 {'missing' if broken else 'still there'}"
        peak_kb = server_peak_kb(c.proc.pid)  # the models the server keeps, at their largest
        c.request("shutdown", None)
        c.notify("exit", None)
        c.proc.wait(timeout=10)

        samples.sort()
        p90 = samples[min(len(samples) - 1, int(len(samples) * 0.9))]
        files = sum(1 for _ in root.rglob("*.py"))
        what = f"{args.edit} ({text.count(chr(10))} lines)" if args.edit else \
            f"{text.count(chr(10))}-line file"
        print(f"devlint lsp re-check latency: {what}, {files} file(s) in the workspace, "
              f"{len(samples)} edits")
        print(f"  first check (didOpen): {first_ms:.1f} ms")
        print(f"  didChange -> publishDiagnostics: min {samples[0]:.1f} ms, "
              f"median {statistics.median(samples):.1f} ms, p90 {p90:.1f} ms, "
              f"max {samples[-1]:.1f} ms (target: median < 50 ms)")
        if peak_kb is not None:
            print(f"  server peak resident memory: {peak_kb / 1024:.1f} MB")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
