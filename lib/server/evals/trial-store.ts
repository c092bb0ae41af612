import "server-only";
import { saveEvalTrialChat } from "@/lib/db/eval-queries";
import { getSettings } from "@/lib/settings";
import type { TrialStore } from "@/lib/evals/runner";

/**
 * The trials of stored run `runId`, each kept as a chat (origin "eval": out of the sidebar, openable
 * at /chat/<id> from the results) with its trace, and as the run's trial row that resuming reads.
 * The chats are `ownerId`'s, the person who started the run, whichever process runs the trial.
 */
export function evalTrialStore(runId: string, ownerId: string | null): TrialStore {
  return {
    async save({ chat, messages, trace, record }) {
      return saveEvalTrialChat(runId, {
        chat: { ...chat, supervised: false, ownerId },
        messages,
        // The trace beside the chat (the chat page's Trace panel), when traces are kept at all.
        traceSteps: getSettings().telemetry.traces ? trace.map(({ raw, ...step }) => ({ ...step, rawJson: JSON.stringify(raw) })) : [],
        trial: { cell: record.cell, caseName: record.case, trial: record.trial, verdict: record.verdict, record: JSON.stringify(record) },
      });
    },
  };
}
