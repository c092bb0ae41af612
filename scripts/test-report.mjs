// The closing line of `npm test`: the tests vitest and Playwright ran, summed from their JSON reports.
import fs from "node:fs";
import path from "node:path";

const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null);

/** { passed, failed, skipped } over the reports in `dir`, or null when no runner wrote one. */
export function summarizeTests(dir) {
  const totals = { passed: 0, failed: 0, skipped: 0 };
  let found = false;
  for (const name of ["unit", "integration"]) {
    const report = read(path.join(dir, `${name}.json`));
    if (!report) continue;
    found = true;
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  }
  const e2e = read(path.join(dir, "e2e.json"));
  if (e2e) {
    found = true;
    // A test that failed once and passed on its retry is "flaky": it passed, and the list names it.
    totals.passed += e2e.stats.expected + e2e.stats.flaky;
    totals.failed += e2e.stats.unexpected;
    totals.skipped += e2e.stats.skipped;
  }
  return found ? totals : null;
}
