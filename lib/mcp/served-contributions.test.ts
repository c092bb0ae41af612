import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpServeOptions } from "@/lib/server/mcp/mcp-serve";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { settingsSchema, type Settings } from "@/lib/settings/schema";
import type { Registry } from "@/lib/tools/registry-types";
import type { McpCallRecord } from "./audit";
import { createMcpServer } from "./server";

const FIXTURES = path.resolve("examples/plugins/mcp-conformance-fixtures");

let root: string;
let pluginDir: string;
let settings: Settings;
let registry: Registry;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-mcp-served-"));
  const source = path.join(root, "src");
  const runs = path.join(root, "runs");
  fs.mkdirSync(path.join(source, "lib"), { recursive: true });
  fs.writeFileSync(path.join(source, "lib", "hello.ts"), "export const hello = 1;\n");
  fs.writeFileSync(path.join(source, "secret.env"), "TOKEN=x\n");
  fs.writeFileSync(path.join(source, ".aiignore"), "*.env\n");
  fs.writeFileSync(path.join(source, "pixel.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
  fs.mkdirSync(path.join(runs, "T1", "wl", "20260101_000000"), { recursive: true });
  fs.writeFileSync(path.join(runs, "T1", "wl", "20260101_000000", "matrix.json"), '{"cells": []}\n');
  fs.writeFileSync(path.join(root, "outside.txt"), "not in the source root\n");
  // A plugin whose only contribution is a prompt: a package needs no tools to contribute.
  pluginDir = path.join(root, "prompt-only");
  fs.mkdirSync(pluginDir);
  fs.writeFileSync(
    path.join(pluginDir, "package.json"),
    JSON.stringify({ name: "prompt-only", version: "1.0.0", type: "module", toolroom: { prompts: { greet: "./p.js#greet", wrong_name: "./p.js#greet" } } }),
  );
  fs.writeFileSync(
    path.join(pluginDir, "p.js"),
    `export const greet = { name: "greet", description: "Greets.", get: ({ who }) => [{ role: "user", content: { type: "text", text: "hi " + who } }] };\n`,
  );
  settings = settingsSchema.parse({ sourceRoot: source, runsRoot: runs, plugins: { paths: [FIXTURES, pluginDir] } });
  registry = await loadRegistry({ settings, log: () => {} });
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function connect(options: { elicit?: boolean | "never"; registry?: Registry; watch?: (onChange: (r: Registry) => void) => () => void } = {}) {
  const records: McpCallRecord[] = [];
  const server = createMcpServer({
    ...mcpServeOptions(options.registry ?? registry, settings, { record: async (r) => void records.push(r) }, () => {}),
    watchRegistry: options.watch,
  });
  const client = new Client({ name: "served-test", version: "1" }, { capabilities: options.elicit ? { elicitation: { form: {} } } : {} });
  const asked: string[] = [];
  if (options.elicit)
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      if (options.elicit === "never") return new Promise(() => {});
      return { action: "accept", content: { username: "ada", email: "ada@example.com" } };
    });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, records, asked };
}

const text = (result: unknown) => (result as CallToolResult).content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe("plugin contributions", () => {
  it("loads resources and prompts from the manifest, and reports an entry whose name differs", () => {
    expect(registry.resources?.map((r) => r.definition.name).sort()).toEqual(["static-binary", "static-text", "template-data", "watched-resource"]);
    expect(registry.prompts?.map((p) => p.definition.name)).toContain("greet");
    expect(registry.diagnostics.find((d) => d.package === "prompt-only")).toMatchObject({ kind: "name-mismatch", entry: "wrong_name" });
  });
});

describe("built-in resources", () => {
  it("lists the runs' artifacts and reads one", async () => {
    const { client } = await connect();
    const { resources } = await client.listResources();
    const uri = "toolroom://runs/T1/wl/20260101_000000/matrix.json";
    expect(resources.map((r) => r.uri)).toContain(uri);
    expect((await client.readResource({ uri })).contents[0]).toMatchObject({ uri, mimeType: "application/json", text: '{"cells": []}\n' });
  });

  it("reads source files through the sandbox: text as text, binary as a blob; .aiignore'd and escaping paths are not found", async () => {
    const { client } = await connect();
    expect((await client.readResource({ uri: "toolroom://source/lib/hello.ts" })).contents[0]).toMatchObject({ text: "export const hello = 1;\n" });
    expect((await client.readResource({ uri: "toolroom://source/pixel.png" })).contents[0]).toMatchObject({ mimeType: "image/png", blob: expect.any(String) });
    await expect(client.readResource({ uri: "toolroom://source/secret.env" })).rejects.toThrow(/-32002/);
    await expect(client.readResource({ uri: "toolroom://source/../outside.txt" })).rejects.toThrow(/-32002/);
    await expect(client.readResource({ uri: "toolroom://source/%2E%2E/outside.txt" })).rejects.toThrow(/-32002/);
  });

  it("completes source paths one folder at a time, leaving out .aiignore'd files", async () => {
    const { client } = await connect();
    const top = await client.complete({ ref: { type: "ref/resource", uri: "toolroom://source/{+path}" }, argument: { name: "path", value: "" } });
    expect(top.completion.values).toEqual([".aiignore", "lib/", "pixel.png"]);
    const inner = await client.complete({ ref: { type: "ref/resource", uri: "toolroom://source/{+path}" }, argument: { name: "path", value: "lib/h" } });
    expect(inner.completion.values).toEqual(["lib/hello.ts"]);
  });
});

