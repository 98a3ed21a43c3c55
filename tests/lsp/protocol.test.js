// devlint lsp through a real JSON-RPC client: lifecycle, diagnostics on open and incremental
// edits, unsaved buffers checked with the workspace on disk, code actions applied, positions
// in UTF-16 with emoji and CJK, pull diagnostics, configuration changes, notebooks.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const h = require('./helpers');

const BUG = 'import torch\nx = torch.randn(4, 10)\nx.to("cuda")\n';

async function withServer(files, options, body) {
  const root = h.makeWorkspace(files);
  const s = await h.Session.start({ root, ...options });
  try {
    await body(s, root);
    assert.equal(await s.stop(), 0, 'exit after shutdown is exit code 0');
  } catch (e) {
    s.kill();
    throw e;
  } finally {
    h.removeWorkspace(root);
  }
}

test('initialize advertises incremental sync, quick fixes, pull diagnostics, UTF-16', async () => {
  await withServer({}, {}, async (s) => {
    const caps = s.initializeResult.capabilities;
    assert.equal(caps.textDocumentSync.change, 2);
    assert.equal(caps.textDocumentSync.openClose, true);
    assert.ok(caps.codeActionProvider.codeActionKinds.includes('quickfix'));
    assert.equal(caps.diagnosticProvider.identifier, 'devlint');
    assert.equal(caps.positionEncoding, 'utf-16');
    assert.deepEqual(caps.executeCommandProvider.commands, ['devlint.checkWorkspace']);
    assert.equal(s.initializeResult.serverInfo.name, 'devlint');
    // file watchers for Python and configuration files, registered after `initialized`
    await s.until(() => s.registrations.length > 0 || undefined, 'registerCapability');
    const globs = s.registrations[0].registerOptions.watchers.map((w) => w.globPattern);
    assert.ok(globs.includes('**/pyproject.toml') && globs.includes('**/devlint.toml'));
  });
});

test('open publishes findings with code, link, severity and source', async () => {
  await withServer({ 'train.py': BUG }, {}, async (s, root) => {
    const uri = h.uriOf(path.join(root, 'train.py'));
    s.open(uri, BUG);
    const diags = await s.diagnosticsFor(uri, { version: 1, predicate: (d) => d.length > 0 });
    assert.equal(diags.length, 1);
    const d = diags[0];
    assert.equal(d.code, 'DL101');
    assert.equal(d.source, 'devlint');
    assert.equal(d.severity, 1);
    assert.equal(d.codeDescription.href, 'https://github.com/devlint/devlint/blob/main/docs/rules.md#dl101');
    assert.deepEqual(d.range, { start: { line: 2, character: 0 }, end: { line: 2, character: 12 } });
    assert.match(d.message, /thrown away/);
  });
});

test('incremental edits are applied and re-checked; the unsaved buffer is what counts', async () => {
  // on disk the file is clean; only the buffer has the bug
  await withServer({ 'train.py': 'import torch\n' }, {}, async (s, root) => {
    const uri = h.uriOf(path.join(root, 'train.py'));
    s.open(uri, 'import torch\n');
    await s.diagnosticsFor(uri, { version: 1 });
    // type the two lines of the bug in three edits
    s.change(uri, 2, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: 'x = torch.randn(4, 10)\n' }]);
    s.change(uri, 3, [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: 'x.to("cu' }]);
    s.change(uri, 4, [{ range: { start: { line: 2, character: 8 }, end: { line: 2, character: 8 } }, text: 'da")\n' }]);
    let diags = await s.diagnosticsFor(uri, { version: 4, predicate: (d) => d.length === 1 });
    assert.equal(diags[0].code, 'DL101');
    assert.equal(diags[0].range.start.line, 2);
    // delete the line: the finding goes away
    s.change(uri, 5, [{ range: { start: { line: 2, character: 0 }, end: { line: 3, character: 0 } }, text: '' }]);
    diags = await s.diagnosticsFor(uri, { version: 5, predicate: (d) => d.length === 0 });
    assert.deepEqual(diags, []);
  });
});

