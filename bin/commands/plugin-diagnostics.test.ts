import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolroom } from "@/lib/testing/cli";

let root: string;
let savedKey: string | undefined;

function plugin(name: string, tool: string, source: string): string {
  const dir = path.join(root, "plugins", name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name, version: "1.0.0", type: "module", toolroom: { tools: { [tool]: "./tools.js#tool" } } }),
  );
  fs.writeFileSync(path.join(dir, "tools.js"), source);
  return dir;
}

function config(file: string, yaml: string): string {
  const target = path.join(root, file);
  fs.writeFileSync(target, yaml);
  return target;
}

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-cli-plugins-")));
  // Line 17 has a stray comma at column 23, with lines after it (the old report counted wrong).
  const lines = [
    ...Array.from({ length: 16 }, (_, i) => `// ${i + 1}`),
    "const counts = { a: 1,, b: 2 };",
    ...Array.from({ length: 5 }, () => "export const tool = {};"),
  ];
  plugin("typo-plugin", "typo", `${lines.join("\n")}\n`);
  plugin("clash-plugin", "read_file", `export const tool = { name: "read_file", description: "x", input: { jsonSchema: {} }, execute: () => "" };\n`);
  savedKey = process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_API_KEY;
});
afterAll(() => {
  if (savedKey !== undefined) process.env.OPENAI_API_KEY = savedKey;
  fs.rmSync(root, { recursive: true, force: true });
});

describe("plugin diagnostics in the CLI", { timeout: 90_000 }, () => {
  it("toolroom tools prints a syntax error's file:line:column, its code, and How to fix", async () => {
    const settings = config("typo.yaml", `plugins: { paths: [${path.join(root, "plugins", "typo-plugin")}] }\n`);
    const run = await runToolroom(["--config", settings, "tools"], root);
    expect(run.code, run.stderr).toBe(0);
    const file = path.join(root, "plugins", "typo-plugin", "tools.js");
    expect(run.stderr).toContain(`at ${file}:17:23`);
    expect(run.stderr).toContain("> 17 | const counts = { a: 1,, b: 2 };");
    expect(run.stderr).toContain(`How to fix: Fix the error at ${file}:17:23, or remove the package.`);
  });

  it("toolroom doctor warns about the skipped entry and the model without a key", async () => {
    const settings = config(
      "doctor.yaml",
      `plugins: { paths: [${path.join(root, "plugins", "typo-plugin")}] }\nllms: { offline: { provider: offline }, gpt: { provider: openai, model: gpt-4o-mini } }\n`,
    );
    const run = await runToolroom(["--config", settings, "doctor"], root);
    expect(run.stdout).toMatch(/^warn {2}plugins {3}1 plugin entry skipped/m);
    expect(run.stdout).toContain('skipped typo-plugin@1.0.0 entry "typo" (import-failed)');
    expect(run.stdout).toMatch(/How to fix: Fix the error at .*tools\.js:17:23/);
    expect(run.stdout).toMatch(/^warn {2}models {4}1 configured model without an API key\n.*llms\.gpt \(openai\): no API key; set OPENAI_API_KEY/m);
  });

  it("a plugin whose import never settles: tools and doctor report it once the bound passes, and list the rest (issue DD 3)", async () => {
    // Nothing else keeps the command's process alive while it waits: the bound's timer has to.
    const stuck = path.resolve(import.meta.dirname, "../../examples/plugins/fixtures/never-settles");
    const settings = config("stuck.yaml", `plugins: { paths: [${JSON.stringify(stuck)}], importTimeoutSeconds: 0.5 }\n`);
    const tools = await runToolroom(["--config", settings, "tools"], root);
    expect(tools.stderr).not.toContain("unsettled top-level await");
    expect(tools.stderr).toContain('skipped fixture-never-settles@0.0.1 entry "never_settles" (import-timed-out)');
    expect(tools.stdout).toContain("read_file  [toolroom]");
    expect(tools.code).toBe(0);
    const doctor = await runToolroom(["--config", settings, "doctor"], root);
    expect(doctor.stdout).toMatch(/^warn {2}plugins {3}1 plugin entry skipped/m);
    expect(doctor.code, doctor.stderr).toBe(0);
  });

  it("a plugin clashing with a built-in stops with the exact line to add, naming the package", async () => {
    const settings = config("clash.yaml", `plugins: { paths: [${path.join(root, "plugins", "clash-plugin")}] }\n`);
    const run = await runToolroom(["--config", settings, "tools"], root);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('add this line to toolroom.yaml: plugins: { disabled: ["clash-plugin"] }');
  });
});
