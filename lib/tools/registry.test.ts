import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { testContext } from "@/lib/testing/context";
import { defineTool } from "./define";
import { RegistryCollisionError, RegistryError } from "./errors";
import { buildRegistry, type BuildRegistryOptions } from "./registry";
import { confirmationLabel, diagnosticReport, registryJson, registryText } from "./registry-json";

const FIXTURES = path.resolve(import.meta.dirname, "../../examples/plugins/fixtures");
const SAMPLE = path.resolve(import.meta.dirname, "../../examples/plugins/toolroom-plugin-sample");

const echo = defineTool({
  name: "echo",
  description: "Echo the text back.\n\nArgs: text.",
  input: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

let nodeModules: string;
const logs: string[] = [];

/** Installs fixture packages into a throwaway node_modules, as npm would. */
function install(...names: string[]) {
  for (const name of names) fs.cpSync(path.join(FIXTURES, name), path.join(nodeModules, `fixture-${name}`), { recursive: true });
}

function options(overrides: Partial<BuildRegistryOptions> = {}): BuildRegistryOptions {
  return {
    builtins: [{ tool: echo, file: "lib/builtins/echo.ts", exportName: "echo" }],
    builtinPackage: { name: "toolroom", version: "0.1.0", dir: "/repo" },
    nodeModules: [nodeModules],
    metadataContext: testContext(),
    log: (m) => logs.push(m),
    ...overrides,
  };
}

beforeEach(() => {
  nodeModules = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-nm-"));
  logs.length = 0;
});
afterEach(() => fs.rmSync(nodeModules, { recursive: true, force: true }));

describe("buildRegistry", () => {
  it("lists built-ins with [toolroom] when no plugin is installed", async () => {
    const registry = await buildRegistry(options());
    expect(registry.tools.map((t) => [t.name, t.sourcePackage, t.origin])).toEqual([["echo", "toolroom", "builtin"]]);
    expect(registry.diagnostics).toEqual([]);
    expect(registry.get("echo")?.inputSchema).toMatchObject({ type: "object", required: ["text"] });
  });

  it("registers the sample plugin's tools with package, version and confirmation", async () => {
    const registry = await buildRegistry(options({ pluginPaths: [SAMPLE] }));
    const write = registry.get("sample_save_note");
    expect(write).toMatchObject({ sourcePackage: "toolroom-plugin-sample", version: "1.2.0", origin: "plugin", readonly: false, requiresConfirmation: true });
    expect(write?.entry).toEqual({ file: "./dist/tools.js", exportName: "sampleSaveNote" });
    // confirm.when reaches the JSON the badge reads; a confirming tool without it "may ask".
    expect(registryJson(registry).sample_save_note?.confirm_when).toBe("before every note it writes");
    expect(confirmationLabel(registryJson(registry).sample_save_note?.confirm_when)).toBe("asks before every note it writes");
    expect(confirmationLabel(null)).toBe("may ask");
    expect(registryJson(registry).sample_word_count?.confirm_when).toBeNull();
    expect(registry.get("sample_file_stats")?.inputSchema).toMatchObject({ properties: { path: { type: "string", format: "path" } } });
    expect(registry.get("sample_word_count")).toMatchObject({
      readonly: true,
      requiresConfirmation: false,
      summary: "Count the words, lines and characters of a piece of text.",
    });
    // The plugin's zod is recognised structurally and converted to JSON Schema.
    expect(registry.get("sample_word_count")?.inputSchema).toMatchObject({ properties: { text: { type: "string" } } });
  });

  it("skips a plugin that fails to import, with the full stack as a diagnostic", async () => {
    install("broken-import");
    const registry = await buildRegistry(options());
    expect(registry.tools.map((t) => t.name)).toEqual(["echo"]);
    const [d] = registry.diagnostics;
    expect(d).toMatchObject({ kind: "import-failed", package: "fixture-broken-import", entry: "explodes" });
    expect(d?.message).toContain("this plugin is broken on purpose");
    expect(d?.stack).toContain("index.js");
    expect(logs.join("\n")).toContain("this plugin is broken on purpose");
  });

  it("skips a plugin whose import never settles once the bound passes, and loads the rest", async () => {
    install("never-settles", "broken-import");
    const registry = await buildRegistry(options({ importTimeoutMs: 200 }));
    expect(registry.tools.map((t) => t.name)).toEqual(["echo"]);
    const stuck = registry.diagnostics.find((d) => d.entry === "never_settles");
    expect(stuck).toMatchObject({ kind: "import-timed-out", package: "fixture-never-settles" });
    expect(stuck?.message).toBe("importing ./index.js#neverSettles did not finish within 0.2 s");
    expect(logs.join("\n")).toContain("did not finish within 0.2 s");
    // The other broken plugin is reported as before: the stuck one held nothing up.
    expect(registry.diagnostics.find((d) => d.entry === "explodes")?.kind).toBe("import-failed");
  });

  it("bounds a resource or prompt module's import the same way: one that never settles is skipped", async () => {
    const dir = path.join(nodeModules, "stuck-contributions");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({
        name: "stuck-contributions",
        version: "0.0.1",
        type: "module",
        toolroom: { resources: { stuck: "./index.js#stuck" }, prompts: { late: "./index.js#late" } },
      }),
    );
    fs.writeFileSync(path.join(dir, "index.js"), "await new Promise(() => {});\nexport const stuck = {};\nexport const late = {};\n");
    const registry = await buildRegistry(options({ importTimeoutMs: 200 }));
    expect(registry.tools.map((t) => t.name)).toEqual(["echo"]);
    expect(registry.diagnostics.filter((d) => d.package === "stuck-contributions").map((d) => [d.entry, d.kind, d.message])).toEqual([
      ["stuck", "import-timed-out", "importing ./index.js#stuck did not finish within 0.2 s"],
      ["late", "import-timed-out", "importing ./index.js#late did not finish within 0.2 s"],
    ]);
  });

  it("waits one bound for a stuck module however many entries name it, and a second build does not wait again (issue DD 3)", async () => {
    const bound = 1000;
    const dir = path.join(nodeModules, "stuck-everywhere");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({
        name: "stuck-everywhere",
        version: "0.0.1",
        type: "module",
        toolroom: { tools: { stuck_tool: "./index.js#tool" }, resources: { stuck: "./index.js#stuck" }, prompts: { late: "./index.js#late" } },
      }),
    );
    fs.writeFileSync(path.join(dir, "index.js"), "await new Promise(() => {});\nexport const tool = {};\nexport const stuck = {};\nexport const late = {};\n");
    /** Which comes first: the build, or a marker set `ms` after the build started. */
    const firstOf = async (build: Promise<unknown>, ms: number) =>
      Promise.race([build.then(() => "registry"), new Promise((resolve) => setTimeout(() => resolve("marker"), ms))]);
    // Entry after entry, each waiting its own bound, the three would take three bounds.
    const first = buildRegistry(options({ importTimeoutMs: bound }));
    expect(await firstOf(first, 2.5 * bound)).toBe("registry");
    expect((await first).diagnostics.map((d) => [d.entry, d.kind])).toEqual([
      ["stuck_tool", "import-timed-out"],
      ["stuck", "import-timed-out"],
      ["late", "import-timed-out"],
    ]);
    // A live reload of the same files: the import is the same one, still pending, long past its bound.
    const again = buildRegistry(options({ importTimeoutMs: bound }));
    expect(await firstOf(again, bound / 2)).toBe("registry");
    expect((await again).diagnostics.filter((d) => d.kind === "import-timed-out")).toHaveLength(3);
  });

  it("keeps the last good tool of an entry whose module fails to import again, marked stale, until a good version loads", async () => {
    const dir = path.join(nodeModules, "typo-plugin");
    const file = path.join(dir, "tools.js");
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "typo-plugin", version: "1.0.0", type: "module", toolroom: { tools: { greet: "./tools.js#greet" } } }),
    );
    const write = (code: string, at: number) => {
      fs.writeFileSync(file, code);
      fs.utimesSync(file, new Date(at), new Date(at));
    };
    const good = (text: string) =>
      `export const greet = { name: "greet", description: "Greet.", input: { jsonSchema: { type: "object" } }, execute: () => "${text}" };\n`;
    write(good("v1"), 1_000_000);
    const first = await buildRegistry(options());
    expect(first.get("greet")?.stale).toBeUndefined();

    write(`import { nothing } from "./no-such-file.js";\n${good("v2")}`, 2_000_000);
    const broken = await buildRegistry(options({ previous: first, now: () => new Date("2026-12-01T14:02:00") }));
    expect(broken.get("greet")?.stale).toEqual({
      since: new Date("2026-12-01T14:02:00").toISOString(),
      reason: expect.stringContaining("importing ./tools.js#greet failed"),
    });
    expect(await broken.get("greet")?.resolve(testContext()).execute({}, testContext())).toBe("v1");
    expect(broken.diagnostics).toEqual([expect.objectContaining({ kind: "import-failed", entry: "greet", keptLastGood: true })]);
    expect(registryJson(broken).greet?.stale?.reason).toContain("no-such-file");
    expect(registryText(broken)).toMatch(/^greet {2}\[typo-plugin\] \(stale since 14:02 because importing \.\/tools\.js#greet failed: /m);

    // Still broken on the next reload: stale since the first failure, not the latest.
    write(`export const greet = ;\n`, 3_000_000);
    const still = await buildRegistry(options({ previous: broken, now: () => new Date("2026-12-01T14:09:00") }));
    expect(still.get("greet")?.stale?.since).toBe(new Date("2026-12-01T14:02:00").toISOString());

    write(good("v3"), 4_000_000);
    const fixed = await buildRegistry(options({ previous: still }));
    expect(fixed.get("greet")?.stale).toBeUndefined();
    expect(fixed.diagnostics).toEqual([]);
    expect(await fixed.get("greet")?.resolve(testContext()).execute({}, testContext())).toBe("v3");
  });

  it("does not keep a tool whose package was removed or whose manifest entry went away", async () => {
    const previous = await buildRegistry(options({ pluginPaths: [SAMPLE] }));
    const without = await buildRegistry(options({ previous }));
    expect(without.get("sample_word_count")).toBeUndefined();
  });

  it("skips entries that are not tools", async () => {
    install("not-a-tool");
    const registry = await buildRegistry(options());
    expect(registry.diagnostics.map((d) => [d.kind, d.entry])).toEqual([
      ["not-a-tool", "just_a_string"],
      ["not-a-tool", "no_execute"],
    ]);
    expect(registry.diagnostics[1]?.message).toContain("execute");
  });

  it("skips a tool whose name differs from its manifest entry, naming both strings", async () => {
    install("name-mismatch");
    const registry = await buildRegistry(options());
    expect(registry.get("actual_name")).toBeUndefined();
    expect(registry.get("manifest_name")).toBeUndefined();
    expect(registry.diagnostics[0]?.kind).toBe("name-mismatch");
    expect(registry.diagnostics[0]?.message).toContain('"manifest_name"');
    expect(registry.diagnostics[0]?.message).toContain('"actual_name"');
  });

  it("fails start-up when two packages register the same name, naming both", async () => {
    install("collision-a", "collision-b");
    const error = await buildRegistry(options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryCollisionError);
    expect((error as Error).message).toContain("fixture-collision-a");
    expect((error as Error).message).toContain("fixture-collision-b");
    expect((error as Error).message).toContain('"same_name"');
    expect((error as Error).message).toContain('plugins: { disabled: ["fixture-collision-b"] }');
  });

  it("fails start-up when a plugin collides with a built-in", async () => {
    const echoPlugin = path.join(nodeModules, "echo-plugin");
    fs.mkdirSync(echoPlugin);
    fs.writeFileSync(path.join(echoPlugin, "package.json"), JSON.stringify({ name: "echo-plugin", type: "module", toolroom: { tools: { echo: "./i.js" } } }));
    fs.writeFileSync(path.join(echoPlugin, "i.js"), `export default { name: "echo", description: "x", input: { jsonSchema: {} }, execute: () => "" };`);
    await expect(buildRegistry(options())).rejects.toThrow(/"echo".*"toolroom".*"echo-plugin"/);
    // The hint is the exact line to add, naming the package (not the tool), and never the built-in.
    await expect(buildRegistry(options())).rejects.toThrow('add this line to toolroom.yaml: plugins: { disabled: ["echo-plugin"] }');
  });

  it("locates an error thrown while a plugin module runs from its stack", async () => {
    const dir = path.join(nodeModules, "throwing-plugin");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "throwing-plugin", type: "module", toolroom: { tools: { boom: "./i.js#boom" } } }));
    fs.writeFileSync(path.join(dir, "i.js"), `// one\n// two\nconst config = null;\nexport const boom = { limit: config.limit };\n`);
    const d = (await buildRegistry(options())).diagnostics[0];
    expect(d?.location).toMatchObject({ line: 4, column: 37 });
    expect(d?.hint).toContain("i.js:4:37");
    expect(diagnosticReport(d!)).toMatch(/at .*i\.js:4:37\n[\s\S]*> 4 \| export const boom[\s\S]*How to fix: Fix the error at .*i\.js:4:37/);
  });

  it("fails start-up when a built-in is broken", async () => {
    const broken = { ...echo, execute: undefined } as unknown as typeof echo;
    await expect(buildRegistry(options({ builtins: [{ tool: broken, file: "x.ts", exportName: "broken" }] }))).rejects.toBeInstanceOf(RegistryError);
  });

  it("finds scoped packages", async () => {
    const dir = path.join(nodeModules, "@acme", "tools");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "@acme/tools", version: "2.0.0", type: "module", toolroom: { tools: { acme_ping: "./i.js#ping" } } }),
    );
    fs.writeFileSync(
      path.join(dir, "i.js"),
      `export const ping = { name: "acme_ping", description: "Ping.", input: { jsonSchema: { type: "object" } }, execute: () => "pong" };`,
    );
    const registry = await buildRegistry(options());
    expect(registry.get("acme_ping")).toMatchObject({ sourcePackage: "@acme/tools", version: "2.0.0" });
  });

  it("does not import disabled packages, and marks disabled tools", async () => {
    install("broken-import", "slow-tools");
    const registry = await buildRegistry(options({ disabledPackages: ["fixture-broken-import"], isEnabled: (n) => n !== "thrower" }));
    expect(registry.diagnostics).toEqual([]);
    expect(registry.disabledPackages).toEqual(["fixture-broken-import"]);
    expect(registry.get("thrower")?.enabled).toBe(false);
    expect(registry.get("sleepy")?.enabled).toBe(true);
  });

  it("resolves factories per context", async () => {
    install("slow-tools");
    const registry = await buildRegistry(options());
    const tool = registry.get("factory_tool");
    const a = tool?.resolve(testContext({ chatId: "a" }));
    const b = tool?.resolve(testContext({ chatId: "b" }));
    expect(await a?.execute({}, testContext())).toBe("chat=a calls=1");
    expect(await a?.execute({}, testContext())).toBe("chat=a calls=2");
    expect(await b?.execute({}, testContext())).toBe("chat=b calls=1");
  });
});
