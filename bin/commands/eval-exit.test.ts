import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EvalRunResult, TrialRecord } from "@/lib/evals/runner";
import { CliExit } from "../context";
import { minPassOf, report } from "./eval-report";

function trial(cell: string, model: string, c: string, verdict: TrialRecord["verdict"]): TrialRecord {
  return {
    cell,
    model,
    mode: "native",
    protocol: null,
    case: c,
    trial: 1,
    prompt: "p",
    calls: [],
    answer: "",
    steps: 1,
    verdict,
    reason: verdict === "error" ? "error: connect ECONNREFUSED" : null,
    reasons: verdict === "error" ? ["error: connect ECONNREFUSED"] : [],
    latency_ms: 1,
    input_tokens: null,
    output_tokens: null,
    chat_id: null,
  };
}

// One cell passes everything, the other's model is unreachable: half the trials pass.
const run: EvalRunResult = {
  cells: [
    { name: "offline · native", model: "offline", mode: "native", protocol: null },
    { name: "gone · native", model: "gone", mode: "native", protocol: null },
  ],
  trials: [
    trial("offline · native", "offline", "a", "pass"),
    trial("offline · native", "offline", "b", "pass"),
    trial("gone · native", "gone", "a", "error"),
    trial("gone · native", "gone", "b", "error"),
  ],
  trialsPerCase: 1,
  total: 4,
  partial: false,
  startedAt: new Date(0),
  finishedAt: new Date(0),
};
const input = { reporter: "table", suite: "s", dir: "/r", shownDir: "r", run } as const;

beforeEach(() => {
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
});
afterEach(() => vi.restoreAllMocks());

const exitOf = (f: () => unknown): { code: number; message: string } | undefined => {
  try {
    f();
  } catch (error) {
    if (error instanceof CliExit) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
};

describe("toolroom eval's exit status", () => {
  it("takes --min-pass as a pass rate from 0 to 1 and refuses anything else with exit 2", () => {
    expect(minPassOf(undefined)).toBeUndefined();
    expect([minPassOf("0"), minPassOf("0.9"), minPassOf(".5"), minPassOf("1"), minPassOf("1.0")]).toEqual([0, 0.9, 0.5, 1, 1]);
    for (const bad of ["90", "-1", "", " ", "1.5", "abc", "90%", "0x1"])
      expect(exitOf(() => minPassOf(bad))).toEqual({
        code: 2,
        message: `toolroom: --min-pass must be a pass rate from 0 to 1, such as 0.9 (got ${JSON.stringify(bad)}).`,
      });
  });

  it("exits 1 when every trial of a cell errored, whatever --min-pass says", () => {
    expect(exitOf(() => report({ ...input, minPass: 0.5 }))).toEqual({
      code: 1,
      message: "toolroom: every trial errored in gone · native (is the model reachable?): exit 1 whatever --min-pass says.",
    });
    expect(exitOf(() => report(input))?.code).toBe(1);
    const reachable = { ...run, trials: run.trials.map((t) => (t.cell === "gone · native" && t.case === "a" ? { ...t, verdict: "pass" as const } : t)) };
    expect(exitOf(() => report({ ...input, run: reachable, minPass: 0.5 }))).toBeUndefined();
  });
});
