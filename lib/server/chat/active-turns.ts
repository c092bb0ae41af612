import { markTurn } from "@/lib/server/team/instance-lease";

/**
 * The turns this server process is running, by chat (and, on a shared store, marked in the
 * database so other instances know). Stop ends one on the server, so the answer is
 * marked "stopped" rather than "disconnected" (both close the browser's request); and a stored call
 * without a result is a crash's leftover only when no turn of its chat is running here.
 */
const cache = globalThis as unknown as { __toolroomActiveTurns?: Map<string, AbortController> };
const running = (cache.__toolroomActiveTurns ??= new Map<string, AbortController>());

/** Starts a turn of `chatId`; a turn of the same chat still running is stopped. */
export function startTurn(chatId: string): AbortController {
  running.get(chatId)?.abort();
  const controller = new AbortController();
  running.set(chatId, controller);
  markTurn(chatId, true);
  return controller;
}

/** Ends the turn `controller` started, once its answer is stored. */
export function endTurn(chatId: string, controller: AbortController): void {
  if (running.get(chatId) !== controller) return;
  running.delete(chatId);
  markTurn(chatId, false);
}

export function hasRunningTurn(chatId: string): boolean {
  return running.has(chatId);
}

/** Stops the chat's running turn; false when none is running here. */
export function stopChatTurn(chatId: string): boolean {
  const controller = running.get(chatId);
  if (!controller) return false;
  controller.abort();
  return true;
}
