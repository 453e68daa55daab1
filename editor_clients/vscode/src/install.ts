// "Install cass-lsp": the server in a venv of its own under the extension's global storage (no root),
// from the wheel the .vsix carries (server/cass_lsp-*.whl, with the `nvidia` extra from the package
// index), then `cass-lsp setup` for the user cache, then `cass-lsp doctor --json`.
//
// Nothing half-installed is used: the install is recorded (globalState) only once every step
// succeeded, and the record is dropped when a new install starts. Running it again is safe: a venv
// that works is kept, pip installs what is missing and puts the carried wheel in place again (a
// rebuilt wheel has the same version), setup checks what it already did. One install at a time,
// across windows too (a lock file with the installing extension host's pid).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ChildResult, runChild } from './child';
import { DoctorSummary, parseDoctor, summarize } from './doctor';
import { findPython } from './python';

const RECORD_KEY = 'cass.managedServer';
const MINUTE = 60_000;

export type InstallOutcome =
  | { ok: true; command: string; setupProblem?: string }
  | { ok: false; cancelled: boolean; step: string; message: string };

/** A step that did not succeed: its label and why. */
class StepFailed extends Error {
  constructor(
    readonly step: string,
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
  }
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function lastLines(text: string, count: number): string {
  return text.split(/\r?\n|\r/).filter((l) => l.trim()).slice(-count).join('\n');
}

/** The environment of the installer's children: ours without what would point Python elsewhere. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PYTHONUNBUFFERED: '1' };
  for (const name of ['PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV', 'PIP_REQUIRE_VIRTUALENV', 'PIP_USER']) delete env[name];
  return env;
}

export class Installer {
  readonly log: vscode.OutputChannel;
  private running: Promise<InstallOutcome> | undefined;
  /** Cancelled when the extension stops: an install's children (pip, setup) must not outlive it. */
  private readonly stopping = new vscode.CancellationTokenSource();

  constructor(private readonly context: vscode.ExtensionContext) {
    this.log = vscode.window.createOutputChannel('cass-lsp: install');
    context.subscriptions.push(this.log, { dispose: () => this.stopping.cancel() });
  }

  private get root(): string {
    return path.join(this.context.globalStorageUri.fsPath, 'server');
  }

  private get venv(): string {
    return path.join(this.root, 'venv');
  }

  /** The `cass-lsp` of a finished install (recorded at its end), if it is still there. */
  installedCommand(): string | undefined {
    const command = this.context.globalState.get<string>(RECORD_KEY);
    return command && isExecutable(command) ? command : undefined;
  }

  /** The wheel this extension carries. */
  private wheel(): string {
    const folder = path.join(this.context.extensionPath, 'server');
    const wheels = fs.existsSync(folder) ? fs.readdirSync(folder).filter((n) => /^cass_lsp-.*\.whl$/.test(n)) : [];
    if (wheels.length !== 1) {
      throw new StepFailed(
        'find the wheel',
        `this extension should carry one cass-lsp wheel in ${folder}, and it has ${wheels.length} ` +
          '(a .vsix built without scripts/vscode.sh?)',
      );
    }
    return path.join(folder, wheels[0]);
  }

  /** An install runs in this window. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Installs (one install at a time in this window; a second call waits for the first). */
  install(): Promise<InstallOutcome> {
    this.running ??= Promise.resolve(
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Installing cass-lsp', cancellable: true },
        (progress, token) => this.run(progress, token),
      ),
    ).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(
    progress: vscode.Progress<{ message?: string; increment?: number }>,
    token: vscode.CancellationToken,
  ): Promise<InstallOutcome> {
    const started = Date.now();
    this.log.appendLine(`=== ${new Date().toISOString()}: installing cass-lsp into ${this.venv}`);
    fs.mkdirSync(this.root, { recursive: true });
    let unlock: (() => void) | undefined;
    const either = new vscode.CancellationTokenSource(); // the user's Cancel, or the extension stopping
    const links = [token, this.stopping.token].map((t) => t.onCancellationRequested(() => either.cancel()));
    try {
      unlock = this.lock();
      await this.context.globalState.update(RECORD_KEY, undefined); // not installed until the end
      const outcome = await this.steps(progress, either.token);
      this.log.appendLine(`=== installed in ${((Date.now() - started) / 1000).toFixed(1)} s: ${outcome.command}`);
      return outcome;
    } catch (error) {
      if (!(error instanceof StepFailed)) throw error;
      this.log.appendLine(`=== ${error.cancelled ? 'cancelled' : 'failed'} at "${error.step}": ${error.message}`);
      return { ok: false, cancelled: error.cancelled, step: error.step, message: error.message };
    } finally {
      unlock?.();
      links.forEach((link) => link.dispose());
      either.dispose();
    }
  }

