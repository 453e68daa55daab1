// `cass-lsp doctor --json` after an install: what the server found, and the next step for what it
// did not (the install hint of each missing tool, in the distribution's package manager's words).

export interface DoctorTool {
  name: string;
  found: boolean;
  version: string | null;
  path: string | null;
  hint: string | null;
  /** Set by cass-lsp doctor: the rule engine, listings and compile checks work without it. */
  optional?: boolean;
}

export interface DoctorReport {
  tools: DoctorTool[];
  /** How many required tools are missing. */
  missing: number;
}

/** The doctor's optional tools, as `doctor --json` marks them (the model and its runtime, the runners,
 * the tools that build ported projects): listings and translations work without them. */
export function isOptional(tool: DoctorTool): boolean {
  return tool.optional === true;
}

export function parseDoctor(stdout: string): DoctorReport {
  const report = JSON.parse(stdout) as Partial<DoctorReport>;
  if (!Array.isArray(report.tools) || typeof report.missing !== 'number') {
    throw new Error('cass-lsp doctor --json answered without "tools" and "missing"');
  }
  return { tools: report.tools, missing: report.missing };
}

export interface DoctorSummary {
  /** Every required tool is there. */
  ready: boolean;
  /** One notification line. */
  message: string;
  /** The install hints of the required tools that are missing: the next step. */
  nextSteps: string[];
}

export function summarize(report: DoctorReport): DoctorSummary {
  const required = report.tools.filter((t) => !t.found && !isOptional(t));
  const absent = report.tools.filter((t) => !t.found && isOptional(t)).map((t) => t.name);
  if (report.missing === 0) {
    const optional = absent.length ? ` Optional, not found: ${absent.join(', ')}.` : '';
    return { ready: true, message: `cass-lsp is installed and finds every tool it needs.${optional}`, nextSteps: [] };
  }
  const nextSteps = [...new Set(required.map((t) => t.hint).filter((h): h is string => !!h))];
  const names = required.map((t) => t.name).join(', ');
  return {
    ready: false,
    message:
      `cass-lsp is installed, but ${report.missing} tool(s) it needs are missing: ${names}. ` +
      `Next: ${nextSteps.join('; ') || 'see cass-lsp doctor'}`,
    nextSteps,
  };
}
