import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, useTempDatabase } from "@/lib/testing/approvals-harness";
import { TOOLROOM_BIN } from "@/lib/testing/cli";
import { startFakeOpenAI, textDeltas, type FakeOpenAIServer } from "@/lib/testing/openai-server";

// Eval trials as pg-boss jobs on a real PostgreSQL (this file runs in the storage-pg project only):
// runs queued here, taken by real `toolroom worker` processes, one of them killed -9 mid-trial.
const dir = useTempDatabase("toolroom-workers-");
const source = path.join(dir, "src");
const config = path.join(dir, "toolroom.yaml");
let model: FakeOpenAIServer;
const workers: ChildProcess[] = [];

let evals: typeof import("@/lib/server/evals/eval-runs");

beforeAll(async () => {
  // A model that always answers "done", 300 ms after each request: trials last long enough to be
  // caught running, and the cases pass only if each trial's answer came back whole.
  model = await startFakeOpenAI({ otherwise: { deltas: textDeltas("done", []), finish: "stop" }, delayMs: 300 });
  fs.mkdirSync(path.join(source, "suites"), { recursive: true });
  fs.writeFileSync(
    path.join(source, "suites", "team.eval.yaml"),
    `name: team
matrix: { models: [loopback], modes: [native], trials: 3 }
cases:
${["a", "b", "c", "d"].map((c) => `  - name: ${c}\n    prompt: say done (${c})\n    expect: { noCalls: true, answer: { contains: done } }`).join("\n")}
`,
  );
  fs.writeFileSync(
    config,
    `sourceRoot: ${JSON.stringify(source)}
runsRoot: ${JSON.stringify(path.join(dir, "runs"))}
llms:
  offline: { provider: offline }
  loopback: { provider: openai-compatible, baseURL: ${JSON.stringify(model.baseURL)}, model: fixed-latency, apiKey: none }
workers: { inProcess: 0 }
`,
  );
  process.env.TOOLROOM_CONFIG = config;
  await startServer({ TOOLROOM_CONFIG: config });
  evals = await import("@/lib/server/evals/eval-runs");
});

afterAll(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  const { stopTrialWork } = await import("@/lib/server/jobs/trial-queue");
  await stopTrialWork(false);
  await model.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The test's own environment without its TOOLROOM_* variables (the test engine's switch), with the test's settings. */
function workerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TOOLROOM_CONFIG: config };
  for (const name of Object.keys(env)) if (name.startsWith("TOOLROOM_") && name !== "TOOLROOM_CONFIG") delete env[name];
  return env;
}

