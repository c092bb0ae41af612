import fs from "node:fs";
import path from "node:path";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedToolCall } from "@/lib/testing/stored-rows";
import { post, readAssistantMessage, startServer, useTempDatabase } from "@/lib/testing/approvals-harness";

// The state a `kill -9` leaves behind, written into a real migrated SQLite file exactly as the
// chat service stores it up to that moment; then the recovery and the next turns run for real.
const dir = useTempDatabase("toolroom-crash-");
const markers = path.join(dir, "markers");
fs.mkdirSync(markers);

let queries: typeof import("@/lib/db/queries");
let recovery: typeof import("./crash-recovery");
let activeTurns: typeof import("./active-turns");

beforeAll(async () => {
  await startServer({
    TOOLROOM_SOURCEROOT: markers,
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ENABLED: "true",
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ALLOWEDCOMMANDS: "[touch, ls]",
  });
  queries = await import("@/lib/db/queries");
  recovery = await import("./crash-recovery");
  activeTurns = await import("./active-turns");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type CallPart = {
  type: string;
  toolCallId: string;
  state: string;
  input: unknown;
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
};
const callParts = (message: UIMessage) => message.parts.filter((p) => "toolCallId" in p) as unknown as CallPart[];
const userMessage = (chatId: string, n: number, text: string) => ({ id: `${chatId}-u${n}`, role: "user", parts: [{ type: "text", text }] });

/** A chat whose model asks to `touch` a marker and waits for approval. */
async function pendingChat(chatId: string, marker: string): Promise<{ assistant: UIMessage; part: CallPart }> {
  await readAssistantMessage(await post({ id: chatId, message: userMessage(chatId, 1, `run \`touch ${marker}\``) }));
  const assistant = (await queries.loadMessages(chatId)).at(-1) as UIMessage;
  const part = callParts(assistant).find((p) => p.state === "approval-requested");
  if (!part?.approval) throw new Error("the model's call does not wait for approval");
  return { assistant, part };
}

/**
 * What the server has stored when it dies after a person approved the call: the decision on the
 * row and the `approval-responded` message (historyFor), then `running` (onToolStart) — and
 * nothing of the tool's end.
 */
async function crashAfterApproval(chatId: string, marker: string, reached: "approved" | "running" | "decision-only") {
  const { assistant, part } = await pendingChat(chatId, marker);
  await queries.decideApproval(part.approval!.id, {
    approvalState: "approved",
    decision: "approved",
    decidedBy: "user",
    decidedAt: new Date(),
    state: "approved",
  });
  if (reached !== "decision-only") {
    const parts = assistant.parts.map((p) =>
      p === (part as unknown) ? { ...part, state: "approval-responded", approval: { ...part.approval!, approved: true } } : p,
    );
    await queries.saveMessage(chatId, 1, { ...assistant, parts } as UIMessage);
  }
  if (reached === "running") await queries.updateToolCall(part.toolCallId, { state: "running", startedAt: new Date() });
  return part.toolCallId;
}

async function expectClosed(chatId: string, toolCallId: string) {
  const part = (await queries.loadMessages(chatId)).flatMap(callParts).find((p) => p.toolCallId === toolCallId);
  expect(part).toMatchObject({ state: "output-error", errorText: recovery.CRASH_TEXT });
  expect(await storedToolCall(toolCallId)).toMatchObject({ state: "error", isError: true, output: recovery.CRASH_TEXT, finishedAt: expect.any(Date) });
}

describe("the next turn after a crash mid-call", () => {
  it("works, and the stranded call shows the interrupted error", async () => {
    const callId = await crashAfterApproval("crash-next", "m-next", "running");
    const answer = await readAssistantMessage(await post({ id: "crash-next", message: userMessage("crash-next", 2, "run `ls`") }));
    expect(answer.parts.some((p) => p.type === "text")).toBe(true);
    expect(callParts(answer)[0]).toMatchObject({ type: "tool-run_terminal_command", state: "approval-requested" });
    await expectClosed("crash-next", callId);
    const stored = await queries.loadMessages("crash-next");
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(JSON.stringify(stored)).not.toMatch(/Tool result is missing/);
  });

  it("regenerates after a crash of an approved call that had not started", async () => {
    const callId = await crashAfterApproval("crash-regen", "m-regen", "approved");
    await readAssistantMessage(await post({ id: "crash-regen", message: userMessage("crash-regen", 2, "list the files") }));
    const last = (await queries.loadMessages("crash-regen")).at(-1) as UIMessage;
    const answer = await readAssistantMessage(await post({ id: "crash-regen", trigger: "regenerate-message", message: last }));
    expect(answer.parts.some((p) => p.type === "text")).toBe(true);
    await expectClosed("crash-regen", callId);
    expect(fs.existsSync(path.join(markers, "m-regen"))).toBe(false);
  });
});

describe("the next turn after a crash mid-answer", () => {
  it("stores the cut answer as crashed, and the new question continues from it", async () => {
    await readAssistantMessage(await post({ id: "crash-text", message: userMessage("crash-text", 1, "hello") }));
    const cut: UIMessage = { id: "crash-text-a2", role: "assistant", parts: [{ type: "text", text: "half an ans" }], metadata: { interrupted: "running" } };
    await queries.saveMessage("crash-text", 2, cut);
    expect(recovery.showsUnfinishedWork([cut])).toBe(true);
    expect(recovery.showsUnfinishedWork((await queries.loadMessages("crash-text")).slice(0, 2))).toBe(false);

    await readAssistantMessage(await post({ id: "crash-text", message: userMessage("crash-text", 3, "hello again") }));
    const stored = await queries.loadMessages("crash-text");
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "assistant", "user", "assistant"]);
    expect(stored[2]).toEqual({ ...cut, metadata: { interrupted: "crash" } });
  });
});

