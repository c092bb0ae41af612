/**
 * BFCL's own rule for one parameter — the suite matcher `{ bfcl: [accepted values] }`. It follows
 * the AST checker of the Berkeley Function Calling Leaderboard
 * (berkeley-function-call-leaderboard/bfcl_eval/eval_checker/ast_eval/ast_checker.py in
 * ShishirPatil/gorilla), so an imported BFCL case passes exactly when BFCL's checker passes it:
 *
 * - `""` among the accepted values: the parameter may be left out;
 * - a string: equal to an accepted string once both are standardized (below);
 * - a list: equal to an accepted list, strings inside standardized on both sides; a list of dicts:
 *   as long as an accepted list, each dict passing the dict rule against the one in its place;
 * - a dict: passes against one of the accepted dicts, where each accepted dict maps a key to its own
 *   accepted values: every key given is one of the dict's, its value (a string standardized) among
 *   that key's values, and a key is left out only when `""` is among its values;
 * - anything else (numbers, booleans): one of the accepted values.
 *
 * BFCL picks the rule from the parameter's declared type and checks that type first; here the value's
 * own JSON type picks it, and the type itself is the tool's JSON Schema's business. What that leaves
 * out is listed in docs/evals.md ("Differences from BFCL's own checker").
 */
import { deepEqual, isObject, show } from "./values";

/** BFCL's standardization: no spaces or `,./-_*^`, lower case, `'` as `"` ("April 1, 2024" = "april 1 2024"). */
export function bfclStandardize(text: string): string {
  return text
    .replace(/[ ,./\-_*^]/g, "")
    .toLowerCase()
    .replace(/'/g, '"');
}

const standardized = (v: unknown): unknown => (typeof v === "string" ? bfclStandardize(v) : v);

/** The accepted lists; BFCL reads an optional `""` as one more, empty, list. */
const acceptedLists = (accepted: readonly unknown[]): unknown[][] => accepted.flatMap((a) => (a === "" ? [[]] : Array.isArray(a) ? [a] : []));

const acceptedText = (accepted: readonly unknown[]) => `expected one of ${show(accepted.filter((a) => a !== ""))}`;

/** A key's accepted values; the loader refuses any other shape, and a recorded one read later (cases.json) admits nothing. */
const valuesOf = (answer: Record<string, unknown>, key: string): unknown[] => {
  const values = answer[key];
  return Array.isArray(values) ? values : [];
};

function dictRule(actual: Record<string, unknown>, answer: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(actual)) {
    if (!Object.hasOwn(answer, key)) return `unexpected key ${key}`;
    const values = valuesOf(answer, key);
    if (!values.some((v) => deepEqual(standardized(value), standardized(v)))) return `.${key} ${show(value)}, ${acceptedText(values)}`;
  }
  for (const key of Object.keys(answer)) {
    if (!Object.hasOwn(actual, key) && !valuesOf(answer, key).includes("")) return `.${key} missing`;
  }
  return undefined;
}

function dictAmong(actual: Record<string, unknown>, accepted: readonly unknown[]): string | undefined {
  const answers = accepted.filter(isObject);
  if (answers.length === 0) return `${show(actual)}, ${acceptedText(accepted)}`;
  const reasons = answers.map((answer) => dictRule(actual, answer));
  if (reasons.some((r) => r === undefined)) return undefined;
  if (answers.length === 1) return reasons[0];
  return `${show(actual)} fits none of the ${answers.length} accepted dicts (the first: ${reasons[0]})`;
}

function listOfDicts(actual: readonly unknown[], accepted: readonly unknown[]): string | undefined {
  const lists = acceptedLists(accepted);
  let why = `${show(actual)}, ${acceptedText(accepted)}`;
  for (const list of lists) {
    if (list.length !== actual.length) {
      why = `${actual.length} dicts, expected ${list.length}`;
      continue;
    }
    const failed = actual
      .map((item, i) => (isObject(item) && isObject(list[i]) ? dictRule(item, list[i]) : `${show(item)} is not a dict`))
      .map((r, i) => (r === undefined ? undefined : `[${i}]${r.startsWith(".") ? "" : " "}${r}`))
      .find((r) => r !== undefined);
    if (failed === undefined) return undefined;
    why = failed;
  }
  return why;
}

/** One parameter's value against BFCL's accepted values; returns why it fails, or undefined. */
export function bfclCheck(actual: unknown, accepted: readonly unknown[]): string | undefined {
  if (actual === undefined) return accepted.includes("") ? undefined : "missing";
  if (typeof actual === "string") {
    const mine = bfclStandardize(actual);
    return accepted.some((a) => typeof a === "string" && bfclStandardize(a) === mine)
      ? undefined
      : `${show(actual)}, ${acceptedText(accepted)} (ignoring case, spaces and ,./-_*^)`;
  }
  if (Array.isArray(actual)) {
    if (acceptedLists(accepted).some((list) => list.some(isObject))) return listOfDicts(actual, accepted);
    const mine = actual.map(standardized);
    return acceptedLists(accepted).some((list) => deepEqual(mine, list.map(standardized))) ? undefined : `${show(actual)}, ${acceptedText(accepted)}`;
  }
  if (isObject(actual)) return dictAmong(actual, accepted);
  return accepted.some((a) => a === actual) ? undefined : `${show(actual)}, ${acceptedText(accepted)}`;
}

const DICT_SHAPE = "a dict's accepted values are a list per key (BFCL's { key: [values] })";

/** The key of a dict answer whose accepted values are not a list, as a path, or undefined. */
function badKey(answer: unknown, at: string): string | undefined {
  if (!isObject(answer)) return undefined;
  const bad = Object.entries(answer).find(([, values]) => !Array.isArray(values));
  return bad ? `${at}.${bad[0]}` : undefined;
}

/** Why `{ bfcl: values }` is not a usable matcher (for the suite loader): where under `bfcl`, and what; or undefined. */
export function bfclMatcherProblem(values: unknown): { at: string; message: string } | undefined {
  if (!Array.isArray(values) || values.length === 0) return { at: "", message: "bfcl takes a non-empty list of accepted values" };
  for (const [i, value] of values.entries()) {
    const at = Array.isArray(value) ? value.map((item, j) => badKey(item, `[${i}][${j}]`)).find(Boolean) : badKey(value, `[${i}]`);
    if (at) return { at, message: DICT_SHAPE };
  }
  return undefined;
}
