import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedToolCall } from "@/lib/testing/stored-rows";
import type { ChatMessageMetadata } from "@/lib/chat/metadata";

// A consumed MCP server's elicitation in a chat turn: the question waits for the page, the answer
// goes back to the server, and it is recorded on the call (ToolCall row, message metadata, trace).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-chat-elicit-"));
process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
process.env.XDG_STATE_HOME = path.join(dir, "state");
const MODULES = path.resolve(import.meta.dirname, "../../../node_modules/@modelcontextprotocol");

let service: typeof import("./chat-service");
let queries: typeof import("@/lib/db/queries");
let pending: typeof import("@/lib/server/elicitations/pending");

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  const mcpServers = { everything: { command: "node", args: [path.join(MODULES, "server-everything/dist/index.js"), "stdio"], prefix: "ev_" } };
  setLoadedSettings(loadSettings({ files: [], env: { TOOLROOM_SOURCEROOT: dir, TOOLROOM_MCPSERVERS: JSON.stringify(mcpServers) } }));
  service = await import("./chat-service");
  queries = await import("@/lib/db/queries");
  pending = await import("@/lib/server/elicitations/pending");
}, 60_000);

afterAll(async () => {
  const { getRegistry } = await import("@/lib/server/runtime/registry");
  await (await getRegistry()).close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Sends one message; `answer` is given each question the turn's tool asks, as the page would. */
async function askWith(chatId: string, supervised: boolean, respond: (id: string) => unknown): Promise<UIMessage> {
  const { chatRequestSchema } = await import("./chat-request");
  const text = "call ev_trigger-elicitation-request {}";
  const request = chatRequestSchema.parse({ id: chatId, supervised, message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text }] } });
  const response = await service.handleChatRequest(request, new AbortController().signal);
  const body = response.text();
  if (supervised) {
    // The turn waits on the question: poll for it as the page does, then answer it.
    let question;
    while (!(question = pending.pendingIn(chatId)[0])) await new Promise((r) => setTimeout(r, 20));
    expect(await pending.answerElicitation(question.id, chatId, respond(question.id))).toEqual({ ok: true });
  }
  await body;
  return (await queries.loadMessages(chatId)).at(-1) as UIMessage;
}

const callOf = (message: UIMessage) => message.parts.find((p) => p.type === "tool-ev_trigger-elicitation-request") as { toolCallId: string; output?: unknown };

describe("elicitation in chat", () => {
  it("an accepted form reaches the server and is recorded on the call", async () => {
    const message = await askWith("elicit-accept", true, () => ({ action: "accept", content: { name: "Ada", untitledSingleSelectEnum: "Phoebe" } }));
    const part = callOf(message);
    expect(String(part.output)).toContain("Ada");
    const row = await storedToolCall(part.toolCallId);
    const recorded = JSON.parse(row?.elicitations ?? "[]");
    expect(recorded).toEqual([
      expect.objectContaining({
        message: "Please provide inputs for the following fields:",
        action: "accept",
        by: "user",
        content: expect.objectContaining({ name: "Ada" }),
      }),
    ]);
    // The tool card reads the same record from the message's call facts.
    const meta = (message.metadata as ChatMessageMetadata).calls?.[part.toolCallId];
    expect(meta?.elicitations).toEqual(recorded);
    const { chatTrace } = await import("./chat-view");
    const traced = (await chatTrace("elicit-accept"))?.turns.flatMap((t) => t.steps.flatMap((s) => s.toolCalls));
    expect(traced?.find((c) => c.toolCallId === part.toolCallId)?.elicitations).toEqual(recorded);
  }, 60_000);

  it("a decline is recorded as such", async () => {
    const message = await askWith("elicit-decline", true, () => ({ action: "decline" }));
    const row = await storedToolCall(callOf(message).toolCallId);
    expect(JSON.parse(row?.elicitations ?? "[]")).toEqual([expect.objectContaining({ action: "decline", by: "user" })]);
  }, 60_000);

  it("an unsupervised chat asks nobody, and the call says so", async () => {
    const message = await askWith("elicit-unsupervised", false, () => undefined);
    const row = await storedToolCall(callOf(message).toolCallId);
    expect(JSON.parse(row?.elicitations ?? "[]")).toEqual([expect.objectContaining({ action: "not-admitted", by: "unsupervised" })]);
  }, 60_000);
});
