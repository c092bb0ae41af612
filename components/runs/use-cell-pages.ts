"use client";

import { useEffect, useMemo, useState } from "react";
import { unpackCells } from "@/lib/artifacts/view/pack-cells";
import type { PackedCells } from "@/lib/artifacts/view/types";
import type { CellView, MatrixView } from "./types";
import { fetchJson } from "@/lib/client/fetch-json";

const PAGES_AT_ONCE = 4;

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
      // A few pages at a time (the server has the view cached), then one render for them: a
      // render per page recomputed the table and the heat map over every cell sixty times.
      for (let from = 1; from < pages && !cancelled; from += PAGES_AT_ONCE) {
        const batch = Array.from({ length: Math.min(PAGES_AT_ONCE, pages - from) }, (_, i) => from + i);
        let bodies: PackedCells[];
        try {
          bodies = await Promise.all(
            batch.map((page) =>
              fetchJson<PackedCells>(cellsUrl(root, path, page)).catch((failure: Error) => {
                throw new Error(`Cells page ${page + 1} of ${pages} did not load: ${failure.message}`);
              }),
            ),
          );
        } catch (failure) {
          if (!cancelled) setError((failure as Error).message);
          return;
        }
        for (const body of bodies) loaded.push(...unpackCells(body));
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
