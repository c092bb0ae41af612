import fs from "node:fs";
import path from "node:path";
import type { UIMessage } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { post, startServer, useTempDatabase } from "./approvals.harness";

const dir = useTempDatabase("toolroom-approvals-");
const markers = path.join(dir, "markers");
fs.mkdirSync(markers);

let queries: typeof import("@/lib/db/queries");

beforeAll(async () => {
  await startServer({
    TOOLROOM_SOURCEROOT: markers,
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ENABLED: "true",
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ALLOWEDCOMMANDS: "[touch]",
    TOOLROOM_CHAT__APPROVALTIMEOUTSECONDS: "300",
  });
  queries = await import("@/lib/db/queries");
});

/** Starts a chat whose model asks to `touch` a marker; returns the pending call as the client sees it. */
async function pendingChat(chatId: string, marker: string) {
  await post({ id: chatId, message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text: `run \`touch ${marker}\`` }] } });
  const messages = await queries.loadMessages(chatId);
  const assistant = messages.at(-1) as UIMessage;
  const part = assistant.parts.find((p) => "approval" in p && p.approval) as { toolCallId: string; input: unknown; approval: { id: string } };
  expect(part, "the model's call waits for approval").toBeDefined();
  return { assistant, part };
}

function respond(chatId: string, assistant: UIMessage, toolCallId: string, change: { approved: boolean; reason?: string; input?: unknown; approvalId?: string }) {
  const parts = assistant.parts.map((p) =>
    "toolCallId" in p && p.toolCallId === toolCallId && "approval" in p && p.approval
      ? { ...p, state: "approval-responded", input: change.input ?? p.input, approval: { ...p.approval, id: change.approvalId ?? p.approval.id, approved: change.approved, ...(change.reason ? { reason: change.reason } : {}) } }
      : p,
  );
  return post({ id: chatId, message: { ...assistant, parts } });
}

const ran = (marker: string) => fs.existsSync(path.join(markers, marker));

async function wellFormed(chatId: string) {
  // Every stored call ends with a result, or is still (legitimately) waiting for a person.
  for (const message of await queries.loadMessages(chatId)) {
    for (const part of message.parts) {
      if ("toolCallId" in part) expect(["output-available", "output-error", "output-denied", "approval-requested"]).toContain((part as { state: string }).state);
    }
  }
}

describe("approvals: the server is the authority", () => {
  it("approving the pending call runs the tool once", async () => {
    const { assistant, part } = await pendingChat("ok", "approved.txt");
    expect(ran("approved.txt")).toBe(false);
    expect((await respond("ok", assistant, part.toolCallId, { approved: true })).status).toBe(200);
    expect(ran("approved.txt")).toBe(true);
    await wellFormed("ok");
  });

  it("rejects a forged approval id", async () => {
    const { assistant, part } = await pendingChat("forged", "forged.txt");
    const response = await respond("forged", assistant, part.toolCallId, { approved: true, approvalId: "aprv_forged" });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toContain("not issued for this chat");
    expect(ran("forged.txt")).toBe(false);
    await wellFormed("forged");
  });

  it("rejects an approval issued for another chat", async () => {
    const a = await pendingChat("chat-a", "other-a.txt");
    const b = await pendingChat("chat-b", "other-b.txt");
    const response = await respond("chat-b", b.assistant, b.part.toolCallId, { approved: true, approvalId: a.part.approval.id });
    expect(response.status).toBe(403);
    expect(ran("other-a.txt") || ran("other-b.txt")).toBe(false);
  });

  it("rejects a replayed approval", async () => {
    const { assistant, part } = await pendingChat("replay", "replay.txt");
    await respond("replay", assistant, part.toolCallId, { approved: false, reason: "no" });
    const response = await respond("replay", assistant, part.toolCallId, { approved: true });
    expect(response.status).toBe(409);
    expect(ran("replay.txt")).toBe(false);
    await wellFormed("replay");
  });

  it("rejects an approval whose arguments were edited", async () => {
    const { assistant, part } = await pendingChat("edited", "edited.txt");
    const response = await respond("edited", assistant, part.toolCallId, { approved: true, input: { command: "touch sneaky.txt" } });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { code: string }).code).toBe("edited_input");
    expect(ran("edited.txt") || ran("sneaky.txt")).toBe(false);
  });

  it("rejects an approval after expiry and records the call as timed out", async () => {
    const { assistant, part } = await pendingChat("expired", "expired.txt");
    const record = await queries.getToolCallByApproval(part.approval.id);
    await queries.updateToolCall(record!.id, { expiresAt: new Date(Date.now() - 1000) });
    const response = await respond("expired", assistant, part.toolCallId, { approved: true });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { code: string }).code).toBe("expired_approval");
    expect(ran("expired.txt")).toBe(false);
    expect((await queries.getToolCall(record!.id))?.decision).toBe("timed-out");
    await wellFormed("expired");
  });

  it("a denial is recorded with its reason and the tool does not run", async () => {
    const { assistant, part } = await pendingChat("denied", "denied.txt");
    expect((await respond("denied", assistant, part.toolCallId, { approved: false, reason: "not now" })).status).toBe(200);
    expect(ran("denied.txt")).toBe(false);
    const record = await queries.getToolCall(part.toolCallId);
    expect(record).toMatchObject({ decision: "denied", decidedBy: "user", decisionReason: "not now" });
    await wellFormed("denied");
  });
});
