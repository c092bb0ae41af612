import type { RunningCallHooks } from "@/lib/chat/engine";

/** A tool call running in a chat, as its card polls it: progress the tool reported, and when it started. */
export interface RunningCall {
  toolCallId: string;
  toolName: string;
  startedAt: string;
  progress?: number;
  total?: number;
  message?: string;
}

interface Entry {
  call: RunningCall;
  cancel(): void;
}

// One store per process, on globalThis so Next's separately bundled routes share it: the call runs
// in the chat's request, the card's poll and its Cancel come in others.
type Store = Map<string, Map<string, Entry>>;
const shared = globalThis as { __toolroomRunningCalls?: Store };
const store: Store = (shared.__toolroomRunningCalls ??= new Map<string, Map<string, Entry>>());

/** The engine's hooks for one chat: each running call is listed until it ends. */
export function runningCallsOf(chatId: string): RunningCallHooks {
  return {
    start: (toolCallId, toolName, cancel) => {
      const calls = store.get(chatId) ?? new Map<string, Entry>();
      store.set(chatId, calls);
      const entry: Entry = { call: { toolCallId, toolName, startedAt: new Date().toISOString() }, cancel };
      calls.set(toolCallId, entry);
      return {
        progress: (progress, total, message) => {
          entry.call = { ...entry.call, progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) };
        },
        end: () => {
          calls.delete(toolCallId);
          if (calls.size === 0) store.delete(chatId);
        },
      };
    },
  };
}

export function runningCalls(chatId: string): RunningCall[] {
  return [...(store.get(chatId)?.values() ?? [])].map((e) => e.call);
}

/** Cancels one running call of this chat (its tool's signal aborts; an MCP server hears notifications/cancelled). */
export function cancelCall(chatId: string, toolCallId: string): boolean {
  const entry = store.get(chatId)?.get(toolCallId);
  entry?.cancel();
  return entry !== undefined;
}
