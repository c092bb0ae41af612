/**
 * The chat route's time to the first text delta, two servers side by side: A (a baseline checkout
 * with its own build, or this one with other settings) and B (this checkout's build), each on its
 * own throwaway database with a seeded 500-message chat, one loopback OpenAI-compatible provider
 * for both. Requests take turns (provider directly, A new chat, B new chat, A 500 messages, B 500
 * messages), so a burst of other load on this shared machine slows both sides alike; the ratio
 * B / A is the figure to read.
 *
 * Run (after building both):
 *   A_DIR=<baseline checkout, built into its .next> NEXT_DIST_DIR=<this build> npx tsx bench/chat-route-ab.ts
 *   A_SAME=1 B_TRACES_OFF=1 NEXT_DIST_DIR=<this build> npx tsx bench/chat-route-ab.ts   (tracing on vs off)
 *   A_SAME=1 B_NODE_OPTIONS=--experimental-async-context-frame …                        (a Node flag on B)
 * ROUNDS (default 30).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { longChatMessages, seedChat } from "@/lib/testing/long-chat";
import { nextStartArgs } from "../scripts/next-env.mjs";

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const FIRST_WORD = "Zebrafirst";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Five words at once, the first one known: the time to it is the route's overhead plus the provider's own. */
const provider = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const { model } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { model: string };
    const event = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id: "ab", object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(event({ role: "assistant", content: "" }, null));
    for (let i = 0; i < 5; i++) res.write(event({ content: i === 0 ? `${FIRST_WORD} ` : `w${i} ` }, null));
    res.write(event({}, "stop"));
    res.end("data: [DONE]\n\n");
  });
});
await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
const providerURL = `http://127.0.0.1:${(provider.address() as net.AddressInfo).port}/v1`;

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

/** `next start` of the build in `cwd`/`dist` on a fresh database holding a 500-message chat "long". */
async function startServer(cwd: string, dist: string, settings: object, nodeOptions: string | undefined): Promise<string> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-route-ab-"));
  roots.push(root);
  const config = path.join(root, "toolroom.yaml");
  const llms = { loop: { provider: "openai-compatible", baseURL: providerURL, model: "loop" } };
  fs.writeFileSync(
    config,
    JSON.stringify({ sourceRoot: root, runsRoot: path.join(root, "runs"), llms, chat: { llm: { type: "ref", ref: "loop" } }, ...settings }),
  );
  const dbFile = path.join(root, "bench.db");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TOOLROOM_CONFIG: config,
    DATABASE_URL: `file:${dbFile}`,
    XDG_CONFIG_HOME: path.join(root, "xdg"),
    NEXT_DIST_DIR: dist,
  };
  if (nodeOptions) env.NODE_OPTIONS = nodeOptions;
  if (spawnSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env, cwd, stdio: "ignore" }).status !== 0) throw new Error(`migration failed in ${cwd}`);
  seedChat(dbFile, { id: "long", title: "500 messages", modelRef: "loop" }, longChatMessages("long", 500));
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

/** Milliseconds from sending to the first chunk that contains `marker`; the body is read to its end. */
async function timeToFirst(url: string, body: unknown, marker: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  let first = NaN;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    if (!Number.isNaN(first)) continue;
    seen += decoder.decode(next.value, { stream: true });
    if (seen.includes(marker)) first = performance.now() - started;
  }
  if (Number.isNaN(first)) throw new Error(`${url}: no "${marker}" in the answer`);
  return first;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const dist = process.env.NEXT_DIST_DIR ?? ".next";
  const a = process.env.A_SAME ? await startServer(process.cwd(), dist, {}, undefined) : await startServer(process.env.A_DIR ?? "", ".next", {}, undefined);
  const b = await startServer(process.cwd(), dist, process.env.B_TRACES_OFF ? { telemetry: { traces: false } } : {}, process.env.B_NODE_OPTIONS);
  let sent = 0;
  const route = (base: string, chatId: string) =>
    timeToFirst(
      `${base}/api/chat`,
      { id: chatId, message: { id: `u${++sent}`, role: "user", parts: [{ type: "text", text: "hi" }] }, trigger: "submit-message", toolMode: "native" },
      '"type":"text-delta"',
    );
  const jobs: [string, () => Promise<number>][] = [
    [
      "provider",
      () => timeToFirst(`${providerURL}/chat/completions`, { model: "loop", stream: true, messages: [{ role: "user", content: "hi" }] }, FIRST_WORD),
    ],
    ["A new chat", () => route(a, `new${sent}`)],
    ["B new chat", () => route(b, `new${sent}`)],
    ["A 500 messages", () => route(a, "long")],
    ["B 500 messages", () => route(b, "long")],
  ];
  for (let i = 0; i < 3; i++) for (const [, job] of jobs) await job();
  const loadAtStart = os.loadavg()[0]!.toFixed(1);
  const times = new Map<string, number[]>(jobs.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < jobs.length; k++) {
      const [name, job] = jobs[(round + k) % jobs.length]!;
      times.get(name)!.push(await job());
      await sleep(20);
    }
  }
  const direct = median(times.get("provider")!);
  const over = (name: string) => median(times.get(name)!) - direct;
  console.log(
    `node ${process.version}, load average ${loadAtStart} → ${os.loadavg()[0]!.toFixed(1)}, ${ROUNDS} rounds; provider directly ${direct.toFixed(1)} ms`,
  );
  console.log("| first text delta, over the provider | A | B | B / A |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const chat of ["new chat", "500 messages"])
    console.log(
      `| ${chat} | ${over(`A ${chat}`).toFixed(1)} ms | ${over(`B ${chat}`).toFixed(1)} ms | ${(over(`B ${chat}`) / over(`A ${chat}`)).toFixed(2)} |`,
    );
} finally {
  for (const server of servers) server.kill("SIGKILL");
  provider.close();
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
}
