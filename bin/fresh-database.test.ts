// Issue DD point 1: every command works on a database that does not exist yet (`npx toolroom …`
// before any `npm start`, or a new DATABASE_URL). A command that uses the store sets it up first;
// one that does not (doctor, which changes nothing) leaves no file behind. No database error reaches a person.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationStatus } from "@/lib/db/migrations-status";
import { runToolroom, type CliRun } from "@/lib/testing/cli";
import { startOAuthMcpServer, type OAuthMcpServer } from "@/lib/testing/oauth-mcp-server.mjs";
import { buildProgram, commandPath } from "./cli";

const MIGRATIONS = path.resolve(import.meta.dirname, "../prisma/migrations");
// What leaks when a query meets a missing table: Prisma's invocation text, SQLite's wording, a stack frame.
const DATABASE_ERROR = /prisma|does not exist in the current database|no such table|cannot open database|\n\s+at .+:\d+:\d+\)?$/im;

// Made while the tests are collected: their command lines name files in it.
const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-fresh-db-"));
let remote: OAuthMcpServer;

/** One line each: how a person would run the command (arguments that reach its work, not only its usage check). */
function invocations(): Record<string, string[]> {
  const suite = path.join(root, "one.eval.yaml");
  return {
    settings: ["settings"],
    // In a clone it refuses (exit 2: serve runs the npm package's prebuilt server), touching no store.
    serve: ["serve", "--port", "0"],
    doctor: ["doctor"],
    tools: ["tools"],
    call: ["call", "read_file", "--input", '{"path":"notes.txt"}'],
    ask: ["ask", "read notes.txt"],
    runs: ["runs"],
    "runs show": ["runs", "show", "nowhere"],
    eval: ["eval", suite],
    "eval diff": ["eval", "diff", path.join(root, "a"), path.join(root, "b")],
    "eval import-bfcl": ["eval", "import-bfcl", "--questions", path.join(root, "none.json")],
    index: ["index"],
    mcp: ["mcp"],
    "mcp login": ["mcp", "login", "remote"],
    "mcp logout": ["mcp", "logout", "remote"],
    "collection run": ["collection", "run", path.join(root, "none.calls.yaml")],
    // On SQLite it refuses (exit 2: workers take trials from PostgreSQL), after the store is set up as for every store command.
    worker: ["worker"],
    "users add": ["users", "add", "ann@example.com", "--role", "admin", "--password-stdin"],
    "users list": ["users", "list"],
    "users set-role": ["users", "set-role", "ann@example.com", "viewer"],
    "users remove": ["users", "remove", "ann@example.com"],
    "tokens create": ["tokens", "create", "ann@example.com", "--name", "ci"],
    "tokens list": ["tokens", "list"],
    "tokens revoke": ["tokens", "revoke", "ann@example.com", "ci"],
  };
}

function runnableCommands(command: Command): string[] {
  const children = command.commands.flatMap(runnableCommands);
  // A command with an action of its own (`eval <suite>`, `mcp`, `runs`) runs besides its subcommands;
  // commander keeps the action in a field of its own (the public API has no getter).
  const runsItself = command.parent !== null && (command as unknown as { _actionHandler: unknown })._actionHandler != null;
  return runsItself ? [commandPath(command), ...children] : children;
}

/**
 * `toolroom <args>` on the database file db/`name`.db (not created yet; nor its folder when `name`
 * has one, as ./data is missing on a fresh install), signing in through a "browser" that follows the redirect.
 */
function onFreshDatabase(name: string, args: string[]): Promise<CliRun> {
  return runToolroom(["--config", path.join(root, "toolroom.yaml"), ...args], root, {
    DATABASE_URL: `file:${path.join(root, "db", `${name}.db`)}`,
    BROWSER: `${process.execPath} ${path.join(root, "browser.mjs")}`,
  });
}

/** Absent, or every committed migration applied: a half-made database is what fails later with a missing table. */
function databaseState(name: string): string {
  const file = path.join(root, "db", `${name}.db`);
  if (!fs.existsSync(file)) return "absent";
  const status = migrationStatus(file, MIGRATIONS);
  return status.reachable && status.pending.length === 0 ? "migrated" : `half made: ${status.error ?? `${status.pending.length} pending`}`;
}

