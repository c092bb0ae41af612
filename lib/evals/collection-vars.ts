import { isObject } from "./values";
import type { VarValue } from "./collection-schema";

/**
 * `{{name}}` (a var), `{{calls.NAME.output}}` (an earlier call's text) and `{{calls.NAME.json.a.0.b}}`
 * (a value in its JSON output) in the strings of a call's input and expect. A string that is one
 * placeholder and nothing else becomes the value itself, so `count: "{{calls.list.json.total}}"`
 * stays a number; inside other text a value is written as text (JSON for objects).
 */

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([^{}]*?)\s*\}\}$/;
const VAR_REF = /^[A-Za-z_][\w-]*$/;
const CALL_REF = /^calls\.([\w-]+)\.(output|json)((?:\.[^.]+)*)$/;

export type Ref = { kind: "var"; name: string } | { kind: "output"; call: string } | { kind: "json"; call: string; path: string[] };

/** What a placeholder refers to, or why it refers to nothing. */
export function parseRef(text: string): Ref | { problem: string } {
  const call = CALL_REF.exec(text);
  if (call)
    return call[2] === "output" ? { kind: "output", call: call[1]! } : { kind: "json", call: call[1]!, path: call[3] ? call[3].slice(1).split(".") : [] };
  if (text.startsWith("calls.") || text === "calls") return { problem: `{{${text}}}: write {{calls.NAME.output}} or {{calls.NAME.json.path}}` };
  if (VAR_REF.test(text)) return { kind: "var", name: text };
  return { problem: `{{${text}}} is not a var's name, {{calls.NAME.output}} or {{calls.NAME.json.path}}` };
}

/** A placeholder found in a value, with the key path of the string it is in. */
export interface FoundRef {
  text: string;
  path: (string | number)[];
}

/** Every placeholder in the strings of `value` (not in keys: a key names an argument, it holds no data). */
export function refsIn(value: unknown, path: (string | number)[] = []): FoundRef[] {
  if (typeof value === "string") return [...value.matchAll(PLACEHOLDER)].map((m) => ({ text: m[1]!, path }));
  if (Array.isArray(value)) return value.flatMap((v, i) => refsIn(v, [...path, i]));
  if (isObject(value)) return Object.entries(value).flatMap(([k, v]) => refsIn(v, [...path, k]));
  return [];
}

/** An earlier call's result, as placeholders read it. */
export interface CallValue {
  text: string;
  /** The tool's output as returned (a string or a JSON value). */
  output: unknown;
}

export interface Scope {
  vars: Readonly<Record<string, VarValue>>;
  calls: Readonly<Record<string, CallValue>>;
}

export class SubstitutionError extends Error {}

/** The call's output as JSON: a JSON value it returned, or its text parsed; undefined when it is neither. */
export function jsonOf(call: CallValue): unknown {
  if (typeof call.output !== "string" && call.output !== undefined) return call.output;
  try {
    return JSON.parse(call.text) as unknown;
  } catch {
    return undefined;
  }
}

function lookup(text: string, scope: Scope): unknown {
  const ref = parseRef(text);
  if ("problem" in ref) throw new SubstitutionError(ref.problem);
  if (ref.kind === "var") {
    if (!Object.hasOwn(scope.vars, ref.name)) throw new SubstitutionError(`{{${text}}}: no var named ${ref.name}`);
    return scope.vars[ref.name];
  }
  const call = Object.hasOwn(scope.calls, ref.call) ? scope.calls[ref.call] : undefined;
  if (!call) throw new SubstitutionError(`{{${text}}}: no earlier call named ${ref.call} has a result`);
  if (ref.kind === "output") return call.text;
  let value = jsonOf(call);
  if (value === undefined) throw new SubstitutionError(`{{${text}}}: the output of ${ref.call} is not JSON`);
  for (const [i, key] of ref.path.entries()) {
    const next: unknown =
      Array.isArray(value) && /^\d+$/.test(key) ? (value as unknown[])[Number(key)] : isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
    if (next === undefined) throw new SubstitutionError(`{{${text}}}: the output of ${ref.call} has nothing at ${ref.path.slice(0, i + 1).join(".")}`);
    value = next;
  }
  return value;
}

const asText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** `value` with its placeholders replaced; throws SubstitutionError naming the first one that has no value. */
export function substitute(value: unknown, scope: Scope): unknown {
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(whole[1]!, scope);
    return value.replace(PLACEHOLDER, (_, text: string) => asText(lookup(text, scope)));
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, scope));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, scope)]));
  return value;
}
