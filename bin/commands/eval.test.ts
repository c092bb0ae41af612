import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolroom } from "@/lib/testing/cli";

const REPO = path.resolve(import.meta.dirname, "../..");
const SUITE = path.join(REPO, "examples/evals/builtins.eval.yaml");

let root: string;
let config: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-cli-eval-"));
  config = path.join(root, "settings.yaml");
  // The example suite reads this repository's files (README.md, lib/); results go to the temp folder.
  // The repository is the source root (the example suite asks about its code); the search tools'
  // indexes go to the test's folder, not into the checkout.
  const cache = path.join(root, "cache");
  fs.writeFileSync(config, `sourceRoot: ${REPO}\nrunsRoot: ${path.join(root, "runs")}\nsearch: { cacheDir: ${cache} }\n`);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("toolroom eval", () => {
  it("runs the example suite offline in both modes: progress, the table, a run folder, exit 0", async () => {
    const run = await runToolroom(["--config", config, "eval", SUITE, "--modes", "native,text"], root);
    expect(run.stderr).toMatch(/^\[1\/56\] pass /m);
    expect(run.stderr).toMatch(/^\[56\/56\] /m);
    expect(run.stdout).toMatch(/^CELL\s+TRIALS\s+PASSED\s+FAILED\s+ERRORS\s+PASS\s+P50 MS\s+TOP MISMATCH$/m);
    expect(run.stdout).toMatch(/^offline · native\s+28\s+28\s+0\s+0\s+100\.0%/m);
    expect(run.stdout).toMatch(/^offline · text · json\s+28\s+28\s+0\s+0\s+100\.0%/m);
    expect(run.stdout).toContain("56/56 passed (100.0%)");
    expect(run.code).toBe(0);
    const runs = fs.readdirSync(path.join(root, "runs/evals/builtins"));
    expect(runs).toHaveLength(1);
    const runDir = path.join(root, "runs/evals/builtins", runs[0]!);
    // No database here: each trial's transcript is kept in the run folder, one file per cell.
    expect(fs.readdirSync(runDir).sort()).toEqual(["cases.json", "env.json", "matrix.json", "transcripts"]);
    expect(fs.readdirSync(path.join(runDir, "transcripts"))).toHaveLength(2);
    const cases = JSON.parse(fs.readFileSync(path.join(runDir, "cases.json"), "utf8")) as { trials: { chat_id: unknown; transcript?: { file: string } }[] };
    expect(cases.trials.filter((t) => t.chat_id === null && t.transcript?.file.startsWith("transcripts/"))).toHaveLength(56);
  }, 120_000);

  it("exits 1 when the pass rate is below --min-pass, and prints JSON with --json; 2 for a --min-pass above 1", async () => {
    const half = path.join(root, "half.eval.yaml");
    fs.writeFileSync(
      half,
      `name: half\ncases:\n  - { name: right, prompt: list files in lib, expect: { calls: [{ tool: list_files }] } }\n  - { name: wrong, prompt: list files in lib, expect: { calls: [{ tool: read_file }] } }\n`,
    );
    const run = await runToolroom(["--config", config, "eval", half, "--min-pass", "0.9", "--json"], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("toolroom: pass rate 50.0% is below --min-pass 90.0%.");
    const summary = JSON.parse(run.stdout) as { suite: string; passed: number; total: number; cells: { name: string }[] };
    expect(summary).toMatchObject({ suite: "half", passed: 1, total: 2, cells: [{ name: "offline · native" }] });
    const above = await runToolroom(["--config", config, "eval", half, "--min-pass", "1.01"], root);
    expect(above.code).toBe(2);
    expect(above.stderr).toContain('toolroom: --min-pass must be a pass rate from 0 to 1, such as 0.9 (got "1.01").');
  }, 120_000);

  it("exits 2 for an unknown --protocols value, naming the flag, the value and every value it takes (all too)", async () => {
    const run = await runToolroom(["--config", config, "eval", SUITE, "--protocols", "json,bogus"], root);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe("toolroom: --protocols bogus: expected all, or a comma-separated list of action, json, hermes, xml, llama, mistral.");
  }, 60_000);

  it("exits 2 naming the file, the case and the key of a broken suite", async () => {
    const broken = path.join(root, "broken.eval.yaml");
    fs.writeFileSync(broken, "name: b\ncases:\n  - name: one\n    prompt: hi\n    confirm: sometimes\n");
    const run = await runToolroom(["--config", config, "eval", broken], root);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`${broken.replace(/[.]/g, "\\.")}: case 1 "one", key confirm: `));
  }, 60_000);
});
