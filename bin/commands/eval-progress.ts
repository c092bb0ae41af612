import type { TrialRecord } from "@/lib/evals/runner";
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
  };
}
