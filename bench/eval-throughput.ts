/**
 * Eval throughput (issue #31): trials per second through the runner (lib/evals/runner.ts) against
 * bare engine turns (runChatTurn, stream drained) measured in the same process, alternating rounds
 * so machine load hits both alike; the same with an LLM judge (the offline judge: one more model
 * call per trial); and the sweep — native plus every text protocol — with its cost per cell: time,
 * tokens per trial (the offline model's rough count, 4 characters a token) and an estimate at
 * example prices. Writes its own section of bench/RESULTS.md (replacing an earlier one).
 * Run: flock /tmp/toolroom-heavy.lock npx tsx bench/eval-throughput.ts   (BENCH_TRIALS, BENCH_SWEEP_TRIALS)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bareTurn, timed } from "./bare-turn";
import { loadAverage, writeResultsSection } from "./results-section";
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { z } from "zod";
import { createModelResolver, type ModelResolver } from "@/lib/chat/models";
import { TEXT_PROTOCOLS } from "@/lib/chat/text-protocol/types";
import { runEval } from "@/lib/evals/runner";
import { parseSuite } from "@/lib/evals/suite";
import { settingsSchema } from "@/lib/settings/schema";
import { evalTurns, registryOf } from "@/lib/testing/eval-registry";
import type { ToolDefinition } from "@/lib/tools/types";

const loadAtStart = loadAverage();
const TRIALS = Number(process.env.BENCH_TRIALS ?? 500);
const SWEEP_TRIALS = Number(process.env.BENCH_SWEEP_TRIALS ?? 50);
const ROUNDS = 5;
const PROMPT = "echo_text hello";
/** Example prices for the estimate (USD per million tokens, as gpt-4o-mini is listed): the offline model costs nothing. */
const PRICE = { inputPerMTok: 0.15, outputPerMTok: 0.6 };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-bench-eval-throughput-"));
const settings = settingsSchema.parse({ sourceRoot: dir, runsRoot: path.join(dir, "runs") });
const echo: ToolDefinition = {
  name: "echo_text",
  description: "Echo the text back.\n\nArgs: text — anything.",
  input: z.object({ text: z.string() }),
  execute: async ({ text }: { text: string }) => `echo: ${text}`,
};
const registry = registryOf([echo]);
const turnFor = evalTurns(settings);

