// The Show Assembly view's text, built from the structured `results` of a `cass/assembly` reply
// (not from its rendered `text`): building each line here is what tells which source line it stands
// for, exactly, so the cursor-follow highlighting cannot drift from a change in the server's layout.
// No vscode import: the e2e and unit checks can run it under plain Node.

export interface Instruction {
  index: number;
  address?: number | null;
  opcode?: string;
  text: string;
  file?: string | null;
  line?: number | null;
  inlinedAt?: { file?: string | null; line?: number | null }[];
}

export interface Resources {
  registers?: number;
  vgprs?: number;
  sgprs?: number;
  sharedBytes?: number;
  scratchBytes?: number;
  spillStoreBytes?: number;
  spillLoadBytes?: number;
  vgprSpills?: number;
  sgprSpills?: number;
  occupancy?: number | string;
  occupancyUnit?: string;
}

export interface ListingFunction {
  name: string;
  demangled?: string;
  kind?: string;
  instructions: Instruction[];
  labels?: Record<string, number>;
  resources?: Resources;
}

export interface TargetResult {
  kind: string;
  target: string;
  dialect?: string;
  source?: string;
  toolchain?: string | null;
  note?: string | null;
  functions?: ListingFunction[];
  message?: string;
  hint?: string | null;
  translated?: boolean;
  timedOut?: boolean;
  diagnostics?: { severity: string; line?: number | null; message: string }[];
}

export interface AssemblyReply {
  uri: string;
  version: number;
  results: TargetResult[];
  text?: string;
}

export interface View {
  lines: string[];
  /** 0-based view line -> 1-based source line it stands for. */
  origin: Map<number, number>;
  /** 1-based source line -> 0-based view lines, ascending. */
  rows: Map<number, number[]>;
  /** Whether a target was still compiling when the reply was made. */
  pending: boolean;
}

const basename = (file: string): string => file.slice(file.lastIndexOf('/') + 1);

function size(bytes: number): string {
  return bytes < 1024 || bytes % 1024 !== 0 ? `${bytes} B` : `${bytes / 1024} KiB`;
}

function resourceSummary(r: Resources, amd: boolean): string {
  const parts: string[] = [];
  if (r.vgprs) {
    parts.push(`${r.vgprs} VGPRs`);
    if (r.sgprs) parts.push(`${r.sgprs} SGPRs`);
  } else if (r.registers) {
    parts.push(`${r.registers} regs`);
  }
  if ((r.sharedBytes ?? 0) > 0) parts.push(`${size(r.sharedBytes ?? 0)}${amd ? ' LDS' : ' shared'}`);
  if ((r.scratchBytes ?? 0) > 0) parts.push(`${size(r.scratchBytes ?? 0)}${amd ? ' scratch' : ' stack'}`);
  if ((r.spillStoreBytes ?? 0) + (r.spillLoadBytes ?? 0) > 0) {
    parts.push(`spills ${r.spillStoreBytes ?? 0} B stored / ${r.spillLoadBytes ?? 0} B loaded`);
  } else if ((r.vgprSpills ?? 0) + (r.sgprSpills ?? 0) > 0) {
    parts.push(`spills ${r.vgprSpills ?? 0} VGPR / ${r.sgprSpills ?? 0} SGPR`);
  }
  if (r.occupancy) parts.push(`${r.occupancy} ${r.occupancyUnit ?? ''}`.trim());
  return parts.join(' · ');
}

function reasonLines(result: TargetResult): string[] {
  if (result.kind === 'unavailable') {
    return [`${result.message ?? 'unavailable'}${result.hint ? ` (install: ${result.hint})` : ''}`];
  }
  if (result.kind !== 'failure') return [result.message ?? result.kind];
  const origin = result.translated ? ' (in the rule translation)' : '';
  const out = [result.timedOut ? `compile ${result.note ?? 'timed out'}` : `does not compile${origin}`];
  for (const d of (result.diagnostics ?? []).slice(0, 20)) {
    out.push(`${d.severity}: ${d.line ? `line ${d.line}: ` : ''}${d.message}`);
  }
  return out;
}

/** The line of `source` an instruction came from: its own, else the first call site it was inlined
 * through that lies in `source`. */
function originOf(ins: Instruction, source: string | undefined): number | undefined {
  if (ins.file === source && ins.line) return ins.line;
  for (const loc of ins.inlinedAt ?? []) {
    if (loc.file === source && loc.line) return loc.line;
  }
  return undefined;
}

function labelsByIndex(labels: Record<string, number> | undefined): Map<number, string[]> {
  const at = new Map<number, string[]>();
  for (const [name, index] of Object.entries(labels ?? {})) {
    at.set(index, [...(at.get(index) ?? []), name].sort());
  }
  return at;
}

const pad = (text: string, width: number): string => text.padStart(width, ' ');

/** The view of a reply; `sourceText(n)` is the 1-based line n of the source as the editor has it. */
export function buildView(results: readonly TargetResult[], sourceText: (line: number) => string): View {
  const lines: string[] = [];
  const origin = new Map<number, number>();
  let pending = false;
  const add = (text: string, from?: number): void => {
    lines.push(text);
    if (from !== undefined) origin.set(lines.length - 1, from);
  };
  results.forEach((result, i) => {
    if (i > 0) add('');
    if (result.kind !== 'listing') {
      if (result.kind === 'pending') pending = true;
      add(`== ${result.target} ==`);
      for (const line of reasonLines(result)) add(`   ${line}`);
      return;
    }
    const source = result.source ?? '';
    add(`== ${result.target} · ${basename(source)} · ${result.toolchain ?? ''} ==`);
    if (result.note) add(`   (${result.note})`);
    const amd = result.dialect !== 'sass';
    for (const fn of result.functions ?? []) {
      add(`-- ${fn.demangled ?? fn.name}  [${fn.kind ?? ''}]  ${resourceSummary(fn.resources ?? {}, amd)}`.trimEnd());
      const labels = labelsByIndex(fn.labels);
      let lastHeader: string | undefined;
      for (const ins of fn.instructions) {
        for (const name of labels.get(ins.index) ?? []) add(`  ${name}:`);
        const from = originOf(ins, source);
        const elsewhere = ins.file && ins.line ? `${basename(ins.file)}:${ins.line}` : undefined;
        const header =
          from !== undefined ? `${pad(String(from), 5)} | ${sourceText(from).trimEnd()}` : `      | ${elsewhere ?? '(no source line)'}`;
        if (header !== lastHeader) {
          add(header, from);
          lastHeader = header;
        }
        const where = ins.address !== undefined && ins.address !== null ? ins.address.toString(16).padStart(4, '0') : pad(String(ins.index), 4);
        const note = from !== undefined && ins.file !== source && elsewhere ? `  ; ${elsewhere}` : '';
        add(`        ${where}  ${ins.text}${note}`, from);
      }
    }
  });
  const rows = new Map<number, number[]>();
  for (const [row, line] of origin) rows.set(line, [...(rows.get(line) ?? []), row]);
  for (const list of rows.values()) list.sort((a, b) => a - b);
  return { lines, origin, rows, pending };
}
