import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolroom } from "@/lib/testing/cli";
import { parseXml } from "@/lib/testing/xml";

const REPO = path.resolve(import.meta.dirname, "../..");
const BFCL = path.join(REPO, "lib/evals/__fixtures__/bfcl");

let root: string;
let config: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-cli-eval-report-"));
  config = path.join(root, "settings.yaml");
  // The repository is the source root (the example suite asks about its code); the search tools'
  // indexes go to the test's folder, not into the checkout.
  const cache = path.join(root, "cache");
  fs.writeFileSync(config, `sourceRoot: ${REPO}\nrunsRoot: ${path.join(root, "runs")}\nsearch: { cacheDir: ${cache} }\n`);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("toolroom eval --reporter", () => {
  it("writes JUnit XML to --out, exits 1 when a case fails, and 0 when --min-pass sets a lower bar; --protocols all", async () => {
    const suite = path.join(root, "two.eval.yaml");
    fs.writeFileSync(
      suite,
      `name: two\ncases:\n  - { name: right, prompt: list files in lib, expect: { calls: [{ tool: list_files }] } }\n  - { name: wrong, prompt: list files in lib, expect: { calls: [{ tool: read_file }] } }\n`,
    );
    const out = path.join(root, "report.xml");
    const run = await runToolroom(["--config", config, "eval", suite, "--reporter", "junit", "--out", out], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("toolroom: 1 of 2 cases failed in some trial");
    expect(run.stdout).toMatch(/^offline · native\s+2\s+1\s+1\s+0\s+50\.0%/m);
    const xml = parseXml(fs.readFileSync(out, "utf8"));
    expect(xml.children.map((s) => s.attributes.name)).toEqual(["offline · native"]);
    const cases = xml.children[0]!.children;
    expect(cases.map((c) => [c.attributes.name, c.children.map((f) => f.name)])).toEqual([
      ["right", []],
      ["wrong", ["failure"]],
    ]);
    // --protocols all: native and every text protocol, each its own cell.
    const lenient = await runToolroom(["--config", config, "eval", suite, "--reporter", "json", "--min-pass", "0.5", "--protocols", "all"], root);
    expect(lenient.code).toBe(0);
    const summary = JSON.parse(lenient.stdout) as { suite: string; passed: number; total: number; cells: { name: string }[] };
    expect(summary).toMatchObject({ suite: "two", passed: 7, total: 14 });
    expect(summary.cells.map((c) => c.name)).toEqual([
      "offline · native",
      "offline · text · action",
      "offline · text · json",
      "offline · text · hermes",
      "offline · text · xml",
      "offline · text · llama",
      "offline · text · mistral",
    ]);
    // Without the bar, the count is of cases in each cell, and says so.
    const strict = await runToolroom(["--config", config, "eval", suite, "--reporter", "json", "--protocols", "all"], root);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("toolroom: 7 of 14 case × cell pairs (7 cells) failed in some trial");
  }, 120_000);
});

describe("toolroom eval with a judge", () => {
  it("refuses a judge model settings lack (exit 2, naming file, case and key), and shows verdicts in the table and JSON", async () => {
    const suite = path.join(root, "judged.eval.yaml");
    const write = (model: string) =>
      fs.writeFileSync(
        suite,
        `name: judged\ncases:\n  - name: lists\n    prompt: list files in lib\n    expect: { calls: [{ tool: list_files }], answer: { judge: 'names "list_files"', model: ${model} } }\n`,
      );
    write("nobody");
    const bad = await runToolroom(["--config", config, "eval", suite], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`case 1 "lists", key expect.answer.model: no model named "nobody" in settings llms`);
    write("offline");
    const table = await runToolroom(["--config", config, "eval", suite, "--out", path.join(root, "judged.json"), "--reporter", "json"], root);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/JUDGE/);
    expect(table.stdout).toMatch(/^offline · native\s+1\s+1\s+0\s+0\s+100\.0%\s+\d+\s+1\/1/m);
    const json = JSON.parse(fs.readFileSync(path.join(root, "judged.json"), "utf8")) as { judged: unknown[]; cells: { judge?: unknown }[] };
    expect(json.judged).toEqual([
      { cell: "offline · native", case: "lists", trial: 1, verdict: "pass", reason: 'the answer contains "list_files"', model: "offline" },
    ]);
    expect(json.cells[0]!.judge).toEqual({ asked: 1, passed: 1 });
  }, 120_000);
});

describe("toolroom eval import-bfcl", () => {
  it("writes a suite that loads, and refuses multi-turn data with exit 2", async () => {
    const out = path.join(root, "bfcl-simple.eval.yaml");
    const run = await runToolroom(
      [
        "--config",
        config,
        "eval",
        "import-bfcl",
        "--questions",
        path.join(BFCL, "BFCL_v4_simple_python.json"),
        "--answers",
        path.join(BFCL, "possible_answer/BFCL_v4_simple_python.json"),
        "--out",
        out,
      ],
      root,
    );
    expect(run.stderr).toContain(`wrote ${out}: 2 cases`);
    expect(run.code).toBe(0);
    expect(fs.readFileSync(out, "utf8")).toMatch(/^name: bfcl-simple$/m);
    const refused = await runToolroom(
      ["--config", config, "eval", "import-bfcl", "--questions", path.join(BFCL, "BFCL_v4_multi_turn_base.json"), "--out", path.join(root, "m.eval.yaml")],
      root,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/multi_turn_base_0: multi-turn categories/);
    expect(fs.existsSync(path.join(root, "m.eval.yaml"))).toBe(false);
  }, 60_000);
});

describe("toolroom eval diff", () => {
  it("lists per-case changes between two run folders, as JSON, with the warnings", async () => {
    const write = (name: string, trials: [string, string, number, string?][]) => {
      const dir = path.join(root, "runs/evals/s", name);
      fs.mkdirSync(dir, { recursive: true });
      const cell = "offline · native";
      fs.writeFileSync(
        path.join(dir, "cases.json"),
        JSON.stringify({
          suite: "s",
          trials: trials.map(([c, verdict, trial, reason]) => ({ case: c, cell, model: "offline", trial, verdict, reasons: reason ? [reason] : [] })),
        }),
      );
    };
    write("a", [
      ["keeps", "pass", 1],
      ["breaks", "pass", 1],
      ["mends", "fail", 1],
    ]);
    write("b", [
      ["keeps", "pass", 1],
      ["keeps", "pass", 2],
      // A case that expects no call (noCalls) and got one: the row says so.
      ["breaks", "fail", 1, "called read_file; expected no tool call"],
      ["breaks", "fail", 2, "called read_file; expected no tool call"],
      ["mends", "pass", 1],
      ["mends", "pass", 2],
    ]);
    const run = await runToolroom(["--config", config, "eval", "diff", "evals/s/a", "evals/s/b", "--json"], root);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ regressed: ["breaks"], fixed: ["mends"], flaky: [], new: [], removed: [] });
    expect(run.stderr).toContain("warning: the runs differ in trials per case: 1 and 2");
    const text = await runToolroom(["--config", config, "eval", "diff", "evals/s/a", "evals/s/b"], root);
    expect(text.stdout).toMatch(/^Regressed \(1\):\n {2}breaks {2}\[offline · native\] {2}pass → fail: called read_file; expected no tool call$/m);
    expect(JSON.parse(run.stdout).details).toContainEqual(expect.objectContaining({ case: "breaks", reason: "called read_file; expected no tool call" }));
  }, 60_000);
});
