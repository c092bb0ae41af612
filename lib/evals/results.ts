import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { EvalCell, EvalRunResult, TrialRecord } from "./runner";
import { mean, percentile, round, std } from "./stats";

/** How many failure hints a cell lists (the most frequent first). */
const TOP_HINTS = 5;
/** How many failing trials a cell names with their chats. */
const FAILING_LISTED = 50;

export interface SuiteFacts {
  name: string;
  file: string;
  text: string;
  /** The suite's cases: their expectations go into cases.json, for the run page's expected-vs-actual diff. */
  cases?: readonly { name: string; expect: unknown }[];
}

export interface EnvFacts {
  /**
   * Each model's provider and id, and the mode and protocol it is configured for at run time
   * (`llms.<name>.toolMode`, else `chat.toolMode`; `llms.<name>.textProtocol`, else
   * `chat.textProtocol`): the recommendation prefers those among equal cells.
   */
  models: Record<string, { provider: string; modelId: string; toolMode?: "native" | "text" | "auto"; textProtocol?: string }>;
  providerVersions: Record<string, string>;
  settingsHash: string;
  toolroomVersion: string;
}

/** `2026-11-30T22-11-18`: the triage layout's run folder, so the runs browser reads its time from the path. */
export function runStamp(at: Date): string {
  return at.toISOString().slice(0, 19).replace(/:/g, "-");
}

function cellEntry(cell: EvalCell, trials: TrialRecord[], baselineMean: number | null) {
  const mine = trials.filter((t) => t.cell === cell.name);
  const passed = mine.filter((t) => t.verdict === "pass").length;
  const failed = mine.filter((t) => t.verdict === "fail").length;
  const errors = mine.filter((t) => t.verdict === "error").length;
  const times = mine.map((t) => t.latency_ms).sort((a, b) => a - b);
  const counts = new Map<string, number>();
  for (const t of mine) for (const r of new Set(t.reasons)) counts.set(r, (counts.get(r) ?? 0) + 1);
  const hints = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, TOP_HINTS);
  const m = mean(times);
  const exit: Record<string, number> = {};
  if (passed) exit.ok = passed;
  if (failed) exit.mismatch = failed;
  if (errors) exit.error = errors;
  return {
    name: cell.name,
    mitigations: [cell.mode, ...(cell.protocol && cell.mode === "text" ? [cell.protocol] : [])],
    environment: cell.model,
    extra_env: {},
    resolved_env_vars: {},
    trials: mine.length,
    passed_count: passed,
    failed_count: failed,
    error_count: errors,
    failure_rate: mine.length ? round(failed / mine.length, 4) : 0,
    error_rate: mine.length ? round(errors / mine.length, 4) : 0,
    unreliable: false,
    mean_step_time_ms: round(m) ?? 0,
    std_step_time_ms: round(std(times)) ?? 0,
    min_step_time_ms: times[0] ?? 0,
    max_step_time_ms: times.at(-1) ?? 0,
    p50_step_time_ms: percentile(times, 50) ?? 0,
    p90_step_time_ms: percentile(times, 90) ?? 0,
    p99_step_time_ms: percentile(times, 99) ?? 0,
    mean_wall_clock_sec: round(m === null ? 0 : m / 1000, 4),
    step_times_ms: mine.map((t) => t.latency_ms),
    step_time_source: "eval_trial_latency",
    step_time_ratio: baselineMean && m !== null ? round(m / baselineMean, 4) : null,
    exit_status_counts: exit,
    outcome_counts: { completed: passed + failed, ...(errors ? { error: errors } : {}) },
    failure_hints: hints,
    // Every trial (prompt, calls, verdict, chat) is in the run's cases.json.
    trial_paths: ["cases.json"],
    error: null,
    confound: baselineMean === null ? "(baseline)" : "-",
    resolved_environment: { model: cell.model, mode: cell.mode, protocol: cell.protocol },
    // Eval-only: the failing trials with their stored chats, for the cell's details.
    failing_cases: mine
      .filter((t) => t.verdict !== "pass")
      .slice(0, FAILING_LISTED)
      .map((t) => ({ case: t.case, trial: t.trial, verdict: t.verdict, reason: t.reason, chat_id: t.chat_id, ...(t.judge ? { judge: t.judge } : {}) })),
  };
}

/** Why a run has fewer trials than its matrix (cancelled, or interrupted and not resumed). */
export function partialReason(run: Pick<EvalRunResult, "trials" | "total">): string {
  return `partial: ${run.trials.length} of ${run.total} trials ran (the run was cancelled or interrupted)`;
}

