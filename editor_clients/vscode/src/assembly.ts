// Show Assembly: a source file's SASS / AMD listings in a read-only editor beside it. As the cursor
// moves in the source, the listing lines of the cursor's line are highlighted and scrolled into
// view; a click in the listing highlights the source line it came from. The view refreshes on save.
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';
import { AssemblyReply, buildView, View } from './listing';

export const SCHEME = 'cass-asm';
const ASSEMBLY_REQUEST = 'cass/assembly';

interface OpenView {
  source: vscode.Uri;
  asm: vscode.Uri;
  view: View;
  version: number;
}

export class AssemblyViews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly views = new Map<string, OpenView>(); // by the listing's URI
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly highlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('cassLsp.assemblyLineBackground'),
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor('cassLsp.assemblyLineBackground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly client: () => LanguageClient | undefined) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(SCHEME, this),
      vscode.window.onDidChangeTextEditorSelection((e) => this.selectionChanged(e)),
      vscode.window.onDidChangeVisibleTextEditors(() => this.followAll()),
      vscode.workspace.onDidSaveTextDocument((doc) => this.saved(doc)),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === SCHEME) this.views.delete(doc.uri.toString());
      }),
      this.changed,
      this.highlight,
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.views.clear();
  }

  /** The listing's URI of a source file: its path with `.asm` added, the source in the query. */
  static asmUri(source: vscode.Uri): vscode.Uri {
    return vscode.Uri.from({ scheme: SCHEME, path: `${source.path}.asm`, query: source.toString() });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const open = this.views.get(uri.toString());
    return open ? open.view.lines.join('\n') : '(no listing: run "cass-lsp: Show Assembly" in the source file)';
  }

  /** Asks the server for the listings of `editor`'s document and shows them beside it. */
  async show(editor: vscode.TextEditor): Promise<void> {
    const asm = AssemblyViews.asmUri(editor.document.uri);
    await this.refresh(editor.document, editor.selection.active.line);
    const doc = await vscode.workspace.openTextDocument(asm);
    const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === asm.toString());
    await vscode.window.showTextDocument(doc, {
      viewColumn: shown?.viewColumn ?? vscode.ViewColumn.Beside,
      preserveFocus: true,
      preview: false,
    });
    this.follow(editor);
  }

  private async refresh(source: vscode.TextDocument, line?: number): Promise<void> {
    const client = this.client();
    if (!client) throw new Error('the cass-lsp server is not running');
    const asm = AssemblyViews.asmUri(source.uri);
    const reply = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `cass-lsp: compiling ${source.uri.path.split('/').pop()}…` },
      () => client.sendRequest<AssemblyReply>(ASSEMBLY_REQUEST, { uri: source.uri.toString(), line }),
    );
    const view = buildView(reply.results ?? [], (n) => (n >= 1 && n <= source.lineCount ? source.lineAt(n - 1).text : ''));
    this.views.set(asm.toString(), { source: source.uri, asm, view, version: reply.version });
    this.changed.fire(asm);
  }

  private saved(doc: vscode.TextDocument): void {
    const asm = AssemblyViews.asmUri(doc.uri).toString();
    if (!this.views.has(asm)) return;
    this.refresh(doc).then(
      () => this.followAll(),
      (error: unknown) => void vscode.window.showWarningMessage(`cass-lsp: the listing did not refresh: ${String(error)}`),
    );
  }

  private viewOf(source: vscode.Uri): OpenView | undefined {
    return this.views.get(AssemblyViews.asmUri(source).toString());
  }

  private selectionChanged(event: vscode.TextEditorSelectionChangeEvent): void {
    const uri = event.textEditor.document.uri;
    if (uri.scheme === SCHEME) {
      if (event.kind !== undefined) this.back(event.textEditor);
      return;
    }
    if (this.viewOf(uri)) this.follow(event.textEditor);
  }

  private followAll(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.scheme !== SCHEME && this.viewOf(editor.document.uri)) this.follow(editor);
    }
  }

  /** Highlights the listing lines of the source editor's cursor line and scrolls to the first. */
  follow(source: vscode.TextEditor): void {
    const open = this.viewOf(source.document.uri);
    if (!open) return;
    const rows = open.view.rows.get(source.selection.active.line + 1) ?? [];
    const ranges = rows.map((row) => new vscode.Range(row, 0, row, 0));
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.toString() !== open.asm.toString()) continue;
      editor.setDecorations(this.highlight, ranges);
      if (ranges.length) editor.revealRange(ranges[0], vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
    source.setDecorations(this.highlight, []);
  }

  /** A click in the listing: highlight and reveal the source line that listing line stands for. */
  private back(asmEditor: vscode.TextEditor): void {
    const open = this.views.get(asmEditor.document.uri.toString());
    if (!open) return;
    const line = open.view.origin.get(asmEditor.selection.active.line);
    if (line === undefined) return;
    const rows = open.view.rows.get(line) ?? [];
    asmEditor.setDecorations(this.highlight, rows.map((row) => new vscode.Range(row, 0, row, 0)));
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.toString() !== open.source.toString()) continue;
      const range = new vscode.Range(line - 1, 0, line - 1, 0);
      editor.setDecorations(this.highlight, [range]);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }
}
