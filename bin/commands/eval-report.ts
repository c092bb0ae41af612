import fs from "node:fs";
import { caseCounts, junitXml, type Reporter } from "@/lib/evals/reporters";
import { summarize } from "@/lib/evals/results";
import type { EvalRunResult } from "@/lib/evals/runner";
import { CliExit } from "../context";
import { alignTable } from "./runs";
import { out } from "../stdout";

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

/** A plain decimal (no sign, exponent or hex): what a person means by a pass rate. */
const DECIMAL = /^(?:\d*\.)?\d+$/;

/** `--min-pass`: a pass rate from 0 to 1 (`90` would ask for 9000 %), or exit 2. */
export function minPassOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!DECIMAL.test(value) || Number(value) > 1)
    throw new CliExit(2, `toolroom: --min-pass must be a pass rate from 0 to 1, such as 0.9 (got ${JSON.stringify(value)}).`);
  return Number(value);
}

export function tableReport(run: EvalRunResult, shownDir: string): string {
  const summary = summarize(run);
  // A JUDGE column (judge passes / trials judged) only when a judge was asked at all.
  const judged = summary.cells.some((c) => c.judge);
  const rows = summary.cells.map((c) =>
    [
      c.name,
      String(c.trials),
      String(c.passed),
      String(c.failed),
      String(c.errors),
      pct(c.passRate),
      c.p50Ms === null ? "–" : c.p50Ms.toFixed(0),
      judged ? (c.judge ? `${c.judge.passed}/${c.judge.asked}` : "–") : null,
      c.topReason ?? "",
    ].filter((v): v is string => v !== null),
  );
  const head = ["CELL", "TRIALS", "PASSED", "FAILED", "ERRORS", "PASS", "P50 MS", ...(judged ? ["JUDGE"] : []), "TOP MISMATCH"];
  const table = alignTable(head, rows, new Set(judged ? [1, 2, 3, 4, 5, 6, 7] : [1, 2, 3, 4, 5, 6]));
  return `${table}\n\n${summary.passed}/${summary.total} passed (${pct(summary.passRate)}) · results: ${shownDir}\n`;
}

/** Every trial a judge was asked about, with its verdict and reason (the json reporter's `judged`). */
function judgedTrials(run: EvalRunResult) {
  return run.trials.flatMap((t) => (t.judge ? [{ cell: t.cell, case: t.case, trial: t.trial, ...t.judge }] : []));
}

export interface ReportInput {
  reporter: Reporter;
  out?: string;
  suite: string;
  dir: string;
  shownDir: string;
  run: EvalRunResult;
  minPass?: number;
}

/**
 * Prints the run as asked (to --out when given; the table still goes to stdout for the person),
 * then the exit status: 1 when any case failed in any trial, or, with --min-pass, when the pass
 * rate is below it; 1 as well, whatever --min-pass says, when every trial of a cell errored.
 */
export function report(input: ReportInput): void {
  const { run } = input;
  const summary = summarize(run);
  const text =
    input.reporter === "json"
      ? `${JSON.stringify({ suite: input.suite, dir: input.dir, ...summary, judged: judgedTrials(run) }, null, 2)}\n`
      : input.reporter === "junit"
        ? junitXml(input.suite, run)
        : tableReport(run, input.shownDir);
  if (input.out) {
    fs.writeFileSync(input.out, text);
    if (input.reporter !== "table") out(tableReport(run, input.shownDir));
  } else out(text);
  // A cell that never got an answer measured nothing: no pass bar makes that a result (a cancelled
  // run's cells are parts, and exit 130 says so).
  const dead = run.partial ? [] : summary.cells.filter((c) => c.trials > 0 && c.errors === c.trials);
  if (dead.length)
    throw new CliExit(1, `toolroom: every trial errored in ${dead.map((c) => c.name).join(", ")} (is the model reachable?): exit 1 whatever --min-pass says.`);
  if (input.minPass !== undefined) {
    if (summary.passRate < input.minPass) throw new CliExit(1, `toolroom: pass rate ${pct(summary.passRate)} is below --min-pass ${pct(input.minPass)}.`);
    return;
  }
  const { cases, failed } = caseCounts(run);
  // Counted per case in each cell (JUnit's testcases): with several cells, say so rather than call them cases.
  const cells = run.cells.length;
  const counted = cells > 1 ? `${failed} of ${cases} case × cell pairs (${cells} cells)` : `${failed} of ${cases} cases`;
  if (failed) throw new CliExit(1, `toolroom: ${counted} failed in some trial (--min-pass sets a lower bar).`);
}
