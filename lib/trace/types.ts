/** One tool call a step proposed, as the trace keeps it; its decision and timings come from the ToolCall record. */
export interface TraceToolCall {
  toolCallId: string;
  toolName: string;
  /** When the model's answer that proposed it was complete (ISO). */
  proposedAt?: string;
  /** Time the tool's execute took (AI SDK's toolExecutionMs); absent when it did not run in this step. */
  executionMs?: number;
  /** Characters of the result the model read. */
  outputBytes?: number;
  isError?: boolean;
}

/** Where a recognised call, or a near-miss, sits in the raw text of a text-mode reply. */
export interface TextSpan {
  start: number;
  end: number;
  toolName?: string;
}

export interface NearMiss extends Partial<TextSpan> {
  raw: string;
  /** The parser's reason, as the model was told it. */
  error: string;
}

/** The exchange with the provider for one step, secrets masked, long parts cut. */
export interface RawExchange {
  request: {
    /** The provider's endpoint, when it is an HTTP one (for the curl command). */
    url?: string;
    /** System text as the provider got it (text mode: with the tool descriptions). */
    system?: string;
    /** Tools as JSON Schema (native mode; text mode sends none). */
    tools?: unknown[];
    /** Messages after the system text, in the AI SDK's provider-level shape. */
    messages: unknown[];
    /** The HTTP body the provider's client sent, when it reports one. */
    body?: unknown;
  };
  response: {
    /** The model's text exactly as streamed (text mode: before calls were parsed out). */
    text: string;
    /** Native tool calls as their argument deltas arrived. */
    toolInputs: { id: string; toolName: string; deltas: string[] }[];
    /** Text mode: calls the parser recognised, by position in `text`. */
    calls: TextSpan[];
    /** Text mode: what looked like a call and was rejected, with the parser's reason. */
    nearMisses: NearMiss[];
  };
  /** True when a part was cut to keep the stored trace bounded. */
  truncated: boolean;
}

/**
 * How a step ended: its model answered in full ("finished"), the person pressed Stop, the browser
 * went away, a limit ran out ("timed-out", the error names which), the provider failed (its masked
 * text in `error`), the provider refused ("refused": a content filter, Anthropic's refusal), or the
 * server died mid-step ("interrupted", closed at the next start). Absent while the step runs.
 */
export type StepOutcome = "finished" | "stopped" | "disconnected" | "timed-out" | "provider-error" | "refused" | "interrupted" | "unknown";

export interface TraceStepData {
  turnId: string;
  messageId: string;
  stepNumber: number;
  model: string;
  answeredBy?: string;
  toolMode: "native" | "text";
  protocol?: string;
  startedAt: string;
  ttftMs?: number;
  /** The model's response time (request to last chunk). */
  modelMs?: number;
  /** The whole step: the model's answer and the tools it ran. */
  durationMs?: number;
  finishReason?: string;
  inputTokens?: number;
  outputTokens?: number;
  cachedTokens?: number;
  retries: number;
  error?: string;
  outcome?: StepOutcome;
  toolCalls: TraceToolCall[];
  raw: RawExchange;
}

/** A step as the recorder hands it to storage: the raw exchange already serialised. */
export type StoredTraceStep = Omit<TraceStepData, "raw"> & { rawJson: string };
