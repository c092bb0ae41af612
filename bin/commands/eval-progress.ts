import type { TrialRecord } from "@/lib/evals/runner";
import type { EvalRunStatus } from "@/lib/server/evals/eval-runs";
import { progressBar, progressLine, type BarStyle, type ProgressOut } from "./progress-line";

const BAR: BarStyle = { width: 28, done: "█", todo: "░" };

/**
 * Progress for a terminal (one bar redrawn in place) or for a log (one plain line per trial), so
 * CI output stays readable.
 */
export function evalProgress(out: ProgressOut) {
  const line = progressLine(out);
  let passed = 0;
  let failed = 0;
  let errors = 0;
  return {
    trial(record: TrialRecord, done: number, total: number) {
      if (record.verdict === "pass") passed++;
      else if (record.verdict === "fail") failed++;
      else errors++;
      if (line.tty) {
        line.draw(`${progressBar(done, total, BAR)} ${done}/${total}  ✓ ${passed}  ✗ ${failed}  ! ${errors}  ${record.cell}: ${record.case}`);
        if (done === total) line.end();
      } else {
        const why = record.reason ? ` — ${record.reason}` : "";
        out.write(`[${done}/${total}] ${record.verdict.padEnd(5)} ${record.cell}  ${record.case} #${record.trial}${why}\n`);
      }
    },
    /** A queued run, as the store has it (the workers run its trials): a line each time more of it is done. */
    queued(status: EvalRunStatus) {
      const counts = `${status.done}/${status.total}  ✓ ${status.passed}  ✗ ${status.failed}  ! ${status.errors}${status.waiting !== null ? `  ${status.waiting} queued` : ""}`;
      if (line.tty) {
        line.draw(`${progressBar(status.done, status.total, BAR)} ${counts}`);
        if (status.state !== "running") line.end();
      } else if (status.done !== passed + failed + errors || status.state !== "running") {
        [passed, failed, errors] = [status.passed, status.failed, status.errors];
        out.write(`[${counts}] ${status.state}\n`);
      }
    },
  };
}
