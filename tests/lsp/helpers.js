// Shared by the language-server tests: a devlint lsp process driven by vscode-jsonrpc (the
// library VS Code's own client is built on), temporary workspaces, and text edits applied the
// way an editor applies them. JavaScript strings index UTF-16 code units, exactly like the
// protocol's positions, so expected positions come from plain indexOf().
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');
const { pathToFileURL } = require('node:url');

// vscode-jsonrpc comes from the extension's node_modules (npm ci in vscode-ext/).
const extRequire = createRequire(path.join(__dirname, '..', '..', 'vscode-ext', 'package.json'));
const rpc = extRequire('vscode-jsonrpc/node');

const DEVLINT = process.env.DEVLINT || path.join(__dirname, '..', '..', 'build', 'devlint');
const TIMEOUT = Number(process.env.LSP_TEST_TIMEOUT_MS || 20000);

function uriOf(file) {
  return pathToFileURL(file).href;
}

function makeWorkspace(files) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'devlint-lsp-')));
  for (const [name, text] of Object.entries(files || {})) writeFile(root, name, text);
  return root;
}

function writeFile(root, name, text) {
  const file = path.join(root, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

function removeWorkspace(root) {
  fs.rmSync(root, { recursive: true, force: true });
}

// Protocol position -> index into a JS string (both count UTF-16 units).
function offsetAt(text, pos) {
  let line = 0;
  let i = 0;
  while (line < pos.line && i < text.length) {
    const c = text[i++];
    if (c === '\r' && text[i] === '\n') i++;
    if (c === '\n' || c === '\r') line++;
  }
  let end = i;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  return Math.min(i + pos.character, end);
}

function applyEdits(text, edits) {
  const sorted = edits
    .map((e) => ({ start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end), newText: e.newText }))
    .sort((a, b) => b.start - a.start || b.end - a.end);
  for (const e of sorted) text = text.slice(0, e.start) + e.newText + text.slice(e.end);
  return text;
}

// The TextEdits a WorkspaceEdit makes to `uri` (changes or documentChanges form).
function editsFor(workspaceEdit, uri) {
  if (workspaceEdit.changes) return workspaceEdit.changes[uri] || [];
  const out = [];
  for (const c of workspaceEdit.documentChanges || []) if (c.textDocument.uri === uri) out.push(...c.edits);
  return out;
}

function positionOf(text, needle, from = 0) {
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`${needle} not in text`);
  const before = text.slice(0, at).split(/\r\n|\r|\n/);
  return { line: before.length - 1, character: before[before.length - 1].length };
}

const PUSH_CAPABILITIES = {
  workspace: {
    workspaceEdit: { documentChanges: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
    configuration: true,
  },
  textDocument: {
    synchronization: { didSave: true, dynamicRegistration: false },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source'] } } },
    publishDiagnostics: { versionSupport: true, codeDescriptionSupport: true },
  },
};

const PULL_CAPABILITIES = {
  ...PUSH_CAPABILITIES,
  workspace: { ...PUSH_CAPABILITIES.workspace, diagnostics: { refreshSupport: true } },
  textDocument: { ...PUSH_CAPABILITIES.textDocument, diagnostic: { dynamicRegistration: false } },
};

class Session {
  constructor(proc) {
    this.proc = proc;
    this.stderr = '';
    this.diagnostics = new Map(); // uri -> last publishDiagnostics params
    this.messages = []; // window/showMessage params
    this.registrations = [];
    this.refreshes = 0;
    this.waiters = [];
    this.exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
    proc.stderr.on('data', (d) => (this.stderr += d));
    const conn = rpc.createMessageConnection(
      new rpc.StreamMessageReader(proc.stdout),
      new rpc.StreamMessageWriter(proc.stdin),
    );
    this.conn = conn;
    conn.onNotification('textDocument/publishDiagnostics', (p) => {
      this.diagnostics.set(p.uri, p);
      this.poke();
    });
    conn.onNotification('window/showMessage', (p) => {
      this.messages.push(p);
      this.poke();
    });
    conn.onRequest('client/registerCapability', (p) => {
      this.registrations.push(...p.registrations);
      this.poke();
      return null;
    });
    conn.onRequest('workspace/diagnostic/refresh', () => {
      this.refreshes++;
      this.poke();
      return null;
    });
    conn.onError(() => {});
    conn.listen();
  }

  static async start({ root, capabilities = PUSH_CAPABILITIES, args = [], initializationOptions } = {}) {
    const proc = spawn(DEVLINT, ['lsp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const s = new Session(proc);
    const params = { processId: process.pid, capabilities, initializationOptions };
    if (root) {
      params.rootUri = uriOf(root);
      params.workspaceFolders = [{ uri: uriOf(root), name: path.basename(root) }];
    }
    s.initializeResult = await s.conn.sendRequest('initialize', params);
    s.conn.sendNotification('initialized', {});
    return s;
  }

  poke() {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) if (!w()) this.waiters.push(w);
  }

  // Resolves when check() returns a value (re-tried after every message from the server).
  until(check, what) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}\nserver log:\n${this.stderr}`)),
        TIMEOUT,
      );
      const attempt = () => {
        const v = check();
        if (v === undefined || v === false) return false;
        clearTimeout(timer);
        resolve(v);
        return true;
      };
      if (!attempt()) this.waiters.push(attempt);
    });
  }

  // The diagnostics of `uri` once the server has published them for `version` (or later) and
  // `predicate` holds.
  diagnosticsFor(uri, { version, predicate = () => true } = {}) {
    return this.until(() => {
      const p = this.diagnostics.get(uri);
      if (!p) return undefined;
      if (version !== undefined && p.version !== undefined && p.version < version) return undefined;
      return predicate(p.diagnostics) ? p.diagnostics : undefined;
    }, `diagnostics of ${uri}${version !== undefined ? ` v${version}` : ''}`);
  }

  open(uri, text, version = 1, languageId = 'python') {
    this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  change(uri, version, contentChanges) {
    this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges });
  }

  codeActions(uri, range, only) {
    const context = { diagnostics: [] };
    if (only) context.only = only;
    return this.conn.sendRequest('textDocument/codeAction', { textDocument: { uri }, range, context });
  }

  async stop() {
    await this.conn.sendRequest('shutdown');
    this.conn.sendNotification('exit');
    const code = await this.exited;
    this.conn.dispose();
    return code;
  }

  kill() {
    try {
      this.conn.dispose();
    } catch {}
    this.proc.kill('SIGKILL');
  }
}

module.exports = {
  DEVLINT,
  PULL_CAPABILITIES,
  PUSH_CAPABILITIES,
  Session,
  applyEdits,
  editsFor,
  makeWorkspace,
  offsetAt,
  positionOf,
  removeWorkspace,
  rpc,
  uriOf,
  writeFile,
};
