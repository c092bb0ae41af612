import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testContext } from "@/lib/testing/context";
import { invoke } from "@/lib/tools/invoke";
import type { Registry } from "@/lib/tools/registry-types";

// A kept MCP connection follows the server's `notifications/*/list_changed`: the process's
// registry (what /api/tools, the pages and the next chat turn read) is replaced without a restart.
// A real SQLite file for the chat turn, migrated the way `npm start` does it, before lib/db is imported.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-list-changed-"));
process.env.DATABASE_URL = `file:${path.join(dir, "test.db")}`;
process.env.XDG_STATE_HOME = path.join(dir, "state");
const FIXTURE = path.resolve(import.meta.dirname, "../../mcp/__fixtures__/mcp-list-changed-server.mjs");
const PID = { lc: path.join(dir, "lc.pid"), clash: path.join(dir, "clash.pid") };

let runtime: typeof import("./registry");
let sources: typeof import("@/lib/server/sources/sources-view");

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  const mcpServers = {
    lc: { command: "node", args: [FIXTURE, `--pid-file=${PID.lc}`], prefix: "lc_" },
    // Its late tool is named as a built-in: adding it must not replace the built-in.
    clash: { command: "node", args: [FIXTURE, `--pid-file=${PID.clash}`, "--late-name=read_file"], prefix: "" },
  };
  setLoadedSettings(loadSettings({ files: [], env: { TOOLROOM_SOURCEROOT: dir, TOOLROOM_MCPSERVERS: JSON.stringify(mcpServers) } }));
  runtime = await import("./registry");
  sources = await import("@/lib/server/sources/sources-view");
  await runtime.getRegistry();
}, 60_000);

afterAll(async () => {
  await (await runtime.getRegistry()).close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const signal = (server: keyof typeof PID, name: "SIGUSR1" | "SIGUSR2") => process.kill(Number(fs.readFileSync(PID[server], "utf8")), name);
const current = () => runtime.getRegistry();
/** Polls the registry in use (generously: a loaded CI machine) until it has, or has not, the tool. */
const until = (name: string, present: boolean) =>
  expect.poll(async () => Boolean((await current()).get(name)), { timeout: 10_000, interval: 50 }).toBe(present);

async function run(registry: Registry, name: string, input: unknown = {}) {
  const tool = registry.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return invoke(tool.resolve(testContext()), input, testContext());
}

async function listRequests(): Promise<Record<"tools/list" | "resources/list" | "prompts/list", number>> {
  const result = await run(await current(), "lc_lists");
  return JSON.parse(String(result.output)) as Record<"tools/list" | "resources/list" | "prompts/list", number>;
}

async function ask(chatId: string, text: string): Promise<UIMessage> {
  const service = await import("@/lib/server/chat/chat-service");
  const { chatRequestSchema } = await import("@/lib/server/chat/chat-request");
  const { loadMessages } = await import("@/lib/db/queries");
  const request = chatRequestSchema.parse({ id: chatId, toolMode: "native", message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text }] } });
  await (await service.handleChatRequest(request, new AbortController().signal)).text();
  return (await loadMessages(chatId)).at(-1) as UIMessage;
}

describe("a kept MCP connection follows the server's list changes", { timeout: 60_000 }, () => {
  it("shows a tool the server adds, in the registry, the tools API and the next chat turn; the registry it replaced still calls the server", async () => {
    const before = await current();
    expect(before.get("lc_late_tool")).toBeUndefined();
    signal("lc", "SIGUSR1");
    await until("lc_late_tool", true);

    const { toolsResponse } = await import("@/lib/server/tools-page/tools-view");
    const after = await current();
    expect((await toolsResponse(after, null)).tools["lc_late_tool"]).toMatchObject({
      source_package: "mcp:lc",
      description: "Added after the client connected.",
    });
    expect(sources.listSources(after).find((s) => s.name === "lc")?.toolCount).toBe(3);
    expect(await run(after, "lc_late_tool", { word: "hi" })).toMatchObject({ output: "late hi" });
    // A turn that started with the old registry goes on with it: the connection was handed over, not closed.
    expect(after).not.toBe(before);
    expect(await run(before, "lc_flood", { n: 0 })).toMatchObject({ output: "sent 0" });

    const message = await ask("late-tool-turn", 'call lc_late_tool {"word": "there"}');
    expect(message.parts.find((p) => p.type === "tool-lc_late_tool")).toMatchObject({ state: "output-available", output: "late there" });
  });

  it("lists the server's resources and prompts again on the Sources view's next look", async () => {
    const changes = sources.sourceActivity(await current(), "lc").listChanges;
    signal("lc", "SIGUSR2");
    await until("lc_late_tool", false);
    await expect.poll(async () => sources.sourceActivity(await current(), "lc").listChanges.resources, { timeout: 10_000 }).toBeGreaterThan(changes.resources);
    await expect.poll(async () => sources.sourceActivity(await current(), "lc").listChanges.prompts, { timeout: 10_000 }).toBeGreaterThan(changes.prompts);
    const detail = await sources.sourceDetail(await current(), "lc");
    expect(detail.resources.ok && detail.resources.items.map((r) => r.uri)).toEqual(["fixture://first"]);
    expect(detail.prompts.ok && detail.prompts.items.map((p) => p.name)).toEqual(["first_prompt"]);
    expect(detail.tools.map((t) => t.name)).toEqual(["lc_flood", "lc_lists"]);
  });

  it("lists the tools again a bounded number of times for a burst of notifications", async () => {
    const before = await listRequests();
    await run(await current(), "lc_flood", { n: 50 });
    // The change after the burst is seen only through a re-list that comes after the burst's.
    signal("lc", "SIGUSR1");
    await until("lc_late_tool", true);
    const after = await listRequests();
    const relists = after["tools/list"] - before["tools/list"];
    expect(relists).toBeGreaterThanOrEqual(1);
    expect(relists).toBeLessThanOrEqual(3);
    // Resources and prompts are not listed on a notice: the Sources view lists them when it looks.
    expect(after["resources/list"]).toBe(before["resources/list"]);
  });

  it("keeps the last good registry when an added tool clashes with a built-in, and follows again once it goes", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      signal("clash", "SIGUSR1");
      await expect
        .poll(() => errors.mock.calls.map((c) => String(c[0])).find((m) => m.includes('tool "read_file" is registered by two sources')), { timeout: 10_000 })
        .toContain('MCP server "clash" changed its tools; still using the last good tools');
      expect((await current()).get("read_file")?.origin).toBe("builtin");
      signal("clash", "SIGUSR2");
      signal("lc", "SIGUSR2");
      await until("lc_late_tool", false);
      expect((await current()).get("read_file")?.origin).toBe("builtin");
    } finally {
      errors.mockRestore();
    }
  });
});
