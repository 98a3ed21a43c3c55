// The devlint extension: a thin client that starts `devlint lsp` (see serverPath.ts for which
// executable) and lets vscode-languageclient do the rest — diagnostics, quick fixes, notebook
// cells. Settings: devlint.enable, devlint.path, devlint.args (sent to the running server
// when they change), devlint.trace.server.
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';

import { chooseServer } from './serverPath';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;

function settings() {
  const config = vscode.workspace.getConfiguration('devlint');
  return {
    enable: config.get<boolean>('enable', true),
    path: config.get<string>('path', ''),
    args: config.get<string[]>('args', []),
  };
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const s = settings();
  if (!s.enable) {
    output.appendLine('devlint is disabled (devlint.enable is false)');
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const choice = chooseServer(s.path, context.extensionPath, folder);
  output.appendLine(`starting ${choice.command} lsp ${s.args.join(' ')} (${choice.source})`);
  if (choice.source === 'not found') {
    vscode.window.showErrorMessage(
      'devlint: no devlint executable found. Install devlint on PATH or set "devlint.path".',
    );
  }
  const serverOptions: ServerOptions = {
    command: choice.command,
    args: ['lsp', ...s.args],
    options: { cwd: folder },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
    ],
    synchronize: { configurationSection: 'devlint' },
    initializationOptions: { args: s.args, enable: s.enable },
    outputChannel: output,
  };
  client = new LanguageClient('devlint', 'devlint', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    output.appendLine(`devlint lsp failed to start: ${err}`);
    client = undefined;
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop();
}

async function runOnWorkspace(): Promise<void> {
  if (!client) {
    vscode.window.showWarningMessage('devlint: the language server is not running.');
    return;
  }
  const result = (await client.sendRequest(ExecuteCommandRequest.type, {
    command: 'devlint.checkWorkspace',
    arguments: [],
  })) as { filesChecked?: number; findings?: number } | null;
  const files = result?.filesChecked ?? 0;
  const findings = result?.findings ?? 0;
  vscode.window.showInformationMessage(
    `devlint: ${findings} problem${findings === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} (see the Problems view).`,
  );
}

// Starts and stops are queued so a settings change during a start cannot race it.
let lifecycle: Promise<void> = Promise.resolve();
function queue(step: () => Promise<void>): Promise<void> {
  lifecycle = lifecycle.then(step, step);
  return lifecycle;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('devlint');
  const restart = () => queue(async () => {
    await stop();
    await start(context);
  });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('devlint.runOnWorkspace', runOnWorkspace),
    vscode.commands.registerCommand('devlint.restart', restart),
    vscode.commands.registerCommand('devlint.showOutput', () => output.show()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // devlint.args reaches the running server by itself (workspace/didChangeConfiguration).
      if (e.affectsConfiguration('devlint.path') || e.affectsConfiguration('devlint.enable')) {
        output.appendLine('devlint.path or devlint.enable changed: restarting the server');
        return restart();
      }
    }),
  );
  await queue(() => start(context));
}

export async function deactivate(): Promise<void> {
  await queue(stop);
}