  /** A lock file holding our pid; one left by an extension host that is gone is taken over. */
  private lock(): () => void {
    const file = path.join(this.root, 'install.lock');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
        return () => fs.rmSync(file, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const pid = Number(fs.readFileSync(file, 'utf8'));
        if (pid > 0 && pid !== process.pid && alive(pid)) {
          throw new StepFailed('start', `another VS Code window is installing cass-lsp (process ${pid}); wait for it`);
        }
        fs.rmSync(file, { force: true });
      }
    }
    throw new StepFailed('start', `cannot take the install lock ${file}`);
  }

  private async steps(
    progress: vscode.Progress<{ message?: string; increment?: number }>,
    token: vscode.CancellationToken,
  ): Promise<{ ok: true; command: string; setupProblem?: string }> {
    const total = 5;
    let index = 0;
    let lastReport = 0;
    const begin = (label: string): string => {
      index += 1;
      progress.report({ message: `[${index}/${total}] ${label}`, increment: 100 / total });
      return label;
    };
    // the child's last line as the progress message, a few times a second at most
    const follow = (label: string) => (line: string) => {
      if (Date.now() - lastReport < 250) return;
      lastReport = Date.now();
      progress.report({ message: `[${index}/${total}] ${label}: ${line.slice(0, 100)}` });
    };
    const attempt = async (label: string, argv: string[], timeoutMs: number): Promise<ChildResult> => {
      const result = await runChild(argv, { timeoutMs, token, log: this.log, env: childEnv(), onLine: follow(label) });
      if (result.stopped === 'cancelled') throw new StepFailed(label, 'cancelled', true);
      return result;
    };
    const must = async (label: string, argv: string[], timeoutMs: number): Promise<void> => {
      const result = await attempt(label, argv, timeoutMs);
      if (result.stopped === 'timeout') throw new StepFailed(label, `no end after ${timeoutMs / MINUTE} min`);
      if (result.code !== 0) throw new StepFailed(label, `exit ${result.code ?? 'by a signal'}: ${lastLines(result.output, 6)}`);
    };

    const wheel = this.wheel();
    let step = begin('find Python 3.11+');
    const python = await findPython();
    if ('missing' in python) throw new StepFailed(step, python.missing);
    this.log.appendLine(`Python ${python.version}: ${python.found}`);

    step = begin('create the venv');
    const venvPython = path.join(this.venv, 'bin', 'python');
    const usable = isExecutable(venvPython) && (await attempt(step, [venvPython, '-c', 'import pip'], MINUTE)).code === 0;
    if (!usable) {
      fs.rmSync(this.venv, { recursive: true, force: true }); // a venv cut short, or of a Python now gone
      await must(step, [python.found, '-m', 'venv', this.venv], 5 * MINUTE);
    } else {
      this.log.appendLine(`${this.venv} works: kept`);
    }

    step = begin(`pip install ${path.basename(wheel)}[nvidia]`);
    const pip = [venvPython, '-m', 'pip', 'install', '--no-input', '--progress-bar', 'off'];
    await must(step, [...pip, `${wheel}[nvidia]`], 30 * MINUTE);
    // the carried wheel itself, also when a wheel of the same version is installed already
    await must(step, [...pip, '--force-reinstall', '--no-deps', wheel], 5 * MINUTE);
    const command = path.join(this.venv, 'bin', 'cass-lsp');

    // setup prepares the user cache; a part it cannot do (no network, say) leaves the server
    // working without that part, and doctor names what is missing
    step = begin('cass-lsp setup');
    const setup = await attempt(step, [command, 'setup'], 30 * MINUTE);
    const setupProblem =
      setup.stopped === 'timeout'
        ? `cass-lsp setup did not end in 30 min`
        : setup.code !== 0
          ? `cass-lsp setup: ${lastLines(setup.output, 3)}`
          : undefined;

    begin('record the install');
    await this.context.globalState.update(RECORD_KEY, command);
    return { ok: true, command, setupProblem };
  }

  /** `cass-lsp doctor` (its text into the log) and its JSON report summarized, or why there is none. */
  async doctor(command: string): Promise<DoctorSummary | string> {
    const options = { timeoutMs: 2 * MINUTE, token: this.stopping.token, env: childEnv() };
    await runChild([command, 'doctor'], { ...options, log: this.log });
    const result = await runChild([command, 'doctor', '--json'], options);
    try {
      return summarize(parseDoctor(result.stdout));
    } catch (error) {
      return `cass-lsp doctor --json gave no report (exit ${result.code}): ${String(error)}`;
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
