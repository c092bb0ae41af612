// Text mode's protocols and auto tool mode through the chat route, over a real HTTP provider (the
// loopback OpenAI-compatible server): each protocol's calls split across SSE deltas run their
// tools; a model whose server refuses tools completes its turn in text mode, and says so.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isToolPart, toolNameOf } from "@/lib/chat/history";
import { readMetadata } from "@/lib/chat/metadata";
import { CALL_FORMAT, formatToolResultMessage } from "@/lib/chat/text-protocol/format";
import { TEXT_PROTOCOLS, type TextProtocol } from "@/lib/chat/text-protocol/types";
import { TO_NATIVE_NOTICE, toTextNotice } from "@/lib/chat/tool-mode-model";
import { readChatStream } from "@/lib/testing/chat-stream";
import { protocolReply, startFakeOpenAI, textDeltas, type ChatCompletionRequest, type FakeOpenAIServer } from "@/lib/testing/openai-server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-text-protocols-"));
process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
process.env.XDG_STATE_HOME = path.join(dir, "state");
const sourceRoot = path.join(dir, "src");
for (const file of ["lib/engine.ts", "README.md"]) {
  fs.mkdirSync(path.dirname(path.join(sourceRoot, file)), { recursive: true });
  fs.writeFileSync(path.join(sourceRoot, file), `// ${file}\n`);
}

let service: typeof import("./chat-service");
let queries: typeof import("@/lib/db/queries");
let local: FakeOpenAIServer;
let noTools: FakeOpenAIServer;
let gateway: FakeOpenAIServer;

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  [local, noTools, gateway] = await Promise.all([startFakeOpenAI(), startFakeOpenAI(), startFakeOpenAI()]);
  noTools.refuseTools("registry.ollama.ai/library/gemma-test:2b does not support tools");
  const settings = {
    sourceRoot,
    llms: {
      local: { provider: "openai-compatible", baseURL: local.baseURL, model: "local-model" },
      gemma: { provider: "openai-compatible", baseURL: noTools.baseURL, model: "gemma-test", toolMode: "auto", textProtocol: "hermes" },
      gateway: { provider: "openai-compatible", baseURL: gateway.baseURL, model: "gateway-model", toolMode: "auto" },
    },
    chat: { llm: { type: "ref", ref: "local" } },
  };
  const settingsFile = path.join(dir, "toolroom.yaml");
  fs.writeFileSync(settingsFile, JSON.stringify(settings));
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  setLoadedSettings(loadSettings({ files: [settingsFile], env: {} }));
  service = await import("./chat-service");
  queries = await import("@/lib/db/queries");
});

