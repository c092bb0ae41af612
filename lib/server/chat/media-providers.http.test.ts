// A consumed MCP tool's image, on the wire of each real provider package (@ai-sdk/anthropic, the
// Responses API of @ai-sdk/openai, @ai-sdk/openai-compatible's chat completions), each pointed at
// a loopback server that records the follow-up request (the one after the tool result) and answers
// with a stream shaped like a recorded real one. The chat service, settings, model resolution and
// the MCP server (a real stdio process) all run as in production.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, textDeltas, type FakeOpenAIServer } from "@/lib/testing/openai-server";
import {
  anthropicText,
  anthropicToolUse,
  responsesFunctionCall,
  responsesText,
  startWireServer,
  type WireEvent,
  type WireServer,
} from "@/lib/testing/provider-wire-server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-media-providers-"));
process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
process.env.XDG_STATE_HOME = path.join(dir, "state");
const FIXTURE = path.resolve(import.meta.dirname, "../../mcp/__fixtures__/mcp-sources-server.mjs");
// The fixture's picture tool: a text part, this 1×1 PNG, and a WAV clip.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const WAV = Buffer.from("RIFF").toString("base64");
const DESCRIBED = "a pixel\n[image: image/png, 70 B]\n[audio: audio/wav, 4 B]";

let service: typeof import("./chat-service");
let wire: WireServer;
let chat: FakeOpenAIServer;

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  [wire, chat] = await Promise.all([startWireServer(), startFakeOpenAI()]);
  const settingsFile = path.join(dir, "toolroom.yaml");
  const settings = {
    sourceRoot: dir,
    llms: {
      claude: { provider: "anthropic", baseURL: wire.baseURL, apiKey: "sk-ant-loopback", model: "claude-sonnet-4-5" },
      gpt: { provider: "openai", baseURL: wire.baseURL, apiKey: "sk-loopback", model: "gpt-4o-mini" },
      local: { provider: "openai-compatible", baseURL: chat.baseURL, model: "qwen-test" },
    },
    chat: { llm: { type: "ref", ref: "claude" }, toolMode: "native" },
    mcpServers: { fx: { command: "node", args: [FIXTURE], prefix: "fx_", confirm: "never" } },
  };
  // JSON is YAML: the settings go through the same file loader as a user's toolroom.yaml.
  fs.writeFileSync(settingsFile, JSON.stringify(settings));
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  setLoadedSettings(loadSettings({ files: [settingsFile], env: {} }));
  service = await import("./chat-service");
}, 60_000);

afterAll(async () => {
  const { getRegistry } = await import("@/lib/server/runtime/registry");
  await (await getRegistry()).close?.();
  await Promise.all([wire?.close(), chat?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function ask(chatId: string, model: string, toolMode: "native" | "text" = "native"): Promise<UIMessage> {
  const { chatRequestSchema } = await import("./chat-request");
  const request = chatRequestSchema.parse({
    id: chatId,
    model,
    toolMode,
    message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text: "Show me the picture." }] },
  });
  const response = await service.handleChatRequest(request, new AbortController().signal);
  expect(response.status).toBe(200);
  await response.text();
  const { loadMessages } = await import("@/lib/db/queries");
  return (await loadMessages(chatId)).at(-1) as UIMessage;
}

const answered = (message: UIMessage) => message.parts.some((p) => p.type === "text" && p.text === "A single pixel.");

/** Runs a turn whose model calls the picture tool and then answers; the body of the request after the tool result. */
async function followUpBody(chatId: string, model: string, path: string, streams: [WireEvent[], WireEvent[]]): Promise<Record<string, unknown>> {
  wire.reply(...streams);
  const before = wire.requests.length;
  expect(answered(await ask(chatId, model))).toBe(true);
  const sent = wire.requests.slice(before);
  expect(sent.map((r) => r.path)).toEqual([path, path]);
  return sent[1]!.body;
}

describe("a consumed tool's image reaches the provider in native mode", { timeout: 60_000 }, () => {
  it("Anthropic: an image block inside the tool_result's content, after the text that describes every part", async () => {
    const followUp = await followUpBody("media-anthropic", "claude", "/v1/messages", [
      anthropicToolUse("toolu_pic", "fx_picture", {}),
      anthropicText("A single pixel."),
    ]);
    const messages = followUp.messages as { role: string; content: { type: string; tool_use_id?: string; content?: unknown }[] }[];
    const result = messages.at(-1)?.content.find((block) => block.type === "tool_result");
    expect(result).toMatchObject({ tool_use_id: "toolu_pic" });
    expect(result?.content).toEqual([
      { type: "text", text: DESCRIBED },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
    ]);
    // Audio has no place in a tool_result: it is described in the text, not sent.
    expect(JSON.stringify(followUp)).not.toContain(WAV);
  });

  it("OpenAI (Responses API): an input_image in the function_call_output, as a data URL", async () => {
    const followUp = await followUpBody("media-openai", "gpt", "/v1/responses", [
      responsesFunctionCall("call_pic", "fx_picture", {}),
      responsesText("A single pixel."),
    ]);
    const output = (followUp.input as { type: string; call_id?: string; output?: unknown }[]).find((item) => item.type === "function_call_output");
    expect(output).toMatchObject({ call_id: "call_pic" });
    expect(output?.output).toEqual([
      { type: "input_text", text: DESCRIBED },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
    ]);
    expect(JSON.stringify(followUp)).not.toContain(WAV);
  });

  it("a chat-completions API (openai-compatible): the tool message is the describing text, without the base64", async () => {
    chat.reply(
      { deltas: [{ tool_calls: [{ index: 0, id: "call_pic", type: "function", function: { name: "fx_picture", arguments: "{}" } }] }], finish: "tool_calls" },
      { deltas: textDeltas("A single pixel.", [5]), finish: "stop" },
    );
    const before = chat.requests.length;
    expect(answered(await ask("media-chat", "local"))).toBe(true);
    const followUp = chat.requests.slice(before)[1];
    expect(followUp?.messages.find((m) => m.role === "tool")).toMatchObject({ tool_call_id: "call_pic", content: DESCRIBED });
    expect(JSON.stringify(followUp)).not.toContain(PNG);
  });
});

describe("in text mode the image is described, whatever the provider", { timeout: 60_000 }, () => {
  it("Anthropic in text mode: the result goes back as text, without the base64", async () => {
    wire.reply(anthropicText('<tool_call>{"name": "fx_picture", "arguments": {}}</tool_call>'), anthropicText("A single pixel."));
    const before = wire.requests.length;
    const message = await ask("media-text", "claude", "text");
    expect(answered(message)).toBe(true);
    const followUp = wire.requests.slice(before)[1];
    expect(followUp?.body.tools).toBeUndefined();
    expect(JSON.stringify(followUp?.body)).toContain("[image: image/png, 70 B]");
    expect(JSON.stringify(followUp?.body)).not.toContain(PNG);
  });
});
