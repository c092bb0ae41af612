/**
 * Tools page benchmark: 500 tools from 50 generated plugin packages (10 tools each, JSON Schema
 * inputs, so they need no node_modules) in a temp dir, registered through `plugins.paths` in a temp
 * TOOLROOM_CONFIG. Starts the *built* server (`next start`, the dist folder from NEXT_DIST_DIR), warms
 * it up, then times the `/tools` server render (full HTML) against `GET /api/tools` (the same
 * registry as JSON: the baseline) — medians of N sequential requests — and one tool's page.
 * Appends a `## Tools page` section to bench/RESULTS.md.
 * Run: npx tsx bench/tools-page.ts   (after `NEXT_DIST_DIR=.next-tools next build`)
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { nextStartArgs } from "../scripts/next-env.mjs";

const PACKAGES = 50;
const PER_PACKAGE = 10;
const WARMUP = 5;
const N = 25;
const TARGET_MS = 300;

function generate(root: string): string[] {
  const dirs: string[] = [];
  for (let p = 0; p < PACKAGES; p++) {
    const dir = path.join(root, `bench-plugin-${p}`);
    fs.mkdirSync(dir, { recursive: true });
    const tools: Record<string, string> = {};
    const lines: string[] = [];
    for (let t = 0; t < PER_PACKAGE; t++) {
      const name = `bench_${p}_${t}`;
      const exportName = `tool${t}`;
      tools[name] = `./index.js#${exportName}`;
      lines.push(`export const ${exportName} = {
  name: ${JSON.stringify(name)},
  description: "Benchmark tool ${t} of package ${p}: counts things.\\n\\nArgs: text — the input; limit — at most this many.\\nReturns one line.",
  input: { jsonSchema: { type: "object", properties: { text: { type: "string", description: "The input" }, limit: { type: "integer", minimum: 1, maximum: 100, default: 10 }, mode: { enum: ["fast", "slow"] } }, required: ["text"] } },
  readonly: ${t % 3 !== 0},
  execute: async ({ text }) => "n=" + text.length,
};`);
    }
    fs.writeFileSync(path.join(dir, "index.js"), `${lines.join("\n")}\n`);
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `bench-plugin-${p}`, version: "1.0.0", type: "module", toolroom: { tools } }));
    dirs.push(dir);
  }
  return dirs;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const address = s.address();
      s.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function waitFor(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

async function timeGet(url: string): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const r = await fetch(url);
  const body = await r.text();
  const ms = performance.now() - t0;
  if (!r.ok) throw new Error(`GET ${url}: ${r.status}`);
  return { ms, bytes: body.length };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function measure(url: string): Promise<{ median: number; p90: number; bytes: number }> {
  for (let i = 0; i < WARMUP; i++) await timeGet(url);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < N; i++) {
    const r = await timeGet(url);
    times.push(r.ms);
    bytes = r.bytes;
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { median: median(times), p90: sorted[Math.floor(sorted.length * 0.9)] ?? NaN, bytes };
}

const distDir = process.env.NEXT_DIST_DIR ?? ".next";
if (!fs.existsSync(path.join(distDir, "BUILD_ID"))) {
  console.error(`no build in ${distDir}: run \`NEXT_DIST_DIR=${distDir} npx next build\` first`);
  process.exit(2);
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-tools-page-"));
let server: ChildProcess | undefined;
try {
  const dirs = generate(path.join(root, "plugins"));
  const config = path.join(root, "toolroom.yaml");
  fs.writeFileSync(
    config,
    `plugins:\n  paths:\n${dirs.map((d) => `    - ${JSON.stringify(d)}`).join("\n")}\nrunsRoot: ${JSON.stringify(path.join(root, "runs"))}\n`,
  );
  const port = await freePort();
  const env = {
    ...process.env,
    TOOLROOM_CONFIG: config,
    DATABASE_URL: `file:${path.join(root, "bench.db")}`,
    XDG_CONFIG_HOME: path.join(root, "xdg"),
    NEXT_DIST_DIR: distDir,
    PORT: String(port),
  };
  const migrate = spawnSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env, stdio: "ignore" });
  if (migrate.status !== 0) throw new Error("migration failed");
  const started = performance.now();
  server = spawn(process.execPath, nextStartArgs(process.cwd(), "-H", "127.0.0.1", "-p", String(port)), {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/tools`, server, 120_000);
  const startMs = performance.now() - started;

  const api = (await (await fetch(`${base}/api/tools`)).json()) as { tools: Record<string, unknown> };
  const registered = Object.keys(api.tools).length;
  const plugins = Object.keys(api.tools).filter((n) => n.startsWith("bench_")).length;
  if (plugins !== PACKAGES * PER_PACKAGE) throw new Error(`registered ${plugins} bench tools, expected ${PACKAGES * PER_PACKAGE}`);

  const json = await measure(`${base}/api/tools`);
  const page = await measure(`${base}/tools`);
  const one = await measure(`${base}/tools/bench_7_3`);
  const ratio = page.median / json.median;
  const pass = page.median < TARGET_MS;
  const lines = [
    `tools: ${registered} (${plugins} from ${PACKAGES} generated plugin packages), node ${process.version}, ${os.cpus().length} cpus, load ${os.loadavg()[0]?.toFixed(1)}`,
    `server start to first /api/tools: ${(startMs / 1000).toFixed(1)} s`,
    `GET /api/tools (baseline): median ${json.median.toFixed(1)} ms, p90 ${json.p90.toFixed(1)} ms, ${(json.bytes / 1024).toFixed(0)} KB`,
    `GET /tools (server render): median ${page.median.toFixed(1)} ms, p90 ${page.p90.toFixed(1)} ms, ${(page.bytes / 1024).toFixed(0)} KB; ${ratio.toFixed(2)}× the JSON; target < ${TARGET_MS} ms: ${pass ? "pass" : "FAIL"}`,
    `GET /tools/bench_7_3 (one tool, highlighted source): median ${one.median.toFixed(1)} ms, p90 ${one.p90.toFixed(1)} ms`,
  ];
  console.log(lines.join("\n"));

  const section = `
## Tools page

\`npx tsx bench/tools-page.ts\` (built server, \`NEXT_DIST_DIR=${distDir}\`): ${PACKAGES} generated plugin packages × ${PER_PACKAGE}
tools (JSON Schema inputs) registered through \`plugins.paths\` in a temp \`TOOLROOM_CONFIG\`; \`next start\`;
${WARMUP} warm-up requests, then the median of ${N} sequential requests, on ${os.cpus().length} CPUs (load ≈ ${os.loadavg()[0]?.toFixed(1)}), node ${process.version}.
Baseline: \`GET /api/tools\`, the same registry as JSON (no React render).

| Request | Median | p90 | Size | vs baseline |
| --- | ---: | ---: | ---: | ---: |
| \`GET /api/tools\` (baseline) | ${json.median.toFixed(1)} ms | ${json.p90.toFixed(1)} ms | ${(json.bytes / 1024).toFixed(0)} KB | 1× |
| \`GET /tools\` (${registered} tools, server render) | ${page.median.toFixed(1)} ms | ${page.p90.toFixed(1)} ms | ${(page.bytes / 1024).toFixed(0)} KB | ${ratio.toFixed(2)}× |
| \`GET /tools/bench_7_3\` (one tool, shiki) | ${one.median.toFixed(1)} ms | ${one.p90.toFixed(1)} ms | ${(one.bytes / 1024).toFixed(0)} KB | ${(one.median / json.median).toFixed(2)}× |

Target: \`/tools\` < ${TARGET_MS} ms — ${pass ? "met" : "**missed**"}.
`;
  fs.appendFileSync(path.join("bench", "RESULTS.md"), section);
  if (!pass) process.exitCode = 1;
} finally {
  server?.kill("SIGTERM");
  fs.rmSync(root, { recursive: true, force: true });
}
