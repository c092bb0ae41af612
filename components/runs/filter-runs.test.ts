import { describe, expect, it } from "vitest";
import { compareHref, fileHref, filterRuns, layoutOf, nextSort, runHref } from "./filter-runs";
import type { RunRow } from "./types";
import { verdictRank, verdictTone } from "./verdict";

const row = (rel: string, over: Partial<RunRow> = {}): RunRow => ({
  rel,
  layout: "triage",
  kind: "matrix",
  when: null,
  ticket: null,
  workload: null,
  case: null,
  cells: null,
  failedCells: null,
  verdict: null,
  findings: null,
  partialEnv: null,
  errorCount: 0,
  warningCount: 0,
  firstError: null,
  ...over,
});

const rows = [
  row("T-1/fsdp/a", { when: "2026-04-28T14:12:03Z", ticket: "T-1", workload: "fsdp", verdict: "fail", cells: 4, failedCells: 2 }),
  row("T-2/llama/b", { when: "2026-05-01T00:00:00Z", ticket: "T-2", workload: "llama", verdict: "pass", cells: 10, failedCells: 0 }),
  row("runs/x/waitcheck", { layout: "dashboard", kind: "sanitizer", case: "waitcheck", verdict: "warn" }),
  row("T-3/bad/c", { verdict: "unknown", errorCount: 1 }),
];

describe("filterRuns", () => {
  it("sorts newest first by default, undated runs last", () => {
    expect(filterRuns(rows, { query: "", verdict: "", layout: "" }, { key: "when", dir: "desc" }).map((r) => r.rel)).toEqual([
      "T-2/llama/b",
      "T-1/fsdp/a",
      "runs/x/waitcheck",
      "T-3/bad/c",
    ]);
  });

  it("searches every word across path, ticket, workload and case", () => {
    expect(filterRuns(rows, { query: "t-1 fsdp", verdict: "", layout: "" }, { key: "rel", dir: "asc" }).map((r) => r.rel)).toEqual(["T-1/fsdp/a"]);
    expect(filterRuns(rows, { query: "waitcheck", verdict: "", layout: "" }, { key: "rel", dir: "asc" })).toHaveLength(1);
  });

  it("filters by verdict tone and layout", () => {
    expect(filterRuns(rows, { query: "", verdict: "warn", layout: "" }, { key: "rel", dir: "asc" }).map((r) => r.rel)).toEqual(["runs/x/waitcheck"]);
    expect(filterRuns(rows, { query: "", verdict: "", layout: "dashboard" }, { key: "rel", dir: "asc" })).toHaveLength(1);
  });

  it("sorts verdicts worst first and cell counts numerically", () => {
    expect(filterRuns(rows, { query: "", verdict: "", layout: "" }, { key: "verdict", dir: "asc" }).map((r) => r.verdict)).toEqual([
      "fail",
      "warn",
      "unknown",
      "pass",
    ]);
    expect(filterRuns(rows, { query: "", verdict: "", layout: "" }, { key: "cells", dir: "desc" }).map((r) => r.cells)).toEqual([10, 4, null, null]);
  });

  it("sorts and filters eval runs by their pass rate, and lists them under the layout eval", () => {
    const evalRow = (rel: string, passed: number, trials: number) =>
      row(rel, { verdict: passed === trials ? "pass" : "fail", eval: { suite: rel, cells: 1, cases: 1, passed, trials } });
    const mixed = [...rows, evalRow("evals/half", 5, 10), evalRow("evals/all", 4, 4), evalRow("evals/none", 0, 4), evalRow("evals/most", 9, 10)];
    const all = { query: "", verdict: "", layout: "" } as const;
    // Ties (a failed run and an eval at 0%; two passing runs) in path order.
    expect(filterRuns(mixed, all, { key: "verdict", dir: "asc" }).map((r) => r.rel)).toEqual([
      "evals/none",
      "T-1/fsdp/a",
      "evals/half",
      "evals/most",
      "runs/x/waitcheck",
      "T-3/bad/c",
      "evals/all",
      "T-2/llama/b",
    ]);
    // The matrix says "fail" for an eval with one failing trial: the filter reads its pass rate.
    expect(filterRuns(mixed, { ...all, verdict: "warn" }, { key: "rel", dir: "asc" }).map((r) => r.rel)).toEqual([
      "evals/half",
      "evals/most",
      "runs/x/waitcheck",
    ]);
    expect(filterRuns(mixed, { ...all, verdict: "fail" }, { key: "rel", dir: "asc" }).map((r) => r.rel)).toEqual(["evals/none", "T-1/fsdp/a"]);
    expect(filterRuns(mixed, { ...all, verdict: "pass" }, { key: "rel", dir: "asc" }).map((r) => r.rel)).toEqual(["evals/all", "T-2/llama/b"]);
    expect(filterRuns(mixed, { ...all, layout: "eval" }, { key: "rel", dir: "asc" })).toHaveLength(4);
    expect(layoutOf(mixed[0]!)).toBe("triage");
    expect(filterRuns(mixed, { ...all, query: "eval half" }, { key: "rel", dir: "asc" }).map((r) => r.rel)).toEqual(["evals/half"]);
  });

  it("flips direction on the same column", () => {
    expect(nextSort({ key: "when", dir: "desc" }, "when")).toEqual({ key: "when", dir: "asc" });
    expect(nextSort({ key: "when", dir: "desc" }, "ticket")).toEqual({ key: "ticket", dir: "asc" });
  });
});

describe("links", () => {
  it("carry the root only when it is an override, encoded", () => {
    expect(runHref("T-1/fsdp/a", null)).toBe("/runs/view?path=T-1%2Ffsdp%2Fa");
    expect(runHref("a b", "/tmp/r&x")).toBe("/runs/view?root=%2Ftmp%2Fr%26x&path=a+b");
    expect(compareHref("a", "b", null)).toBe("/runs/compare?a=a&b=b");
    expect(fileHref("a/matrix.json", null, true)).toBe("/api/runs/file?path=a%2Fmatrix.json&download=1");
  });
});

describe("verdict tones", () => {
  it("maps every producer's words to four tones", () => {
    expect(["pass", "fail", "error", "warn", "unknown", null].map(verdictTone)).toEqual(["pass", "fail", "fail", "warn", "unknown", "unknown"]);
    expect(verdictRank("error")).toBeLessThan(verdictRank("fail"));
  });
});
