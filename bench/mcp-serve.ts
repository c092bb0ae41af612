// What serving a tool over MCP (stdio) adds to a call: the same read_file call through
// `toolroom mcp` and the official SDK client, against `invoke` in this process, interleaved.
// Run: npx tsx bench/mcp-serve.ts
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { createToolContext } from "@/lib/server/runtime/tool-context";
import { cliEnv, TOOLROOM_BIN } from "@/lib/testing/cli";
import { setLoadedSettings } from "@/lib/settings";
import { loadSettings } from "@/lib/settings/load";
import { invoke } from "@/lib/tools/invoke";

const ROUNDS = 300;
const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-bench-mcp-"));
fs.writeFileSync(path.join(root, "file.txt"), "line\n".repeat(200));
const config = path.join(root, "toolroom.yaml");
fs.writeFileSync(config, `sourceRoot: ${root}\n`);
const env = cliEnv(root);

const loaded = loadSettings({ configPath: config, env, cwd: root });
setLoadedSettings(loaded);
const registry = await loadRegistry({ settings: loaded.settings, log: () => {} });
const tool = registry.get("read_file")!.resolve(createToolContext({ settings: loaded.settings, toolName: "read_file" }));
const input = { path: "file.txt" };

const client = new Client({ name: "bench", version: "0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [TOOLROOM_BIN, "--config", config, "mcp"], env, stderr: "ignore" }));

const direct: number[] = [];
const served: number[] = [];
for (let i = 0; i < ROUNDS + 20; i++) {
  let t = performance.now();
  const a = await invoke(tool, input, createToolContext({ settings: loaded.settings, toolName: "read_file" }));
  const d = performance.now() - t;
  t = performance.now();
  const b = await client.callTool({ name: "read_file", arguments: input });
  const s = performance.now() - t;
  if (a.isError || b.isError) throw new Error("read_file failed");
  // The first calls warm both paths (JIT, file cache); they are not counted.
  if (i >= 20) {
    direct.push(d);
    served.push(s);
  }
}
await client.close();
await registry.close?.();
fs.rmSync(root, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
console.log(`read_file via invoke (in process): median ${median(direct).toFixed(2)} ms`);
console.log(`read_file via toolroom mcp (stdio, SDK client): median ${median(served).toFixed(2)} ms`);
console.log(`added by MCP: ${(median(served) - median(direct)).toFixed(2)} ms median (target ≤ 5 ms); ratio ${(median(served) / median(direct)).toFixed(2)}`);
