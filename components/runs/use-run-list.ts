"use client";

import { useMemo, useState } from "react";
import { DEFAULT_RUN_SORT, filterRuns, layoutOf, nextSort, type RunFilter, type RunSort, type RunSortKey } from "./filter-runs";
import type { RunRow } from "./types";

/** Filter, sort and the two-run pick for compare; the pick keeps the order the runs were ticked in. */
export function useRunList(runs: readonly RunRow[]) {
  const [filter, setFilter] = useState<RunFilter>({ query: "", verdict: "", layout: "" });
  const [sort, setSort] = useState<RunSort>(DEFAULT_RUN_SORT);
  const [picked, setPicked] = useState<string[]>([]);
  const rows = useMemo(() => filterRuns(runs, filter, sort), [runs, filter, sort]);
  const layouts = useMemo(() => [...new Set(runs.map(layoutOf))].sort(), [runs]);

  function toggle(rel: string) {
    setPicked((p) => (p.includes(rel) ? p.filter((x) => x !== rel) : [...p, rel].slice(-2)));
  }

  return {
    rows,
    layouts,
    filter,
    setFilter,
    sort,
    sortBy: (key: RunSortKey) => setSort((s) => nextSort(s, key)),
    picked,
    toggle,
    clearPicked: () => setPicked([]),
  };
}
