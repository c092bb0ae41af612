/**
 * The team store (PostgreSQL) against SQLite, through the chat route in-process (handleChatRequest,
 * the offline model): 50 concurrent chats of one turn each, a read-only list_files call then the
 * answer, on (1) a SQLite file, (2) PostgreSQL from one instance, (3) PostgreSQL from two instances —
 * two child processes on the same database, half the chats each, released by one start signal.
 * Every configuration runs in fresh child processes (module load, migration check and a warm-up
 * turn happen before the signal, outside the timing); the rounds alternate the three so machine
 * load hits them alike. Goals (the team issue): PostgreSQL per turn ≤ 1.3× SQLite; two instances
 * ≥ 1.7× the throughput of one. The PostgreSQL database is created by `scripts/migrate.mjs deploy`
 * and dropped at the end. Writes its own section of bench/RESULTS.md (unless BENCH_LABEL is set).
 * Run: flock /tmp/toolroom-heavy.lock npx tsx bench/team.ts   (BENCH_CHATS, BENCH_ROUNDS)
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { loadAverage, writeResultsSection } from "./results-section";

const CHATS = Number(process.env.BENCH_CHATS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PROMPT = "list the files";
const SERVER = "postgresql://postgres@127.0.0.1:5432/postgres";

interface Measured {
  wall: number;
  meanTurn: number;
  withCall: number;
  cpu: number;
}

/** What a child reports when its chats are done: each turn's milliseconds from the start signal. */
interface Done {
  turns: number[];
  withCall: number;
  /** The instance's own user + system CPU milliseconds over its chats. */
  cpu: number;
}

if (process.env.BENCH_TEAM_CHILD) await child();
else await parent();

/** One instance: loads the route, warms up, says ready, then runs its share of the chats at once on "go". */
async function child(): Promise<void> {
  const { setLoadedSettings } = await import("@/lib/settings");
  const { loadSettings } = await import("@/lib/settings/load");
  setLoadedSettings(loadSettings({ files: [], env: { TOOLROOM_SOURCEROOT: process.env.BENCH_SOURCE_ROOT! } }));
  const { post, readAssistantMessage } = await import("@/lib/testing/approvals-harness");
  const prefix = process.env.BENCH_TEAM_CHILD!;
  const turn = async (chatId: string) => {
    const message = await readAssistantMessage(
      await post({ id: chatId, message: { id: `${chatId}-u1`, role: "user", parts: [{ type: "text", text: PROMPT }] } }),
    );
    return message.parts.some((p) => p.type === "tool-list_files" && "state" in p && p.state === "output-available");
  };
  // Warm-up: module caches, JIT, the pool's first connection.
  if (!(await turn(`${prefix}-warm`))) throw new Error("bench: the offline model made no list_files call");
  const send = (message: unknown) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
  const go = new Promise((resolve) => process.once("message", resolve));
  await send("ready");
  await go;
  const start = performance.now();
  const cpu = process.cpuUsage();
  const results = await Promise.all(
    Array.from({ length: Number(process.env.BENCH_COUNT) }, async (_, i) => {
      const called = await turn(`${prefix}-${i}`);
      return { ms: performance.now() - start, called };
    }),
  );
  const used = process.cpuUsage(cpu);
  const done: Done = { turns: results.map((r) => r.ms), withCall: results.filter((r) => r.called).length, cpu: (used.user + used.system) / 1000 };
  await send(done);
  const { db } = await import("@/lib/db/client");
  await db().$disconnect();
  process.exit(0);
}

