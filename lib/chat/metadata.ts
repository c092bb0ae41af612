/** Who decided a confirming call, and how: stored on the message, the tool call and the export. */
export interface Decision {
  by: "user" | "grant" | "timeout" | "unsupervised";
  decision: "approved" | "denied" | "timed-out" | "not-admitted";
  reason?: string;
  at: string;
}

export interface CallMeta {
  sourcePackage?: string;
  durationMs?: number;
  madeChanges?: boolean;
  decision?: Decision;
  /** When a pending approval times out (server clock, ISO). */
  expiresAt?: string;
}

/** UI message metadata: the model that answered, per-call facts, and a provider error if any. */
export interface ChatMessageMetadata {
  model?: string;
  /** Set on the cards of a chat that records an MCP session: the client that made the calls. */
  mcpClient?: string;
  calls?: Record<string, CallMeta>;
  error?: string;
}

export function readMetadata(metadata: unknown): ChatMessageMetadata {
  return typeof metadata === "object" && metadata !== null ? (metadata as ChatMessageMetadata) : {};
}

export function withCallMeta(metadata: ChatMessageMetadata, toolCallId: string, meta: CallMeta): ChatMessageMetadata {
  return { ...metadata, calls: { ...metadata.calls, [toolCallId]: { ...metadata.calls?.[toolCallId], ...meta } } };
}
