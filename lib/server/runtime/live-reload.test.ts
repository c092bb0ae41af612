import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings, type LoadOptions } from "@/lib/settings/load";
import type { Registry } from "@/lib/tools/registry-types";
import { startLiveReload, type LiveReload } from "./live-reload";
import { loadRegistry } from "./registry";
import type { ReloadNotice } from "./reload-diff";

let root: string;
let live: LiveReload | undefined;
let notices: ReloadNotice[];
let applied: Registry | undefined;

function writePlugin(description: string) {
  const dir = path.join(root, "plugins", "hello-plugin");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "hello-plugin", version: "1.0.0", type: "module", toolroom: { tools: { hello: "./tools.js#hello" } } }),
  );
  const file = path.join(dir, "tools.js");
  fs.writeFileSync(
    file,
    `export const hello = { name: "hello", description: ${JSON.stringify(description)}, input: { jsonSchema: { type: "object" } }, execute: () => ${JSON.stringify(description)} };\n`,
  );
  // Two writes within one clock tick must still look different to the reload.
  const later = new Date(Date.now() + notices.length * 1000);
  fs.utimesSync(file, later, later);
}

/** Waits (generously: a loaded CI machine) for a notice that matches. */
async function noticeWhere(match: (n: ReloadNotice) => boolean, timeoutMs = 20_000): Promise<ReloadNotice> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = notices.find(match);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no matching reload notice; saw ${JSON.stringify(notices)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeEach(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-reload-")));
  fs.mkdirSync(path.join(root, "plugins"));
  fs.writeFileSync(path.join(root, "toolroom.yaml"), "plugins: { paths: [./plugins], importTimeoutSeconds: 0.5 }\n");
  notices = [];
  const settingsOptions: LoadOptions = { cwd: root, files: [path.join(root, "toolroom.yaml")], env: {} };
  const settings = loadSettings(settingsOptions);
  const build = (loaded: typeof settings, previous?: Registry, reconnect?: Record<string, string>) =>
    loadRegistry({ settings: loaded.settings, cwd: root, log: () => {}, previous, reconnect });
  applied = await build(settings);
  live = startLiveReload({
    settingsOptions,
    current: { settings, registry: applied },
    buildRegistry: build,
    apply: (_loaded, registry) => (applied = registry),
    onReload: (n) => notices.push(n),
    debounceMs: 100,
  });
  await live.ready;
});
afterEach(() => {
  live?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("live reload", { timeout: 60_000 }, () => {
  it("sees a plugin written into the source root, then its edit, under a fresh module URL", async () => {
    expect(applied?.get("hello")).toBeUndefined();
    writePlugin("Say hello.");
    const added = await noticeWhere((n) => n.tools.added.includes("hello"));
    expect(added.ok).toBe(true);
    expect(applied?.get("hello")?.description).toBe("Say hello.");

    writePlugin("Say hello, edited.");
    const changed = await noticeWhere((n) => n.tools.changed.includes("hello"));
    expect(changed.tools.added).toEqual([]);
    // The edited module ran, not the cached one.
    expect(applied?.get("hello")?.description).toBe("Say hello, edited.");
    expect(
      await applied
        ?.get("hello")
        ?.resolve({} as never)
        .execute({}, {} as never),
    ).toBe("Say hello, edited.");
  });

  it("reloads settings: a new model is listed, and a broken file keeps the last good state and says why", async () => {
    writePlugin("Say hello.");
    await noticeWhere((n) => n.tools.added.includes("hello"));

    fs.writeFileSync(
      path.join(root, "toolroom.yaml"),
      "plugins: { paths: [./plugins] }\nllms: { offline: { provider: offline }, local: { provider: openai-compatible, baseURL: 'http://127.0.0.1:1/v1' } }\n",
    );
    const models = await noticeWhere((n) => n.models.added.includes("local"));
    expect(models.ok).toBe(true);

    fs.writeFileSync(path.join(root, "toolroom.yaml"), "plugins: { paths: [./plugins]\n");
    const failed = await noticeWhere((n) => !n.ok);
    expect(failed.error).toContain("toolroom.yaml");
    expect(failed.error).toMatch(/not valid YAML/);
    expect(applied?.get("hello")).toBeDefined();
  });

  it("notices a plugin removed from the plugins folder", async () => {
    writePlugin("Say hello.");
    await noticeWhere((n) => n.tools.added.includes("hello"));
    fs.rmSync(path.join(root, "plugins", "hello-plugin"), { recursive: true });
    await noticeWhere((n) => n.tools.removed.includes("hello"));
    expect(applied?.get("hello")).toBeUndefined();
  });

  it("a plugin whose import never settles does not hold the reload: it is skipped, and the reload is shown while it runs", async () => {
    writePlugin("Say hello.");
    await noticeWhere((n) => n.tools.added.includes("hello"));
    fs.cpSync(path.resolve("examples/plugins/fixtures/never-settles"), path.join(root, "plugins", "never-settles"), { recursive: true });
    const notice = await noticeWhere((n) => n.ok && n.skipped === 1);
    expect(applied?.get("hello")).toBeDefined();
    expect(applied?.diagnostics).toEqual([
      expect.objectContaining({ kind: "import-timed-out", message: expect.stringContaining("did not finish within 0.5 s") }),
    ]);
    expect(notice.ok).toBe(true);
    // A reload asked for now runs into the same bound; while it runs, it is reported as running.
    const again = live!.reload(["by hand"]);
    expect(live!.inProgress()).toMatchObject({ trigger: ["by hand"] });
    expect((await again).ok).toBe(true);
    expect(live!.inProgress()).toBeNull();
  });

  it("keeps serving a plugin's last good tool after a typo, until the fix loads", async () => {
    writePlugin("Say hello.");
    await noticeWhere((n) => n.tools.added.includes("hello"));
    const file = path.join(root, "plugins", "hello-plugin", "tools.js");
    fs.writeFileSync(file, `import { typo } from "./tool.js";\nexport const hello = 1;\n`);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(file, later, later);
    const stale = await noticeWhere((n) => n.skipped === 1);
    expect(stale.stale).toEqual(["hello"]);
    expect(applied?.get("hello")?.stale?.reason).toContain("tool.js");
    expect(applied?.get("hello")?.description).toBe("Say hello.");
    writePlugin("Say hello, fixed.");
    await noticeWhere((n) => n.tools.changed.includes("hello"));
    expect(applied?.get("hello")?.stale).toBeUndefined();
    expect(applied?.get("hello")?.description).toBe("Say hello, fixed.");
  });

  it("notices a plugins folder deleted and then restored", async () => {
    writePlugin("Say hello.");
    await noticeWhere((n) => n.tools.added.includes("hello"));
    fs.rmSync(path.join(root, "plugins"), { recursive: true });
    await noticeWhere((n) => n.tools.removed.includes("hello"));
    const before = notices.length;
    writePlugin("Say hello again.");
    await noticeWhere((n) => notices.indexOf(n) >= before && n.tools.added.includes("hello"));
    expect(applied?.get("hello")?.description).toBe("Say hello again.");
  });

  it("reconnects only the MCP server whose entry changed, and one it is told to (a sign-out), and says so", async () => {
    const fixture = path.resolve("lib/mcp/__fixtures__/mcp-sources-server.mjs");
    const servers = (edition: string) =>
      `mcpServers: { kept: { command: node, args: [${JSON.stringify(fixture)}], prefix: k_ }, edited: { command: node, args: [${JSON.stringify(fixture)}, "${edition}"], prefix: e_ } }\n`;
    try {
      fs.writeFileSync(path.join(root, "toolroom.yaml"), servers("--edition=1"));
      await noticeWhere((n) => n.tools.added.includes("k_bump"));
      const kept = applied?.sources?.find((s) => s.package === "mcp:kept");
      const edited = applied?.sources?.find((s) => s.package === "mcp:edited");

      fs.writeFileSync(path.join(root, "toolroom.yaml"), servers("--edition=2"));
      const notice = await noticeWhere((n) => Boolean(n.reconnected?.length));
      expect(notice.reconnected).toEqual([{ server: "edited", reason: "settings changed" }]);
      expect(applied?.sources?.find((s) => s.package === "mcp:kept")).toBe(kept);
      expect(applied?.sources?.find((s) => s.package === "mcp:edited")).not.toBe(edited);

      // Asked while another reload runs, it is folded into the next one, and waits for that one.
      const running = live!.reload(["by hand"]);
      const forced = await live!.reload(["signed out"], { kept: "signed out" });
      expect((await running).reconnected).toEqual([]);
      expect(forced.reconnected).toEqual([{ server: "kept", reason: "signed out" }]);
    } finally {
      await applied?.close?.();
    }
  });
});
