/**
 * Eval trials as jobs (ZW): one run of BENCH_TRIALS trials on a loopback model that answers 400 ms
 * after each request, taken by 1, 2, 3 and 4 `toolroom worker --concurrency 1` processes on one
 * PostgreSQL database (this process queues the runs and runs none: workers.inProcess 0). Workers are
 * started and connected before the clock starts; the clock runs from queueing the run to its end
 * (its last trial stored). Rounds alternate the order of the worker counts so machine load hits
 * them alike. Goals: 3 workers ≤ 0.55× the time of 1; 4 workers ≥ 3.3× the throughput of 1. The
 * database is created by `scripts/migrate.mjs deploy` and dropped at the end. Writes its own section
 * of bench/RESULTS.md (unless BENCH_LABEL is set).
 * Run: flock /tmp/toolroom-heavy.lock npx tsx bench/eval-workers.ts   (BENCH_TRIALS, BENCH_ROUNDS)
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startFakeOpenAI, textDeltas } from "@/lib/testing/openai-server";
import { loadAverage, writeResultsSection } from "./results-section";

// The eval service is `server-only`; Next loads it under the react-server condition, so this does too.
if (!process.execArgv.some((arg) => arg.includes("react-server"))) {
  const child = spawnSync(process.execPath, [...process.execArgv, "--conditions=react-server", ...process.argv.slice(1)], { stdio: "inherit" });
  process.exit(child.status ?? 1);
}

const TRIALS = Number(process.env.BENCH_TRIALS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const LATENCY_MS = 400;
const COUNTS = [1, 2, 3, 4];
const SERVER = "postgresql://postgres@127.0.0.1:5432/postgres";
const HEADING = "## Eval trials as jobs: 1–4 workers (bench/eval-workers.ts)";
const ROOT = path.resolve(import.meta.dirname, "..");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-bench-workers-"));
const name = `toolroom_bench_workers_${randomBytes(4).toString("hex")}`;
const url = new URL(SERVER);
url.pathname = `/${name}`;
const model = await startFakeOpenAI({ otherwise: { deltas: textDeltas("done", []), finish: "stop" }, delayMs: LATENCY_MS });
const source = path.join(dir, "src");
fs.mkdirSync(source);
// Cases × 2 trials = TRIALS; every trial is one model request.
const cases = Math.ceil(TRIALS / 2);
fs.writeFileSync(
  path.join(source, "bench.eval.yaml"),
  `name: bench\nmatrix: { models: [loopback], modes: [native], trials: 2 }\ncases:\n${Array.from(
    { length: cases },
    (_, i) => `  - { name: c${i}, prompt: say done ${i}, expect: { noCalls: true, answer: { contains: done } } }`,
  ).join("\n")}\n`,
);
const config = path.join(dir, "toolroom.yaml");
fs.writeFileSync(
  config,
  `sourceRoot: ${JSON.stringify(source)}\nrunsRoot: ${JSON.stringify(path.join(dir, "runs"))}\nllms:\n  offline: { provider: offline }\n  loopback: { provider: openai-compatible, baseURL: ${JSON.stringify(model.baseURL)}, model: fixed-latency, apiKey: bench-key-not-secret }\nworkers: { inProcess: 0 }\n`,
);
process.env.DATABASE_URL = url.toString();
process.env.TOOLROOM_CONFIG = config;
process.env.XDG_STATE_HOME = path.join(dir, "state");
execFileSync(process.execPath, [path.join(ROOT, "scripts/migrate.mjs"), "deploy"], { env: process.env, stdio: "pipe" });
const { setLoadedSettings } = await import("@/lib/settings");
const { loadSettings } = await import("@/lib/settings/load");
setLoadedSettings(loadSettings({ files: [], env: { TOOLROOM_CONFIG: config } }));
const evals = await import("@/lib/server/evals/eval-runs");

function startWorker(): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const child = spawn(process.execPath, [path.join(ROOT, "bin/toolroom.mjs"), "worker", "--concurrency", "1"], {
    cwd: dir,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let said = "";
  return new Promise((resolve, reject) => {
    child.stderr.on("data", (data: Buffer) => {
      said += data.toString();
      if (said.includes("taking eval trials")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`a worker exited ${code}:\n${said}`)));
  });
}

async function stopAll(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          w.removeAllListeners("exit");
          w.once("exit", () => resolve());
          w.kill("SIGTERM");
        }),
    ),
  );
}

/** Seconds from queueing a run to its end, with `count` workers connected. */
async function measure(count: number): Promise<number> {
  const workers = await Promise.all(Array.from({ length: count }, startWorker));
  try {
    const started = performance.now();
    const run = await evals.startEval("source:bench.eval.yaml", {});
    for (;;) {
      const now = (await evals.evalRuns()).find((r) => r.id === run.id)!;
      if (now.state !== "running") {
        if (now.state !== "done" || now.passed !== TRIALS) throw new Error(`bench: the run ended ${now.state} with ${now.passed}/${now.total} passed`);
        return (performance.now() - started) / 1000;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    await stopAll(workers);
  }
}

const seconds = new Map<number, number[]>(COUNTS.map((c) => [c, []]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...COUNTS].reverse() : COUNTS;
    for (const count of order) {
      const s = await measure(count);
      seconds.get(count)!.push(s);
      console.log(`round ${round + 1}: ${count} worker(s): ${s.toFixed(2)} s`);
    }
  }
} finally {
  await (await import("@/lib/server/jobs/trial-queue")).stopTrialWork(false);
  await model.close();
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  fs.rmSync(dir, { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const one = median(seconds.get(1)!);
const rows = COUNTS.map((c) => {
  const m = median(seconds.get(c)!);
  return `| ${c} | ${m.toFixed(2)} | ${(m / one).toFixed(2)}× | ${(one / m).toFixed(2)}× |`;
});
const three = median(seconds.get(3)!) / one;
const four = one / median(seconds.get(4)!);
const section = `${HEADING}

${new Date().toISOString().slice(0, 10)}, load average ${loadAverage()} (2 cores), ${TRIALS} trials of one ${LATENCY_MS} ms model request each,
${ROUNDS} rounds (median), each worker \`toolroom worker --concurrency 1\` on one PostgreSQL database.

| workers | wall s | time vs 1 | throughput vs 1 |
|---:|---:|---:|---:|
${rows.join("\n")}

Goals: 3 workers ≤ 0.55× the time of 1 — ${three.toFixed(2)}× (${three <= 0.55 ? "met" : "not met"}); 4 workers ≥ 3.3× the
throughput of 1 — ${four.toFixed(2)}× (${four >= 3.3 ? "met" : "not met"}).
`;
console.log(section);
if (!process.env.BENCH_LABEL) writeResultsSection(HEADING, section);
process.exit(0);
