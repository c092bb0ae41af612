import fs from "node:fs";
import path from "node:path";
import { parseDocument } from "yaml";
import type { z } from "zod";
import { suiteProblems, type SuiteProblem } from "./suite-checks";
import { suiteSchema, type Suite } from "./suite-schema";

export class SuiteError extends Error {}

export interface LoadedSuite {
  file: string;
  suite: Suite;
  /** The file as read: its hash goes into the results. */
  text: string;
}

/**
 * `case 3 "list-sub", key expect.calls[0].tool`: an item of the file's list (`cases` of a suite,
 * `calls` of a collection) is named as well as counted, so a person finds it.
 */
export function issueWhere(issuePath: readonly PropertyKey[], raw: unknown, list = { key: "cases", noun: "case", file: "suite" }): string {
  const keys = issuePath.map((k) => (typeof k === "symbol" ? String(k) : k));
  if (keys[0] === list.key && typeof keys[1] === "number") {
    const name = (raw as Record<string, { name?: unknown }[] | undefined> | null)?.[list.key]?.[keys[1]]?.name;
    const head = `${list.noun} ${keys[1] + 1}${typeof name === "string" ? ` "${name}"` : ""}`;
    const rest = keys.slice(2);
    return rest.length ? `${head}, key ${joinKeys(rest)}` : head;
  }
  return keys.length ? `key ${joinKeys(keys)}` : `the ${list.file}`;
}

function joinKeys(keys: readonly (string | number)[]): string {
  return keys.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? k : `.${k}`)).join("");
}

export function formatSuiteIssues(file: string, issues: readonly z.core.$ZodIssue[], raw: unknown): string {
  return issues.map((issue) => `${file}: ${issueWhere(issue.path, raw)}: ${issue.message}`).join("\n");
}

/** Parses and validates suite text; every problem is one line naming the file, the case and the key. */
export function parseSuite(text: string, file: string): Suite {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length) throw new SuiteError(doc.errors.map((e) => `${file}: YAML: ${e.message.split("\n")[0]}`).join("\n"));
  const raw: unknown = doc.toJS();
  const parsed = suiteSchema.safeParse(raw);
  if (!parsed.success) throw new SuiteError(formatSuiteIssues(file, parsed.error.issues, raw));
  const suite = parsed.data;
  const seen = new Set<string>();
  for (const [i, c] of suite.cases.entries()) {
    if (seen.has(c.name)) throw new SuiteError(`${file}: case ${i + 1} "${c.name}", key name: another case has this name`);
    seen.add(c.name);
  }
  const problems = suiteProblems(suite);
  if (problems.length) throw new SuiteError(problemLines(file, suite, problems));
  return suite;
}

/** `file: case 2 "name", key expect.answer.model: message`, one line a problem. */
export function problemLines(file: string, suite: Suite, problems: readonly SuiteProblem[]): string {
  const line = ({ caseIndex, key, message }: SuiteProblem) =>
    `${file}: ${caseIndex === undefined ? "" : `case ${caseIndex + 1} "${suite.cases[caseIndex]!.name}", `}key ${key}: ${message}`;
  return problems.map(line).join("\n");
}

export function loadSuite(file: string): LoadedSuite {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new SuiteError(`${file}: cannot read the suite (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return { file: path.resolve(file), suite: parseSuite(text, file), text };
}
