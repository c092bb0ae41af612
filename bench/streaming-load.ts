/**
 * Page and API requests while many answers stream (issue #29.1): STREAMS chats at once, each a
 * reply of DELTAS one-word deltas paced at RATE a second (a fast local model), while GET /api/tools
 * and GET /tools are timed one after the other until the streams end; the same requests idle first.
 * Two servers side by side, A (a baseline checkout with its own build) and B (this checkout's
 * build), each on its own throwaway database, one loopback OpenAI-compatible provider
 * (lib/testing/openai-server.ts) for both. The loads take turns (A, B, then B, A, …), so a burst of
 * other work on this shared machine hits both alike; read the B / A ratios.
 *
 * Run (after building both):
 *   A_DIR=<baseline checkout, built into its .next> NEXT_DIST_DIR=<this build> npx tsx bench/streaming-load.ts
 * STREAMS (default 30), DELTAS (3000), RATE (300), ROUNDS (default 1: each server loaded twice);
 * A_DIST: A's build folder (default .next); CPU_PROF=<dir>: B runs under --cpu-prof and writes its
 * profile there as it stops; B_NODE_OPTIONS: more Node options for B. Both start as `npm start`
 * does (scripts/next-env.mjs nextStartArgs: on Node 22, --experimental-async-context-frame).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startFakeOpenAI, type ChunkDelta } from "@/lib/testing/openai-server";
import { nextStartArgs } from "../scripts/next-env.mjs";

const STREAMS = Number(process.env.STREAMS ?? 30);
const DELTAS = Number(process.env.DELTAS ?? 3000);
const RATE = Number(process.env.RATE ?? 300);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const IDLE_PROBES = 15;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const provider = await startFakeOpenAI();
const deltas: ChunkDelta[] = Array.from({ length: DELTAS }, (_, i) => ({ content: `w${i} ` }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const roots: string[] = [];
const servers: ChildProcess[] = [];

/** `next start` of the build in `cwd`/`dist` on a fresh database. */
async function startServer(cwd: string, dist: string, { profile, nodeOptions = "" }: { profile?: string; nodeOptions?: string } = {}): Promise<string> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-streaming-load-"));
  roots.push(root);
  const config = path.join(root, "toolroom.yaml");
  const llms = { loop: { provider: "openai-compatible", baseURL: provider.baseURL, model: "loop" } };
  fs.writeFileSync(config, JSON.stringify({ sourceRoot: root, runsRoot: path.join(root, "runs"), llms, chat: { llm: { type: "ref", ref: "loop" } } }));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TOOLROOM_CONFIG: config,
    DATABASE_URL: `file:${path.join(root, "bench.db")}`,
    XDG_CONFIG_HOME: path.join(root, "xdg"),
    XDG_STATE_HOME: path.join(root, "state"),
    NEXT_DIST_DIR: dist,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} ${nodeOptions} ${profile ? `--cpu-prof --cpu-prof-dir=${profile}` : ""}`.trim(),
  };
  if (spawnSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env, cwd, stdio: "ignore" }).status !== 0) throw new Error(`migration failed in ${cwd}`);
  const port = await freePort();
  servers.push(spawn(process.execPath, nextStartArgs(cwd, "-H", "127.0.0.1", "-p", String(port)), { env, cwd, stdio: "ignore" }));
  const base = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 120_000; Date.now() < until; await sleep(250)) {
    const up = await fetch(`${base}/api/tools`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return base;
  }
  throw new Error(`${cwd}: next start did not answer`);
}

let resets = 0;
async function timed(url: string): Promise<number> {
  const started = performance.now();
  // A kept-alive connection the server closed as it was reused is reset: counted, sent again.
  const response = await fetch(url).catch(() => {
    resets++;
    return fetch(url);
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return performance.now() - started;
}

let sent = 0;
/** One chat answered in full: ms to its first text delta, and to its end. */
async function stream(base: string): Promise<{ first: number; total: number }> {
  const id = `load${++sent}`;
  const body = { id, message: { id: `u${id}`, role: "user", parts: [{ type: "text", text: "go" }] }, trigger: "submit-message", toolMode: "native" };
  const started = performance.now();
  const response = await fetch(`${base}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`chat: ${response.status} ${await response.text()}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  let first = NaN;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    if (!Number.isNaN(first)) continue;
    seen += decoder.decode(next.value, { stream: true });
    if (seen.includes('"type":"text-delta"')) first = performance.now() - started;
  }
  if (Number.isNaN(first)) throw new Error("a chat streamed no text");
  return { first, total: performance.now() - started };
}

interface Sample {
  api: number[];
  page: number[];
  first: number[];
  total: number[];
  /** Probes over 500 ms: when they were sent (ms after the chats were), and how long they took. */
  slow: { at: number; ms: number }[];
}
const samples = (): Sample => ({ api: [], page: [], first: [], total: [], slow: [] });

/** STREAMS chats at once on `base`; the probes run one after the other until the last chat ended. */
async function load(base: string, into: Sample): Promise<void> {
  provider.reply(...Array.from({ length: STREAMS }, () => ({ deltas, finish: "stop" as const, perSecond: RATE })));
  let done = false;
  const chats = Promise.all(Array.from({ length: STREAMS }, () => stream(base))).finally(() => {
    done = true;
  });
  const started = performance.now();
  const probe = async (url: string, into: number[]) => {
    const at = performance.now() - started;
    const took = await timed(url);
    into.push(took);
    if (took > 500) slow.push({ at, ms: took });
  };
  const slow = into.slow;
  await sleep(300);
  while (!done) {
    await probe(`${base}/api/tools`, into.api);
    if (!done) await probe(`${base}/tools`, into.page);
  }
  for (const { first, total } of await chats) {
    into.first.push(first);
    into.total.push(total);
  }
}

const quantile = (xs: number[], q: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]! : NaN);
const ms = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`);

