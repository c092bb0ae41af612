import fs from "node:fs";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredTrial, TrialRecord } from "@/lib/evals/runner";
import { startServer, useTempDatabase } from "@/lib/testing/approvals-harness";
import type { TraceStepData } from "@/lib/trace/types";

// A stored eval's trials: each one's chat, messages, trace and trial row are one commit, so what a
// resumed run reads as done always has its chat, and a trial that was not recorded left no chat
// behind (it runs again under a new chat id).
const dir = useTempDatabase("toolroom-trial-store-");
beforeAll(() => startServer({ TOOLROOM_SOURCEROOT: dir }));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const messages: UIMessage[] = [
  { id: "m-user", role: "user", parts: [{ type: "text", text: "read notes.txt" }] },
  { id: "m-answer", role: "assistant", parts: [{ type: "text", text: "alpha" }], metadata: { turn: { inputTokens: 3 } } },
];
const step: TraceStepData = {
  turnId: "turn-1",
  messageId: "m-answer",
  stepNumber: 0,
  model: "offline/scripted",
  toolMode: "native",
  startedAt: "2026-12-02T07:00:00.000Z",
  retries: 0,
  toolCalls: [],
  raw: { request: { body: "{}" } } as unknown as TraceStepData["raw"],
  outcome: "finished",
  durationMs: 3,
};

function trial(chatId: string, n: number, own = false): StoredTrial {
  const record = { cell: "offline · native", case: "read", trial: n, verdict: "pass", chat_id: chatId } as TrialRecord;
  // `own`: messages of its own ids, so nothing but what the test is about can clash.
  const kept = own ? messages.map((m) => ({ ...m, id: `${m.id}-${chatId}` })) : messages;
  return { chat: { id: chatId, title: `eval t/read #${n}`, modelRef: "offline", toolMode: "native" }, messages: kept, trace: [step], record };
}

async function newRun(id: string) {
  const { createEvalRun } = await import("@/lib/db/eval-queries");
  await createEvalRun({
    id,
    suiteKey: "source:t.eval.yaml",
    suite: "t",
    label: "t.eval.yaml",
    choice: "{}",
    state: "running",
    startedAt: new Date(),
    finishedAt: null,
    total: 2,
    runRel: null,
    partial: false,
    cells: null,
    error: null,
  });
}

describe("the eval trial store", () => {
  it("keeps a trial's chat (out of the chat list), its messages in order, its trace and its trial row", async () => {
    const { evalTrialStore } = await import("./trial-store");
    const { loadEvalTrials } = await import("@/lib/db/eval-queries");
    const queries = await import("@/lib/db/queries");
    const { listTraceSteps } = await import("@/lib/db/trace-queries");
    await newRun("run-kept");
    await evalTrialStore("run-kept", null).save(trial("eval-kept", 1));
    expect(await queries.getChat("eval-kept")).toMatchObject({ title: "eval t/read #1", supervised: false, modelRef: "offline" });
    expect((await queries.listChats()).map((c) => c.id)).not.toContain("eval-kept");
    expect(await queries.loadMessages("eval-kept")).toEqual(messages);
    expect(await listTraceSteps("eval-kept")).toEqual([step]);
    expect((await loadEvalTrials("run-kept")).map((r) => JSON.parse(r) as TrialRecord)).toEqual([expect.objectContaining({ trial: 1, chat_id: "eval-kept" })]);
    // The AI SDK's fractions of a millisecond are kept as the whole milliseconds the columns hold.
    const timed = { ...trial("eval-timed", 2), messages: messages.map((m) => ({ ...m, id: `${m.id}-2` })), trace: [{ ...step, ttftMs: 0.4, modelMs: 1.6 }] };
    await evalTrialStore("run-kept", null).save(timed);
    expect(await listTraceSteps("eval-timed")).toEqual([{ ...step, ttftMs: 0, modelMs: 2 }]);
  });

  it("writes nothing of a trial whose row cannot be stored: no chat is left for a trial the run does not count", async () => {
    const { evalTrialStore } = await import("./trial-store");
    const queries = await import("@/lib/db/queries");
    // No run row: the trial row's reference to its run fails, after the chat's rows were written.
    await expect(evalTrialStore("run-gone", null).save(trial("eval-orphan", 1, true))).rejects.toThrow(/EvalTrial|foreign key/i);
    expect(await queries.getChat("eval-orphan")).toBeNull();
    expect(await queries.loadMessages("eval-orphan")).toEqual([]);
  });

  it("keeps a trial once: a second attempt at a stored trial (a retried job) is not counted and leaves no chat", async () => {
    const { evalTrialStore } = await import("./trial-store");
    const { loadEvalTrials } = await import("@/lib/db/eval-queries");
    const queries = await import("@/lib/db/queries");
    await newRun("run-once");
    expect(await evalTrialStore("run-once", null).save(trial("eval-first", 1, true))).toBe(true);
    expect(await evalTrialStore("run-once", null).save(trial("eval-again", 1, true))).toBe(false);
    expect(await queries.getChat("eval-again")).toBeNull();
    expect((await loadEvalTrials("run-once")).map((r) => (JSON.parse(r) as TrialRecord).chat_id)).toEqual(["eval-first"]);
  });
});
