// The VS Code extension outside VS Code: its manifest (activation, commands, settings) and
// which devlint executable it starts (vscode-ext/src/serverPath.ts, compiled by tsc to out/).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ext = path.join(__dirname, '..', '..', 'vscode-ext');
const manifest = JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8'));
const { chooseServer, expandSettingPath } = require(path.join(ext, 'out', 'serverPath.js'));

test('the manifest activates on Python files and notebooks and contributes the settings', () => {
  assert.ok(manifest.activationEvents.includes('onLanguage:python'));
  assert.ok(manifest.activationEvents.includes('onNotebook:jupyter-notebook'));
  const commands = manifest.contributes.commands.map((c) => `${c.category}: ${c.title}`);
  assert.ok(commands.includes('devlint: Run on workspace'));
  const props = manifest.contributes.configuration.properties;
  for (const key of ['devlint.path', 'devlint.args', 'devlint.enable']) assert.ok(props[key], key);
  assert.equal(manifest.main, './out/extension.js');
  assert.ok(manifest.dependencies['vscode-languageclient']);
});

function executable(dir, name) {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\n');
  fs.chmodSync(file, 0o755);
  return file;
}

test('devlint.path wins, then the bundled bin/devlint, then PATH', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'devlint-ext-'));
  try {
    const extDir = path.join(tmp, 'extension');
    const pathDir = path.join(tmp, 'path-bin');
    const onPath = executable(pathDir, 'devlint');
    fs.mkdirSync(extDir, { recursive: true });
    assert.deepEqual(chooseServer('', extDir, undefined, pathDir), { command: onPath, source: 'PATH' });
    const bundled = executable(extDir, 'bin/devlint');
    assert.deepEqual(chooseServer('', extDir, undefined, pathDir), { command: bundled, source: 'bundled' });
    assert.deepEqual(chooseServer('/opt/devlint/devlint', extDir, undefined, pathDir), { command: '/opt/devlint/devlint', source: 'setting' });
    assert.deepEqual(chooseServer('', path.join(tmp, 'none'), undefined, path.join(tmp, 'empty')), { command: 'devlint', source: 'not found' });
    assert.equal(expandSettingPath('${workspaceFolder}/build/devlint', '/w'), '/w/build/devlint');
    assert.equal(expandSettingPath('build/devlint', '/w'), '/w/build/devlint');
    assert.equal(expandSettingPath('~/bin/devlint', '/w'), path.join(os.homedir(), 'bin/devlint'));
    assert.equal(expandSettingPath('devlint', '/w'), 'devlint');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
