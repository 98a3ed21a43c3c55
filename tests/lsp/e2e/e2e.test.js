// End to end in a real VS Code: code-server (VS Code in the browser) with the packaged
// extension installed, driven by headless Chromium over the DevTools protocol. Opens a Python
// file with a planted bug from the Explorer, opens the Problems view, and checks that the
// devlint finding is listed there; the screenshot is kept as an artifact
// ($DEVLINT_E2E_ARTIFACTS/problems.png, build/e2e/ under ctest).
//
// Runs on Node 24 (code-server's own runtime, with a global WebSocket). Everything it starts
// lives in a temporary HOME with its own XDG directories and is stopped at the end.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const here = __dirname;
const repo = path.join(here, '..', '..', '..');
const DEVLINT = process.env.DEVLINT || path.join(repo, 'build', 'devlint');
const ARTIFACTS = process.env.DEVLINT_E2E_ARTIFACTS || path.join(repo, 'build', 'e2e');
const CODE_SERVER = process.env.DEVLINT_CODE_SERVER || path.join(here, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const STEP_TIMEOUT = 90000;

const BUG = 'import torch\n\nx = torch.randn(4, 10)\nx.to("cuda")\n';
const EDITOR_HAS_BUG = "[...document.querySelectorAll('.monaco-editor .view-lines')].some((e) => e.innerText.includes('torch.randn'))";

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function poll(what, fn, timeout = STEP_TIMEOUT) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await sleep(500);
  }
  throw new Error(`timed out: ${what}${last ? ` (${last.message})` : ''}`);
}

