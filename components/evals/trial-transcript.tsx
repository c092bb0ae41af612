"use client";

import { useQuery } from "@tanstack/react-query";
import { ChevronRight } from "lucide-react";
import { MessageItem } from "@/components/chat/message-item";
import type { EvalTranscriptView } from "@/components/runs/types";
import { RawView } from "@/components/trace/raw-view";
import { StepDetail } from "@/components/trace/step-detail";
import { formatMs, formatTokens } from "@/components/ui/format";
import { Skeleton } from "@/components/ui/skeleton";
import { fetchJson } from "@/lib/client/fetch-json";

/** A transcript names no plugin packages (the CLI's registry is not this server's): the cards say "?". */
const NO_PACKAGES: Record<string, string> = {};

/**
 * One trial of a CLI run as its transcript in the run folder keeps it: the messages drawn as the
 * chat draws them (tool cards with arguments and results), then each step with its numbers and the
 * raw exchange with the provider, as the chat's trace panel shows them.
 */
export function TrialTranscript(props: { root: string | null; path: string; caseName: string; cell: string; trial: number }) {
  const q = new URLSearchParams({ path: props.path, case: props.caseName, cell: props.cell, trial: String(props.trial) });
  if (props.root) q.set("root", props.root);
  const query = useQuery({
    queryKey: ["runs", "eval-transcript", props.root, props.path, props.caseName, props.cell, props.trial],
    queryFn: () => fetchJson<EvalTranscriptView>(`/api/runs/eval-transcript?${q.toString()}`),
  });
  if (query.isPending) return <Skeleton className="h-24 w-full" />;
  if (query.isError)
    return (
      <p role="alert" className="font-mono text-xs text-denied" data-testid="transcript-error">
        {query.error.message}
      </p>
    );
  const t = query.data;
  return (
    <div className="space-y-3 rounded-md border border-border bg-subtle/30 p-3" data-testid="trial-transcript">
      <p className="text-xs text-muted" data-testid="transcript-usage">
        {t.steps.length} {t.steps.length === 1 ? "step" : "steps"} · tokens in / out:{" "}
        {formatTokens(t.usage.inputTokens ?? undefined, t.usage.outputTokens ?? undefined)}
        {t.cut ? <span className="text-amber-700 dark:text-pending"> · shortened: {t.cut}</span> : null}
      </p>
      {t.warnings.length ? (
        <ul className="font-mono text-[11px] text-amber-700 dark:text-pending">
          {t.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      <div className="space-y-3 text-sm" data-testid="transcript-messages">
        {t.messages.map((m) => (
          <MessageItem key={m.id} message={m} packages={NO_PACKAGES} />
        ))}
      </div>
      {t.steps.length ? (
        <div className="space-y-1" data-testid="transcript-steps">
          <h4 className="text-[11px] font-medium tracking-wide text-muted uppercase">Steps</h4>
          {t.steps.map((s) => (
            <details key={`${s.turnId}-${s.stepNumber}`} className="group rounded border border-border bg-panel" data-testid="transcript-step">
              <summary className="flex cursor-pointer list-none items-center gap-2 px-2 py-1 text-xs">
                <ChevronRight size={12} className="text-muted transition-transform group-open:rotate-90" aria-hidden />
                <span className="font-medium">step {s.stepNumber + 1}</span>
                <span className="text-muted">
                  {s.finishReason ?? s.outcome ?? "—"} · {formatMs(s.durationMs)} · {formatTokens(s.inputTokens, s.outputTokens)} tokens
                  {s.toolCalls.length ? ` · ${s.toolCalls.map((c) => c.toolName).join(", ")}` : ""}
                </span>
              </summary>
              <div className="grid gap-4 border-t border-border p-2 md:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
                <StepDetail step={s} />
                <RawView step={s} />
              </div>
            </details>
          ))}
        </div>
      ) : null}
    </div>
  );
}
