// Which devlint executable the extension starts: the `devlint.path` setting, else the binary
// bundled in the extension (bin/devlint), else `devlint` on PATH. Kept free of the vscode API
// so the choice can be tested in plain node (tests/lsp/extension.test.js).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface ServerChoice {
  command: string;
  source: 'setting' | 'bundled' | 'PATH' | 'not found';
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `~` and `${workspaceFolder}` expanded; a relative path is taken from the workspace folder. */
export function expandSettingPath(value: string, workspaceFolder: string | undefined): string {
  let p = value.trim();
  if (p === '~' || p.startsWith('~/')) p = path.join(os.homedir(), p.slice(1));
  if (workspaceFolder) p = p.split('${workspaceFolder}').join(workspaceFolder);
  if (!path.isAbsolute(p) && p.includes(path.sep) && workspaceFolder) p = path.join(workspaceFolder, p);
  return p;
}

export function findOnPath(name: string, envPath: string | undefined): string | undefined {
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

export function chooseServer(
  setting: string | undefined,
  extensionPath: string,
  workspaceFolder: string | undefined,
  envPath: string | undefined = process.env.PATH,
): ServerChoice {
  if (setting && setting.trim()) {
    return { command: expandSettingPath(setting, workspaceFolder), source: 'setting' };
  }
  const bundled = path.join(extensionPath, 'bin', process.platform === 'win32' ? 'devlint.exe' : 'devlint');
  if (isExecutable(bundled)) return { command: bundled, source: 'bundled' };
  const onPath = findOnPath('devlint', envPath);
  if (onPath) return { command: onPath, source: 'PATH' };
  return { command: 'devlint', source: 'not found' };
}
