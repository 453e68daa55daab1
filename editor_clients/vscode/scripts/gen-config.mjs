// Regenerates `contributes.configuration` in package.json from the server's settings schema, so the
// two never drift (tests/unit/test_vscode_settings.py checks the committed package.json against
// cass_lsp.core.settings.json_schema()).
//
// Usage: node scripts/gen-config.mjs [schema.json]   (without a file: runs `cass-lsp schema` of the
// repository's .venv, or $CASS_LSP)
//
// Each leaf of the schema's object tree becomes one dotted setting under `cass.` (objects are
// flattened: `cass.asm.extraArgs.nvcc`), with its type, default, enum, items and description; the
// client's own settings (`cass.server.*`, `cass.trace.server`) are added after them and are never
// sent to the server.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const extDir = path.resolve(here, '..');
const repo = path.resolve(extDir, '..', '..');

function loadSchema() {
  const file = process.argv[2];
  if (file) return JSON.parse(fs.readFileSync(file, 'utf8'));
  const exe = process.env.CASS_LSP || path.join(repo, '.venv', 'bin', 'cass-lsp');
  return JSON.parse(execFileSync(exe, ['schema'], { encoding: 'utf8' }));
}

const SECTION = 'cass';

/** Extra words for settings whose schema has no description (the Python fields' comments are not in
 * msgspec's schema). A key here that the schema does not have fails the generation. */
const NOTES = JSON.parse(fs.readFileSync(path.join(here, 'setting-notes.json'), 'utf8'));

/** Settings of the client itself: never sent to the server. */
export const CLIENT_SETTINGS = {
  'cass.server.path': {
    type: 'string',
    default: '',
    scope: 'machine-overridable',
    markdownDescription:
      'The `cass-lsp` executable. Empty: `cass-lsp` on `PATH`, else `.venv/bin/cass-lsp` of a workspace folder. Ignored when `#cass.server.pythonPath#` is set.',
  },
  'cass.server.pythonPath': {
    type: 'string',
    default: '',
    scope: 'machine-overridable',
    markdownDescription:
      'A Python interpreter that has cass-lsp installed: the server runs as `python -m cass_lsp`. Empty: use `#cass.server.path#`.',
  },
  'cass.server.args': {
    type: 'array',
    items: { type: 'string' },
    default: [],
    scope: 'machine-overridable',
    markdownDescription: 'More arguments for the server, e.g. `["--log-level", "debug"]`.',
  },
  'cass.trace.server': {
    type: 'string',
    enum: ['off', 'messages', 'verbose'],
    default: 'off',
    scope: 'window',
    markdownDescription: 'Log the LSP messages between VS Code and the server in the "cass-lsp" output.',
  },
};

const TITLES = {
  '': 'cass-lsp',
  target: 'cass-lsp: Target',
  translate: 'cass-lsp: Translation',
  diagnostics: 'cass-lsp: Diagnostics',
  asm: 'cass-lsp: Assembly',
  model: 'cass-lsp: CASS model',
  verification: 'cass-lsp: Verification',
  compilerLimits: 'cass-lsp: Compiler limits',
};

