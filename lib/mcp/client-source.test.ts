import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadRegistry } from "@/lib/server/runtime/registry";
import type { z } from "zod";
import { settingsSchema } from "@/lib/settings/schema";

type SettingsInput = z.input<typeof settingsSchema>;
import { testContext } from "@/lib/testing/context";
import { needsConfirmation, notAdmittedText } from "@/lib/tools/confirm";
import { invoke } from "@/lib/tools/invoke";
import { RegistryCollisionError } from "@/lib/tools/errors";
import type { Registry } from "@/lib/tools/registry-types";
import type { ElicitSchema } from "@/lib/tools/types";
import { connectMcpSources } from "./client-source";
import { processExists } from "@/lib/testing/processes";

const MODULES = path.resolve(import.meta.dirname, "../../node_modules/@modelcontextprotocol");
const FS_SERVER = path.join(MODULES, "server-filesystem/dist/index.js");
const EVERYTHING = path.join(MODULES, "server-everything/dist/index.js");
const FIXTURE = path.join(import.meta.dirname, "__fixtures__/mcp-test-server.mjs");

let tmp: string;
let shared: string;
let registry: Registry;

function settings(mcpServers: NonNullable<SettingsInput["mcpServers"]>) {
  return settingsSchema.parse({ mcpServers });
}

/** A registry from an empty folder (no plugins): built-ins plus the given servers. */
function registryWith(mcpServers: NonNullable<SettingsInput["mcpServers"]>, mcpTimeoutMs?: number) {
  return loadRegistry({ settings: settings(mcpServers), cwd: tmp, log: () => {}, mcpTimeoutMs });
}

async function run(name: string, input: unknown = {}) {
  const tool = registry.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return invoke(tool.resolve(testContext()), input, testContext());
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && processExists(pid); i++) await new Promise((r) => setTimeout(r, 100));
  return !processExists(pid);
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-mcp-client-"));
  shared = path.join(tmp, "shared");
  fs.mkdirSync(shared);
  fs.writeFileSync(path.join(shared, "hello.txt"), "hello from the temp folder\n");
  registry = await registryWith({
    fs: { command: "node", args: [FS_SERVER, shared], prefix: "fs_" },
    everything: { command: "node", args: [EVERYTHING, "stdio"] },
    fx: { command: "node", args: [FIXTURE] },
    fxa: { command: "node", args: [FIXTURE], prefix: "a_", confirm: "always" },
    fxn: { command: "node", args: [FIXTURE], prefix: "n_", confirm: "never" },
    broken: { command: "toolroom-no-such-command", args: ["--stdio"] },
    dies: { command: "node", args: ["-e", "console.error('boom: OPENWEATHER_KEY is not set'); process.exit(3)"] },
  });
}, 60_000);

