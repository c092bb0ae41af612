import type { Telemetry } from "ai";
import type { ProviderTap } from "@/lib/chat/provider-stream";
import type { TurnSummary, TurnTraceHooks } from "@/lib/chat/turn-summary";
import { scrubText } from "@/lib/security/secrets";
import { RawCapture } from "./raw-capture";
import type { StepOutcome, StoredTraceStep, TraceStepData, TraceToolCall } from "./types";

export interface TurnTraceOptions {
  turnId: string;
  /** `provider/model` the chat asked for. */
  model: string;
  toolMode: "native" | "text";
  protocol?: string;
  /** The provider's HTTP endpoint, for the raw view's curl command. */
  url?: string;
  /**
   * Masks secrets in every text of a step (its error, the raw request and reply) before it is kept;
   * without it, URL credentials and credential-shaped strings are still masked.
   */
  scrub?: (text: string) => string;
  now?: () => number;
}

/** A turn's recorder: the engine's trace hooks, and the steps the chat service stores. */
export interface TurnTrace extends TurnTraceHooks {
  steps(messageId: string): TraceStepData[];
  /**
   * The steps that changed since the last call, ready to store (the raw exchange as JSON text):
   * a periodic save writes the step still streaming, not the whole turn, and its request is
   * masked and serialised once (RawCapture). `all`: every step, changed or not (the turn's last save).
   */
  changedSteps(messageId: string, options?: { all?: boolean }): StoredTraceStep[];
  /**
   * Ends every step still open (and a failed one the SDK left without its text) with how the turn
   * ended; steps that finished keep their own outcome.
   */
  close(outcome: { kind: Exclude<StepOutcome, "finished" | "unknown" | "interrupted">; text?: string } | { kind: "finished" }): void;
}

interface OpenStep {
  data: Omit<TraceStepData, "messageId" | "raw">;
  started: number;
  raw: RawCapture;
  attempts: number;
  /** Bumped by every change to `data`; with the capture's own version, what a save compares. */
  version: number;
  /** `version:rawVersion:messageId` as last handed to changedSteps. */
  saved?: string;
}

const usageNumber = (n: number | undefined) => (typeof n === "number" && Number.isFinite(n) ? n : undefined);

/**
 * Records one turn as the AI SDK reports it (its telemetry integration: step start and end,
 * model-call end with TTFT and usage, tool execution), plus what only the provider boundary sees:
 * the exact request, the raw reply, and retries (each provider attempt of a step passes the tap).
 */