/** Token counts from every stream's finish part, per model call: the sweep's cost. */
const tokens = { input: 0, output: 0, calls: 0 };
function counted(model: LanguageModelV4): LanguageModelV4 {
  return {
    ...model,
    doStream: async (options) => {
      const result = await model.doStream(options);
      const stream = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (part.type === "finish") {
              tokens.input += part.usage.inputTokens.total ?? 0;
              tokens.output += part.usage.outputTokens.total ?? 0;
              tokens.calls++;
            }
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
const base = createModelResolver(settings);
const cache = new Map<string, LanguageModelV4>();
const resolver: ModelResolver = {
  ...base,
  byName: (ref: string) => {
    let model = cache.get(ref);
    if (!model) cache.set(ref, (model = counted(base.byName(ref))));
    return model;
  },
};

const echoCase = `{ name: echo, prompt: "${PROMPT}", expect: { calls: [{ tool: echo_text, args: { text: hello } }] } }`;
const plain = parseSuite(`name: bench\ncases:\n  - ${echoCase}\n`, "bench.eval.yaml");
const judged = parseSuite(
  `name: bench-judged\ncases:\n  - { name: echo, prompt: "${PROMPT}", expect: { calls: [{ tool: echo_text }], answer: { judge: 'shows "echo: hello"', model: offline } } }\n`,
  "bench.eval.yaml",
);
const sweep = parseSuite(
  `name: bench-sweep\nmatrix: { models: [offline], modes: [native, text], protocols: [${TEXT_PROTOCOLS.join(", ")}] }\ncases:\n  - ${echoCase}\n  - { name: none, prompt: "hello there", expect: { noCalls: true } }\n`,
  "bench.eval.yaml",
);

const turn = () => bareTurn({ settings, resolver, registry, prompt: PROMPT });

const evalRun = (suite: typeof plain, trials: number, concurrency = 1) => runEval({ suite, settings, registry, resolver, turnFor, trials, concurrency });

// Warm-up: module caches, JIT.
await evalRun(plain, 20);
await evalRun(judged, 20);
for (let i = 0; i < 20; i++) await turn();

const perRound = Math.ceil(TRIALS / ROUNDS);
const n = perRound * ROUNDS;
const ms = { bare: 0, runner: 0, judged: 0 };
let passed = 0;
let judgedPassed = 0;
for (let round = 0; round < ROUNDS; round++) {
  ms.bare += await timed(async () => {
    for (let i = 0; i < perRound; i++) await turn();
  });
  ms.runner += await timed(async () => {
    passed += (await evalRun(plain, perRound)).trials.filter((t) => t.verdict === "pass").length;
  });
  ms.judged += await timed(async () => {
    judgedPassed += (await evalRun(judged, perRound)).trials.filter((t) => t.verdict === "pass").length;
  });
}
const concurrentMs = await timed(() => evalRun(plain, n, 4));

const perSecond = (count: number, wall: number) => (count / wall) * 1000;
const bareRate = perSecond(n, ms.bare);
const rows = [
  ["bare engine turn (runChatTurn, stream drained), one at a time", perSecond(n, ms.bare), 1],
  ["eval trial through the runner, --concurrency 1", perSecond(n, ms.runner), perSecond(n, ms.runner) / bareRate],
  ["eval trial with an offline judge (+1 model call), --concurrency 1", perSecond(n, ms.judged), perSecond(n, ms.judged) / bareRate],
  ["eval trial through the runner, --concurrency 4", perSecond(n, concurrentMs), perSecond(n, concurrentMs) / bareRate],
] as const;

// The sweep: every cell of native + 6 text protocols, its tokens counted per cell.
const sweepRows: string[] = [];
let sweepMs = 0;
let sweepIn = 0;
let sweepOut = 0;
let sweepTrials = 0;
for (const mode of ["native", "text"] as const)
  for (const protocol of mode === "native" ? [undefined] : TEXT_PROTOCOLS) {
    tokens.input = tokens.output = tokens.calls = 0;
    let result: Awaited<ReturnType<typeof runEval>> | undefined;
    const wall = await timed(async () => {
      result = await runEval({
        suite: sweep,
        settings,
        registry,
        resolver,
        turnFor,
        trials: SWEEP_TRIALS,
        concurrency: 4,
        modes: [mode],
        ...(protocol ? { protocols: [protocol] } : {}),
      });
    });
    const trials = result!.trials.length;
    const pass = result!.trials.filter((t) => t.verdict === "pass").length;
    const cost = (tokens.input * PRICE.inputPerMTok + tokens.output * PRICE.outputPerMTok) / 1e6;
    sweepMs += wall;
    sweepIn += tokens.input;
    sweepOut += tokens.output;
    sweepTrials += trials;
    sweepRows.push(
      `| offline · ${mode}${protocol ? ` · ${protocol}` : ""} | ${trials} | ${((pass / trials) * 100).toFixed(0)}% | ${perSecond(trials, wall).toFixed(0)} | ${(tokens.input / trials).toFixed(0)} | ${(tokens.output / trials).toFixed(0)} | $${((cost / trials) * 1000).toFixed(4)} |`,
    );
  }
fs.rmSync(dir, { recursive: true, force: true });

const HEADING = "## Eval throughput (`npx tsx bench/eval-throughput.ts`, issue #31)";
const sweepCost = (sweepIn * PRICE.inputPerMTok + sweepOut * PRICE.outputPerMTok) / 1e6;
const section = `${HEADING}

${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAtStart} at the start, ${loadAverage()} at the end
(the machine is shared, so compare the ratios, measured in the same run, more than the rates).
${n} offline-model trials of one case (native mode, one echo tool call, then the answer) per row, in ${ROUNDS} rounds alternating
bare turns, runner trials and judged trials; ${passed}/${n} and ${judgedPassed}/${n} passed.

| what | trials/s | × bare turn |
|---|---:|---:|
${rows.map(([what, rate, ratio]) => `| ${what} | ${rate.toFixed(0)} | ${ratio.toFixed(2)} |`).join("\n")}

The sweep (\`--protocols all\`: native and the ${TEXT_PROTOCOLS.length} text protocols), 2 cases (a call, no call) × ${SWEEP_TRIALS} trials per cell, --concurrency 4:
${sweepTrials} trials in ${(sweepMs / 1000).toFixed(1)} s, ${sweepIn.toLocaleString("en")} input and ${sweepOut.toLocaleString("en")} output tokens
(the offline model's count, 4 characters a token), which at $${PRICE.inputPerMTok}/$${PRICE.outputPerMTok} per million (gpt-4o-mini's list price) would cost $${sweepCost.toFixed(4)}.
Text mode costs more input per trial: the tools are described in the system prompt instead of sent as a schema.

| cell | trials | pass | trials/s | input tok/trial | output tok/trial | est. $ per 1,000 trials |
|---|---:|---:|---:|---:|---:|---:|
${sweepRows.join("\n")}
`;
console.log(section);
writeResultsSection(HEADING, section);
