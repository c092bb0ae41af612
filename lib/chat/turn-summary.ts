import type { Telemetry } from "ai";
import type { ProviderTap } from "./provider-stream";
import type { ParseEvent } from "./text-protocol/types";

/** A compact per-turn summary stored on the assistant message (metadata.turn). Counts a provider did not report are absent, never 0. */
export interface TurnSummary {
  steps: number;
  durationMs?: number;
  ttftMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  cachedTokens?: number;
}

/**
 * What the engine hands a turn's recorder (lib/trace implements it; the chat service wires it): the
 * SDK's telemetry, a raw tap on the provider, the text-mode parser's verdicts, and how the turn
 * ended. The engine knows nothing else of traces.
 */
export interface TurnTraceHooks {
  telemetry: Telemetry;
  /** Sees each provider call: the request as sent and the reply as received. */
  tap: ProviderTap;
  /** Text mode's parser reports each call and near-miss here. */
  onParse: (event: Exclude<ParseEvent, { type: "text" }>) => void;
  /** The turn's numbers so far, for the message's metadata. */
  summary(): TurnSummary | undefined;
}

/** Adds this turn's numbers to what the message already carried (an answer continued after an approval). */
export function mergeSummaries(before: TurnSummary | undefined, now: TurnSummary | undefined): TurnSummary | undefined {
  if (!before) return now;
  if (!now) return before;
  const add = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : a + b);
  const out: TurnSummary = { steps: before.steps + now.steps };
  const pairs: [keyof Omit<TurnSummary, "steps" | "ttftMs">, number | undefined][] = [
    ["durationMs", add(before.durationMs, now.durationMs)],
    ["inputTokens", add(before.inputTokens, now.inputTokens)],
    ["outputTokens", add(before.outputTokens, now.outputTokens)],
    ["cachedTokens", add(before.cachedTokens, now.cachedTokens)],
  ];
  for (const [key, value] of pairs) if (value !== undefined) out[key] = value;
  const ttft = before.ttftMs ?? now.ttftMs;
  if (ttft !== undefined) out.ttftMs = ttft;
  return out;
}
