import "server-only";
import { createChat, saveMessage } from "@/lib/db/queries";
import type { TrialStore } from "@/lib/evals/runner";

/** Trials kept as chats (origin "eval": out of the sidebar, openable at /chat/<id> from the results). */
export const chatTrialStore: TrialStore = {
  async save(chat, messages) {
    await createChat({ ...chat, supervised: false, origin: "eval" });
    for (const [position, message] of messages.entries()) await saveMessage(chat.id, position, message);
  },
};
