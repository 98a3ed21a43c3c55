// The server under bad input, spoken to in raw Content-Length frames: invalid JSON, wrong
// types, unknown methods, broken headers and a payload over the 64 MiB limit all get JSON-RPC
// errors (or are ignored, for notifications) and the server keeps answering; lifecycle rules
// (before initialize, after shutdown, exit codes, end of input, $/cancelRequest).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const h = require('./helpers');

function frame(body) {
  const b = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`), b]);
}

// A server whose replies are parsed from stdout as they come.
class Raw {
  constructor(args = []) {
    this.proc = spawn(h.DEVLINT, ['lsp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.buf = Buffer.alloc(0);
    this.replies = [];
    this.waiters = [];
    this.stderr = '';
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
    this.proc.stderr.on('data', (d) => (this.stderr += d));
    this.proc.stdin.on('error', () => {});
    this.proc.stdout.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      for (;;) {
        const end = this.buf.indexOf('\r\n\r\n');
        if (end < 0) break;
        const m = /Content-Length: (\d+)/i.exec(this.buf.slice(0, end).toString());
        const len = Number(m[1]);
        if (this.buf.length < end + 4 + len) break;
        this.replies.push(JSON.parse(this.buf.slice(end + 4, end + 4 + len).toString()));
        this.buf = this.buf.slice(end + 4 + len);
      }
      const w = this.waiters;
      this.waiters = [];
      for (const f of w) if (!f()) this.waiters.push(f);
    });
  }
  send(...frames) {
    this.proc.stdin.write(Buffer.concat(frames.map((f) => (Buffer.isBuffer(f) ? f : frame(f)))));
  }
  reply(pred, what) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply: ${what}\n${this.stderr}`)), 20000);
      const attempt = () => {
        const r = this.replies.find(pred);
        if (!r) return false;
        clearTimeout(timer);
        resolve(r);
        return true;
      };
      if (!attempt()) this.waiters.push(attempt);
    });
  }
  byId(id) {
    return this.reply((r) => r.id === id && !r.method, `id ${id}`);
  }
  async initialize() {
    this.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { capabilities: {} } });
    await this.byId('init');
    this.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
  }
}

const ping = (id) => ({ jsonrpc: '2.0', id, method: 'textDocument/codeAction', params: { textDocument: { uri: 'file:///nowhere.py' }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [] } } });

test('malformed messages get JSON-RPC errors and the server keeps serving', async () => {
  const s = new Raw();
  await s.initialize();
  s.send('{"jsonrpc": "2.0", "id": 1, "method": ');
  const parse = await s.reply((r) => r.error && r.error.code === -32700, 'parse error');
  assert.equal(parse.id, null);
  s.send({ jsonrpc: '2.0', id: 2, method: 42 });
  assert.equal((await s.byId(2)).error.code, -32600);
  s.send({ jsonrpc: '2.0', id: 3, method: 'textDocument/unheardOf', params: {} });
  assert.equal((await s.byId(3)).error.code, -32601);
  s.send({ jsonrpc: '2.0', id: 4, method: 'textDocument/codeAction', params: { textDocument: { uri: 7 }, range: 'all' } });
  assert.equal((await s.byId(4)).error.code, -32602);
  s.send({ jsonrpc: '2.0', id: 5, method: 'textDocument/codeAction', params: 'not an object' });
  assert.equal((await s.byId(5)).error.code, -32600);
  s.send({ jsonrpc: '2.0', id: { nested: true }, method: 'shutdown' });
  await s.reply((r) => r.error && r.error.code === -32600 && r.id === null && /id/.test(r.error.message), 'bad id');
  s.send([{ jsonrpc: '2.0', id: 6, method: 'shutdown' }]);
  await s.reply((r) => r.error && /batch/.test(r.error.message), 'batch');
  // notifications with wrong types are logged and dropped, never answered
  s.send(
    { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 1, text: null } } },
    { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: 'file:///x.py' }, contentChanges: 'x' } },
    { jsonrpc: '2.0', method: 'workspace/didChangeConfiguration', params: { settings: { devlint: { args: [1, null, {}] } } } },
    { jsonrpc: '2.0', method: 'notebookDocument/didOpen', params: { notebookDocument: { cells: 'no' } } },
    { jsonrpc: '2.0', method: 'some/unknownNotification', params: {} },
    { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///x.py', languageId: 'python', version: 1, text: 'x = 1\n' } } },
    { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: 'file:///x.py', version: 2 }, contentChanges: [{ range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } }, text: 'y' }, { range: { start: { line: 99, character: 99 }, end: { line: 0, character: 0 } }, text: 'z' }] } },
    { jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: 'file:///x.py', version: 3 }, contentChanges: [{ range: { start: { line: 999, character: 5 }, end: { line: 1000, character: 9 } }, text: 'x.to("cuda")\n' }] } },
  );
  // headers without Content-Length, and a header that is not a number
  s.send(Buffer.from('Content-Type: application/json\r\n\r\n'), Buffer.from('Content-Length: twelve\r\n\r\n'));
  await s.reply((r) => r.error && /Content-Length/.test(r.error.message), 'header error');
  s.send(ping(7));
  assert.deepEqual((await s.byId(7)).result, []);
  s.send({ jsonrpc: '2.0', id: 8, method: 'shutdown' });
  assert.equal((await s.byId(8)).result, null);
  s.send({ jsonrpc: '2.0', method: 'exit' });
  assert.deepEqual(await s.exited, { code: 0, signal: null });
});

