import fs from "node:fs";
import path from "node:path";
import type { UIMessage } from "ai";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { storedToolCall } from "@/lib/testing/stored-rows";
import { post, startServer, useTempDatabase } from "@/lib/testing/approvals-harness";

// Two confirming calls in one step (what the multi-response regressions need); the offline model
// makes one, and messages naming fewer than two `tool {json}` calls pass through unchanged.
vi.mock("@/lib/chat/offline-model", async (importOriginal) => {
  const offline = await importOriginal<typeof import("@/lib/chat/offline-model")>();
  const { withParallelCalls } = await import("@/lib/testing/approvals-harness");
  return {
    ...offline,
    createOfflineModel: (options?: Parameters<typeof offline.createOfflineModel>[0]) => withParallelCalls(offline.createOfflineModel(options)),
  };
});

const dir = useTempDatabase("toolroom-approvals-");
const markers = path.join(dir, "markers");
fs.mkdirSync(markers);

// A confirming plugin tool that appends its id to a ledger on every execution, so a test can count
// runs (a `touch` marker shows only that a call ran at least once).
const ledger = path.join(dir, "ledger.txt");
const pluginDir = path.join(dir, "plugins", "toolroom-plugin-ledger");
fs.mkdirSync(pluginDir, { recursive: true });
fs.writeFileSync(
  path.join(pluginDir, "package.json"),
  JSON.stringify({ name: "toolroom-plugin-ledger", version: "1.0.0", type: "module", toolroom: { tools: { tally: "./tools.js#tally" } } }),
);
fs.writeFileSync(
  path.join(pluginDir, "tools.js"),
  `import fs from "node:fs";
export const tally = {
  name: "tally",
  description: "Writes one line to the test's ledger. Args: id.",
  input: { jsonSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false } },
  readonly: false,
  confirm: { evaluate: () => true, notAdmitted: ({ id }, why) => \`Not run: tally \${id} was \${why.kind}.\` },
  execute: ({ id }) => {
    fs.appendFileSync(${JSON.stringify(ledger)}, id + "\\n");
    return \`tally \${id} done\`;
  },
};
`,
);

let queries: typeof import("@/lib/db/queries");

