// Every turn leaves a trace, and every step ends saying what happened (#29.4), against the loopback
// OpenAI-compatible server: a refusal (#29.5b), a cut socket, a stall past the idle limit, Stop,
// a call the broken reply left open (#29.5d), and a step open when the server dies.
import { execFileSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMetadata } from "@/lib/chat/metadata";
import { isToolPart } from "@/lib/chat/history";
import { startFakeOpenAI, textDeltas, type FakeOpenAIServer } from "@/lib/testing/openai-server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-turn-outcome-"));
process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
process.env.XDG_STATE_HOME = path.join(dir, "state");
const sourceRoot = path.join(dir, "src");
fs.mkdirSync(sourceRoot, { recursive: true });

let service: typeof import("./chat-service");
let view: typeof import("./chat-view");
let queries: typeof import("@/lib/db/queries");
let traceQueries: typeof import("@/lib/db/trace-queries");
let turns: typeof import("./active-turns");
let local: FakeOpenAIServer;

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  local = await startFakeOpenAI();
  // The idle limit is what ends a stall; Stop comes long before it.
  await settings({ streamIdleTimeoutSeconds: 1 });
  service = await import("./chat-service");
  view = await import("./chat-view");
  queries = await import("@/lib/db/queries");
  traceQueries = await import("@/lib/db/trace-queries");
  turns = await import("./active-turns");
});

afterAll(async () => {
  await local?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function settings(chat: Record<string, unknown>, more: Record<string, unknown> = {}) {
  const settingsFile = path.join(dir, "toolroom.yaml");
  const llms = { local: { provider: "openai-compatible", baseURL: local.baseURL, model: "qwen-test" }, ...more };
  fs.writeFileSync(settingsFile, JSON.stringify({ sourceRoot, llms, chat: { llm: { type: "ref", ref: "local" }, ...chat } }));
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  setLoadedSettings(loadSettings({ files: [settingsFile], env: {} }));
}

async function start(chatId: string, text = "hello") {
  const { chatRequestSchema } = await import("./chat-request");
  const request = chatRequestSchema.parse({ id: chatId, message: { id: `${chatId}-u`, role: "user", parts: [{ type: "text", text }] }, toolMode: "native" });
  const response = await service.handleChatRequest(request, new AbortController().signal);
  expect(response.status).toBe(200);
  return response;
}
const ask = async (chatId: string) => void (await (await start(chatId)).text());
const steps = async (chatId: string) => (await view.chatTrace(chatId))!.turns.flatMap((t) => t.steps);
const answer = async (chatId: string) => (await queries.loadMessages(chatId)).at(-1)!;

/** Reads the response until its text contains `marker`: the answer is streaming and its first words arrived. */
async function readUntil(response: Response, marker: string): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  while (!seen.includes(marker)) {
    const next = await reader.read();
    if (next.done) throw new Error(`the stream ended before "${marker}"`);
    seen += decoder.decode(next.value, { stream: true });
  }
  return reader;
}
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>) {
  while (!(await reader.read()).done);
}

