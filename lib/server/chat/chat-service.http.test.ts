// The chat route over a real HTTP provider (the loopback OpenAI-compatible server): both tool modes,
// fallback chains, stalls, cuts, stops and failed saves. One file: every case shares the server setup.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseJsonEventStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedToolCall } from "@/lib/testing/stored-rows";
import { isToolPart } from "@/lib/chat/history";
import { readMetadata } from "@/lib/chat/metadata";
import { CALL_FORMAT } from "@/lib/chat/text-protocol/format";
import type { TextProtocol } from "@/lib/chat/text-protocol/types";
import { readChatStream, type ChatStream } from "@/lib/testing/chat-stream";
import { startFakeOpenAI, textDeltas, type ChatCompletionRequest, type FakeOpenAIServer } from "@/lib/testing/openai-server";

// The production route logic (handleChatRequest) against real HTTP: settings name
// openai-compatible models whose baseURL is a scripted server on loopback, so the model resolver,
// @ai-sdk/openai-compatible, its SSE parsing, the tools and a migrated SQLite file all run for real.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-chat-http-"));
process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
process.env.XDG_STATE_HOME = path.join(dir, "state");
const sourceRoot = path.join(dir, "src");
for (const file of ["lib/engine.ts", "lib/chat/models.ts", "README.md"]) {
  fs.mkdirSync(path.dirname(path.join(sourceRoot, file)), { recursive: true });
  fs.writeFileSync(path.join(sourceRoot, file), `// ${file}\n`);
}

let service: typeof import("./chat-service");
let queries: typeof import("@/lib/db/queries");
let local: FakeOpenAIServer;
let flaky: FakeOpenAIServer;
let steady: FakeOpenAIServer;

async function configure(textProtocol: TextProtocol, chat: Record<string, unknown> = {}) {
  const settingsFile = path.join(dir, "toolroom.yaml");
  const settings = {
    sourceRoot,
    llms: {
      local: { provider: "openai-compatible", baseURL: local.baseURL, model: "qwen-test" },
      flaky: { provider: "openai-compatible", baseURL: flaky.baseURL, model: "flaky-model" },
      steady: { provider: "openai-compatible", baseURL: steady.baseURL, model: "steady-model" },
      chain: { type: "fallback", chain: ["flaky", "steady"] },
    },
    chat: { llm: { type: "ref", ref: "local" }, textProtocol, ...chat },
  };
  // JSON is YAML: the settings go through the same file loader as a user's toolroom.yaml.
  fs.writeFileSync(settingsFile, JSON.stringify(settings));
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  setLoadedSettings(loadSettings({ files: [settingsFile], env: {} }));
}

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  [local, flaky, steady] = await Promise.all([startFakeOpenAI(), startFakeOpenAI(), startFakeOpenAI()]);
  await configure("action");
  service = await import("./chat-service");
  queries = await import("@/lib/db/queries");
});

afterAll(async () => {
  await Promise.all([local, flaky, steady].map((server) => server?.close()));
});

let messageCount = 0;

/** Sends one user message through the route and reads the whole SSE response, as the browser does. */
async function ask(
  chatId: string,
  text: string,
  { files = [], ...options }: { toolMode?: "native" | "text"; textProtocol?: TextProtocol; model?: string; files?: object[] } = {},
): Promise<ChatStream> {
  const { chatRequestSchema } = await import("./chat-request");
  const request = chatRequestSchema.parse({
    id: chatId,
    message: { id: `${chatId}-u${++messageCount}`, role: "user", parts: [{ type: "text", text }, ...files] },
    ...options,
  });
  const response = await service.handleChatRequest(request, new AbortController().signal);
  expect(response.status).toBe(200);
  return readChatStream(response);
}

const texts = (message: UIMessage) => message.parts.flatMap((part) => (part.type === "text" ? [part.text] : []));

/** All the text a chat-completions message carries, whether content is a string or parts. */
function contentText(message: ChatCompletionRequest["messages"][number]): string {
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content)) return message.content.map((part: { text?: string }) => part.text ?? "").join("");
  return "";
}

