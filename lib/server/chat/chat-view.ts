import "server-only";
import type { UIMessage } from "ai";
import { getChat, listGrants, listToolCalls, loadMessages, type ChatRecord, type ToolCallRecord } from "@/lib/db/queries";
import { getSettings } from "@/lib/settings";
import { knownSecrets, scrubText } from "@/lib/security/secrets";
import { listModels, type ModelChoice } from "@/lib/chat/models";
import { showExpiredApprovals } from "@/lib/chat/timed-out";
import { timeoutText } from "@/lib/server/approvals/approvals";

export interface ChatDetail {
  chat: Omit<ChatRecord, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string };
  messages: UIMessage[];
  grants: string[];
}

function serializeChat(chat: ChatRecord): ChatDetail["chat"] {
  return { ...chat, createdAt: chat.createdAt.toISOString(), updatedAt: chat.updatedAt.toISOString() };
}

/**
 * A chat as the page shows it. Reading writes nothing: an approval past its deadline that the
 * sweeper (every few seconds) or the next POST has not recorded yet is shown as it will be stored,
 * timed out, so no page offers a dialog the server would refuse.
 */
export async function chatDetail(id: string, now = new Date()): Promise<ChatDetail | null> {
  const chat = await getChat(id);
  if (!chat) return null;
  const messages = await showExpiredApprovals(await loadMessages(id), now, (call) => timeoutText(id, call.toolName, call.input));
  return { chat: serializeChat(chat), messages, grants: await listGrants(id) };
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
  const text = JSON.stringify({ exportedAt: new Date().toISOString(), ...detail, toolCalls: calls }, null, 2);
  return JSON.parse(scrubText(text, knownSecrets(getSettings()))) as Record<string, unknown>;
}
