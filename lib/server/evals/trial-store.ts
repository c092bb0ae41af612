import "server-only";
import { createChat, saveMessage } from "@/lib/db/queries";
import { saveTraceSteps } from "@/lib/db/trace-queries";
import { getSettings } from "@/lib/settings";
import type { TrialStore } from "@/lib/evals/runner";

/** Trials kept as chats (origin "eval": out of the sidebar, openable at /chat/<id> from the results), with their traces. */
export const chatTrialStore: TrialStore = {
  async save(chat, messages, trace) {
    await createChat({ ...chat, supervised: false, origin: "eval" });
    for (const [position, message] of messages.entries()) await saveMessage(chat.id, position, message);
    // The trace beside the chat (the chat page's Trace panel), when traces are kept at all.
    if (getSettings().telemetry.traces)
      await saveTraceSteps(
        chat.id,
        trace.map(({ raw, ...step }) => ({ ...step, rawJson: JSON.stringify(raw) })),
      );
  },
};
