import { junitDocument, type JUnitCase } from "./junit";
import type { EvalCell, EvalRunResult, TrialRecord } from "./runner";

/** The ways `toolroom eval --reporter` prints a run. */
export const REPORTERS = ["table", "json", "junit"] as const;
export type Reporter = (typeof REPORTERS)[number];

interface CaseResult {
  name: string;
  trials: TrialRecord[];
  failing: TrialRecord[];
}

function casesOf(cell: EvalCell, run: EvalRunResult): CaseResult[] {
  const byCase = new Map<string, TrialRecord[]>();
  for (const t of run.trials) {
    if (!t || t.cell !== cell.name) continue;
    byCase.set(t.case, [...(byCase.get(t.case) ?? []), t]);
  }
  return [...byCase].map(([name, trials]) => ({ name, trials, failing: trials.filter((t) => t.verdict !== "pass") }));
}

/** Case × cell results: a case fails in a cell when any of its trials there did not pass. */
export function caseCounts(run: EvalRunResult): { cases: number; failed: number } {
  let cases = 0;
  let failed = 0;
  for (const cell of run.cells)
    for (const c of casesOf(cell, run)) {
      cases++;
      if (c.failing.length) failed++;
    }
  return { cases, failed };
}

/** A case a trial of did not pass: an error when no trial of it failed a check (each ended in an error), else a failure. */
const kindOf = (c: CaseResult): "error" | "failure" | null => (!c.failing.length ? null : c.failing.every((t) => t.verdict === "error") ? "error" : "failure");

const trialsText = (n: number) => `${n} ${n === 1 ? "trial" : "trials"}`;

/**
 * JUnit XML as CI servers read it: one <testsuite> per cell (named like the cell), one <testcase>
 * per case, and when the case did not pass in every trial a <failure> — or an <error> when its
 * trials only errored (a provider error is no mismatch), counted in `errors` — its message the first
 * reason (a judge's reason among them), its text every failing trial's reasons; a judged case's
 * verdicts go in its <system-out>.
 */
export function junitXml(suite: string, run: EvalRunResult): string {
  const allMs = run.trials.reduce((sum, t) => sum + (t?.latency_ms ?? 0), 0);
  const suites = run.cells.map((cell) => {
    const cases = casesOf(cell, run).map((c): JUnitCase => {
      // What a judge said of the trials, passing ones too: CI shows why a judged case passed.
      const judged = c.trials.flatMap((t) => (t.judge ? [`trial ${t.trial}: judge ${t.judge.model} ${t.judge.verdict}: ${t.judge.reason}`] : []));
      const base = {
        name: c.name,
        classname: `${suite}.${cell.name}`,
        ms: c.trials.reduce((s, t) => s + t.latency_ms, 0),
        ...(judged.length ? { systemOut: judged.join("\n") } : {}),
      };
      const kind = kindOf(c);
      if (!kind) return base;
      // A failure's message leads with a mismatch: an error beside it says less about the case.
      const first = c.failing.find((t) => t.verdict !== "error") ?? c.failing[0]!;
      const message = `${c.failing.length} of ${trialsText(c.trials.length)} ${kind === "error" ? "errored" : "failed"}: ${first.reason ?? first.verdict}`;
      const text = c.failing.map((t) => `trial ${t.trial} (${t.verdict}): ${t.reasons.join("; ") || t.verdict}`).join("\n");
      return { ...base, problem: { kind, message, type: kind === "error" ? "error" : "mismatch", text } };
    });
    return { name: cell.name, ms: cases.reduce((sum, c) => sum + c.ms, 0), cases };
  });
  return junitDocument(suite, allMs, suites);
}
