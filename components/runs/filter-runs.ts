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

/** Every word of the query must occur in the run's path, ticket, workload, case or verdict. */
export function matchesRun(row: RunRow, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = [row.rel, row.ticket, row.workload, row.case, row.verdict, row.layout, row.kind].filter(Boolean).join(" ").toLowerCase();
  return words.every((w) => hay.includes(w));
}

function sortValue(row: RunRow, key: RunSortKey): string | number | null {
  switch (key) {
    case "verdict":
      return verdictRank(row.verdict);
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
      matchesRun(r, filter.query) &&
      (filter.verdict === "" || verdictTone(r.verdict) === filter.verdict) &&
      (filter.layout === "" || r.layout === filter.layout),
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
