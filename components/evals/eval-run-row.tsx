import Link from "next/link";
import { FileWarning, Play, Square } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { runHref } from "@/components/runs/filter-runs";
import type { EvalAction, EvalRunStatus } from "./use-evals";

const pct = (n: number, of: number) => (of ? `${Math.round((n / of) * 100)}%` : "–");

function StateBadge({ run }: { run: EvalRunStatus }) {
  if (run.state === "running") return <Badge tone="running">{run.cancelling ? "cancelling…" : "running"}</Badge>;
  if (run.state === "failed") return <Badge tone="denied">failed</Badge>;
  if (run.state === "interrupted")
    return (
      <Badge tone="pending" title="The server stopped while this eval ran; the trials that finished are kept">
        interrupted
      </Badge>
    );
  if (run.state === "cancelled") return <Badge tone="pending">cancelled</Badge>;
  return <Badge tone={run.failed + run.errors > 0 ? "denied" : "done"}>{pct(run.passed, run.total)} passed</Badge>;
}

const BAR: Record<EvalRunStatus["state"], string> = {
  running: "bg-running",
  failed: "bg-denied",
  interrupted: "bg-pending",
  cancelled: "bg-pending",
  done: "bg-done",
};

/**
 * One eval: a live bar while it runs (with Cancel), then its pass rate and a link to the run; an
 * interrupted or cancelled one offers Resume (only the missing trials) and its partial result.
 */
export function EvalRunRow({ run, onAction, busy }: { run: EvalRunStatus; onAction: (action: EvalAction) => void; busy: boolean }) {
  const share = run.total ? run.done / run.total : 0;
  const stopped = run.state === "interrupted" || run.state === "cancelled";
  return (
    <li data-testid="eval-run" data-state={run.state} className="space-y-1.5 rounded-md border border-border bg-panel px-3 py-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-mono font-medium">{run.suite}</span>
        <span className="font-mono text-xs text-muted">{run.label}</span>
        <span className="ml-auto flex items-center gap-2">
          {run.partial ? (
            <Badge tone="pending" title="The result has fewer trials than the matrix">
              partial
            </Badge>
          ) : null}
          <StateBadge run={run} />
          {run.state === "running" ? (
            <Button size="sm" variant="danger" data-testid="eval-cancel" disabled={busy || run.cancelling} onClick={() => onAction("cancel")}>
              <Square className="size-3" aria-hidden /> Cancel
            </Button>
          ) : null}
          {stopped ? (
            <Button size="sm" data-testid="eval-resume" disabled={busy} onClick={() => onAction("resume")}>
              <Play className="size-3.5" aria-hidden /> Resume
            </Button>
          ) : null}
          {stopped && !run.runRel ? (
            <Button size="sm" data-testid="eval-partial" disabled={busy || run.done === 0} onClick={() => onAction("partial")}>
              <FileWarning className="size-3.5" aria-hidden /> Open as partial run
            </Button>
          ) : null}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={`${run.suite} progress`}
        aria-valuemin={0}
        aria-valuemax={run.total}
        aria-valuenow={run.done}
        className="h-1.5 overflow-hidden rounded bg-subtle"
      >
        <div className={`h-full ${BAR[run.state]}`} style={{ width: `${share * 100}%` }} />
      </div>
      <div className="flex flex-wrap items-center gap-3 font-mono text-xs text-muted tabular" data-testid="eval-progress">
        <span>
          {run.done}/{run.total} trials
        </span>
        <span className="text-green-700 dark:text-done">✓ {run.passed}</span>
        <span className={run.failed ? "text-denied" : ""}>✗ {run.failed}</span>
        <span className={run.errors ? "text-denied" : ""}>! {run.errors}</span>
        {run.waiting !== null ? (
          <span data-testid="eval-waiting" title="Trials in the job queue that no worker has taken yet">
            {run.waiting} queued
          </span>
        ) : null}
        {run.runRel ? (
          <Link href={runHref(run.runRel, null)} className="ml-auto font-sans text-accent hover:underline" data-testid="eval-result-link">
            {run.partial ? "Open the partial result in Runs →" : "Open the result in Runs →"}
          </Link>
        ) : null}
      </div>
      {run.state === "interrupted" ? (
        <p className="text-xs text-muted" data-testid="eval-interrupted">
          The server stopped while this eval ran. {run.done} trial{run.done === 1 ? "" : "s"} finished and are kept: resume to run only the missing ones.
        </p>
      ) : null}
      {run.error ? <p className="font-mono text-xs text-denied">{run.error}</p> : null}
      {run.cells.length ? (
        <ul className="flex flex-wrap gap-1.5 text-xs" data-testid="eval-cells">
          {run.cells.map((c) => (
            <li key={c.name} className="rounded border border-border px-1.5 py-0.5 font-mono" title={c.topReason ?? "no mismatches"}>
              {c.name} <span className={c.passed < c.trials ? "text-denied" : "text-green-700 dark:text-done"}>{pct(c.passed, c.trials)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
