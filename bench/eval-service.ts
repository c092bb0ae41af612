/**
 * Eval throughput through the service the page uses (issue #31): `startEval` — what POST /api/evals
 * calls — with every trial stored as a chat (messages, trace) and a trial row in a real SQLite file
 * through Prisma, and the run folder written at the end; against bare engine turns of the same
 * prompt and registry in the same process, alternating rounds so machine load hits both alike.
 * Then the sweep (`protocols: "all"`) through the same service, one eval per cell, with its tokens
 * (the trials' own usage, the offline model's count of 4 characters a token) and an estimate at
 * example prices. Writes its own section of bench/RESULTS.md (replacing an earlier one); with
 * BENCH_LABEL set it only prints the section (a measurement of other code, to be recorded by hand).
 * Run: flock /tmp/toolroom-heavy.lock npx tsx bench/eval-service.ts   (BENCH_TRIALS, BENCH_SWEEP_TRIALS)
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadAverage, writeResultsSection } from "./results-section";

// The eval service is `server-only`; Next loads it under the react-server condition, so this does too.
if (!process.execArgv.some((arg) => arg.includes("react-server"))) {
  const child = spawnSync(process.execPath, [...process.execArgv, "--conditions=react-server", ...process.argv.slice(1)], { stdio: "inherit" });
  process.exit(child.status ?? 1);
}

const TRIALS = Number(process.env.BENCH_TRIALS ?? 500);
const SWEEP_TRIALS = Number(process.env.BENCH_SWEEP_TRIALS ?? 50);
const ROUNDS = 5;
const PROMPT = "read notes.txt";
/** Example prices for the estimate (USD per million tokens, as gpt-4o-mini is listed): the offline model costs nothing. */
const PRICE = { inputPerMTok: 0.15, outputPerMTok: 0.6 };
const loadAtStart = loadAverage();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-bench-eval-service-"));
process.env.DATABASE_URL = `file:${path.join(dir, "bench.db")}`;
process.env.XDG_STATE_HOME = path.join(dir, "state");
const sourceRoot = path.join(dir, "src");
fs.mkdirSync(path.join(sourceRoot, "suites"), { recursive: true });
fs.writeFileSync(path.join(sourceRoot, "notes.txt"), "alpha\n");
const readCase = `{ name: read, prompt: "${PROMPT}", expect: { calls: [{ tool: read_file, args: { path: notes.txt } }] } }`;
fs.writeFileSync(path.join(sourceRoot, "suites/bench.eval.yaml"), `name: bench\ncases:\n  - ${readCase}\n`);
fs.writeFileSync(
  path.join(sourceRoot, "suites/sweep.eval.yaml"),
  `name: bench-sweep\ncases:\n  - ${readCase}\n  - { name: none, prompt: "hello there", expect: { noCalls: true } }\n`,
);
execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });

const { setLoadedSettings, getSettings } = await import("@/lib/settings");
const { loadSettings } = await import("@/lib/settings/load");
const { createModelResolver } = await import("@/lib/chat/models");
const { TEXT_PROTOCOLS } = await import("@/lib/chat/text-protocol/types");
const { sweepChoice } = await import("@/lib/evals/sweep");
const { getRegistry } = await import("@/lib/server/runtime/registry");
const { startEval } = await import("@/lib/server/evals/eval-runs");
const { loadSuite } = await import("@/lib/evals/suite");
const { evaluate } = await import("@/lib/server/evals/evaluate");
const { bareTurn, timed } = await import("./bare-turn");

const useSettings = (concurrency: number) =>
  setLoadedSettings(
    loadSettings({
      files: [],
      env: { TOOLROOM_SOURCEROOT: sourceRoot, TOOLROOM_RUNSROOT: path.join(dir, "runs"), TOOLROOM_EVALS__CONCURRENCY: String(concurrency) },
    }),
  );
useSettings(1);
const settings = getSettings();
const resolver = createModelResolver(settings);
const registry = await getRegistry();
const turn = () => bareTurn({ settings, resolver, registry, prompt: PROMPT });

type Choice = Parameters<typeof startEval>[1];
interface TrialRow {
  cell: string;
  verdict: string;
  input_tokens: number | null;
  output_tokens: number | null;
}

/** One eval through the service, to its end (the status startEval returns is the live one); its trials as cases.json has them. */
async function serviceEval(suite: string, choice: Choice): Promise<TrialRow[]> {
  const status = await startEval(`source:suites/${suite}.eval.yaml`, choice);
  while (status.state === "running") await new Promise((resolve) => setTimeout(resolve, 2));
  if (status.state !== "done") throw new Error(`bench: the eval ended ${status.state}: ${status.error}`);
  const cases = JSON.parse(fs.readFileSync(path.join(dir, "runs", status.runRel!, "cases.json"), "utf8")) as { trials: TrialRow[] };
  return cases.trials;
}

/** The same trials through the runner alone (evaluate, as `toolroom eval` without its journal): no database, the run folder written. */
const loaded = loadSuite(path.join(sourceRoot, "suites/bench.eval.yaml"));
const runnerEval = async (trials: number) =>
  (await evaluate({ loaded, settings, registry, trusted: false, trustKey: "suites/bench.eval.yaml", trials, concurrency: 1 })).run.trials;

