// cass-lsp for VS Code: starts the `cass-lsp` language server for CUDA and HIP files, and adds the
// commands Translate File to HIP, Create HIP Translation, Show Assembly, Verify Now, Select Model,
// Show Server Log, Restart Server and Install Server (the server into a venv of the extension's own,
// offered when none is found), and a status bar item with the verification state.
import * as vscode from 'vscode';
import {
  CodeAction as LspCodeAction,
  CodeActionRequest,
  CodeActionResolveRequest,
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import { AssemblyViews } from './assembly';
import { Installer } from './install';
import { selectModel } from './models';
import { findServer, INSTALL_HINT, SECTION, ServerCommand, serverKeys, serverSettings } from './server';
import { LANGUAGES, StatusItem, VerificationStatus } from './status';

const VERIFY_COMMAND = 'cass.verify';
const VERIFICATION_STATUS = 'cass/verificationStatus';

let client: LanguageClient | undefined;
let server: ServerCommand | undefined;
let output: vscode.OutputChannel;
let status: StatusItem;
let keys: string[] = [];
let installer: Installer;

const INSTALL_COMMAND = 'cassLsp.installServer';
const INSTALL_BUTTON = 'Install cass-lsp';

// the build files the server ports (cass_lsp/buildfiles/files.py: kind())
const BUILD_FILES = '**/{CMakeLists.txt,*.cmake,Makefile,makefile,GNUmakefile,*.mk}';
const BUILD_FILE_NAME = /(^|\/)(CMakeLists\.txt|[^/]+\.cmake|Makefile|makefile|GNUmakefile|[^/]+\.mk)$/;

const documentSelector = LANGUAGES.flatMap((language) => [
  { scheme: 'file', language },
  { scheme: 'untitled', language },
]).concat([
  { scheme: 'file', pattern: '**/*.{cu,cuh,hip}' } as never,
  // build files: the server ports CMake and Make files (findings, "Translate file to HIP")
  { scheme: 'file', language: 'cmake' } as never,
  { scheme: 'file', language: 'makefile' } as never,
  { scheme: 'file', pattern: BUILD_FILES } as never, // by name: a fresh VS Code has no CMake language
]);

function settingsForServer(): Record<string, unknown> {
  return serverSettings(keys);
}

/** The notification of a missing server: its buttons act, and nothing waits for them. */
function offerInstall(missing: string): void {
  vscode.window
    .showErrorMessage(`cass-lsp: ${missing} ${INSTALL_HINT.replace(/`/g, "'")}`, INSTALL_BUTTON, 'Open Settings', 'Show Log')
    .then((choice) => {
      if (choice === INSTALL_BUTTON) void vscode.commands.executeCommand(INSTALL_COMMAND);
      if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'cass.server');
      if (choice === 'Show Log') output.show();
    });
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const lookup = findServer(installer.installedCommand());
  if ('missing' in lookup) {
    server = undefined;
    status.setServer('missing');
    output.appendLine(`cass-lsp not started: ${lookup.missing} (PATH: ${process.env.PATH ?? ''})`);
    offerInstall(lookup.missing);
    return;
  }
  server = lookup.found;
  output.appendLine(`starting ${server.command} ${[...server.prefix, ...server.extra].join(' ')} (from ${server.origin})`);
  const serverOptions: ServerOptions = {
    command: server.command,
    args: [...server.prefix, ...server.extra],
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector,
    outputChannel: output,
    diagnosticCollectionName: 'cass-lsp',
    initializationOptions: () => ({ [SECTION]: settingsForServer(), workspaceTrusted: vscode.workspace.isTrusted }),
    middleware: {
      workspace: {
        // answer the server's pull of `cass` with only the settings it knows
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return params.items.map((item, i) => (item.section === SECTION ? settingsForServer() : result[i]));
        },
      },
    },
  };
  const next = new LanguageClient('cass', 'cass-lsp', serverOptions, clientOptions);
  next.onDidChangeState((event) => {
    status.setServer(event.newState === State.Running ? 'running' : event.newState === State.Starting ? 'starting' : 'stopped');
  });
  next.onNotification(VERIFICATION_STATUS, (params: VerificationStatus) => status.update(params));
  client = next;
  status.setServer('starting');
  try {
    await next.start();
    status.setVerifies(next.initializeResult?.capabilities.executeCommandProvider?.commands?.includes(VERIFY_COMMAND) ?? false);
  } catch (error) {
    status.setServer('stopped');
    output.appendLine(`cass-lsp did not start: ${String(error)}`);
    void vscode.window.showErrorMessage(`cass-lsp did not start: ${String(error)}. See "cass-lsp: Show Server Log".`);
  }
  context.subscriptions.push({ dispose: () => void next.stop() });
}

async function stopClient(): Promise<void> {
  const old = client;
  client = undefined;
  if (old) await old.stop().catch(() => undefined);
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  await stopClient();
  await startClient(context);
}

function running(): LanguageClient {
  if (!client || client.state !== State.Running) {
    throw new Error('the cass-lsp server is not running (see "cass-lsp: Show Server Log")');
  }
  return client;
}

function cudaEditor(): vscode.TextEditor {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !(LANGUAGES.includes(editor.document.languageId) || /\.(cu|cuh|hip)$/.test(editor.document.uri.path))) {
    throw new Error('open a CUDA or HIP file first');
  }
  return editor;
}

/** The active editor when it holds a CUDA or HIP file or a build file (the whole-file translations). */
function translatableEditor(): vscode.TextEditor {
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document.uri.scheme === 'file' && BUILD_FILE_NAME.test(editor.document.uri.path)) return editor;
  try {
    return cudaEditor();
  } catch {
    throw new Error('open a CUDA or HIP file, or a CMake or Make file, first');
  }
}

/** The server's whole-file source action whose title matches, resolved to its edit. */
async function fileAction(editor: vscode.TextEditor, matches: (title: string) => boolean): Promise<LspCodeAction | undefined> {
  const lsp = running();
  const doc = editor.document;
  const end = doc.lineAt(doc.lineCount - 1).range.end;
  const actions = await lsp.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: doc.uri.toString() },
    range: { start: { line: 0, character: 0 }, end: { line: end.line, character: end.character } },
    context: { diagnostics: [], only: ['source'] },
  });
  const found = (actions ?? []).find((a): a is LspCodeAction => 'title' in a && !('command' in a && typeof a.command === 'string') && matches(a.title));
  if (!found || found.edit) return found;
  return lsp.sendRequest(CodeActionResolveRequest.type, found);
}

async function applyAction(action: LspCodeAction): Promise<vscode.WorkspaceEdit | undefined> {
  if (!action.edit) return undefined;
  const edit = await running().protocol2CodeConverter.asWorkspaceEdit(action.edit);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code did not apply "${action.title}"`);
  return edit;
}