/** Persistence finishes before the stream closes (onEnd runs in its flush), so no waiting here. */
async function lastStored(chatId: string): Promise<UIMessage> {
  const stored = (await queries.loadMessages(chatId)).at(-1);
  if (!stored) throw new Error(`chat ${chatId} has no messages`);
  return stored;
}

const ANSWER = "lib holds engine.ts and a chat/ folder with models.ts.";

describe("chat over a real OpenAI-compatible HTTP server", () => {
  it("native mode: streamed tool_calls deltas run the tool, and the result goes back as a tool message", async () => {
    local.reply(
      {
        deltas: [
          { tool_calls: [{ index: 0, id: "call_list_1", type: "function", function: { name: "list_files", arguments: "" } }] },
          { tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] },
          { tool_calls: [{ index: 0, function: { arguments: 'th": "l' } }] },
          { tool_calls: [{ index: 0, function: { arguments: 'ib"}' } }] },
        ],
        finish: "tool_calls",
      },
      { deltas: textDeltas(ANSWER, [3, 9, 1, 14]), finish: "stop" },
    );
    const before = local.requests.length;
    const { message, chunks } = await ask("native", "What is in lib?", { toolMode: "native" });

    const [first, second] = local.requests.slice(before);
    expect(local.requests.length - before).toBe(2);
    expect(first?.stream).toBe(true);
    expect(first?.model).toBe("qwen-test");
    expect(first?.tools?.map((t) => t.function.name)).toContain("list_files");
    expect(first?.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(contentText(first!.messages[1]!)).toBe("What is in lib?");
    // Native mode leaves the tools to the API: the system prompt does not describe them.
    expect(contentText(first!.messages[0]!)).not.toMatch(/ACTION:|<tool_call>|list_files/);

    const tool = message.parts.find((part) => part.type === "tool-list_files");
    expect(tool).toMatchObject({ state: "output-available", toolCallId: "call_list_1", input: { path: "lib" } });
    const listing = (tool as { output: string }).output;
    expect(listing.split("\n")).toEqual(expect.arrayContaining(["lib/engine.ts", "lib/chat/", "lib/chat/models.ts"]));
    expect(listing).not.toContain("README.md");

    // The second request carries the call and the real listing as an OpenAI tool message.
    const call = second?.messages.find((m) => m.role === "assistant")?.tool_calls?.[0];
    expect(call).toMatchObject({ id: "call_list_1", function: { name: "list_files" } });
    expect(JSON.parse(call!.function.arguments)).toEqual({ path: "lib" });
    const toolMessage = second?.messages.find((m) => m.role === "tool");
    expect(toolMessage?.tool_call_id).toBe("call_list_1");
    expect(contentText(toolMessage!)).toBe(listing);

    expect(texts(message).join("")).toBe(ANSWER);
    expect(message.parts.findIndex((p) => p.type === "text")).toBeGreaterThan(message.parts.indexOf(tool!));
    expect(chunks.some((chunk) => chunk.type === "error")).toBe(false);

    const stored = await lastStored("native");
    expect(stored.parts).toEqual(message.parts);
    // "Answered by": the model the server says answered (the `model` of its chunks).
    expect(readMetadata(message.metadata).model).toBe("qwen-test");
    expect(readMetadata(stored.metadata).model).toBe("qwen-test");
    expect(readMetadata(stored.metadata).toolMode).toBe("native");
    expect(await storedToolCall("call_list_1")).toMatchObject({ state: "done", isError: false, output: listing });
  });

  it.each(["action", "json"] as const)("text mode (%s protocol): a call split across SSE deltas is parsed, and no tools are sent", async (protocol) => {
    await configure(protocol);
    const callText = protocol === "action" ? 'ACTION: list_files(path="lib")' : '<tool_call>{"name": "list_files", "arguments": {"path": "lib"}}</tool_call>';
    // Sizes chosen so the call marker itself is cut between deltas.
    local.reply(
      { deltas: textDeltas(`Let me look.\n${callText}`, [4, 7, 3, 5, 2, 6, 1, 8]), finish: "stop" },
      { deltas: textDeltas(ANSWER, [5, 5, 20]), finish: "stop" },
    );
    const before = local.requests.length;
    const chatId = `text-${protocol}`;
    const { message } = await ask(chatId, "What is in lib?", { toolMode: "text" });

    const [first, second] = local.requests.slice(before);
    expect(local.requests.length - before).toBe(2);
    for (const request of [first, second]) {
      expect(request).not.toHaveProperty("tools");
      expect(request).not.toHaveProperty("tool_choice");
      expect(request?.messages.some((m) => m.role === "tool" || m.tool_calls)).toBe(false);
    }
    const system = contentText(first!.messages[0]!);
    expect(first?.messages[0]?.role).toBe("system");
    expect(system).toContain(CALL_FORMAT[protocol]);
    expect(system).toMatch(/list_files\(path=/);

    const tool = message.parts.find((part) => part.type === "tool-list_files");
    expect(tool).toMatchObject({ state: "output-available", input: { path: "lib" } });
    const listing = (tool as { output: string }).output;
    expect(listing.split("\n")).toEqual(expect.arrayContaining(["lib/engine.ts", "lib/chat/models.ts"]));

    // The call and its result come back to the model as text: the call in the assistant turn,
    // the listing in a user turn.
    const assistant = second?.messages.find((m) => m.role === "assistant");
    expect(contentText(assistant!)).toContain("list_files");
    expect(contentText(assistant!)).toContain(protocol === "action" ? "ACTION:" : "<tool_call>");
    const results = second!.messages.filter((m) => m.role === "user").map(contentText);
    expect(results.some((text) => text.includes(`TOOL RESULT from list_files:\n${listing}`))).toBe(true);

    // The prose before the call is shown; the half-written call never is.
    expect(texts(message)[0]?.trim()).toBe("Let me look.");
    expect(texts(message).join("")).not.toContain(protocol === "action" ? "ACTION" : "tool_call");
    expect(texts(message).at(-1)).toBe(ANSWER);
    expect((await lastStored(chatId)).parts).toEqual(message.parts);
    // Each tool card says how the call was made: a text-mode chat is recognisable at a glance.
    expect(readMetadata((await lastStored(chatId)).metadata)).toMatchObject({ toolMode: "text", protocol });
  });

  it("a chat's own text protocol outranks the settings' chat.textProtocol, and is kept for the next message", async () => {
    await configure("action");
    const call = '<tool_call>{"name": "list_files", "arguments": {"path": "lib"}}</tool_call>';
    local.reply({ deltas: textDeltas(call, [9, 30]), finish: "stop" }, { deltas: textDeltas(ANSWER, [40]), finish: "stop" });
    const before = local.requests.length;
    const { message } = await ask("per-chat-protocol", "What is in lib?", { toolMode: "text", textProtocol: "json" });

    expect(contentText(local.requests[before]!.messages[0]!)).toContain(CALL_FORMAT.json);
    expect(message.parts.find((part) => part.type === "tool-list_files")).toMatchObject({ state: "output-available", input: { path: "lib" } });
    expect(await queries.getChat("per-chat-protocol")).toMatchObject({ toolMode: "text", textProtocol: "json" });

    // The next message names no protocol: the chat keeps its own, not the settings' "action".
    local.reply({ deltas: textDeltas("Done.", [5]), finish: "stop" });
    const next = local.requests.length;
    await ask("per-chat-protocol", "Thanks.");
    expect(contentText(local.requests[next]!.messages[0]!)).toContain(CALL_FORMAT.json);
    expect(contentText(local.requests[next]!.messages[0]!)).not.toContain(CALL_FORMAT.action);
  });

  it("a resource attached from the Sources view reaches the model as text and is stored with the question", async () => {
    await configure("action");
    local.reply({ deltas: textDeltas("It says hello.", [5]), finish: "stop" });
    const before = local.requests.length;
    const resource = {
      type: "file",
      mediaType: "text/plain",
      filename: "test://static/hello",
      url: `data:text/plain;base64,${Buffer.from("hello from the resource").toString("base64")}`,
    };
    await ask("attached-resource", "What does the attached resource say?", { toolMode: "native", files: [resource] });

    const sent = local.requests[before]!.messages.filter((m) => m.role === "user")
      .map(contentText)
      .join("\n");
    expect(sent).toContain("What does the attached resource say?");
    expect(sent).toContain("hello from the resource");
    const question = (await queries.loadMessages("attached-resource")).find((m) => m.role === "user")!;
    expect(question.parts).toEqual([{ type: "text", text: "What does the attached resource say?" }, resource]);
  });

  it("an attachment must be a data: URL the browser sent, never an address for the server to fetch", async () => {
    const { chatRequestSchema } = await import("./chat-request");
    const parsed = chatRequestSchema.safeParse({
      id: "attached-url",
      message: {
        id: "u",
        role: "user",
        parts: [
          { type: "text", text: "x" },
          { type: "file", mediaType: "image/png", url: "http://169.254.169.254/latest" },
        ],
      },
    });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain("data: URL");
  });

  it("fallback: the first model answers HTTP 500, the second answers and is named as the one that did", async () => {
    flaky.reply({ status: 500, error: "upstream overloaded" });
    steady.reply({ deltas: textDeltas("Steady answer.", [6]), finish: "stop" });
    const flakyBefore = flaky.requests.length;
    const steadyBefore = steady.requests.length;
    const { message, chunks } = await ask("fallback", "Hello?", { model: "chain" });

    expect(flaky.requests.length - flakyBefore).toBe(1);
    expect(steady.requests.length - steadyBefore).toBe(1);
    expect(texts(message).join("")).toBe("Steady answer.");
    expect(chunks.some((chunk) => chunk.type === "error")).toBe(false);
    const answeredBy = readMetadata(message.metadata).model;
    expect(answeredBy).toMatch(/^steady\b/);
    expect(answeredBy).not.toContain("flaky");
    const stored = await lastStored("fallback");
    expect(readMetadata(stored.metadata)).toMatchObject({ model: answeredBy });
    expect(readMetadata(stored.metadata).error).toBeUndefined();
  });

  it("fallback: when every model fails the stream shows the error, and the next turn works", async () => {
    flaky.reply({ status: 500, error: "flaky is down" });
    steady.reply({ status: 500, error: "steady is down" });
    const failed = await ask("all-fail", "Hello?", { model: "chain" });

    const error = failed.chunks.find((chunk): chunk is Extract<UIMessageChunk, { type: "error" }> => chunk.type === "error");
    expect(error?.errorText).toContain("flaky is down");
    expect(error?.errorText).toContain("steady is down");
    expect(readMetadata((await lastStored("all-fail")).metadata).error).toContain("steady is down");

    flaky.reply({ status: 500, error: "flaky is still down" });
    steady.reply({ deltas: textDeltas("Back again.", [4]), finish: "stop" });
    const steadyBefore = steady.requests.length;
    const next = await ask("all-fail", "Try again?");

    expect(next.chunks.some((chunk) => chunk.type === "error")).toBe(false);
    expect(texts(next.message).join("")).toBe("Back again.");
    expect(readMetadata(next.message.metadata).model).toMatch(/^steady\b/);
    // The model sees the whole conversation, the failed turn included, and answers the new question.
    const userTexts = steady.requests[steadyBefore]!.messages.filter((m) => m.role === "user").map(contentText);
    expect(userTexts).toEqual(["Hello?", "Try again?"]);
    const stored = await queries.loadMessages("all-fail");
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(readMetadata(stored.at(-1)!.metadata).error).toBeUndefined();
  });
});

const errorsOf = (chunks: UIMessageChunk[]) => chunks.flatMap((chunk) => (chunk.type === "error" ? [chunk.errorText] : []));
const streamedText = (chunks: UIMessageChunk[]) => chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : [])).join("");