describe("how each turn's steps end", () => {
  it("a finished answer's step says finished", async () => {
    local.reply({ deltas: textDeltas("All good.", [4]), finish: "stop" });
    await ask("outcome-finished");
    expect(await steps("outcome-finished")).toEqual([expect.objectContaining({ outcome: "finished", finishReason: "stop" })]);
  });

  it("a refusal (content_filter) is shown on the message and recorded as refused", async () => {
    local.reply({ deltas: [], finish: "content_filter" });
    await ask("outcome-refused");
    expect(readMetadata((await answer("outcome-refused")).metadata).refused).toMatch(/^Refused: .*declined to answer/);
    expect(await steps("outcome-refused")).toEqual([expect.objectContaining({ outcome: "refused", finishReason: "content-filter" })]);
  });

  it("Anthropic's stop_reason refusal, in its Messages SSE wire shape, is a refusal too", async () => {
    // The event sequence of Anthropic's streaming docs (message_start … message_stop), refusing after a few words.
    const events: [string, unknown][] = [
      [
        "message_start",
        {
          type: "message_start",
          message: {
            id: "msg_r1",
            type: "message",
            role: "assistant",
            model: "claude-test",
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 12, output_tokens: 1 },
          },
        },
      ],
      ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
      ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "I can" } }],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      ["message_delta", { type: "message_delta", delta: { stop_reason: "refusal", stop_sequence: null }, usage: { output_tokens: 3 } }],
      ["message_stop", { type: "message_stop" }],
    ];
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      await settings({ streamIdleTimeoutSeconds: 1 }, { claude: { provider: "anthropic", baseURL, model: "claude-test", apiKey: "test-key-123456" } });
      const { chatRequestSchema } = await import("./chat-request");
      const request = chatRequestSchema.parse({
        id: "outcome-anthropic-refusal",
        model: "claude",
        message: { id: "outcome-anthropic-refusal-u", role: "user", parts: [{ type: "text", text: "hello" }] },
        toolMode: "native",
      });
      await (await service.handleChatRequest(request, new AbortController().signal)).text();
      expect(readMetadata((await answer("outcome-anthropic-refusal")).metadata).refused).toMatch(/^Refused:/);
      expect(await steps("outcome-anthropic-refusal")).toEqual([expect.objectContaining({ outcome: "refused", inputTokens: 12 })]);
    } finally {
      await settings({ streamIdleTimeoutSeconds: 1 });
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a cut socket ends the step as a provider error with the text the person saw", async () => {
    local.reply({ deltas: textDeltas("Half an answ", [5]), then: "cut" });
    await ask("outcome-cut");
    const shown = readMetadata((await answer("outcome-cut")).metadata).error;
    expect(shown).toBeTruthy();
    const [step] = await steps("outcome-cut");
    expect(step).toMatchObject({ outcome: "provider-error", error: shown, durationMs: expect.any(Number) });
  });

  it("a call the broken reply left open is closed as not run, not as a server stop", async () => {
    local.reply({
      deltas: [{ tool_calls: [{ index: 0, id: "call_cut", type: "function", function: { name: "list_files", arguments: '{"pa' } }] }],
      then: "cut",
    });
    await ask("outcome-open-call");
    const part = (await answer("outcome-open-call")).parts.find(isToolPart);
    expect(part).toMatchObject({ state: "output-error", errorText: expect.stringMatching(/^Not run: the provider's reply broke off/) });
  });

  it("a stall past the idle limit ends the step as timed out, naming the limit", async () => {
    local.reply({ deltas: textDeltas("Thinking", [3]), then: "stall" });
    await ask("outcome-idle");
    const [step] = await steps("outcome-idle");
    expect(step).toMatchObject({ outcome: "timed-out", durationMs: expect.any(Number) });
    expect(step!.error).toMatch(/1 s|idle|sent nothing/);
  });

  it("Stop ends the step as stopped by the person", async () => {
    local.reply({ deltas: textDeltas("Started answering", [7]), then: "stall" });
    const reader = await readUntil(await start("outcome-stop"), "Started");
    expect(turns.stopChatTurn("outcome-stop")).toBe(true);
    await drain(reader);
    const [step] = await steps("outcome-stop");
    expect(step).toMatchObject({ outcome: "stopped", error: "stopped by the person", durationMs: expect.any(Number) });
  });

  it("a step is stored while it runs, and one a dead server left open is closed as interrupted", async () => {
    // The stall must outlast the answer's first periodic save (every second): no idle limit here.
    await settings({ streamIdleTimeoutSeconds: 60 });
    local.reply({ deltas: textDeltas("Long answer under way", [4]), then: "stall" });
    const reader = await readUntil(await start("outcome-crash"), "under");
    // The answer's periodic save writes the open step too (what a kill -9 leaves behind).
    let open = await traceQueries.listTraceSteps("outcome-crash");
    while (open.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      open = await traceQueries.listTraceSteps("outcome-crash");
    }
    expect(open[0]).not.toHaveProperty("outcome");
    expect(open[0]!.raw.response.text).toContain("Long");
    // What the next start does with it (this process's turn is still alive, so it is closed here by hand).
    expect(await traceQueries.closeOpenTraceSteps("outcome-crash")).toBe(1);
    expect((await traceQueries.listTraceSteps("outcome-crash"))[0]).toMatchObject({ outcome: "interrupted", error: traceQueries.CRASHED_STEP_TEXT });
    turns.stopChatTurn("outcome-crash");
    await drain(reader);
  });
});
