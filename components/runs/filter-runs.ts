import type { RunRow } from "./types";
import { verdictRank, verdictTone, type VerdictTone } from "./verdict";

export type RunSortKey = "when" | "rel" | "ticket" | "workload" | "layout" | "cells" | "failedCells" | "verdict";
export interface RunSort {
  key: RunSortKey;
  dir: "asc" | "desc";
}
export interface RunFilter {
  query: string;
  verdict: VerdictTone | "";
  layout: string;
}

export const DEFAULT_RUN_SORT: RunSort = { key: "when", dir: "desc" };

/** The layout a row is listed under: an eval run is an "eval", whatever folder layout it sits in. */
export function layoutOf(row: RunRow): string {
  return row.eval ? "eval" : row.layout;
}

/**
 * A row's result as the verdict filter reads it: a harness run's verdict; an eval run's pass rate
 * (every trial passed: pass, none: fail, some: warn — the colours its pass rate is shown in).
 */
export function resultTone(row: RunRow): VerdictTone {
  if (!row.eval) return verdictTone(row.verdict);
  const { passed, trials } = row.eval;
  if (trials === 0) return "unknown";
  return passed === trials ? "pass" : passed === 0 ? "fail" : "warn";
}

/**
 * The result column's order, worst first: a harness run's verdict (error, fail, warn, unknown,
 * pass); an eval run by its pass rate, from 0% (with the failed runs) up to just below warn, and
 * with the passing runs when every trial passed.
 */
function resultRank(row: RunRow): number {
  if (!row.eval) return verdictRank(row.verdict);
  const { passed, trials } = row.eval;
  if (trials === 0) return verdictRank(null);
  return passed === trials ? verdictRank("pass") : verdictRank("fail") + passed / trials;
}

/** Every word of the query must occur in the run's path, ticket, workload, case, verdict or layout (an eval run's suite and "eval" too). */
export function matchesRun(row: RunRow, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = [row.rel, row.ticket, row.workload, row.case, row.verdict, row.layout, row.kind, row.eval ? `eval ${row.eval.suite}` : null]
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}

function sortValue(row: RunRow, key: RunSortKey): string | number | null {
  switch (key) {
    case "verdict":
      return resultRank(row);
    case "layout":
      return layoutOf(row);
    case "cells":
      return row.cells;
    case "failedCells":
      return row.failedCells;
    case "when":
      return row.when;
    default:
      return row[key];
  }
}

/** Not-recorded values sort last in both directions: they are never "smallest". */
function compare(a: string | number | null, b: string | number | null): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b));
}

export function filterRuns(rows: readonly RunRow[], filter: RunFilter, sort: RunSort): RunRow[] {
  const out = rows.filter(
    (r) =>
      matchesRun(r, filter.query) && (filter.verdict === "" || resultTone(r) === filter.verdict) && (filter.layout === "" || layoutOf(r) === filter.layout),
  );
  const sign = sort.dir === "asc" ? 1 : -1;
  return out.sort((x, y) => {
    const a = sortValue(x, sort.key);
    const b = sortValue(y, sort.key);
    if (a === null || b === null) return a === b ? x.rel.localeCompare(y.rel) : a === null ? 1 : -1;
    return sign * compare(a, b) || x.rel.localeCompare(y.rel);
  });
}

/** Clicking the sorted column flips it; another column starts in its natural order. */
export function nextSort(current: RunSort, key: RunSortKey): RunSort {
  if (current.key === key) return { key, dir: current.dir === "asc" ? "desc" : "asc" };
  return { key, dir: key === "when" || key === "cells" || key === "failedCells" ? "desc" : "asc" };
}

/** Query string for a run's page; the root travels only when it is an override. */
export function runHref(rel: string, override: string | null): string {
  const q = new URLSearchParams();
  if (override) q.set("root", override);
  q.set("path", rel);
  return `/runs/view?${q.toString()}`;
}

export function compareHref(a: string, b: string, override: string | null): string {
  const q = new URLSearchParams();
  if (override) q.set("root", override);
  q.set("a", a);
  q.set("b", b);
  return `/runs/compare?${q.toString()}`;
}

export function fileHref(rel: string, override: string | null, download = false): string {
  const q = new URLSearchParams();
  if (override) q.set("root", override);
  q.set("path", rel);
  if (download) q.set("download", "1");
  return `/api/runs/file?${q.toString()}`;
}
