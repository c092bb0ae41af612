import fs from "node:fs";
import { caseCounts, junitXml, type Reporter } from "@/lib/evals/reporters";
import { summarize } from "@/lib/evals/results";
import type { EvalRunResult } from "@/lib/evals/runner";
import { CliExit } from "../context";
import { alignTable } from "./runs";

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

export function tableReport(run: EvalRunResult, shownDir: string): string {
  const summary = summarize(run);
  const rows = summary.cells.map((c) => [
    c.name,
    String(c.trials),
    String(c.passed),
    String(c.failed),
    String(c.errors),
    pct(c.passRate),
    c.p50Ms === null ? "–" : c.p50Ms.toFixed(0),
    c.topReason ?? "",
  ]);
  const table = alignTable(["CELL", "TRIALS", "PASSED", "FAILED", "ERRORS", "PASS", "P50 MS", "TOP MISMATCH"], rows, new Set([1, 2, 3, 4, 5, 6]));
  return `${table}\n\n${summary.passed}/${summary.total} passed (${pct(summary.passRate)}) · results: ${shownDir}\n`;
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
 * rate is below it.
 */
export function report(input: ReportInput): void {
  const { run } = input;
  const summary = summarize(run);
  const text =
    input.reporter === "json"
      ? `${JSON.stringify({ suite: input.suite, dir: input.dir, ...summary }, null, 2)}\n`
      : input.reporter === "junit"
        ? junitXml(input.suite, run)
        : tableReport(run, input.shownDir);
  if (input.out) {
    fs.writeFileSync(input.out, text);
    if (input.reporter !== "table") process.stdout.write(tableReport(run, input.shownDir));
  } else process.stdout.write(text);
  if (input.minPass !== undefined) {
    if (summary.passRate < input.minPass) throw new CliExit(1, `toolroom: pass rate ${pct(summary.passRate)} is below --min-pass ${pct(input.minPass)}.`);
    return;
  }
  const { cases, failed } = caseCounts(run);
  if (failed) throw new CliExit(1, `toolroom: ${failed} of ${cases} cases failed in some trial (--min-pass sets a lower bar).`);
}