test('a quick fix is offered, applies, and the finding goes away', async () => {
  await withServer({ 'train.py': BUG }, {}, async (s, root) => {
    const uri = h.uriOf(path.join(root, 'train.py'));
    s.open(uri, BUG);
    const [d] = await s.diagnosticsFor(uri, { version: 1, predicate: (x) => x.length === 1 });
    const actions = await s.codeActions(uri, d.range);
    const fix = actions.find((a) => a.isPreferred);
    assert.ok(fix, `a preferred fix among ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(fix.kind, 'quickfix');
    assert.equal(fix.diagnostics[0].code, 'DL101');
    assert.match(fix.title, /Assign the result/);
    // versioned edit: documentChanges for version 1
    assert.equal(fix.edit.documentChanges[0].textDocument.version, 1);
    const fixed = h.applyEdits(BUG, h.editsFor(fix.edit, uri));
    assert.equal(fixed, 'import torch\nx = torch.randn(4, 10)\nx = x.to("cuda")\n');
    s.change(uri, 2, [{ text: fixed }]);
    assert.deepEqual(await s.diagnosticsFor(uri, { version: 2, predicate: (x) => x.length === 0 }), []);
    // no finding, no action
    assert.deepEqual(await s.codeActions(uri, d.range), []);
  });
});

test('"Ignore DL101 on this line" adds a suppression comment that silences it', async () => {
  const text = 'import torch\nx = torch.randn(4, 10)\nx.to("cuda")  # 移动\n';
  await withServer({ 'train.py': text }, {}, async (s, root) => {
    const uri = h.uriOf(path.join(root, 'train.py'));
    s.open(uri, text);
    const [d] = await s.diagnosticsFor(uri, { version: 1, predicate: (x) => x.length === 1 });
    const actions = await s.codeActions(uri, { start: d.range.start, end: d.range.start });
    const ignore = actions.find((a) => a.title === 'Ignore DL101 on this line');
    assert.ok(ignore);
    assert.equal(ignore.kind, 'quickfix');
    const edited = h.applyEdits(text, h.editsFor(ignore.edit, uri));
    assert.equal(edited, 'import torch\nx = torch.randn(4, 10)\nx.to("cuda")  # 移动  # devlint: ignore[DL101]\n');
    s.change(uri, 2, [{ text: edited }]);
    assert.deepEqual(await s.diagnosticsFor(uri, { version: 2, predicate: (x) => x.length === 0 }), []);
  });
});

test('positions are UTF-16: emoji (surrogate pairs) and CJK before a finding', async () => {
  const text = 'import torch\nx = torch.randn(4, 10)\nlabel = "😀🚀 设备"; x.to("cuda")  # 😀\n';
  await withServer({}, {}, async (s, root) => {
    const uri = h.uriOf(path.join(root, 'emoji.py'));
    s.open(uri, text);
    const [d] = await s.diagnosticsFor(uri, { version: 1, predicate: (x) => x.length === 1 });
    const start = h.positionOf(text, 'x.to("cuda")');
    assert.deepEqual(d.range.start, start); // JS indices are UTF-16 units: 23, not 21
    assert.equal(start.character, 'label = "😀🚀 设备"; '.length);
    assert.deepEqual(d.range.end, { line: start.line, character: start.character + 'x.to("cuda")'.length });
    // an incremental edit positioned after the emoji lands where the client meant it
    s.change(uri, 2, [{ range: { start, end: { line: start.line, character: start.character + 1 } }, text: 'x = x' }]);
    const after = await s.diagnosticsFor(uri, { version: 2, predicate: (x) => x.length === 0 });
    assert.deepEqual(after, []);
    // the fix's edit, applied by the client, also lands after the emoji
    const text3 = 'import torch\nx = torch.randn(4, 10)\n"😀"; x.to("cuda")\n';
    s.change(uri, 3, [{ text: text3 }]);
    const [d3] = await s.diagnosticsFor(uri, { version: 3, predicate: (x) => x.length === 1 });
    const [fix] = (await s.codeActions(uri, d3.range)).filter((a) => a.isPreferred);
    assert.equal(h.applyEdits(text3, h.editsFor(fix.edit, uri)), 'import torch\nx = torch.randn(4, 10)\n"😀"; x = x.to("cuda")\n');
  });
});

test('project-wide facts: an open file is checked with the workspace on disk and other buffers', async () => {
  const fixture = path.join(__dirname, '..', 'fixtures', 'python', 'DL103', 'pos_multifile_losses');
  const files = {};
  for (const f of fs.readdirSync(fixture)) files[f] = fs.readFileSync(path.join(fixture, f), 'utf8');
  await withServer(files, {}, async (s, root) => {
    const losses = h.uriOf(path.join(root, 'losses.py'));
    const train = h.uriOf(path.join(root, 'train.py'));
    s.open(losses, files['losses.py']);
    // the loss weight is on the CPU because train.py (on disk, not open) moves the inputs
    const [d] = await s.diagnosticsFor(losses, { version: 1, predicate: (x) => x.length === 1 });
    assert.equal(d.code, 'DL103');
    assert.equal(d.range.start.line, 8);
    // an unsaved edit of train.py that no longer applies the loss clears the finding in losses.py
    const noLoss = files['train.py'].replace('loss = criterion(model(images), masks)', 'loss = model(images).sum()');
    assert.notEqual(noLoss, files['train.py']);
    s.open(train, files['train.py']);
    s.change(train, 2, [{ text: noLoss }]);
    await s.diagnosticsFor(losses, { predicate: (x) => x.length === 0 });
  });
});

test('configuration: a devlint.toml change (watched files) and devlint.args re-check open files', async () => {
  await withServer({ 'train.py': BUG }, {}, async (s, root) => {
    const uri = h.uriOf(path.join(root, 'train.py'));
    s.open(uri, BUG);
    await s.diagnosticsFor(uri, { predicate: (x) => x.length === 1 });
    const toml = h.writeFile(root, 'devlint.toml', 'ignore = ["DL101"]\n');
    s.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: h.uriOf(toml), type: 1 }] });
    await s.diagnosticsFor(uri, { predicate: (x) => x.length === 0 });
    fs.writeFileSync(toml, 'select = ["DL1"]\n[severity]\nDL101 = "warning"\n');
    s.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: h.uriOf(toml), type: 2 }] });
    const [w] = await s.diagnosticsFor(uri, { predicate: (x) => x.length === 1 && x[0].severity === 2 });
    assert.equal(w.code, 'DL101');
    // the editor's devlint.args setting
    s.conn.sendNotification('workspace/didChangeConfiguration', { settings: { devlint: { args: ['--ignore', 'unassigned-to'] } } });
    await s.diagnosticsFor(uri, { predicate: (x) => x.length === 0 });
    // bad args: an error message, and the previous settings stay
    s.conn.sendNotification('workspace/didChangeConfiguration', { settings: { devlint: { args: ['--select', 'no-such-rule'] } } });
    const msg = await s.until(() => s.messages.find((m) => /no-such-rule/.test(m.message)), 'showMessage');
    assert.equal(msg.type, 1);
    s.conn.sendNotification('workspace/didChangeConfiguration', { settings: { devlint: { args: [] } } });
    await s.diagnosticsFor(uri, { predicate: (x) => x.length === 1 });
    // devlint.enable = false publishes nothing
    s.conn.sendNotification('workspace/didChangeConfiguration', { settings: { devlint: { enable: false } } });
    await s.diagnosticsFor(uri, { predicate: (x) => x.length === 0 });
    // a broken configuration file is shown to the user, not a crash
    fs.writeFileSync(toml, 'ignroe = ["DL101"]\n');
    s.conn.sendNotification('workspace/didChangeConfiguration', { settings: { devlint: { enable: true } } });
    const bad = await s.until(() => s.messages.find((m) => /ignroe/.test(m.message)), 'config error');
    assert.match(bad.message, /devlint\.toml:1/);
  });
});

test('pull diagnostics: full report, then unchanged for the same result id', async () => {
  await withServer({ 'train.py': BUG }, { capabilities: h.PULL_CAPABILITIES }, async (s, root) => {
    const uri = h.uriOf(path.join(root, 'train.py'));
    s.open(uri, BUG);
    const full = await s.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    assert.equal(full.kind, 'full');
    assert.equal(full.items.length, 1);
    assert.equal(full.items[0].code, 'DL101');
    const again = await s.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri }, previousResultId: full.resultId });
    assert.deepEqual(again, { kind: 'unchanged', resultId: full.resultId });
    s.change(uri, 2, [{ text: 'import torch\n' }]);
    const after = await s.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri }, previousResultId: full.resultId });
    assert.equal(after.kind, 'full');
    assert.deepEqual(after.items, []);
    // a pull client is not pushed to; a configuration change asks it to pull again
    assert.equal(s.diagnostics.size, 0);
    s.change(uri, 3, [{ text: BUG }]);
    const back = await s.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    assert.equal(back.items.length, 1);
    s.conn.sendNotification('workspace/didChangeConfiguration', { settings: { devlint: { args: ['--ignore', 'DL101'] } } });
    await s.until(() => s.refreshes > 0 || undefined, 'workspace/diagnostic/refresh');
    const ignored = await s.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    assert.deepEqual(ignored.items, []);
  });
});

test('notebooks: cells are checked as one program, findings land in their cell', async () => {
  await withServer({}, {}, async (s, root) => {
    const nbUri = h.uriOf(path.join(root, 'train.ipynb'));
    const cell = (n) => `vscode-notebook-cell:${path.join(root, 'train.ipynb')}#W${n}sZmlsZQ%3D%3D`;
    const cells = [
      { text: 'import torch\nx = torch.randn(4, 10)\n', kind: 2 },
      { text: '# Moving to the GPU 🚀', kind: 1, languageId: 'markdown' },
      { text: 'y = 1\n"😀"; x.to("cuda")\n', kind: 2 },
    ];
    s.conn.sendNotification('notebookDocument/didOpen', {
      notebookDocument: {
        uri: nbUri,
        notebookType: 'jupyter-notebook',
        version: 1,
        cells: cells.map((c, i) => ({ kind: c.kind, document: cell(i) })),
      },
      cellTextDocuments: cells
        .map((c, i) => ({ uri: cell(i), languageId: c.languageId || 'python', version: 1, text: c.text }))
        .filter((c) => c.languageId === 'python'),
    });
    const [d] = await s.diagnosticsFor(cell(2), { predicate: (x) => x.length === 1 });
    assert.equal(d.code, 'DL101');
    assert.deepEqual(d.range.start, h.positionOf(cells[2].text, 'x.to'));
    const first = await s.diagnosticsFor(cell(0));
    assert.deepEqual(first, []);
    // edit the cell: assign the result
    s.conn.sendNotification('notebookDocument/didChange', {
      notebookDocument: { uri: nbUri, version: 2 },
      change: { cells: { textContent: [{ document: { uri: cell(2), version: 2 }, changes: [{ range: d.range, text: 'x = x.to("cuda")' }] }] } },
    });
    await s.diagnosticsFor(cell(2), { version: 2, predicate: (x) => x.length === 0 });
    s.conn.sendNotification('notebookDocument/didClose', { notebookDocument: { uri: nbUri }, cellTextDocuments: [{ uri: cell(0) }, { uri: cell(2) }] });
  });
});

test('"Run on workspace" publishes findings of files that are not open', async () => {
  // C++ sources are left to `devlint check` (a compiler parse each): not checked as you type
  const cpp = '#include <torch/torch.h>\nvoid f(torch::Tensor x) { x.to(torch::kCUDA); }\n';
  await withServer({ 'a.py': BUG, 'pkg/b.py': BUG, 'clean.py': 'import torch\n', 'ext/op.cpp': cpp }, {}, async (s, root) => {
    const result = await s.conn.sendRequest('workspace/executeCommand', { command: 'devlint.checkWorkspace', arguments: [] });
    assert.equal(result.filesChecked, 3);
    assert.equal(result.findings, 2);
    for (const f of ['a.py', 'pkg/b.py']) {
      const diags = await s.diagnosticsFor(h.uriOf(path.join(root, f)), { predicate: (x) => x.length === 1 });
      assert.equal(diags[0].code, 'DL101');
    }
    // fixing a file on disk clears it at the next check
    fs.writeFileSync(path.join(root, 'a.py'), 'import torch\n');
    s.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: h.uriOf(path.join(root, 'a.py')), type: 2 }] });
    await s.diagnosticsFor(h.uriOf(path.join(root, 'a.py')), { predicate: (x) => x.length === 0 });
    const bad = await s.conn.sendRequest('workspace/executeCommand', { command: 'nope' }).catch((e) => e);
    assert.equal(bad.code, -32602);
  });
});