try {
  const dist = process.env.NEXT_DIST_DIR ?? ".next";
  const a = await startServer(process.env.A_DIR ?? "", process.env.A_DIST ?? ".next");
  const b = await startServer(process.cwd(), dist, { profile: process.env.CPU_PROF, nodeOptions: process.env.B_NODE_OPTIONS });
  const idle = { A: samples(), B: samples() };
  const loaded = { A: samples(), B: samples() };
  for (const [name, base] of [
    ["A", a],
    ["B", b],
  ] as const) {
    for (let i = 0; i < 3; i++) await Promise.all([timed(`${base}/api/tools`), timed(`${base}/tools`)]);
    for (let i = 0; i < IDLE_PROBES; i++) {
      idle[name].api.push(await timed(`${base}/api/tools`));
      idle[name].page.push(await timed(`${base}/tools`));
      // A short answer, unpaced: the first token's time with nothing else running.
      provider.reply({ deltas: deltas.slice(0, 5), finish: "stop" });
      const { first } = await stream(base);
      if (i > 0) idle[name].first.push(first);
    }
  }
  const loadAtStart = os.loadavg()[0]!.toFixed(1);
  const order: ("A" | "B")[] = [];
  for (let round = 0; round < ROUNDS; round++) order.push(...(["A", "B", "B", "A"] as const));
  for (const name of order) {
    await load(name === "A" ? a : b, loaded[name]);
    await sleep(1000);
  }
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, load average ${loadAtStart} → ${os.loadavg()[0]!.toFixed(1)}; ${STREAMS} streams × ${DELTAS} deltas at ${RATE}/s, each server loaded ${order.length / 2}×`,
  );
  console.log("| | A p50 | A p95 | B p50 | B p95 | B / A (p95) |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  const row = (label: string, pick: (s: Sample) => number[], set: typeof idle) => {
    const [pa, pb] = [pick(set.A), pick(set.B)];
    console.log(
      `| ${label} | ${ms(quantile(pa, 0.5))} | ${ms(quantile(pa, 0.95))} | ${ms(quantile(pb, 0.5))} | ${ms(quantile(pb, 0.95))} | ${(quantile(pb, 0.95) / quantile(pa, 0.95)).toFixed(2)} |`,
    );
  };
  row("GET /api/tools, idle", (s) => s.api, idle);
  row("GET /tools, idle", (s) => s.page, idle);
  row(`GET /api/tools, ${STREAMS} streams`, (s) => s.api, loaded);
  row(`GET /tools, ${STREAMS} streams`, (s) => s.page, loaded);
  row("first text delta, idle", (s) => s.first, idle);
  row("first text delta, under load", (s) => s.first, loaded);
  row(`whole answer (${(DELTAS / RATE).toFixed(0)} s paced)`, (s) => s.total, loaded);
  for (const name of ["A", "B"] as const)
    console.log(`${name} probes over 500 ms (sent at → took): ${loaded[name].slow.map((p) => `${ms(p.at)} → ${ms(p.ms)}`).join(", ") || "none"}`);
  console.log(
    `probes under load: A ${loaded.A.api.length + loaded.A.page.length}, B ${loaded.B.api.length + loaded.B.page.length}; connections reset and retried: ${resets}`,
  );
} finally {
  // A profiled server writes its profile as it exits: asked to stop, not killed.
  if (process.env.CPU_PROF) {
    const profiled = servers.at(-1)!;
    profiled.kill("SIGTERM");
    await new Promise((resolve) => profiled.once("exit", resolve));
  }
  for (const server of servers) server.kill("SIGKILL");
  await provider.close();
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
}
