import type { CellView } from "./types";

export type CellSortKey = "index" | "name" | "trials" | "failed" | "errors" | "failureRate" | "errorRate" | "meanMs" | "p90Ms" | "stepTimeRatio";
export interface CellSort {
  key: CellSortKey;
  dir: "asc" | "desc";
}
export interface CellFilter {
  query: string;
  failedOnly: boolean;
}

export function filterCells(cells: readonly CellView[], filter: CellFilter, sort: CellSort): CellView[] {
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  const out = cells.filter((c) => {
    if (filter.failedOnly && !c.failedCell) return false;
    if (words.length === 0) return true;
    const hay = `${c.name} ${c.environment ?? ""} ${(c.mitigations ?? []).join(" ")}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
  if (sort.key === "index" && sort.dir === "asc") return out;
  const sign = sort.dir === "asc" ? 1 : -1;
  return out.sort((x, y) => {
    const a = x[sort.key];
    const b = y[sort.key];
    // Not recorded sorts last either way, so sorting by failure rate never puts "unknown" among the clean.
    if (a === null || b === null) return a === b ? x.index - y.index : a === null ? 1 : -1;
    const d = typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
    return sign * d || x.index - y.index;
  });
}

export function nextCellSort(current: CellSort, key: CellSortKey): CellSort {
  if (current.key === key) return { key, dir: current.dir === "asc" ? "desc" : "asc" };
  return { key, dir: key === "name" || key === "index" ? "asc" : "desc" };
}
