import "server-only";
import type { UIMessage } from "ai";
import { getChat, listGrants, listToolCalls, loadMessages, type ChatRecord, type ToolCallRecord } from "@/lib/db/queries";
import { getSettings } from "@/lib/settings";
import { knownSecrets, scrubText } from "@/lib/security/secrets";
import { listModels, type ModelChoice } from "@/lib/chat/models";
import { sweepExpiredApprovals } from "./approvals";

export interface ChatDetail {
  chat: Omit<ChatRecord, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string };
  messages: UIMessage[];
  grants: string[];
}

function serializeChat(chat: ChatRecord): ChatDetail["chat"] {
  return { ...chat, createdAt: chat.createdAt.toISOString(), updatedAt: chat.updatedAt.toISOString() };
}

/** A chat as the page shows it, after timing out any approval that expired meanwhile. */
export async function chatDetail(id: string): Promise<ChatDetail | null> {
  await sweepExpiredApprovals();
  const chat = await getChat(id);
  if (!chat) return null;
  return { chat: serializeChat(chat), messages: await loadMessages(id), grants: await listGrants(id) };
}

export function modelChoices(): ModelChoice[] {
  return listModels(getSettings());
}

export function defaultChatConfig() {
  const settings = getSettings();
  return {
    modelRef: settings.chat.llm.type === "ref" ? settings.chat.llm.ref : (Object.keys(settings.llms)[0] ?? "offline"),
    toolMode: settings.chat.toolMode,
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
