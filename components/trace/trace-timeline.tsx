"use client";

import type { TraceCallView, TraceStepView, TraceTurnView } from "@/lib/trace/view";
import { cn } from "@/components/ui/cn";
import { formatCount, formatMs } from "@/components/ui/format";

/** The time a step's row spans: the model's answer, the waits for a person, the tools' runs. */
function stepSpan(step: TraceStepView): number {
  return (step.modelMs ?? step.durationMs ?? 0) + step.toolCalls.reduce((sum, c) => sum + (c.waitingMs ?? 0) + (c.executionMs ?? 0), 0);
}

const DECISION_TONE: Record<string, string> = {
  approved: "text-done",
  denied: "text-denied",
  "timed-out": "text-denied",
  "not-admitted": "text-denied",
};

function Bar({ ms, scale, className, label, testId }: { ms: number; scale: number; className: string; label: string; testId: string }) {
  // A bar is never thinner than 3px, so a 2 ms model call next to a minute's wait still shows.
  return (
    <span
      data-testid={testId}
      title={label}
      aria-label={label}
      className={cn("h-2.5 shrink-0 rounded-sm", className)}
      style={{ width: `max(3px, ${(ms / scale) * 100}%)` }}
    />
  );
}

function CallBars({ call, scale }: { call: TraceCallView; scale: number }) {
  return (
    <>
      {call.waitingMs !== undefined ? (
        <Bar
          ms={call.waitingMs}
          scale={scale}
          className="bg-pending"
          testId="bar-waiting"
          label={`${call.toolName}: waited ${formatMs(call.waitingMs)} for a person · ${call.decision ?? "pending"}`}
        />
      ) : null}
      {call.executionMs !== undefined ? (
        <Bar
          ms={call.executionMs}
          scale={scale}
          className={call.isError ? "bg-denied" : "bg-done"}
          testId="bar-tool"
          label={`${call.toolName} ran ${formatMs(call.executionMs)}`}
        />
      ) : null}
    </>
  );
}

/** One turn: a row per step with its bars (model blue, waiting for a person amber, tool green) and its numbers. */
export function TurnTimeline({
  turn,
  index,
  selected,
  onSelect,
}: {
  turn: TraceTurnView;
  index: number;
  selected: TraceStepView | undefined;
  onSelect: (step: TraceStepView) => void;
}) {
  const scale = Math.max(1, ...turn.steps.map(stepSpan));
  const total = turn.steps.reduce((sum, s) => sum + stepSpan(s), 0);
  return (
    <section className="border-b border-border px-3 py-2" data-testid="trace-turn" aria-label={`Turn ${index + 1}`}>
      <header className="mb-1 flex items-baseline justify-between text-[11px] text-muted">
        <span className="font-medium text-fg">Turn {index + 1}</span>
        <span className="tabular-nums">
          {new Date(turn.startedAt).toLocaleTimeString()} · {formatMs(total)}
        </span>
      </header>
      <ol className="flex flex-col gap-1">
        {turn.steps.map((step) => {
          const active = selected === step;
          const waits = step.toolCalls.filter((c) => c.waitingMs !== undefined);
          return (
            <li key={`${step.turnId}-${step.stepNumber}`}>
              <button
                type="button"
                data-testid="trace-step"
                aria-pressed={active}
                onClick={() => onSelect(step)}
                className={cn("w-full rounded px-1.5 py-1 text-left hover:bg-subtle", active && "bg-accent-soft hover:bg-accent-soft")}
              >
                <div className="flex items-center justify-between gap-2 text-xs">
                  <span className="font-mono">
                    step {step.stepNumber + 1}
                    {step.toolCalls.length ? <span className="text-muted"> → {step.toolCalls.map((c) => c.toolName).join(", ")}</span> : null}
                  </span>
                  <span className="text-[11px] text-muted tabular-nums">{step.finishReason ?? (step.error ? "error" : "")}</span>
                </div>
                <div className="mt-1 flex w-full items-center gap-px" aria-hidden={false}>
                  <Bar
                    ms={step.modelMs ?? step.durationMs ?? 0}
                    scale={scale}
                    className="bg-running"
                    testId="bar-model"
                    label={`model ${formatMs(step.modelMs)}`}
                  />
                  {step.toolCalls.map((call) => (
                    <CallBars key={call.toolCallId} call={call} scale={scale} />
                  ))}
                </div>
                <div className="mt-0.5 flex flex-wrap gap-x-2 text-[11px] text-muted tabular-nums">
                  <span>TTFT {formatMs(step.ttftMs)}</span>
                  <span>
                    {step.inputTokens === undefined && step.outputTokens === undefined
                      ? "tokens not reported"
                      : `in ${formatCount(step.inputTokens)} · out ${formatCount(step.outputTokens)}`}
                    {step.cachedTokens ? ` · cached ${formatCount(step.cachedTokens)}` : ""}
                  </span>
                  {step.retries ? <span className="text-pending">{step.retries} retries</span> : null}
                  {waits.map((c) => (
                    <span key={c.toolCallId} data-testid="trace-waiting" className={DECISION_TONE[c.decision ?? ""] ?? "text-pending"}>
                      waited {formatMs(c.waitingMs)} · {c.decision ?? "pending"}
                      {c.decidedBy && c.decidedBy !== "user" ? ` (${c.decidedBy})` : ""}
                    </span>
                  ))}
                </div>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
