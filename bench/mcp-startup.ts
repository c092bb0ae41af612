// Registry start-up with two stdio MCP servers (server-filesystem on a temp folder, and
// server-everything) against the same registry without them, in one script: loadRegistry from an
// empty folder (built-ins only), then close(). Medians of RUNS after a warm-up of each.
// Target: start-up with the two servers ≤ 1.5 s. Run: npx tsx bench/mcp-startup.ts [--runs N]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { settingsSchema } from "@/lib/settings/schema";

const TARGET_MS = 1500;
const runsFlag = process.argv.indexOf("--runs");
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 7;
const MODULES = path.resolve(import.meta.dirname, "../node_modules/@modelcontextprotocol");

const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-bench-mcp-"));
const shared = path.join(root, "shared");
fs.mkdirSync(shared);
fs.writeFileSync(path.join(shared, "a.txt"), "a\n");

const without = settingsSchema.parse({});
const withServers = settingsSchema.parse({
  mcpServers: {
    fs: { command: process.execPath, args: [path.join(MODULES, "server-filesystem/dist/index.js"), shared], prefix: "fs_" },
    everything: { command: process.execPath, args: [path.join(MODULES, "server-everything/dist/index.js"), "stdio"], prefix: "ev_" },
  },
});

interface Sample {
  startMs: number;
  closeMs: number;
  tools: number;
}

async function once(settings: typeof without): Promise<Sample> {
  let started = performance.now();
  const registry = await loadRegistry({ settings, cwd: root, log: () => {} });
  const startMs = performance.now() - started;
  const failed = registry.diagnostics.filter((d) => d.kind === "source-failed");
  if (failed.length) throw new Error(`a server failed: ${failed.map((d) => d.message).join("; ")}`);
  started = performance.now();
  await registry.close?.();
  return { startMs, closeMs: performance.now() - started, tools: registry.tools.length };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

await once(without);
await once(withServers);
const base: Sample[] = [];
const mcp: Sample[] = [];
// Interleaved, so a burst of load on the shared machine hits both sides alike.
for (let i = 0; i < RUNS; i++) {
  base.push(await once(without));
  mcp.push(await once(withServers));
}

const row = (label: string, samples: Sample[]) => {
  const start = samples.map((s) => s.startMs);
  return `${label.padEnd(34)} ${String(samples[0]?.tools ?? 0).padStart(5)} tools  start median ${median(start).toFixed(0).padStart(5)} ms (min ${Math.min(...start).toFixed(0)}, max ${Math.max(...start).toFixed(0)})  close median ${median(samples.map((s) => s.closeMs)).toFixed(0)} ms`;
};
const mcpMedian = median(mcp.map((s) => s.startMs));
console.log(
  `node ${process.version}, ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}, ${RUNS} runs each`,
);
console.log(row("registry without MCP servers", base));
console.log(row("registry with fs + everything (stdio)", mcp));
console.log(`cost of the two servers: ${(mcpMedian - median(base.map((s) => s.startMs))).toFixed(0)} ms`);
console.log(`start-up with two stdio servers: ${mcpMedian.toFixed(0)} ms (target ≤ ${TARGET_MS} ms: ${mcpMedian <= TARGET_MS ? "pass" : "FAIL"})`);
fs.rmSync(root, { recursive: true, force: true });
