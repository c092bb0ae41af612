import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedToolCall } from "@/lib/testing/stored-rows";

// A real SQLite file, migrated the way `npm start` does it, before lib/db is imported.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-chat-mcp-"));
process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
process.env.XDG_STATE_HOME = path.join(dir, "state");
const shared = path.join(dir, "shared");
fs.mkdirSync(shared);
fs.writeFileSync(path.join(shared, "hello.txt"), "hi\n");
const MODULES = path.resolve(import.meta.dirname, "../../../node_modules/@modelcontextprotocol");

let service: typeof import("./chat-service");
let queries: typeof import("@/lib/db/queries");

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  const mcpServers = {
    fs: { command: "node", args: [path.join(MODULES, "server-filesystem/dist/index.js"), shared], prefix: "fs_" },
    everything: { command: "node", args: [path.join(MODULES, "server-everything/dist/index.js"), "stdio"], prefix: "ev_" },
  };
  setLoadedSettings(loadSettings({ files: [], env: { TOOLROOM_SOURCEROOT: dir, TOOLROOM_MCPSERVERS: JSON.stringify(mcpServers) } }));
  service = await import("./chat-service");
  queries = await import("@/lib/db/queries");
}, 60_000);

afterAll(async () => {
  const { getRegistry } = await import("@/lib/server/runtime/registry");
  await (await getRegistry()).close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function ask(chatId: string, text: string, toolMode: "native" | "text"): Promise<UIMessage> {
  const { chatRequestSchema } = await import("./chat-request");
  const request = chatRequestSchema.parse({ id: chatId, toolMode, message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text }] } });
  const response = await service.handleChatRequest(request, new AbortController().signal);
  // The response ends only after the engine has stored the turn's end.
  await response.text();
  const messages = await queries.loadMessages(chatId);
  return messages.at(-1) as UIMessage;
}

type ToolPart = { type: string; state: string; input: unknown; output?: unknown };
const toolPart = (message: UIMessage, tool: string) => message.parts.find((p) => p.type === `tool-${tool}`) as ToolPart | undefined;
const answer = (message: UIMessage) => message.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");

describe.each(["native", "text"] as const)("the offline model calls MCP tools in %s mode", (mode) => {
  it("lists a folder through server-filesystem and answers from the result", async () => {
    const message = await ask(`mcp-fs-${mode}`, `call fs_list_directory ${JSON.stringify({ path: shared })}`, mode);
    const part = toolPart(message, "fs_list_directory");
    expect(part).toMatchObject({ state: "output-available", input: { path: shared }, output: "[FILE] hello.txt" });
    expect(answer(message)).toContain("Here is what `fs_list_directory` returned");
  });

  it("adds two numbers through server-everything", async () => {
    const message = await ask(`mcp-ev-${mode}`, 'call ev_get-sum {"a": 19, "b": 23}', mode);
    expect(toolPart(message, "ev_get-sum")).toMatchObject({ state: "output-available", output: expect.stringContaining("42") });
  });
});

describe("confirmation of destructive MCP tools in chat", () => {
  it("waits for a person before a destructive tool runs", async () => {
    const target = path.join(shared, "from-chat.txt");
    const message = await ask("mcp-write", `call fs_write_file ${JSON.stringify({ path: target, content: "x" })}`, "native");
    expect(toolPart(message, "fs_write_file")?.state).toBe("approval-requested");
    expect(fs.existsSync(target)).toBe(false);
  });
});

describe("a consumed tool in chat: media, progress and Cancel", () => {
  it("keeps a result's image on the call, for the card", async () => {
    const message = await ask("mcp-image", "ev_get-tiny-image", "native");
    expect(toolPart(message, "ev_get-tiny-image")?.state).toBe("output-available");
    const calls = (message.metadata as { calls?: Record<string, { media?: { type: string; mimeType: string; data: string }[] }> }).calls ?? {};
    const media = Object.values(calls).flatMap((c) => c.media ?? []);
    expect(media).toEqual([{ type: "image", mimeType: "image/png", data: expect.stringMatching(/^iVBOR/) }]);
  });

  it("lists the running call with the server's progress; Cancel ends that call as cancelled and the turn goes on", async () => {
    const { runningCalls, cancelCall } = await import("./running-calls");
    const { CANCELLED_TEXT } = await import("@/lib/chat/engine");
    const turn = ask("mcp-cancel", "ev_trigger-long-running-operation", "native");
    let call = runningCalls("mcp-cancel")[0];
    for (let i = 0; i < 300 && call?.progress === undefined; i++) {
      await new Promise((r) => setTimeout(r, 50));
      call = runningCalls("mcp-cancel")[0];
    }
    expect(call).toMatchObject({ toolName: "ev_trigger-long-running-operation", progress: 1, total: 5 });
    expect(cancelCall("mcp-cancel", call!.toolCallId)).toBe(true);
    const message = await turn;
    expect(toolPart(message, "ev_trigger-long-running-operation")).toMatchObject({ state: "output-available", output: CANCELLED_TEXT });
    expect((message.metadata as { calls: Record<string, { cancelled?: boolean }> }).calls[call!.toolCallId]?.cancelled).toBe(true);
    expect((await storedToolCall(call!.toolCallId))?.state).toBe("cancelled");
    expect(runningCalls("mcp-cancel")).toEqual([]);
    expect(cancelCall("mcp-cancel", call!.toolCallId)).toBe(false);
  }, 30_000);
});