test('a syntax error keeps the last findings, without fixes for the changed text', async () => {
  await withServer({}, {}, async (s, root) => {
    const uri = h.uriOf(path.join(root, 'half.py'));
    s.open(uri, BUG);
    const [d] = await s.diagnosticsFor(uri, { version: 1, predicate: (x) => x.length === 1 });
    s.change(uri, 2, [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: 'def f(:\n' }]);
    // ask for code actions after the edit: the finding stays, but its fix is for version 1
    assert.deepEqual(await s.codeActions(uri, d.range), []);
    assert.match(s.stderr, /syntax error/);
    assert.equal(s.diagnostics.get(uri).diagnostics.length, 1);
  });
});

test('closing a document clears its diagnostics', async () => {
  await withServer({}, {}, async (s, root) => {
    const uri = h.uriOf(path.join(root, 'gone.py'));
    s.open(uri, BUG);
    await s.diagnosticsFor(uri, { predicate: (x) => x.length === 1 });
    s.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await s.diagnosticsFor(uri, { predicate: (x) => x.length === 0 });
  });
});

test('source.fixAll applies every safe fix at once', async () => {
  const text = BUG + 'y = torch.ones(2)\ny.cuda()\n';
  await withServer({}, {}, async (s, root) => {
    const uri = h.uriOf(path.join(root, 'all.py'));
    s.open(uri, text);
    await s.diagnosticsFor(uri, { predicate: (x) => x.length === 2 });
    const actions = await s.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, ['source.fixAll']);
    assert.equal(actions.length, 1);
    assert.equal(actions[0].kind, 'source.fixAll.devlint');
    const fixed = h.applyEdits(text, h.editsFor(actions[0].edit, uri));
    assert.equal(fixed, 'import torch\nx = torch.randn(4, 10)\nx = x.to("cuda")\ny = torch.ones(2)\ny = y.cuda()\n');
  });
});

