import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isToolPart } from "@/lib/chat/history";
import { runToolroom, type CliRun } from "@/lib/testing/cli";
import { startFakeOpenAI } from "@/lib/testing/openai-server";

const API_KEY = "sk-test-ask-0123456789abcdef";

let root: string;
let config: string;
let provider: http.Server;

/**
 * `toolroom ask` as a person runs it, from an empty folder (no ./toolroom.yaml, no plugins) with
 * only the temp settings; stdin is closed, so there is no terminal to answer y/N.
 */
function toolroom(...args: string[]): Promise<CliRun> {
  return runToolroom(["--config", config, "ask", ...args], root);
}

async function askJson(...args: string[]): Promise<{ run: CliRun; messages: UIMessage[] }> {
  const run = await toolroom(...args, "--json");
  expect(run.code, run.stderr).toBe(0);
  return { run, messages: JSON.parse(run.stdout) as UIMessage[] };
}

function toolPartOf(messages: UIMessage[], type: string) {
  const part = messages.at(-1)?.parts.find((p) => isToolPart(p) && p.type === type);
  if (!part || !isToolPart(part)) throw new Error(`no ${type} part in ${JSON.stringify(messages)}`);
  return part;
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-ask-"));
  fs.mkdirSync(path.join(root, "src", "lib"), { recursive: true });
  fs.writeFileSync(path.join(root, "src", "lib", "alpha.ts"), "export const alpha = 1;\n");
  fs.writeFileSync(path.join(root, "src", "lib", "beta.ts"), "export const beta = 2;\n");
  fs.writeFileSync(path.join(root, "src", "README.md"), "# sample\n");
  // Its store set up beforehand: a first command on a fresh one says on stderr that it migrated it.
  execFileSync(process.execPath, [path.resolve("scripts/migrate.mjs"), "deploy"], { cwd: root, stdio: "pipe" });
  // A provider that refuses every request and echoes the key it was sent, as some proxies do.
  provider = http.createServer((req, res) => {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: `model not found (sent ${req.headers.authorization})`, type: "invalid_request_error" } }));
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  const { port } = provider.address() as AddressInfo;
  config = path.join(root, "settings.yaml");
  fs.writeFileSync(
    config,
    [
      `sourceRoot: ${JSON.stringify(path.join(root, "src"))}`,
      `runsRoot: ${JSON.stringify(path.join(root, "runs"))}`,
      "llms:",
      "  offline: { provider: offline }",
      `  refusing: { provider: openai-compatible, baseURL: "http://127.0.0.1:${port}/v1", model: nope, apiKey: ${API_KEY} }`,
      "tools:",
      "  run_terminal_command: { enabled: true, allowedCommands: [touch] }",
      "",
    ].join("\n"),
  );
});

afterAll(async () => {
  await new Promise((resolve) => provider.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

// Each case starts the CLI under tsx (seconds on a busy machine): more room than a unit test needs.
describe("toolroom ask", { timeout: 60_000 }, () => {
  it.each(["native", "text"])("--json --mode %s: the list_files call with the real listing, then the answer", async (mode) => {
    const { run, messages } = await askJson("list files in lib", "--mode", mode);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(toolPartOf(messages, "tool-list_files")).toMatchObject({ state: "output-available", input: { path: "lib" }, output: "lib/alpha.ts\nlib/beta.ts" });
    expect(messages.at(-1)?.parts.at(-1)).toMatchObject({ type: "text", text: expect.stringContaining("lib/alpha.ts\nlib/beta.ts") });
    expect(run.stderr).toBe("");
  });

  it("streams the answer on stdout and each call with its result on stderr", async () => {
    const run = await toolroom("list files in lib");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('→ list_files {"path":"lib"}\n← 2 lines\n');
    expect(run.stdout).toContain("I'll call `list_files` for this.\n");
    expect(run.stdout).toContain("Here is what `list_files` returned:\n\n```\nlib/alpha.ts\nlib/beta.ts\n```\n");
  });

  it("does not admit a call that needs confirmation when there is no terminal", async () => {
    const { messages } = await askJson("run `touch marker`");
    expect(fs.existsSync(path.join(root, "src", "marker"))).toBe(false);
    const part = toolPartOf(messages, "tool-run_terminal_command");
    expect(part).toMatchObject({
      state: "output-denied",
      input: { command: "touch marker" },
      approval: { approved: false, reason: expect.stringContaining("unsupervised") },
    });
    expect(messages.at(-1)?.metadata).toMatchObject({ calls: { [part.toolCallId]: { decision: { by: "unsupervised", decision: "not-admitted" } } } });
  });

  it("names the known models when --model is not one of them (exit 2)", async () => {
    const run = await toolroom("list files in lib", "--model", "nope");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain('no model named "nope" in settings llms (known: offline, refusing)');
  });

  it("reports a provider error on stderr with the key masked (exit 1)", async () => {
    const run = await toolroom("hello", "--model", "refusing");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^toolroom: Provider error \(refusing\.chat\/nope\): 400: .*model not found/m);
    expect(run.stderr).not.toContain(API_KEY);
  });

  it("closes a call the provider's broken reply left open as not run (exit 1)", async () => {
    const cut = await startFakeOpenAI();
    try {
      cut.reply({
        deltas: [{ tool_calls: [{ index: 0, id: "call_cut", type: "function", function: { name: "list_files", arguments: '{"pa' } }] }],
        then: "cut",
      });
      const cutConfig = path.join(root, "cut.yaml");
      const llm = `{ provider: openai-compatible, baseURL: "${cut.baseURL}", model: cut-1 }`;
      fs.writeFileSync(cutConfig, `sourceRoot: ${JSON.stringify(path.join(root, "src"))}\nllms:\n  offline: { provider: offline }\n  cut: ${llm}\n`);
      const run = await runToolroom(["--config", cutConfig, "ask", "list files", "--model", "cut", "--json"], root);
      expect(run.code, run.stderr).toBe(1);
      const messages = JSON.parse(run.stdout) as UIMessage[];
      expect(toolPartOf(messages, "tool-list_files")).toMatchObject({
        state: "output-error",
        errorText: expect.stringMatching(/^Not run: the provider's reply broke off/),
      });
    } finally {
      await cut.close();
    }
  });

  it("says the provider refused (content_filter) and exits 4, not 0", async () => {
    const filtered = await startFakeOpenAI();
    try {
      filtered.reply({ deltas: [{ content: "I can" }], finish: "content_filter" });
      const filteredConfig = path.join(root, "filtered.yaml");
      const llm = `{ provider: openai-compatible, baseURL: "${filtered.baseURL}", model: filter-1 }`;
      fs.writeFileSync(filteredConfig, `sourceRoot: ${JSON.stringify(path.join(root, "src"))}\nllms:\n  offline: { provider: offline }\n  filtered: ${llm}\n`);
      const run = await runToolroom(["--config", filteredConfig, "ask", "hello", "--model", "filtered"], root);
      expect(run.code, run.stderr).toBe(4);
      expect(run.stderr).toMatch(/^toolroom: Refused: .*declined to answer/m);
    } finally {
      await filtered.close();
    }
  });
});
