/**
 * Builds the runs pages' view shapes (types.ts) from what `lib/artifacts` read. Pure: no file
 * access here (the loaders in lib/server/runs do that), so the tests feed it fixture runs directly.
 */
import {
  cellLabel,
  compareMatrices,
  mostChanged,
  rateTone,
  diffEnv,
  type EnvDoc,
  envFacts,
  type FileResult,
  groupFindings,
  isFailedCell,
  type Matrix,
  type MatrixCell,
  type RunData,
  type RunMeta,
  type RunSummary,
  type SanitizerReport,
  summarizeRun,
} from "../index";
import { evalCellChanges, evalChanges, evalRow, evalRunView } from "./eval-view";
import { packCells } from "./pack-cells";
import type { CellView, RunDiff, EnvView, Fact, FailingCase, MatrixView, RunRow, RunView, SanitizerView } from "./types";

export function runRow(s: RunSummary, evalFacts: RunRow["eval"] = null): RunRow {
  return {
    eval: evalFacts,
    rel: s.rel,
    layout: s.layout,
    kind: s.kind,
    when: s.when,
    ticket: s.ticket,
    workload: s.workload,
    case: s.case,
    cells: s.cellCount,
    failedCells: s.failedCellCount,
    verdict: s.verdict,
    findings: s.findings,
    partialEnv: s.partialEnv,
    errorCount: s.errors.length,
    warningCount: s.warnings.length,
    firstError: s.errors[0] ?? null,
  };
}

export function cellView(c: MatrixCell, baselineName: string | null): CellView {
  const name = cellLabel(c);
  return {
    index: c.index,
    name,
    mitigations: c.mitigations,
    environment: c.environment,
    trials: c.trials,
    passed: c.passed_count,
    failed: c.failed_count,
    errors: c.error_count,
    failureRate: c.failure_rate,
    errorRate: c.error_rate,
    unreliable: c.unreliable,
    meanMs: c.mean_step_time_ms,
    p50Ms: c.p50_step_time_ms,
    p90Ms: c.p90_step_time_ms,
    p99Ms: c.p99_step_time_ms,
    stepTimeRatio: c.step_time_ratio,
    exitStatus: c.exit_status_counts,
    outcomes: c.outcome_counts,
    hints: c.failure_hints,
    trialPaths: c.trial_paths,
    error: c.error === "" ? null : c.error,
    confound: c.confound,
    // The producer marks the baseline by name and by confound "(baseline)"; either is enough.
    baseline: (baselineName !== null && name === baselineName) || c.confound === "(baseline)",
    failedCell: isFailedCell(c),
    ...(Array.isArray(c.extra.failing_cases) ? { failingCases: failingCases(c.extra.failing_cases) } : {}),
  };
}

/** `failing_cases` as recorded, each field checked: a hand-edited matrix must not break the page. */
function failingCases(raw: unknown[]): FailingCase[] {
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  return raw.flatMap((r) => {
    if (typeof r !== "object" || r === null || typeof (r as { case?: unknown }).case !== "string") return [];
    const o = r as Record<string, unknown>;
    const chatId = text(o.chat_id);
    return [
      {
        case: o.case as string,
        trial: typeof o.trial === "number" ? o.trial : null,
        verdict: text(o.verdict),
        reason: text(o.reason),
        chatId: chatId !== null && /^[A-Za-z0-9_-]{1,64}$/.test(chatId) ? chatId : null,
      },
    ];
  });
}

export function matrixView(m: Matrix): MatrixView {
  const h = m.header;
  return {
    workload: h.workload,
    ticket: h.ticket,
    schemaVersion: h.schema_version === null ? null : String(h.schema_version),
    trialsPerCell: h.trials_per_cell,
    stepsPerTrial: h.steps_per_trial,
    baselineCell: h.baseline_cell,
    producerWarnings: h.warnings ?? [],
    missingFields: m.missingFields,
    cells: packCells(m.cells.map((c) => cellView(c, h.baseline_cell))),
    cellCount: m.cells.length,
    cellPageSize: m.cells.length,
  };
}

export function envView(label: string, file: string, r: FileResult<EnvDoc>): EnvView {
  if (!r.ok) return { label, file, kind: null, facts: [], raw: null, error: r.error, partial: null, missingFields: [] };
  const doc = r.data;
  return {
    label,
    file,
    kind: doc.kind,
    facts: envFacts(doc),
    raw: doc.raw,
    error: null,
    partial: doc.kind === "probe" ? doc.partial : null,
    missingFields: doc.missingFields,
  };
}

export function sanitizerView(r: SanitizerReport): SanitizerView {
  const groups = groupFindings(r);
  return {
    overallVerdict: r.overall_verdict,
    executionStatus: r.execution_status,
    target: r.target,
    checks: r.checks.map((c) => ({ sanitizer: c.sanitizer, state: c.state, verdict: c.verdict, reason: c.reason, findings: c.findings.length })),
    groups,
    total: groups.reduce((n, g) => n + g.count, 0),
  };
}

function metaFacts(m: RunMeta): Fact[] {
  return [
    { label: "gate", value: m.gate === null ? null : m.gate ? "pass" : "fail" },
    { label: "date", value: m.date },
    { label: "gpu", value: m.gpu },
    { label: "commit", value: m.commit },
    { label: "run_url", value: m.run_url },
  ];
}

