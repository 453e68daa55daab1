// The Python the installer makes its venv with: the first of python3.13 … python3.11, python3 on
// PATH that is 3.11 or newer and can make a venv with pip (Debian and Ubuntu split that into the
// python3-venv package).
import { execFile } from 'node:child_process';
import { onPath } from './server';

export const MIN_PYTHON: [number, number] = [3, 11];
const NAMES = ['python3.14', 'python3.13', 'python3.12', 'python3.11', 'python3'];
const PROBE = 'import sys; print("%d.%d" % sys.version_info[:2]); import venv, ensurepip';

export type PythonLookup = { found: string; version: string } | { missing: string };

interface Probe {
  program: string;
  version?: string;
  venv: boolean;
}

function probe(program: string): Promise<Probe> {
  return new Promise((resolve) => {
    execFile(program, ['-c', PROBE], { timeout: 20000 }, (error, stdout) => {
      const version = /^(\d+\.\d+)/.exec(stdout)?.[1];
      resolve({ program, version, venv: !error && version !== undefined });
    });
  });
}

function atLeast(version: string, [major, minor]: [number, number]): boolean {
  const [a, b] = version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

/** The Python to make the venv with, or what to install when there is none. */
export async function findPython(envPath = process.env.PATH ?? ''): Promise<PythonLookup> {
  const seen = new Set<string>();
  const probes: Probe[] = [];
  for (const name of NAMES) {
    const program = onPath(name, envPath);
    if (!program || seen.has(program)) continue;
    seen.add(program);
    const result = await probe(program);
    if (result.version && atLeast(result.version, MIN_PYTHON) && result.venv) {
      return { found: program, version: result.version };
    }
    probes.push(result);
  }
  const wanted = `Python ${MIN_PYTHON.join('.')} or newer`;
  const recent = probes.find((p) => p.version && atLeast(p.version, MIN_PYTHON));
  if (recent) {
    return {
      missing:
        `${recent.program} (Python ${recent.version}) cannot make a venv with pip: install its venv module ` +
        `(Debian/Ubuntu: sudo apt install python${recent.version}-venv; Fedora has it with python3).`,
    };
  }
  const found = probes.map((p) => `${p.program} (${p.version ? `Python ${p.version}` : 'does not run'})`).join(', ');
  return {
    missing:
      `cass-lsp needs ${wanted} on PATH${found ? `; found only ${found}` : ''}. Install one ` +
      '(Ubuntu 22.04: sudo apt install python3.11 python3.11-venv; Fedora: sudo dnf install python3).',
  };
}
