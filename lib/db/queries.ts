import "server-only";
import type { UIMessage } from "ai";
import { TEXT_PROTOCOLS, type TextProtocol } from "@/lib/chat/text-protocol/types";
import { db } from "./client";

export interface ChatRecord {
  id: string;
  title: string;
  modelRef: string;
  toolMode: "native" | "text";
  /** Null: the chat follows the settings' `chat.textProtocol`. */
  textProtocol: TextProtocol | null;
  supervised: boolean;
  createdAt: Date;
  updatedAt: Date;
}

type ChatRow = {
  id: string;
  title: string;
  modelRef: string;
  toolMode: string;
  textProtocol: string | null;
  supervised: boolean;
  createdAt: Date;
  updatedAt: Date;
};

function toChat(row: ChatRow): ChatRecord {
  // A protocol this version does not know (a newer database) falls back to the settings' default.
  const textProtocol = TEXT_PROTOCOLS.find((p) => p === row.textProtocol) ?? null;
  return { ...row, toolMode: row.toolMode === "text" ? "text" : "native", textProtocol };
}

export async function listChats(): Promise<ChatRecord[]> {
  return (await db().chat.findMany({ orderBy: { updatedAt: "desc" } })).map(toChat);
}

export async function getChat(id: string): Promise<ChatRecord | null> {
  const row = await db().chat.findUnique({ where: { id } });
  return row ? toChat(row) : null;
}

export async function createChat(
  data: Pick<ChatRecord, "id" | "title" | "modelRef" | "toolMode" | "supervised"> & Partial<Pick<ChatRecord, "textProtocol">>,
): Promise<ChatRecord> {
  return toChat(await db().chat.create({ data }));
}

export async function updateChat(
  id: string,
  data: Partial<Pick<ChatRecord, "title" | "modelRef" | "toolMode" | "textProtocol" | "supervised">>,
): Promise<ChatRecord> {
  return toChat(await db().chat.update({ where: { id }, data }));
}

export async function touchChat(id: string): Promise<void> {
  await db().chat.update({ where: { id }, data: { updatedAt: new Date() } });
}

export async function deleteChat(id: string): Promise<void> {
  await db().chat.delete({ where: { id } });
}

export async function loadMessages(chatId: string): Promise<UIMessage[]> {
  const rows = await db().message.findMany({ where: { chatId }, orderBy: { position: "asc" } });
  return rows.map((row) => ({
    id: row.id,
    role: row.role as UIMessage["role"],
    parts: JSON.parse(row.parts) as UIMessage["parts"],
    ...(row.metadata ? { metadata: JSON.parse(row.metadata) as unknown } : {}),
  }));
}

/** The position the next message of a chat takes. */
export async function messageCount(chatId: string): Promise<number> {
  return db().message.count({ where: { chatId } });
}

/** Inserts or replaces one message at its position in the chat. */
export async function saveMessage(chatId: string, position: number, message: UIMessage): Promise<void> {
  const data = { role: message.role, parts: JSON.stringify(message.parts), metadata: message.metadata === undefined ? null : JSON.stringify(message.metadata) };
  await db().$transaction([
    db().message.deleteMany({ where: { chatId, position, NOT: { id: message.id } } }),
    db().message.upsert({ where: { id: message.id }, create: { id: message.id, chatId, position, ...data }, update: { position, ...data } }),
  ]);
}

/** Drops messages from `position` on (regenerate). */
export async function deleteMessagesFrom(chatId: string, position: number): Promise<void> {
  await db().message.deleteMany({ where: { chatId, position: { gte: position } } });
}

export interface ToolCallRecord {
  id: string;
  chatId: string;
  toolName: string;
  sourcePackage: string;
  input: string;
  inputHash: string;
  output: string | null;
  state: string;
  isError: boolean;
  approvalId: string | null;
  approvalState: string | null;
  decidedBy: string | null;
  decision: string | null;
  decisionReason: string | null;
  issuedAt: Date | null;
  expiresAt: Date | null;
  decidedAt: Date | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  durationMs: number | null;
  madeChanges: boolean;
  model: string | null;
}

export async function upsertToolCall(
  id: string,
  create: Pick<ToolCallRecord, "chatId" | "toolName" | "sourcePackage" | "input" | "inputHash" | "state"> & Partial<ToolCallRecord>,
  update: Partial<ToolCallRecord> = {},
): Promise<void> {
  await db().toolCall.upsert({ where: { id }, create: { id, ...create }, update: { ...update } });
}