beforeAll(async () => {
  await startServer({
    TOOLROOM_SOURCEROOT: markers,
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ENABLED: "true",
    TOOLROOM_TOOLS__RUN_TERMINAL_COMMAND__ALLOWEDCOMMANDS: "[touch]",
    TOOLROOM_CHAT__APPROVALTIMEOUTSECONDS: "300",
    TOOLROOM_PLUGINS__PATHS: JSON.stringify([path.dirname(pluginDir)]),
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

function respond(
  chatId: string,
  assistant: UIMessage,
  toolCallId: string,
  change: { approved: boolean; reason?: string; input?: unknown; approvalId?: string },
) {
  const parts = assistant.parts.map((p) =>
    "toolCallId" in p && p.toolCallId === toolCallId && "approval" in p && p.approval
      ? {
          ...p,
          state: "approval-responded",
          input: change.input ?? p.input,
          approval: { ...p.approval, id: change.approvalId ?? p.approval.id, approved: change.approved, ...(change.reason ? { reason: change.reason } : {}) },
        }
      : p,
  );
  return post({ id: chatId, message: { ...assistant, parts } });
}

const ran = (marker: string) => fs.existsSync(path.join(markers, marker));

/** Executions of the ledger tool in one chat, by call id (`<chatId>-1`, `<chatId>-2`). */
const ledgerFor = (chatId: string) =>
  (fs.existsSync(ledger) ? fs.readFileSync(ledger, "utf8").split("\n") : []).filter((line) => line.startsWith(`${chatId}-`)).sort();

type LedgerPart = { type: string; toolCallId: string; state: string; input: { id: string }; approval?: { id: string } };
const ledgerParts = (message: UIMessage) => message.parts.filter((p) => p.type === "tool-tally") as unknown as LedgerPart[];

/** Starts a chat whose model asks, in one step, to run `tally` twice; both calls wait for approval. */
async function twoPendingChat(chatId: string) {
  await post({
    id: chatId,
    message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text: `tally {"id":"${chatId}-1"} tally {"id":"${chatId}-2"}` }] },
  });
  const assistant = (await queries.loadMessages(chatId)).at(-1) as UIMessage;
  const parts = ledgerParts(assistant);
  expect(
    parts.map((p) => [p.input.id, p.state]),
    "the model's two calls, in one step, wait for approval",
  ).toEqual([
    [`${chatId}-1`, "approval-requested"],
    [`${chatId}-2`, "approval-requested"],
  ]);
  return { assistant, parts: parts as (LedgerPart & { approval: { id: string } })[] };
}

/** One message answering several approvals at once, keyed by tool call id; other parts are sent as stored. */
function respondAll(chatId: string, assistant: UIMessage, answers: Record<string, { approved: boolean; approvalId?: string }>) {
  const parts = assistant.parts.map((p) => {
    const answer = "toolCallId" in p ? answers[p.toolCallId] : undefined;
    return answer && "approval" in p && p.approval
      ? { ...p, state: "approval-responded", approval: { ...p.approval, id: answer.approvalId ?? p.approval.id, approved: answer.approved } }
      : p;
  });
  return post({ id: chatId, message: { ...assistant, parts } });
}

/** Nothing was decided: both approvals still pending in the database and in the stored history, and nothing ran. */
async function stillBothPending(chatId: string, approvalIds: string[]) {
  expect(ledgerFor(chatId), "executions after the rejected answer").toEqual([]);
  expect((await queries.pendingApprovals(chatId)).map((r) => r.approvalId).sort(), "pending approvals in the database").toEqual([...approvalIds].sort());
  for (const approvalId of approvalIds)
    expect((await queries.getToolCallByApproval(approvalId))?.decision ?? null, `decision stored for ${approvalId}`).toBeNull();
  const stored = (await queries.loadMessages(chatId)).flatMap(ledgerParts);
  expect(
    stored.map((p) => p.state),
    "stored calls",
  ).toEqual(["approval-requested", "approval-requested"]);
}

/** Both calls ran exactly once, nothing is pending, and every stored call has a result saying so. */
async function bothRanOnce(chatId: string) {
  expect(ledgerFor(chatId), "executions: one per approved call").toEqual([`${chatId}-1`, `${chatId}-2`]);
  expect(await queries.pendingApprovals(chatId), "pending approvals in the database").toEqual([]);
  const stored = (await queries.loadMessages(chatId)).flatMap(ledgerParts);
  expect(
    stored.map((p) => [p.input.id, p.state]),
    "stored calls and their results",
  ).toEqual([
    [`${chatId}-1`, "output-available"],
    [`${chatId}-2`, "output-available"],
  ]);
  await wellFormed(chatId);
}

async function wellFormed(chatId: string) {
  // Every stored call ends with a result, or is still (legitimately) waiting for a person.
  for (const message of await queries.loadMessages(chatId)) {
    for (const part of message.parts) {
      if ("toolCallId" in part)
        expect(["output-available", "output-error", "output-denied", "approval-requested"]).toContain((part as { state: string }).state);
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
    const body = (await response.json()) as { code: string; error: string };
    expect(body.code).toBe("expired_approval");
    // A sentence naming the tool, not the internal approval id.
    expect(body.error).toMatch(/^Too late: the approval of run_terminal_command ran out of time at \d\d:\d\d:\d\d UTC, so run_terminal_command was not run/);
    expect(body.error).not.toContain(part.approval.id);
    expect(ran("expired.txt")).toBe(false);
    expect((await storedToolCall(record!.id))?.decision).toBe("timed-out");
    await wellFormed("expired");
  });

  it("after a timeout nobody answered, the model answers as after a denial, once", async () => {
    const { part } = await pendingChat("timed-out-answer", "timed-out-answer.txt");
    const record = await queries.getToolCallByApproval(part.approval.id);
    await queries.updateToolCall(record!.id, { expiresAt: new Date(Date.now() - 1000) });
    const { sweepExpiredApprovals } = await import("./approvals");
    expect(await sweepExpiredApprovals()).toBe(1);
    // The page reloads the server's copy and sends it back as it is: no decision in it.
    const stored = (await queries.loadMessages("timed-out-answer")).at(-1) as UIMessage;
    const response = await post({ id: "timed-out-answer", message: stored });
    expect(response.status).toBe(200);
    await response.text();
    const answered = (await queries.loadMessages("timed-out-answer")).at(-1) as UIMessage;
    const last = answered.parts.filter((p) => p.type !== "step-start").at(-1) as { type: string; text?: string };
    expect(last.type).toBe("text");
    expect(last.text).toMatch(/was not run/);
    expect(ran("timed-out-answer.txt")).toBe(false);
    await wellFormed("timed-out-answer");
    // Once: the answer is there, so the same request now decides nothing.
    expect((await post({ id: "timed-out-answer", message: answered })).status).toBe(400);
  });

  it("a new question to a chat whose approval ran out unseen is answered: the request times it out first, and leaves other chats to the sweeper", async () => {
    const { part } = await pendingChat("expired-unseen", "expired-unseen.txt");
    const other = await pendingChat("expired-elsewhere", "expired-elsewhere.txt");
    for (const { approval } of [part, other.part]) {
      const record = await queries.getToolCallByApproval(approval.id);
      await queries.updateToolCall(record!.id, { expiresAt: new Date(Date.now() - 1000) });
    }
    const response = await post({ id: "expired-unseen", message: { id: "expired-unseen-u2", role: "user", parts: [{ type: "text", text: "never mind" }] } });
    expect(response.status).toBe(200);
    await response.text();
    expect((await queries.getToolCallByApproval(part.approval.id))?.decision).toBe("timed-out");
    expect(ran("expired-unseen.txt")).toBe(false);
    await wellFormed("expired-unseen");
    expect((await queries.pendingApprovals("expired-elsewhere")).map((r) => r.approvalId)).toEqual([other.part.approval.id]);
    const { sweepExpiredApprovals } = await import("./approvals");
    expect(await sweepExpiredApprovals()).toBe(1);
  });

  it("a denial is recorded with its reason and the tool does not run", async () => {
    const { assistant, part } = await pendingChat("denied", "denied.txt");
    expect((await respond("denied", assistant, part.toolCallId, { approved: false, reason: "not now" })).status).toBe(200);
    expect(ran("denied.txt")).toBe(false);
    const record = await storedToolCall(part.toolCallId);
    expect(record).toMatchObject({ decision: "denied", decidedBy: "user", decisionReason: "not now" });
    await wellFormed("denied");
  });

  it('a person\'s denial whose reason reads "timed out" is a denial, not a timeout, to the model and in the record', async () => {
    const { assistant, part } = await pendingChat("denied-timed-out", "denied-timed-out.txt");
    const response = await respond("denied-timed-out", assistant, part.toolCallId, { approved: false, reason: "timed out" });
    expect(response.status).toBe(200);
    await response.text();
    expect(ran("denied-timed-out.txt")).toBe(false);
    expect(await storedToolCall(part.toolCallId)).toMatchObject({ decision: "denied", decidedBy: "user", decisionReason: "timed out" });
    // The offline model quotes the not-admitted text it was given.
    const answer = JSON.stringify((await queries.loadMessages("denied-timed-out")).at(-1)?.parts);
    expect(answer).toContain("the user denied");
    expect(answer).toContain("(reason: timed out)");
    expect(answer).not.toContain("nobody approved");
  });

  it("answering only some of a step's approvals is refused and decides nothing; answering all then runs each once", async () => {
    const { assistant, parts } = await twoPendingChat("partial");
    const [first, second] = parts as [(typeof parts)[number], (typeof parts)[number]];
    const partial = await respondAll("partial", assistant, { [first.toolCallId]: { approved: true } });
    expect(partial.status).toBe(409);
    expect(((await partial.json()) as { code: string }).code).toBe("incomplete_decision");
    await stillBothPending("partial", [first.approval.id, second.approval.id]);

    const full = await respondAll("partial", assistant, { [first.toolCallId]: { approved: true }, [second.toolCallId]: { approved: true } });
    expect(full.status).toBe(200);
    await full.text();
    await bothRanOnce("partial");
  });

  it("one forged response in a batch decides none of it; a correct answer for both then runs each once", async () => {
    const { assistant, parts } = await twoPendingChat("forged-batch");
    const [first, second] = parts as [(typeof parts)[number], (typeof parts)[number]];
    const forged = await respondAll("forged-batch", assistant, {
      [first.toolCallId]: { approved: true },
      [second.toolCallId]: { approved: true, approvalId: "aprv_forged_batch" },
    });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { code: string }).code).toBe("unknown_approval");
    await stillBothPending("forged-batch", [first.approval.id, second.approval.id]);

    const correct = await respondAll("forged-batch", assistant, { [first.toolCallId]: { approved: true }, [second.toolCallId]: { approved: true } });
    expect(correct.status).toBe(200);
    await correct.text();
    await bothRanOnce("forged-batch");
  });

  it("a call whose arguments the tool's schema refuses is answered invalid input at once: no approval is asked for it", async () => {
    await post({
      id: "invalid-args",
      message: { id: "invalid-args-u1", role: "user", parts: [{ type: "text", text: `tally {"id":"invalid-args-1"} tally {"name":"invalid-args-2"}` }] },
    });
    const parts = ledgerParts((await queries.loadMessages("invalid-args")).at(-1) as UIMessage);
    expect(parts.map((p) => p.state)).toEqual(["approval-requested", "output-available"]);
    expect((parts[1] as unknown as { output: unknown }).output).toMatch(/^Error: invalid input for tally/);
    expect(ledgerFor("invalid-args")).toEqual([]);
  });
});
