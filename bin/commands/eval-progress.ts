import type { TrialRecord } from "@/lib/evals/runner";

const BAR_WIDTH = 28;

/**
 * Progress for a terminal (one bar redrawn in place) or for a log (one plain line per trial), so
 * CI output stays readable.
 */
export function evalProgress(out: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean }) {
  const tty = out.isTTY === true;
  let passed = 0;
  let failed = 0;
  let errors = 0;
  return {
    trial(record: TrialRecord, done: number, total: number) {
      if (record.verdict === "pass") passed++;
      else if (record.verdict === "fail") failed++;
      else errors++;
      if (tty) {
        const filled = Math.round((done / total) * BAR_WIDTH);
        const bar = `${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}`;
        out.write(`\r\x1b[2K${bar} ${done}/${total}  ✓ ${passed}  ✗ ${failed}  ! ${errors}  ${record.cell}: ${record.case}`);
        if (done === total) out.write("\n");
      } else {
        const why = record.reason ? ` — ${record.reason}` : "";
        out.write(`[${done}/${total}] ${record.verdict.padEnd(5)} ${record.cell}  ${record.case} #${record.trial}${why}\n`);
      }
    },
  };
}
