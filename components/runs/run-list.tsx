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
import { EvalPassRate } from "@/components/evals/eval-pass-rate";
import { Button, buttonVariants } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { Table, TableHeader, TableBody, TableRow, TableHead, TableCell } from "@/components/ui/table";

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
    <TableHead className={cn(TH, right && "text-right")} aria-sort={ariaSort(sort, key)}>
      <SortButton label={label} sortKey={key} sort={sort} onSort={list.sortBy} right={right} />
    </TableHead>
  );

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <RootForm root={data.root} override={data.override} />
        <Button onClick={() => refresh()} disabled={refreshing} data-testid="runs-refresh" className="px-2.5">
          <RefreshCw size={13} className={refreshing ? "animate-spin" : ""} aria-hidden />
          Refresh
        </Button>
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
          <Select
            aria-label="Filter by result"
            title="A run's verdict; an eval run's pass rate: pass when every trial passed, warn when some failed, fail when none passed"
            data-testid="filter-verdict"
            value={filter.verdict}
            onChange={(e) => setFilter((f) => ({ ...f, verdict: e.target.value as typeof f.verdict }))}
          >
            <option value="">All results</option>
            <option value="pass">pass · evals 100%</option>
            <option value="warn">warn · evals partly passing</option>
            <option value="fail">fail / error · evals 0%</option>
            <option value="unknown">unknown</option>
          </Select>
          <Select
            aria-label="Filter by layout"
            data-testid="filter-layout"
            value={filter.layout}
            onChange={(e) => setFilter((f) => ({ ...f, layout: e.target.value }))}
          >
            <option value="">All layouts</option>
            {list.layouts.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </Select>
          <div className="ml-auto flex items-center gap-2">
            <span className="text-xs text-muted tabular" data-testid="runs-count">
              {list.rows.length === data.runs.length ? `${data.runs.length} runs` : `${list.rows.length} of ${data.runs.length} runs`}
              {list.picked.length ? ` · ${list.picked.length} of 2 picked` : " · tick two to compare"}
            </span>
            {a && b ? (
              <Link href={compareHref(a, b, data.override)} data-testid="compare-button" className={buttonVariants({ variant: "primary" })}>
                <GitCompareArrows size={14} aria-hidden /> Compare
              </Link>
            ) : (
              <Button disabled data-testid="compare-button" className="text-muted">
                <GitCompareArrows size={14} aria-hidden /> Compare
              </Button>
            )}
          </div>
        </div>
      ) : null}

      {list.rows.length === 0 ? (
        <RunsEmpty
          root={data.root}
          rootError={data.rootError}
          errorShown={Boolean(data.rootError && data.override)}
          filtered={filtered && data.runs.length > 0}
          noRunsYet={data.noRunsYet}
          examples={data.examples}
        />
      ) : (
        <div className="overflow-x-auto rounded-lg border border-border bg-panel">
          <Table className="w-full border-collapse text-sm" data-testid="runs-table">
            <TableHeader className="border-b border-border bg-subtle/60">
              <TableRow>
                <TableHead className={cn(TH, "w-8")}>
                  <span className="sr-only">Pick to compare</span>
                </TableHead>
                {th("When (UTC)", "when")}
                {th("Result", "verdict")}
                {th("Ticket", "ticket")}
                {th("Workload / case", "workload")}
                <TableHead className={cn(TH, "hidden xl:table-cell")} aria-sort={ariaSort(sort, "layout")}>
                  <SortButton label="Layout" sortKey="layout" sort={sort} onSort={list.sortBy} />
                </TableHead>
                {th("Cells", "cells", true)}
                {th("Failed", "failedCells", true)}
                <TableHead className={TH}>Env</TableHead>
                <TableHead className={cn(TH, "hidden lg:table-cell")} aria-sort={ariaSort(sort, "rel")}>
                  <SortButton label="Path" sortKey="rel" sort={sort} onSort={list.sortBy} />
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody className="divide-y divide-border">
              {list.rows.map((row) => (
                <RunTableRow key={row.rel} row={row} override={data.override} picked={list.picked.includes(row.rel)} onPick={() => list.toggle(row.rel)} />
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </div>
  );
}

function RunTableRow({ row, override, picked, onPick }: { row: RunRow; override: string | null; picked: boolean; onPick: () => void }) {
  const href = runHref(row.rel, override);
  const title = row.workload ?? row.case ?? row.rel.split("/").at(-1) ?? row.rel;
  return (
    <TableRow data-testid="run-row" data-rel={row.rel} className={cn("hover:bg-subtle/70", picked && "bg-accent-soft/50")}>
      <TableCell className={cn(TD, "w-8")}>
        <input
          type="checkbox"
          checked={picked}
          onChange={onPick}
          aria-label={`Pick ${row.rel} to compare`}
          data-testid="run-pick"
          className="size-3.5 accent-[var(--color-accent)]"
        />
      </TableCell>
      <TableCell className={cn(TD, "font-mono text-xs whitespace-nowrap tabular")}>{when(row.when)}</TableCell>
      <TableCell className={TD}>{row.eval ? <EvalPassRate facts={row.eval} /> : <VerdictBadge verdict={row.verdict} />}</TableCell>
      <TableCell className={cn(TD, "font-mono text-xs whitespace-nowrap")}>
        {row.eval ? (
          <span data-testid="eval-suite">
            <span className="font-sans text-muted">suite </span>
            {row.eval.suite}
          </span>
        ) : (
          (row.ticket ?? <span className="text-muted">–</span>)
        )}
      </TableCell>
      <TableCell className={cn(TD, "max-w-[12rem] lg:max-w-[16rem]")}>
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
      </TableCell>
      {row.eval ? (
        <>
          <TableCell className={cn(TD, "hidden text-xs text-muted xl:table-cell")}>eval</TableCell>
          {/* Cells, Failed and Env: an eval's cells are model × mode × protocol, its env is no harness snapshot. */}
          <TableCell colSpan={3} className={cn(TD, "text-right font-mono text-xs whitespace-nowrap tabular")} data-testid="eval-size">
            {int(row.eval.cells)} cells · {int(row.eval.cases)} cases · {int(row.eval.trials)} trials
          </TableCell>
        </>
      ) : (
        <>
          <TableCell className={cn(TD, "hidden text-xs text-muted xl:table-cell")}>{row.layout}</TableCell>
          <TableCell className={cn(TD, "text-right font-mono text-xs tabular")}>
            {row.cells === null ? <span className="text-muted">–</span> : int(row.cells)}
          </TableCell>
          <TableCell className={cn(TD, "text-right font-mono text-xs tabular", (row.failedCells ?? 0) > 0 && "text-denied")}>
            {row.failedCells === null ? <span className="text-muted">–</span> : int(row.failedCells)}
          </TableCell>
          <TableCell className={TD}>
            {row.partialEnv ? (
              <Tag tone="warn" title="An environment snapshot of this run is partial (partial: true)" testId="partial-env">
                partial
              </Tag>
            ) : row.partialEnv === false ? (
              <span className="text-xs text-muted">full</span>
            ) : (
              <span className="text-xs text-muted">–</span>
            )}
          </TableCell>
        </>
      )}
      <TableCell className={cn(TD, "hidden max-w-[22rem] lg:table-cell")}>
        <span className="block truncate font-mono text-xs text-muted" title={row.rel}>
          {row.rel}
        </span>
      </TableCell>
    </TableRow>
  );
}