afterAll(async () => {
  await registry?.close?.();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("MCP servers as tool sources", () => {
  it("lists each server's tools under mcp:<name>, with the server's version and read-only hint", () => {
    expect(registry.get("fs_list_directory")).toMatchObject({
      sourcePackage: "mcp:fs",
      version: "0.2.0",
      origin: "mcp",
      readonly: true,
      requiresConfirmation: false,
      enabled: true,
    });
    expect(registry.get("fs_list_directory")?.inputSchema).toMatchObject({ type: "object", properties: { path: { type: "string" } } });
    expect(registry.get("fs_write_file")).toMatchObject({ readonly: false, requiresConfirmation: true });
    expect(registry.get("echo")).toMatchObject({ sourcePackage: "mcp:everything", version: "2.0.0", readonly: true, summary: "Echoes back the input string" });
    expect(registry.get("safe")).toMatchObject({
      sourcePackage: "mcp:fx",
      version: "3.1.4",
      description: "Reads only.\n\nSecond paragraph.",
      summary: "Reads only.",
    });
    // No description: the title stands in, so lists and prompts have a summary.
    expect(registry.get("additive")?.description).toBe("Additive tool");
  });

  it("reports each server as a source: connected with its tool count, or failed", () => {
    const byPackage = new Map(registry.sources?.map((s) => [s.package, s]));
    expect(byPackage.get("mcp:fs")).toMatchObject({
      state: "connected",
      transport: "stdio",
      prefix: "fs_",
      toolCount: 14,
      server: { name: "secure-filesystem-server", version: "0.2.0" },
    });
    expect(byPackage.get("mcp:fs")?.target).toBe(`node ${FS_SERVER} ${shared}`);
    expect(byPackage.get("mcp:everything")).toMatchObject({ state: "connected", server: { title: "Everything Reference Server" } });
    // The fixture's "bad name!" is skipped, so it counts the rest.
    expect(byPackage.get("mcp:fx")).toMatchObject({ state: "connected", toolCount: 9 });
    expect(byPackage.get("mcp:broken")).toMatchObject({ state: "failed", toolCount: 0 });
  });

  it("applies the prefix, and calls the server by its own name", async () => {
    const mcpFs = registry.tools.filter((t) => t.sourcePackage === "mcp:fs");
    expect(mcpFs.length).toBe(14);
    expect(mcpFs.every((t) => t.name.startsWith("fs_"))).toBe(true);
    // The server's read_file sits beside the built-in of that name.
    expect(registry.get("read_file")?.origin).toBe("builtin");
    expect(registry.get("fs_read_file")?.entry.exportName).toBe("read_file");
    const read = await run("fs_read_text_file", { path: path.join(shared, "hello.txt") });
    expect(read).toMatchObject({ isError: false, text: "hello from the temp folder\n" });
  });

  it("runs tools through invoke and returns their text", async () => {
    expect((await run("fs_list_directory", { path: shared })).text).toBe("[FILE] hello.txt");
    expect((await run("echo", { message: "hi there" })).text).toBe("Echo: hi there");
    expect((await run("shout", { text: "quiet" })).text).toBe("QUIET");
  });

  it("checks the input against the server's schema before calling", async () => {
    const result = await run("shout", {});
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Error: invalid input for shout: text:/);
  });

  it("turns an isError result into an Error: text", async () => {
    expect(await run("fail")).toMatchObject({ isError: true, text: "Error: disk on fire" });
    // The server's own errors (the path is outside its allowed folder) arrive the same way.
    const outside = await run("fs_list_directory", { path: "/" });
    expect(outside.isError).toBe(true);
    expect(outside.text).toMatch(/^Error: .*(denied|outside)/i);
  });

  it("summarizes images and embedded resources", async () => {
    expect((await run("media")).text).toBe("here you go\n[image: image/png, 2.0 KB]\n[resource: file:///notes.txt (text/plain)]\nthe notes");
  });

  it("answers a server's elicitation through the call's ctx.elicit, and cancels when the call has none", async () => {
    const asked: { message: string; fields: string[] }[] = [];
    const elicit = async (message: string, schema: ElicitSchema) => {
      asked.push({ message, fields: Object.keys(schema.properties) });
      return { action: "accept" as const, content: { name: "Diavola", size: "l" } };
    };
    const tool = registry.get("ask")!;
    const answered = await invoke(tool.resolve(testContext()), {}, testContext({ elicit }));
    expect(asked).toEqual([{ message: "Which pizza?", fields: ["name", "size"] }]);
    expect(JSON.parse(answered.text)).toEqual({ action: "accept", content: { name: "Diavola", size: "l" } });
    // Nobody to ask: the server hears that nothing was agreed to.
    expect(JSON.parse((await run("ask")).text)).toEqual({ action: "cancel" });
    const refused = await invoke(tool.resolve(testContext()), {}, testContext({ elicit: async () => ({ action: "not-admitted", reason: "unsupervised" }) }));
    expect(JSON.parse(refused.text)).toEqual({ action: "cancel" });
  });

  it("asks for confirmation per the server's confirm setting and the destructive hint", async () => {
    const confirming = (name: string) => registry.get(name)?.requiresConfirmation;
    // destructive (the default): no annotations count as destructive, as the MCP spec defaults say.
    expect([confirming("plain"), confirming("wipe"), confirming("safe"), confirming("additive")]).toEqual([true, true, false, false]);
    expect([confirming("a_safe"), confirming("a_additive")]).toEqual([true, true]);
    expect([confirming("n_plain"), confirming("n_wipe")]).toEqual([false, false]);

    const ctx = testContext();
    const wipe = registry.get("wipe")?.resolve(ctx);
    if (!wipe) throw new Error("no wipe");
    expect(await needsConfirmation(wipe, {}, ctx)).toBe(true);
    expect(notAdmittedText(wipe, {}, { kind: "denied", reason: "not today" })).toBe("Not run: the call of wipe was denied: not today.");
    const safe = registry.get("safe")?.resolve(ctx);
    if (!safe) throw new Error("no safe");
    expect(await needsConfirmation(safe, {}, ctx)).toBe(false);
  });

  it("skips a tool whose name cannot be a tool name, keeping the server", () => {
    const skipped = registry.diagnostics.find((d) => d.package === "mcp:fx" && d.entry === "bad name!");
    expect(skipped).toMatchObject({ kind: "not-a-tool", version: "3.1.4" });
    expect(skipped?.message).toContain('"bad name!"');
  });

  it("makes a command that does not exist a diagnostic, and the other servers still work", async () => {
    const d = registry.diagnostics.find((x) => x.package === "mcp:broken");
    expect(d).toMatchObject({
      kind: "source-failed",
      entry: "toolroom-no-such-command --stdio",
      message: 'cannot start "toolroom-no-such-command": not found on PATH',
    });
    expect(d?.hint).toContain("mcpServers.broken.command");
    expect((await run("echo", { message: "still here" })).text).toBe("Echo: still here");
  });

  it("keeps what a server printed to stderr before it exited", () => {
    const d = registry.diagnostics.find((x) => x.package === "mcp:dies");
    expect(d).toMatchObject({ kind: "source-failed", message: "the server exited before it answered" });
    expect(d?.stderr).toContain("boom: OPENWEATHER_KEY is not set");
  });
});

describe("MCP server lifetime", () => {
  it("fails start-up on a name clash without a prefix, naming both and the fix, and stops the servers", async () => {
    const pidFile = path.join(tmp, "clash.pid");
    const error = await registryWith({
      fs: { command: "node", args: [FS_SERVER, shared] },
      fx: { command: "node", args: [FIXTURE], env: { PIDFILE: pidFile } },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryCollisionError);
    expect((error as Error).message).toMatch(/"read_file" is registered by two sources: "toolroom" and "mcp:fs".*mcpServers\.fs\.prefix/);
    expect(await gone(Number(fs.readFileSync(pidFile, "utf8")))).toBe(true);
  });

  it("close() stops the server processes", async () => {
    const pidFile = path.join(tmp, "close.pid");
    const [source] = await connectMcpSources(
      { fx: { command: "node", args: [FIXTURE], env: { PIDFILE: pidFile }, confirm: "destructive" } },
      { cwd: tmp, clientVersion: "0" },
    );
    const pid = Number(fs.readFileSync(pidFile, "utf8"));
    expect(processExists(pid)).toBe(true);
    await source?.close?.();
    expect(await gone(pid)).toBe(true);
  });

  it("a server that stops later makes its tools return Error:, not throw", async () => {
    const [source] = await connectMcpSources(
      { fx: { command: "node", args: [FIXTURE], confirm: "destructive" } },
      { cwd: tmp, clientVersion: "0", log: () => {} },
    );
    const tool = (name: string) => {
      const found = source?.tools.find((t) => t.name === name);
      if (!found) throw new Error(`no ${name}`);
      return found.resolve(testContext());
    };
    try {
      expect((await invoke(tool("exit"), {}, testContext())).text).toBe("bye");
      // The server exits after answering; wait until the client has seen it go.
      const after = await vi.waitFor(
        async () => {
          const result = await invoke(tool("safe"), {}, testContext());
          expect(result.isError).toBe(true);
          return result;
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(after.text).toContain('the MCP server "fx" has stopped');
    } finally {
      await source?.close?.();
    }
  });

  it("a server that answers tools/list with an error is a diagnostic naming it", async () => {
    const [source] = await connectMcpSources(
      { sulky: { command: "node", args: [FIXTURE], env: { FAIL_LIST: "1" }, confirm: "destructive" } },
      { cwd: tmp, clientVersion: "0", log: () => {} },
    );
    expect(source?.status?.state).toBe("failed");
    expect(source?.diagnostics[0]?.message).toMatch(/^the server answered with an error: .*the tool catalogue is unavailable/);
  });

  it("a server that never answers is a diagnostic after the connect timeout", async () => {
    const [source] = await connectMcpSources(
      { mute: { command: "node", args: ["-e", "console.error('waiting forever'); setInterval(() => {}, 1000)"], confirm: "destructive" } },
      { cwd: tmp, clientVersion: "0", timeoutMs: 1000, log: () => {} },
    );
    expect(source?.status?.state).toBe("failed");
    expect(source?.diagnostics[0]).toMatchObject({ kind: "source-failed", message: "the server did not answer within 1 s", stderr: "waiting forever" });
  });
});

describe("MCP over streamable HTTP", () => {
  let server: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    server = spawn(process.execPath, [EVERYTHING, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
    await new Promise<void>((resolve, reject) => {
      server.stderr?.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
      server.on("exit", (code) => reject(new Error(`server-everything exited with ${code}`)));
    });
  }, 30_000);
  afterAll(() => {
    server?.kill();
  });

  it("lists and calls the tools of a server reached by URL, headers included", async () => {
    const [source] = await connectMcpSources(
      { web: { url, headers: { "x-toolroom-test": "1" }, prefix: "web_", confirm: "destructive" } },
      { cwd: tmp, clientVersion: "0" },
    );
    try {
      expect(source?.status).toMatchObject({ state: "connected", transport: "http", target: url, server: { name: "mcp-servers/everything" } });
      const echo = source?.tools.find((t) => t.name === "web_echo");
      if (!echo) throw new Error("web_echo is not listed");
      expect(echo.entry).toEqual({ file: url, exportName: "echo" });
      expect((await invoke(echo.resolve(testContext()), { message: "over http" }, testContext())).text).toBe("Echo: over http");
    } finally {
      await source?.close?.();
    }
  });

  it("makes an unreachable URL a diagnostic", async () => {
    const port = await freePort();
    const [source] = await connectMcpSources(
      { gone: { url: `http://127.0.0.1:${port}/mcp`, confirm: "destructive" } },
      { cwd: tmp, clientVersion: "0", log: () => {} },
    );
    expect(source?.diagnostics[0]).toMatchObject({
      kind: "source-failed",
      package: "mcp:gone",
      message: expect.stringMatching(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: .*ECONNREFUSED/),
    });
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