describe("plugin prompts, resources and tool channels over MCP", () => {
  it("gets a prompt, refuses one without its required arguments, and completes an argument", async () => {
    const { client } = await connect();
    const got = await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } });
    expect(got.messages[0]?.content).toEqual({ type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" });
    await expect(client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "a" } })).rejects.toThrow(/needs arg2/);
    const completion = await client.complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "par" } });
    expect(completion.completion.values).toEqual(["paris", "park", "party"]);
  });

  it("reads a templated plugin resource with its variables", async () => {
    const { client } = await connect();
    const { contents } = await client.readResource({ uri: "test://template/42/data" });
    expect(JSON.parse((contents[0] as { text: string }).text)).toMatchObject({ id: "42" });
  });

  it("sends progress only when the call asked for it", async () => {
    const { client } = await connect();
    const seen: number[] = [];
    await client.request(
      { method: "tools/call", params: { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: "p1" } } },
      CallToolResultSchema,
      {
        onprogress: (p) => void seen.push(p.progress),
      },
    );
    expect(seen).toEqual([0, 50, 100]);
  });

  it("filters tool log messages by the level the client set", async () => {
    const { client } = await connect();
    const levels: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void levels.push(n.params.level));
    await client.setLoggingLevel("warning");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    await client.setLoggingLevel("debug");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    // Notifications of a call arrive before its result.
    expect(levels).toEqual(["info", "info", "info"]);
  });

  it("forwards a tool's elicitation to the client and records the answer on the call", async () => {
    const { client, records } = await connect({ elicit: true });
    const result = await client.callTool({ name: "test_elicitation", arguments: { message: "Who are you?" } });
    expect(text(result)).toContain('action=accept, content={"username":"ada","email":"ada@example.com"}');
    expect(records[0]?.elicitations).toEqual([
      { message: "Who are you?", action: "accept", by: "user", content: { username: "ada", email: "ada@example.com" }, at: expect.any(String) },
    ]);
  });

  it("answers not-admitted when the client cannot elicit", async () => {
    const { client, records } = await connect();
    expect(text(await client.callTool({ name: "test_elicitation", arguments: { message: "Who?" } }))).toContain("action=not-admitted");
    expect(records[0]?.elicitations?.[0]?.action).toBe("not-admitted");
  });

  it("aborts the tool when the client cancels the call", async () => {
    const { client, records } = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: "test_reconnection", arguments: {} }, undefined, { signal: controller.signal });
    controller.abort("changed my mind");
    await expect(call).rejects.toThrow();
    await expect.poll(() => records[0]?.text).toMatch(/^Error: test_reconnection failed: the call was cancelled/);
    expect(records[0]?.cancelled).toBe(true);
  });

  it("keeps the question a cancelled call asked in its audit, unanswered", async () => {
    const { client, records, asked } = await connect({ elicit: "never" });
    const controller = new AbortController();
    const call = client.callTool({ name: "test_elicitation", arguments: { message: "Still there?" } }, undefined, { signal: controller.signal });
    await expect.poll(() => asked).toEqual(["Still there?"]);
    controller.abort("changed my mind");
    await expect(call).rejects.toThrow();
    await expect.poll(() => records[0]?.cancelled).toBe(true);
    expect(records[0]?.elicitations).toEqual([
      { message: "Still there?", action: "not-admitted", by: "aborted", reason: expect.any(String), at: expect.any(String) },
    ]);
  });

  it("serves rich content as the call's content", async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: "test_multiple_content_types", arguments: {} });
    expect((result as CallToolResult).content.map((c) => c.type)).toEqual(["text", "image", "resource"]);
  });

  it("keeps $schema, $defs and additionalProperties in tools/list", async () => {
    const { client } = await connect();
    const tool = (await client.listTools()).tools.find((t) => t.name === "json_schema_2020_12_tool");
    expect(tool?.inputSchema).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      additionalProperties: false,
      $defs: { address: expect.any(Object) },
    });
  });

  it("after a live reload, serves the new registry and notifies subscribers", async () => {
    let change: ((r: Registry) => void) | undefined;
    const { client } = await connect({ watch: (onChange) => ((change = onChange), () => {}) });
    const updated: string[] = [];
    let toolsChanged = 0;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void toolsChanged++);
    await client.subscribeResource({ uri: "test://watched-resource" });
    await client.subscribeResource({ uri: "test://static-text" });
    await client.unsubscribeResource({ uri: "test://static-text" });
    change?.({ ...registry, tools: registry.tools.filter((t) => t.name !== "test_simple_text") });
    await expect.poll(() => updated).toEqual(["test://watched-resource"]);
    expect(toolsChanged).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("test_simple_text");
  });
});
