"use client";

import { useCallback, useMemo, useState } from "react";
import { type CellFilter, type CellSort, type CellSortKey, filterCells, nextCellSort } from "./filter-cells";
import type { HeatMetric } from "./heat";
import type { CellView } from "./types";

/** The matrix section's state: metric, filter, sort, which cells are open, and a scroll request. */
export function useMatrixView(cells: readonly CellView[]) {
  const [metric, setMetric] = useState<HeatMetric>("failure");
  const [filter, setFilter] = useState<CellFilter>({ query: "", failedOnly: false });
  const [sort, setSort] = useState<CellSort>({ key: "index", dir: "asc" });
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  // A counter makes a second click on the same tile scroll again.
  const [focus, setFocus] = useState<{ index: number; n: number } | null>(null);
  const rows = useMemo(() => filterCells(cells, filter, sort), [cells, filter, sort]);

  const toggle = useCallback((index: number) => {
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });
  }, []);

  /** From the heat map: open the cell, make sure filters do not hide it, and scroll to it. */
  const reveal = useCallback(
    (index: number) => {
      setOpen((prev) => new Set(prev).add(index));
      if (!rows.some((c) => c.index === index)) setFilter({ query: "", failedOnly: false });
      setFocus((f) => ({ index, n: (f?.n ?? 0) + 1 }));
    },
    [rows],
  );

  return {
    metric,
    setMetric,
    filter,
    setFilter,
    sort,
    sortBy: (key: CellSortKey) => setSort((s) => nextCellSort(s, key)),
    rows,
    open,
    toggle,
    reveal,
    focus,
  };
}
