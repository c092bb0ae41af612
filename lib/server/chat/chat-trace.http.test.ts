// Traces of turns against the loopback OpenAI-compatible server: usage it reports, the request it
// received, a text-mode near-miss with the parser's reason, and the trace in the chat's export.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMetadata } from "@/lib/chat/metadata";
import { startFakeOpenAI, textDeltas, type FakeOpenAIServer } from "@/lib/testing/openai-server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-chat-trace-"));
process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
process.env.XDG_STATE_HOME = path.join(dir, "state");
const sourceRoot = path.join(dir, "src");
fs.mkdirSync(path.join(sourceRoot, "lib"), { recursive: true });
fs.writeFileSync(path.join(sourceRoot, "lib/engine.ts"), "// engine\n");

let service: typeof import("./chat-service");
let view: typeof import("./chat-view");
let queries: typeof import("@/lib/db/queries");
let local: FakeOpenAIServer;
const SECRET = "sk-loopback-secret-0123456789";

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  local = await startFakeOpenAI();
  const settingsFile = path.join(dir, "toolroom.yaml");
  const settings = {
    sourceRoot,
    llms: { local: { provider: "openai-compatible", baseURL: local.baseURL, model: "qwen-test", apiKey: SECRET } },
    chat: { llm: { type: "ref", ref: "local" }, textProtocol: "json" },
  };
  fs.writeFileSync(settingsFile, JSON.stringify(settings));
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  setLoadedSettings(loadSettings({ files: [settingsFile], env: {} }));
  service = await import("./chat-service");
  view = await import("./chat-view");
  queries = await import("@/lib/db/queries");
});

afterAll(async () => {
  await local?.close();
});

let n = 0;
async function ask(chatId: string, text: string, toolMode: "native" | "text") {
  const { chatRequestSchema } = await import("./chat-request");
  const request = chatRequestSchema.parse({ id: chatId, message: { id: `${chatId}-u${++n}`, role: "user", parts: [{ type: "text", text }] }, toolMode });
  const response = await service.handleChatRequest(request, new AbortController().signal);
  expect(response.status).toBe(200);
  // Persistence (the trace included) finishes before the stream closes.
  await response.text();
}

describe("chat traces over the loopback provider", () => {
  it("records the provider's usage, the exact request, and the turn summary on the message; the export carries the trace", async () => {
    local.reply(
      {
        deltas: [{ tool_calls: [{ index: 0, id: "call_t1", type: "function", function: { name: "list_files", arguments: '{"path": "lib"}' } }] }],
        finish: "tool_calls",
        usage: { prompt_tokens: 321, completion_tokens: 12, prompt_tokens_details: { cached_tokens: 256 } },
      },
      { deltas: textDeltas("lib holds engine.ts.", [4]), finish: "stop" },
    );
    await ask("trace-native", "What is in lib?", "native");
    const trace = await view.chatTrace("trace-native");
    const steps = trace!.turns[0]!.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0]).toMatchObject({ inputTokens: 321, outputTokens: 12, cachedTokens: 256, finishReason: "tool-calls", answeredBy: "qwen-test", retries: 0 });
    // Unscripted usage is the loopback server's own rough count: real, non-zero numbers.
    expect(steps[1]!.inputTokens).toBeGreaterThan(0);
    expect(steps[0]!.toolCalls[0]).toMatchObject({ toolCallId: "call_t1", toolName: "list_files", executionMs: expect.any(Number), madeChanges: false });
    const raw = steps[0]!.raw;
    expect(raw.request.url).toBe(`${local.baseURL}/chat/completions`);
    expect(raw.request.body).toMatchObject({
      model: "qwen-test",
      stream: true,
      tools: expect.arrayContaining([expect.objectContaining({ type: "function" })]),
    });
    expect(raw.response.toolInputs[0]).toMatchObject({ toolName: "list_files" });

    const stored = (await queries.loadMessages("trace-native")).at(-1)!;
    expect(readMetadata(stored.metadata).turn).toMatchObject({ steps: 2, inputTokens: 321 + steps[1]!.inputTokens!, cachedTokens: 256 });

    const exported = JSON.stringify(await view.chatExport("trace-native"));
    expect(JSON.parse(exported).trace.turns[0].steps).toHaveLength(2);
    expect(exported).not.toContain(SECRET);
  });

  it("asks an OpenAI-compatible server for usage, and a server that sends none leaves the counts unknown, never 0 (#29.5a)", async () => {
    local.reply({ deltas: textDeltas("No usage here.", [3]), finish: "stop", usage: null });
    await ask("trace-no-usage", "hello", "native");
    // Servers that follow the spec report usage only when the request asks for it.
    expect(local.requests.at(-1)).toMatchObject({ stream_options: { include_usage: true } });
    const [step] = (await view.chatTrace("trace-no-usage"))!.turns[0]!.steps;
    expect(step!.finishReason).toBe("stop");
    expect(step).not.toHaveProperty("inputTokens");
    expect(step).not.toHaveProperty("outputTokens");
    const stored = (await queries.loadMessages("trace-no-usage")).at(-1)!;
    expect(readMetadata(stored.metadata).turn).toEqual(expect.objectContaining({ steps: 1 }));
    expect(readMetadata(stored.metadata).turn).not.toHaveProperty("inputTokens");
  });

  it("a malformed text-mode call from the provider is a near-miss with the parser's reason, in place in the raw text", async () => {
    const reply = 'Checking.\n<tool_call>{"name": "list_files", "arguments": {"path": "lib"}\n';
    local.reply({ deltas: textDeltas(reply, [5, 11, 7]), finish: "stop" }, { deltas: textDeltas("I could not call it.", [6]), finish: "stop" });
    await ask("trace-text", "list files in lib", "text");
    const [first] = (await view.chatTrace("trace-text"))!.turns[0]!.steps;
    expect(first!.toolMode).toBe("text");
    expect(first!.protocol).toBe("json");
    // The provider got the text-mode prompt: tools described in the system text, none sent natively.
    expect(first!.raw.request.system).toContain("<tool_call>");
    expect(first!.raw.request.body).not.toHaveProperty("tools");
    expect(first!.raw.response.text).toBe(reply);
    const [miss] = first!.raw.response.nearMisses;
    expect(miss!.error).toMatch(/cut off/);
    expect(reply.slice(miss!.start, miss!.end)).toBe(miss!.raw);
    expect(first!.raw.response.calls).toEqual([]);
  });

  it("the trace is deleted with its chat", async () => {
    await queries.deleteChat("trace-native");
    expect(await view.chatTrace("trace-native")).toBeNull();
    const { listTraceSteps } = await import("@/lib/db/trace-queries");
    expect(await listTraceSteps("trace-native")).toEqual([]);
  });
});