describe("recoverAfterCrash (start-up)", () => {
  it("closes stranded calls in every chat and leaves finished, denied and pending ones alone", async () => {
    const running = await crashAfterApproval("rec-running", "m1", "running");
    const approved = await crashAfterApproval("rec-approved", "m2", "approved");
    // Died between deciding the row and storing the message: the card still asks.
    const decided = await crashAfterApproval("rec-decided", "m3", "decision-only");
    const pending = await pendingChat("rec-pending", "m4");
    const denied = await pendingChat("rec-denied", "m5");
    const deniedParts = denied.assistant.parts.map((p) =>
      p === (denied.part as unknown) ? { ...denied.part, state: "approval-responded", approval: { ...denied.part.approval!, approved: false } } : p,
    );
    await queries.saveMessage("rec-denied", 1, { ...denied.assistant, parts: deniedParts } as UIMessage);
    const before = await queries.loadMessages("rec-pending");

    const result = await recovery.recoverAfterCrash();

    expect(result).toEqual({ chats: 3, calls: 3, steps: 0 });
    for (const [chat, id] of [
      ["rec-running", running],
      ["rec-approved", approved],
      ["rec-decided", decided],
    ] as const)
      await expectClosed(chat, id);
    expect(callParts((await queries.loadMessages("rec-decided"))[1]!)[0]?.approval).toMatchObject({ approved: true });
    expect(await queries.loadMessages("rec-pending")).toEqual(before);
    expect(callParts((await queries.loadMessages("rec-denied"))[1]!)[0]).toMatchObject({ state: "approval-responded", approval: { approved: false } });
    // A second start finds nothing to do.
    expect(await recovery.recoverAfterCrash()).toEqual({ chats: 0, calls: 0, steps: 0 });

    // The pending approval survived the restart and still runs the call.
    const parts = pending.assistant.parts.map((p) =>
      p === (pending.part as unknown) ? { ...pending.part, state: "approval-responded", approval: { ...pending.part.approval!, approved: true } } : p,
    );
    const answered = { ...pending.assistant, parts } as UIMessage;
    await readAssistantMessage(await post({ id: "rec-pending", message: answered }), structuredClone(answered));
    expect(fs.existsSync(path.join(markers, "m4"))).toBe(true);
  });

  it("leaves a chat with a live turn in this process alone", async () => {
    const callId = await crashAfterApproval("rec-live", "m6", "running");
    const turn = activeTurns.startTurn("rec-live");
    try {
      await recovery.recoverAfterCrash();
      expect(await storedToolCall(callId)).toMatchObject({ state: "running" });
    } finally {
      activeTurns.endTurn("rec-live", turn);
    }
    await recovery.recoverAfterCrash();
    await expectClosed("rec-live", callId);
  });

  it("marks an answer that was still streaming as crashed", async () => {
    await pendingChat("rec-stream", "m7");
    const message: UIMessage = {
      id: "rec-stream-a2",
      role: "assistant",
      parts: [{ type: "text", text: "half an ans" }],
      metadata: { model: "offline/x", interrupted: "running" },
    };
    await queries.saveMessage("rec-stream", 2, message);
    await recovery.recoverAfterCrash();
    expect((await queries.loadMessages("rec-stream"))[2]).toEqual({ ...message, metadata: { model: "offline/x", interrupted: "crash" } });
  });
});