export async function updateToolCall(id: string, data: Partial<ToolCallRecord>): Promise<void> {
  await db().toolCall.updateMany({ where: { id }, data });
}

export async function getToolCall(id: string): Promise<ToolCallRecord | null> {
  return db().toolCall.findUnique({ where: { id } });
}

export async function getToolCallByApproval(approvalId: string): Promise<ToolCallRecord | null> {
  return db().toolCall.findUnique({ where: { approvalId } });
}

export async function listToolCalls(chatId: string): Promise<ToolCallRecord[]> {
  return db().toolCall.findMany({ where: { chatId }, orderBy: { createdAt: "asc" } });
}

export async function pendingApprovals(chatId?: string): Promise<ToolCallRecord[]> {
  return db().toolCall.findMany({ where: { approvalState: "pending", ...(chatId ? { chatId } : {}) }, orderBy: { issuedAt: "asc" } });
}

/**
 * Moves an approval from pending to a decision exactly once: the conditional update is the lock,
 * so a replayed or concurrent response finds nothing to update.
 */
export async function decideApproval(approvalId: string, data: Partial<ToolCallRecord>): Promise<boolean> {
  const result = await db().toolCall.updateMany({ where: { approvalId, approvalState: "pending" }, data });
  return result.count === 1;
}

export async function listGrants(chatId: string): Promise<string[]> {
  return (await db().toolGrant.findMany({ where: { chatId }, orderBy: { createdAt: "asc" } })).map((g) => g.toolName);
}

export async function addGrant(chatId: string, toolName: string): Promise<void> {
  await db().toolGrant.upsert({ where: { chatId_toolName: { chatId, toolName } }, create: { chatId, toolName }, update: {} });
}

export async function revokeGrant(chatId: string, toolName: string): Promise<void> {
  await db().toolGrant.deleteMany({ where: { chatId, toolName } });
}

export interface TryItApprovalRecord {
  id: string;
  toolName: string;
  inputHash: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export async function createTryItApproval(data: Omit<TryItApprovalRecord, "usedAt">): Promise<void> {
  await db().tryItApproval.create({ data });
}

export async function getTryItApproval(id: string): Promise<TryItApprovalRecord | null> {
  return db().tryItApproval.findUnique({ where: { id }, select: { id: true, toolName: true, inputHash: true, expiresAt: true, usedAt: true } });
}

/** Spends a try-it approval exactly once: the conditional update is the lock, as in decideApproval. */
export async function spendTryItApproval(id: string, at: Date): Promise<boolean> {
  return (await db().tryItApproval.updateMany({ where: { id, usedAt: null }, data: { usedAt: at } })).count === 1;
}

export async function deleteTryItApprovalsExpiredBefore(before: Date): Promise<void> {
  await db().tryItApproval.deleteMany({ where: { expiresAt: { lt: before } } });
}

/** A call row in these states is being executed by a live turn, or was left behind by a dead one. */
const UNFINISHED_CALL_STATES = ["running", "approved"];

export async function unfinishedToolCalls(chatId: string): Promise<ToolCallRecord[]> {
  return db().toolCall.findMany({ where: { chatId, state: { in: UNFINISHED_CALL_STATES } } });
}

/** Ends the given calls of a chat that are still unfinished; a call that did finish keeps its result. */
export async function finishUnfinishedToolCalls(chatId: string, ids: string[], data: Partial<ToolCallRecord>): Promise<void> {
  await db().toolCall.updateMany({ where: { chatId, id: { in: ids }, state: { in: UNFINISHED_CALL_STATES } }, data });
}

/**
 * Chats (or just `chatId`, if it is one) a dead turn may have left unfinished: a call row still running or approved, or a stored
 * message with a tool part that has no result yet or an answer still marked as streaming. The
 * patterns match the JSON structure only: inside a string value the quotes are escaped.
 */
export async function chatsWithUnfinishedWork(chatId?: string): Promise<string[]> {
  const inChat = chatId === undefined ? {} : { chatId };
  const calls = await db().toolCall.findMany({ where: { ...inChat, state: { in: UNFINISHED_CALL_STATES } }, select: { chatId: true }, distinct: ["chatId"] });
  const messages = await db().message.findMany({
    where: {
      ...inChat,
      OR: [
        ...["input-streaming", "input-available", "approval-responded"].map((state) => ({ parts: { contains: `"state":"${state}"` } })),
        { metadata: { contains: `"interrupted":"running"` } },
      ],
    },
    select: { chatId: true },
    distinct: ["chatId"],
  });
  return [...new Set([...calls, ...messages].map((row) => row.chatId))];
}