/** Wall and CPU (this process's user + system) milliseconds of some work. */
async function measured(work: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const wall = await timed(work);
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

// Warm-up: module caches, JIT, the database's first pages.
await serviceEval("bench", { trials: 20 });
await runnerEval(20);
for (let i = 0; i < 20; i++) await turn();

const perRound = Math.ceil(TRIALS / ROUNDS);
const n = perRound * ROUNDS;
const kinds = ["bare", "runner", "service"] as const;
const ms = Object.fromEntries(kinds.map((k) => [k, { wall: 0, cpu: 0 }])) as Record<(typeof kinds)[number], { wall: number; cpu: number }>;
const ratios: number[] = [];
let passed = 0;
for (let round = 0; round < ROUNDS; round++) {
  const bare = await measured(async () => {
    for (let i = 0; i < perRound; i++) await turn();
  });
  const runner = await measured(async () => {
    passed += (await runnerEval(perRound)).filter((t) => t.verdict === "pass").length;
  });
  const service = await measured(async () => {
    passed += (await serviceEval("bench", { trials: perRound })).filter((t) => t.verdict === "pass").length;
  });
  for (const [kind, m] of [
    ["bare", bare],
    ["runner", runner],
    ["service", service],
  ] as const) {
    ms[kind].wall += m.wall;
    ms[kind].cpu += m.cpu;
  }
  ratios.push(bare.wall / service.wall);
}
useSettings(4);
const concurrent = await measured(() => serviceEval("bench", { trials: n }));

const perSecond = (count: number, wall: number) => (count / wall) * 1000;
const bareRate = perSecond(n, ms.bare.wall);
const row = (what: string, m: { wall: number; cpu: number }) =>
  `| ${what} | ${perSecond(n, m.wall).toFixed(0)} | ${(perSecond(n, m.wall) / bareRate).toFixed(2)} | ${(m.cpu / n).toFixed(2)} |`;
const rows = [
  row("bare engine turn (runChatTurn, stream drained), one at a time", ms.bare),
  row("eval trial through the runner alone (evaluate: no database, the run folder written), concurrency 1", ms.runner),
  row("eval trial through the service (startEval: chat, trace and trial row stored), concurrency 1", ms.service),
  row("eval trial through the service, concurrency 4 (the default)", concurrent),
];

// The sweep: every cell of native + the text protocols, each one eval through the service at concurrency 4.
const sweepRows: string[] = [];
let sweepMs = 0;
let sweepIn = 0;
let sweepOut = 0;
let sweepTrials = 0;
const swept = sweepChoice({ protocols: "all", trials: SWEEP_TRIALS });
for (const mode of swept.modes ?? [])
  for (const protocol of mode === "native" ? [undefined] : (swept.protocols ?? [])) {
    let trials: TrialRow[] = [];
    const wall = await timed(async () => {
      trials = await serviceEval("sweep", { trials: SWEEP_TRIALS, modes: [mode], ...(protocol ? { protocols: [protocol] } : {}) });
    });
    const input = trials.reduce((sum, t) => sum + (t.input_tokens ?? 0), 0);
    const output = trials.reduce((sum, t) => sum + (t.output_tokens ?? 0), 0);
    const pass = trials.filter((t) => t.verdict === "pass").length;
    const cost = (input * PRICE.inputPerMTok + output * PRICE.outputPerMTok) / 1e6;
    sweepMs += wall;
    sweepIn += input;
    sweepOut += output;
    sweepTrials += trials.length;
    sweepRows.push(
      `| offline · ${mode}${protocol ? ` · ${protocol}` : ""} | ${trials.length} | ${((pass / trials.length) * 100).toFixed(0)}% | ${perSecond(trials.length, wall).toFixed(0)} | ${(input / trials.length).toFixed(0)} | ${(output / trials.length).toFixed(0)} | $${((cost / trials.length) * 1000).toFixed(4)} |`,
    );
  }
await registry.close?.();
fs.rmSync(dir, { recursive: true, force: true });

const HEADING = "## Eval throughput through the service (`npx tsx bench/eval-service.ts`, issue #31)";
const sweepCost = (sweepIn * PRICE.inputPerMTok + sweepOut * PRICE.outputPerMTok) / 1e6;
const section = `${HEADING}

${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAtStart} at the start, ${loadAverage()} at the end
(the machine is shared: compare the ratios, measured in the same run, more than the rates).
${n} offline-model trials of one case (native mode, one read_file call, then the answer) through \`startEval\` (what POST /api/evals
calls), a SQLite file through Prisma, in ${ROUNDS} rounds alternating bare turns, runner evals and service evals of ${perRound} trials;
${passed}/${2 * n} runner and service trials passed. Bare turn ÷ service time per round: ${ratios.map((r) => r.toFixed(2)).join(", ")}.
CPU: this process's user + system time per trial (the runner's and the service's extra over the bare turn is where their time goes).

| what | trials/s | × bare turn | CPU ms/trial |
|---|---:|---:|---:|
${rows.join("\n")}

The sweep (\`protocols: "all"\`: native and the ${TEXT_PROTOCOLS.length} text protocols) through the service, one eval per cell, 2 cases (a call, no call)
× ${SWEEP_TRIALS} trials, concurrency 4: ${sweepTrials} trials in ${(sweepMs / 1000).toFixed(1)} s, ${sweepIn.toLocaleString("en")} input and
${sweepOut.toLocaleString("en")} output tokens (the trials' usage, the offline model's count), which at $${PRICE.inputPerMTok}/$${PRICE.outputPerMTok}
per million (gpt-4o-mini's list price) would cost $${sweepCost.toFixed(4)}.

| cell | trials | pass | trials/s | input tok/trial | output tok/trial | est. $ per 1,000 trials |
|---|---:|---:|---:|---:|---:|---:|
${sweepRows.join("\n")}
`;
console.log(section);
if (!process.env.BENCH_LABEL) writeResultsSection(HEADING, section);
