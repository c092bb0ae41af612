import { checkCall, type ExpectFailure } from "./collection-expect";
import { substitute, SubstitutionError, type CallValue, type Scope } from "./collection-vars";
import type { CallExpect, Collection, SavedCall, VarValue } from "./collection-schema";

/** What the channel that calls tools (the CLI, the page) made of one call. */
export type CallAttempt =
  | { kind: "ran"; text: string; output: unknown; isError: boolean; durationMs: number }
  /** Not run: a confirming call nobody approved (or a person denied, or it timed out), or a rule denied it. */
  | { kind: "not-admitted"; text: string; why: "denied" | "timed-out" | "unsupervised"; by: string }
  /** Not run: the tool is not registered, is disabled, or could not be set up. */
  | { kind: "unavailable"; message: string };

export interface CallResult {
  name: string;
  tool: string;
  /** The input as sent, placeholders substituted. */
  input: unknown;
  verdict: "pass" | "fail";
  outcome: "ran" | "not-admitted" | "unavailable" | "skipped";
  text: string;
  output?: unknown;
  isError: boolean;
  durationMs: number;
  /** Who decided a call that did not run: a rule, a person, nobody (unsupervised). */
  decidedBy?: string;
  failures: ExpectFailure[];
}

export interface CollectionRunResult {
  collection: string;
  vars: Record<string, VarValue>;
  results: CallResult[];
  passed: number;
  failed: number;
}

/** The defaults, then the given values (`--var`, the page) over them. */
export function varsOf(collection: Collection, given: Readonly<Record<string, VarValue>> = {}): Record<string, VarValue> {
  return { ...collection.vars, ...given };
}

/** What later calls can read of the finished ones: `{{calls.NAME.output}}`, `{{calls.NAME.json…}}`. */
export function scopeOf(vars: Readonly<Record<string, VarValue>>, done: readonly CallResult[]): Scope {
  const calls: Record<string, CallValue> = {};
  for (const r of done) if (r.outcome !== "skipped" && r.outcome !== "unavailable") calls[r.name] = { text: r.text, output: r.output };
  return { vars, calls };
}

export type PreparedCall = { ok: true; input: Record<string, unknown>; expect: CallExpect } | { ok: false; result: CallResult };

/** The call's input and expect with placeholders replaced; a placeholder with no value fails the call without running it. */
export function prepareCall(call: SavedCall, scope: Scope): PreparedCall {
  try {
    return { ok: true, input: substitute(call.input, scope) as Record<string, unknown>, expect: substitute(call.expect, scope) as CallExpect };
  } catch (error) {
    if (!(error instanceof SubstitutionError)) throw error;
    return {
      ok: false,
      result: {
        name: call.name,
        tool: call.tool,
        input: call.input,
        verdict: "fail",
        outcome: "skipped",
        text: "",
        isError: false,
        durationMs: 0,
        failures: [{ key: "input", expected: "every placeholder has a value", actual: `not run: ${error.message}` }],
      },
    };
  }
}

/** The attempt judged against the call's (substituted) expectations. */
export function resultOf(call: SavedCall, input: unknown, expect: CallExpect, attempt: CallAttempt): CallResult {
  const base = { name: call.name, tool: call.tool, input };
  if (attempt.kind === "unavailable")
    return {
      ...base,
      verdict: "fail",
      outcome: "unavailable",
      text: attempt.message,
      isError: true,
      durationMs: 0,
      failures: [{ key: "tool", expected: "a registered, enabled tool", actual: attempt.message }],
    };
  const seen =
    attempt.kind === "ran"
      ? { outcome: "ran" as const, text: attempt.text, output: attempt.output, isError: attempt.isError, durationMs: attempt.durationMs }
      : { outcome: "not-admitted" as const, text: attempt.text, output: attempt.text, isError: false, durationMs: 0 };
  let failures: ExpectFailure[];
  try {
    failures = checkCall(expect, seen);
  } catch (error) {
    // A `matches` built from an earlier output that RE2 cannot compile: this call's failure, not the run's.
    failures = [{ key: "matches", expected: "a regular expression RE2 runs", actual: (error as Error).message }];
  }
  return {
    ...base,
    verdict: failures.length ? "fail" : "pass",
    outcome: seen.outcome,
    text: seen.text,
    ...(attempt.kind === "ran" ? { output: attempt.output } : { decidedBy: attempt.by }),
    isError: seen.isError,
    durationMs: seen.durationMs,
    failures,
  };
}

export function summarize(collection: string, vars: Record<string, VarValue>, results: CallResult[]): CollectionRunResult {
  const failed = results.filter((r) => r.verdict === "fail").length;
  return { collection, vars, results, passed: results.length - failed, failed };
}

/** Every call in order, each through `attempt` (which applies the approval rules and the tool's confirmation). */
export async function runCollection(
  collection: Collection,
  given: Readonly<Record<string, VarValue>>,
  attempt: (tool: string, input: Record<string, unknown>) => Promise<CallAttempt>,
  onResult?: (result: CallResult, index: number) => void,
): Promise<CollectionRunResult> {
  const vars = varsOf(collection, given);
  const results: CallResult[] = [];
  for (const call of collection.calls) {
    const prepared = prepareCall(call, scopeOf(vars, results));
    const result = prepared.ok ? resultOf(call, prepared.input, prepared.expect, await attempt(call.tool, prepared.input)) : prepared.result;
    results.push(result);
    onResult?.(result, results.length - 1);
  }
  return summarize(collection.name, vars, results);
}
