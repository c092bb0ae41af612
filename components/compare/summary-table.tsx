"use client";

import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/components/ui/cn";
import { callDifferences, type ColumnSummary, type Difference } from "@/lib/chat/compare-summary";
import { columnLetter } from "./column-letter";
import { formatCount, formatMs, formatTokens } from "@/components/ui/format";

export interface SummaryColumn {
  label: string;
  summary: ColumnSummary;
  busy: boolean;
}

const ROW_HEAD = "text-left text-xs font-normal text-muted";
const DIFF_CELL = "bg-pending/10 outline outline-1 -outline-offset-1 outline-pending/60";

function describe(difference: Difference, labels: string[]): string {
  const names = (columns: number[]) => columns.map((i) => columnLetter(i)).join(", ");
  const call = `call ${difference.position + 1}`;
  switch (difference.kind) {
    case "different-tool":
      return `${call}: different tools — ${difference.tools.map((t, i) => `${columnLetter(i)} ${t ?? "no call"}`).join(", ")}`;
    case "different-arguments":
      return `${call}: ${difference.tool} with different arguments in ${names(difference.columns)}`;
    case "missed-call":
      return `${call}: ${names(difference.columns)} (${difference.columns.map((i) => labels[i]).join("; ")}) made no ${difference.tool} call`;
  }
}

/** Below the columns: what each did, side by side, with the cells where they part ways marked. */
export function SummaryTable({ columns }: { columns: SummaryColumn[] }) {
  const differences = callDifferences(columns.map((c) => c.summary.calls));
  const marked = new Set(differences.flatMap((d) => d.columns.map((column) => `${d.position}:${column}`)));
  const rows = Math.max(0, ...columns.map((c) => c.summary.calls.length));
  const labels = columns.map((c) => c.label);
  const metric = (name: string, value: (s: ColumnSummary) => string, testId: string) => (
    <TableRow data-testid={`summary-${testId}`}>
      <TableHead scope="row" className={ROW_HEAD}>
        {name}
      </TableHead>
      {/* Read across a row (column against column), so values line up under their column's name. */}
      {columns.map((c, i) => (
        <TableCell key={i} className="font-mono text-xs tabular">
          {value(c.summary)}
        </TableCell>
      ))}
    </TableRow>
  );

  return (
    <section aria-labelledby="compare-summary-title" data-testid="compare-summary" className="flex flex-col gap-3">
      <h2 id="compare-summary-title" className="text-sm font-semibold">
        Summary
      </h2>
      <div
        className="overflow-x-auto rounded-lg border border-border bg-panel focus-visible:outline-2 focus-visible:outline-accent"
        tabIndex={0}
        aria-label="Summary table"
      >
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead className="w-28" />
              {columns.map((c, i) => (
                <TableHead key={i} className="min-w-48 font-mono">
                  {columnLetter(i)} · {c.label}
                  {c.busy ? <span className="ml-1 text-running">(running)</span> : null}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {Array.from({ length: rows }, (_, position) => (
              <TableRow key={position} data-testid="summary-call-row">
                <TableHead scope="row" className={ROW_HEAD}>
                  call {position + 1}
                </TableHead>
                {columns.map((c, i) => {
                  const call = c.summary.calls[position];
                  const differs = marked.has(`${position}:${i}`);
                  return (
                    <TableCell
                      key={i}
                      className={cn("align-top font-mono text-xs", differs && DIFF_CELL)}
                      data-differs={differs || undefined}
                      data-testid="summary-call"
                    >
                      {call ? (
                        <>
                          <span className={cn("font-semibold", call.isError && "text-denied")}>{call.tool}</span>{" "}
                          <span className="break-all text-muted">{call.args}</span>
                        </>
                      ) : (
                        <span className="text-muted">no call</span>
                      )}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
            {rows === 0 ? (
              <TableRow>
                <TableHead scope="row" className={ROW_HEAD}>
                  calls
                </TableHead>
                {columns.map((_, i) => (
                  <TableCell key={i} className="text-xs text-muted">
                    no tool calls
                  </TableCell>
                ))}
              </TableRow>
            ) : null}
            {metric("steps", (s) => formatCount(s.steps), "steps")}
            {metric("tokens in / out", (s) => formatTokens(s.inputTokens, s.outputTokens), "tokens")}
            {metric("TTFT", (s) => formatMs(s.ttftMs), "ttft")}
            {metric("total time", (s) => formatMs(s.durationMs), "time")}
            <TableRow data-testid="summary-errors">
              <TableHead scope="row" className={ROW_HEAD}>
                errors
              </TableHead>
              {columns.map((c, i) => (
                <TableCell key={i} className={cn("text-xs", c.summary.errors.length ? "text-denied" : "text-muted")}>
                  {c.summary.errors.length ? (
                    <ul className="list-disc pl-4">
                      {c.summary.errors.map((e, k) => (
                        <li key={k} className="break-words">
                          {e}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    "none"
                  )}
                </TableCell>
              ))}
            </TableRow>
          </TableBody>
        </Table>
      </div>
      <div data-testid="compare-differences" className="text-sm">
        {differences.length === 0 ? (
          <p className="text-muted" data-testid="compare-no-differences">
            {rows ? "Every column made the same calls with the same arguments." : "No column has called a tool yet."}
          </p>
        ) : (
          <ul className="flex flex-col gap-1">
            {differences.map((d, k) => (
              <li key={k} data-testid="compare-difference" data-kind={d.kind} className="rounded-md border border-pending/50 bg-pending/5 px-3 py-1.5 text-xs">
                {describe(d, labels)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