// Opens `texts`, applies each step ([file, from, to], or [null]: none) and checks after each
// that the server publishes what a fresh `devlint --no-cache` finds in the same texts.
// Returns how many different sets of findings the steps went through.
async function editsMatchFreshChecks(texts, steps) {
  const mirror = h.makeWorkspace({});
  const seen = new Set();
  const fresh = () => {
    for (const [name, text] of Object.entries(texts)) h.writeFile(mirror, name, text);
    const out = execFileSync(h.DEVLINT, ['--no-cache', '--format', 'json', '--exit-zero', '.'], { cwd: mirror });
    return JSON.parse(out).findings.map((f) => `${f.path}:${f.line}:${f.column} ${f.code}`).sort();
  };
  try {
    await withServer(texts, {}, async (s, root) => {
      const uri = (name) => h.uriOf(path.join(root, name));
      const versions = {};
      for (const [name, text] of Object.entries(texts)) {
        versions[name] = 1;
        s.open(uri(name), text);
      }
      const published = async () => {
        await s.conn.sendRequest('workspace/executeCommand', { command: 'devlint.checkWorkspace', arguments: [] });
        const out = [];
        for (const name of Object.keys(texts))
          for (const d of (s.diagnostics.get(uri(name)) || { diagnostics: [] }).diagnostics)
            out.push(`${name}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`);
        return out.sort();
      };
      assert.deepEqual(await published(), fresh());
      for (const [name, from, to] of steps) {
        if (name) {
          assert.ok(texts[name].includes(from), from);
          texts[name] = texts[name].replace(from, to);
          s.change(uri(name), ++versions[name], [{ text: texts[name] }]);
        }
        const expected = fresh();
        assert.deepEqual(await published(), expected, `after editing ${name}: ${from} -> ${to}`);
        seen.add(expected.join(','));
      }
    });
  } finally {
    h.removeWorkspace(mirror);
  }
  return seen.size;
}

