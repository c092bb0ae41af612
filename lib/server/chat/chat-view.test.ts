import fs from "node:fs";
import path from "node:path";
import type { UIMessage } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { post, startServer, useTempDatabase } from "@/lib/testing/approvals-harness";

const dir = useTempDatabase("toolroom-chat-view-");
const markers = path.join(dir, "markers");
fs.mkdirSync(markers);

let queries: typeof import("@/lib/db/queries");
let chatView: typeof import("./chat-view");

beforeAll(async () => {
  await startServer({
    TOOLROOM_SOURCEROOT: markers,
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ENABLED: "true",
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ALLOWEDCOMMANDS: "[touch]",
  });
  queries = await import("@/lib/db/queries");
  chatView = await import("./chat-view");
});

type Part = { toolCallId?: string; state?: string; approval?: { approved?: boolean; reason?: string } };
const callParts = (messages: UIMessage[]) => messages.flatMap((m) => m.parts as Part[]).filter((p) => p.toolCallId);

/** A chat whose one call waits for approval, with its deadline (stored and in the message) already past. */
async function expiredPendingChat(chatId: string) {
  const response = await post({ id: chatId, message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text: "run `touch never.txt`" }] } });
  await response.text();
  const [pending] = await queries.pendingApprovals(chatId);
  expect(pending, "the call waits for approval").toBeDefined();
  const past = new Date(Date.now() - 1000);
  await queries.updateToolCall(pending!.id, { expiresAt: past });
  const messages = await queries.loadMessages(chatId);
  const index = messages.findIndex((m) => callParts([m]).length > 0);
  const message = messages[index]!;
  const metadata = message.metadata as { calls: Record<string, { expiresAt?: string }> };
  metadata.calls[pending!.id]!.expiresAt = past.toISOString();
  await queries.saveMessage(chatId, index, { ...message, metadata });
  return pending!;
}

describe("chatDetail (the chat page and GET /api/chats/:id)", () => {
  it("writes nothing, and shows an approval past its deadline as timed out", async () => {
    const pending = await expiredPendingChat("expired-read");
    const storedBefore = JSON.stringify(await queries.loadMessages("expired-read"));

    const detail = await chatView.chatDetail("expired-read");

    const [shown] = callParts(detail!.messages);
    expect(shown).toMatchObject({ state: "output-denied", approval: { approved: false } });
    expect(shown!.approval!.reason).toContain("nobody approved");
    const meta = (detail!.messages.find((m) => callParts([m]).length)!.metadata as { calls: Record<string, { decision?: { decision: string } }> }).calls[
      pending.id
    ];
    expect(meta?.decision?.decision).toBe("timed-out");
    // Nothing stored changed: the approval is still pending until the sweeper or a POST records it.
    expect(JSON.stringify(await queries.loadMessages("expired-read"))).toBe(storedBefore);
    expect((await queries.pendingApprovals("expired-read")).map((r) => r.id)).toEqual([pending.id]);
  });

  it("shows what the sweeper then stores", async () => {
    await expiredPendingChat("expired-swept");
    const shown = callParts((await chatView.chatDetail("expired-swept"))!.messages);
    const { sweepExpiredApprovals } = await import("@/lib/server/approvals/approvals");
    await sweepExpiredApprovals();
    const stored = callParts(await queries.loadMessages("expired-swept"));
    expect(stored).toEqual(shown);
    expect(await queries.pendingApprovals("expired-swept")).toEqual([]);
  });

  it("leaves an approval before its deadline waiting", async () => {
    const response = await post({ id: "fresh", message: { id: "fresh-u1", role: "user", parts: [{ type: "text", text: "run `touch never.txt`" }] } });
    await response.text();
    expect(callParts((await chatView.chatDetail("fresh"))!.messages).map((p) => p.state)).toEqual(["approval-requested"]);
  });
});