/** Polls the stored copy of a chat's last message until `done` holds (what a crash would leave). */
async function storedWhen(chatId: string, done: (message: UIMessage) => boolean): Promise<UIMessage> {
  for (let tries = 0; ; tries++) {
    const last = (await queries.loadMessages(chatId)).at(-1);
    if (last && done(last)) return last;
    if (tries > 200) throw new Error(`chat ${chatId}: the stored message never matched; last was ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("a fast model's many small deltas", () => {
  it("reach the browser as far fewer chunks, the first one alone and the text exactly as sent, with the SDK's SSE headers", async () => {
    await configure("action");
    const words = Array.from({ length: 2000 }, (_, i) => `w${i} `);
    // The fake server writes every event at once: the deltas arrive together, as behind a busy loop.
    local.reply({ deltas: words.map((content) => ({ content })), finish: "stop" });
    const { chatRequestSchema } = await import("./chat-request");
    const request = chatRequestSchema.parse({ id: "burst", message: { id: "burst-u1", role: "user", parts: [{ type: "text", text: "Go" }] } });
    const response = await service.handleChatRequest(request, new AbortController().signal);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    const { chunks, message } = await readChatStream(response);

    const deltas = chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : []));
    expect(deltas.join("")).toBe(words.join(""));
    expect(deltas[0]).toBe(words[0]);
    expect(deltas.length).toBeLessThan(words.length / 10);
    expect(texts(message).join("")).toBe(words.join(""));
    expect(texts(await lastStored("burst")).join("")).toBe(words.join(""));
  });
});

describe("a turn's stream when the provider misbehaves", () => {
  const PARTIAL = "The first half of an answer, ";

  it("a provider that goes silent ends the turn with an error naming the model, stored with the partial answer", async () => {
    await configure("action", { streamIdleTimeoutSeconds: 0.5 });
    local.reply({ deltas: textDeltas(PARTIAL, [5, 10]), then: "stall" });
    const { chunks } = await ask("stall", "Hello?");

    expect(streamedText(chunks)).toBe(PARTIAL);
    const errors = errorsOf(chunks);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("qwen-test");
    expect(errors[0]).toMatch(/no data for 0\.5 s/);
    // The text arrived before the error.
    expect(chunks.findIndex((chunk) => chunk.type === "error")).toBeGreaterThan(chunks.findLastIndex((chunk) => chunk.type === "text-delta"));
    const stored = await lastStored("stall");
    expect(texts(stored).join("")).toBe(PARTIAL);
    expect(readMetadata(stored.metadata).error).toBe(errors[0]);
    expect(readMetadata(stored.metadata).interrupted).toBeUndefined();
  });

  it("a step that runs past chat.stepTimeoutSeconds ends with an error", async () => {
    await configure("action", { streamIdleTimeoutSeconds: 60, stepTimeoutSeconds: 0.5 });
    local.reply({ deltas: textDeltas(PARTIAL, [5]), then: "stall" });
    const { chunks } = await ask("step-timeout", "Hello?");

    expect(streamedText(chunks)).toBe(PARTIAL);
    expect(errorsOf(chunks)).toEqual([expect.stringMatching(/qwen-test.*did not finish a step within 0\.5 s/)]);
    expect(readMetadata((await lastStored("step-timeout")).metadata).error).toMatch(/did not finish a step/);
  });

  it("a connection dropped after 20 deltas: the client gets every delta then an error, and both are stored", async () => {
    await configure("action");
    const text = Array.from({ length: 20 }, (_, i) => `w${i} `).join("");
    local.reply({ deltas: textDeltas(text, Array(20).fill(4)), then: "cut" });
    const { chunks } = await ask("cut", "Hello?");

    expect(streamedText(chunks)).toBe(text);
    const errors = errorsOf(chunks);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("qwen-test");
    expect(chunks.findIndex((chunk) => chunk.type === "error")).toBeGreaterThan(chunks.findLastIndex((chunk) => chunk.type === "text-delta"));
    const stored = await lastStored("cut");
    expect(texts(stored).join("")).toBe(text);
    expect(readMetadata(stored.metadata).error).toBe(errors[0]);
  });

  it("streaming progress is stored while the answer runs, marked running, so a crash leaves what was seen", async () => {
    await configure("action", { streamIdleTimeoutSeconds: 3 });
    local.reply({ deltas: textDeltas(PARTIAL, [3, 3, 3]), then: "stall" });
    const turn = ask("progress", "Hello?");
    const during = await storedWhen("progress", (m) => m.role === "assistant" && texts(m).join("") === PARTIAL);
    expect(readMetadata(during.metadata).interrupted).toBe("running");
    await turn;
    const after = await lastStored("progress");
    expect(readMetadata(after.metadata).interrupted).toBeUndefined();
    expect(readMetadata(after.metadata).error).toContain("qwen-test");
  });

  it.each([
    ["disconnected", "the browser goes away"],
    ["stopped", "the person presses Stop"],
  ] as const)("an answer cut because %s is stored with its text and marked so (%s)", async (mark, _how) => {
    await configure("action", { streamIdleTimeoutSeconds: 30 });
    local.reply({ deltas: textDeltas(PARTIAL, [4, 4]), then: "stall" });
    const { chatRequestSchema } = await import("./chat-request");
    const chatId = `cut-by-${mark}`;
    const request = chatRequestSchema.parse({ id: chatId, message: { id: `${chatId}-u`, role: "user", parts: [{ type: "text", text: "Hello?" }] } });
    const connection = new AbortController();
    const response = await service.handleChatRequest(request, connection.signal);
    const reader = parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).getReader();
    let seen = "";
    while (seen !== PARTIAL) {
      const next = await reader.read();
      if (next.done || !next.value.success) throw new Error("the stream ended before the partial answer");
      if (next.value.value.type === "text-delta") seen += next.value.value.delta;
    }
    if (mark === "stopped") expect((await import("./active-turns")).stopChatTurn(chatId)).toBe(true);
    connection.abort();
    await reader.cancel();

    const stored = await storedWhen(chatId, (m) => readMetadata(m.metadata).interrupted === mark);
    expect(texts(stored).join("")).toBe(PARTIAL);
    expect(readMetadata(stored.metadata).error).toBeUndefined();
  });

  it("a full disk: the streamed text reaches the client, then an error saying the answer was not stored", async () => {
    await configure("action");
    // A write that fails for this chat's assistant message only (a full disk fails the same way, later).
    const Database = (await import("better-sqlite3")).default;
    const db = new Database(path.join(dir, "test.db"));
    for (const event of ["INSERT", "UPDATE"]) {
      db.exec(
        `CREATE TRIGGER disk_full_${event} BEFORE ${event} ON "Message" WHEN NEW.chatId = 'disk-full' AND NEW.role = 'assistant' BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;`,
      );
    }
    db.close();
    local.reply({ deltas: textDeltas(ANSWER, [5, 9]), finish: "stop" });
    const { chunks } = await ask("disk-full", "Hello?");

    expect(streamedText(chunks)).toBe(ANSWER);
    expect(errorsOf(chunks)).toEqual([expect.stringMatching(/^Error: the answer could not be stored \([^\n]+\)/)]);
    expect((await queries.loadMessages("disk-full")).map((m) => m.role)).toEqual(["user"]);
  });

  it("errors that are not the provider's are not labelled as provider errors", async () => {
    await configure("action");
    local.reply(
      {
        deltas: [
          { tool_calls: [{ index: 0, id: "call_unknown", type: "function", function: { name: "no_such_tool", arguments: "{}" } }] },
          { tool_calls: [{ index: 1, id: "call_badargs", type: "function", function: { name: "list_files", arguments: '{"path": 42}' } }] },
        ],
        finish: "tool_calls",
      },
      { deltas: textDeltas("Sorry.", [3]), finish: "stop" },
    );
    const { message, chunks } = await ask("not-provider", "What is in lib?", { toolMode: "native" });

    const results = Object.fromEntries(
      message.parts.filter(isToolPart).map((part) => [part.toolCallId, "errorText" in part && part.errorText ? part.errorText : String(part.output)]),
    );
    // An unknown tool and input its schema refuses are the model's mistakes, told to it as such.
    expect(results.call_unknown).toMatch(/^Tool call error: .*no_such_tool/);
    expect(results.call_badargs).toMatch(/^Error: invalid input for list_files/);
    for (const text of Object.values(results)) expect(text).not.toMatch(/provider/i);
    expect(errorsOf(chunks)).toEqual([]);
    expect(texts(message).join("")).toBe("Sorry.");
  });
});
