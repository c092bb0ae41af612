import { z } from "zod";
import { type Fields, isRecord, joinPath, newNotes, readFields, type ReadNotes } from "./fields";
import { type FileResult, type ReadOptions, readTypedFile } from "./json";

export const SANITIZER_REPORT_SCHEMA = "aorta.sanitizer_report/0.1";

const str = z.string();
const obj = z.looseObject({});

const reportSpec = {
  schema: str,
  overall_verdict: str,
  execution_status: str,
  target: str,
  checks: z.array(z.unknown()),
  worklist: obj.nullable(),
};

const checkSpec = {
  sanitizer: str,
  state: str,
  verdict: str,
  reason: str.nullable(),
  returncode: z.number().int().nullable(),
  backend: obj.nullable(),
  coverage: z.array(obj),
  diagnostics_truncated: z.boolean(),
  findings: z.array(z.unknown()),
  kernel_results: z.array(obj),
};

const findingSpec = {
  code: str,
  severity: str,
  sanitizer: str,
  message: str,
  code_object: str.nullable(),
  kernel_name: str.nullable(),
  entry_offset: z.union([z.number(), str]).nullable(),
  metadata: z.record(z.string(), z.unknown()),
};

export interface SanitizerFinding extends Fields<typeof findingSpec> {
  extra: Record<string, unknown>;
}

export interface SanitizerCheck extends Omit<Fields<typeof checkSpec>, "findings"> {
  findings: SanitizerFinding[];
  extra: Record<string, unknown>;
}

export interface SanitizerReport extends Omit<Fields<typeof reportSpec>, "checks"> {
  checks: SanitizerCheck[];
  extra: Record<string, unknown>;
  missingFields: string[];
  warnings: string[];
}

export function readSanitizerReport(raw: unknown, file = "sanitizer_report.json"): SanitizerReport {
  if (!isRecord(raw)) throw new Error(`${file}: expected a JSON object, found ${Array.isArray(raw) ? "an array" : typeof raw}`);
  const notes = newNotes();
  const { fields, extra } = readFields(raw, reportSpec, "", notes);
  if (fields.schema !== null && fields.schema !== SANITIZER_REPORT_SCHEMA) {
    notes.warnings.push(`${file}: schema ${JSON.stringify(fields.schema)} is not known (expected ${SANITIZER_REPORT_SCHEMA}); read best-effort`);
  }
  const checks: SanitizerCheck[] = [];
  (fields.checks ?? []).forEach((c, i) => {
    const at = joinPath("checks", i);
    if (!isRecord(c)) return void notes.warnings.push(`${at}: not an object; skipped`);
    const { fields: cf, extra: cExtra } = readFields(c, checkSpec, at, notes);
    checks.push({ ...cf, findings: readFindings(cf.findings ?? [], joinPath(at, "findings"), notes), extra: cExtra });
  });
  return { ...fields, checks, extra, missingFields: notes.missingFields, warnings: notes.warnings };
}

function readFindings(list: unknown[], at: string, notes: ReadNotes): SanitizerFinding[] {
  const out: SanitizerFinding[] = [];
  list.forEach((f, j) => {
    const where = joinPath(at, j);
    if (!isRecord(f)) return void notes.warnings.push(`${where}: not an object; skipped`);
    const { fields, extra } = readFields(f, findingSpec, where, notes);
    out.push({ ...fields, extra });
  });
  return out;
}

export function readSanitizerReportFile(file: string, label = "sanitizer_report.json", options?: ReadOptions): FileResult<SanitizerReport> {
  return readTypedFile(file, label, readSanitizerReport, options);
}

export interface FindingGroup {
  sanitizer: string | null;
  code: string | null;
  severity: string | null;
  count: number;
  kernels: string[];
  example: string | null;
}

/** Findings grouped by (sanitizer, code, severity), biggest group first, as the dashboard shows them. */
export function groupFindings(report: SanitizerReport): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const check of report.checks) {
    for (const f of check.findings) {
      const sanitizer = f.sanitizer ?? check.sanitizer;
      const key = JSON.stringify([sanitizer, f.code, f.severity]);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { sanitizer, code: f.code, severity: f.severity, count: 0, kernels: [], example: f.message }));
      g.count += 1;
      if (f.kernel_name && !g.kernels.includes(f.kernel_name)) g.kernels.push(f.kernel_name);
    }
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

export function findingCount(report: SanitizerReport): number {
  return report.checks.reduce((n, c) => n + c.findings.length, 0);
}

const metaSpec = {
  commit: str,
  date: str,
  gate: z.boolean(),
  gpu: str,
  run: str,
  run_url: str,
};

export interface RunMeta extends Fields<typeof metaSpec> {
  extra: Record<string, unknown>;
  missingFields: string[];
  warnings: string[];
}

/** Dashboard `runs/<id>/meta.json`. */
export function readMeta(raw: unknown, file = "meta.json"): RunMeta {
  if (!isRecord(raw)) throw new Error(`${file}: expected a JSON object, found ${Array.isArray(raw) ? "an array" : typeof raw}`);
  const notes = newNotes();
  const { fields, extra } = readFields(raw, metaSpec, "", notes);
  return { ...fields, extra, missingFields: notes.missingFields, warnings: notes.warnings };
}

export function readMetaFile(file: string, label = "meta.json", options?: ReadOptions): FileResult<RunMeta> {
  return readTypedFile(file, label, readMeta, options);
}
