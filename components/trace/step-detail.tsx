"use client";

import type { TraceStepView } from "@/lib/trace/view";
import { Badge } from "@/components/ui/badge";
import { ElicitationAnswers } from "@/components/approvals/elicitation-answers";
import { formatCount, formatMs, formatTokens } from "@/components/ui/format";

/** A time of day to the millisecond, in the person's time zone. */
function clock(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit", fractionalSecondDigits: 3, hour12: false });
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 truncate text-right font-mono tabular-nums">{children}</dd>
    </>
  );
}

/** A step's numbers, and each call it proposed with its decision and run. */
/** How a step ended, in words (lib/trace/types StepOutcome). */
const OUTCOME_TEXT: Record<string, string> = {
  finished: "finished",
  stopped: "stopped by the person",
  disconnected: "the browser went away",
  "timed-out": "timed out",
  "provider-error": "provider error",
  refused: "refused by the provider",
  interrupted: "interrupted: the server stopped",
  unknown: "not recorded",
};

export function StepDetail({ step }: { step: TraceStepView }) {
  return (
    <div className="flex flex-col gap-3 text-xs" data-testid="step-detail">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
        <Row label="Model">{step.model}</Row>
        {step.answeredBy ? <Row label="Answered by">{step.answeredBy}</Row> : null}
        <Row label="Tool mode">{step.toolMode === "text" ? `text · ${step.protocol ?? "?"}` : "native"}</Row>
        <Row label="Request sent">{clock(step.startedAt)}</Row>
        <Row label="First chunk">{formatMs(step.ttftMs)}</Row>
        <Row label="Model time">{formatMs(step.modelMs)}</Row>
        <Row label="Step time">{formatMs(step.durationMs)}</Row>
        <Row label="Finish">{step.finishReason ?? "—"}</Row>
        <Row label="Ended">{step.outcome ? (OUTCOME_TEXT[step.outcome] ?? step.outcome) : "still running"}</Row>
        <Row label="Tokens in / out">{formatTokens(step.inputTokens, step.outputTokens)}</Row>
        <Row label="Cached tokens">{step.inputTokens === undefined ? "not reported" : formatCount(step.cachedTokens)}</Row>
        <Row label="Retries">{step.retries}</Row>
      </dl>
      {step.error ? (
        <p role="alert" className="rounded border border-denied/50 bg-denied/5 px-2 py-1 text-denied">
          {step.error}
        </p>
      ) : null}
      {step.toolCalls.length ? (
        <ul className="flex flex-col gap-2">
          {step.toolCalls.map((call) => (
            <li key={call.toolCallId} className="rounded border border-border px-2 py-1.5" data-testid="step-call">
              <div className="flex items-center justify-between gap-2">
                <span className="font-mono font-medium">{call.toolName}</span>
                {call.decision ? <Badge tone={call.decision === "approved" ? "done" : "denied"}>{call.decision}</Badge> : null}
              </div>
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
                <Row label="Proposed">{call.proposedAt ? clock(call.proposedAt) : "—"}</Row>
                {call.decidedBy ? (
                  <Row label="Decided by">
                    {call.decidedBy}
                    {call.decidedByUser ? <span data-testid="trace-decided-by-user"> · {call.decidedByUser}</span> : null}
                  </Row>
                ) : null}
                {call.decisionReason ? <Row label="Reason">{call.decisionReason}</Row> : null}
                <Row label="Waiting for a person">{formatMs(call.waitingMs)}</Row>
                <Row label="Execution">{formatMs(call.executionMs)}</Row>
                <Row label="Output">{call.outputBytes === undefined ? "—" : `${formatCount(call.outputBytes)} chars`}</Row>
                <Row label="Made changes">{call.madeChanges === undefined ? "—" : call.madeChanges ? "yes" : "no"}</Row>
              </dl>
              {call.elicitations?.length ? (
                <div className="mt-1">
                  <div className="text-muted">Asked the person</div>
                  <ElicitationAnswers elicitations={call.elicitations} />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
