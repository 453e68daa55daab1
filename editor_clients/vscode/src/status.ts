// The status bar item: the server's state, and for the active CUDA/HIP document its verification
// state from the server's `cass/verificationStatus` notifications. A click runs Verify Now (or shows
// the server log when the server is not running).
import * as vscode from 'vscode';

export type VerificationState = 'queued' | 'running' | 'passed' | 'failed' | 'unverified' | 'off';
export type ServerState = 'starting' | 'running' | 'stopped' | 'missing';

export interface VerificationStatus {
  uri: string;
  version: number | null;
  state: VerificationState;
  summary: string;
  stages: { name: string; target: string | null; outcome: string; message: string }[];
}

export const LANGUAGES = ['cuda-cpp', 'cuda', 'hip'];

const LOOK: Record<VerificationState, { icon: string; label: string; color?: string }> = {
  queued: { icon: '$(clock)', label: 'verification queued' },
  running: { icon: '$(sync~spin)', label: 'verifying' },
  passed: { icon: '$(pass)', label: 'verified' },
  failed: { icon: '$(error)', label: 'verification failed', color: 'statusBarItem.errorBackground' },
  unverified: { icon: '$(circle-outline)', label: 'not verified' },
  off: { icon: '$(circle-slash)', label: 'verification off' },
};

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}

export class StatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('cass-lsp.status', vscode.StatusBarAlignment.Left, 50);
  private readonly byUri = new Map<string, VerificationStatus>();
  private server: ServerState = 'starting';
  private verifies = true;
  private readonly disposables: vscode.Disposable[];

  constructor() {
    this.item.name = 'cass-lsp';
    this.disposables = [
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.render()),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.byUri.delete(doc.uri.toString());
      }),
    ];
    this.render();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  setServer(state: ServerState): void {
    this.server = state;
    this.render();
  }

  /** Whether the running server offers verification (its `cass.verify` command). */
  setVerifies(verifies: boolean): void {
    this.verifies = verifies;
    this.render();
  }

  update(status: VerificationStatus): void {
    if (!status || typeof status.uri !== 'string') return;
    this.byUri.set(status.uri, status);
    this.render();
  }

  /** The last status of a document (for tests and Verify Now's answer). */
  get(uri: string): VerificationStatus | undefined {
    return this.byUri.get(uri);
  }

  render(): void {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !LANGUAGES.includes(editor.document.languageId)) {
      this.item.hide();
      return;
    }
    const trusted = vscode.workspace.isTrusted;
    const tooltip = new vscode.MarkdownString(undefined, true);
    this.item.backgroundColor = undefined;
    if (this.server !== 'running') {
      const words = { starting: 'starting…', stopped: 'stopped', missing: 'not found', running: '' }[this.server];
      this.item.text = `${this.server === 'starting' ? '$(loading~spin)' : '$(warning)'} cass-lsp`;
      tooltip.appendMarkdown(`**cass-lsp** ${words}\n\nClick for the server log.`);
      this.item.command = 'cassLsp.showServerLog';
    } else if (!this.verifies && !this.byUri.has(editor.document.uri.toString())) {
      this.item.text = '$(check) cass-lsp';
      tooltip.appendMarkdown('**cass-lsp** is running. This server offers no verification.\n\nClick for the server log.');
      this.item.command = 'cassLsp.showServerLog';
    } else {
      const status = this.byUri.get(editor.document.uri.toString());
      const look = LOOK[status?.state ?? 'unverified'];
      const stale = status && status.version !== null && status.version !== editor.document.version ? ' (older version)' : '';
      this.item.text = `${look.icon} HIP: ${look.label}`;
      if (look.color) this.item.backgroundColor = new vscode.ThemeColor(look.color);
      tooltip.appendMarkdown(`**cass-lsp** — ${look.label}${stale}\n\n`);
      if (status?.summary) tooltip.appendMarkdown(`${escape(status.summary)}\n\n`);
      for (const stage of status?.stages ?? []) {
        const target = stage.target ? ` (${escape(stage.target)})` : '';
        tooltip.appendMarkdown(`- ${escape(stage.name)}${target}: **${escape(stage.outcome)}**${stage.message ? ` — ${escape(stage.message)}` : ''}\n`);
      }
      if (!trusted) tooltip.appendMarkdown('\n\n$(shield) Restricted mode: compiled programs are not run until the workspace is trusted.');
      tooltip.appendMarkdown('\n\nClick to verify now.');
      this.item.command = 'cassLsp.verifyNow';
    }
    this.item.tooltip = tooltip;
    this.item.show();
  }
}
