import "server-only";
import fs from "node:fs";
import path from "node:path";
import { describeRunDir, discoverRuns, listRunEnvironments, readRunEntry, type RunData, type RunEntry, summarizeRun } from "@/lib/artifacts";
import { resolveWithin, showPath } from "@/lib/sandbox/resolve";
import type { CompareView, RunListResponse, RunView } from "@/components/runs/types";
import { compareView, runRow, runView } from "@/components/runs/view-model";
import { resolveRunsRoot } from "./runs-root";

const LABEL = { label: "runs root" } as const;

export function loadRunList(override: string | null, options: { fresh?: boolean } = {}): RunListResponse {
  const r = resolveRunsRoot(override);
  if (r.error) return { root: r.root, override, rootError: r.error, runs: [] };
  const d = discoverRuns(r.root, options);
  return { root: d.root, override, rootError: d.error, runs: d.runs.map((e) => runRow(summarizeRun(readRunEntry(e)))) };
}

export type Loaded<T> = { ok: true; data: T } | { ok: false; status: number; error: string };

/** Opens one run folder, bounded to the runs root: `..`, absolute and symlinked escapes are refused. */
export function openRun(root: string, rel: string | null): Loaded<RunData> {
  if (rel === null) return { ok: false, status: 400, error: "No run given: add ?path=<run folder relative to the runs root>." };
  const resolved = resolveWithin(root, rel, LABEL);
  if (!resolved.ok) return { ok: false, status: 403, error: resolved.error.replace(/^Error: /, "") };
  if (!resolved.stat) return { ok: false, status: 404, error: `No run folder at ${showPath(rel)} under ${root}.` };
  if (!resolved.stat.isDirectory()) return { ok: false, status: 400, error: `${showPath(rel)} is a file, not a run folder.` };
  const entry = describeRunDir(resolved.root, resolved.abs);
  if (!entry) return { ok: false, status: 404, error: `Cannot read the folder ${showPath(rel)}.` };
  if (entry.artifacts.length === 0) return { ok: false, status: 404, error: `${showPath(rel)} holds no run artifacts (matrix.json, env.json, host_env.json, meta.json or sanitizer_report.json).` };
  return { ok: true, data: readRunEntry(entry) };
}

/** Artifact name → size, and a signature of every artifact's (name, size, mtime) for the view cache. */
function statArtifacts(entry: RunEntry): { sizes: Record<string, number>; signature: string } {
  const sizes: Record<string, number> = {};
  const parts: string[] = [];
  const names = [...entry.artifacts, ...listRunEnvironments(entry).map((e) => `environments/${e}/env.json`)];
  for (const name of names) {
    const st = fs.statSync(path.join(entry.dir, name), { throwIfNoEntry: false });
    if (st) sizes[name] = st.size;
    parts.push(`${name}:${st?.size ?? -1}:${st?.mtimeMs ?? -1}`);
  }
  return { sizes, signature: parts.join("|") };
}

/**
 * Built run views, by folder. A matrix above the reader's 1 MB parse cache would otherwise be
 * re-read and re-validated on every visit (a quarter second at 5,000 cells); any change to an
 * artifact's size or mtime, or to the file list, misses.
 */
const VIEW_CACHE_MAX = 8;
const viewCache = new Map<string, { signature: string; view: Omit<RunView, "children" | "override"> }>();

export function loadRunView(override: string | null, rel: string | null): Loaded<RunView> {
  const r = resolveRunsRoot(override);
  if (r.error) return { ok: false, status: 400, error: r.error };
  if (rel === null) return { ok: false, status: 400, error: "No run given: add ?path=<run folder relative to the runs root>." };
  const resolved = resolveWithin(r.root, rel, LABEL);
  if (!resolved.ok) return { ok: false, status: 403, error: resolved.error.replace(/^Error: /, "") };
  if (!resolved.stat) return { ok: false, status: 404, error: `No run folder at ${showPath(rel)} under ${r.root}.` };
  if (!resolved.stat.isDirectory()) return { ok: false, status: 400, error: `${showPath(rel)} is a file, not a run folder.` };
  const entry = describeRunDir(resolved.root, resolved.abs);
  if (!entry) return { ok: false, status: 404, error: `Cannot read the folder ${showPath(rel)}.` };
  if (entry.artifacts.length === 0) return { ok: false, status: 404, error: `${showPath(rel)} holds no run artifacts (matrix.json, env.json, host_env.json, meta.json or sanitizer_report.json).` };

  // Runs nested inside this one (a dashboard run's cases), from the cached discovery.
  const prefix = entry.rel === "." ? "" : `${entry.rel}/`;
  const d = discoverRuns(r.root);
  const children = d.error
    ? []
    : d.runs.filter((e) => e.rel !== entry.rel && e.rel.startsWith(prefix) && !e.rel.slice(prefix.length).includes("/")).map((e) => runRow(summarizeRun(readRunEntry(e))));

  const { sizes, signature } = statArtifacts(entry);
  const key = `${r.root}\0${entry.dir}`;
  const hit = viewCache.get(key);
  if (hit && hit.signature === signature) return { ok: true, data: { ...hit.view, override, children } };
  const view = runView(readRunEntry(entry), { root: r.root, override, sizes, children });
  viewCache.delete(key);
  viewCache.set(key, { signature, view });
  if (viewCache.size > VIEW_CACHE_MAX) viewCache.delete(viewCache.keys().next().value as string);
  return { ok: true, data: view };
}

export function loadCompare(override: string | null, a: string | null, b: string | null): Loaded<CompareView> {
  const r = resolveRunsRoot(override);
  if (r.error) return { ok: false, status: 400, error: r.error };
  if (a === null || b === null) return { ok: false, status: 400, error: "Pick two runs: add ?a=<run>&b=<run> (folders relative to the runs root)." };
  const ra = openRun(r.root, a);
  if (!ra.ok) return { ...ra, error: `Run A: ${ra.error}` };
  const rb = openRun(r.root, b);
  if (!rb.ok) return { ...rb, error: `Run B: ${rb.error}` };
  return { ok: true, data: compareView(ra.data, rb.data, { root: r.root, override }) };
}
