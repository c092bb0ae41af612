import { RE2JS } from "re2js";
import { z } from "zod";
import { canonicalJson } from "./canonical-json";
import type { RegisteredTool, ToolOrigin } from "./registry-types";

export type RuleDecision = "allow" | "ask" | "deny";

/** A rule as written in settings or saved from the UI: every field given must match. */
export interface RuleSpec {
  name?: string;
  tool?: string;
  source?: string;
  readonly?: boolean;
  /** Argument name → regex (RE2 syntax, searched anywhere in the value) or a JSON Schema for the value. */
  args?: Record<string, string | Record<string, unknown>>;
  decision: RuleDecision;
  reason?: string;
}

/** Who a rule comes from, in precedence order: settings first, then this chat's UI rules, then the UI's "everywhere" rules. */
export interface RuleRef {
  /** "settings:<digest>" or "ui:<id>": stable, so match counts survive a restart. */
  key: string;
  name: string;
  origin: "settings" | "ui";
}

export interface RuleVerdict {
  decision: RuleDecision;
  reason?: string;
  rule: RuleRef;
}

/** What a rule sees of a call. */
export interface RuleCall {
  toolName: string;
  sourcePackage: string;
  origin: ToolOrigin;
  readonly: boolean;
  input: unknown;
  /**
   * The tool's input JSON Schema: arguments it marks `"format": "path"` are matched as the sandbox
   * resolves them (the deciders normalise them; the tool runs with the same value, see invoke).
   */
  inputSchema?: Record<string, unknown>;
}

/** The call a rule is asked about: a registered tool (under the name it was called by) and its input. Every channel builds it here. */
export function ruleCallOf(registered: RegisteredTool, input: unknown, toolName = registered.name): RuleCall {
  return {
    toolName,
    sourcePackage: registered.sourcePackage,
    origin: registered.origin,
    readonly: registered.readonly,
    input,
    inputSchema: registered.inputSchema,
  };
}

/** Decides a call by rules; undefined when none matches (the tool's own `confirm.evaluate` decides). */
export type RuleDecider = (call: RuleCall) => Promise<RuleVerdict | undefined>;

export interface CompiledRule {
  ref: RuleRef;
  spec: RuleSpec;
  matches(call: RuleCall): boolean;
}

/** `*` any run of characters, `?` one; everything else literal; the whole name must match. */
function compileGlob(glob: string): RE2JS {
  const pattern = glob
    .split(/([*?])/)
    .map((piece) => (piece === "*" ? ".*" : piece === "?" ? "." : RE2JS.quote(piece)))
    .join("");
  return RE2JS.compile(`^(?:${pattern})$`);
}

const BUILTIN_SOURCES = new Set(["built-in", "builtin"]);

/** JSON Schema keywords whose regexes would run in V8 (backtracking): refused, use the regex form instead. */
function findBacktrackingKeyword(schema: unknown): string | undefined {
  if (Array.isArray(schema)) return schema.map(findBacktrackingKeyword).find(Boolean);
  if (!schema || typeof schema !== "object") return undefined;
  for (const [key, value] of Object.entries(schema)) {
    if (key === "pattern" || key === "patternProperties") return key;
    const found = findBacktrackingKeyword(value);
    if (found) return found;
  }
  return undefined;
}

type ValueMatcher = (value: unknown) => boolean;

function compileArg(field: string, matcher: string | Record<string, unknown>): ValueMatcher {
  if (typeof matcher === "string") {
    let re: RE2JS;
    try {
      re = RE2JS.compile(RE2JS.translateRegExp(matcher));
    } catch (error) {
      throw new RuleError(`args.${field}: ${(error as Error).message} (rules match with RE2: no backreferences or lookaround)`);
    }
    // A string is searched as written; any other value as its canonical JSON.
    return (value) => value !== undefined && re.test(typeof value === "string" ? value : canonicalJson(value));
  }
  const keyword = findBacktrackingKeyword(matcher);
  if (keyword) throw new RuleError(`args.${field}: "${keyword}" is not allowed in a rule's JSON Schema; write the field as a regex string instead`);
  let schema: z.ZodType;
  try {
    schema = z.fromJSONSchema(matcher);
  } catch (error) {
    throw new RuleError(`args.${field}: not a usable JSON Schema (${(error as Error).message})`);
  }
  return (value) => value !== undefined && schema.safeParse(value).success;
}

export class RuleError extends Error {}

/** A short label for a rule without a name: `deny reset_*`, `allow run_terminal_command (command)`. */
export function ruleLabel(spec: RuleSpec): string {
  if (spec.name) return spec.name;
  const what = [spec.tool, spec.source, spec.readonly === undefined ? undefined : spec.readonly ? "read-only" : "not read-only"].filter(Boolean).join(" ");
  const args = spec.args && Object.keys(spec.args).length ? ` (${Object.keys(spec.args).join(", ")})` : "";
  return `${spec.decision} ${what || "every tool"}${args}`;
}

