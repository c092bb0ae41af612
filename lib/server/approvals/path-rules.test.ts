// Rules match a path argument as the sandbox resolves it, not as the model spelled it (#28.6):
// every channel asks the same deciders, and the tool runs with the value the rule saw.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createMcpServer } from "@/lib/mcp/server";
import { mcpServeOptions } from "@/lib/server/mcp/mcp-serve";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { createToolContext } from "@/lib/server/runtime/tool-context";
import { settingsSchema } from "@/lib/settings/schema";
import { useTempDatabase } from "@/lib/testing/approvals-harness";
import { defineTool } from "@/lib/tools/define";
import { invoke } from "@/lib/tools/invoke";
import type { Registry } from "@/lib/tools/registry-types";
import { settingsRuleDecider } from "./settings-rules";

const dir = useTempDatabase("toolroom-path-rules-");
const root = path.join(dir, "src");
fs.mkdirSync(path.join(root, "private"), { recursive: true });
fs.mkdirSync(path.join(root, "sub"), { recursive: true });
fs.writeFileSync(path.join(root, "private/p.txt"), "the private text\n");
fs.writeFileSync(path.join(root, "open.txt"), "open text\n");
const settings = settingsSchema.parse({
  sourceRoot: root,
  approvals: {
    rules: [
      { tool: "read_file", args: { path: "^private/" }, decision: "deny", reason: "private" },
      { tool: "list_files", args: { path: { enum: ["private"] } }, decision: "deny", reason: "private" },
    ],
  },
});
let registry: Registry;

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  registry = await loadRegistry({ settings, log: () => {} });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SPELLINGS = ["private/p.txt", "./private/p.txt", "sub/../private/p.txt", "private//p.txt", path.join(root, "private/p.txt")];

describe("path arguments are normalised before rules see them", () => {
  it("the built-ins declare their source-root path arguments as format: path", () => {
    for (const name of ["read_file", "list_files", "grep_code"]) {
      expect((registry.get(name)?.inputSchema.properties as Record<string, { format?: string }>).path?.format, name).toBe("path");
    }
    // The run root is another root: its tools' paths are not source-root paths.
    expect((registry.get("list_runs")?.inputSchema.properties as Record<string, { format?: string }>).path?.format).toBeUndefined();
  });

  it.each(SPELLINGS)("a deny on ^private/ refuses read_file(%s) through the settings decider", async (spelling) => {
    const tool = registry.get("read_file")!;
    const verdict = await settingsRuleDecider(settings)({ ...tool, toolName: tool.name, input: { path: spelling } });
    expect(verdict?.decision).toBe("deny");
  });

  it("an enum rule on list_files is not bypassed by a trailing slash or ./", async () => {
    const tool = registry.get("list_files")!;
    for (const spelling of ["private", "private/", "./private", "sub/../private/"]) {
      const verdict = await settingsRuleDecider(settings)({ ...tool, toolName: tool.name, input: { path: spelling } });
      expect(verdict?.decision, spelling).toBe("deny");
    }
    expect(await settingsRuleDecider(settings)({ ...tool, toolName: tool.name, input: { path: "sub" } })).toBeUndefined();
  });

  it("over MCP, every spelling of the private file is refused and the open one still reads", async () => {
    const server = createMcpServer(mcpServeOptions(registry, settings));
    const client = new Client({ name: "path-test", version: "1" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(b), client.connect(a)]);
    const text = (r: unknown) => (r as CallToolResult).content.map((c) => (c.type === "text" ? c.text : "")).join("");
    for (const spelling of SPELLINGS) {
      const result = await client.callTool({ name: "read_file", arguments: { path: spelling } });
      expect(text(result), spelling).not.toContain("the private text");
    }
    expect(text(await client.callTool({ name: "read_file", arguments: { path: "./sub/../open.txt" } }))).toContain("open text");
    await client.close();
  });

  it("the tool runs with the normalised value the rule saw", async () => {
    const seen: unknown[] = [];
    const echo = defineTool({
      name: "echo_path",
      description: "Echo.",
      input: z.object({ path: z.string().meta({ format: "path" }), label: z.string().optional() }),
      execute: async (input) => {
        seen.push(input);
        return "ok";
      },
    });
    const ctx = createToolContext({ settings, toolName: "echo_path" });
    await invoke(echo, { path: `./sub/../private/`, label: "./x/" }, ctx);
    await invoke(echo, { path: path.join(root, "sub") }, ctx);
    await invoke(echo, { path: "." }, ctx);
    // Only the declared path is touched; a path outside the root is left for the tool to refuse.
    await invoke(echo, { path: "../elsewhere" }, ctx);
    expect(seen).toEqual([{ path: "private", label: "./x/" }, { path: "sub" }, { path: "." }, { path: "../elsewhere" }]);
  });

  it("an array of paths (items with format: path) is normalised item by item, for the rule and the tool", async () => {
    const seen: unknown[] = [];
    const many = defineTool({
      name: "read_many",
      description: "Reads several files.",
      input: z.object({ files: z.array(z.string().meta({ format: "path" })), tags: z.array(z.string()).optional() }),
      execute: async (input) => {
        seen.push(input);
        return "ok";
      },
    });
    const ctx = createToolContext({ settings, toolName: "read_many" });
    await invoke(many, { files: ["./private/p.txt", "sub/../open.txt", "open.txt"], tags: ["./x/"] }, ctx);
    expect(seen).toEqual([{ files: ["private/p.txt", "open.txt", "open.txt"], tags: ["./x/"] }]);

    // A rule on the array's canonical JSON meets the resolved spelling.
    const rules = settingsSchema.parse({
      sourceRoot: root,
      approvals: { rules: [{ tool: "read_many", args: { files: '"private/' }, decision: "deny" }] },
    });
    const inputSchema = { type: "object", properties: { files: { type: "array", items: { type: "string", format: "path" } } } };
    const call = { toolName: "read_many", sourcePackage: "test", origin: "plugin" as const, readonly: true, inputSchema };
    expect((await settingsRuleDecider(rules)({ ...call, input: { files: ["open.txt", "./sub/../private/p.txt"] } }))?.decision).toBe("deny");
    expect(await settingsRuleDecider(rules)({ ...call, input: { files: ["open.txt"] } })).toBeUndefined();
  });
});