async function parent(): Promise<void> {
  const loadAtStart = loadAverage();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-bench-team-"));
  const sourceRoot = path.join(dir, "src");
  fs.mkdirSync(path.join(sourceRoot, "lib"), { recursive: true });
  for (const name of ["README.md", "notes.txt", "lib/a.ts", "lib/b.ts"]) fs.writeFileSync(path.join(sourceRoot, name), `${name}\n`);
  const pgName = `wt_bench_team_${randomBytes(4).toString("hex")}`;
  const urls = { sqlite: `file:${path.join(dir, "bench.db")}`, postgresql: `postgresql://postgres@127.0.0.1:5432/${pgName}` };
  const baseEnv = { ...process.env, XDG_STATE_HOME: path.join(dir, "state"), BENCH_SOURCE_ROOT: sourceRoot };
  for (const url of Object.values(urls))
    execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: { ...baseEnv, DATABASE_URL: url }, stdio: "pipe" });

  /** `instances` children on `url`, CHATS split between them; wall = the signal to the last turn's end. */
  async function run(label: string, url: string, instances: number): Promise<Measured> {
    const children = Array.from({ length: instances }, (_, i) => {
      const count = Math.floor(CHATS / instances) + (i < CHATS % instances ? 1 : 0);
      const env = { ...baseEnv, DATABASE_URL: url, BENCH_TEAM_CHILD: `${label}-${i}`, BENCH_COUNT: String(count) };
      const script = process.argv[1]!;
      return spawn(process.execPath, [...process.execArgv, "--conditions=react-server", script], { env, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    });
    const next = (c: (typeof children)[number]) =>
      new Promise<unknown>((resolve, reject) => {
        c.once("message", resolve);
        c.once("exit", (code) => reject(new Error(`bench: an instance ended with ${code} before reporting`)));
      });
    await Promise.all(children.map(next));
    const reports = children.map(next);
    const start = performance.now();
    for (const c of children) c.send("go");
    const done = (await Promise.all(reports)) as Done[];
    const wall = performance.now() - start;
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((resolve) => c.once("exit", resolve)) : Promise.resolve())));
    const turns = done.flatMap((d) => d.turns);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    return { wall, meanTurn: sum(turns) / turns.length, withCall: sum(done.map((d) => d.withCall)), cpu: sum(done.map((d) => d.cpu)) };
  }

  const kinds = ["sqlite", "pg1", "pg2"] as const;
  const rounds: Record<(typeof kinds)[number], Measured>[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push({
        sqlite: await run(`sqlite-r${round}`, urls.sqlite, 1),
        pg1: await run(`pg1-r${round}`, urls.postgresql, 1),
        pg2: await run(`pg2-r${round}`, urls.postgresql, 2),
      });
      console.log(`round ${round + 1}:`, JSON.stringify(rounds.at(-1)));
    }
  } finally {
    const admin = new pg.Client({ connectionString: SERVER });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`);
    await admin.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const throughput = (r: { wall: number }) => (CHATS / r.wall) * 1000;
  const perTurnRatios = rounds.map((r) => r.pg1.meanTurn / r.sqlite.meanTurn);
  const wallRatios = rounds.map((r) => r.pg1.wall / r.sqlite.wall);
  const twoOverOne = rounds.map((r) => throughput(r.pg2) / throughput(r.pg1));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(", ");
  const rows = kinds.map((kind) => {
    const walls = rounds.map((r) => r[kind].wall);
    const means = rounds.map((r) => r[kind].meanTurn);
    const calls = rounds.reduce((a, r) => a + r[kind].withCall, 0);
    const cores = median(rounds.map((r) => r[kind].cpu / r[kind].wall));
    const what = { sqlite: "SQLite file, one instance", pg1: "PostgreSQL, one instance", pg2: `PostgreSQL, two instances (${CHATS / 2} chats each)` }[kind];
    return `| ${what} | ${median(walls).toFixed(0)} | ${median(means).toFixed(0)} | ${throughput({ wall: median(walls) }).toFixed(1)} | ${cores.toFixed(2)} | ${calls}/${CHATS * ROUNDS} |`;
  });

  const HEADING = "## The team store: PostgreSQL against SQLite, one and two instances (`npx tsx bench/team.ts`)";
  const section = `${HEADING}

${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAtStart} at the start, ${loadAverage()} at the end
(the machine is shared: compare the ratios, measured in the same run, more than the times).
${CHATS} concurrent chats of one turn each ("${PROMPT}": the offline model's list_files call, then its answer) through the chat
route in-process (\`handleChatRequest\`, each SSE body read to the end as the browser's transport does), ${ROUNDS} rounds alternating
SQLite, PostgreSQL from one instance, PostgreSQL from two instances (two processes on the same database, half the chats each,
released by one start signal). Every configuration in fresh processes, warmed up by one turn before the signal; times from the
signal. Per turn = each turn's time from the signal to its end, averaged; throughput = chats ÷ time to the last turn's end;
cores used = the instances' own user + system CPU time ÷ wall (the PostgreSQL server's CPU comes on top, on the same 2 cores).

| configuration | wall ms (median) | mean turn ms (median) | turns/s | cores used by the instances | turns with the call done |
|---|---:|---:|---:|---:|---:|
${rows.join("\n")}

PostgreSQL ÷ SQLite, mean turn, per round: ${fmt(perTurnRatios)} (median ${median(perTurnRatios).toFixed(2)}; goal ≤ 1.3);
wall: ${fmt(wallRatios)}.
Two instances ÷ one, throughput, per round: ${fmt(twoOverOne)} (median ${median(twoOverOne).toFixed(2)}; goal ≥ 1.7).
`;
  console.log(section);
  if (!process.env.BENCH_LABEL) writeResultsSection(HEADING, section);
}
