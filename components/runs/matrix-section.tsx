"use client";

import { useMemo } from "react";
import { SearchInput } from "@/components/ui/search-input";
import { CellTable } from "./cell-table";
import { HeatMap, MetricSwitch } from "./heat-map";
import { Section } from "./section";
import type { MatrixView } from "./types";
import { useCellPages } from "./use-cell-pages";
import { useMatrixView } from "./use-matrix-view";

/**
 * `root` (the ?root= override) and `path` (the run, relative to the root) say where the remaining
 * cell pages come from. An eval run (`evalRun`) has its case grid for a heat map, and no steps,
 * baseline or step-time ratio: its cells are listed in eval terms, for their failing cases and hints.
 */
export function MatrixSection({ matrix, root, path, evalRun = false }: { matrix: MatrixView; root: string | null; path: string; evalRun?: boolean }) {
  const { cells, loading, error } = useCellPages(matrix, root, path);
  const v = useMatrixView(cells);
  const failed = useMemo(() => cells.filter((c) => c.failedCell).length, [cells]);
  const facts = evalRun
    ? [matrix.trialsPerCell !== null ? `${matrix.trialsPerCell} trials a cell (cases × trials)` : null, "click a cell for its failing cases"]
    : [
        matrix.trialsPerCell !== null ? `${matrix.trialsPerCell} trials/cell` : null,
        matrix.stepsPerTrial !== null ? `${matrix.stepsPerTrial} steps/trial` : null,
        `baseline: ${matrix.baselineCell ?? "none"}`,
        matrix.schemaVersion !== null ? `schema ${matrix.schemaVersion}` : "schema not recorded",
      ];

  const progress = loading ? (
    <p className="text-xs text-muted" data-testid="cells-loading">
      Loading cells: {cells.length.toLocaleString("en-US")} of {matrix.cellCount.toLocaleString("en-US")}…
    </p>
  ) : error ? (
    <p role="alert" className="font-mono text-xs text-denied" data-testid="cells-load-error">
      {error}
    </p>
  ) : null;

  if (cells.length === 0) {
    return (
      <Section title="Matrix" testId="matrix-section">
        <p className="rounded-lg border border-dashed border-border p-4 text-sm text-muted">matrix.json records no cells.</p>
      </Section>
    );
  }
  return (
    <>
      {evalRun ? null : (
        <Section
          title="Heat map"
          testId="heat-section"
          note={`${matrix.cellCount.toLocaleString("en-US")} cells · click a tile to open it below`}
          actions={<MetricSwitch metric={v.metric} onChange={v.setMetric} />}
        >
          {progress}
          <div className="rounded-lg border border-border bg-panel p-3">
            <HeatMap cells={cells} metric={v.metric} onPick={v.reveal} />
          </div>
        </Section>
      )}
      <Section title={evalRun ? "Cells" : "Matrix"} testId="matrix-section" note={facts.filter(Boolean).join(" · ")}>
        {matrix.producerWarnings.length > 0 ? (
          <ul className="text-xs text-amber-700 dark:text-pending">
            {matrix.producerWarnings.map((w) => (
              <li key={w}>producer warning: {w}</li>
            ))}
          </ul>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <SearchInput value={v.filter.query} onChange={(query) => v.setFilter((f) => ({ ...f, query }))} placeholder="Filter cells" testId="cells-search" />
          <label className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              checked={v.filter.failedOnly}
              onChange={(e) => v.setFilter((f) => ({ ...f, failedOnly: e.target.checked }))}
              data-testid="cells-failed-only"
              className="size-3.5 accent-[var(--color-accent)]"
            />
            failed only ({failed})
          </label>
          <span className="ml-auto text-xs text-muted tabular" data-testid="cells-count">
            {v.rows.length === cells.length
              ? `${cells.length.toLocaleString("en-US")} cells`
              : `${v.rows.length.toLocaleString("en-US")} of ${cells.length.toLocaleString("en-US")} cells`}
          </span>
        </div>
        <CellTable evalRun={evalRun} rows={v.rows} total={cells.length} sort={v.sort} onSort={v.sortBy} open={v.open} onToggle={v.toggle} focus={v.focus} />
      </Section>
    </>
  );
}
