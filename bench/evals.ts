/**
 * Eval runner bench (issue #19): 1,000 offline-model trials through the runner (lib/evals/runner.ts:
 * suite case → chat turn → observation → matchers → record) against 1,000 bare engine turns
 * (runChatTurn with the same model, tool and settings, stream read to its end, nothing else). The
 * difference per trial is the runner's overhead. One tool that echoes, so tool time is ~0 and the
 * numbers are the pipeline's. Rounds alternate runner / bare so machine load hits both alike.
 * Appends an "## Evals" section to bench/RESULTS.md.
 * Run: npx tsx bench/evals.ts   (BENCH_TRIALS to change the count)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bareTurn, timed } from "./bare-turn";
import { z } from "zod";
import { createModelResolver } from "@/lib/chat/models";
import { runEval } from "@/lib/evals/runner";
import { parseSuite } from "@/lib/evals/suite";
import { settingsSchema } from "@/lib/settings/schema";
import { evalTurns, registryOf } from "@/lib/testing/eval-registry";
import type { ToolDefinition } from "@/lib/tools/types";

const TRIALS = Number(process.env.BENCH_TRIALS ?? 1000);
const ROUNDS = 5;
const PROMPT = "echo_text hello";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-bench-evals-"));
const settings = settingsSchema.parse({ sourceRoot: dir, runsRoot: path.join(dir, "runs") });
const resolver = createModelResolver(settings);
const echo: ToolDefinition = {
  name: "echo_text",
  description: "Echo the text back.\n\nArgs: text — anything.",
  input: z.object({ text: z.string() }),
  execute: async ({ text }: { text: string }) => `echo: ${text}`,
};
const registry = registryOf([echo]);
const turnFor = evalTurns(settings);
const suite = parseSuite(
  `name: bench\ncases:\n  - { name: echo, prompt: "${PROMPT}", expect: { calls: [{ tool: echo_text, args: { text: hello } }] } }\n`,
  "bench.eval.yaml",
);

const turn = () => bareTurn({ settings, resolver, registry, prompt: PROMPT });

const perRound = Math.ceil(TRIALS / ROUNDS);
let runnerMs = 0;
let bareMs = 0;
let passed = 0;
// Warm-up: module caches, JIT.
await runEval({ suite, settings, registry, resolver, turnFor, trials: 20, concurrency: 1 });
for (let i = 0; i < 20; i++) await turn();
for (let round = 0; round < ROUNDS; round++) {
  runnerMs += await timed(async () => {
    const result = await runEval({ suite, settings, registry, resolver, turnFor, trials: perRound, concurrency: 1 });
    passed += result.trials.filter((t) => t.verdict === "pass").length;
  });
  bareMs += await timed(async () => {
    for (let i = 0; i < perRound; i++) await turn();
  });
}
const n = perRound * ROUNDS;
const concurrentMs = await timed(async () => {
  await runEval({ suite, settings, registry, resolver, turnFor, trials: n, concurrency: 4 });
});
fs.rmSync(dir, { recursive: true, force: true });

const runner = runnerMs / n;
const bare = bareMs / n;
const rows = [
  `| bare engine turn (runChatTurn, stream drained) | ${bare.toFixed(2)} ms |`,
  `| eval trial through the runner, one at a time | ${runner.toFixed(2)} ms |`,
  `| runner overhead per trial | ${(runner - bare).toFixed(2)} ms (${(((runner - bare) / bare) * 100).toFixed(1)}%) |`,
  `| eval trial, --concurrency 4 (wall time / trials) | ${(concurrentMs / n).toFixed(2)} ms |`,
];
const load = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(" ");
const section = `
## Evals (\`npx tsx bench/evals.ts\`)

${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${os.cpus().length} CPUs (load average ${load}).
${n} offline-model trials of one case (native mode, one echo tool call, then the answer), in ${ROUNDS} rounds
alternating with ${n} bare engine turns of the same request; ${passed}/${n} trials passed.

| what | per trial |
|---|---:|
${rows.join("\n")}
`;
console.log(section);
fs.appendFileSync(path.join(import.meta.dirname, "RESULTS.md"), section);
