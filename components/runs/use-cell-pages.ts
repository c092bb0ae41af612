"use client";

import { useEffect, useMemo, useState } from "react";
import { type PackedCells, unpackCells } from "@/lib/artifacts/view/pack-cells";
import type { CellView, MatrixView } from "./types";
import { fetchJson } from "@/lib/client/fetch-json";

export function cellsUrl(root: string | null, path: string, page: number): string {
  const q = new URLSearchParams({ path, page: String(page) });
  if (root) q.set("root", root);
  return `/api/runs/cells?${q}`;
}

/**
 * A run's cells: the first page came with the page, the rest are fetched from GET /api/runs/cells
 * one page after another (so a 60,000-cell matrix never sits in the HTML). `loading` is true until
 * every page is in; `error` says which page failed.
 */
export function useCellPages(matrix: MatrixView, root: string | null, path: string) {
  const first = useMemo(() => unpackCells(matrix.cells), [matrix.cells]);
  const [rest, setRest] = useState<CellView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const pages = Math.ceil(matrix.cellCount / Math.max(1, matrix.cellPageSize));

  useEffect(() => {
    if (pages <= 1) return;
    let cancelled = false;
    void (async () => {
      const loaded: CellView[] = [];
      for (let page = 1; page < pages && !cancelled; page++) {
        let body: PackedCells;
        try {
          body = await fetchJson<PackedCells>(cellsUrl(root, path, page));
        } catch (failure) {
          if (!cancelled) setError(`Cells page ${page + 1} of ${pages} did not load: ${(failure as Error).message}`);
          return;
        }
        loaded.push(...unpackCells(body));
        if (!cancelled) setRest([...loaded]);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [pages, root, path]);

  const cells = useMemo(() => (rest.length ? [...first, ...rest] : first), [first, rest]);
  return { cells, loading: cells.length < matrix.cellCount && error === null, error };
}
