import { AlertOctagon, AlertTriangle } from "lucide-react";
import type { ReactNode } from "react";
import { FactList } from "./section";
import { int, when } from "./format";
import type { RunView } from "./types";
import { Tag, VerdictBadge } from "./verdict-badge";

/** The run's identity and health at a glance: verdict, what/when, and every read error up front. */
export function RunHeader({ view }: { view: RunView }) {
  const { row } = view;
  const facts: { label: string; value: ReactNode | null }[] = [
    { label: "verdict", value: row.verdict === null ? null : <VerdictBadge verdict={row.verdict} /> },
    { label: "ticket", value: row.ticket },
    { label: row.case ? "case" : "workload", value: row.case ?? row.workload },
    {
      label: "when (UTC)",
      value: row.when ? `${when(row.when)}${view.whenSource ? ` · from ${view.whenSource === "path" ? "folder name" : view.whenSource}` : ""}` : null,
    },
    { label: "layout", value: `${row.layout} · ${row.kind}` },
  ];
  if (row.cells !== null) facts.push({ label: "cells", value: `${int(row.cells)} · ${int(row.failedCells)} failed` });
  if (row.findings !== null) facts.push({ label: "findings", value: int(row.findings) });
  if (row.partialEnv !== null)
    facts.push({
      label: "environment",
      value: row.partialEnv ? (
        <Tag tone="warn" testId="partial-env">
          partial snapshot
        </Tag>
      ) : (
        "complete snapshot"
      ),
    });
  return (
    <div className="space-y-3" data-testid="run-header">
      <div className="rounded-lg border border-border bg-panel p-4">
        <FactList facts={facts} testId="run-facts" columns />
      </div>
      {view.errors.length > 0 ? (
        <div role="alert" className="rounded-lg border border-denied/40 bg-denied/5 p-3" data-testid="run-errors">
          <p className="mb-1 flex items-center gap-1.5 text-sm font-medium text-denied">
            <AlertOctagon size={14} aria-hidden />
            {view.errors.length === 1 ? "1 file could not be read" : `${view.errors.length} files could not be read`} — everything else below is shown as read
          </p>
          <ul className="space-y-0.5">
            {view.errors.map((e) => (
              <li key={e} className="font-mono text-xs break-all text-denied" data-testid="run-error">
                {e}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {view.warnings.length > 0 ? (
        <details className="rounded-lg border border-pending/50 bg-pending/5 p-3" data-testid="run-warnings">
          <summary className="flex cursor-pointer items-center gap-1.5 text-sm text-amber-700 dark:text-pending">
            <AlertTriangle size={14} aria-hidden />
            {view.warnings.length === 1 ? "1 reader warning" : `${view.warnings.length} reader warnings`}
          </summary>
          <ul className="mt-2 max-h-48 space-y-0.5 overflow-auto">
            {view.warnings.map((w, i) => (
              <li key={i} className="font-mono text-xs break-all">
                {w}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
