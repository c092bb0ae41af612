// The closing lines of `npm test`: the tests vitest and Playwright ran, summed from their JSON
// reports, and the files that took longest (where a step's time went).
import fs from "node:fs";
import path from "node:path";

const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null);

/** { passed, failed, skipped, slowest } over the reports in `dir`, or null when no runner wrote one. */
export function summarizeTests(dir, root) {
  const totals = { passed: 0, failed: 0, skipped: 0, slowest: [], failures: [], flaky: [] };
  let found = false;
  for (const name of ["unit", "integration", "storage-pg"]) {
    const report = read(path.join(dir, `${name}.json`));
    if (!report) continue;
    found = true;
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    for (const file of report.testResults ?? []) {
      totals.slowest.push({ step: name, file: path.relative(root, file.name), seconds: (file.endTime - file.startTime) / 1000 });
      for (const test of file.assertionResults ?? [])
        if (test.status === "failed") totals.failures.push(`${name}: ${path.relative(root, file.name)} › ${test.fullName}`);
      // A file that failed before any test ran (a syntax error, a hook) has no failed test to name.
      if (file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed"))
        totals.failures.push(`${name}: ${path.relative(root, file.name)} › ${(file.message ?? "failed").split("\n")[0]}`);
    }
  }
  const e2e = read(path.join(dir, "e2e.json"));
  if (e2e) {
    found = true;
    // A test that failed once and passed on its retry is "flaky": it passed, and the list names it.
    totals.passed += e2e.stats.expected + e2e.stats.flaky;
    totals.failed += e2e.stats.unexpected;
    totals.skipped += e2e.stats.skipped;
    const byFile = new Map();
    const walk = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests ?? []) {
          for (const result of test.results ?? []) byFile.set(spec.file, (byFile.get(spec.file) ?? 0) + result.duration / 1000);
          if (test.status === "unexpected") totals.failures.push(`e2e: e2e/${spec.file} › ${spec.title}`);
          if (test.status === "flaky") totals.flaky.push(`e2e: e2e/${spec.file} › ${spec.title}`);
        }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of e2e.suites ?? []) walk(suite);
    for (const [file, seconds] of byFile) totals.slowest.push({ step: "e2e", file: path.join("e2e", file), seconds });
  }
  totals.slowest = totals.slowest.sort((a, b) => b.seconds - a.seconds).slice(0, 12);
  return found ? totals : null;
}
