"use client";

import { AlertTriangle, GitCompareArrows, RefreshCw } from "lucide-react";
import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { SearchInput } from "@/components/ui/search-input";
import { compareHref, runHref, type RunSortKey } from "./filter-runs";
import { int, when } from "./format";
import { RootForm } from "./root-form";
import { RunsEmpty } from "./runs-empty";
import { ariaSort, SortButton } from "./sort-header";
import type { RunListResponse, RunRow } from "./types";
import { useRunList } from "./use-run-list";
import { useRuns } from "./use-runs";
import { Tag, VerdictBadge } from "./verdict-badge";

const TH = "px-3 py-2 text-left text-xs font-medium text-muted whitespace-nowrap";
const TD = "px-3 py-1.5 align-middle";

export function RunList({ initial }: { initial: RunListResponse }) {
  const { data, error, refresh, refreshing, refreshError } = useRuns(initial);
  const list = useRunList(data.runs);
  const { filter, setFilter, sort } = list;
  const filtered = filter.query !== "" || filter.verdict !== "" || filter.layout !== "";
  const [a, b] = list.picked;
  const failure = error ?? refreshError;

  const th = (label: string, key: RunSortKey, right = false) => (
    <th className={cn(TH, right && "text-right")} aria-sort={ariaSort(sort, key)}>
      <SortButton label={label} sortKey={key} sort={sort} onSort={list.sortBy} right={right} />
    </th>
  );

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <RootForm root={data.root} override={data.override} />
        <button
          type="button"
          onClick={() => refresh()}
          disabled={refreshing}
          data-testid="runs-refresh"
          className="inline-flex h-8 items-center gap-1.5 rounded-md border border-border bg-panel px-2.5 text-sm hover:bg-subtle disabled:opacity-60"
        >
          <RefreshCw size={13} className={refreshing ? "animate-spin" : ""} aria-hidden />
          Refresh
        </button>
      </div>
      {data.rootError && data.override ? (
        <p role="alert" className="rounded-md border border-denied/40 bg-denied/5 px-3 py-2 text-sm text-denied" data-testid="root-error">
          {data.rootError}
        </p>
      ) : null}
      {failure ? (
        <p role="alert" className="text-sm text-denied">
          Could not refresh the runs: {failure.message}
        </p>
      ) : null}

      {data.runs.length > 0 ? (
        <div className="flex flex-wrap items-center gap-2">
          <SearchInput value={filter.query} onChange={(query) => setFilter((f) => ({ ...f, query }))} placeholder="Search runs" testId="runs-search" />
          <select
            aria-label="Filter by verdict"
            data-testid="filter-verdict"
            value={filter.verdict}
            onChange={(e) => setFilter((f) => ({ ...f, verdict: e.target.value as typeof f.verdict }))}
            className="h-8 rounded-md border border-border bg-panel px-2 text-sm"
          >
            <option value="">All verdicts</option>
            <option value="pass">pass</option>
            <option value="fail">fail / error</option>
            <option value="warn">warn</option>
            <option value="unknown">unknown</option>
          </select>
          <select
            aria-label="Filter by layout"
            data-testid="filter-layout"
            value={filter.layout}
            onChange={(e) => setFilter((f) => ({ ...f, layout: e.target.value }))}
            className="h-8 rounded-md border border-border bg-panel px-2 text-sm"
          >
            <option value="">All layouts</option>
            {list.layouts.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
          <div className="ml-auto flex items-center gap-2">
            <span className="text-xs text-muted tabular" data-testid="runs-count">
              {list.rows.length === data.runs.length ? `${data.runs.length} runs` : `${list.rows.length} of ${data.runs.length} runs`}
              {list.picked.length ? ` · ${list.picked.length} of 2 picked` : " · tick two to compare"}
            </span>
            {a && b ? (
              <Link
                href={compareHref(a, b, data.override)}
                data-testid="compare-button"
                className="inline-flex h-8 items-center gap-1.5 rounded-md bg-accent px-3 text-sm font-medium text-white hover:opacity-90"
              >
                <GitCompareArrows size={14} aria-hidden /> Compare
              </Link>
            ) : (
              <button type="button" disabled data-testid="compare-button" className="inline-flex h-8 items-center gap-1.5 rounded-md border border-border px-3 text-sm text-muted opacity-70">
                <GitCompareArrows size={14} aria-hidden /> Compare
              </button>
            )}
          </div>
        </div>
      ) : null}

      {list.rows.length === 0 ? (
        <RunsEmpty root={data.root} rootError={data.rootError} filtered={filtered && data.runs.length > 0} />
      ) : (
        <div className="overflow-x-auto rounded-lg border border-border bg-panel">
          <table className="w-full border-collapse text-sm" data-testid="runs-table">
            <thead className="border-b border-border bg-subtle/60">
              <tr>
                <th className={cn(TH, "w-8")}>
                  <span className="sr-only">Pick to compare</span>
                </th>
                {th("When (UTC)", "when")}
                {th("Verdict", "verdict")}
                {th("Ticket", "ticket")}
                {th("Workload / case", "workload")}
                <th className={cn(TH, "hidden xl:table-cell")} aria-sort={ariaSort(sort, "layout")}>
                  <SortButton label="Layout" sortKey="layout" sort={sort} onSort={list.sortBy} />
                </th>
                {th("Cells", "cells", true)}
                {th("Failed", "failedCells", true)}
                <th className={TH}>Env</th>
                <th className={cn(TH, "hidden lg:table-cell")} aria-sort={ariaSort(sort, "rel")}>
                  <SortButton label="Path" sortKey="rel" sort={sort} onSort={list.sortBy} />
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {list.rows.map((row) => (
                <RunTableRow key={row.rel} row={row} override={data.override} picked={list.picked.includes(row.rel)} onPick={() => list.toggle(row.rel)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function RunTableRow({ row, override, picked, onPick }: { row: RunRow; override: string | null; picked: boolean; onPick: () => void }) {
  const href = runHref(row.rel, override);
  const title = row.workload ?? row.case ?? row.rel.split("/").at(-1) ?? row.rel;
  return (
    <tr data-testid="run-row" data-rel={row.rel} className={cn("hover:bg-subtle/70", picked && "bg-accent-soft/50")}>
      <td className={cn(TD, "w-8")}>
        <input type="checkbox" checked={picked} onChange={onPick} aria-label={`Pick ${row.rel} to compare`} data-testid="run-pick" className="size-3.5 accent-[var(--color-accent)]" />
      </td>
      <td className={cn(TD, "font-mono text-xs whitespace-nowrap tabular")}>{when(row.when)}</td>
      <td className={TD}>
        <VerdictBadge verdict={row.verdict} />
      </td>
      <td className={cn(TD, "font-mono text-xs whitespace-nowrap")}>{row.ticket ?? <span className="text-muted">–</span>}</td>
      <td className={cn(TD, "max-w-[12rem] lg:max-w-[16rem]")}>
        <div className="flex items-center gap-1.5">
          <Link href={href} title={row.rel} className="truncate font-medium hover:text-accent hover:underline" data-testid="run-link">
            {title}
          </Link>
          {row.errorCount > 0 ? (
            <span className="inline-flex shrink-0 items-center gap-0.5 text-xs text-denied" title={row.firstError ?? undefined} data-testid="run-error-flag">
              <AlertTriangle size={12} aria-hidden />
              {row.errorCount}
            </span>
          ) : null}
        </div>
      </td>
      <td className={cn(TD, "hidden text-xs text-muted xl:table-cell")}>{row.layout}</td>
      <td className={cn(TD, "text-right font-mono text-xs tabular")}>{row.cells === null ? <span className="text-muted">–</span> : int(row.cells)}</td>
      <td className={cn(TD, "text-right font-mono text-xs tabular", (row.failedCells ?? 0) > 0 && "text-denied")}>
        {row.failedCells === null ? <span className="text-muted">–</span> : int(row.failedCells)}
      </td>
      <td className={TD}>
        {row.partialEnv ? (
          <Tag tone="warn" title="An environment snapshot of this run is partial (partial: true)" testId="partial-env">
            partial
          </Tag>
        ) : row.partialEnv === false ? (
          <span className="text-xs text-muted">full</span>
        ) : (
          <span className="text-xs text-muted">–</span>
        )}
      </td>
      <td className={cn(TD, "hidden max-w-[22rem] lg:table-cell")}>
        <span className="block truncate font-mono text-xs text-muted" title={row.rel}>
          {row.rel}
        </span>
      </td>
    </tr>
  );
}
