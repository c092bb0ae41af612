"use client";

import { RotateCcw } from "lucide-react";
import { cn } from "@/components/ui/cn";
import type { RecentCall } from "./recent-calls";
import { Button } from "@/components/ui/button";

const TONE: Record<RecentCall["outcome"], string> = {
  done: "text-done",
  error: "text-denied",
  denied: "text-denied",
  "timed-out": "text-amber-700 dark:text-pending",
};

export function RecentList({
  calls,
  onRunAgain,
  onClear,
  disabled,
}: {
  calls: RecentCall[];
  onRunAgain: (call: RecentCall) => void;
  onClear: () => void;
  disabled?: boolean;
}) {
  return (
    <section aria-labelledby="recent-title" data-testid="try-it-recent">
      <div className="mb-1.5 flex items-center">
        <h3 id="recent-title" className="text-xs font-medium text-muted">
          Recent calls in this browser
        </h3>
        {calls.length ? (
          <Button variant="ghost" size="bare" onClick={onClear} className="ml-auto text-xs hover:bg-transparent">
            Clear
          </Button>
        ) : null}
      </div>
      {calls.length === 0 ? (
        <p className="text-xs text-muted">No calls yet. Fill in the form and press Run; calls are kept here for next time.</p>
      ) : (
        <ul className="divide-y divide-border rounded-md border border-border">
          {calls.map((c) => (
            <li key={c.id} className="flex items-center gap-2 px-2 py-1.5 text-xs" data-testid="recent-call">
              <span className={cn("w-16 shrink-0 font-medium", TONE[c.outcome])}>{c.outcome}</span>
              <code className="min-w-0 flex-1 truncate font-mono text-muted" title={JSON.stringify(c.input)}>
                {JSON.stringify(c.input)}
              </code>
              {c.durationMs !== undefined ? <span className="shrink-0 font-mono text-muted tabular">{c.durationMs} ms</span> : null}
              <Button
                size="sm"
                disabled={disabled}
                onClick={() => onRunAgain(c)}
                data-testid="recent-run-again"
                className="h-auto shrink-0 gap-1 rounded px-1.5 py-0.5"
              >
                <RotateCcw size={11} aria-hidden /> Run again
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