describe("secrets in provider errors never reach the trace (#28.5)", () => {
  it("a key the provider echoes and a baseURL's password and api-key are masked in the stored step and in GET …/trace", async () => {
    const { setLoadedSettings } = await import("@/lib/settings");
    const { loadSettings } = await import("@/lib/settings/load");
    const { db } = await import("@/lib/db/client");
    const leaky = path.join(dir, "leaky.yaml");
    const url = new URL(local.baseURL);
    const echoed = "sk-proj-echoedKEY0123456789abcdef";
    fs.writeFileSync(
      leaky,
      JSON.stringify({
        sourceRoot,
        llms: {
          // The server answers 404 naming the request's URL: its query holds the api-key.
          byQuery: { provider: "openai-compatible", baseURL: `${local.baseURL}?api-key=querySECRET4242`, model: "m" },
          // fetch refuses a URL with credentials, and its error names it.
          byUser: { provider: "openai-compatible", baseURL: `http://alice:pw-SECRET-7777@${url.host}/v1`, model: "m" },
          byEcho: { provider: "openai-compatible", baseURL: local.baseURL, model: "m" },
        },
        chat: { llm: { type: "ref", ref: "byEcho" } },
      }),
    );
    setLoadedSettings(loadSettings({ files: [leaky], env: {} }));
    local.reply({ status: 401, error: `Incorrect API key provided: ${echoed}. You can find your API key at https://platform.openai.com.` });
    const secrets = [echoed, "querySECRET4242", "pw-SECRET-7777"];
    for (const model of ["byEcho", "byQuery", "byUser"]) {
      const { chatRequestSchema } = await import("./chat-request");
      const request = chatRequestSchema.parse({
        id: `leak-${model}`,
        model,
        message: { id: `leak-${model}-u`, role: "user", parts: [{ type: "text", text: "hello" }] },
        toolMode: "native",
      });
      await (await service.handleChatRequest(request, new AbortController().signal)).text();
      const steps = (await view.chatTrace(`leak-${model}`))!.turns.flatMap((t) => t.steps);
      expect(steps.length, model).toBeGreaterThan(0);
      expect(
        steps.some((s) => s.error),
        model,
      ).toBe(true);
      const served = JSON.stringify(steps);
      const rows = JSON.stringify(await db().traceStep.findMany({ where: { chatId: `leak-${model}` } }));
      for (const secret of secrets) {
        expect(served, `${model}: trace API`).not.toContain(secret);
        expect(rows, `${model}: stored row`).not.toContain(secret);
      }
    }
  });
});