export function createTurnTrace(options: TurnTraceOptions): TurnTrace {
  const now = options.now ?? Date.now;
  const scrub = options.scrub ?? ((text: string) => scrubText(text, []));
  const steps: OpenStep[] = [];
  /** The current step, marked changed: every caller records something on it. */
  const current = () => {
    const step = steps.at(-1);
    if (step) step.version++;
    return step;
  };
  /** Calls executed in this turn that an earlier turn proposed (the answer to an approval). */
  const resumed: TraceToolCall[] = [];

  /** The call, its step marked changed (resumed calls ride on the first step). */
  const findCall = (toolCallId: string): TraceToolCall | undefined => {
    for (const step of steps) {
      const call = step.data.toolCalls.find((c) => c.toolCallId === toolCallId);
      if (call) {
        step.version++;
        return call;
      }
    }
    if (steps[0]) steps[0].version++;
    return resumed.find((c) => c.toolCallId === toolCallId);
  };

  const telemetry: Telemetry = {
    onStepStart(event) {
      steps.push({
        data: {
          turnId: options.turnId,
          stepNumber: event.stepNumber,
          model: options.model,
          toolMode: options.toolMode,
          ...(options.protocol && options.toolMode === "text" ? { protocol: options.protocol } : {}),
          startedAt: new Date(now()).toISOString(),
          retries: 0,
          toolCalls: [],
        },
        started: now(),
        raw: new RawCapture(options.url),
        attempts: 0,
        version: 0,
      });
    },
    onLanguageModelCallEnd(event) {
      const step = current();
      if (!step) return;
      const at = new Date(now()).toISOString();
      step.data.ttftMs = usageNumber(event.performance.timeToFirstOutputMs);
      step.data.modelMs = usageNumber(event.performance.responseTimeMs);
      step.data.finishReason = event.finishReason;
      for (const part of event.content) {
        if (part.type === "tool-call") step.data.toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, proposedAt: at });
      }
    },
    onToolExecutionEnd(event) {
      let call = findCall(event.toolCall.toolCallId);
      if (!call) {
        call = { toolCallId: event.toolCall.toolCallId, toolName: event.toolCall.toolName };
        resumed.push(call);
      }
      call.executionMs = Math.round(event.toolExecutionMs);
      const output: unknown = event.toolOutput.type === "tool-result" ? event.toolOutput.output : event.toolOutput.error;
      call.outputBytes = (typeof output === "string" ? output : (JSON.stringify(output) ?? "")).length;
      call.isError = event.toolOutput.type === "tool-error";
    },
    onStepEnd(event) {
      const step = current();
      if (!step) return;
      step.data.durationMs = now() - step.started;
      step.data.answeredBy = event.response.modelId;
      step.data.finishReason = event.finishReason;
      step.data.inputTokens = usageNumber(event.usage.inputTokens);
      step.data.outputTokens = usageNumber(event.usage.outputTokens);
      step.data.cachedTokens = usageNumber(event.usage.inputTokenDetails.cacheReadTokens);
      // "error": the stream broke; its text arrives with the turn's end (close).
      if (event.finishReason === "content-filter") step.data.outcome = "refused";
      else if (event.finishReason !== "error") step.data.outcome = "finished";
    },
    onStepError(event) {
      const step = current();
      if (!step) return;
      step.data.durationMs = now() - step.started;
      step.data.error = event.error instanceof Error ? event.error.message : String(event.error);
      step.data.outcome = "provider-error";
    },
  };

  const tap: ProviderTap = (params) => {
    const step = current();
    if (!step) return undefined;
    step.attempts++;
    step.data.retries = step.attempts - 1;
    const raw = step.raw;
    raw.setRequest(params.prompt, params.tools);
    return {
      // The HTTP body the provider's client sent (providers that speak HTTP report it).
      sent: (request) => {
        if (request?.body !== undefined) raw.setBody(request.body);
      },
      part: (part) => raw.add(part),
    };
  };

  const summary = (): TurnSummary | undefined => {
    if (steps.length === 0) return undefined;
    const sum = (pick: (s: OpenStep) => number | undefined) => {
      const values = steps.map(pick).filter((n): n is number => n !== undefined);
      return values.length ? values.reduce((a, b) => a + b, 0) : undefined;
    };
    const out: TurnSummary = { steps: steps.length };
    const set = <K extends keyof TurnSummary>(key: K, value: TurnSummary[K] | undefined) => {
      if (value !== undefined) out[key] = value;
    };
    set(
      "durationMs",
      sum((s) => s.data.durationMs),
    );
    set("ttftMs", steps[0]?.data.ttftMs);
    set(
      "inputTokens",
      sum((s) => s.data.inputTokens),
    );
    set(
      "outputTokens",
      sum((s) => s.data.outputTokens),
    );
    set(
      "cachedTokens",
      sum((s) => s.data.cachedTokens),
    );
    return out;
  };

  const close: TurnTrace["close"] = (outcome) => {
    for (const step of steps) {
      const failedSilently = step.data.finishReason === "error" && !step.data.error;
      if (step.data.outcome && !failedSilently) continue;
      step.version++;
      step.data.durationMs ??= now() - step.started;
      step.data.outcome = outcome.kind === "finished" ? (failedSilently ? "provider-error" : "finished") : outcome.kind;
      if ("text" in outcome && outcome.text && !step.data.error) step.data.error = outcome.text;
    }
  };

  return {
    telemetry,
    tap,
    close,
    onParse: (event) => current()?.raw.parsed(event),
    summary,
    steps: (messageId) => steps.map((step, i) => ({ ...stepData(step, i, messageId), raw: step.raw.toJSON(scrub) })),
    changedSteps: (messageId, { all = false } = {}) =>
      steps.flatMap((step, i) => {
        const stamp = `${step.version}:${step.raw.version}:${messageId}`;
        if (step.saved === stamp && !all) return [];
        step.saved = stamp;
        return [{ ...stepData(step, i, messageId), rawJson: step.raw.toJSONString(scrub) }];
      }),
  };

  function stepData(step: OpenStep, i: number, messageId: string): Omit<TraceStepData, "raw"> {
    return {
      ...scrubStrings(step.data, scrub),
      // Executions answered in this turn belong to the call an earlier turn proposed; they ride on the first step.
      toolCalls: i === 0 ? [...resumed, ...step.data.toolCalls] : step.data.toolCalls,
      messageId,
    };
  }
}

/** A copy of `value` with every string in it masked (a provider error echoes keys and URLs). */
function scrubStrings<T>(value: T, scrub: (text: string) => string): T {
  if (typeof value === "string") return scrub(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => scrubStrings(v, scrub)) as T;
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, scrubStrings(v as unknown, scrub)])) as T;
  return value;
}
