import { z } from "zod";
import { bfclMatcherProblem } from "./bfcl-checker";
import { argMatcher } from "./matchers";
import type { Suite, SuiteTool } from "./suite-schema";
import { regexProblem } from "./suite-regex";
import { withoutPatterns } from "./suite-tools";

/** One problem the schema cannot see: where (a key path) and what. */
export interface SuiteProblem {
  /** Index of the case, or undefined for a suite-level key. */
  caseIndex?: number;
  key: string;
  message: string;
}

/** JSON Schema keywords whose regexes zod would run on V8 (backtracking); suite regexes run on RE2 only. */
function patternKeyword(schema: unknown): string | undefined {
  if (Array.isArray(schema)) return schema.map(patternKeyword).find(Boolean);
  if (!schema || typeof schema !== "object") return undefined;
  for (const [key, value] of Object.entries(schema)) {
    if (key === "pattern" || key === "patternProperties") return key;
    const found = patternKeyword(value);
    if (found) return found;
  }
  return undefined;
}

/** Keywords whose value is data, not a schema: nothing inside them is a keyword. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
/** Keywords whose value maps names to schemas: the names are not keywords. */
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions", "dependentSchemas"]);

const composite = (v: unknown) => typeof v === "object" && v !== null;

/**
 * The first keyword of a matcher's schema that can never match, and where: zod compares a const or
 * enum value by reference, so an array or object there fails every argument; an empty anyOf admits none.
 */
function neverMatches(schema: unknown, at: string): { key: string; message: string } | undefined {
  if (Array.isArray(schema)) return schema.map((s, i) => neverMatches(s, `${at}[${i}]`)).find(Boolean);
  if (!composite(schema)) return undefined;
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    const key = `${at}.${k}`;
    const byReference = `an array or object as ${k} never matches (a schema compares it by reference); use { anyOf: [...] }`;
    if (k === "const" && composite(v)) return { key, message: byReference };
    if (k === "enum" && Array.isArray(v) && v.some(composite)) return { key, message: byReference };
    if (k === "anyOf" && Array.isArray(v) && v.length === 0) return { key, message: "an empty anyOf never matches" };
    if (DATA_KEYWORDS.has(k)) continue;
    const found =
      SCHEMA_MAPS.has(k) && composite(v) && !Array.isArray(v)
        ? Object.entries(v as Record<string, unknown>)
            .map(([name, sub]) => neverMatches(sub, `${key}.${name}`))
            .find(Boolean)
        : neverMatches(v, key);
    if (found) return found;
  }
  return undefined;
}

function matcherProblems(expected: unknown, key: string, out: (key: string, message: string) => void): void {
  const m = argMatcher(expected);
  if (m.kind === "regex") {
    const problem = regexProblem(m.regex, m.flags);
    if (problem) out(`${key}.regex`, problem);
  } else if (m.kind === "schema") {
    const keyword = patternKeyword(m.schema);
    if (keyword)
      out(`${key}.schema`, `"${keyword}" is not allowed in a matcher's JSON Schema (it would run on V8's backtracking regex); use { regex } instead`);
    else {
      try {
        z.fromJSONSchema(m.schema);
        const never = neverMatches(m.schema, `${key}.schema`);
        if (never) out(never.key, never.message);
      } catch (error) {
        out(`${key}.schema`, `not a usable JSON Schema (${(error as Error).message})`);
      }
    }
  } else if (m.kind === "anyOf" && m.values.length === 0) out(`${key}.anyOf`, "an empty anyOf never matches");
  else if (m.kind === "optional") matcherProblems(m.inner, `${key}.optional`, out);
  else if (m.kind === "bfcl") {
    const problem = bfclMatcherProblem(m.values);
    if (problem) out(`${key}.bfcl${problem.at}`, problem.message);
  } else if (m.kind === "object") for (const [k, v] of Object.entries(m.fields)) matcherProblems(v, `${key}.${k}`, out);
}

function toolProblems(tools: readonly SuiteTool[], key: string, out: (key: string, message: string) => void): void {
  const seen = new Set<string>();
  for (const [i, tool] of tools.entries()) {
    if (seen.has(tool.name)) out(`${key}[${i}].name`, `another tool here is named ${tool.name}`);
    seen.add(tool.name);
    if (tool.inputSchema.type !== "object") out(`${key}[${i}].inputSchema`, 'a tool\'s input is an object schema ({ type: "object", properties: … })');
    else {
      try {
        z.fromJSONSchema(withoutPatterns(tool.inputSchema) as Record<string, unknown>);
      } catch (error) {
        out(`${key}[${i}].inputSchema`, `not a usable JSON Schema (${(error as Error).message})`);
      }
    }
  }
}

/**
 * What parsing cannot check: every regex compiles on RE2 (refused at load rather than failing, or
 * freezing, mid-run), matcher schemas carry no V8-run patterns, no matcher can never pass, and tool
 * names are unique.
 */
export function suiteProblems(suite: Suite): SuiteProblem[] {
  const problems: SuiteProblem[] = [];
  toolProblems(suite.tools ?? [], "tools", (key, message) => problems.push({ key, message }));
  for (const [caseIndex, c] of suite.cases.entries()) {
    const out = (key: string, message: string) => problems.push({ caseIndex, key, message });
    for (const [k, call] of c.expect.calls.entries()) {
      for (const [arg, matcher] of Object.entries(call.args ?? {})) matcherProblems(matcher, `expect.calls[${k}].args.${arg}`, out);
    }
    const answer = c.expect.answer;
    if (answer?.regex !== undefined) {
      const problem = regexProblem(answer.regex, answer.flags);
      if (problem) out("expect.answer.regex", problem);
    }
    const own = (c.tools ?? []).filter((t): t is SuiteTool => typeof t !== "string");
    toolProblems(own, "tools", out);
  }
  return problems;
}