/** A `toolroom worker --concurrency 1` of its own; resolves once it says it is taking trials. */
function startWorker(): Promise<ChildProcess> {
  const env = workerEnv();
  const child = spawn(process.execPath, [TOOLROOM_BIN, "worker", "--concurrency", "1"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  workers.push(child);
  let said = "";
  return new Promise((resolve, reject) => {
    child.stderr.on("data", (data: Buffer) => {
      said += data.toString();
      if (said.includes("taking eval trials")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`the worker exited ${code} before taking trials:\n${said}`)));
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, limitMs = 120_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const ended = (id: string) =>
  until(`run ${id} to end`, async () => {
    const run = (await evals.evalRuns()).find((r) => r.id === id);
    return run && run.state !== "running" ? run : undefined;
  });

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Every trial of the run exactly once: one row per (cell, case, trial), one eval chat per row, the counts agreeing. */
async function expectEachTrialOnce(id: string, total: number) {
  const rows = await query<{ cell: string; caseName: string; trial: number; verdict: string }>(
    `SELECT "cell", "caseName", "trial", "verdict" FROM "EvalTrial" WHERE "runId" = $1`,
    [id],
  );
  expect(rows).toHaveLength(total);
  expect(new Set(rows.map((r) => `${r.cell}/${r.caseName}/${r.trial}`)).size).toBe(total);
  const chats = await query<{ n: string }>(
    `SELECT count(*) AS n FROM "Chat" WHERE "origin" = 'eval' AND "title" LIKE 'eval team/%' AND "id" IN (SELECT "record"::json->>'chat_id' FROM "EvalTrial" WHERE "runId" = $1)`,
    [id],
  );
  expect(Number(chats[0]!.n)).toBe(total);
  return rows;
}

describe("eval trials as jobs", () => {
  it("queues a run on PostgreSQL; workers take its trials; it ends with every trial once, in pg-boss's own schema", async () => {
    const status = await evals.startEval("source:suites/team.eval.yaml", {});
    expect(status).toMatchObject({ queued: true, state: "running", total: 12, waiting: 12 });
    // Nobody takes trials yet (workers.inProcess: 0 here): the run waits, queued, and says so.
    const waiting = (await evals.evalsOverview()).runs.find((r) => r.id === status.id)!;
    expect(waiting).toMatchObject({ state: "running", done: 0, waiting: 12 });
    const schemas = await query<{ schema_name: string }>(`SELECT schema_name FROM information_schema.schemata WHERE schema_name = 'pgboss'`);
    expect(schemas).toHaveLength(1);

    await Promise.all([startWorker(), startWorker()]);
    expect((await evals.evalsOverview()).workers).toMatchObject({ workers: 2, workerSlots: 2, webSlots: 0 });
    const run = await ended(status.id);
    expect(run).toMatchObject({ state: "done", total: 12, done: 12, passed: 12, failed: 0, errors: 0, partial: false });
    expect(run.runRel).toMatch(/^evals\/team\//);
    const cases = JSON.parse(fs.readFileSync(path.join(dir, "runs", run.runRel!, "cases.json"), "utf8")) as unknown[];
    expect(JSON.stringify(cases)).toContain('"verdict":"pass"');
    const verdicts = await expectEachTrialOnce(status.id, 12);
    expect(verdicts.every((r) => r.verdict === "pass")).toBe(true);
  });

  it("a worker killed -9 mid-trial: its trial is retried by another once the heartbeat lapses, and the run ends with every trial exactly once", async () => {
    for (const worker of workers.splice(0)) worker.kill("SIGTERM");
    const status = await evals.startEval("source:suites/team.eval.yaml", {});
    const before = model.requests.length;
    const doomed = await startWorker();
    // The doomed worker holds a trial: its model request came in and is not answered yet.
    await until("the doomed worker's first request", async () => (model.requests.length > before ? true : undefined));
    doomed.kill("SIGKILL");
    await startWorker();
    const run = await ended(status.id);
    expect(run).toMatchObject({ state: "done", total: 12, done: 12, passed: 12, failed: 0, errors: 0 });
    await expectEachTrialOnce(status.id, 12);
    // pg-boss gave the killed worker's trial to the other: one job of this run was taken twice.
    const retried = await query<{ n: string }>(`SELECT count(*) AS n FROM pgboss.job WHERE data->>'runId' = $1 AND retry_count > 0`, [status.id]);
    expect(Number(retried[0]!.n)).toBeGreaterThanOrEqual(1);
  }, 180_000);

  it("cancel stops a queued run for every worker: its waiting trials leave the queue", async () => {
    for (const worker of workers.splice(0)) worker.kill("SIGTERM");
    const status = await evals.startEval("source:suites/team.eval.yaml", {});
    const cancelled = await evals.cancelEval(status.id);
    expect(cancelled).toMatchObject({ state: "cancelled", partial: true });
    await startWorker();
    // The worker finds nothing of this run to do: no trial of it is stored, none waits.
    const left = await query<{ n: string }>(`SELECT count(*) AS n FROM pgboss.job WHERE data->>'runId' = $1 AND state IN ('created', 'retry')`, [status.id]);
    expect(Number(left[0]!.n)).toBe(0);
    expect(await query(`SELECT 1 FROM "EvalTrial" WHERE "runId" = $1`, [status.id])).toHaveLength(0);
  });

  it("toolroom eval on PostgreSQL queues its run for the workers and reports it when it ends", async () => {
    if (workers.every((w) => w.exitCode !== null)) await startWorker();
    const child = spawn(process.execPath, [TOOLROOM_BIN, "eval", path.join(source, "suites", "team.eval.yaml"), "--reporter", "json"], {
      cwd: dir,
      env: workerEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ suite: "team", passed: 12, total: 12 });
    const runs = await query<{ id: string; state: string; queued: boolean }>(`SELECT "id", "state", "queued" FROM "EvalRun" WHERE "suiteKey" LIKE 'cli:%'`);
    expect(runs).toEqual([expect.objectContaining({ state: "done", queued: true })]);
    await expectEachTrialOnce(runs[0]!.id, 12);
  });
});
