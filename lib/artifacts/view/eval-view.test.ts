import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createModelResolver } from "@/lib/chat/models";
import { writeEvalRun, type EnvFacts } from "@/lib/evals/results";
import { runEval } from "@/lib/evals/runner";
import { parseSuite } from "@/lib/evals/suite";
import { settingsSchema, type Settings } from "@/lib/settings/schema";
import { evalTurns, registryOf } from "@/lib/testing/eval-registry";
import type { ToolDefinition } from "@/lib/tools/types";
import { discoverRuns } from "../discover";
import { readRunEntry } from "../run";
import { evalCaseDetail, evalChanges, evalRow, evalRunView } from "./eval-view";
import { runDiffView, runRow } from "./view-model";
import { summarizeRun } from "../summary";

let dir: string;
let settings: Settings;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-eval-view-"));
  settings = settingsSchema.parse({ sourceRoot: dir, runsRoot: path.join(dir, "runs") });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const echo: ToolDefinition = {
  name: "echo_text",
  description: "Echo the text back.\n\nArgs: text — anything.",
  input: z.object({ text: z.string() }),
  execute: async ({ text }: { text: string }) => `echo: ${text}`,
};

async function written(yaml: string, models: EnvFacts["models"] = {}) {
  const suite = parseSuite(yaml, "t.eval.yaml");
  const result = await runEval({
    suite,
    settings,
    registry: registryOf([echo]),
    resolver: createModelResolver(settings),
    turnFor: evalTurns(settings),
    modes: ["native", "text"],
  });
  const facts = { models, providerVersions: {}, settingsHash: "x", toolroomVersion: "0" };
  const runDir = writeEvalRun(settings.runsRoot, { name: "grid", file: "/x/t.eval.yaml", text: yaml, cases: suite.cases }, facts, result);
  const entry = discoverRuns(settings.runsRoot).runs.find((r) => r.dir === runDir)!;
  return readRunEntry(entry);
}

const suite = (wrongArg: string) => `name: grid
matrix: { trials: 2 }
cases:
  - { name: ok, prompt: echo_text hi, expect: { calls: [{ tool: echo_text, args: { text: hi } }] } }
  - { name: wrong, prompt: echo_text hi, expect: { calls: [{ tool: echo_text, args: { text: ${wrongArg} } }] } }
`;

describe("an eval run on the run page", () => {
  it("shows a case × cell grid of passes over trials, a recommendation per model, and a failing case's argument diff", async () => {
    const run = await written(suite("bye"));
    const view = evalRunView(run)!;
    expect(view.cases).toEqual(["ok", "wrong"]);
    expect(view.columns.map((c) => c.name)).toEqual(["offline · native", "offline · text · json"]);
    expect(view.entries.map((row) => row.map((e) => e && `${e.passed}/${e.trials}`))).toEqual([
      ["2/2", "2/2"],
      ["0/2", "0/2"],
    ]);
    expect(view.columns[0]).toMatchObject({ passRate: 0.5, k: 2, passAtK: 0.5, passHatK: 0.5 });
    expect(view.columns[0]!.tokens.reported).toBe(4);
    expect(view.recommendations).toHaveLength(1);
    expect(view.recommendations[0]!.line).toMatch(/^llms\.offline: \{ toolMode: (native|text, textProtocol: json) \}$/);
    // The runs table shows suite, cells, cases and pass rate, not the matrix's ticket, layout and "fail".
    expect(runRow(summarizeRun(run), evalRow(run)).eval).toEqual({ suite: "grid", cells: 2, cases: 2, passed: 4, trials: 8 });

    const detail = evalCaseDetail(run.evalCases!.ok ? run.evalCases!.data : (null as never), "wrong", "offline · native");
    expect(detail.trials).toHaveLength(2);
    expect(detail.trials[0]!.rows[0]).toMatchObject({ status: "wrong-value", expectedTool: "echo_text", actualTool: "echo_text" });
    expect(detail.trials[0]!.rows[0]!.args[0]).toMatchObject({ key: "text", expected: '"bye"', actual: '"hi"', status: "wrong" });
    expect(detail.trials[0]!.inputTokens).toBeGreaterThan(0);
  });

  it("reads the models' configured modes from env.json for the recommendation; a run without them has none", async () => {
    const offline = (toolMode: "native" | "text") => ({ offline: { provider: "offline", modelId: "offline", toolMode, textProtocol: "json" } });
    const chosen = (run: Awaited<ReturnType<typeof written>>) => evalRunView(run)!.recommendations[0]!;
    expect(chosen(await written(suite("bye"))).configured).toBe(false);
    expect(chosen(await written(suite("bye"), offline("native")))).toMatchObject({ cell: "offline · native", configured: true });
    // Fewer tokens a trial still decide before the configured mode.
    expect(chosen(await written(suite("bye"), offline("text")))).toMatchObject({ cell: "offline · native", configured: false, tiedWith: [] });
  });

  it("lists a case that passed before and fails now as regressed between two runs", async () => {
    const before = await written(suite("hi"));
    const after = await written(suite("bye"));
    const changes = evalChanges(before, after)!;
    expect(changes.regressed).toEqual(["wrong"]);
    expect(changes.fixed).toEqual([]);
    expect(changes.changed.map((c) => [c.case, c.cell, c.change])).toEqual([
      ["wrong", "offline · native", "regressed"],
      ["wrong", "offline · text · json", "regressed"],
    ]);
    expect(changes.warnings).toEqual([expect.stringMatching(/suite file changed/)]);
    // The comparison's headers give each side's pass rate, not the matrix's verdict.
    const diff = runDiffView(before, after, { root: settings.runsRoot, override: null });
    expect([diff.a.eval, diff.b.eval]).toEqual([
      { suite: "grid", cells: 2, cases: 2, passed: 8, trials: 8 },
      { suite: "grid", cells: 2, cases: 2, passed: 4, trials: 8 },
    ]);
    // The cells compare in eval figures (pass rate, trials, tokens), not a harness's step times.
    expect(diff.evalCells?.map((c) => [c.name, c.a.passRate, c.b.passRate, c.passRateDelta, c.a.trials, c.b.trials])).toEqual([
      ["offline · native", 1, 0.5, -0.5, 4, 4],
      ["offline · text · json", 1, 0.5, -0.5, 4, 4],
    ]);
    expect(diff.evalCells![0]!.b.tokens.reported).toBe(4);
  });
});
