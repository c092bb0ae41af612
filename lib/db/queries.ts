import "server-only";
import type { UIMessage } from "ai";
import type { CallElicitation } from "@/lib/chat/metadata";
import { TEXT_PROTOCOLS, type TextProtocol } from "@/lib/tools/text-protocols";
import { db } from "./client";

export interface ChatRecord {
  id: string;
  title: string;
  modelRef: string;
  toolMode: "native" | "text";
  /** Null: the chat follows the settings' `chat.textProtocol`. */
  textProtocol: TextProtocol | null;
  supervised: boolean;
  /** The user who made it, on a server with sign-in; null: visible to everyone (made without sign-in). */
  ownerId: string | null;
  /** The secret of its read-only link (/shared/<shareId>); null: not shared. */
  shareId: string | null;
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
  ownerId: string | null;
  shareId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

function toChat(row: ChatRow): ChatRecord {
  // A protocol this version does not know (a newer database) falls back to the settings' default.
  const textProtocol = TEXT_PROTOCOLS.find((p) => p === row.textProtocol) ?? null;
  return { ...row, toolMode: row.toolMode === "text" ? "text" : "native", textProtocol };
}

/**
 * The people's chats: eval trials are stored as chats too (origin "eval"), and are left out here.
 * `ownerId`: only that user's chats and those made without sign-in (lib/server/chat/chat-access).
 */
export async function listChats(ownerId?: string): Promise<ChatRecord[]> {
  const owned = ownerId === undefined ? {} : { OR: [{ ownerId }, { ownerId: null }] };
  return (await db().chat.findMany({ where: { origin: "chat", ...owned }, orderBy: { updatedAt: "desc" } })).map(toChat);
}

export async function getChat(id: string): Promise<ChatRecord | null> {
  const row = await db().chat.findUnique({ where: { id } });
  return row ? toChat(row) : null;
}

/** The chat a read-only link names. */
export async function getChatByShareId(shareId: string): Promise<ChatRecord | null> {
  const row = await db().chat.findUnique({ where: { shareId } });
  return row ? toChat(row) : null;
}

/** Gives the chat a read-only link's secret, or takes it away (null). */
export async function setChatShare(id: string, shareId: string | null): Promise<ChatRecord> {
  return toChat(await db().chat.update({ where: { id }, data: { shareId } }));
}

export async function createChat(data: NewChat): Promise<ChatRecord> {
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

type MessageRow = { id: string; role: string; parts: string; metadata: string | null };

function toUIMessage(row: MessageRow): UIMessage {
  return {
    id: row.id,
    role: row.role as UIMessage["role"],
    parts: JSON.parse(row.parts) as UIMessage["parts"],
    ...(row.metadata ? { metadata: JSON.parse(row.metadata) as unknown } : {}),
  };
}

export async function loadMessages(chatId: string): Promise<UIMessage[]> {
  const rows = await db().message.findMany({ where: { chatId }, orderBy: { position: "asc" }, select: { id: true, role: true, parts: true, metadata: true } });
  return rows.map(toUIMessage);
}

/** Up to `limit` messages, the latest ones before position `before` (all when absent), oldest first. */
export interface MessagePage {
  messages: UIMessage[];
  /** The cursor for the page before this one: the position of this page's first message; null when none is older. */
  olderBefore: number | null;
}

export async function loadLatestMessages(chatId: string, limit: number, before?: number): Promise<MessagePage> {
  // One row more than asked says whether anything older is left, without a count.
  const rows = await db().message.findMany({
    where: { chatId, ...(before === undefined ? {} : { position: { lt: before } }) },
    orderBy: { position: "desc" },
    take: limit + 1,
    select: { id: true, role: true, parts: true, metadata: true, position: true },
  });
  const page = rows.slice(0, limit).reverse();
  return { messages: page.map(toUIMessage), olderBefore: rows.length > limit ? page[0]!.position : null };
}

/** The position the next message of a chat takes. */
export async function messageCount(chatId: string): Promise<number> {
  return db().message.count({ where: { chatId } });
}

/** A message's columns besides its place: the parts and metadata as JSON text. */
export function messageColumns(message: UIMessage): { role: string; parts: string; metadata: string | null } {
  return { role: message.role, parts: JSON.stringify(message.parts), metadata: message.metadata === undefined ? null : JSON.stringify(message.metadata) };
}

/** Inserts or replaces one message at its position in the chat. */
export async function saveMessage(chatId: string, position: number, message: UIMessage): Promise<void> {
  const data = messageColumns(message);
  await db().$transaction([
    db().message.deleteMany({ where: { chatId, position, NOT: { id: message.id } } }),
    db().message.upsert({ where: { id: message.id }, create: { id: message.id, chatId, position, ...data }, update: { position, ...data } }),
  ]);
}

export type NewChat = Pick<ChatRecord, "id" | "title" | "modelRef" | "toolMode" | "supervised"> &
  Partial<Pick<ChatRecord, "textProtocol" | "ownerId">> & { origin?: "chat" | "eval" };

/**
 * A person's message at `position`, the chat touched (or created first, for its first message) in
 * the same transaction: one commit, so one wait for the disk, before the answer can start.
 */
export async function saveQuestion(chatId: string, position: number, message: UIMessage, newChat?: NewChat): Promise<void> {
  const data = messageColumns(message);
  await db().$transaction([
    newChat ? db().chat.create({ data: newChat }) : db().chat.update({ where: { id: chatId }, data: { updatedAt: new Date() } }),
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
  /** The signed-in person's email, when a person decided on a server with sign-in. */
  decidedByUser: string | null;
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
  ruleKey: string | null;
  originalInput: string | null;
  /** JSON list of CallElicitation: what the tool asked the person while it ran. */
  elicitations: string | null;
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

/** Most answers kept per call: a tool that asks in a loop does not grow the row without end. */
const ELICITATIONS_KEPT = 20;

/** Records one question the call's tool asked the person, and the answer (read, append, write: one call asks one at a time). */
export async function addToolCallElicitation(id: string, elicitation: CallElicitation): Promise<void> {
  const row = await db().toolCall.findUnique({ where: { id }, select: { elicitations: true } });
  if (!row) return;
  const list = [...(row.elicitations ? (JSON.parse(row.elicitations) as CallElicitation[]) : []), elicitation].slice(-ELICITATIONS_KEPT);
  await db().toolCall.update({ where: { id }, data: { elicitations: JSON.stringify(list) } });
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

export interface ApprovalRuleRecord {
  id: string;
  name: string;
  decision: "allow" | "ask" | "deny";
  reason: string | null;
  tool: string | null;
  source: string | null;
  readonly: boolean | null;
  /** JSON text: field → regex string or JSON Schema. */
  args: string | null;
  /** null: everywhere. */
  chatId: string | null;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type ApprovalRuleInput = Omit<ApprovalRuleRecord, "id" | "createdAt" | "updatedAt">;

function toApprovalRule(row: Omit<ApprovalRuleRecord, "decision"> & { decision: string }): ApprovalRuleRecord {
  return { ...row, decision: row.decision === "allow" || row.decision === "deny" ? row.decision : "ask" };
}

/** UI rules in precedence order: this chat's before the "everywhere" ones, older before newer. */
export async function listApprovalRules(options: { chatId?: string; enabledOnly?: boolean } = {}): Promise<ApprovalRuleRecord[]> {
  const where = {
    ...(options.enabledOnly ? { enabled: true } : {}),
    ...(options.chatId !== undefined ? { OR: [{ chatId: options.chatId }, { chatId: null }] } : {}),
  };
  const rows = (await db().approvalRule.findMany({ where, orderBy: { createdAt: "asc" } })).map(toApprovalRule);
  return [...rows.filter((r) => r.chatId !== null), ...rows.filter((r) => r.chatId === null)];
}

export async function getApprovalRule(id: string): Promise<ApprovalRuleRecord | null> {
  const row = await db().approvalRule.findUnique({ where: { id } });
  return row ? toApprovalRule(row) : null;
}

export async function createApprovalRule(data: ApprovalRuleInput): Promise<ApprovalRuleRecord> {
  return toApprovalRule(await db().approvalRule.create({ data }));
}

export async function updateApprovalRule(id: string, data: Partial<ApprovalRuleInput>): Promise<ApprovalRuleRecord | null> {
  const result = await db().approvalRule.updateMany({ where: { id }, data });
  return result.count === 1 ? getApprovalRule(id) : null;
}

export async function deleteApprovalRule(id: string): Promise<boolean> {
  const result = await db().approvalRule.deleteMany({ where: { id } });
  await db().approvalRuleHit.deleteMany({ where: { key: `ui:${id}` } });
  return result.count === 1;
}

export interface ApprovalRuleHitRecord {
  key: string;
  matchCount: number;
  lastMatchedAt: Date;
}

export async function recordRuleHit(key: string, at: Date): Promise<void> {
  await db().approvalRuleHit.upsert({
    where: { key },
    create: { key, matchCount: 1, lastMatchedAt: at },
    update: { matchCount: { increment: 1 }, lastMatchedAt: at },
  });
}

export async function listRuleHits(): Promise<ApprovalRuleHitRecord[]> {
  return db().approvalRuleHit.findMany();
}

export interface TryItApprovalRecord {
  id: string;
  toolName: string;
  inputHash: string;
  expiresAt: Date;
  usedAt: Date | null;
  /** The user who started the call; null: started without sign-in. */
  ownerId: string | null;
}

export async function createTryItApproval(data: Omit<TryItApprovalRecord, "usedAt">): Promise<void> {
  await db().tryItApproval.create({ data });
}

export async function getTryItApproval(id: string): Promise<TryItApprovalRecord | null> {
  return db().tryItApproval.findUnique({
    where: { id },
    select: { id: true, toolName: true, inputHash: true, expiresAt: true, usedAt: true, ownerId: true },
  });
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

export interface ComparisonColumnRecord {
  chatId: string;
  position: number;
  label: string;
}

export interface ComparisonRecord {
  id: string;
  prompts: string[];
  sourceChatId: string | null;
  createdAt: Date;
  columns: ComparisonColumnRecord[];
  /** Its chats' owner (they are made together, by one person); null without sign-in. */
  ownerId: string | null;
}

const comparisonInclude = {
  columns: { orderBy: { position: "asc" }, select: { chatId: true, position: true, label: true, chat: { select: { ownerId: true } } } },
} as const;

function toComparison(row: {
  id: string;
  prompts: string;
  sourceChatId: string | null;
  createdAt: Date;
  columns: (ComparisonColumnRecord & { chat: { ownerId: string | null } })[];
}): ComparisonRecord {
  const columns = row.columns.map(({ chat: _chat, ...column }) => column);
  return { ...row, columns, prompts: JSON.parse(row.prompts) as string[], ownerId: row.columns[0]?.chat.ownerId ?? null };
}

/** A comparison and one new chat per column. */
export async function createComparison(data: {
  id: string;
  prompts: string[];
  sourceChatId: string | null;
  columns: { label: string; chat: Pick<ChatRecord, "id" | "title" | "modelRef" | "toolMode" | "textProtocol" | "supervised" | "ownerId"> }[];
}): Promise<ComparisonRecord> {
  // One nested write: the comparison, its columns and their chats are stored together or not at all.
  const row = await db().comparison.create({
    data: {
      id: data.id,
      prompts: JSON.stringify(data.prompts),
      sourceChatId: data.sourceChatId,
      columns: { create: data.columns.map((column, position) => ({ position, label: column.label, chat: { create: column.chat } })) },
    },
    include: comparisonInclude,
  });
  return toComparison(row);
}

export async function getComparison(id: string): Promise<ComparisonRecord | null> {
  const row = await db().comparison.findUnique({ where: { id }, include: comparisonInclude });
  return row ? toComparison(row) : null;
}

export async function listComparisons(): Promise<ComparisonRecord[]> {
  return (await db().comparison.findMany({ orderBy: { createdAt: "desc" }, include: comparisonInclude })).map(toComparison);
}
