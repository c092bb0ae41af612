import { z } from "zod";
import type { EvalCase, ExpectedCall } from "./suite-schema";

/** A call the model proposed in a trial, whether or not it ran. */
export interface MadeCall {
  tool: string;
  input: unknown;
  /** executed | not-admitted | denied | error | pending */
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

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function show(v: unknown): string {
  const text = typeof v === "string" ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

const schemaCache = new WeakMap<object, z.ZodType>();

/** One argument against its matcher; returns why it does not match, or undefined. */
export function matchValue(actual: unknown, expected: unknown): string | undefined {
  if (isObject(expected) && Object.keys(expected).length === 1) {
    if (typeof expected.regex === "string") {
      if (actual === undefined) return "missing";
      const text = typeof actual === "string" ? actual : JSON.stringify(actual);
      return new RegExp(expected.regex).test(text) ? undefined : `${show(actual)} does not match /${expected.regex}/`;
    }
    if (isObject(expected.schema)) {
      let schema = schemaCache.get(expected.schema);
      if (!schema) schemaCache.set(expected.schema, (schema = z.fromJSONSchema(expected.schema)));
      const result = schema.safeParse(actual);
      return result.success ? undefined : `${show(actual)} fails its schema (${result.error.issues[0]?.message ?? "invalid"})`;
    }
    if ("exact" in expected) return deepEqual(actual, expected.exact) ? undefined : `${show(actual)}, expected exactly ${show(expected.exact)}`;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `${show(actual)}, expected an object`;
    for (const [k, v] of Object.entries(expected)) {
      const why = matchValue(actual[k], v);
      if (why) return `.${k} ${why}`;
    }
    return undefined;
  }
  if (actual === undefined) return "missing";
  return deepEqual(actual, expected) ? undefined : `${show(actual)}, expected ${show(expected)}`;
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

/**
 * A case passes when every expected call was proposed (executed or not) with matching arguments,
 * in order when asked, no forbidden tool was proposed, the answer checks hold and the steps fit.
 * Reasons are short and repeatable ("called grep_code instead of search_code"), so they count up
 * into a cell's failure hints.
 */
export function judge(c: EvalCase, seen: TrialObservation): Verdict {
  const reasons: string[] = [];
  const { expect } = c;
  const used = new Set<number>();
  let after = -1;
  for (const expected of expect.calls) {
    const names = toolsOf(expected);
    const from = expect.ordered ? after + 1 : 0;
    const candidates = seen.calls.map((call, i) => ({ call, i })).filter(({ call, i }) => i >= from && !used.has(i) && names.includes(call.tool));
    const hit = candidates.find(({ call }) => matchArgs(call.input, expected) === undefined);
    if (hit) {
      used.add(hit.i);
      after = hit.i;
      continue;
    }
    if (candidates[0]) {
      reasons.push(`${candidates[0].call.tool} called with ${matchArgs(candidates[0].call.input, expected)}`);
    } else if (expect.ordered && seen.calls.some((call) => names.includes(call.tool))) {
      reasons.push(`${toolText(expected)} called out of order`);
    } else {
      const other = seen.calls.find((call, i) => !used.has(i) && !expect.calls.some((e) => toolsOf(e).includes(call.tool)));
      reasons.push(other ? `called ${other.tool} instead of ${toolText(expected)}` : `did not call ${toolText(expected)}`);
    }
  }
  for (const forbidden of expect.notCalled) {
    if (seen.calls.some((call) => call.tool === forbidden)) reasons.push(`called ${forbidden}, which must not be called`);
  }
  const answer = expect.answer;
  if (answer?.contains !== undefined) {
    for (const text of typeof answer.contains === "string" ? [answer.contains] : answer.contains) {
      if (!seen.answer.includes(text)) reasons.push(`answer lacks ${show(text)}`);
    }
  }
  if (answer?.regex !== undefined && !new RegExp(answer.regex).test(seen.answer)) reasons.push(`answer does not match /${answer.regex}/`);
  if (expect.maxSteps !== undefined && seen.steps > expect.maxSteps) reasons.push(`took ${seen.steps} steps (at most ${expect.maxSteps})`);
  return { pass: reasons.length === 0, reasons };
}