function joinRel(dir: string, name: string): string {
  return dir === "." ? name : `${dir}/${name}`;
}

/** Every env document of a run, host snapshot first, then the run's own, then per-environment ones. */
export function runEnvViews(run: RunData): EnvView[] {
  const rel = run.entry.rel;
  const out: EnvView[] = [];
  if (run.hostEnv) out.push(envView("host_env.json", joinRel(rel, "host_env.json"), run.hostEnv));
  if (run.env) out.push(envView("env.json", joinRel(rel, "env.json"), run.env));
  for (const e of run.environments) out.push(envView(`environments/${e.name}`, e.file, e.env));
  return out;
}

export function runView(run: RunData, ctx: { root: string; override: string | null; sizes: Record<string, number>; children: RunRow[] }): RunView {
  const summary = summarizeRun(run);
  const rel = run.entry.rel;
  const fileNames = [...run.entry.artifacts, ...run.environments.map((e) => `environments/${e.name}/env.json`)];
  return {
    root: ctx.root,
    override: ctx.override,
    row: runRow(summary, evalRow(run)),
    whenSource: summary.whenSource,
    verdictSource: summary.verdictSource,
    errors: summary.errors,
    warnings: summary.warnings,
    matrix: run.matrix?.ok ? matrixView(run.matrix.data) : null,
    matrixError: run.matrix && !run.matrix.ok ? run.matrix.error : null,
    envs: runEnvViews(run),
    sanitizer: run.sanitizerReport?.ok ? sanitizerView(run.sanitizerReport.data) : null,
    sanitizerError: run.sanitizerReport && !run.sanitizerReport.ok ? run.sanitizerReport.error : null,
    meta: run.meta?.ok ? metaFacts(run.meta.data) : null,
    files: fileNames.map((name) => ({ name, rel: joinRel(rel, name), size: ctx.sizes[name] ?? null })),
    children: ctx.children,
    eval: evalRunView(run),
  };
}

/** The environment document a comparison uses: the host snapshot, else the run's env.json. */
function primaryEnv(run: RunData): { label: string; r: FileResult<EnvDoc> } | null {
  if (run.hostEnv) return { label: "host_env.json", r: run.hostEnv };
  if (run.env) return { label: "env.json", r: run.env };
  return null;
}

/** Names listed at most per "only in" side of a comparison; the count is of all. */
const COMPARE_NAMES = 200;

export function runDiffView(a: RunData, b: RunData, ctx: { root: string; override: string | null }): RunDiff {
  const sa = summarizeRun(a);
  const sb = summarizeRun(b);
  const ea = primaryEnv(a);
  const eb = primaryEnv(b);
  const side = (run: RunData, s: RunSummary, e: typeof ea) => ({
    rel: s.rel,
    when: s.when,
    verdict: s.verdict,
    cells: s.cellCount,
    envLabel: e?.label ?? null,
    eval: evalRow(run),
  });

  let matrixError: string | null = null;
  let comparison: ReturnType<typeof compareMatrices> | null = null;
  if (!a.matrix || !b.matrix) {
    const missing = [!a.matrix ? a.entry.rel : null, !b.matrix ? b.entry.rel : null].filter(Boolean).join(" and ");
    matrixError = `No matrix.json in ${missing}: only runs with a matrix can be compared cell by cell.`;
  } else if (!a.matrix.ok || !b.matrix.ok) {
    matrixError = [a.matrix, b.matrix].flatMap((r) => (r.ok ? [] : [r.error])).join("; ");
  } else {
    comparison = compareMatrices(a.matrix.data, b.matrix.data);
  }

  const cells = comparison?.cells ?? [];
  let env: RunDiff["env"] = null;
  let envError: string | null = null;
  if (!ea || !eb) envError = `No host_env.json or env.json in ${[!ea ? a.entry.rel : null, !eb ? b.entry.rel : null].filter(Boolean).join(" and ")}.`;
  else if (!ea.r.ok || !eb.r.ok) envError = [ea.r, eb.r].flatMap((r) => (r.ok ? [] : [r.error])).join("; ");
  else env = diffEnv(ea.r.data.raw, eb.r.data.raw);

  return {
    root: ctx.root,
    override: ctx.override,
    a: side(a, sa, ea),
    b: side(b, sb, eb),
    cells: mostChanged(cells),
    cellTotals: {
      matched: cells.length,
      worse: cells.filter((c) => rateTone(c.failureRateDelta) === "worse").length,
      better: cells.filter((c) => rateTone(c.failureRateDelta) === "better").length,
    },
    onlyInA: (comparison?.onlyInA ?? []).slice(0, COMPARE_NAMES),
    onlyInB: (comparison?.onlyInB ?? []).slice(0, COMPARE_NAMES),
    onlyInACount: comparison?.onlyInA.length ?? 0,
    onlyInBCount: comparison?.onlyInB.length ?? 0,
    duplicateNames: comparison?.duplicateNames ?? [],
    matrixError,
    env,
    envError,
    evalChanges: evalChanges(a, b),
    evalCells: evalCellChanges(a, b),
  };
}