afterAll(async () => {
  await Promise.all([local, noTools, gateway].map((server) => server?.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

let messageCount = 0;

/** Sends one user message through the route and rebuilds the assistant message from the SSE, as the browser does. */
async function ask(chatId: string, text: string, options: { toolMode?: "native" | "text"; textProtocol?: TextProtocol; model?: string } = {}) {
  const { chatRequestSchema } = await import("./chat-request");
  const request = chatRequestSchema.parse({
    id: chatId,
    message: { id: `${chatId}-u${++messageCount}`, role: "user", parts: [{ type: "text", text }] },
    ...options,
  });
  const response = await service.handleChatRequest(request, new AbortController().signal);
  expect(response.status).toBe(200);
  return readChatStream(response);
}

const texts = (message: UIMessage) => message.parts.flatMap((part) => (part.type === "text" ? [part.text] : []));
const toolParts = (message: UIMessage) => message.parts.filter(isToolPart);

function contentText(message: ChatCompletionRequest["messages"][number] | undefined): string {
  if (typeof message?.content === "string") return message.content;
  if (Array.isArray(message?.content)) return message.content.map((part: { text?: string }) => part.text ?? "").join("");
  return "";
}

const ANSWER = "lib holds engine.ts; README.md is a one-liner.";
/** The words of each protocol's syntax that must never reach the person as prose. */
const SYNTAX_WORDS = /ACTION:|tool_call|function_calls|invoke|parameters|TOOL_CALLS|"name"/;

describe("text protocols over a real OpenAI-compatible HTTP server", () => {
  it.each(TEXT_PROTOCOLS)("%s: calls split across SSE deltas run their tools, and each result goes back in the protocol's own format", async (protocol) => {
    // AORTA's protocols take one call per reply; the others take several.
    const several = protocol !== "action" && protocol !== "json";
    const calls = [{ name: "list_files", input: { path: "lib" } }, ...(several ? [{ name: "read_file", input: { path: "README.md" } }] : [])];
    local.reply(protocolReply(protocol, "Let me look.", calls), { deltas: textDeltas(ANSWER, [4, 9, 40]), finish: "stop" });
    const before = local.requests.length;
    const chatId = `protocol-${protocol}`;
    const { message, chunks } = await ask(chatId, "What is in lib, and what does the README say?", { toolMode: "text", textProtocol: protocol });

    const [first, second] = local.requests.slice(before);
    expect(local.requests.length - before).toBe(2);
    expect(first).not.toHaveProperty("tools");
    expect(contentText(first?.messages[0])).toContain(CALL_FORMAT[protocol]);

    const parts = toolParts(message);
    expect(parts.map((part) => [toolNameOf(part), part.state, part.input])).toEqual(calls.map((call) => [call.name, "output-available", call.input]));
    const outputs = parts.map((part) => String((part as { output: unknown }).output));
    expect(outputs[0]).toContain("lib/engine.ts");
    if (several) expect(outputs[1]).toContain("// README.md");

    const results = second!.messages
      .filter((m) => m.role === "user")
      .map(contentText)
      .join("\n");
    calls.forEach((call, i) => expect(results).toContain(formatToolResultMessage(call.name, outputs[i]!, protocol)));

    expect(texts(message)[0]?.trim()).toBe("Let me look.");
    expect(texts(message).join("")).not.toMatch(SYNTAX_WORDS);
    expect(texts(message).at(-1)).toBe(ANSWER);
    expect(chunks.some((chunk) => chunk.type === "error")).toBe(false);
    expect((await queries.loadMessages(chatId)).at(-1)?.parts).toEqual(message.parts);
  });

  it("a repaired call is marked on its card; an unrepairable one goes back to the model as a precise error", async () => {
    const repairable = '<tool_call>\n{"name": "list_files", "arguments": {"path": "lib",},}\n</tool_call>';
    const broken = '<tool_call>\n{"name": "read_file", "arguments": {"path": README}}\n</tool_call>';
    local.reply({ deltas: textDeltas(`${repairable}\n${broken}`, [3, 5, 7, 11]), finish: "stop" }, { deltas: textDeltas(ANSWER, [50]), finish: "stop" });
    const before = local.requests.length;
    const { message } = await ask("repaired", "What is in lib?", { toolMode: "text", textProtocol: "hermes" });

    const [listing, invalid] = toolParts(message);
    expect(listing).toMatchObject({ type: "tool-list_files", state: "output-available", input: { path: "lib" } });
    expect(readMetadata(message.metadata).calls?.[listing!.toolCallId]?.repaired).toBe("trailing comma");
    expect(readMetadata((await queries.loadMessages("repaired")).at(-1)?.metadata).calls?.[listing!.toolCallId]?.repaired).toBe("trailing comma");

    expect(invalid).toMatchObject({ type: "tool-invalid_tool_call", state: "output-available" });
    const error = String((invalid as { output: unknown }).output);
    expect(error).toMatch(/^Error: The <tool_call> body is not valid JSON \(the bare word README is not a JSON value/);
    expect(error).toContain(CALL_FORMAT.hermes);
    // The model reads the error as the result of the call it wrote.
    const results = local.requests[before + 1]!.messages.filter((m) => m.role === "user")
      .map(contentText)
      .join("\n");
    expect(results).toContain(formatToolResultMessage("read_file", error, "hermes"));
  });
});

describe("toolMode: auto", () => {
  it("a provider answering 400 'does not support tools' gets the turn again in text mode (the model's protocol), and the chat says so once", async () => {
    noTools.reply(protocolReply("hermes", "Looking.", [{ name: "list_files", input: { path: "lib" } }]), {
      deltas: textDeltas(ANSWER, [6, 60]),
      finish: "stop",
    });
    const { message, chunks } = await ask("auto-to-text", "What is in lib?", { model: "gemma", toolMode: "native" });

    const [refused, retried, answered] = noTools.requests;
    expect(noTools.requests).toHaveLength(3);
    expect(refused?.tools?.map((t) => t.function.name)).toContain("list_files");
    expect(refused?.tools?.map((t) => t.function.name)).not.toContain("invalid_tool_call");
    expect(retried).not.toHaveProperty("tools");
    expect(contentText(retried?.messages[0])).toContain(CALL_FORMAT.hermes);
    expect(contentText(answered?.messages.at(-1))).toContain("<tool_response>");

    expect(toolParts(message)).toMatchObject([{ type: "tool-list_files", state: "output-available", input: { path: "lib" } }]);
    expect(texts(message).at(-1)).toBe(ANSWER);
    expect(chunks.some((chunk) => chunk.type === "error")).toBe(false);
    expect(readMetadata(message.metadata).notice).toBe(toTextNotice("hermes"));
    expect(readMetadata((await queries.loadMessages("auto-to-text")).at(-1)?.metadata).notice).toBe(
      "this model has no native tool calling; using text mode (hermes)",
    );

    // Remembered for the model: the next turn, in another chat, goes straight to text mode, without a notice.
    noTools.reply({ deltas: textDeltas("Hello again.", [5, 20]), finish: "stop" });
    const next = await ask("auto-to-text-2", "Hi", { model: "gemma", toolMode: "native" });
    expect(noTools.requests).toHaveLength(4);
    expect(noTools.requests[3]).not.toHaveProperty("tools");
    expect(readMetadata(next.message.metadata).notice).toBeUndefined();
  });

  it("an empty text-mode reply from a provider with native tools is retried once in native mode, with a notice", async () => {
    gateway.reply(
      { deltas: [{ content: "" }, { content: "  \n" }], finish: "stop" },
      {
        deltas: [{ tool_calls: [{ index: 0, id: "call_gw_1", type: "function", function: { name: "list_files", arguments: '{"path": "lib"}' } }] }],
        finish: "tool_calls",
      },
      { deltas: textDeltas(ANSWER, [60]), finish: "stop" },
    );
    const { message } = await ask("auto-to-native", "What is in lib?", { model: "gateway", toolMode: "text" });

    const [empty, native] = gateway.requests;
    expect(gateway.requests).toHaveLength(3);
    expect(empty).not.toHaveProperty("tools");
    expect(native?.tools?.map((t) => t.function.name)).toContain("list_files");
    expect(toolParts(message)).toMatchObject([{ toolCallId: "call_gw_1", state: "output-available", input: { path: "lib" } }]);
    expect(texts(message).join("")).toBe(ANSWER);
    expect(readMetadata(message.metadata).notice).toBe(TO_NATIVE_NOTICE);
  });

  it("a provider error that is not about tools is not retried in text mode", async () => {
    gateway.reply({ status: 400, error: "context length exceeded" });
    const before = gateway.requests.length;
    const { chunks, message } = await ask("auto-other-error", "What is in lib?", { model: "gateway", toolMode: "native" });
    // A native turn whose 400 is not about tools: the error is reported, not worked around.
    expect(gateway.requests.length - before).toBe(1);
    expect(chunks.some((chunk) => chunk.type === "error")).toBe(true);
    expect(readMetadata(message.metadata).notice).toBeUndefined();
  });
});