test('a payload over 64 MiB is dropped with an error and the next message is answered', async () => {
  const s = new Raw();
  await s.initialize();
  const size = 64 * 1024 * 1024 + 1;
  s.proc.stdin.write(`Content-Length: ${size}\r\n\r\n`);
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  let left = size;
  while (left > 0) {
    const n = Math.min(left, chunk.length);
    if (!s.proc.stdin.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
      await new Promise((resolve) => s.proc.stdin.once('drain', resolve));
    }
    left -= n;
  }
  s.send(ping(9));
  const err = await s.reply((r) => r.error && /limit/.test(r.error.message), 'size limit');
  assert.equal(err.error.code, -32600);
  assert.deepEqual((await s.byId(9)).result, []);
  s.proc.stdin.end();
  assert.deepEqual(await s.exited, { code: 0, signal: null });
});

test('requests before initialize are refused; after shutdown too; exit without shutdown is 1', async () => {
  const s = new Raw();
  s.send(ping(1));
  assert.equal((await s.byId(1)).error.code, -32002);
  await s.initialize();
  s.send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { capabilities: {} } });
  assert.equal((await s.byId(2)).error.code, -32600);
  s.send({ jsonrpc: '2.0', method: 'exit' });
  assert.deepEqual(await s.exited, { code: 1, signal: null });

  const t = new Raw();
  await t.initialize();
  t.send({ jsonrpc: '2.0', id: 3, method: 'shutdown' }, ping(4));
  assert.equal((await t.byId(4)).error.code, -32600);
  t.send({ jsonrpc: '2.0', method: 'exit' });
  assert.deepEqual(await t.exited, { code: 0, signal: null });
});

test('the server exits cleanly when its input closes, even mid-message', async () => {
  const s = new Raw();
  await s.initialize();
  s.proc.stdin.end('Content-Length: 100\r\n\r\n{"jsonrpc"');
  assert.deepEqual(await s.exited, { code: 0, signal: null });
});

test('$/cancelRequest cancels a request that has not been answered', async () => {
  const s = new Raw();
  await s.initialize();
  s.send(ping(10), { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 10 } }, ping(11));
  assert.equal((await s.byId(10)).error.code, -32800);
  assert.deepEqual((await s.byId(11)).result, []);
  s.send({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 'never-sent' } }, { jsonrpc: '2.0', method: '$/setTrace', params: { value: 'off' } });
  s.send({ jsonrpc: '2.0', id: 12, method: 'shutdown' });
  await s.byId(12);
  s.send({ jsonrpc: '2.0', method: 'exit' });
  assert.deepEqual(await s.exited, { code: 0, signal: null });
});

test('bad command-line options stop `devlint lsp` with exit 2', async () => {
  const s = new Raw(['--select', 'no-such-rule']);
  assert.deepEqual(await s.exited, { code: 2, signal: null });
  assert.match(s.stderr, /no-such-rule/);
});
