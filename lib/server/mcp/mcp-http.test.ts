// An MCP session over the streamable-HTTP handler outlives a settings reload: its next call is
// decided by the settings as they are now, not as they were when the session opened (#28.7).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-mcp-http-"));
process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
process.env.XDG_STATE_HOME = path.join(dir, "state");
const sourceRoot = path.join(dir, "src");
fs.mkdirSync(path.join(sourceRoot, "private"), { recursive: true });
fs.writeFileSync(path.join(sourceRoot, "private/p.txt"), "the private text\n");
const settingsFile = path.join(dir, "toolroom.yaml");

async function applySettings(settings: Record<string, unknown>) {
  // What a live reload does once the file changed: load it and make it the current settings.
  fs.writeFileSync(settingsFile, JSON.stringify(settings));
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  setLoadedSettings(loadSettings({ files: [settingsFile], env: {} }));
}

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  await applySettings({ sourceRoot });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function text(result: unknown): string {
  return (result as CallToolResult).content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

describe("MCP sessions and live reload", () => {
  it("a deny rule added to the settings file applies to the next call of a session opened before it", async () => {
    const { handleMcpRequest } = await import("./mcp-http");
    const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1/api/mcp"), {
      fetch: (url, init) => handleMcpRequest(new Request(url, init)),
    });
    const client = new Client({ name: "reload-test", version: "1" });
    await client.connect(transport);
    try {
      const before = await client.callTool({ name: "read_file", arguments: { path: "private/p.txt" } });
      expect(text(before)).toContain("the private text");

      await applySettings({ sourceRoot, approvals: { rules: [{ tool: "read_file", args: { path: "^private/" }, decision: "deny", reason: "private" }] } });
      const after = await client.callTool({ name: "read_file", arguments: { path: "private/p.txt" } });
      expect(text(after)).not.toContain("the private text");
      expect(after._meta?.["toolroom/decision"]).toMatchObject({ by: "rule", decision: "denied" });
    } finally {
      await client.close();
    }
  });
});
