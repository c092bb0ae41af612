import { z } from "zod";
import { assignCalls } from "./assignment";
import { bfclCheck } from "./bfcl-checker";
import type { EvalCase, ExpectedCall } from "./suite-schema";
import { showRegex, suiteRegex } from "./suite-regex";
import { deepEqual, isObject, show } from "./values";

/** A call the model proposed in a trial, whether or not it ran. */
export interface MadeCall {
  tool: string;
  input: unknown;
  /** executed | invalid | mocked | not_admitted | denied | timed_out | error | pending: the suite's spelling */
  outcome: string;
  /** Who answered a confirming call: "eval" (the case's approve / deny) or "unsupervised" (notAdmitted). */
  decidedBy?: string;
  output?: string;
}

export interface TrialObservation {
  calls: MadeCall[];
  answer: string;
  steps: number;
}

export interface Verdict {
  pass: boolean;
  /** Why it failed, one short line per mismatch; empty on a pass. */
  reasons: string[];
}

/** What one argument's expectation in a suite means; the suite loader and the judge read it the same way. */
export type ArgMatcher =
  | { kind: "regex"; regex: string; flags: string }
  | { kind: "schema"; schema: Record<string, unknown> }
  | { kind: "exact"; value: unknown }
  | { kind: "anyOf"; values: unknown[] }
  | { kind: "optional"; inner: unknown }
  | { kind: "bfcl"; values: unknown }
  | { kind: "object"; fields: Record<string, unknown> }
  | { kind: "value"; value: unknown };

export function argMatcher(expected: unknown): ArgMatcher {
  if (!isObject(expected)) return { kind: "value", value: expected };
  const keys = Object.keys(expected);
  const only = (key: string) => keys.length === 1 && keys[0] === key;
  if (
    typeof expected.regex === "string" &&
    keys.every((k) => k === "regex" || k === "flags") &&
    (expected.flags === undefined || typeof expected.flags === "string")
  )
    return { kind: "regex", regex: expected.regex, flags: expected.flags ?? "" };
  if (only("schema") && isObject(expected.schema)) return { kind: "schema", schema: expected.schema };
  if (only("exact")) return { kind: "exact", value: expected.exact };
  if (only("anyOf") && Array.isArray(expected.anyOf)) return { kind: "anyOf", values: expected.anyOf };
  if (only("optional")) return { kind: "optional", inner: expected.optional };
  if (only("bfcl")) return { kind: "bfcl", values: expected.bfcl };
  return { kind: "object", fields: expected };
}

const schemaCache = new WeakMap<object, z.ZodType>();

/** One argument against its matcher; returns why it does not match, or undefined. */
export function matchValue(actual: unknown, expected: unknown): string | undefined {
  const m = argMatcher(expected);
  switch (m.kind) {
    case "optional":
      return actual === undefined ? undefined : matchValue(actual, m.inner);
    case "regex": {
      if (actual === undefined) return "missing";
      const text = typeof actual === "string" ? actual : JSON.stringify(actual);
      return suiteRegex(m.regex, m.flags).test(text) ? undefined : `${show(actual)} does not match ${showRegex(m.regex, m.flags)}`;
    }
    case "schema": {
      if (actual === undefined) return "missing";
      let schema = schemaCache.get(m.schema);
      if (!schema) schemaCache.set(m.schema, (schema = z.fromJSONSchema(m.schema)));
      const result = schema.safeParse(actual);
      return result.success ? undefined : `${show(actual)} fails its schema (${result.error.issues[0]?.message ?? "invalid"})`;
    }
    case "exact":
      if (actual === undefined) return "missing";
      return deepEqual(actual, m.value) ? undefined : `${show(actual)}, expected exactly ${show(m.value)}`;
    case "anyOf":
      if (actual === undefined) return "missing";
      return m.values.some((v) => deepEqual(actual, v)) ? undefined : `${show(actual)}, expected one of ${show(m.values)}`;
    case "bfcl":
      // The loader refuses any other shape (bfclMatcherProblem); an unloaded suite's odd one matches nothing.
      return Array.isArray(m.values) ? bfclCheck(actual, m.values) : "bfcl takes a list of accepted values";
    case "object": {
      if (!isObject(actual)) return actual === undefined ? "missing" : `${show(actual)}, expected an object`;
      for (const [k, v] of Object.entries(m.fields)) {
        const why = matchValue(actual[k], v);
        if (why) return `.${k} ${why}`;
      }
      return undefined;
    }
    case "value":
      if (actual === undefined) return "missing";
      return deepEqual(actual, m.value) ? undefined : `${show(actual)}, expected ${show(m.value)}`;
  }
}

/** A proposed call against an expected one, arguments and (when asked) outcome: undefined when it fits. */
function mismatch(call: MadeCall, expected: ExpectedCall): string | undefined {
  const why = matchArgs(call.input, expected);
  if (why || !expected.outcome || expected.outcome === call.outcome) return why;
  return `outcome ${call.outcome}, expected ${expected.outcome}`;
}

