import "server-only";
import { generateId } from "ai";
import { createComparison, getComparison, listComparisons, loadMessages, type ComparisonRecord } from "@/lib/db/queries";
import { canSee, newOwner } from "@/lib/server/auth/ownership";
import { visibleChat } from "@/lib/server/chat/chat-access";
import { getSettings } from "@/lib/settings";
import { HttpError } from "@/lib/server/http/http-error";
import { chatDetail, defaultChatConfig, type ChatDetail } from "@/lib/server/chat/chat-view";
import type { TextProtocol } from "@/lib/chat/text-protocol/types";
import { MAX_PROMPTS, type CompareColumn, type CompareRequest } from "./compare-request";

export interface ComparisonSummaryJson {
  id: string;
  prompts: string[];
  sourceChatId: string | null;
  createdAt: string;
  columns: { chatId: string; position: number; label: string }[];
}

/** A column's chat settings with the protocol resolved, as the chat session sends them. */
export interface ColumnConfig {
  modelRef: string;
  toolMode: "native" | "text";
  textProtocol: TextProtocol;
  supervised: boolean;
}

export interface ComparisonDetail extends ComparisonSummaryJson {
  columns: (ComparisonSummaryJson["columns"][number] & ChatDetail & { config: ColumnConfig })[];
}

/** How a column is named on the page, in the summary and in the approval dialog. */
export function columnLabel(column: CompareColumn, defaultProtocol: string): string {
  return column.toolMode === "text" ? `${column.modelRef} · text/${column.textProtocol ?? defaultProtocol}` : `${column.modelRef} · native`;
}

function shortText(text: string, max = 48): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function userTexts(messages: Awaited<ReturnType<typeof loadMessages>>): string[] {
  return messages
    .filter((m) => m.role === "user")
    .map((m) =>
      m.parts
        .map((p) => (p.type === "text" ? p.text : ""))
        .join("\n")
        .trim(),
    )
    .filter(Boolean);
}

/** "Replay in…": the first user message of a stored chat, or all of them in order. */
async function replayPrompts(chatId: string, which: "first" | "all"): Promise<string[]> {
  if (!(await visibleChat(chatId))) throw new HttpError(404, `Chat ${chatId} does not exist.`, "unknown_chat");
  const texts = userTexts(await loadMessages(chatId));
  if (texts.length === 0) throw new HttpError(400, `Chat ${chatId} has no message to replay.`, "nothing_to_replay");
  if (which === "first") return texts.slice(0, 1);
  if (texts.length > MAX_PROMPTS)
    throw new HttpError(400, `Chat ${chatId} has ${texts.length} user messages; a replay sends at most ${MAX_PROMPTS}.`, "too_many_prompts");
  return texts;
}

function toJson(record: ComparisonRecord): ComparisonSummaryJson {
  return { ...record, createdAt: record.createdAt.toISOString() };
}

/** Stores a comparison with one new chat per column; the browser then sends the prompts through the ordinary chat route. */
export async function startComparison(request: CompareRequest): Promise<ComparisonSummaryJson> {
  const settings = getSettings();
  for (const column of request.columns) {
    if (!settings.llms[column.modelRef]) throw new HttpError(400, `No model named "${column.modelRef}" in settings llms.`, "unknown_model");
  }
  const prompts = request.replay ? await replayPrompts(request.replay.chatId, request.replay.messages) : (request.prompts ?? []);
  const maxBytes = settings.chat.maxMessageBytes;
  for (const prompt of prompts) {
    const bytes = Buffer.byteLength(prompt);
    if (bytes > maxBytes)
      throw new HttpError(413, `A prompt is ${bytes} bytes of text, above the ${maxBytes}-byte limit (settings chat.maxMessageBytes).`, "message_too_large");
  }
  const supervised = request.supervised ?? defaultChatConfig().supervised;
  const title = shortText(prompts[0] ?? "");
  const ownerId = newOwner();
  const record = await createComparison({
    id: generateId(),
    prompts,
    sourceChatId: request.replay?.chatId ?? null,
    columns: request.columns.map((column) => {
      const label = columnLabel(column, settings.chat.textProtocol);
      const textProtocol = column.toolMode === "text" ? (column.textProtocol ?? null) : null;
      return {
        label,
        chat: { id: generateId(), title: `${title} [${label}]`, modelRef: column.modelRef, toolMode: column.toolMode, textProtocol, supervised, ownerId },
      };
    }),
  });
  return toJson(record);
}

export async function comparisonList(): Promise<ComparisonSummaryJson[]> {
  return (await listComparisons()).filter(canSee).map(toJson);
}

/** A comparison with each column's chat as the chat page reads it (expired approvals shown as timed out). */
export async function comparisonDetail(id: string): Promise<ComparisonDetail | null> {
  const record = await getComparison(id);
  if (!record || !canSee(record)) return null;
  const defaultProtocol = getSettings().chat.textProtocol;
  const columns = await Promise.all(
    record.columns.map(async (column) => {
      const detail = await chatDetail(column.chatId);
      if (!detail) return null;
      const { modelRef, toolMode, textProtocol, supervised } = detail.chat;
      return { ...column, ...detail, config: { modelRef, toolMode, textProtocol: textProtocol ?? defaultProtocol, supervised } };
    }),
  );
  return { ...toJson(record), columns: columns.filter((c) => c !== null) };
}
