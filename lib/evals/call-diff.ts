/**
 * Expected against actual calls of one trial, row by row and argument by argument, for the run
 * page's diff: which calls matched, which were missing, extra, out of order, a wrong tool, or the
 * right tool with wrong values. The pairing is the judge's (matchers.ts); this only explains it.
 */
import { assignCalls } from "./assignment";
import { argMatcher, matchArgs, matchValue, type MadeCall } from "./matchers";
import type { ExpectedCall } from "./suite-schema";

/** The parts of a case's `expect` the diff reads (as recorded in cases.json). */
export interface RecordedExpect {
  calls?: ExpectedCall[];
  ordered?: boolean;
  only?: boolean;
  noCalls?: boolean;
  notCalled?: string[];
}

type ArgStatus = "match" | "missing" | "wrong" | "extra";

interface ArgRow {
  key: string;
  /** The expectation as a person reads it: a value, `/re/i`, `one of …`, `absent or …`. */
  expected: string | null;
  /** The value given (JSON), null when absent. */
  actual: string | null;
  status: ArgStatus;
  why: string | null;
}

type CallStatus = "match" | "wrong-value" | "wrong-tool" | "out-of-order" | "missing" | "extra" | "unexpected";

export interface CallRow {
  status: CallStatus;
  expectedTool: string | null;
  actualTool: string | null;
  /** The actual call's position among the trial's calls (1-based), for reading order. */
  position: number | null;
  outcome: string | null;
  args: ArgRow[];
  why: string | null;
}

const toolsOf = (e: ExpectedCall) => (typeof e.tool === "string" ? [e.tool] : e.tool);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const json = (v: unknown): string | null => (v === undefined ? null : (JSON.stringify(v) ?? null));

/** BFCL's accepted values as a person reads them: `BFCL: "SF" | "San Francisco" (or absent)`. */
function showBfcl(values: unknown): string {
  const all = Array.isArray(values) ? values : [values];
  const given = all.filter((v) => v !== "").map(json);
  return `BFCL: ${given.length ? given.join(" | ") : '""'}${all.includes("") ? " (or absent)" : ""}`;
}

/**
 * How one argument's matcher reads to a person: `one of "a", "b"`, `absent or 3`, `/re/i`, and
 * nested fields as `{ unit: one of "c", "f"; n: absent or 3 }` (never the suite's raw `{"anyOf": …}`).
 */
function showMatcher(expected: unknown): string {
  const m = argMatcher(expected);
  switch (m.kind) {
    case "regex":
      return `/${m.regex}/${m.flags}`;
    case "schema":
      return `schema ${JSON.stringify(m.schema)}`;
    case "exact":
      return `exactly ${json(m.value)}`;
    case "anyOf":
      return m.values.length === 1 ? (json(m.values[0]) ?? "null") : `one of ${m.values.map((v) => json(v) ?? "null").join(", ")}`;
    case "optional":
      return `absent or ${showMatcher(m.inner)}`;
    case "bfcl":
      return showBfcl(m.values);
    case "object": {
      const fields = Object.entries(m.fields).map(([k, v]) => `${k}: ${showMatcher(v)}`);
      return fields.length ? `{ ${fields.join("; ")} }` : "{}";
    }
    case "value":
      return json(m.value) ?? "null";
  }
}

function argRows(input: unknown, expected: ExpectedCall | null): ArgRow[] {
  const actual = isObject(input) ? input : {};
  const args = expected?.args ?? {};
  const rows: ArgRow[] = Object.entries(args).map(([key, matcher]) => {
    const why = matchValue(actual[key], matcher) ?? null;
    return {
      key,
      expected: showMatcher(matcher),
      actual: json(actual[key]),
      status: why === null ? "match" : why === "missing" ? "missing" : "wrong",
      why: why === "missing" ? null : why,
    };
  });
  // Arguments the case did not list: failures only under argsMatch exact, shown either way.
  for (const [key, value] of Object.entries(actual)) {
    if (key in args) continue;
    rows.push({
      key,
      expected: null,
      actual: json(value),
      status: expected?.argsMatch === "exact" ? "extra" : "match",
      why: expected?.argsMatch === "exact" ? "not allowed (argsMatch: exact)" : null,
    });
  }
  return rows;
}

