// Select Model: the CASS models from `cass-lsp models list --json`, picked in a quick pick; a
// translation model (role src) goes to `cass.model.name`, an assembly model (role asm) to
// `cass.model.assemblyName`.
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { cliArgv, ServerCommand } from './server';

export interface ModelRow {
  name: string;
  role: string;
  direction?: string | null;
  status: string;
  size?: number | null;
  path?: string | null;
  hf_repo?: string | null;
}

export function listModels(server: ServerCommand): Promise<ModelRow[]> {
  const [program, prefix] = cliArgv(server);
  return new Promise((resolve, reject) => {
    execFile(program, [...prefix, 'models', 'list', '--json'], { timeout: 60_000, maxBuffer: 8 << 20 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`\`cass-lsp models list\` failed: ${stderr.trim() || error.message}`));
        return;
      }
      try {
        const rows: unknown = JSON.parse(stdout);
        if (!Array.isArray(rows)) throw new Error('not a list');
        resolve(rows as ModelRow[]);
      } catch (parse) {
        reject(new Error(`\`cass-lsp models list --json\` printed no list: ${String(parse)}`));
      }
    });
  });
}

function sizeText(bytes: number | null | undefined): string {
  if (!bytes) return '';
  return bytes >= 1 << 30 ? `${(bytes / (1 << 30)).toFixed(1)} GiB` : `${Math.round(bytes / (1 << 20))} MiB`;
}

export function settingFor(model: ModelRow): 'model.name' | 'model.assemblyName' {
  return model.role === 'asm' ? 'model.assemblyName' : 'model.name';
}

interface Item extends vscode.QuickPickItem {
  model?: ModelRow;
  clear?: 'model.name' | 'model.assemblyName';
}

export async function selectModel(server: ServerCommand): Promise<void> {
  const models = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'cass-lsp: listing the models…' },
    () => listModels(server),
  );
  const config = vscode.workspace.getConfiguration('cass');
  const current = new Set([config.get<string | null>('model.name'), config.get<string | null>('model.assemblyName')]);
  const items: Item[] = [];
  for (const role of ['src', 'asm']) {
    const ofRole = models.filter((m) => (role === 'asm') === (m.role === 'asm'));
    if (!ofRole.length) continue;
    items.push({ label: role === 'asm' ? 'Assembly models (cass.model.assemblyName)' : 'Translation models (cass.model.name)', kind: vscode.QuickPickItemKind.Separator });
    for (const model of ofRole) {
      items.push({
        label: `${current.has(model.name) ? '$(check) ' : ''}${model.name}`,
        description: [model.direction, model.status, sizeText(model.size)].filter(Boolean).join(' · '),
        detail: model.path ?? (model.hf_repo ? `not added yet (huggingface.co/${model.hf_repo})` : undefined),
        model,
      });
    }
  }
  items.push({ label: 'None', kind: vscode.QuickPickItemKind.Separator });
  items.push({ label: '$(close) No translation model', description: 'clears cass.model.name', clear: 'model.name' });
  items.push({ label: '$(close) No assembly model', description: 'clears cass.model.assemblyName', clear: 'model.assemblyName' });
  const picked = await vscode.window.showQuickPick(items, { title: 'cass-lsp: Select Model', matchOnDescription: true, matchOnDetail: true });
  if (!picked) return;
  const target = vscode.ConfigurationTarget.Global;
  if (picked.clear) {
    await config.update(picked.clear, undefined, target);
    return;
  }
  const model = picked.model;
  if (!model) return;
  if (model.status === 'not added') {
    void vscode.window.showWarningMessage(
      `cass-lsp: ${model.name} has no file yet: convert it to GGUF (gguf/README.md in the cass-lsp repository), then run \`cass-lsp models add FILE\`.`,
    );
    return;
  }
  await config.update(settingFor(model), model.name, target);
  void vscode.window.showInformationMessage(`cass-lsp: cass.model.${settingFor(model).split('.')[1]} is now ${model.name}.`);
}
