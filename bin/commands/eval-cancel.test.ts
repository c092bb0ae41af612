import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvalCasesFile } from "@/lib/artifacts/eval-cases";
import { readEvalTranscript } from "@/lib/artifacts/eval-transcript";
import { cliEnv, runToolroom, TOOLROOM_BIN } from "@/lib/testing/cli";

// `toolroom eval` stopped part-way: Ctrl-C lets the running trials end and writes what finished as a
// partial run; a kill -9 leaves trials.jsonl; --resume runs only what is missing (issues #28.4, #29.2).
let root: string;
let config: string;
let suite: string;
let holding: string;
let release: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-cli-eval-cancel-"));
  config = path.join(root, "settings.yaml");
  holding = path.join(root, "holding.txt");
  release = path.join(root, "release");
  const plugin = path.join(root, "plugins/hold-plugin");
  fs.mkdirSync(plugin, { recursive: true });
  fs.writeFileSync(
    path.join(plugin, "package.json"),
    JSON.stringify({ name: "hold-plugin", version: "1.0.0", type: "module", toolroom: { tools: { hold: "./tools.js#hold" } } }),
  );
  // Runs until the test creates the release file: a trial still running when the CLI is stopped.
  fs.writeFileSync(
    path.join(plugin, "tools.js"),
    `import fs from "node:fs";
export const hold = {
  name: "hold",
  description: "Waits for the test. Args: id.",
  input: { jsonSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false } },
  execute: async ({ id }) => {
    fs.appendFileSync(${JSON.stringify(holding)}, id + "\\n");
    while (!fs.existsSync(${JSON.stringify(release)})) await new Promise((r) => setTimeout(r, 10));
    return "released";
  },
};
`,
  );
  fs.writeFileSync(path.join(root, "notes.txt"), "alpha\n");
  suite = path.join(root, "stop.eval.yaml");
  fs.writeFileSync(
    suite,
    `name: stop
settings: { plugins: { paths: [./plugins] } }
matrix: { trials: 3 }
cases:
  - { name: quick, prompt: read notes.txt, expect: { calls: [{ tool: read_file }] } }
  - { name: held, prompt: 'hold {"id": "h"}', expect: { calls: [{ tool: hold }] } }
`,
  );
  fs.writeFileSync(config, `sourceRoot: ${root}\nrunsRoot: ${path.join(root, "runs")}\n`);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function reset() {
  fs.rmSync(path.join(root, "runs"), { recursive: true, force: true });
  fs.rmSync(holding, { force: true });
  fs.rmSync(release, { force: true });
}

/** Starts `toolroom eval` and resolves once a trial is inside the hold tool. */
async function startHeld() {
  const child = spawn(process.execPath, [TOOLROOM_BIN, "--config", config, "eval", suite, "--concurrency", "1"], {
    cwd: root,
    env: { ...cliEnv(root) } as NodeJS.ProcessEnv,
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.on("close", (code: number | null) => resolve(code)));
  while (!fs.existsSync(holding)) await new Promise((r) => setTimeout(r, 20));
  return { child, closed, stderr: () => stderr };
}

function runDir(): string {
  const base = path.join(root, "runs/evals/stop");
  const [only] = fs.readdirSync(base);
  return path.join(base, only!);
}

const lines = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter(Boolean);

describe("toolroom eval, stopped part-way", () => {
  it("Ctrl-C: no new trial starts, the running one ends, what finished is a partial run (exit 130)", async () => {
    reset();
    const run = await startHeld();
    run.child.kill("SIGINT");
    // The held trial is still running; it ends when released, and no further trial starts.
    while (!run.stderr().includes("cancelling")) await new Promise((r) => setTimeout(r, 20));
    fs.writeFileSync(release, "");
    expect(await run.closed).toBe(130);
    expect(run.stderr()).toMatch(/cancelled: 4 of 6 trials ran; finish them with --resume /);
    expect(lines(holding)).toEqual(["h"]);
    const dir = runDir();
    const cases = JSON.parse(fs.readFileSync(path.join(dir, "cases.json"), "utf8")) as { partial: boolean; trials: { case: string; trial: number }[] };
    expect(cases.partial).toBe(true);
    expect(cases.trials.map((t) => `${t.case}${t.trial}`)).toEqual(["quick1", "quick2", "quick3", "held1"]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "env.json"), "utf8")).partial).toBe(true);
    expect(lines(path.join(dir, "trials.jsonl"))).toHaveLength(4);
  }, 60_000);

  it("kill -9 leaves the finished trials in trials.jsonl; --resume runs only the missing ones and completes the run", async () => {
    reset();
    const run = await startHeld();
    run.child.kill("SIGKILL");
    await run.closed;
    const dir = runDir();
    expect(fs.existsSync(path.join(dir, "matrix.json"))).toBe(false);
    expect(lines(path.join(dir, "trials.jsonl")).map((l) => (JSON.parse(l) as { case: string }).case)).toEqual(["quick", "quick", "quick"]);

    fs.writeFileSync(release, "");
    fs.rmSync(holding);
    const resumed = await runToolroom(["--config", config, "eval", suite, "--resume", dir], root);
    expect(resumed.code, resumed.stderr).toBe(0);
    // Only the three held trials ran again.
    expect(resumed.stderr).toMatch(/^\[4\/6\] pass /m);
    expect(resumed.stderr).not.toMatch(/^\[1\/6\]/m);
    expect(lines(holding)).toEqual(["h", "h", "h"]);
    const cases = JSON.parse(fs.readFileSync(path.join(dir, "cases.json"), "utf8")) as { partial: boolean; trials: unknown[] };
    expect(cases).toMatchObject({ partial: false });
    expect(cases.trials).toHaveLength(6);
    expect(fs.readdirSync(dir).sort()).toEqual(["cases.json", "env.json", "matrix.json", "transcripts"]);
    // Every trial's transcript reads back, the first attempt's (before the kill) and the resumed ones.
    const read = readEvalCasesFile(path.join(dir, "cases.json"), "cases.json");
    if (!read.ok) throw new Error(read.error);
    const transcripts = read.data.trials.map((t) => readEvalTranscript(dir, read.data, t.case, t.cell, t.trial));
    expect(transcripts.map((t) => t.ok && `${t.view.case}${t.view.trial}:${t.view.messages[0]?.role}`)).toEqual([
      "quick1:user",
      "quick2:user",
      "quick3:user",
      "held1:user",
      "held2:user",
      "held3:user",
    ]);
  }, 60_000);

  it("refuses a run above evals.maxTrials with the number (exit 2)", async () => {
    const run = await runToolroom(["--config", config, "eval", suite, "--trials", "3000", "--models", "offline,offline"], root);
    expect(run.code).toBe(2);
    // offline named twice is one cell: 2 cases × 3,000.
    expect(run.stderr).toContain("toolroom: This eval would run 6,000 trials, above the limit of 5,000");
    const small = path.join(root, "small.yaml");
    fs.writeFileSync(small, `sourceRoot: ${root}\nrunsRoot: ${path.join(root, "runs")}\nevals: { maxTrials: 5 }\n`);
    const bounded = await runToolroom(["--config", small, "eval", suite], root);
    expect(bounded.code).toBe(2);
    expect(bounded.stderr).toContain("This eval would run 6 trials, above the limit of 5 (settings evals.maxTrials)");
  }, 60_000);
});
