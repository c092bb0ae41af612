import "server-only";
import type { UIMessage } from "ai";
import { listGrants, listToolCalls, loadLatestMessages, loadMessages, type ChatRecord, type MessagePage, type ToolCallRecord } from "@/lib/db/queries";
import { listTraceSteps } from "@/lib/db/trace-queries";
import { getSettings } from "@/lib/settings";
import { buildChatTrace, type ChatTrace } from "@/lib/trace/view";
import { knownSecrets, scrubValue } from "@/lib/security/secrets";
import { listModels, type ModelChoice } from "@/lib/chat/models";
import { showExpiredApprovals } from "@/lib/chat/timed-out";
import { timeoutText } from "@/lib/server/approvals/approvals";
import { emailOfUser } from "@/lib/server/auth/people";
import { sharedChat, visibleChat } from "./chat-access";

export interface ChatDetail {
  chat: Omit<ChatRecord, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string };
  messages: UIMessage[];
  grants: string[];
}

/**
 * How many of the latest messages the chat page sends: a screenful or more, while a long chat's HTML
 * stays small (about 1 KB a message, sent twice: as HTML and as the props React hydrates from).
 */
export const FIRST_PAGE_MESSAGES = 40;
/** How many older messages one request for the next page up returns. */
export const OLDER_PAGE_MESSAGES = 50;

function serializeChat(chat: ChatRecord): ChatDetail["chat"] {
  return { ...chat, createdAt: chat.createdAt.toISOString(), updatedAt: chat.updatedAt.toISOString() };
}

/**
 * A chat as the page shows it. Reading writes nothing: an approval past its deadline that the
 * sweeper (every few seconds) or the next POST has not recorded yet is shown as it will be stored,
 * timed out, so no page offers a dialog the server would refuse.
 */
export async function chatDetail(id: string, now = new Date()): Promise<ChatDetail | null> {
  const chat = await visibleChat(id);
  if (!chat) return null;
  const messages = await showExpiredApprovals(await loadMessages(id), now, (call) => timeoutText(id, call.toolName, call.input));
  return { chat: serializeChat(chat), messages, grants: await listGrants(id) };
}

/** The chat page's copy: the chat with only its latest messages; older ones are asked for with `chatMessagesPage`. */
export async function chatFirstPage(id: string, now = new Date()): Promise<(ChatDetail & Pick<MessagePage, "olderBefore">) | null> {
  const [chat, page, grants] = await Promise.all([visibleChat(id), chatMessagesPage(id, undefined, now), listGrants(id)]);
  if (!chat) return null;
  return { chat: serializeChat(chat), messages: page.messages, olderBefore: page.olderBefore, grants };
}

/** The messages before position `before` (the latest when absent), as the page shows them. */
export async function chatMessagesPage(id: string, before: number | undefined, now = new Date()): Promise<MessagePage> {
  const page = await loadLatestMessages(id, before === undefined ? FIRST_PAGE_MESSAGES : OLDER_PAGE_MESSAGES, before);
  const messages = await showExpiredApprovals(page.messages, now, (call) => timeoutText(id, call.toolName, call.input));
  return { messages, olderBefore: page.olderBefore };
}

export function modelChoices(): ModelChoice[] {
  return listModels(getSettings());
}

export function defaultChatConfig() {
  const settings = getSettings();
  const modelRef = settings.chat.llm.type === "ref" ? settings.chat.llm.ref : (Object.keys(settings.llms)[0] ?? "offline");
  return {
    modelRef,
    toolMode: settings.chat.toolMode,
    // A new chat starts with the protocol its model was trained on, when settings name one.
    textProtocol: settings.llms[modelRef]?.textProtocol ?? settings.chat.textProtocol,
    supervised: settings.chat.supervised,
  };
}

/** The whole chat as JSON: messages, and every tool call with its decision audit; secrets scrubbed. */
export async function chatExport(id: string): Promise<Record<string, unknown> | null> {
  const detail = await chatDetail(id);
  if (!detail) return null;
  const calls: ToolCallRecord[] = await listToolCalls(id);
  const trace = buildChatTrace(await listTraceSteps(id), calls);
  return scrubValue({ exportedAt: new Date().toISOString(), ...detail, toolCalls: calls, trace }, knownSecrets(getSettings()));
}

/** A chat's trace, turn by turn, each call joined with its decision; null for an unknown chat. */
export async function chatTrace(id: string): Promise<ChatTrace | null> {
  if (!(await visibleChat(id))) return null;
  const [steps, calls] = await Promise.all([listTraceSteps(id), listToolCalls(id)]);
  // Masked at storage; masked again here for steps stored before that, and for secrets added since.
  return scrubValue(buildChatTrace(steps, calls), knownSecrets(getSettings()));
}

/** A chat as its read-only link shows it: its title, who shared it and every message. */
export async function sharedChatView(shareId: string, now = new Date()): Promise<{ title: string; sharedBy: string | null; messages: UIMessage[] } | null> {
  const chat = await sharedChat(shareId);
  if (!chat) return null;
  const [messages, sharedBy] = await Promise.all([
    loadMessages(chat.id).then((stored) => showExpiredApprovals(stored, now, (call) => timeoutText(chat.id, call.toolName, call.input))),
    chat.ownerId ? emailOfUser(chat.ownerId) : null,
  ]);
  return { title: chat.title, sharedBy, messages };
}