/** A call's arguments against the expected ones: undefined when they match, else the first mismatch. */
export function matchArgs(input: unknown, expected: ExpectedCall): string | undefined {
  const args = expected.args ?? {};
  const actual = isObject(input) ? input : {};
  for (const [key, matcher] of Object.entries(args)) {
    const why = matchValue(actual[key], matcher);
    if (why) return `${key} ${why}`;
  }
  if (expected.argsMatch === "exact") {
    const extra = Object.keys(actual).filter((k) => !(k in args));
    if (extra.length) return `unexpected argument ${extra.join(", ")}`;
  }
  return undefined;
}

function toolsOf(expected: ExpectedCall): string[] {
  return typeof expected.tool === "string" ? [expected.tool] : expected.tool;
}

function toolText(expected: ExpectedCall): string {
  return toolsOf(expected).join(" or ");
}

/** Why the expected call found no partner, naming the actual call it is about when there is one. */
function unmatchedReason(
  expected: ExpectedCall,
  calls: readonly MadeCall[],
  free: (i: number) => boolean,
  ordered: boolean,
  allExpected: readonly ExpectedCall[],
): { reason: string; about?: number } {
  const names = toolsOf(expected);
  const sameTool = calls.map((call, i) => ({ call, i })).filter(({ call, i }) => free(i) && names.includes(call.tool));
  // Ordered, a free call that fits is one the order ruled out.
  if (ordered && sameTool.some(({ call }) => mismatch(call, expected) === undefined)) return { reason: `${toolText(expected)} called out of order` };
  const first = sameTool[0];
  if (first) {
    const why = mismatch(first.call, expected)!;
    return { reason: why.startsWith("outcome ") ? `${first.call.tool} ${why}` : `${first.call.tool} called with ${why}`, about: first.i };
  }
  if (ordered && calls.some((call) => names.includes(call.tool))) return { reason: `${toolText(expected)} called out of order` };
  const other = calls.findIndex((call, i) => free(i) && !allExpected.some((e) => toolsOf(e).includes(call.tool)));
  if (other >= 0) return { reason: `called ${calls[other]!.tool} instead of ${toolText(expected)}`, about: other };
  return { reason: `did not call ${toolText(expected)}` };
}

/**
 * A case passes when the expected calls can be paired with proposed calls (executed or not) of
 * matching arguments — in order when asked, with nothing else proposed under `only` and nothing at
 * all under `noCalls` — no forbidden tool was proposed, the answer checks hold and the steps fit.
 * Reasons are short and repeatable ("called grep_code instead of search_code"), so they count up
 * into a cell's failure hints.
 */
export function judge(c: EvalCase, seen: TrialObservation): Verdict {
  const reasons: string[] = [];
  const { expect } = c;
  const calls = seen.calls;
  if (expect.noCalls && calls.length) reasons.push(`called ${[...new Set(calls.map((call) => call.tool))].join(", ")}; expected no tool call`);
  const pairOf = assignCalls(
    expect.calls.length,
    calls.length,
    (e, a) => toolsOf(expect.calls[e]!).includes(calls[a]!.tool) && mismatch(calls[a]!, expect.calls[e]!) === undefined,
    expect.ordered,
  );
  const paired = new Set(pairOf.filter((a) => a >= 0));
  const explained = new Set<number>();
  for (const [e, expected] of expect.calls.entries()) {
    if (pairOf[e]! >= 0) continue;
    const { reason, about } = unmatchedReason(expected, calls, (i) => !paired.has(i) && !explained.has(i), expect.ordered, expect.calls);
    reasons.push(reason);
    if (about !== undefined) explained.add(about);
  }
  if (expect.only) {
    for (const [i, call] of calls.entries()) if (!paired.has(i) && !explained.has(i)) reasons.push(`extra call of ${call.tool}`);
  }
  for (const forbidden of expect.notCalled) {
    if (calls.some((call) => call.tool === forbidden)) reasons.push(`called ${forbidden}, which must not be called`);
  }
  const answer = expect.answer;
  if (answer?.contains !== undefined) {
    for (const text of typeof answer.contains === "string" ? [answer.contains] : answer.contains) {
      if (!seen.answer.includes(text)) reasons.push(`answer lacks ${show(text)}`);
    }
  }
  if (answer?.regex !== undefined && !suiteRegex(answer.regex, answer.flags).test(seen.answer))
    reasons.push(`answer does not match ${showRegex(answer.regex, answer.flags)}`);
  if (expect.maxSteps !== undefined && seen.steps > expect.maxSteps) reasons.push(`took ${seen.steps} steps (at most ${expect.maxSteps})`);
  return { pass: reasons.length === 0, reasons };
}
