/**
 * The turns this server process is streaming, by chat, so Stop can end one on the server and the
 * answer is marked "stopped" rather than "disconnected" (both close the browser's request).
 */
const running = new Map<string, AbortController>();

export function startTurn(chatId: string): AbortController {
  running.get(chatId)?.abort();
  const controller = new AbortController();
  running.set(chatId, controller);
  return controller;
}

export function endTurn(chatId: string, controller: AbortController): void {
  if (running.get(chatId) === controller) running.delete(chatId);
}

/** Stops the chat's running turn; false when none is running here. */
export function stopChatTurn(chatId: string): boolean {
  const controller = running.get(chatId);
  if (!controller) return false;
  controller.abort();
  return true;
}
