import type { CallElicitation } from "@/lib/chat/metadata";
import type { TraceStepData, TraceToolCall } from "./types";

/** What the ToolCall record adds to a traced call: who decided, when, and what it changed. */
export interface CallFacts {
  id: string;
  decidedBy: string | null;
  decidedByUser?: string | null;
  decision: string | null;
  decisionReason: string | null;
  issuedAt: Date | null;
  decidedAt: Date | null;
  madeChanges: boolean;
  state: string;
  /** JSON list of CallElicitation (the ToolCall row's column). */
  elicitations?: string | null;
}

export interface TraceCallView extends TraceToolCall {
  decision?: string;
  decidedBy?: string;
  /** The person's email, on a server with sign-in. */
  decidedByUser?: string;
  decisionReason?: string;
  /** Time the call waited for a person: from the approval request to the decision. */
  waitingMs?: number;
  madeChanges?: boolean;
  state?: string;
  /** What the tool asked the person while it ran, and the answers. */
  elicitations?: CallElicitation[];
}

export interface TraceStepView extends Omit<TraceStepData, "toolCalls"> {
  toolCalls: TraceCallView[];
}

export interface TraceTurnView {
  turnId: string;
  messageId: string;
  startedAt: string;
  steps: TraceStepView[];
}

export interface ChatTrace {
  turns: TraceTurnView[];
}

/**
 * A chat's trace as the panel and the export show it: steps grouped by turn, each call joined
 * with its ToolCall record. A call proposed in one turn and run in the next (after an approval)
 * is shown once, on the step that proposed it, with the run's numbers.
 */
export function buildChatTrace(steps: readonly TraceStepData[], facts: readonly CallFacts[]): ChatTrace {
  const byId = new Map(facts.map((f) => [f.id, f]));
  const runs = new Map<string, TraceToolCall>();
  for (const step of steps) for (const call of step.toolCalls) if (call.executionMs !== undefined) runs.set(call.toolCallId, call);
  const proposed = new Set(steps.flatMap((s) => s.toolCalls.filter((c) => c.proposedAt).map((c) => c.toolCallId)));

  const turns: TraceTurnView[] = [];
  for (const step of steps) {
    const toolCalls = step.toolCalls
      // A run whose proposal is shown elsewhere is not shown twice.
      .filter((call) => call.proposedAt || !proposed.has(call.toolCallId))
      .map((call) => view({ ...call, ...pickRun(runs.get(call.toolCallId)) }, byId.get(call.toolCallId)));
    let turn = turns.at(-1);
    if (!turn || turn.turnId !== step.turnId) {
      turn = { turnId: step.turnId, messageId: step.messageId, startedAt: step.startedAt, steps: [] };
      turns.push(turn);
    }
    turn.steps.push({ ...step, toolCalls });
  }
  return { turns };
}

function pickRun(run: TraceToolCall | undefined): Partial<TraceToolCall> {
  if (!run) return {};
  const out: Partial<TraceToolCall> = {};
  if (run.executionMs !== undefined) out.executionMs = run.executionMs;
  if (run.outputBytes !== undefined) out.outputBytes = run.outputBytes;
  if (run.isError !== undefined) out.isError = run.isError;
  return out;
}

function view(call: TraceToolCall, facts: CallFacts | undefined): TraceCallView {
  if (!facts) return call;
  const out: TraceCallView = { ...call, madeChanges: facts.madeChanges, state: facts.state };
  if (facts.decision) out.decision = facts.decision;
  if (facts.decidedBy) out.decidedBy = facts.decidedBy;
  if (facts.decidedByUser) out.decidedByUser = facts.decidedByUser;
  if (facts.decisionReason) out.decisionReason = facts.decisionReason;
  if (facts.elicitations) out.elicitations = JSON.parse(facts.elicitations) as CallElicitation[];
  // Only a person's wait counts: a grant or an unsupervised refusal decides at once.
  if (facts.decidedBy === "user" || facts.decidedBy === "timeout") {
    const from = facts.issuedAt?.getTime() ?? (call.proposedAt ? Date.parse(call.proposedAt) : undefined);
    if (from !== undefined && facts.decidedAt) out.waitingMs = Math.max(0, facts.decidedAt.getTime() - from);
  }
  return out;
}
