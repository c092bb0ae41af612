import { AlertTriangle } from "lucide-react";
import { cn } from "@/components/ui/cn";
import { Section } from "@/components/runs/section";
import type { RunDiff } from "@/components/runs/types";

type Changes = NonNullable<RunDiff["evalChanges"]>;

const KINDS = [
  { key: "regressed", label: "Regressed", tone: "text-denied", note: "passed (or was flaky) in A, fails in B" },
  { key: "fixed", label: "Fixed", tone: "text-green-700 dark:text-done", note: "failed (or was flaky) in A, passes in B" },
  { key: "flaky", label: "Flaky", tone: "text-amber-700 dark:text-pending", note: "passed in some of B's trials and failed in others" },
  { key: "new", label: "New", tone: "text-accent", note: "in B only" },
  { key: "removed", label: "Removed", tone: "text-muted", note: "in A only" },
] as const;

/** Two eval runs case by case (lib/evals/diff.ts, as `toolroom eval diff`), with why they may not compare like for like. */
export function EvalChanges({ changes }: { changes: Changes }) {
  const none = KINDS.every((k) => changes[k.key].length === 0);
  return (
    <Section title="Cases" testId="eval-changes" note="each case judged per cell: all trials passed, all failed, or flaky">
      {changes.warnings.length ? (
        <ul role="alert" className="space-y-0.5 rounded-lg border border-pending/50 bg-pending/5 p-3 text-xs" data-testid="eval-changes-warnings">
          {changes.warnings.map((w) => (
            <li key={w} className="flex items-center gap-1.5 text-amber-700 dark:text-pending">
              <AlertTriangle size={12} aria-hidden /> {w}
            </li>
          ))}
        </ul>
      ) : null}
      {none ? (
        <p className="rounded-lg border border-dashed border-border p-4 text-sm text-muted" data-testid="eval-no-changes">
          No case changed between the two runs.
        </p>
      ) : (
        <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
          {KINDS.filter((k) => changes[k.key].length).map((k) => (
            <div key={k.key} className="rounded-lg border border-border bg-panel p-3" data-testid={`eval-${k.key}`}>
              <h3 className={cn("text-sm font-semibold", k.tone)}>
                {k.label} · {changes[k.key].length}
              </h3>
              <p className="mb-1 text-[11px] text-muted">{k.note}</p>
              <ul className="space-y-0.5 font-mono text-xs">
                {changes.changed
                  .filter((d) => d.change === k.key)
                  .map((d) => (
                    <li key={`${d.case}\u0000${d.cell}`} data-testid="eval-change" data-case={d.case}>
                      {d.case} <span className="text-muted">in {d.cell}</span>
                      {d.before && d.after ? (
                        <span className="text-muted">
                          {" "}
                          ({d.before} → {d.after})
                        </span>
                      ) : null}
                      {d.reason ? (
                        <div className="pl-3 font-sans text-[11px] text-muted" data-testid="eval-change-reason">
                          {d.reason}
                        </div>
                      ) : null}
                    </li>
                  ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </Section>
  );
}