/** Compiles one rule; throws RuleError naming the field for a pattern or schema it cannot run. */
export function compileRule(spec: RuleSpec, ref: Omit<RuleRef, "name">): CompiledRule {
  const tool = spec.tool === undefined ? undefined : compileGlob(spec.tool);
  const source = spec.source === undefined || BUILTIN_SOURCES.has(spec.source) ? undefined : compileGlob(spec.source);
  const args = Object.entries(spec.args ?? {}).map(([field, matcher]) => [field, compileArg(field, matcher)] as const);
  return {
    ref: { ...ref, name: ruleLabel(spec) },
    spec,
    matches(call) {
      if (tool && !tool.test(call.toolName)) return false;
      if (spec.source !== undefined && BUILTIN_SOURCES.has(spec.source) && call.origin !== "builtin") return false;
      if (source && !source.test(call.sourcePackage)) return false;
      if (spec.readonly !== undefined && spec.readonly !== call.readonly) return false;
      if (args.length === 0) return true;
      const input = call.input && typeof call.input === "object" && !Array.isArray(call.input) ? (call.input as Record<string, unknown>) : {};
      return args.every(([field, matches]) => matches(Object.hasOwn(input, field) ? input[field] : undefined));
    },
  };
}

/** First matching rule wins; the list is already in precedence order. */
export function firstMatch(rules: readonly CompiledRule[], call: RuleCall): RuleVerdict | undefined {
  const rule = rules.find((r) => r.matches(call));
  return rule ? { decision: rule.spec.decision, ...(rule.spec.reason ? { reason: rule.spec.reason } : {}), rule: rule.ref } : undefined;
}

/** The text a rule's decision is recorded and shown with: `allowed by rule "read-only git"`. */
export function ruleDecisionText(verdict: RuleVerdict): string {
  const verb = verdict.decision === "allow" ? "allowed" : verdict.decision === "deny" ? "denied" : "asked";
  return `${verb} by ${verdict.rule.origin === "settings" ? "settings " : ""}rule "${verdict.rule.name}"${verdict.reason ? `: ${verdict.reason}` : ""}`;
}

/**
 * Values a matcher is tried on: one that accepts all of them accepts every value in practice. The
 * empty string is not among them: no call anyone sends has an empty command, so "." or "\\S" admit
 * every real one. A field the tool declares as a string is tried on text only (`{type: string}`).
 */
const TEXT_PROBES: readonly unknown[] = ["x", "ls; rm -rf /", "../../etc/passwd\n", "Z 9"];
const OTHER_PROBES: readonly unknown[] = [0, true, null, { a: 1 }];

/** True when the argument matcher (a regex searched anywhere, or a JSON Schema) accepts any value at all. */
function matchesEveryValue(field: string, matcher: string | Record<string, unknown>, declaredType?: unknown): boolean {
  let matches: ValueMatcher;
  try {
    matches = compileArg(field, matcher);
  } catch {
    return false;
  }
  return (declaredType === "string" ? TEXT_PROBES : [...TEXT_PROBES, ...OTHER_PROBES]).every(matches);
}

/** The JSON Schema `type` a tool's input declares for one argument, if any. */
function declaredType(inputSchema: Record<string, unknown> | undefined, field: string): unknown {
  const properties = inputSchema?.properties;
  if (!properties || typeof properties !== "object") return undefined;
  return (properties as Record<string, { type?: unknown } | undefined>)[field]?.type;
}

/**
 * Why an allow rule is broad, or undefined when it is not: it allows every tool (no tool, source
 * or argument restriction, or only `*` globs), or every argument value of a tool that asks for
 * confirmation (`confirming`: the registry's tools with `confirm`, with their input schemas). Such
 * a rule is saved only when the person confirms it, and Settings → Approvals shows it with a warning.
 */
export function broadAllow(spec: RuleSpec, confirming: readonly Omit<RuleCall, "input">[]): string | undefined {
  if (spec.decision !== "allow") return undefined;
  const anyGlob = (glob: string | undefined) => glob === undefined || /^\**$/.test(glob);
  const args = Object.entries(spec.args ?? {});
  if (anyGlob(spec.tool) && anyGlob(spec.source) && spec.readonly !== true && args.every(([field, matcher]) => matchesEveryValue(field, matcher)))
    return "it allows every tool, ahead of each tool's own confirmation";
  const { args: _args, ...withoutArgs } = spec;
  const rule = compileRule(withoutArgs, { key: "broad", origin: "ui" });
  const hit = confirming
    .filter((tool) => rule.matches({ ...tool, input: {} }))
    .filter((tool) => args.every(([field, matcher]) => matchesEveryValue(field, matcher, declaredType(tool.inputSchema, field))))
    .map((tool) => tool.toolName);
  if (hit.length === 0) return undefined;
  return `it allows every call of ${hit.join(", ")}, whatever the arguments, although ${hit.length === 1 ? "that tool asks" : "those tools ask"} for confirmation`;
}
