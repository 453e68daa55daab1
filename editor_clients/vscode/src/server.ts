// Where the server is and what it is told: the `cass-lsp` command line from the client's own
// settings, and the `cass` settings the server knows (every key of the generated configuration
// except the client's `cass.server.*` and `cass.trace.*`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export const SECTION = 'cass';
const CLIENT_PREFIXES = ['cass.server.', 'cass.trace.'];

export const INSTALL_HINT =
  '"Install cass-lsp" (command "cass-lsp: Install Server") puts it in a venv of this extension, no root needed; ' +
  'or install it yourself (`pipx install cass_lsp-*.whl[nvidia]`, or `./scripts/setup.sh` in a clone) and set ' +
  '`cass.server.path` to the `cass-lsp` executable (or `cass.server.pythonPath` to its Python).';

export interface ServerCommand {
  /** The program to start. */
  command: string;
  /** Its arguments before the server's own (`-m cass_lsp` for a Python). */
  prefix: string[];
  /** More arguments for the server (`cass.server.args`). */
  extra: string[];
  /** Where the command came from, for messages. */
  origin: string;
}

export type Lookup = { found: ServerCommand } | { missing: string };

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `name` on PATH, or undefined. */
export function onPath(name: string, envPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function expand(value: string): string {
  const home = process.env.HOME ?? '';
  let out = value.startsWith('~/') ? path.join(home, value.slice(2)) : value;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (folder) out = out.replace(/\$\{workspaceFolder\}/g, folder);
  return out;
}

function resolveProgram(value: string): string | undefined {
  const expanded = expand(value);
  if (expanded.includes('/')) {
    const absolute = path.isAbsolute(expanded)
      ? expanded
      : path.join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd(), expanded);
    return isExecutable(absolute) ? absolute : undefined;
  }
  return onPath(expanded);
}

/** The server's command line from the settings, or why there is none. `managed`: the `cass-lsp`
 * the extension installed, taken last (a server the user installed or set wins). */
export function findServer(managed?: string): Lookup {
  const config = vscode.workspace.getConfiguration(SECTION);
  const extra = config.get<string[]>('server.args', []).filter((a) => typeof a === 'string');
  const python = config.get<string>('server.pythonPath', '').trim();
  if (python) {
    const program = resolveProgram(python);
    return program
      ? { found: { command: program, prefix: ['-m', 'cass_lsp'], extra, origin: `cass.server.pythonPath (${program})` } }
      : { missing: `cass.server.pythonPath is "${python}", which is not an executable file.` };
  }
  const configured = config.get<string>('server.path', '').trim();
  if (configured) {
    const program = resolveProgram(configured);
    return program
      ? { found: { command: program, prefix: [], extra, origin: `cass.server.path (${program})` } }
      : { missing: `cass.server.path is "${configured}", which is not an executable file.` };
  }
  const fromPath = onPath('cass-lsp');
  if (fromPath) return { found: { command: fromPath, prefix: [], extra, origin: `PATH (${fromPath})` } };
  // a workspace's own .venv only where the workspace is trusted: its files could be anything
  if (vscode.workspace.isTrusted) {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const candidate = path.join(folder.uri.fsPath, '.venv', 'bin', 'cass-lsp');
      if (isExecutable(candidate)) {
        return { found: { command: candidate, prefix: [], extra, origin: `the workspace's .venv (${candidate})` } };
      }
    }
  }
  if (managed) return { found: { command: managed, prefix: [], extra, origin: `the extension's install (${managed})` } };
  return { missing: 'cass-lsp is not on PATH and cass.server.path is not set.' };
}

interface ConfigurationGroup {
  properties?: Record<string, unknown>;
}

/** The dotted keys of the settings the server knows, from the extension's package.json. */
export function serverKeys(packageJSON: { contributes?: { configuration?: ConfigurationGroup[] | ConfigurationGroup } }): string[] {
  const groups = packageJSON.contributes?.configuration ?? [];
  const list = Array.isArray(groups) ? groups : [groups];
  return list
    .flatMap((group) => Object.keys(group.properties ?? {}))
    .filter((key) => key.startsWith(`${SECTION}.`) && !CLIENT_PREFIXES.some((p) => key.startsWith(p)));
}

/** The `cass` object for the server: each known key's effective value, nested by its dots. */
export function serverSettings(keys: readonly string[], resource?: vscode.Uri): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration(undefined, resource);
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = config.get(key);
    if (value === undefined) continue;
    const parts = key.split('.').slice(1);
    let node = out;
    for (const part of parts.slice(0, -1)) {
      if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = value;
  }
  return out;
}

/** The argv prefix that runs a `cass-lsp` verb (`models list --json`) with the server's program. */
export function cliArgv(server: ServerCommand): [string, string[]] {
  return [server.command, [...server.prefix]];
}
