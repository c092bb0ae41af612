import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnv, TOOLROOM_BIN } from "@/lib/testing/cli";

let root: string;
let config: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-mcp-stdio-"));
  fs.mkdirSync(path.join(root, "src"));
  fs.writeFileSync(path.join(root, "src", "a.ts"), "export const a = 1;\n");
  config = path.join(root, "toolroom.yaml");
  fs.writeFileSync(config, `sourceRoot: ${root}\nplugins:\n  paths: [${path.resolve("examples/plugins/toolroom-plugin-sample")}]\n`);
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function connect(elicit?: "accept" | "decline", settings = config) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [TOOLROOM_BIN, "--config", settings, "mcp"],
    env: cliEnv(root),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "stdio-test", version: "0.0.1" }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async () => (elicit === "accept" ? { action: "accept", content: {} } : { action: "decline" }));
  // A line on stdout that is not JSON-RPC (a stray print) is a transport error.
  const errors: string[] = [];
  client.onerror = (error) => errors.push(error.message);
  await client.connect(transport);
  return { client, stderr: () => stderr, errors };
}

const text = (result: unknown) => (result as CallToolResult).content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe("toolroom mcp (stdio)", () => {
  it("ends quietly when its client stops reading (stdout closed), as every command does: no EPIPE stack", async () => {
    const child = spawn(process.execPath, [TOOLROOM_BIN, "--config", config, "mcp"], {
      cwd: root,
      env: cliEnv(root) as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code: number | null) => resolve(code)));
    // The reader goes away before the first answer: the answer to initialize meets a closed pipe.
    child.stdout.destroy();
    const initialize = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "gone", version: "1" } };
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: initialize })}\n`);
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
  });

  it("serves the registry to the official SDK client", async () => {
    const { client, stderr } = await connect();
    try {
      expect(client.getServerVersion()?.name).toBe("toolroom");
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === "list_files")?.annotations?.readOnlyHint).toBe(true);
      expect(tools.find((t) => t.name === "sample_save_note")?.annotations?.destructiveHint).toBe(true);
      const listing = await client.callTool({ name: "list_files", arguments: { path: "src" } });
      expect(text(listing)).toContain("a.ts");
      // stdout is the protocol; the call's audit line goes to stderr.
      await expect.poll(stderr).toContain('"tool":"list_files"');
    } finally {
      await client.close();
    }
  }, 60_000);

  it("asks before a confirming call: accept runs it, decline does not", async () => {
    const yes = await connect("accept");
    try {
      expect(text(await yes.client.callTool({ name: "sample_save_note", arguments: { title: "stdio-yes", body: "hi" } }))).toContain("Wrote");
    } finally {
      await yes.client.close();
    }
    const no = await connect("decline");
    try {
      expect(text(await no.client.callTool({ name: "sample_save_note", arguments: { title: "stdio-no", body: "hi" } }))).toMatch(/^Not written/);
      await expect.poll(no.stderr).toContain('"decision":"denied"');
    } finally {
      await no.client.close();
    }
    expect(fs.existsSync(path.join(root, ".toolroom/notes/stdio-yes.md"))).toBe(true);
    expect(fs.existsSync(path.join(root, ".toolroom/notes/stdio-no.md"))).toBe(false);
  }, 60_000);

  it("keeps stdout for the protocol: what plugin code prints to stdout goes to stderr", async () => {
    const settings = path.join(root, "noisy.yaml");
    fs.writeFileSync(settings, `sourceRoot: ${root}\nplugins:\n  paths: [${path.resolve("examples/plugins/fixtures/stdout-writer")}]\n`);
    const { client, stderr, errors } = await connect(undefined, settings);
    try {
      expect(text(await client.callTool({ name: "noisy", arguments: {} }))).toBe("noisy done");
      await expect.poll(stderr).toContain("stdout-writer: a raw stdout write");
      expect(stderr()).toContain("stdout-writer: imported");
      expect(stderr()).toContain("stdout-writer: console.log while running");
      expect(stderr()).toContain("stdout-writer: console.info while running");
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
