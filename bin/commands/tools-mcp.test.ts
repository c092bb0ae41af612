import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolroom, type CliRun } from "@/lib/testing/cli";

const MODULES = path.resolve(import.meta.dirname, "../../node_modules/@modelcontextprotocol");
const FIXTURE = path.resolve(import.meta.dirname, "../../lib/mcp/__fixtures__/mcp-test-server.mjs");

let root: string;
let shared: string;
let pidFile: string;
let config: string;

/** The CLI as a person runs it: a temp folder, only the temp settings, no terminal. */
function toolroom(...args: string[]): Promise<CliRun> {
  return runToolroom(["--config", config, ...args], root);
}

/** The fixture server wrote its pid when it started; the command must not leave it running. */
function fixtureStillRunning(): boolean {
  try {
    process.kill(Number(fs.readFileSync(pidFile, "utf8")), 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-cli-mcp-"));
  shared = path.join(root, "shared");
  fs.mkdirSync(shared);
  fs.writeFileSync(path.join(shared, "notes.txt"), "x\n");
  pidFile = path.join(root, "fixture.pid");
  config = path.join(root, "settings.yaml");
  const servers = {
    fs: { command: "node", args: [path.join(MODULES, "server-filesystem/dist/index.js"), shared], prefix: "fs_" },
    everything: { command: "node", args: [path.join(MODULES, "server-everything/dist/index.js"), "stdio"], prefix: "ev_" },
    // Does not exit when its stdin closes: the CLI has to stop it.
    fixture: { command: "node", args: [FIXTURE], prefix: "fx_", env: { PIDFILE: pidFile } },
    broken: { command: "toolroom-no-such-command" },
  };
  fs.writeFileSync(config, JSON.stringify({ mcpServers: servers }));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// Each run starts Node, tsx and four servers: slow on a shared machine, so each test gets room.
describe("toolroom tools / call with MCP servers", { timeout: 90_000 }, () => {
  it("lists MCP tools with [mcp:<name>], reports the broken server, and stops the servers", async () => {
    const run = await toolroom("tools");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("fs_list_directory  [mcp:fs]\n");
    expect(run.stdout).toContain("ev_echo  [mcp:everything]\n    Echoes back the input string\n");
    expect(run.stdout).toContain("read_file  [toolroom]\n");
    expect(run.stderr).toContain('toolroom: mcp:broken failed (toolroom-no-such-command): cannot start "toolroom-no-such-command": not found on PATH');
    expect(fixtureStillRunning()).toBe(false);
  });

  it("ask calls an MCP tool through the offline model, and doctor counts the failed server; both stop the servers", async () => {
    const ask = await toolroom("ask", `call fs_list_directory {"path": ${JSON.stringify(shared)}}`, "--json");
    expect(ask.code, ask.stderr).toBe(0);
    expect(ask.stdout).toContain("notes.txt");
    expect(fixtureStillRunning()).toBe(false);
    const doctor = await toolroom("doctor");
    expect(doctor.stdout, doctor.stdout).toMatch(/registry +\d+ tools, 1 tool entry skipped, 1 MCP server failed \(see toolroom tools\)/);
    expect(fixtureStillRunning()).toBe(false);
  });

  it("--json gives MCP tools their source package and version", async () => {
    const run = await toolroom("tools", "--json");
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout) as Record<string, { source_package: string; version: string; origin: string }>;
    expect(json.fs_read_text_file).toMatchObject({ source_package: "mcp:fs", version: "0.2.0", origin: "mcp" });
    expect(json["ev_get-sum"]).toMatchObject({ source_package: "mcp:everything", version: "2.0.0" });
  });

  it("calls one tool of each server and exits", async () => {
    const list = await toolroom("call", "fs_list_directory", "--input", JSON.stringify({ path: shared }));
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toBe("[FILE] notes.txt\n");

    const sum = await toolroom("call", "ev_get-sum", "--input", '{"a": 2, "b": 40}');
    expect(sum.code, sum.stderr).toBe(0);
    expect(sum.stdout).toContain("42");
    expect(fixtureStillRunning()).toBe(false);
  });

  it("does not run a destructive MCP tool without a person, and still stops the servers", async () => {
    const target = path.join(shared, "written.txt");
    const run = await toolroom("call", "fs_write_file", "--input", JSON.stringify({ path: target, content: "no" }));
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("Not run: the call of fs_write_file was not admitted (unsupervised).\n");
    expect(fs.existsSync(target)).toBe(false);
    expect(fixtureStillRunning()).toBe(false);
  });

  it("says which servers failed when the tool is not there", async () => {
    const run = await toolroom("call", "weather_now");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no tool named "weather_now" (mcp:broken failed to start; `toolroom tools` says why)');
  });
});