async function translateFile(): Promise<void> {
  const editor = translatableEditor();
  const action = await fileAction(editor, (title) => /^Translate file to (HIP|CUDA)$/.test(title));
  if (!action) {
    void vscode.window.showInformationMessage('cass-lsp: nothing to translate in this file');
    return;
  }
  await applyAction(action);
}

async function createTranslation(): Promise<void> {
  const editor = translatableEditor();
  let action = await fileAction(editor, (title) => /^Create (HIP|CUDA) translation /.test(title));
  if (!action) {
    action = await fileAction(editor, (title) => /^Overwrite .* with (HIP|CUDA) translation$/.test(title));
    if (!action) throw new Error('the server offers no translation into a new file here');
    const answer = await vscode.window.showWarningMessage(`cass-lsp: ${action.title}?`, { modal: true }, 'Overwrite');
    if (answer !== 'Overwrite') return;
  }
  const edit = await applyAction(action);
  // open the new file beside the original
  const created = edit?.entries().map(([uri]) => uri).find((uri) => uri.toString() !== editor.document.uri.toString());
  if (created) {
    const doc = await vscode.workspace.openTextDocument(created);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  }
}

/** "Install cass-lsp": the install, then the server (re)started from it and doctor's findings. */
async function installServer(context: vscode.ExtensionContext): Promise<void> {
  if (installer.busy) {
    void vscode.window.showInformationMessage('cass-lsp: the install is running (see its progress notification).');
    return;
  }
  const outcome = await installer.install();
  const showLog = 'Show Install Log';
  if (!outcome.ok) {
    const text = outcome.cancelled
      ? 'cass-lsp: the install was cancelled; nothing was recorded as installed (run it again to go on).'
      : `cass-lsp: the install failed at "${outcome.step}": ${outcome.message}`;
    const choice = await (outcome.cancelled ? vscode.window.showInformationMessage : vscode.window.showErrorMessage)(
      text,
      showLog,
      'Retry',
    );
    if (choice === showLog) installer.log.show();
    if (choice === 'Retry') void vscode.commands.executeCommand(INSTALL_COMMAND);
    return;
  }
  await restart(context);
  const doctor = await installer.doctor(outcome.command);
  const running = server ? ` The server runs from ${server.origin}.` : '';
  const setup = outcome.setupProblem ? ` Setup could not finish: ${outcome.setupProblem}.` : '';
  if (typeof doctor === 'string') {
    void vscode.window.showWarningMessage(`cass-lsp: cass-lsp is installed.${running}${setup} ${doctor}`, showLog).then((c) => c && installer.log.show());
  } else if (doctor.ready && !setup) {
    void vscode.window.showInformationMessage(`cass-lsp: ${doctor.message}${running}`, showLog).then((c) => c && installer.log.show());
  } else {
    const copy = 'Copy Next Step';
    const choice = await vscode.window.showWarningMessage(`cass-lsp: ${doctor.message}${running}${setup}`, copy, showLog);
    if (choice === copy) await vscode.env.clipboard.writeText(doctor.nextSteps.join('\n'));
    if (choice === showLog) installer.log.show();
  }
}

