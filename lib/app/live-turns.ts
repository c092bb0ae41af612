/**
 * The chats with a turn running in this server process. A stored call without a result is a
 * crash's leftover only when no live turn of its chat is still working on it.
 */
const cache = globalThis as unknown as { __toolroomLiveTurns?: Map<string, number> };

function live(): Map<string, number> {
  cache.__toolroomLiveTurns ??= new Map();
  return cache.__toolroomLiveTurns;
}

export function hasLiveTurn(chatId: string): boolean {
  return (live().get(chatId) ?? 0) > 0;
}

/** Marks a turn of `chatId` live until `end()`; `alone` says no other turn of the chat was live. */
export function beginTurn(chatId: string): { alone: boolean; end(): void } {
  const alone = !hasLiveTurn(chatId);
  live().set(chatId, (live().get(chatId) ?? 0) + 1);
  let ended = false;
  return {
    alone,
    end() {
      if (ended) return;
      ended = true;
      const left = (live().get(chatId) ?? 1) - 1;
      if (left > 0) live().set(chatId, left);
      else live().delete(chatId);
    },
  };
}
