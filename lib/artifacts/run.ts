import path from "node:path";
import { type DashboardIndex, readDashboardIndexFile } from "./dashboard";
import { describeRunDir, listRunEnvironments, type RunEntry } from "./discover";
import { type EnvDoc, readEnvFile } from "./env";
import { type EvalCases, readEvalCasesFile } from "./eval-cases";
import type { FileResult, ReadOptions } from "./json";
import { type Matrix, readMatrixFile } from "./matrix";
import { type RunMeta, readMetaFile, readSanitizerReportFile, type SanitizerReport } from "./sanitizer";

export interface EnvironmentFile {
  name: string;
  /** Relative to the runs root. */
  file: string;
  env: FileResult<EnvDoc>;
}

/** A whole run folder read file by file; a file that is absent is `undefined`, one that failed is `{ ok: false }`. */
export interface RunData {
  entry: RunEntry;
  matrix?: FileResult<Matrix>;
  hostEnv?: FileResult<EnvDoc>;
  env?: FileResult<EnvDoc>;
  environments: EnvironmentFile[];
  sanitizerReport?: FileResult<SanitizerReport>;
  meta?: FileResult<RunMeta>;
  dashboardIndex?: FileResult<DashboardIndex>;
  /** An eval run's trials (`toolroom eval`, the /evals page). */
  evalCases?: FileResult<EvalCases>;
}

/** Reads every known artifact of a discovered run. Never throws for a bad file. */
export function readRunEntry(entry: RunEntry, options?: ReadOptions): RunData {
  const has = new Set(entry.files);
  const file = (name: string) => path.join(entry.dir, name);
  const label = (name: string) => (entry.rel === "." ? name : `${entry.rel}/${name}`);
  const run: RunData = { entry, environments: [] };
  if (has.has("matrix.json")) run.matrix = readMatrixFile(file("matrix.json"), label("matrix.json"), options);
  if (has.has("host_env.json")) run.hostEnv = readEnvFile(file("host_env.json"), label("host_env.json"), options);
  if (has.has("env.json")) run.env = readEnvFile(file("env.json"), label("env.json"), options);
  if (has.has("sanitizer_report.json")) run.sanitizerReport = readSanitizerReportFile(file("sanitizer_report.json"), label("sanitizer_report.json"), options);
  if (has.has("meta.json")) run.meta = readMetaFile(file("meta.json"), label("meta.json"), options);
  if (has.has("cases.json")) run.evalCases = readEvalCasesFile(file("cases.json"), label("cases.json"), options);
  if (has.has("data.json")) run.dashboardIndex = readDashboardIndexFile(file("data.json"), label("data.json"), options);
  for (const name of listRunEnvironments(entry)) {
    const rel = label(`environments/${name}/env.json`);
    run.environments.push({ name, file: rel, env: readEnvFile(file(path.join("environments", name, "env.json")), rel, options) });
  }
  return run;
}

/** Reads the run in `dir` (absolute, or relative to `runsRoot`); null when the folder cannot be read. */
export function readRun(runsRoot: string, dir: string, options?: ReadOptions): RunData | null {
  const entry = describeRunDir(runsRoot, dir);
  return entry ? readRunEntry(entry, options) : null;
}

/** Every per-file error of a run, each naming its file. */
export function runErrors(run: RunData): string[] {
  const out: string[] = [];
  for (const r of [run.matrix, run.hostEnv, run.env, run.sanitizerReport, run.meta, run.dashboardIndex, run.evalCases]) if (r && !r.ok) out.push(r.error);
  for (const e of run.environments) if (!e.env.ok) out.push(e.env.error);
  return out;
}

/** Every reader warning of a run. */
export function runWarnings(run: RunData): string[] {
  const out: string[] = [];
  for (const r of [run.matrix, run.hostEnv, run.env, run.sanitizerReport, run.meta, run.dashboardIndex, run.evalCases]) if (r?.ok) out.push(...r.data.warnings);
  for (const e of run.environments) if (e.env.ok) out.push(...e.env.data.warnings);
  return out;
}
