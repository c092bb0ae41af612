import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { runHref } from "@/components/runs/filter-runs";
import type { EvalRunStatus } from "./use-evals";

const pct = (n: number, of: number) => (of ? `${Math.round((n / of) * 100)}%` : "–");

/** One eval of this server: a live bar while it runs, then its pass rate and a link to the run. */
export function EvalRunRow({ run }: { run: EvalRunStatus }) {
  const share = run.total ? run.done / run.total : 0;
  return (
    <li data-testid="eval-run" data-state={run.state} className="space-y-1.5 rounded-md border border-border bg-panel px-3 py-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-mono font-medium">{run.suite}</span>
        <span className="font-mono text-xs text-muted">{run.label}</span>
        <span className="ml-auto flex items-center gap-2">
          {run.state === "running" ? (
            <Badge tone="running">running</Badge>
          ) : run.state === "failed" ? (
            <Badge tone="denied">failed</Badge>
          ) : (
            <Badge tone={run.failed + run.errors > 0 ? "denied" : "done"}>{pct(run.passed, run.total)} passed</Badge>
          )}
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
        <div
          className={run.state === "failed" ? "h-full bg-denied" : run.state === "running" ? "h-full bg-running" : "h-full bg-done"}
          style={{ width: `${share * 100}%` }}
        />
      </div>
      <div className="flex flex-wrap items-center gap-3 font-mono text-xs text-muted tabular" data-testid="eval-progress">
        <span>
          {run.done}/{run.total} trials
        </span>
        <span className="text-green-700 dark:text-done">✓ {run.passed}</span>
        <span className={run.failed ? "text-denied" : ""}>✗ {run.failed}</span>
        <span className={run.errors ? "text-denied" : ""}>! {run.errors}</span>
        {run.runRel ? (
          <Link href={runHref(run.runRel, null)} className="ml-auto font-sans text-accent hover:underline" data-testid="eval-result-link">
            Open the result in Runs →
          </Link>
        ) : null}
      </div>
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
