import { z } from "zod";
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
      } catch (error) {
        out(`${key}.schema`, `not a usable JSON Schema (${(error as Error).message})`);
      }
    }
  } else if (m.kind === "optional") matcherProblems(m.inner, `${key}.optional`, out);
  else if (m.kind === "object") for (const [k, v] of Object.entries(m.fields)) matcherProblems(v, `${key}.${k}`, out);
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
 * freezing, mid-run), matcher schemas carry no V8-run patterns, and tool names are unique.
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
