import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
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

let root: string;
let settings: Settings;
let registry: Registry;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-mcp-"));
  fs.writeFileSync(path.join(root, "hello.txt"), "hello from the fixture\n");
  settings = settingsSchema.parse({
    sourceRoot: root,
    plugins: { paths: [path.resolve("examples/plugins/toolroom-plugin-sample")] },
    chat: { approvalTimeoutSeconds: 1 },
    tools: { grep_code: { enabled: false } },
  });
  registry = await loadRegistry({ settings, log: () => {} });
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

type Answer = "accept" | "decline" | "cancel" | "never" | "fail";

async function connect(options: { elicit?: Answer } = {}) {
  const records: McpCallRecord[] = [];
  const server = createMcpServer(mcpServeOptions(registry, settings, { record: async (r) => void records.push(r) }, () => {}));
  const client = new Client({ name: "test-client", version: "1.2.3" }, { capabilities: options.elicit ? { elicitation: { form: {} } } : {} });
  const asked: string[] = [];
  if (options.elicit) {
    const answer = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      if (answer === "never") return new Promise(() => {});
      if (answer === "fail") throw new Error("the form could not be shown");
      return answer === "accept" ? { action: "accept", content: {} } : { action: answer };
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, records, asked };
}

function text(result: unknown): string {
  return (result as CallToolResult).content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

describe("the registry served over MCP", () => {
  it("lists every enabled tool with its schema, title and hints", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(registry.tools.filter((t) => t.enabled).map((t) => t.name));
    expect(names).not.toContain("grep_code");
    const readFile = tools.find((t) => t.name === "read_file");
    expect(readFile?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, title: "Read file" });
    expect(readFile?.inputSchema.type).toBe("object");
    expect(readFile?.inputSchema.properties).toHaveProperty("path");
    // The dialect the schema is written in reaches the client (conformance json-schema-2020-12).
    expect(readFile?.inputSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(readFile?.description).toBe(registry.get("read_file")?.description);
    const writeNote = tools.find((t) => t.name === "sample_save_note");
    expect(writeNote?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(writeNote?._meta?.["toolroom/source"]).toBe("toolroom-plugin-sample");
  });

  it("calls a tool through invoke and records the call", async () => {
    const { client, records } = await connect();
    const result = await client.callTool({ name: "read_file", arguments: { path: "hello.txt" } });
    expect(text(result)).toContain("hello from the fixture");
    expect(result.isError).toBe(false);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ client: "test-client 1.2.3", isError: false, decision: undefined });
    expect(records[0]?.tool.name).toBe("read_file");
  });

  it("returns invalid input and tool errors as isError results, not protocol errors", async () => {
    const { client } = await connect();
    const invalid = await client.callTool({ name: "read_file", arguments: { nope: 1 } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/^Error:/);
    const outside = await client.callTool({ name: "read_file", arguments: { path: "../../etc/passwd" } });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toMatch(/^Error:/);
  });

  it("answers an unknown or disabled tool with a protocol error", async () => {
    const { client } = await connect();
    const unknown = await client.callTool({ name: "no_such_tool", arguments: {} }).catch((e: Error) => e);
    // The code is said once: "MCP error -32602: MCP error -32602: …" came from sending the SDK's prefixed message.
    expect((unknown as Error).message).toBe("MCP error -32602: Unknown tool: no_such_tool");
    await expect(client.callTool({ name: "grep_code", arguments: { pattern: "x" } })).rejects.toThrow(/Unknown tool: grep_code/);
  });

  it("runs a confirming tool when the client's person accepts", async () => {
    const { client, records, asked } = await connect({ elicit: "accept" });
    const result = await client.callTool({ name: "sample_save_note", arguments: { title: "accepted", body: "yes" } });
    expect(text(result)).toContain("Wrote");
    expect(fs.readFileSync(path.join(root, ".toolroom/notes/accepted.md"), "utf8")).toBe("yes\n");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("sample_save_note [toolroom-plugin-sample]");
    expect(asked[0]).toContain('"title": "accepted"');
    expect(records[0]?.decision).toMatchObject({ by: "user", decision: "approved" });
  });

  it("answers a confirming call with invalid input as a tool error without asking anyone", async () => {
    const { client, records, asked } = await connect({ elicit: "accept" });
    const result = await client.callTool({ name: "sample_save_note", arguments: { name: "wrong-keys", text: "no" } });
    // The spec's tool input error: an isError result the model can correct, and no approval asked for.
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Error: invalid input for sample_save_note/);
    expect(asked).toEqual([]);
    expect(records[0]).toMatchObject({ isError: true, decision: undefined });
  });

  it.each([
    ["decline", { by: "user", decision: "denied" }, /declined/],
    ["cancel", { by: "user", decision: "denied" }, /declined/],
    ["never", { by: "timeout", decision: "timed-out" }, /in time/],
    // A client that says it can elicit but fails to: nobody was asked, so nobody said no.
    ["fail", { by: "unsupervised", decision: "not-admitted", reason: "the MCP client failed to ask a person" }, /unsupervised/],
  ] as const)("does not run a confirming tool on %s, and returns its not-admitted text", async (answer, decision, message) => {
    const { client, records } = await connect({ elicit: answer });
    const title = `not-${answer}`;
    const result = await client.callTool({ name: "sample_save_note", arguments: { title, body: "no" } });
    expect(text(result)).toMatch(message);
    // It did not run: an error result, and the audit line agrees.
    expect(result.isError).toBe(true);
    expect(fs.existsSync(path.join(root, `.toolroom/notes/${title}.md`))).toBe(false);
    expect(records[0]?.decision).toMatchObject(decision);
    expect(records[0]?.isError).toBe(true);
  });

  it("does not admit a confirming call from a client that cannot elicit", async () => {
    const { client, records } = await connect();
    const result = await client.callTool({ name: "sample_save_note", arguments: { title: "no-elicitation", body: "no" } });
    expect(text(result)).toMatch(/unsupervised/);
    expect(result.isError).toBe(true);
    expect(records[0]?.isError).toBe(true);
    expect(fs.existsSync(path.join(root, ".toolroom/notes/no-elicitation.md"))).toBe(false);
    expect(records[0]?.decision).toMatchObject({ by: "unsupervised", decision: "not-admitted" });
  });
});

