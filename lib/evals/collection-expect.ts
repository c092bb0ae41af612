import { matchValue } from "./matchers";
import { showRegex, suiteRegex } from "./suite-regex";
import { show } from "./values";
import { jsonOf } from "./collection-vars";
import type { CallExpect } from "./collection-schema";

/** What became of one call, as the expectations read it. */
export interface ObservedCall {
  /** ran: the tool ran (its result may be an Error:); not-admitted: a confirming call nobody approved, or a rule denied. */
  outcome: "ran" | "not-admitted";
  /** The text the model would see (the not-admitted text when it did not run). */
  text: string;
  output: unknown;
  isError: boolean;
  durationMs: number;
}

/** One expectation that did not hold: its key, what it wanted, what the call gave. */
export interface ExpectFailure {
  key: string;
  expected: string;
  actual: string;
}

const cut = (text: string, n = 200) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/**
 * The call against its expectations; empty when every one holds. With none given a call must have
 * run and be no error: `error: true` and `notAdmitted: true` say the opposite is the point.
 */
export function checkCall(expect: CallExpect, seen: ObservedCall): ExpectFailure[] {
  const failures: ExpectFailure[] = [];
  const fail = (key: string, expected: string, actual: string) => failures.push({ key, expected, actual: cut(actual) });
  const wantNotAdmitted = expect.notAdmitted === true;
  if (wantNotAdmitted !== (seen.outcome === "not-admitted"))
    fail("notAdmitted", wantNotAdmitted ? "not admitted" : "admitted", seen.outcome === "not-admitted" ? `not admitted: ${seen.text}` : "it ran");
  if (seen.outcome === "ran" || expect.error !== undefined) {
    const wantError = expect.error === true;
    if (wantError !== seen.isError) fail("error", wantError ? "an Error: result" : "no error", seen.isError ? seen.text : `no error: ${seen.text}`);
  }
  if (expect.contains !== undefined)
    for (const part of Array.isArray(expect.contains) ? expect.contains : [expect.contains])
      if (!seen.text.includes(part)) fail("contains", `contains ${show(part)}`, seen.text);
  if (expect.equals !== undefined) {
    if (typeof expect.equals === "string") {
      if (seen.text.trim() !== expect.equals.trim()) fail("equals", expect.equals, seen.text);
    } else {
      const why = matchValue(jsonOf(seen), { exact: expect.equals });
      if (why) fail("equals", show(expect.equals), why);
    }
  }
  if (expect.matches !== undefined && !suiteRegex(expect.matches, expect.flags ?? "").test(seen.text))
    fail("matches", `matches ${showRegex(expect.matches, expect.flags ?? "")}`, seen.text);
  if (expect.json !== undefined) {
    const json = jsonOf(seen);
    const why = json === undefined ? "the output is not JSON" : matchValue(json, expect.json);
    if (why) fail("json", show(expect.json), why);
  }
  if (expect.maxMs !== undefined && seen.durationMs > expect.maxMs) fail("maxMs", `at most ${expect.maxMs} ms`, `${seen.durationMs} ms`);
  return failures;
}
