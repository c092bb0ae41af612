import fs from "node:fs";
import path from "node:path";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedToolCall } from "@/lib/testing/stored-rows";
import { post, readAssistantMessage, startServer, useTempDatabase } from "@/lib/testing/approvals-harness";

// Several instances on one PostgreSQL store (this file runs in the storage-pg project only): the
// rows a killed instance leaves — its lease, its chat's turn mark, a call still running — written
// as the services write them, then the other instances' sweeps and turns run for real.
const dir = useTempDatabase("toolroom-lease-");
const markers = path.join(dir, "markers");
fs.mkdirSync(markers);

let queries: typeof import("@/lib/db/queries");
let instances: typeof import("@/lib/db/instance-queries");
let recovery: typeof import("@/lib/server/chat/crash-recovery");
let lease: typeof import("./instance-lease");

beforeAll(async () => {
  await startServer({
    TOOLROOM_SOURCEROOT: markers,
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ENABLED: "true",
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ALLOWEDCOMMANDS: "[touch, ls]",
  });
  queries = await import("@/lib/db/queries");
  instances = await import("@/lib/db/instance-queries");
  recovery = await import("@/lib/server/chat/crash-recovery");
  lease = await import("./instance-lease");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type CallPart = { toolCallId: string; state: string; errorText?: string; approval?: { id: string } };
const callParts = (message: UIMessage) => message.parts.filter((p) => "toolCallId" in p) as unknown as CallPart[];

/** A chat whose approved `touch` call was running on `owner` when it stopped answering. */
async function runningCallOn(chatId: string, owner: string, heartbeatAt: Date): Promise<string> {
  await readAssistantMessage(
    await post({ id: chatId, message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text: `run \`touch ${chatId}\`` }] } }),
  );
  const assistant = (await queries.loadMessages(chatId)).at(-1) as UIMessage;
  const part = callParts(assistant).find((p) => p.state === "approval-requested")!;
  await queries.decideApproval(part.approval!.id, {
    approvalState: "approved",
    decision: "approved",
    decidedBy: "user",
    decidedAt: new Date(),
    state: "approved",
  });
  const parts = assistant.parts.map((p) =>
    p === (part as unknown) ? { ...part, state: "approval-responded", approval: { ...part.approval!, approved: true } } : p,
  );
  await queries.saveMessage(chatId, 1, { ...assistant, parts } as UIMessage);
  await queries.updateToolCall(part.toolCallId, { state: "running", startedAt: new Date() });
  await instances.registerInstance({ id: owner, kind: "web", host: "elsewhere", slots: 0, pid: 1, at: heartbeatAt }).catch(() => {});
  await instances.markTurnRunning(chatId, owner);
  return part.toolCallId;
}

async function partOf(chatId: string, toolCallId: string) {
  return (await queries.loadMessages(chatId)).flatMap(callParts).find((p) => p.toolCallId === toolCallId);
}

describe("instance leases on a shared store", () => {
  it("a dead instance's running call is closed as interrupted by exactly one live instance; a live one's is left alone", async () => {
    const now = new Date();
    const deadCall = await runningCallOn("lease-dead", "instance-dead", new Date(now.getTime() - lease.LEASE_MS - 1000));
    const liveCall = await runningCallOn("lease-live", "instance-live", now);
    const evals = await import("@/lib/db/eval-queries");
    const run = { suiteKey: "examples:x", suite: "x", label: "x", choice: "{}", state: "running", startedAt: now, finishedAt: null, total: 4 };
    const more = { runRel: null, partial: false, cells: null, error: null };
    await evals.createEvalRun({ id: "eval-dead", ...run, ...more, runningOn: "instance-dead" });
    await evals.createEvalRun({ id: "eval-live", ...run, ...more, runningOn: "instance-live" });
    expect(await lease.turnRunsElsewhere("lease-live", now)).toBe(true);
    expect(await lease.turnRunsElsewhere("lease-dead", now)).toBe(false);

    // Two live instances sweep at once: the conditional delete of the lease lets one recover it.
    const recovered: string[][] = [];
    const sweeper = async (chats: string[]) => {
      recovered.push(chats);
      return recovery.recoverChats(chats, now);
    };
    const closed = await Promise.all([lease.sweepDeadInstances(now, sweeper), lease.sweepDeadInstances(now, sweeper)]);
    expect(closed.sort()).toEqual([0, 1]);
    expect(recovered).toEqual([["lease-dead"]]);

    expect(await partOf("lease-dead", deadCall)).toMatchObject({ state: "output-error", errorText: recovery.CRASH_TEXT });
    expect(await storedToolCall(deadCall)).toMatchObject({ state: "error", output: recovery.CRASH_TEXT });
    expect(await storedToolCall(liveCall)).toMatchObject({ state: "running" });
    expect(await partOf("lease-live", liveCall)).toMatchObject({ state: "approval-responded" });

    expect((await evals.getEvalRun("eval-dead"))?.state).toBe("interrupted");
    expect((await evals.getEvalRun("eval-live"))?.state).toBe("running");

    // A restarting instance's start-up recovery leaves the live instance's turn alone too.
    await recovery.recoverAfterCrash(now);
    expect(await storedToolCall(liveCall)).toMatchObject({ state: "running" });
  });

  it("once the live instance's heartbeat is older than the lease, its call is closed the same way", async () => {
    const later = new Date(Date.now() + lease.LEASE_MS + 1000);
    expect(await lease.sweepDeadInstances(later, (chats) => recovery.recoverChats(chats, later))).toBe(1);
    const [liveCall] = (await queries.listToolCalls("lease-live")).map((c) => c.id);
    expect(await storedToolCall(liveCall!)).toMatchObject({ state: "error", output: recovery.CRASH_TEXT });
    expect(await lease.turnRunsElsewhere("lease-live", later)).toBe(false);
  });
});
