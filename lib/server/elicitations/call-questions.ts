import type { CallElicitation } from "@/lib/chat/metadata";
import { addToolCallElicitation } from "@/lib/db/queries";
import type { ElicitResult, ElicitSchema, ToolContext } from "@/lib/tools/types";
import { askPerson, type ElicitationRecord } from "./pending";

type Elicit = (message: string, schema: ElicitSchema) => Promise<ElicitResult>;

export interface CallQuestions {
  /** `ctx.elicit` for a chat's tool: the browser's dialog when supervised; unsupervised, nobody is asked. */
  elicitFor: (toolName: string, signal: AbortSignal) => NonNullable<ToolContext["elicit"]>;
  /** A call of `toolName` starts: questions its tool asks from now on belong to it. */
  started(toolName: string, toolCallId: string): void;
  /** The call ended: what it asked (once recorded), for the message's call facts (undefined when nothing). */
  finished(toolName: string, toolCallId: string): Promise<CallElicitation[] | undefined>;
}

/**
 * The questions a chat turn's tools put to the person, each recorded on the call it came from like
 * an approval decision (the ToolCall row, written when answered, so a crash keeps it). A tool's
 * context is made once per turn, not per call, so a question goes to the latest call of that tool
 * still running (as MCP itself says nothing of which call an elicitation belongs to). They are the
 * chat's owner's, as the chat is.
 */
export function callQuestions(chat: { id: string; supervised: boolean; ownerId: string | null }, timeoutSeconds: number): CallQuestions {
  const { id: chatId, supervised, ownerId } = chat;
  const running = new Map<string, string[]>();
  const asked = new Map<string, CallElicitation[]>();
  const writes = new Set<Promise<void>>();
  const note = (toolName: string, elicitation: CallElicitation) => {
    const toolCallId = running.get(toolName)?.at(-1);
    if (!toolCallId) return;
    asked.set(toolCallId, [...(asked.get(toolCallId) ?? []), elicitation]);
    const write = addToolCallElicitation(toolCallId, elicitation)
      .catch((error: unknown) => console.error("toolroom: could not record an elicitation:", error))
      .finally(() => writes.delete(write));
    writes.add(write);
  };
  return {
    elicitFor: (toolName, signal): Elicit =>
      supervised
        ? (message, schema) =>
            askPerson(chatId, toolName, message, schema, {
              timeoutSeconds,
              ownerId,
              signal,
              onDecided: (record) => note(toolName, fromRecord(record)),
            })
        : async (message) => {
            const reason = "the chat is unsupervised: nobody is there to answer";
            note(toolName, { message, action: "not-admitted", by: "unsupervised", at: new Date().toISOString() });
            return { action: "not-admitted", reason };
          },
    started(toolName, toolCallId) {
      running.set(toolName, [...(running.get(toolName) ?? []), toolCallId]);
    },
    async finished(toolName, toolCallId) {
      await Promise.all(writes);
      running.set(
        toolName,
        (running.get(toolName) ?? []).filter((id) => id !== toolCallId),
      );
      const notes = asked.get(toolCallId);
      asked.delete(toolCallId);
      return notes;
    },
  };
}

function fromRecord(record: ElicitationRecord): CallElicitation {
  return {
    message: record.message,
    action: record.action,
    by: record.decidedBy,
    ...(record.content ? { content: record.content } : {}),
    at: record.decidedAt,
  };
}
