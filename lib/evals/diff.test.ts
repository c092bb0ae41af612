import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diffRuns, type EvalRunFacts, type RunTrial } from "./diff";
import { readEvalRunFacts } from "./run-files";

const facts = (trials: [string, string, string][], extra: Partial<EvalRunFacts> = {}): EvalRunFacts => ({
  label: "run",
  suite: "s",
  suiteSha: "abc",
  trialsPerCase: 2,
  models: ["offline"],
  protocols: [],
  trials: trials.map(([c, cell, verdict]): RunTrial => ({ case: c, cell, verdict })),
  ...extra,
});

const CELL = "offline · native";

describe("diffing two eval runs", () => {
  it("lists regressed, fixed, flaky, new and removed cases", () => {
    const a = facts([
      ["stays", CELL, "pass"],
      ["stays", CELL, "pass"],
      ["breaks", CELL, "pass"],
      ["breaks", CELL, "pass"],
      ["mends", CELL, "fail"],
      ["mends", CELL, "error"],
      ["wobbles", CELL, "pass"],
      ["wobbles", CELL, "pass"],
      ["goes", CELL, "pass"],
    ]);
    const b = facts([
      ["stays", CELL, "pass"],
      ["stays", CELL, "pass"],
      ["breaks", CELL, "fail"],
      ["breaks", CELL, "fail"],
      ["mends", CELL, "pass"],
      ["mends", CELL, "pass"],
      ["wobbles", CELL, "pass"],
      ["wobbles", CELL, "fail"],
      ["comes", CELL, "pass"],
    ]);
    const diff = diffRuns(a, b);
    expect({ ...diff, details: undefined }).toEqual({
      regressed: ["breaks"],
      fixed: ["mends"],
      flaky: ["wobbles"],
      new: ["comes"],
      removed: ["goes"],
      cellsAdded: [],
      cellsRemoved: [],
      details: undefined,
      warnings: [],
    });
    expect(diff.details.find((d) => d.case === "stays")).toEqual({
      case: "stays",
      cell: CELL,
      before: "pass",
      after: "pass",
      change: "unchanged",
      reason: null,
    });
  });

  it("says why a case fails in B: a noCalls case that made a call says it expected none", () => {
    const a = facts([["irrelevant", CELL, "pass"]]);
    const b = { ...a, trials: [{ case: "irrelevant", cell: CELL, verdict: "fail", reasons: ["called get_weather; expected no tool call"] }] };
    expect(diffRuns(a, b).details).toEqual([
      { case: "irrelevant", cell: CELL, before: "pass", after: "fail", change: "regressed", reason: "called get_weather; expected no tool call" },
    ]);
    expect(diffRuns(b, a).details[0]).toMatchObject({ change: "fixed", reason: null });
  });

  it("judges a case per cell", () => {
    const a = facts([
      ["c", "m1 · native", "pass"],
      ["c", "m1 · text", "pass"],
    ]);
    const b = facts([
      ["c", "m1 · native", "pass"],
      ["c", "m1 · text", "fail"],
    ]);
    expect(diffRuns(a, b).regressed).toEqual(["c"]);
    expect(diffRuns(a, b).details.map((d) => d.change)).toEqual(["unchanged", "regressed"]);
  });

  it("warns when the runs differ in trials, models or suite version", () => {
    const a = facts([["c", CELL, "pass"]]);
    const b = facts([["c", CELL, "pass"]], { trialsPerCase: 5, models: ["gpt", "offline"], suiteSha: "def" });
    expect(diffRuns(a, b).warnings).toEqual([
      "the suite file changed between the runs (abc → def)",
      "the runs differ in trials per case: 2 and 5",
      "the runs differ in models: offline and gpt, offline",
    ]);
    expect(diffRuns(a, facts([["c", CELL, "pass"]], { suite: "other" })).warnings).toEqual(["the runs are of different suites: s and other"]);
  });

  it("lists as new or removed only cases one run lacks; a cell only one run has is a warning and its own list", () => {
    const a = facts([
      ["kept", "gpt · native", "pass"],
      ["kept", CELL, "pass"],
      ["goes", CELL, "pass"],
    ]);
    const b = facts([
      ["kept", CELL, "fail"],
      ["kept", "offline · text · json", "pass"],
      ["comes", CELL, "pass"],
      // A new case in a cell only run B has: the case is new, the cell is not compared (no row for it).
      ["comes", "offline · text · json", "pass"],
      // A new case in a cell only run B has: the case is new, the cell is not compared (no row for it).
      ["comes", "offline · text · json", "pass"],
    ]);
    const diff = diffRuns(a, b);
    expect(diff).toMatchObject({
      regressed: ["kept"],
      new: ["comes"],
      removed: ["goes"],
      cellsRemoved: ["gpt · native"],
      cellsAdded: ["offline · text · json"],
    });
    expect(diff.warnings).toEqual(["cells only in run A, not compared: gpt · native", "cells only in run B, not compared: offline · text · json"]);
    expect(diff.details.map((d) => [d.case, d.cell, d.change])).toEqual([
      ["comes", CELL, "new"],
      ["goes", CELL, "removed"],
      ["kept", CELL, "regressed"],
    ]);
  });

  it("warns when the runs differ in text protocols", () => {
    const a = facts([["c", "offline · text · xml", "pass"]], { protocols: ["xml"] });
    const b = facts([["c", "offline · text · action", "pass"]], { protocols: ["action"] });
    expect(diffRuns(a, b).warnings).toContain("the runs differ in text protocols: xml and action");
  });

  it("names a text cell of a run written before cells carried their protocol by that protocol", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-diff-"));
    try {
      const trial = { case: "a", cell: "offline · text", model: "offline", mode: "text", protocol: "xml", trial: 1, verdict: "pass" };
      fs.writeFileSync(path.join(dir, "cases.json"), JSON.stringify({ suite: "s", trials: [trial] }));
      const read = readEvalRunFacts(dir, "r");
      expect(read.trials.map((t) => t.cell)).toEqual(["offline · text · xml"]);
      expect(read.protocols).toEqual(["xml"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads an eval run folder's files", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-diff-"));
    try {
      const trial = (c: string, n: number, verdict: string) => ({ case: c, cell: CELL, model: "offline", trial: n, verdict });
      fs.writeFileSync(path.join(dir, "cases.json"), JSON.stringify({ suite: "s", trials: [trial("a", 1, "pass"), trial("a", 2, "fail")] }));
      fs.writeFileSync(path.join(dir, "matrix.json"), JSON.stringify({ workload: "s", recipe_source: { sha256: "f00" } }));
      expect(readEvalRunFacts(dir, "r")).toMatchObject({ label: "r", suite: "s", suiteSha: "f00", trialsPerCase: 2, models: ["offline"] });
      expect(() => readEvalRunFacts(path.join(dir, "nope"), "nope")).toThrow("nope: no cases.json; is this an eval run folder?");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