async function verifyNow(): Promise<void> {
  const editor = cudaEditor();
  const lsp = running();
  const commands = lsp.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
  if (!commands.includes(VERIFY_COMMAND)) {
    throw new Error(`this cass-lsp has no verification (no "${VERIFY_COMMAND}" command); update the server`);
  }
  if (editor.document.isDirty) await editor.document.save();
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showInformationMessage('cass-lsp: restricted mode: the programs compiled for verification are not run until you trust this workspace.');
  }
  await lsp.sendRequest(ExecuteCommandRequest.type, { command: VERIFY_COMMAND, arguments: [editor.document.uri.toString()] });
}

function command(name: string, run: () => Promise<void> | void): vscode.Disposable {
  return vscode.commands.registerCommand(name, async () => {
    try {
      await run();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`cass-lsp: ${message}`);
    }
  });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  keys = serverKeys(context.extension.packageJSON);
  output = vscode.window.createOutputChannel('cass-lsp');
  status = new StatusItem();
  installer = new Installer(context);
  const views = new AssemblyViews(() => client);
  context.subscriptions.push(
    output,
    status,
    views,
    command('cassLsp.translateFile', translateFile),
    command('cassLsp.createTranslation', createTranslation),
    command('cassLsp.showAssembly', async () => {
      running();
      await views.show(cudaEditor());
    }),
    command('cassLsp.verifyNow', verifyNow),
    command('cassLsp.selectModel', async () => {
      if (!server) throw new Error(`cass-lsp was not found. ${INSTALL_HINT}`);
      await selectModel(server);
    }),
    command('cassLsp.showServerLog', () => output.show(true)),
    command('cassLsp.restartServer', () => restart(context)),
    command(INSTALL_COMMAND, () => installServer(context)),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('cass.server')) {
        await restart(context);
      } else if (event.affectsConfiguration(SECTION) && client?.state === State.Running) {
        await client.sendNotification(DidChangeConfigurationNotification.type, { settings: { [SECTION]: settingsForServer() } });
      }
    }),
    // the server learns the trust at start-up: trusting the workspace restarts it
    vscode.workspace.onDidGrantWorkspaceTrust(() => restart(context)),
  );
  await startClient(context);
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