/** matrix.json in the AORTA shape: one cell per model × mode (× protocol), latencies in the step-time fields. */
export function matrixJson(suite: SuiteFacts, run: EvalRunResult) {
  const baseline = run.cells[0];
  const baselineTimes = run.trials.filter((t) => t.cell === baseline?.name).map((t) => t.latency_ms);
  const baselineMean = mean(baselineTimes);
  return {
    schema_version: 1,
    workload: suite.name,
    ticket: "evals",
    trials_per_cell: run.total / Math.max(1, run.cells.length),
    steps_per_trial: 1,
    run_timestamp: run.startedAt.toISOString(),
    baseline_cell: baseline?.name ?? null,
    confound: { threshold: null, baseline_cell_configured: null },
    stop_after: null,
    warnings: run.partial ? [partialReason(run)] : [],
    recipe_source: { path: suite.file, sha256: crypto.createHash("sha256").update(suite.text).digest("hex") },
    producer: "toolroom eval",
    cells: run.cells.map((cell, i) => cellEntry(cell, run.trials, i === 0 ? null : baselineMean)),
  };
}

/** env.json as an environment snapshot the runs browser reads: the models and versions behind the numbers. */
export function envJson(env: EnvFacts, run: EvalRunResult) {
  return {
    schema_version: "1.0",
    captured_at: run.startedAt.toISOString(),
    partial: run.partial,
    partial_reasons: run.partial ? [partialReason(run)] : [],
    system_health: null,
    rocm: null,
    runtime_context: "toolroom eval",
    toolroom: { version: env.toolroomVersion, settings_sha256: env.settingsHash },
    models: env.models,
    provider_versions: env.providerVersions,
    node_version: process.version,
    duration_sec: round((run.finishedAt.getTime() - run.startedAt.getTime()) / 1000, 3),
  };
}

/** A new folder `runsRoot/evals/<suite>/<timestamp>/` for a run (created, empty). */
export function newRunDir(runsRoot: string, suiteName: string, startedAt: Date): string {
  const base = path.join(runsRoot, "evals", suiteName, runStamp(startedAt));
  let dir = base;
  // Two runs started in the same second: the triage layout's "-N" suffix.
  for (let n = 2; fs.existsSync(dir); n++) dir = `${base}-${n}`;
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A temp file beside it, then a rename: a reader (or a crash) sees the old file or the new one, never half of one. */
export function writeJsonAtomic(file: string, value: unknown): void {
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  try {
    fs.writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`);
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Writes the run's matrix.json, cases.json and env.json (each atomically) into `dir`, by default a new run folder; returns the folder. */
export function writeEvalRun(
  runsRoot: string,
  suite: SuiteFacts,
  env: EnvFacts,
  run: EvalRunResult,
  dir = newRunDir(runsRoot, suite.name, run.startedAt),
): string {
  fs.mkdirSync(dir, { recursive: true });
  const expectations = Object.fromEntries((suite.cases ?? []).map((c) => [c.name, c.expect]));
  writeJsonAtomic(path.join(dir, "cases.json"), { suite: suite.name, partial: run.partial, total: run.total, expectations, trials: run.trials });
  writeJsonAtomic(path.join(dir, "env.json"), envJson(env, run));
  // Last: the runs browser finds a run by its matrix.json, so the others are in place when it does.
  writeJsonAtomic(path.join(dir, "matrix.json"), matrixJson(suite, run));
  return dir;
}

export interface CellSummary {
  name: string;
  trials: number;
  passed: number;
  failed: number;
  errors: number;
  passRate: number;
  p50Ms: number | null;
  topReason: string | null;
  /** Trials a judge was asked about, and how many it passed; absent when no trial of the cell was judged. */
  judge?: { asked: number; passed: number };
}

export function summarize(run: EvalRunResult): { cells: CellSummary[]; passed: number; total: number; passRate: number } {
  const cells = run.cells.map((cell) => {
    const mine = run.trials.filter((t) => t.cell === cell.name);
    const passed = mine.filter((t) => t.verdict === "pass").length;
    const reasons = new Map<string, number>();
    for (const t of mine) if (t.reason) reasons.set(t.reason, (reasons.get(t.reason) ?? 0) + 1);
    const judged = mine.flatMap((t) => (t.judge ? [t.judge] : []));
    return {
      name: cell.name,
      trials: mine.length,
      passed,
      failed: mine.filter((t) => t.verdict === "fail").length,
      errors: mine.filter((t) => t.verdict === "error").length,
      passRate: mine.length ? passed / mine.length : 0,
      p50Ms: percentile(
        mine.map((t) => t.latency_ms).sort((a, b) => a - b),
        50,
      ),
      topReason: [...reasons].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
      ...(judged.length ? { judge: { asked: judged.length, passed: judged.filter((j) => j.verdict === "pass").length } } : {}),
    };
  });
  const passed = run.trials.filter((t) => t.verdict === "pass").length;
  return { cells, passed, total: run.trials.length, passRate: run.trials.length ? passed / run.trials.length : 0 };
}
