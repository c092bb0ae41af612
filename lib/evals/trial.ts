import { generateId, type UIMessage } from "ai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { runChatTurn, type ChatTurn } from "@/lib/chat/engine";
import { BROKE_OFF_TEXT, closeInterruptedCalls, isToolPart, toolNameOf } from "@/lib/chat/history";
import { readMetadata } from "@/lib/chat/metadata";
import type { TextProtocol } from "@/lib/chat/text-protocol/types";
import type { Decision } from "@/lib/tools/decision";
import type { Registry } from "@/lib/tools/registry-types";
import { scrubText } from "@/lib/security/secrets";
import { createTurnTrace } from "@/lib/trace/recorder";
import type { TraceStepData } from "@/lib/trace/types";
import { askJudge, judgeReason, type JudgeRecord } from "./judge";
import { judge, type MadeCall, type TrialObservation, type Verdict } from "./matchers";
import type { ConfirmPolicy, EvalCase, ToolMode } from "./suite-schema";
import { caseRegistry, type DeclaredTools } from "./suite-tools";
import { markMocked, withMocks } from "./tool-mocks";

/** What a case's confirm policy makes of a confirming call; notAdmitted leaves it to the unsupervised turn. */
export function autoDecideFor(policy: ConfirmPolicy): ChatTurn["autoDecide"] {
  if (policy === "approve") return () => ({ decision: "approved", reason: "approved by the eval case" });
  if (policy === "deny") return () => ({ decision: "denied", reason: "denied by the eval case" });
  return undefined;
}

export function caseMessages(c: EvalCase): UIMessage[] {
  const turns = c.messages ?? [{ role: "user" as const, content: c.prompt ?? "" }];
  return turns.map((m) => ({ id: generateId(), role: m.role, parts: [{ type: "text", text: m.content }] }));
}

/** The prompt as one line for results: the last user message. */
export function casePrompt(c: EvalCase): string {
  return c.prompt ?? c.messages?.at(-1)?.content ?? "";
}

/** A decision in the suite's spelling (`outcome: not_admitted`): the chat's vocabulary stops here. */
const DECIDED: Record<Exclude<Decision["decision"], "approved">, string> = { denied: "denied", "timed-out": "timed_out", "not-admitted": "not_admitted" };

export function observe(message: UIMessage | undefined): TrialObservation {
  if (!message) return { calls: [], answer: "", steps: 0 };
  const calls = readMetadata(message.metadata).calls ?? {};
  const made: MadeCall[] = [];
  let answer = "";
  let steps = 0;
  for (const part of message.parts) {
    if (part.type === "step-start") steps++;
    else if (part.type === "text") answer += (answer ? "\n" : "") + part.text;
    else if (isToolPart(part)) {
      const meta = calls[part.toolCallId];
      const decision = meta?.decision;
      const outcome =
        decision && decision.decision !== "approved"
          ? DECIDED[decision.decision]
          : part.state === "output-available"
            ? meta?.invalidInput
              ? "invalid"
              : "executed"
            : part.state === "output-error"
              ? "error"
              : part.state === "output-denied"
                ? "denied"
                : "pending";
      const output = part.state === "output-available" ? String(part.output) : part.state === "output-error" ? part.errorText : undefined;
      made.push({
        tool: toolNameOf(part),
        input: part.input,
        outcome,
        ...(decision ? { decidedBy: decision.by } : {}),
        ...(output !== undefined ? { output } : {}),
      });
    }
  }
  return { calls: made, answer, steps };
}

export type TurnBase = Omit<
  ChatTurn,
  "chatId" | "messages" | "model" | "toolMode" | "protocol" | "registry" | "hooks" | "autoDecide" | "supervised" | "grants" | "trace"
>;

export interface TrialInput {
  evalCase: EvalCase;
  model: LanguageModelV4;
  mode: ToolMode;
  protocol: TextProtocol;
  registry: Registry;
  chatId: string;
  /** Settings-derived parts of the turn (turnSetup), built once per chat id by the caller. */
  base: TurnBase;
  /** Secrets to mask in the trial's trace (the settings' keys). */
  secrets?: readonly string[];
  /** The suite's own tools (`tools:`), offered beside or instead of the registry's as the case says. */
  suiteTools?: DeclaredTools;
  /** The model a judge names (`expect.answer.model`), resolved from settings llms. */
  judgeModel?: (ref: string) => LanguageModelV4;
}

