import type { EnvDoc } from "./env";
import type { RunLayout } from "./layout";
import { timestampToIso } from "./layout";
import { isFailedCell, type Matrix, type MatrixCell, matrixVerdict } from "./matrix";
import { type RunData, runErrors, runWarnings } from "./run";
import { findingCount } from "./sanitizer";

export type RunKind = "matrix" | "sanitizer" | "dashboard-run" | "env" | "other";

export interface FailedCell {
  name: string;
  index: number;
  failed_count: number | null;
  error_count: number | null;
  /** Whole-cell failure (nothing ran). */
  error: string | null;
}

export interface RunSummary {
  rel: string;
  dir: string;
  layout: RunLayout;
  kind: RunKind;
  /** ISO-8601 when it could be read as an instant, else as recorded. */
  when: string | null;
  whenSource: "path" | "matrix.run_timestamp" | "captured_at" | "meta.date" | "env.date" | null;
  ticket: string | null;
  workload: string | null;
  case: string | null;
  caseClass: "guardrail" | "survey" | null;
  cellCount: number | null;
  /** Cells with failed_count > 0 or a whole-cell error. */
  failedCellCount: number | null;
  failedCells: FailedCell[];
  /** Matrix runs: pass / fail / error / unknown. Sanitizer runs: the report's verdict, else the manifest's observed one. */
  verdict: string | null;
  verdictSource: "matrix" | "sanitizer_report" | "observed" | "meta.gate" | null;
  findings: number | null;
  /** True if any probe snapshot of the run is partial; null when none recorded it. */
  partialEnv: boolean | null;
  missingFieldCount: number;
  errors: string[];
  warnings: string[];
}

export function cellLabel(cell: MatrixCell): string {
  return cell.name ?? `cells[${cell.index}]`;
}

export function failedCells(m: Matrix): FailedCell[] {
  return m.cells.filter(isFailedCell).map((c) => ({
    name: cellLabel(c),
    index: c.index,
    failed_count: c.failed_count,
    error_count: c.error_count,
    error: c.error === "" ? null : c.error,
  }));
}

function probeEnvs(run: RunData): EnvDoc[] {
  const docs: EnvDoc[] = [];
  for (const r of [run.hostEnv, run.env, ...run.environments.map((e) => e.env)]) if (r?.ok) docs.push(r.data);
  return docs;
}

export function summarizeRun(run: RunData): RunSummary {
  const { entry } = run;
  const matrix = run.matrix?.ok ? run.matrix.data : null;
  const report = run.sanitizerReport?.ok ? run.sanitizerReport.data : null;
  const meta = run.meta?.ok ? run.meta.data : null;
  const envs = probeEnvs(run);
  const manifest = envs.find((e) => e.kind === "run-area") ?? null;
  const probes = envs.flatMap((e) => (e.kind === "probe" ? [e] : []));

  const kind: RunKind = run.matrix
    ? "matrix"
    : run.sanitizerReport || manifest
      ? "sanitizer"
      : run.meta
        ? "dashboard-run"
        : probes.length || run.env || run.hostEnv
          ? "env"
          : "other";

  let when: string | null = null;
  let whenSource: RunSummary["whenSource"] = null;
  const candidates: [string | null | undefined, NonNullable<RunSummary["whenSource"]>][] = [
    [entry.timestamp, "path"],
    [matrix?.header.run_timestamp, "matrix.run_timestamp"],
    [probes.find((p) => p.captured_at)?.captured_at, "captured_at"],
    [meta?.date, "meta.date"],
    [manifest?.kind === "run-area" ? manifest.date : null, "env.date"],
  ];
  for (const [v, source] of candidates) {
    if (v) {
      when = timestampToIso(v) ?? v;
      whenSource = source;
      break;
    }
  }

  let verdict: string | null = null;
  let verdictSource: RunSummary["verdictSource"] = null;
  if (kind === "matrix") {
    verdict = matrix ? matrixVerdict(matrix) : "unknown";
    verdictSource = "matrix";
  } else if (report?.overall_verdict) {
    verdict = report.overall_verdict;
    verdictSource = "sanitizer_report";
  } else if (manifest?.kind === "run-area" && manifest.observedFields?.verdict) {
    verdict = manifest.observedFields.verdict;
    verdictSource = "observed";
  } else if (meta?.gate != null) {
    verdict = meta.gate ? "pass" : "fail";
    verdictSource = "meta.gate";
  }

  const failed = matrix ? failedCells(matrix) : [];
  const partials = probes.map((p) => p.partial).filter((p): p is boolean => p !== null);
  const findings = report ? findingCount(report) : manifest?.kind === "run-area" ? (manifest.observedFields?.findings ?? null) : null;

  let missingFieldCount = 0;
  for (const r of [run.matrix, run.hostEnv, run.env, run.sanitizerReport, run.meta]) if (r?.ok) missingFieldCount += r.data.missingFields.length;

  return {
    rel: entry.rel,
    dir: entry.dir,
    layout: entry.layout,
    kind,
    when,
    whenSource,
    ticket: entry.ticket ?? matrix?.header.ticket ?? null,
    workload: entry.workload ?? matrix?.header.workload ?? null,
    case: entry.case ?? (manifest?.kind === "run-area" ? manifest.case : null),
    caseClass: entry.caseClass ?? (manifest?.kind === "run-area" && (manifest.class === "guardrail" || manifest.class === "survey") ? manifest.class : null),
    cellCount: matrix ? matrix.cells.length : null,
    failedCellCount: matrix ? failed.length : null,
    failedCells: failed,
    verdict,
    verdictSource,
    findings,
    partialEnv: partials.length ? partials.some(Boolean) : null,
    missingFieldCount,
    errors: runErrors(run),
    warnings: runWarnings(run),
  };
}