// The server keeps the files' program models and results between checks (driver/keep.h): an
// edit re-parses only what it changed. What it publishes must be what a fresh `devlint` finds
// in the same texts, whichever side of an import the edit is on: a leaf's DataLoader decides a
// finding in the dataset's file (DL113), the imported helper decides one in the script (DL103).
test('edits across imports give what a fresh check of the same texts finds', async () => {
  const MODEL = [
    'import torch', 'import torch.nn as nn', '', '',
    'class Frames(torch.utils.data.Dataset):', '    def __len__(self):', '        return 8', '',
    '    def __getitem__(self, i):', '        return torch.ones(3).cuda(), i', '', '',
    'def class_weights():', '    return torch.ones(3)', '', '',
    'class Net(nn.Module):', '    def __init__(self):', '        super().__init__()',
    '        self.fc = nn.Linear(3, 3)', '', '    def forward(self, x):', '        return self.fc(x)', '',
  ].join('\n');
  const TRAIN = [
    'import torch', 'from torch.utils.data import DataLoader', '',
    'from model import Frames, Net, class_weights', '',
    'device = torch.device("cuda")', 'model = Net().to(device)',
    'loader = DataLoader(Frames(), batch_size=2, num_workers=4)',
    'criterion = torch.nn.CrossEntropyLoss(weight=class_weights())',
    'for x, y in loader:', '    x = x.to(device)', '    y = y.to(device)', '    loss = criterion(model(x), y)', '',
  ].join('\n');
  const texts = { 'model.py': MODEL, 'train.py': TRAIN };
  const steps = [
    ['train.py', 'num_workers=4', 'num_workers=0'], // a leaf: the dataset's DL113 goes
    ['model.py', 'torch.ones(3)\n', 'torch.ones(3, device="cuda")\n'], // shared: DL103 goes
    ['train.py', 'num_workers=0', 'num_workers=4'],
    ['model.py', 'torch.ones(3, device="cuda")\n', 'torch.ones(3)\n'],
    ['train.py', '    x = x.to(device)', '    x.to(device)'], // DL101 in the leaf
    [null], // nothing changed: every result is the kept one
  ];
  assert.ok(await editsMatchFreshChecks(texts, steps) >= 4, 'the edits change the findings');
});

