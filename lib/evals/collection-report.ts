import { junitDocument, type JUnitCase } from "./junit";
import type { ExpectFailure } from "./collection-expect";
import type { CallResult, CollectionRunResult } from "./collection-run";

/** One failed expectation as a line: `contains: expected contains "x", got "…"`. */
export function failureLine(f: ExpectFailure): string {
  return `${f.key}: expected ${f.expected}, got ${JSON.stringify(f.actual)}`;
}

const outcomeText = (r: CallResult) =>
  r.outcome === "not-admitted" ? `not admitted${r.decidedBy ? ` (${r.decidedBy})` : ""}` : r.outcome === "ran" ? `${r.durationMs} ms` : r.outcome;

/** The run as a terminal table: one line a call, its failures indented under it, the counts last. */
export function collectionTable(run: CollectionRunResult): string {
  const nameWidth = Math.max(4, ...run.results.map((r) => r.name.length));
  const toolWidth = Math.max(4, ...run.results.map((r) => r.tool.length));
  const lines = run.results.flatMap((r) => [
    `${r.verdict === "pass" ? "pass" : "FAIL"}  ${r.name.padEnd(nameWidth)}  ${r.tool.padEnd(toolWidth)}  ${outcomeText(r)}`,
    ...r.failures.map((f) => `      ${failureLine(f)}`),
  ]);
  lines.push(`${run.collection}: ${run.passed} of ${run.results.length} calls passed${run.failed ? `, ${run.failed} failed` : ""}`);
  return `${lines.join("\n")}\n`;
}

/**
 * JUnit XML through the eval reporter's writer: one <testsuite> (the collection), one <testcase> a
 * call; an expectation that did not hold is a <failure>, a call that could not be made (no such
 * tool, a placeholder with no value) an <error>.
 */
export function collectionJunit(run: CollectionRunResult): string {
  const cases = run.results.map((r): JUnitCase => {
    const base = { name: r.name, classname: `${run.collection}.${r.tool}`, ms: r.durationMs };
    if (r.verdict === "pass") return base;
    const kind = r.outcome === "unavailable" || r.outcome === "skipped" ? "error" : "failure";
    return {
      ...base,
      problem: { kind, message: failureLine(r.failures[0]!), type: kind === "error" ? "error" : "mismatch", text: r.failures.map(failureLine).join("\n") },
    };
  });
  const ms = cases.reduce((sum, c) => sum + c.ms, 0);
  return junitDocument(run.collection, ms, [{ name: run.collection, ms, cases }]);
}