function resolve(schema, spec) {
  let seen = 0;
  while (spec && typeof spec.$ref === 'string') {
    if (++seen > 32) throw new Error(`$ref loop at ${spec.$ref}`);
    const name = spec.$ref.replace(/^#\/\$defs\//, '');
    const target = schema.$defs?.[name];
    if (!target) throw new Error(`unknown $ref ${spec.$ref}`);
    spec = { ...target, ...Object.fromEntries(Object.entries(spec).filter(([k]) => k !== '$ref')) };
  }
  return spec;
}

/** A sub-schema with every $ref replaced by its definition (for items and anyOf members). */
function inline(schema, spec, depth = 0) {
  if (depth > 16 || spec === null || typeof spec !== 'object') return spec;
  if (Array.isArray(spec)) return spec.map((s) => inline(schema, s, depth + 1));
  const out = {};
  for (const [key, value] of Object.entries(resolve(schema, spec))) {
    if (key === 'title' || key === 'required') continue;
    out[key] = inline(schema, value, depth + 1);
  }
  return out;
}

const isObjectTree = (spec) => spec.type === 'object' && spec.properties && !spec.anyOf;

function enumType(values) {
  const types = [...new Set(values.map((v) => (v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v)))];
  return types.length === 1 ? types[0] : types;
}

/** The VS Code setting for one leaf of the schema. */
export function leafSetting(schema, raw) {
  const spec = resolve(schema, raw);
  const setting = {};
  if (spec.anyOf && spec.anyOf.every((s) => Object.keys(resolve(schema, s)).every((k) => k === 'type'))) {
    setting.type = spec.anyOf.map((s) => resolve(schema, s).type).flat();
  } else if (spec.anyOf) {
    setting.anyOf = inline(schema, spec.anyOf);
  } else if (spec.type !== undefined) {
    setting.type = spec.type;
  } else if (spec.enum) {
    setting.type = enumType(spec.enum);
  }
  for (const key of ['enum', 'items', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'pattern', 'minItems', 'maxItems', 'additionalProperties', 'properties']) {
    if (spec[key] !== undefined) setting[key] = inline(schema, spec[key]);
  }
  if ('default' in spec) setting.default = spec.default;
  if (spec.description) setting.markdownDescription = spec.description;
  return setting;
}

/** [dotted key, VS Code setting] for each leaf, in the schema's order. */
export function flatten(schema) {
  const out = [];
  const walk = (spec, prefix) => {
    spec = resolve(schema, spec);
    for (const [key, child] of Object.entries(spec.properties)) {
      const resolved = resolve(schema, child);
      const dotted = `${prefix}.${key}`;
      if (isObjectTree(resolved)) walk(resolved, dotted);
      else out.push([dotted, leafSetting(schema, child)]);
    }
  };
  walk(schema, SECTION);
  return out;
}

export function configuration(schema) {
  const groups = new Map(Object.keys(TITLES).map((group) => [group, {}]));
  const leaves = flatten(schema);
  const known = new Set(leaves.map(([key]) => key));
  const stray = Object.keys(NOTES).filter((key) => !known.has(key));
  if (stray.length) throw new Error(`scripts/setting-notes.json names settings the schema lacks: ${stray.join(', ')}`);
  for (const [key, setting] of leaves) {
    if (!setting.markdownDescription && NOTES[key]) setting.markdownDescription = NOTES[key];
    const parts = key.split('.');
    const group = parts.length > 2 ? parts[1] : '';
    if (!groups.has(group)) groups.set(group, {});
    groups.get(group)[key] = setting;
  }
  groups.set('server', { ...CLIENT_SETTINGS });
  return [...groups.entries()]
    .filter(([, properties]) => Object.keys(properties).length)
    .map(([group, properties], order) => ({
      id: `cass-${group || 'general'}`,
      title: TITLES[group] ?? (group === 'server' ? 'cass-lsp: Server' : `cass-lsp: ${group}`),
      order,
      properties,
    }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const pkgPath = path.join(extDir, 'package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgPath, 'utf8'));
  const before = JSON.stringify(pkg.contributes.configuration);
  pkg.contributes.configuration = configuration(loadSchema());
  const text = `${JSON.stringify(pkg, null, 2)}\n`;
  if (fs.readFileSync(pkgPath, 'utf8') !== text) fs.writeFileSync(pkgPath, text);
  const count = pkg.contributes.configuration.reduce((n, g) => n + Object.keys(g.properties).length, 0);
  console.log(`contributes.configuration: ${count} settings${before === JSON.stringify(pkg.contributes.configuration) ? ' (unchanged)' : ' (updated package.json)'}`);
}