// A minimal DevTools protocol client over the page target's WebSocket.
class Cdp {
  static async connect(port) {
    const targets = await poll('chromium DevTools endpoint', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/json/list`);
      const list = await res.json();
      return list.find((t) => t.type === 'page');
    });
    const c = new Cdp();
    c.ws = new WebSocket(targets.webSocketDebuggerUrl);
    c.next = 0;
    c.pending = new Map();
    await new Promise((resolve, reject) => {
      c.ws.onopen = resolve;
      c.ws.onerror = reject;
    });
    c.ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      const p = msg.id !== undefined && c.pending.get(msg.id);
      if (!p) return;
      c.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
      else p.resolve(msg.result);
    };
    return c;
  }
  send(method, params = {}) {
    const id = ++this.next;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, method }));
  }
  async evaluate(expression) {
    const r = await this.send('Runtime.evaluate', { expression, returnByValue: true });
    return r.result.value;
  }
  // A left click in the middle of the first element matching `selector`; false if none.
  async click(selector) {
    const rect = await this.evaluate(`(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return null; const r = e.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`);
    if (!rect) return false;
    for (const type of ['mousePressed', 'mouseReleased'])
      await this.send('Input.dispatchMouseEvent', { type, x: rect.x, y: rect.y, button: 'left', clickCount: 1 });
    return true;
  }
  async screenshot(file) {
    const { data } = await this.send('Page.captureScreenshot', { format: 'png' });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.from(data, 'base64'));
  }
  close() {
    try {
      this.ws.close();
    } catch {}
  }
}

function start(cmd, args, env, log) {
  const out = fs.openSync(log, 'w');
  const p = spawn(cmd, args, { env, stdio: ['ignore', out, out], detached: true });
  p.on('error', () => {});
  return p;
}

function stop(p) {
  if (!p || p.exitCode !== null) return;
  try {
    process.kill(-p.pid, 'SIGKILL'); // its whole process group (code-server's extension host too)
  } catch {}
}

test('code-server shows the devlint problem of an open Python file in the Problems view', { timeout: 400000 } /* < ctest's 600 s, so `finally` stops what it started */, async () => {
  assert.ok(fs.existsSync(CODE_SERVER), `code-server is installed (${CODE_SERVER}); run scripts/setup.sh`);
  assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is installed; run scripts/setup.sh`);
  for (const old of ['problems.png', 'failure.png']) fs.rmSync(path.join(ARTIFACTS, old), { force: true });
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'devlint-e2e-')));
  const home = path.join(tmp, 'home');
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_RUNTIME_DIR: path.join(home, 'run'),
  };
  for (const d of [env.XDG_CONFIG_HOME, env.XDG_DATA_HOME, env.XDG_CACHE_HOME, env.XDG_RUNTIME_DIR])
    fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  const userData = path.join(tmp, 'user-data');
  const extensions = path.join(tmp, 'extensions');
  const ws = path.join(tmp, 'project');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'train.py'), BUG);
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({
      'devlint.path': DEVLINT,
      'security.workspace.trust.enabled': false,
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'extensions.ignoreRecommendations': true,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
    }),
  );
  let server, chrome, cdp;
  try {
    // the extension as users get it: packaged, then installed from the .vsix
    const vsix = path.join(tmp, 'devlint.vsix');
    const ext = path.join(repo, 'vscode-ext');
    execFileSync(process.execPath, [path.join(ext, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--skip-license', '--out', vsix], { cwd: ext, env, stdio: 'pipe' });
    const base = [CODE_SERVER, '--user-data-dir', userData, '--extensions-dir', extensions];
    execFileSync(process.execPath, [...base, '--install-extension', vsix], { env, stdio: 'pipe' });

    const port = await freePort();
    server = start(process.execPath, [...base, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', ws], env, path.join(tmp, 'code-server.log'));
    await poll('code-server /healthz', async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok);

    const devtools = await freePort();
    chrome = start(CHROMIUM, ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', `--user-data-dir=${path.join(tmp, 'chromium')}`, `--remote-debugging-port=${devtools}`, '--window-size=1400,900', 'about:blank'], env, path.join(tmp, 'chromium.log'));
    cdp = await Cdp.connect(devtools);
    await cdp.send('Page.enable');
    await cdp.send('Runtime.enable');
    await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1400, height: 900, deviceScaleFactor: 1, mobile: false });
    await cdp.send('Page.navigate', { url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}` });
    await poll('the workbench', () => cdp.evaluate("!!document.querySelector('.monaco-workbench .part.editor')"));
    await poll('the explorer lists train.py', () => cdp.evaluate("document.body.innerText.includes('train.py')"));

    // open train.py from the Explorer: the editor opens and the extension activates
    await poll('train.py open in an editor', async () => {
      if (await cdp.evaluate(EDITOR_HAS_BUG)) return true;
      await cdp.click(".monaco-list-row[aria-label*='train.py']");
      await sleep(1500);
      return false;
    });

    // the Problems view (from the status bar's problem counts) lists the finding once the server
    // has published it
    const text = await poll('DL101 in the Problems view', async () => {
      const panel = await cdp.evaluate("(document.querySelector('.markers-panel') || {}).innerText || ''");
      if (panel.includes('DL101')) return panel;
      if (!panel) await cdp.click('#status\\.problems');
      return false;
    });
    assert.match(text, /thrown away/);
    await sleep(500);
    await cdp.screenshot(path.join(ARTIFACTS, 'problems.png'));
  } catch (e) {
    if (cdp) await cdp.screenshot(path.join(ARTIFACTS, 'failure.png')).catch(() => {});
    const log = path.join(tmp, 'code-server.log');
    if (fs.existsSync(log)) e.message += `\ncode-server log:\n${fs.readFileSync(log, 'utf8').slice(-4000)}`;
    // the extension's output channel (the client's and the server's log) and the extension host's
    const logs = path.join(userData, 'logs');
    const files = fs.existsSync(logs) ? fs.readdirSync(logs, { recursive: true }).map((f) => path.join(logs, f)) : [];
    for (const f of files.filter((f) => /devlint|exthost\.log$/i.test(path.basename(f)) && fs.statSync(f).isFile()))
      e.message += `\n${path.relative(logs, f)}:\n${fs.readFileSync(f, 'utf8').slice(-3000)}`;
    throw e;
  } finally {
    if (cdp) cdp.close();
    stop(chrome);
    stop(server);
    await sleep(300);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