export interface TrialOutcome extends TrialObservation {
  verdict: "pass" | "fail" | "error";
  reasons: string[];
  error?: string;
  /** The provider refused to answer (content filter, refusal): the case fails, whatever its answer. */
  refused?: string;
  latencyMs: number;
  messages: UIMessage[];
  /** The judge's verdict, when the case has one and every other check passed. */
  judge?: JudgeRecord;
  /** Tokens from the provider's usage; undefined when it reported none (never 0 for "unknown"). */
  inputTokens?: number;
  outputTokens?: number;
  /** The turn's trace steps, for the trial's stored chat. */
  traceSteps: TraceStepData[];
}

/**
 * One trial: one unsupervised chat turn through the chat engine, the confirm policy answering
 * confirming calls and mocks standing in for tools; then the case's expectations judge it.
 */
export async function runTrial(input: TrialInput): Promise<TrialOutcome> {
  const { evalCase } = input;
  const messages = caseMessages(evalCase);
  const started = performance.now();
  let end: { message: UIMessage; error?: string; refused?: string } | undefined;
  // Recorded as a chat turn's is: the stored trial's trace, and the usage its tokens come from.
  const trace = createTurnTrace({
    turnId: generateId(),
    model: `${input.model.provider}/${input.model.modelId}`,
    toolMode: input.mode,
    protocol: input.protocol,
    ...(input.secrets ? { scrub: (text: string) => scrubText(text, input.secrets!) } : {}),
  });
  const stream = await runChatTurn({
    ...input.base,
    trace,
    chatId: input.chatId,
    messages,
    model: input.model,
    toolMode: input.mode,
    protocol: input.protocol,
    supervised: false,
    registry: withMocks(caseRegistry(input.registry, input.suiteTools, evalCase), evalCase.mocks),
    grants: new Set(),
    autoDecide: autoDecideFor(evalCase.confirm),
    hooks: {
      onEnd: (message, info) => {
        end = { message, ...(info.error !== undefined ? { error: info.error } : {}), ...(info.refused ? { refused: info.refused } : {}) };
      },
    },
  });
  const reader = stream.getReader();
  while (!(await reader.read()).done);
  const latencyMs = performance.now() - started;
  trace.close(end?.error !== undefined ? { kind: "provider-error", text: end.error } : { kind: "finished" });
  const usage = readMetadata(end?.message.metadata).turn;
  const measured = {
    traceSteps: end ? trace.steps(end.message.id) : [],
    ...(usage?.inputTokens !== undefined ? { inputTokens: usage.inputTokens } : {}),
    ...(usage?.outputTokens !== undefined ? { outputTokens: usage.outputTokens } : {}),
  };
  const observed = observe(end?.message);
  const seen = { ...observed, calls: markMocked(observed.calls, evalCase.mocks) };
  // A call a provider error left open never ran: the stored trial says so (not a crash, later).
  const last = end && end.error !== undefined ? closeInterruptedCalls(end.message, BROKE_OFF_TEXT) : end?.message;
  const all = last ? [...messages, last] : messages;
  const error = end ? end.error : "the turn ended without an answer";
  if (error !== undefined) return { ...seen, ...measured, verdict: "error", reasons: [`error: ${error.split("\n")[0]}`], error, latencyMs, messages: all };
  if (end?.refused) return { ...seen, ...measured, verdict: "fail", reasons: [end.refused], refused: end.refused, latencyMs, messages: all };
  const verdict: Verdict = judge(evalCase, seen);
  const criteria = evalCase.expect.answer?.judge;
  const judgeRef = evalCase.expect.answer?.model;
  // A judge call costs a model call: asked only when the case could still pass.
  if (!verdict.pass || criteria === undefined || judgeRef === undefined || !input.judgeModel)
    return { ...seen, ...measured, verdict: verdict.pass ? "pass" : "fail", reasons: verdict.reasons, latencyMs, messages: all };
  const record = await askJudge({
    criteria,
    prompt: casePrompt(evalCase),
    calls: seen.calls,
    answer: seen.answer,
    model: input.judgeModel(judgeRef),
    modelRef: judgeRef,
    ...(input.base.signal ? { signal: input.base.signal } : {}),
  });
  const outcome = record.verdict === "error" ? "error" : record.verdict === "pass" ? "pass" : "fail";
  const reasons = record.verdict === "pass" ? [] : [judgeReason(record)];
  return { ...seen, ...measured, verdict: outcome, reasons, latencyMs, messages: all, judge: record };
}
