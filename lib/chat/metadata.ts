import type { Decision } from "@/lib/tools/decision";
import type { TurnSummary } from "./turn-summary";

export type { Decision };

export interface CallMeta {
  sourcePackage?: string;
  durationMs?: number;
  madeChanges?: boolean;
  decision?: Decision;
  /**
   * Set when the person edited the arguments before approving: what the model proposed, and what
   * ran (the stored part's input too; a browser that streamed the answer still holds the proposed one).
   */
  edited?: { proposed: unknown; input: unknown };
  /** When a pending approval times out (server clock, ISO). */
  expiresAt?: string;
  /** Text mode: the near-miss fixed to read this call ("trailing comma"). */
  repaired?: string;
  /** Images and audio the result carried (MCP content): shown on the card, sent to models that read them. */
  media?: MediaPart[];
  /** The person cancelled the call while it ran (the card's Cancel). */
  cancelled?: boolean;
  /** The input failed the tool's schema, so the tool never ran (an eval records the call as invalid). */
  invalidInput?: boolean;
  /** What the tool asked the person while it ran, and the answers (as the ToolCall row records them). */
  elicitations?: CallElicitation[];
}

export interface MediaPart {
  type: "image" | "audio";
  /** Base64. */
  data: string;
  mimeType: string;
}

/** One question a running tool put to the person (MCP elicitation, a plugin's `ctx.elicit`) and its answer. */
export interface CallElicitation {
  message: string;
  action: "accept" | "decline" | "cancel" | "not-admitted";
  /**
   * Who answered: the person; an MCP client itself (its answer failed the form, or it could not
   * ask); or nobody (the question timed out, the call was stopped, the chat is unsupervised).
   */
  by: "user" | "client" | "timeout" | "aborted" | "unsupervised";
  /** What was sent back, when accepted. */
  content?: Record<string, unknown>;
  /** Why no person's answer came back, when the client or nobody answered. */
  reason?: string;
  at: string;
}

/**
 * Why a stored answer is not whole. "running": saved while it streamed (a crash leaves it so; the
 * server turns it into "crash" when it starts again); "stopped": the person pressed Stop;
 * "disconnected": the browser went away; "crash": the server died mid-answer.
 */
export type Interruption = "running" | "stopped" | "disconnected" | "crash";

/** UI message metadata: the model that answered, per-call facts, an error if any, and whether it was cut. */
export interface ChatMessageMetadata {
  model?: string;
  /** How this answer's tool calls were made: the chat's tool mode, and in text mode the protocol parsed. */
  toolMode?: "native" | "text";
  protocol?: string;
  /** Set on the cards of a chat that records an MCP session: the client that made the calls. */
  mcpClient?: string;
  calls?: Record<string, CallMeta>;
  error?: string;
  /** Set when the provider refused to answer (OpenAI's content_filter, Anthropic's stop_reason refusal): what the person is told. */
  refused?: string;
  interrupted?: Interruption;
  /** The turn's numbers from its trace (summed over the turns that built this answer). */
  turn?: TurnSummary;
  /** Said once when the turn switched tool mode (auto mode): why, and to which. */
  notice?: string;
}

export function readMetadata(metadata: unknown): ChatMessageMetadata {
  return typeof metadata === "object" && metadata !== null ? metadata : {};
}

export function withCallMeta(metadata: ChatMessageMetadata, toolCallId: string, meta: CallMeta): ChatMessageMetadata {
  return { ...metadata, calls: { ...metadata.calls, [toolCallId]: { ...metadata.calls?.[toolCallId], ...meta } } };
}
