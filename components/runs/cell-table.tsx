"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { AlertOctagon, ChevronRight } from "lucide-react";
import { useEffect, useEffectEvent, useRef } from "react";
import { cn } from "@/components/ui/cn";
import { CellDetails } from "./cell-details";
import type { CellSort, CellSortKey } from "./filter-cells";
import { int, ms, NOT_RECORDED, pct, ratio } from "./format";
import { ariaSort, SortButton } from "./sort-header";
import type { CellView } from "./types";
import { Tag } from "./verdict-badge";

/** One template for header and rows, so columns line up without a <table> (rows are absolutely placed). */
const COLUMNS = "minmax(13rem,2.5fr) minmax(5rem,0.8fr) repeat(3,4.25rem) repeat(2,5rem) repeat(2,5.25rem) 4.75rem";
/** An eval's cells: no step-time ratio (there is no baseline to be slower than). */
const EVAL_COLUMNS = "minmax(13rem,2.5fr) minmax(5rem,0.8fr) repeat(3,4.25rem) repeat(2,5rem) repeat(2,5.25rem)";
const ROW_HEIGHT = 34;

type NumericColumn = { key: CellSortKey; label: string; render: (c: CellView) => string; bad?: (c: CellView) => boolean };

const NUMERIC: NumericColumn[] = [
  { key: "trials", label: "Trials", render: (c) => int(c.trials) },
  { key: "failed", label: "Failed", render: (c) => int(c.failed), bad: (c) => (c.failed ?? 0) > 0 },
  { key: "errors", label: "Errors", render: (c) => int(c.errors), bad: (c) => (c.errors ?? 0) > 0 },
  { key: "failureRate", label: "Fail rate", render: (c) => pct(c.failureRate), bad: (c) => (c.failureRate ?? 0) > 0 },
  { key: "errorRate", label: "Err rate", render: (c) => pct(c.errorRate), bad: (c) => (c.errorRate ?? 0) > 0 },
  { key: "meanMs", label: "Mean ms", render: (c) => ms(c.meanMs) },
  { key: "p90Ms", label: "p90 ms", render: (c) => ms(c.p90Ms) },
  { key: "stepTimeRatio", label: "Ratio", render: (c) => ratio(c.stepTimeRatio) },
];
const EVAL_NUMERIC = NUMERIC.filter((c) => c.key !== "stepTimeRatio");

/**
 * The matrix as a virtualized table: only the rows in view (plus a margin) are in the DOM, so a
 * 5,000-cell matrix scrolls like a 5-cell one. Rows open in place to show their details.
 */
export function CellTable({
  evalRun = false,
  rows,
  total,
  sort,
  onSort,
  open,
  onToggle,
  focus,
}: {
  /** An eval run: the environment column is the model, and there is no step-time ratio. */
  evalRun?: boolean;
  rows: readonly CellView[];
  total: number;
  sort: CellSort;
  onSort: (key: CellSortKey) => void;
  open: ReadonlySet<number>;
  onToggle: (index: number) => void;
  focus: { index: number; n: number } | null;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const columns = evalRun ? EVAL_COLUMNS : COLUMNS;
  const numeric = evalRun ? EVAL_NUMERIC : NUMERIC;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (open.has(rows[i]?.index ?? -1) ? ROW_HEIGHT + 180 : ROW_HEIGHT),
    getItemKey: (i) => rows[i]?.index ?? i,
    overscan: 12,
    // The server renders the first screenful; the browser measures from there.
    initialRect: { width: 1100, height: 520 },
  });

  // Only a new focus request scrolls; later re-renders (new rows, a new virtualizer) must not yank the view back.
  const scrollTo = useEffectEvent((index: number) => {
    const i = rows.findIndex((c) => c.index === index);
    if (i !== -1) virtualizer.scrollToIndex(i, { align: "start" });
  });
  useEffect(() => {
    if (focus) scrollTo(focus.index);
  }, [focus]);

  return (
    <div
      ref={scrollRef}
      role="table"
      aria-rowcount={rows.length + 1}
      aria-label="Matrix cells"
      data-testid="cell-table"
      data-total={total}
      className="max-h-[32rem] overflow-auto rounded-lg border border-border bg-panel"
    >
      <div className="min-w-[62rem]">
        <div role="row" className="sticky top-0 z-10 grid border-b border-border bg-subtle px-2 py-1.5 text-xs" style={{ gridTemplateColumns: columns }}>
          <div role="columnheader" aria-sort={ariaSort(sort, "name")} className="pl-5">
            <SortButton label="Cell" sortKey="name" sort={sort} onSort={onSort} />
          </div>
          <div role="columnheader" className="font-medium text-muted">
            {evalRun ? "Model" : "Env"}
          </div>
          {numeric.map((col) => (
            <div key={col.key} role="columnheader" aria-sort={ariaSort(sort, col.key)} className="text-right">
              <SortButton label={col.label} sortKey={col.key} sort={sort} onSort={onSort} right />
            </div>
          ))}
        </div>
        {rows.length === 0 ? (
          <p className="px-4 py-6 text-center text-sm text-muted" data-testid="cells-empty">
            No cell matches. Clear the search or untick “failed only”.
          </p>
        ) : (
          <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {virtualizer.getVirtualItems().map((item) => {
              const cell = rows[item.index];
              if (!cell) return null;
              const isOpen = open.has(cell.index);
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="absolute top-0 left-0 w-full border-b border-border"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  <div
                    role="row"
                    aria-rowindex={item.index + 2}
                    aria-expanded={isOpen}
                    tabIndex={0}
                    data-testid="cell-row"
                    data-cell={cell.name}
                    onClick={() => onToggle(cell.index)}
                    onKeyDown={(e) => {
                      if (e.key === "Enter" || e.key === " ") {
                        e.preventDefault();
                        onToggle(cell.index);
                      }
                    }}
                    className={cn("grid cursor-pointer items-center px-2 text-sm hover:bg-subtle/70", isOpen && "bg-subtle/60")}
                    style={{ gridTemplateColumns: columns, height: ROW_HEIGHT }}
                  >
                    <div role="cell" className="flex min-w-0 items-center gap-1.5">
                      <ChevronRight size={13} aria-hidden className={cn("shrink-0 text-muted transition-transform", isOpen && "rotate-90")} />
                      <span className="truncate font-mono text-xs" title={cell.name}>
                        {cell.name}
                      </span>
                      {cell.baseline && !evalRun ? <Tag tone="accent">baseline</Tag> : null}
                      {cell.unreliable ? <Tag tone="warn">unreliable</Tag> : null}
                      {cell.error ? <AlertOctagon size={13} className="shrink-0 text-denied" aria-label="cell error" /> : null}
                    </div>
                    <div role="cell" className="truncate font-mono text-xs text-muted">
                      {cell.environment ?? NOT_RECORDED}
                    </div>
                    {numeric.map((col) => {
                      const text = col.render(cell);
                      return (
                        <div
                          role="cell"
                          key={col.key}
                          className={cn("text-right font-mono text-xs tabular", text === NOT_RECORDED ? "text-muted" : col.bad?.(cell) ? "text-denied" : "")}
                          title={text === NOT_RECORDED ? "not recorded" : undefined}
                        >
                          {text}
                        </div>
                      );
                    })}
                  </div>
                  {isOpen ? <CellDetails cell={cell} evalRun={evalRun} /> : null}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
