/**
 * How the chat draws the older messages it loads as the person scrolls up.
 *
 * - A few rows per frame, from the bottom up, as many as fit a time budget: drawing a page of 50 at
 *   once (markdown, tool cards) was one task of 50–120 ms, long enough to stall the scroll.
 * - Each loaded page as one group the browser may skip (`content-visibility: auto`): with a skip
 *   box per row, Chromium's per-frame visibility check, pre-paint and layout walked every one of
 *   5,000 rows, ~100 ms a frame at the end of a long chat.
 */

/** Rows in the first slice; later slices follow how long the last one took (nextSliceRows). */
export const FIRST_SLICE_ROWS = 4;
/** What one slice may take (render, commit, layout): well under the 50 ms of a long task, on a loaded machine too. */
export const SLICE_BUDGET_MS = 20;
const MAX_SLICE_ROWS = 16;

/** Rows for the next slice: half after a slice over the budget, twice after one under half of it. */
export function nextSliceRows(rows: number, tookMs: number, budgetMs = SLICE_BUDGET_MS): number {
  if (tookMs > budgetMs) return Math.max(1, Math.floor(rows / 2));
  if (tookMs < budgetMs / 2) return Math.min(MAX_SLICE_ROWS, rows * 2);
  return rows;
}

/**
 * How many leading messages are not drawn yet: those before the first drawn one. A list that no
 * longer holds it (the whole chat read again) is drawn in full.
 */
export function undrawnCount(ids: readonly string[], firstDrawnId: string | undefined): number {
  if (firstDrawnId === undefined) return 0;
  const index = ids.indexOf(firstDrawnId);
  return index < 0 ? 0 : index;
}

/** The first message to draw after the next slice: up to `perFrame` more rows above the first drawn one. */
export function nextFirstDrawn(ids: readonly string[], firstDrawnId: string | undefined, perFrame: number): string | undefined {
  const undrawn = undrawnCount(ids, firstDrawnId);
  return undrawn === 0 ? firstDrawnId : ids[Math.max(0, undrawn - perFrame)];
}

/**
 * Where to scroll so that a row that moved on screen from `before` to `after` (it had rows put in
 * above it) goes back to where the person saw it; `scrollTop` is where the list is scrolled now.
 */
export function keptScrollTop(scrollTop: number, before: number, after: number): number {
  return Math.max(0, scrollTop + after - before);
}

/** Rows of older messages that the browser lays out, or skips, together. */
export interface RowGroup {
  /** The group's last message: a page is drawn from the bottom up, so this does not change as it fills. */
  key: string;
  start: number;
  end: number;
}

/**
 * Groups the drawn rows ending at each of `pageEnds` (the list passes one: the message just above
 * the rows the chat opened with). A run longer than `maxRows` (all the older pages) is cut from the
 * bottom up, in pages as the server sends them, so each group keeps its key as rows above it are
 * drawn. Rows after the last end, the ones the chat opened with and those written since, are left
 * ungrouped (from `recentFrom`).
 */
export function groupOlderRows(ids: readonly string[], pageEnds: ReadonlySet<string>, maxRows: number): { groups: RowGroup[]; recentFrom: number } {
  const groups: RowGroup[] = [];
  let start = 0;
  ids.forEach((id, index) => {
    if (!pageEnds.has(id)) return;
    const run: RowGroup[] = [];
    for (let end = index + 1; end > start; end -= maxRows) run.unshift({ key: ids[end - 1]!, start: Math.max(start, end - maxRows), end });
    groups.push(...run);
    start = index + 1;
  });
  return { groups, recentFrom: start };
}
