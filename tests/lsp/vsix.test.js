// The extension packages into a .vsix offline with @vscode/vsce (which compiles it with tsc
// first, through the vscode:prepublish script), with its runtime dependencies inside.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ext = path.join(__dirname, '..', '..', 'vscode-ext');
const out = process.env.DEVLINT_VSIX || path.join(require('node:os').tmpdir(), `devlint-test-${process.pid}.vsix`);

test('vsce package builds a .vsix with the client, its dependencies and no sources', () => {
  fs.rmSync(out, { force: true });
  execFileSync(path.join(ext, 'node_modules', '.bin', 'vsce'), ['package', '--skip-license', '--out', out], {
    cwd: ext,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_offline: 'true' },
  });
  const zip = fs.readFileSync(out);
  // names are stored uncompressed in the zip's directory
  const has = (name) => zip.includes(Buffer.from(name));
  for (const name of [
    'extension/package.json',
    'extension/readme.md',
    'extension/out/extension.js',
    'extension/out/serverPath.js',
    'extension/node_modules/vscode-languageclient/package.json',
    'extension/node_modules/vscode-jsonrpc/package.json',
  ]) assert.ok(has(name), `${name} in the .vsix`);
  for (const name of ['extension/src/extension.ts', 'extension/node_modules/typescript/', 'extension/node_modules/@vscode/vsce/'])
    assert.ok(!has(name), `${name} not in the .vsix`);
  assert.ok(zip.length < 5 * 1024 * 1024, `${zip.length} bytes`);
  if (!process.env.DEVLINT_VSIX) fs.rmSync(out, { force: true });
});
