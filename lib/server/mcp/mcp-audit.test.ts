// What the web app stores of an MCP client's calls: the answers its elicitations got (who gave
// them, what was sent) and a call the client cancelled.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startServer, useTempDatabase } from "@/lib/testing/approvals-harness";
import { createMcpServer } from "@/lib/mcp/server";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { settingsSchema, type Settings } from "@/lib/settings/schema";
import type { Registry } from "@/lib/tools/registry-types";
import { mcpServeOptions } from "./mcp-serve";

const dir = useTempDatabase("toolroom-mcp-audit-");
let settings: Settings;
let registry: Registry;

beforeAll(async () => {
  await startServer({});
  settings = settingsSchema.parse({
    sourceRoot: dir,
    plugins: { paths: [path.resolve("examples/plugins/mcp-conformance-fixtures"), path.resolve("examples/plugins/toolroom-plugin-sample")] },
  });
  registry = await loadRegistry({ settings, log: () => {} });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function connect(answer: (signal: AbortSignal) => Promise<ElicitResult>) {
  const { databaseMcpAudit } = await import("./mcp-audit");
  const server = createMcpServer(mcpServeOptions(registry, settings, databaseMcpAudit, () => {}));
  const client = new Client({ name: "audit-test", version: "1" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, (_request, extra) => answer(extra.signal));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

/** The stored call of test_elicitation asked `message` (each test asks its own). */
async function storedCall(message: string) {
  const { db } = await import("@/lib/db/client");
  return db().toolCall.findFirst({ where: { toolName: "test_elicitation", input: JSON.stringify({ message }) } });
}

describe("the audit of served calls", () => {
  it("records what the client's person sent with an accepted answer", async () => {
    const client = await connect(async () => ({ action: "accept", content: { username: "ada", email: "ada@example.com" } }));
    await client.callTool({ name: "test_elicitation", arguments: { message: "Who are you?" } });
    const row = await storedCall("Who are you?");
    expect(JSON.parse(row?.elicitations ?? "[]")).toEqual([
      { message: "Who are you?", action: "accept", by: "user", content: { username: "ada", email: "ada@example.com" }, at: expect.any(String) },
    ]);
  });

  it("attributes an answer the form refuses to the client, with why", async () => {
    const client = await connect(async () => ({ action: "accept", content: { username: 42 } }));
    await client.callTool({ name: "test_elicitation", arguments: { message: "Your name?" } });
    const row = await storedCall("Your name?");
    expect(JSON.parse(row?.elicitations ?? "[]")).toEqual([
      { message: "Your name?", action: "not-admitted", by: "client", reason: expect.stringMatching(/does not match/), at: expect.any(String) },
    ]);
  });

  /** A client that cancels the call as soon as it is asked anything: its person walked away. */
  const connectCancelling = (controller: AbortController) =>
    connect(
      (signal) =>
        new Promise((_, reject) => {
          signal.addEventListener("abort", () => reject(new Error("aborted")));
          controller.abort();
        }),
    );

  it("stores a call the client cancelled as cancelled", async () => {
    const controller = new AbortController();
    const client = await connectCancelling(controller);
    await expect(client.callTool({ name: "test_elicitation", arguments: { message: "Who?" } }, undefined, { signal: controller.signal })).rejects.toThrow();
    const row = await vi.waitFor(async () => (await storedCall("Who?")) ?? Promise.reject(new Error("not stored yet")));
    expect(row).toMatchObject({ state: "cancelled" });
  });

  it("stores a call the client cancelled while its person was asked to confirm it as cancelled, not denied", async () => {
    const controller = new AbortController();
    const client = await connectCancelling(controller);
    const call = client.callTool({ name: "sample_save_note", arguments: { title: "cancelled-confirm", body: "no" } }, undefined, { signal: controller.signal });
    await expect(call).rejects.toThrow();
    const { db } = await import("@/lib/db/client");
    const row = await vi.waitFor(
      async () => (await db().toolCall.findFirst({ where: { toolName: "sample_save_note" } })) ?? Promise.reject(new Error("not stored yet")),
    );
    expect(row).toMatchObject({ state: "cancelled" });
    expect(fs.existsSync(path.join(dir, ".toolroom/notes/cancelled-confirm.md"))).toBe(false);
  });
});
