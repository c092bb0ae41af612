import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolroom } from "@/lib/testing/cli";

// The sign-in itself is exercised by the conformance suite's auth scenarios (lib/mcp/client-conformance.test.ts).
let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-mcp-login-"));
  fs.writeFileSync(path.join(root, "toolroom.yaml"), "mcpServers:\n  local: { command: node, args: [server.js] }\n");
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("toolroom mcp login / logout", () => {
  it("names the configured servers when the server is unknown, and refuses a stdio server", async () => {
    const unknown = await runToolroom(["--config", "toolroom.yaml", "mcp", "login", "remote"], root);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no MCP server named "remote" in settings mcpServers (local)');
    const stdio = await runToolroom(["--config", "toolroom.yaml", "mcp", "logout", "local"], root);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain("mcpServers.local runs on stdio; only servers reached by URL sign in");
  }, 60_000);
});
