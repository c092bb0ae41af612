import "server-only";
import type { UIMessage } from "ai";
import { isToolPart, isUnfinishedCall, type ToolPart } from "@/lib/chat/history";
import { chatsWithUnfinishedWork, finishUnfinishedToolCalls, loadMessages, saveMessage, unfinishedToolCalls } from "@/lib/db/queries";
import { closeOpenTraceSteps } from "@/lib/db/trace-queries";
import { hasRunningTurn } from "./active-turns";
import { sharedStore, turnRunsElsewhere } from "@/lib/server/team/instance-lease";

export const CRASH_TEXT = "Error: interrupted: the server stopped while this call ran.";

/**
 * Closes what a turn that died with its server process (kill -9, a crash, a power cut) left open
 * in one chat: calls still running, or approved but never run, get an error result in the tool
 * call rows and in the stored message parts, so the history the next turn sends the model is
 * well-formed. `closeInterruptedCalls` cannot do this: it runs at the end of a turn, inside the
 * process that ran it, and a killed process never gets there. Call it only for a chat with no
 * live turn in this process. Returns the ids of the calls it closed.
 */
export async function closeStrandedCalls(chatId: string, now = new Date(), stored?: UIMessage[]): Promise<string[]> {
  // The usual case, on every turn: nothing unfinished. A turn passes the chat's messages, read
  // anyway, so they are looked at here rather than having SQLite scan their text again.
  if (!stored && (await chatsWithUnfinishedWork(chatId)).length === 0) return [];
  const rows = new Set((await unfinishedToolCalls(chatId)).map((call) => call.id));
  if (stored && rows.size === 0 && !showsUnfinishedWork(stored)) return [];
  const closed = new Set(rows);
  for (const [position, message] of (stored ?? (await loadMessages(chatId))).entries()) {
    const recovered = markCrashedAnswer(closeParts(message, rows, closed));
    if (recovered !== message) await saveMessage(chatId, position, recovered);
  }
  await finishUnfinishedToolCalls(chatId, [...closed], { state: "error", isError: true, output: CRASH_TEXT, finishedAt: now });
  return [...closed];
}

/** Whether stored messages hold a call without its result, or an answer still marked as streaming. */
export function showsUnfinishedWork(messages: readonly UIMessage[]): boolean {
  return messages.some((message) => markCrashedAnswer(message) !== message || message.parts.some(isUnfinishedCall));
}

/**
 * At start-up: every chat that a dead server process left unfinished. Counts the chats and calls
 * it closed. On a shared store, a chat whose turn runs on another live instance is left to it.
 */
export async function recoverAfterCrash(now = new Date()): Promise<{ chats: number; calls: number; steps: number }> {
  let chats = 0;
  let calls = 0;
  const shared = sharedStore();
  // Start-up runs before any turn: alone on its store, every step still open belonged to the dead process.
  let steps = shared ? 0 : await closeOpenTraceSteps();
  for (const chatId of await chatsWithUnfinishedWork()) {
    if (hasRunningTurn(chatId) || (await turnRunsElsewhere(chatId, now))) continue;
    const closed = await closeStrandedCalls(chatId, now);
    if (shared) steps += await closeOpenTraceSteps(chatId);
    if (closed.length > 0) chats++;
    calls += closed.length;
  }
  return { chats, calls, steps };
}

/** A dead instance's chats (its lease ran out): their calls and trace steps closed as a restart closes them. Counts the calls. */
export async function recoverChats(chatIds: readonly string[], now = new Date()): Promise<number> {
  let calls = 0;
  for (const chatId of chatIds) {
    if (hasRunningTurn(chatId)) continue;
    calls += (await closeStrandedCalls(chatId, now)).length;
    await closeOpenTraceSteps(chatId);
  }
  return calls;
}

/**
 * Unfinished parts become error results. So does a part still shown as waiting for approval when
 * its row says approved or running: the process died between storing the decision and the message.
 */
function closeParts(message: UIMessage, unfinishedRows: ReadonlySet<string>, closed: Set<string>): UIMessage {
  let changed = false;
  const parts = message.parts.map((part) => {
    const decidedButShownWaiting = isToolPart(part) && part.state === "approval-requested" && unfinishedRows.has(part.toolCallId);
    if (!isUnfinishedCall(part) && !decidedButShownWaiting) return part;
    changed = true;
    closed.add(part.toolCallId);
    const approval = part.approval ? { approval: { ...part.approval, approved: true } } : {};
    return { ...part, state: "output-error", errorText: CRASH_TEXT, input: part.input ?? {}, ...approval } as ToolPart;
  });
  return changed ? { ...message, parts } : message;
}

/**
 * An answer stored while it streamed says so in `metadata.interrupted: "running"`; found with no
 * live turn, its stream died with the server, so it is marked `"crash"`.
 */
export function markCrashedAnswer(message: UIMessage): UIMessage {
  const metadata = message.metadata as { interrupted?: unknown } | undefined;
  if (metadata?.interrupted !== "running") return message;
  return { ...message, metadata: { ...metadata, interrupted: "crash" } };
}