beforeAll(async () => {
  remote = await startOAuthMcpServer();
  fs.mkdirSync(path.join(root, "db"));
  fs.writeFileSync(path.join(root, "notes.txt"), "fresh\n");
  fs.writeFileSync(path.join(root, "browser.mjs"), "await fetch(process.argv[2]);\n");
  fs.writeFileSync(
    path.join(root, "one.eval.yaml"),
    "name: one\nmatrix: { models: [offline], modes: [native], trials: 1 }\ncases:\n  - name: read\n    prompt: read notes.txt\n    expect:\n      calls: [{ tool: read_file, args: { path: notes.txt } }]\n",
  );
  // A remote server behind OAuth: the registry reads and writes its sign-in state in the database.
  fs.writeFileSync(
    path.join(root, "toolroom.yaml"),
    [
      `sourceRoot: ${JSON.stringify(root)}`,
      `runsRoot: ${JSON.stringify(path.join(root, "runs"))}`,
      `search: { cacheDir: ${JSON.stringify(path.join(root, "cache"))} }`,
      `mcpServers:\n  remote: { url: "${remote.url}" }`,
      "",
    ].join("\n"),
  );
});
afterAll(async () => {
  await remote?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("every command on a database that does not exist yet", { timeout: 120_000 }, () => {
  it("has an invocation here for every command of the program (a new command is looked at too)", () => {
    expect(runnableCommands(buildProgram()).sort()).toEqual(Object.keys(invocations()).sort());
  });

  it.each(Object.keys(invocations()))("toolroom %s: no database error, and no half-made database", async (name) => {
    const run = await onFreshDatabase(name.replace(/ /g, "-"), invocations()[name]!);
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(DATABASE_ERROR);
    expect(databaseState(name.replace(/ /g, "-"))).toMatch(/^(absent|migrated)$/);
  });

  it("the commands that use the store work: tools asks to sign in, login signs in, logout finds nothing stored", async () => {
    const tools = await onFreshDatabase("tools-works", ["tools"]);
    expect(tools.stderr).toContain("needs you to sign in (OAuth)");
    expect(tools.stderr).toMatch(/^toolroom: applied \d+ migrations to .*tools-works\.db$/m);
    expect(tools.code).toBe(0);
    const login = await onFreshDatabase("new-folder/login-works", ["mcp", "login", "remote"]);
    expect(login.stdout, login.stderr).toBe(`Signed in to remote (${remote.url}): 1 tool.\n`);
    const logout = await onFreshDatabase("logout-works", ["mcp", "logout", "remote"]);
    expect(logout.stdout, logout.stderr).toBe("Nothing was stored for remote.\n");
    expect(logout.code).toBe(0);
    // Once set up, nothing more is applied.
    const again = await onFreshDatabase("tools-works", ["tools"]);
    expect(again.stderr).not.toContain("migration");
  });

  it("doctor changes nothing: it says what to run, and leaves the servers that need the database for later", async () => {
    const run = await onFreshDatabase("doctor-says", ["doctor"]);
    expect(run.stdout).toMatch(/^note {2}database .*doctor-says\.db not created yet; npm start, or any toolroom command that uses it .*, creates it$/m);
    expect(run.stdout).toMatch(/^ok {4}registry .*1 MCP server by URL not checked before the database is set up/m);
    expect(databaseState("doctor-says")).toBe("absent");
  });

  it("commands started at once on one fresh file do not race: each works, the file is set up once", async () => {
    const runs = await Promise.all([
      onFreshDatabase("shared", ["mcp", "logout", "remote"]),
      onFreshDatabase("shared", ["mcp", "logout", "remote"]),
      onFreshDatabase("shared", ["tools"]),
      onFreshDatabase("shared", ["mcp", "logout", "remote"]),
    ]);
    for (const run of runs) {
      expect(`${run.stdout}\n${run.stderr}`).not.toMatch(DATABASE_ERROR);
      expect(run.stderr).not.toContain("could not set up");
      expect(run.code, run.stderr).toBe(0);
    }
    expect(runs.filter((r) => /applied \d+ migrations/.test(r.stderr))).toHaveLength(1);
    expect(databaseState("shared")).toBe("migrated");
  });
});
