/**
 * The runs browser's reads, for the web server: every run's summary and view is computed once per
 * version of its artifacts (keyed by each file's size and mtime) and kept in LRU caches, and a run
 * with big artifacts is read in a worker thread (worker/pool.ts), never on the request thread.
 */
import fs from "node:fs";
import path from "node:path";
import { LRUCache } from "lru-cache";
import { listRunEnvironments, type RunEntry } from "./discover";
import type { EvalCaseDetail, RunDiff, RunRow } from "./view/types";
import { runArtifactTask } from "./worker/pool";
import type { ViewResult } from "./worker/tasks";
import type { TranscriptRead } from "./eval-transcript";
import { MAX_TRANSCRIPT_BYTES } from "@/lib/evals/transcript";

export interface CachedReadOptions {
  /** `runs.maxArtifactBytes`: bigger files are refused, not read. */
  maxBytes: number;
  /** Runs whose artifacts total more go to a worker (tests lower it to 0). */
  inlineMaxBytes?: number;
}

interface ArtifactStats {
  /** Artifact name (relative to the run folder) → size in bytes. */
  sizes: Record<string, number>;
  /** Every artifact's name, size and mtime: any change to a file, or to the file list, changes it. */
  signature: string;
  bytes: number;
}

async function statArtifacts(entry: RunEntry): Promise<ArtifactStats> {
  const names = [...entry.artifacts, ...listRunEnvironments(entry).map((e) => `environments/${e}/env.json`)];
  const stats = await Promise.all(names.map((name) => fs.promises.stat(path.join(entry.dir, name)).catch(() => null)));
  const sizes: Record<string, number> = {};
  const parts: string[] = [];
  let bytes = 0;
  names.forEach((name, i) => {
    const st = stats[i];
    if (st) {
      sizes[name] = st.size;
      bytes += st.size;
    }
    parts.push(`${name}:${st?.size ?? -1}:${st?.mtimeMs ?? -1}`);
  });
  return { sizes, signature: parts.join("|"), bytes };
}

const rows = new LRUCache<string, RunRow>({ max: 50_000 });
/** Run views hold every cell page as text; bounded by that text's size. */
const views = new LRUCache<string, ViewResult>({
  maxSize: 256 * 1024 * 1024,
  sizeCalculation: (v) => 4096 + v.pages.reduce((n, p) => n + p.length, 0),
});
/** Reads under way, so that ten visits to a run being parsed wait for one parse. */
const inflight = new Map<string, Promise<unknown>>();

function once<T>(key: string, make: () => Promise<T>): Promise<T> {
  const running = inflight.get(key) as Promise<T> | undefined;
  if (running) return running;
  const p = make().finally(() => inflight.delete(key));
  inflight.set(key, p);
  return p;
}

function keyOf(entry: RunEntry, stats: ArtifactStats, options: CachedReadOptions): string {
  return `${entry.dir}\0${stats.signature}\0${options.maxBytes}`;
}

/** One run's row for the runs table; a failed worker becomes the row's error, never a thrown request. */
export async function cachedRunRow(entry: RunEntry, options: CachedReadOptions): Promise<RunRow> {
  const stats = await statArtifacts(entry);
  const key = keyOf(entry, stats, options);
  const hit = rows.get(key) ?? views.get(key)?.row;
  if (hit) return hit;
  return once(`row\0${key}`, async () => {
    const row = await runArtifactTask({ op: "summary", entry, maxBytes: options.maxBytes }, stats.bytes, options).catch((e: unknown) => failedRow(entry, e));
    rows.set(key, row);
    return row;
  });
}

/** Rows for many runs, a few stats at a time. */
export async function cachedRunRows(entries: readonly RunEntry[], options: CachedReadOptions): Promise<RunRow[]> {
  const out: RunRow[] = [];
  for (let i = 0; i < entries.length; i += 64) out.push(...(await Promise.all(entries.slice(i, i + 64).map((e) => cachedRunRow(e, options)))));
  return out;
}

/** One run's view (first page of cells inline) and every cell page as JSON text. Throws when the worker fails. */
export async function cachedRunView(entry: RunEntry, root: string, options: CachedReadOptions): Promise<ViewResult> {
  const stats = await statArtifacts(entry);
  const key = keyOf(entry, stats, options);
  const hit = views.get(key);
  if (hit) return hit;
  return once(`view\0${key}`, async () => {
    const result = await runArtifactTask({ op: "view", entry, root, sizes: stats.sizes, maxBytes: options.maxBytes }, stats.bytes, options);
    views.set(key, result);
    rows.set(key, result.row);
    return result;
  });
}

function failedRow(entry: RunEntry, e: unknown): RunRow {
  const message = e instanceof Error ? e.message : String(e);
  return {
    rel: entry.rel,
    layout: entry.layout,
    kind: "other",
    when: null,
    ticket: entry.ticket,
    workload: entry.workload,
    case: entry.case,
    cells: null,
    failedCells: null,
    verdict: null,
    findings: null,
    partialEnv: null,
    errorCount: 1,
    warningCount: 0,
    firstError: `${entry.rel}: cannot be read: ${message}`,
  };
}

/** Two runs compared, read in a worker when their artifacts are big (a comparison is not cached: it is made on request). */
export async function diffedRuns(a: RunEntry, b: RunEntry, root: string, override: string | null, options: CachedReadOptions): Promise<RunDiff> {
  const [sa, sb] = await Promise.all([statArtifacts(a), statArtifacts(b)]);
  return runArtifactTask({ op: "diff", a, b, root, override, maxBytes: options.maxBytes }, sa.bytes + sb.bytes, options);
}

/** One case in one cell of an eval run, trial by trial with its call diff; read in a worker when cases.json is big. */
export async function evalCaseOf(entry: RunEntry, caseName: string, cell: string, options: CachedReadOptions): Promise<EvalCaseDetail> {
  const stats = await statArtifacts(entry);
  return runArtifactTask({ op: "evalCase", entry, caseName, cell, maxBytes: options.maxBytes }, stats.sizes["cases.json"] ?? 0, options);
}

/** One trial's transcript (a CLI run's): cases.json, then the trial's one line; in a worker when cases.json is big. */
export async function evalTranscriptOf(entry: RunEntry, caseName: string, cell: string, trial: number, options: CachedReadOptions): Promise<TranscriptRead> {
  const stats = await statArtifacts(entry);
  const bytes = (stats.sizes["cases.json"] ?? 0) + MAX_TRANSCRIPT_BYTES;
  return runArtifactTask({ op: "evalTranscript", entry, caseName, cell, trial, maxBytes: options.maxBytes }, bytes, options);
}