// A DataLoader in a base class's helper, which a subclass's __init__ in another file runs with
// its own dataset: the subclass's file names no DataLoader, yet its facts mark the dataset
// (DL113). Editing a third file makes the server compute the marks again while the subclass's
// result is kept: its facts must still run.
test('a DataLoader in a base class marks the dataset that a subclass in another file passes', async () => {
  const texts = {
    'dataset.py': [
      'import torch', 'from torch.utils.data import Dataset', '', '',
      'class Points(Dataset):', '    def __len__(self):', '        return 8', '',
      '    def __getitem__(self, i):', '        return torch.randn(3).cuda()', '',
    ].join('\n'),
    'base.py': [
      'import torch', '', '', 'class Trainer:', '    def _setup(self, ds):',
      '        self.loader = torch.utils.data.DataLoader(ds, batch_size=2, num_workers=4)', '',
    ].join('\n'),
    'sub.py': [
      'import torch', 'from base import Trainer', 'from dataset import Points', '', '',
      'class MyTrainer(Trainer):', '    def __init__(self):', '        self._setup(Points())', '',
    ].join('\n'),
    'helpers.py': 'import torch\nSCALE = 2\n',
    'main.py': 'import torch\nfrom helpers import SCALE\n',
  };
  const steps = [
    ['helpers.py', 'SCALE = 2', 'SCALE = 3'], // sub.py's result is kept; its marks are not lost
    ['sub.py', 'self._setup(Points())', 'self._setup(None)'], // the dataset's DL113 goes
    ['helpers.py', 'SCALE = 3', 'SCALE = 4'],
    ['sub.py', 'self._setup(None)', 'self._setup(Points())'],
    ['helpers.py', 'SCALE = 4', 'SCALE = 5'],
  ];
  assert.equal(await editsMatchFreshChecks(texts, steps), 2, 'the edits change the findings');
});
