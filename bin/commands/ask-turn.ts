import type { UIMessage, UIMessageChunk } from "ai";
import { TIMEOUT_REASON, runChatTurn, type ChatTurn } from "@/lib/chat/engine";
import { BROKE_OFF_TEXT, closeInterruptedCalls, isToolPart, toolNameOf } from "@/lib/chat/history";
import { readMetadata, withCallMeta, type Decision } from "@/lib/chat/metadata";

/** A call the turn stopped at because it needs a person's yes. */
export interface PendingCall {
  toolCallId: string;
  toolName: string;
  sourcePackage: string;
  input: unknown;
}

export interface AskTurnOptions {
  /** Everything but the history, which this loop grows, and the hooks, which it owns. */
  turn: Omit<ChatTurn, "messages" | "hooks">;
  messages: UIMessage[];
  onChunk(chunk: UIMessageChunk): void;
  /** Asks a person about one call; rejects when the turn's signal aborts meanwhile. */
  decide(call: PendingCall): Promise<Decision>;
}

export interface AskOutcome {
  /** The whole conversation: the history given, then the assistant's message. */
  messages: UIMessage[];
  aborted: boolean;
  error?: string;
  /** The provider refused to answer: what the person is told (the command exits non-zero). */
  refused?: string;
}

/**
 * One answer, however many approvals it takes: the AI SDK ends a turn at every call that waits for
 * approval, so the decisions are written onto the message as the web route does, and the turn
 * resumes from there until the model is done.
 */
export async function askTurn(options: AskTurnOptions): Promise<AskOutcome> {
  const { turn } = options;
  let messages = options.messages;
  for (;;) {
    let end: { message: UIMessage; aborted: boolean; error?: string; refused?: string } | undefined;
    const onEnd = (message: UIMessage, info: { aborted: boolean; error?: string; refused?: string }) => {
      end = { message, aborted: info.aborted, error: info.error, refused: info.refused };
    };
    const stream = await runChatTurn({ ...turn, messages, hooks: { onEnd } });
    const reader = stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) options.onChunk(next.value);
    if (!end) throw new Error("the chat turn ended without an answer");
    const { message, aborted, error, refused } = end;
    // A call a provider error left open never ran: it says so (as the chat service does).
    const closed = aborted ? closeInterruptedCalls(message) : error !== undefined ? closeInterruptedCalls(message, BROKE_OFF_TEXT) : message;
    messages = withLast(messages, closed);
    const pending = pendingCalls(message);
    if (refused) return { messages, aborted, error, refused };
    if (aborted || error !== undefined || pending.length === 0) return { messages, aborted, error };

    let answered = message;
    for (const call of pending) {
      let decision: Decision;
      try {
        decision = await options.decide(call);
      } catch (reason) {
        if (turn.signal.aborted) return { messages, aborted: true };
        throw reason;
      }
      answered = withDecision(answered, call.toolCallId, decision);
    }
    messages = withLast(messages, answered);
  }
}

/** A resumed turn continues the last assistant message (same id) instead of adding one. */
function withLast(messages: UIMessage[], message: UIMessage): UIMessage[] {
  return messages.at(-1)?.id === message.id ? [...messages.slice(0, -1), message] : [...messages, message];
}

function pendingCalls(message: UIMessage): PendingCall[] {
  const calls = readMetadata(message.metadata).calls ?? {};
  return message.parts.flatMap((part) =>
    isToolPart(part) && part.state === "approval-requested"
      ? [{ toolCallId: part.toolCallId, toolName: toolNameOf(part), sourcePackage: calls[part.toolCallId]?.sourcePackage ?? "", input: part.input }]
      : [],
  );
}

/**
 * The decision as the SDK reads it (an answered approval) and as the engine does (the call's
 * metadata, so the resumed turn does not ask again); a timed-out call carries the engine's reason.
 */
function withDecision(message: UIMessage, toolCallId: string, decision: Decision): UIMessage {
  const approved = decision.decision === "approved";
  const reason = decision.decision === "timed-out" ? TIMEOUT_REASON : decision.reason;
  return {
    ...message,
    parts: message.parts.map((part) =>
      isToolPart(part) && part.toolCallId === toolCallId && part.approval
        ? ({ ...part, state: "approval-responded", approval: { ...part.approval, approved, ...(reason ? { reason } : {}) } } as typeof part)
        : part,
    ),
    metadata: withCallMeta(readMetadata(message.metadata), toolCallId, { decision }),
  };
}
