#!/usr/bin/env python3
"""Writes fuzz/seeds/lsp/: framed sessions an editor could send to `devlint lsp` (fuzz_lsp's
seeds). Each seed is a client's whole stdin: Content-Length framed JSON-RPC messages. Run it
again after changing a session here; the seeds are checked in."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "lsp")
ROOT = "file:///ws"  # fuzz_lsp walks its own private workspace whatever the folder is

BUGGY = (
    "import torch\n"
    "from torch import nn\n\n"
    "device = torch.device(\"cuda\")\n"
    "x = torch.randn(4, 10)\n"
    "x.to(\"cuda\")\n\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(10, 2)\n\n"
    "    def forward(self, x):\n"
    "        return self.fc(x) + torch.zeros(2)\n\n"
    "model = Net()\n"
    "loss_fn = nn.CrossEntropyLoss(weight=torch.ones(2))\n"
    "y = model(x.to(device))\n"
)

PUSH_CAPS = {"workspace": {"workspaceEdit": {"documentChanges": True},
                           "didChangeWatchedFiles": {"dynamicRegistration": True}}}
PULL_CAPS = {"textDocument": {"diagnostic": {"dynamicRegistration": False}},
             "workspace": {"diagnostics": {"refreshSupport": True}}}


def frame(msg, crlf=True):
    body = json.dumps(msg, separators=(",", ":")).encode()
    sep = b"\r\n\r\n" if crlf else b"\n\n"
    return b"Content-Length: " + str(len(body)).encode() + sep + body


def req(i, method, params=None):
    m = {"jsonrpc": "2.0", "id": i, "method": method}
    if params is not None:
        m["params"] = params
    return m


def note(method, params=None):
    m = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        m["params"] = params
    return m


def rng(sl, sc, el, ec):
    return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}


def init(caps, **extra):
    params = {"processId": None, "rootUri": ROOT, "capabilities": caps}
    params.update(extra)
    return [req(1, "initialize", params), note("initialized", {})]


def bye(i):
    return [req(i, "shutdown"), note("exit")]


DOC = ROOT + "/train.py"


def open_doc(uri=DOC, text=BUGGY, version=1):
    return note("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": version, "text": text}})


SESSIONS = {
    # push diagnostics: open, edit, ask for fixes, fix all, close
    "push_edit_fix": init(PUSH_CAPS) + [
        open_doc(),
        note("textDocument/didChange", {
            "textDocument": {"uri": DOC, "version": 2},
            "contentChanges": [{"range": rng(0, 0, 0, 0), "text": "# edited\n"}]}),
        req(2, "textDocument/codeAction", {
            "textDocument": {"uri": DOC}, "range": rng(6, 0, 6, 12),
            "context": {"diagnostics": []}}),
        req(3, "textDocument/codeAction", {
            "textDocument": {"uri": DOC}, "range": rng(0, 0, 0, 0),
            "context": {"diagnostics": [], "only": ["source.fixAll.devlint"]}}),
        note("textDocument/didSave", {"textDocument": {"uri": DOC}}),
        note("textDocument/didClose", {"textDocument": {"uri": DOC}}),
    ] + bye(4),
    # pull diagnostics: full text changes, previousResultId, refresh
    "pull_diagnostics": init(PULL_CAPS) + [
        open_doc(),
        req(2, "textDocument/diagnostic", {"textDocument": {"uri": DOC}}),
        note("textDocument/didChange", {
            "textDocument": {"uri": DOC, "version": 2},
            "contentChanges": [{"text": BUGGY.replace("x.to(\"cuda\")", "x = x.to(\"cuda\")")}]}),
        req(3, "textDocument/diagnostic", {"textDocument": {"uri": DOC}, "previousResultId": "1"}),
        req(4, "textDocument/diagnostic", {"textDocument": {"uri": DOC}, "previousResultId": "2"}),
        {"jsonrpc": "2.0", "id": 1, "result": None},  # the client answering a refresh
    ] + bye(5),
    # a notebook: open with cells, change a cell's text and the cell list, quick fix in a cell
    "notebook": init(PUSH_CAPS) + [
        note("notebookDocument/didOpen", {
            "notebookDocument": {"uri": ROOT + "/nb.ipynb", "notebookType": "jupyter-notebook",
                                 "version": 1, "cells": [
                                     {"kind": 2, "document": ROOT + "/nb.ipynb#c1"},
                                     {"kind": 1, "document": ROOT + "/nb.ipynb#m1"},
                                     {"kind": 2, "document": ROOT + "/nb.ipynb#c2"}]},
            "cellTextDocuments": [
                {"uri": ROOT + "/nb.ipynb#c1", "languageId": "python", "version": 1,
                 "text": "import torch\nx = torch.randn(3)\n"},
                {"uri": ROOT + "/nb.ipynb#m1", "languageId": "markdown", "version": 1,
                 "text": "# notes\n"},
                {"uri": ROOT + "/nb.ipynb#c2", "languageId": "python", "version": 1,
                 "text": "%matplotlib inline\nx.cuda()\n"}]}),
        note("notebookDocument/didChange", {
            "notebookDocument": {"uri": ROOT + "/nb.ipynb", "version": 2},
            "change": {"cells": {
                "structure": {"array": {"start": 1, "deleteCount": 1, "cells": [
                    {"kind": 2, "document": ROOT + "/nb.ipynb#c3"}]},
                    "didOpen": [{"uri": ROOT + "/nb.ipynb#c3", "languageId": "python",
                                 "version": 1, "text": "y = torch.zeros(3)\n"}],
                    "didClose": [{"uri": ROOT + "/nb.ipynb#m1"}]},
                "textContent": [{"document": {"uri": ROOT + "/nb.ipynb#c2", "version": 2},
                                 "changes": [{"range": rng(1, 0, 1, 0), "text": "y + "}]}]}}}),
        req(2, "textDocument/codeAction", {
            "textDocument": {"uri": ROOT + "/nb.ipynb#c2"}, "range": rng(1, 0, 1, 8),
            "context": {"diagnostics": []}}),
        note("notebookDocument/didSave", {"notebookDocument": {"uri": ROOT + "/nb.ipynb"}}),
        note("notebookDocument/didClose", {"notebookDocument": {"uri": ROOT + "/nb.ipynb"},
                                           "cellTextDocuments": [{"uri": ROOT + "/nb.ipynb#c1"}]}),
    ] + bye(3),
    # the workspace: folders, settings, "Run on workspace", watched files, cancellation
    "workspace": init(PUSH_CAPS, workspaceFolders=[{"uri": ROOT, "name": "ws"}],
                      initializationOptions={"enable": True, "args": ["--select", "DL1,DL2"]}) + [
        req(2, "workspace/executeCommand", {"command": "devlint.checkWorkspace"}),
        note("workspace/didChangeConfiguration", {"settings": {"devlint": {
            "args": ["--ignore", "DL101", "--jobs", "1", "--max-file-size", "100000"]}}}),
        note("workspace/didChangeConfiguration", {"settings": {"devlint": {
            "args": ["--no-such-option"]}}}),
        note("workspace/didChangeWatchedFiles", {"changes": [
            {"uri": ROOT + "/pkg/model.py", "type": 2},
            {"uri": ROOT + "/new.py", "type": 1},
            {"uri": ROOT + "/pyproject.toml", "type": 2}]}),
        note("workspace/didChangeWorkspaceFolders", {"event": {
            "added": [{"uri": ROOT + "/pkg", "name": "pkg"}],
            "removed": [{"uri": ROOT, "name": "ws"}]}}),
        req(3, "workspace/executeCommand", {"command": "devlint.other"}),
        req("four", "textDocument/diagnostic", {"textDocument": {"uri": DOC}}),
        note("$/cancelRequest", {"id": "four"}),
        note("workspace/didChangeConfiguration", {"settings": {"devlint": {"enable": False}}}),
        open_doc(),
    ] + bye(5),
    # what a confused or hostile client sends
    "malformed": [
        b"Content-Length: 5\r\n\r\n{\"a\":",
        b"Content-Type: application/vscode-jsonrpc\r\n\r\n{}",
        b"Content-Length: -3\r\n\r\n",
        b"garbage without a header\r\n\r\n",
        req(7, "textDocument/codeAction", {}),  # before initialize
        req(True, "initialize", {}),
        [req(8, "initialize", {})],
        "just a string",
        {"jsonrpc": "2.0", "method": 42},
        {"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": 3},
    ] + init({}) + [
        req(1, "initialize", {"capabilities": {}}),  # twice
        req(10, "no/such/method", {}),
        note("no/such/notification"),
        note("textDocument/didChange", {"textDocument": {"uri": DOC}}),  # not open
        open_doc(uri="untitled:Untitled-1", text="import torch\ntorch.zeros(2).to('cuda')\n"),
        note("textDocument/didChange", {
            "textDocument": {"uri": "untitled:Untitled-1", "version": 3},
            "contentChanges": [{"range": rng(9, 0, 1, 0), "text": "x"},
                               {"range": rng(0, 99, 0, 99), "text": "\U0001F600\r\n"}]}),
        req(11, "textDocument/codeAction", {
            "textDocument": {"uri": "untitled:Untitled-1"}, "range": rng(0, 0, 5, 0)}),
        req(12, "textDocument/diagnostic", {}),
        note("exit"),  # without shutdown
        req(13, "shutdown"),
    ],
    # LF-only headers, a second header, lower-case Content-Length
    "framing": [
        frame(req(1, "initialize", {"capabilities": {}}), crlf=False).replace(
            b"Content-Length", b"content-length"),
    ] + [note("initialized", {}), open_doc(text="import torch\nx = torch.ones(1)\nx.cuda()\n")] + [
        b"Content-Length: 50\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
        + json.dumps(req(2, "shutdown"), separators=(",", ":")).encode().ljust(50),
        note("exit"),
    ],
}


def encode(item):
    if isinstance(item, bytes):
        return item
    return frame(item)


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, items in SESSIONS.items():
        data = b"".join(encode(i) for i in items)
        with open(os.path.join(OUT, name + ".lsp"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
