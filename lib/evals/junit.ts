/** JUnit XML as CI servers read it, for every report that is a set of named checks (eval runs, collection runs). */

/** Characters XML 1.0 cannot hold at all (control characters a model may well emit): dropped. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xml(text: string): string {
  return text.replace(NOT_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${xml(String(v))}"`)
    .join("");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export interface JUnitCase {
  name: string;
  classname: string;
  ms: number;
  /** A failure (a mismatch) or an error (it could not be checked), with its one-line message and its full text. */
  problem?: { kind: "failure" | "error"; message: string; type: string; text: string };
  systemOut?: string;
}

export interface JUnitSuite {
  name: string;
  ms: number;
  cases: JUnitCase[];
}

const count = (cases: JUnitCase[], kind: "error" | "failure") => cases.filter((c) => c.problem?.kind === kind).length;

/** `<testsuites>` of `<testsuite>`s of `<testcase>`s, each failing one with its `<failure>` or `<error>`. */
export function junitDocument(name: string, ms: number, suites: JUnitSuite[]): string {
  const all = suites.flatMap((s) => s.cases);
  const lines = [`<?xml version="1.0" encoding="UTF-8"?>`];
  lines.push(`<testsuites${attrs({ name, tests: all.length, failures: count(all, "failure"), errors: count(all, "error"), time: seconds(ms) })}>`);
  for (const suite of suites) {
    const { cases } = suite;
    lines.push(
      `  <testsuite${attrs({ name: suite.name, tests: cases.length, failures: count(cases, "failure"), errors: count(cases, "error"), skipped: 0, time: seconds(suite.ms) })}>`,
    );
    for (const c of cases) {
      const head = `    <testcase${attrs({ name: c.name, classname: c.classname, time: seconds(c.ms) })}`;
      const out = c.systemOut ? [`      <system-out>${xml(c.systemOut)}</system-out>`] : [];
      if (!c.problem) {
        lines.push(...(out.length ? [`${head}>`, ...out, `    </testcase>`] : [`${head}/>`]));
        continue;
      }
      const { kind, message, type, text } = c.problem;
      lines.push(head + ">");
      lines.push(`      <${kind}${attrs({ message, type })}>${xml(text)}</${kind}>`);
      lines.push(...out, `    </testcase>`);
    }
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`);
  return `${lines.join("\n")}\n`;
}