describe("approval rules over MCP", () => {
  async function connectWithRules(rules: NonNullable<Settings["approvals"]>["rules"], elicit?: "accept") {
    const ruled = settingsSchema.parse({ ...settings, approvals: { rules } });
    const records: McpCallRecord[] = [];
    const server = createMcpServer(mcpServeOptions(registry, ruled, { record: async (r) => void records.push(r) }, () => {}));
    const client = new Client({ name: "test-client", version: "1.2.3" }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
    const asked: string[] = [];
    if (elicit)
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        return { action: "accept", content: {} };
      });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    return { client, records, asked };
  }

  it("an allow rule runs a confirming tool for a client that cannot ask its person", async () => {
    const { client, records } = await connectWithRules([{ name: "notes ok", tool: "sample_save_note", args: { title: "^ruled-" }, decision: "allow" }]);
    const result = await client.callTool({ name: "sample_save_note", arguments: { title: "ruled-allow", body: "yes" } });
    expect(text(result)).toContain("Wrote");
    expect(records[0]?.decision).toMatchObject({ by: "rule", decision: "approved", reason: 'allowed by settings rule "notes ok"' });
  });

  it("a deny rule refuses even a read-only tool, and a client's accept is never asked for", async () => {
    const { client, records, asked } = await connectWithRules([{ source: "toolroom-plugin-sample", decision: "deny", reason: "sample is off" }], "accept");
    const result = await client.callTool({ name: "sample_save_note", arguments: { title: "ruled-deny", body: "no" } });
    expect(text(result)).toContain("sample is off");
    expect(fs.existsSync(path.join(root, ".toolroom/notes/ruled-deny.md"))).toBe(false);
    const words = await client.callTool({ name: "sample_word_count", arguments: { text: "a b" } });
    expect(text(words)).toContain("sample is off");
    expect(asked).toEqual([]);
    expect(records.map((r) => r.decision?.by)).toEqual(["rule", "rule"]);
  });
});