function row(status: CallStatus, expected: ExpectedCall | null, call: MadeCall | null, index: number | null, why: string | null = null): CallRow {
  return {
    status,
    expectedTool: expected ? toolsOf(expected).join(" or ") : null,
    actualTool: call?.tool ?? null,
    position: index === null ? null : index + 1,
    outcome: call?.outcome ?? null,
    args: argRows(call?.input, expected),
    why,
  };
}

/** Why an actual call nobody expected is a failure, in the words of the key that forbids it; null when it is allowed. */
function extraWhy(expect: RecordedExpect, tool: string): string | null {
  if (expect.notCalled?.includes(tool)) return "must not be called (notCalled)";
  if (expect.noCalls) return "the case expects no tool call at all (noCalls)";
  if (expect.only) return "no call beyond the expected ones (only)";
  return null;
}

/**
 * Rows in expected order (each paired actual call beside it), then the actual calls nobody
 * expected: `extra` when the case forbids them (`only`, `noCalls`, `notCalled`), else `unexpected`
 * (allowed, shown for the record).
 */
export function diffCalls(expect: RecordedExpect, calls: readonly MadeCall[]): CallRow[] {
  const expected = expect.calls ?? [];
  const ordered = expect.ordered ?? false;
  const fits = (e: number, a: number) => toolsOf(expected[e]!).includes(calls[a]!.tool) && matchArgs(calls[a]!.input, expected[e]!) === undefined;
  const pairOf = assignCalls(expected.length, calls.length, fits, ordered);
  const taken = new Set(pairOf.filter((a) => a >= 0));
  // Ordered, a call that fits but sits out of order still belongs beside its expectation.
  const looseOf = ordered ? assignCalls(expected.length, calls.length, (e, a) => pairOf[e]! < 0 && !taken.has(a) && fits(e, a), false) : [];
  const rows: (CallRow | null)[] = expected.map(() => null);
  for (const [e, exp] of expected.entries()) {
    const a = pairOf[e]!;
    if (a >= 0) {
      const call = calls[a]!;
      const outcomeWrong = exp.outcome && call.outcome !== exp.outcome;
      rows[e] = row(outcomeWrong ? "wrong-value" : "match", exp, call, a, outcomeWrong ? `outcome ${call.outcome}, expected ${exp.outcome}` : null);
      continue;
    }
    const loose = looseOf[e] ?? -1;
    if (loose >= 0) {
      taken.add(loose);
      rows[e] = row("out-of-order", exp, calls[loose]!, loose, `${calls[loose]!.tool} called out of order`);
    }
  }
  // The same tool with other arguments: a wrong value.
  for (const [e, exp] of expected.entries()) {
    if (rows[e]) continue;
    const a = calls.findIndex((c, i) => !taken.has(i) && toolsOf(exp).includes(c.tool));
    if (a < 0) continue;
    taken.add(a);
    rows[e] = row("wrong-value", exp, calls[a]!, a, matchArgs(calls[a]!.input, exp) ?? null);
  }
  // A tool no expectation names, in place of one: the wrong tool.
  const named = new Set(expected.flatMap(toolsOf));
  for (const [e, exp] of expected.entries()) {
    if (rows[e]) continue;
    const a = calls.findIndex((c, i) => !taken.has(i) && !named.has(c.tool));
    if (a < 0) {
      rows[e] = row("missing", exp, null, null, `did not call ${toolsOf(exp).join(" or ")}`);
      continue;
    }
    taken.add(a);
    rows[e] = row("wrong-tool", exp, calls[a]!, a, `called ${calls[a]!.tool} instead of ${toolsOf(exp).join(" or ")}`);
  }
  const out = rows as CallRow[];
  const forbidden = new Set(expect.notCalled ?? []);
  for (const [a, call] of calls.entries()) {
    if (taken.has(a)) continue;
    out.push(row(expect.only || expect.noCalls || forbidden.has(call.tool) ? "extra" : "unexpected", null, call, a, extraWhy(expect, call.tool)));
  }
  return out;
}
