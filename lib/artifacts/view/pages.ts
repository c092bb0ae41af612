import type { PackedCells } from "./types";
import type { RunView } from "./types";

/**
 * Cells per page of a run's matrix. A packed cell is ~0.5 KB of JSON, a little more once the
 * framework escapes it into the HTML: 1,000 keep a run page far under 2 MB however big the matrix.
 */
export const CELL_PAGE_SIZE = 1000;

/** A run view with only its first page of cells, and every page as ready-to-send JSON text. */
export interface PagedRunView<V extends Pick<RunView, "matrix"> = RunView> {
  view: V;
  /** `pages[n]` is the JSON of page n's PackedCells; empty without a matrix. */
  pages: string[];
}

/**
 * Splits a view's cells into pages. Pages travel as strings: between a worker and the server,
 * and from the server's cache to the browser, a string is copied in one piece where an object
 * graph of 60,000 cells would be rebuilt field by field on the request thread.
 */
export function pageCells<V extends Pick<RunView, "matrix">>(view: V, pageSize = CELL_PAGE_SIZE): PagedRunView<V> {
  const m = view.matrix;
  if (!m) return { view, pages: [] };
  const pages: string[] = [];
  for (let start = 0; start < m.cells.rows.length; start += pageSize) {
    const page: PackedCells = { keys: m.cells.keys, rows: m.cells.rows.slice(start, start + pageSize) };
    pages.push(JSON.stringify(page));
  }
  const first: PackedCells = { keys: m.cells.keys, rows: m.cells.rows.slice(0, pageSize) };
  return { view: { ...view, matrix: { ...m, cells: first, cellPageSize: pageSize } }, pages };
}
