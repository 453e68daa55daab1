// One child process of the installer: an argv (no shell) in its own process group, its output
// appended to a log, killed with its whole group on timeout or cancel.
import { spawn } from 'node:child_process';
import * as vscode from 'vscode';

export interface ChildResult {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  /** Why it did not finish on its own: 'timeout' or 'cancelled'. */
  stopped?: 'timeout' | 'cancelled';
  /** Its stdout and stderr, interleaved. */
  output: string;
  /** Its stdout alone. */
  stdout: string;
}

export interface ChildOptions {
  timeoutMs: number;
  token: vscode.CancellationToken;
  /** Where the command line and its output go (none: nowhere). */
  log?: vscode.OutputChannel;
  env?: NodeJS.ProcessEnv;
  /** Called with each line the child writes (for a progress message). */
  onLine?: (line: string) => void;
}

const KILL_GRACE_MS = 3000;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/** Runs `argv` to its end (or its timeout, or the token's cancel); never rejects for its exit. */
export function runChild(argv: string[], options: ChildOptions): Promise<ChildResult> {
  const { log, token } = options;
  log?.appendLine(`$ ${argv.map((a) => (/[\s'"]/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  return new Promise((resolve) => {
    let output = '';
    let stdout = '';
    let stopped: ChildResult['stopped'];
    let pending = '';
    const child = spawn(argv[0], argv.slice(1), {
      detached: true, // its own process group: a kill reaches pip's and setup's children too
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
    });
    const take = (chunk: Buffer): void => {
      const text = chunk.toString();
      output += text;
      log?.append(text);
      // progress bars redraw with \r: each redraw counts as a line
      const lines = (pending + text).split(/\r\n|\r|\n/);
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) options.onLine?.(line.trim());
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      take(chunk);
    });
    child.stderr?.on('data', take);
    const stop = (why: 'timeout' | 'cancelled'): void => {
      if (stopped || child.pid === undefined || child.exitCode !== null) return;
      stopped = why;
      log?.appendLine(`\n[${why === 'timeout' ? `timed out after ${options.timeoutMs / 1000} s` : 'cancelled'}: stopping its process group]`);
      killGroup(child.pid, 'SIGTERM');
      setTimeout(() => killGroup(child.pid as number, 'SIGKILL'), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    const cancel = token.onCancellationRequested(() => stop('cancelled'));
    if (token.isCancellationRequested) stop('cancelled');
    const finish = (code: number | null, error?: Error): void => {
      clearTimeout(timer);
      cancel.dispose();
      if (error) {
        output += String(error);
        log?.appendLine(`[cannot run ${argv[0]}: ${error.message}]`);
      }
      resolve({ code, stopped, output, stdout });
    };
    child.on('error', (error) => finish(null, error));
    child.on('close', (code) => finish(code));
  });
}
