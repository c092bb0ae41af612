import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { issueWhere } from "./suite";
import { regexProblem } from "./suite-regex";
import { parseRef, refsIn } from "./collection-vars";
import { collectionSchema, type Collection } from "./collection-schema";
import { parseLinedYaml, type LinedYaml } from "./yaml-lines";

export const COLLECTION_SUFFIX = ".calls.yaml";
/** A collection file above this is refused unread: it is parsed on the request thread. */
export const MAX_COLLECTION_BYTES = 1024 * 1024;

export class CollectionError extends Error {}

export interface LoadedCollection {
  /** The real path. */
  file: string;
  collection: Collection;
  text: string;
}

const LIST = { key: "calls", noun: "call", file: "collection" };

interface Problem {
  path: (string | number)[];
  /** An unknown key: the line is the key's own. */
  key?: string;
  message: string;
}

function lines(label: string, raw: unknown, yaml: LinedYaml, problems: Problem[]): string {
  return problems
    .map((p) => {
      const line = yaml.lineOf(p.path, p.key);
      const at = p.key === undefined ? p.path : [...p.path, p.key];
      return `${label}${line ? `:${line}` : ""}: ${issueWhere(at, raw, LIST)}: ${p.message}`;
    })
    .join("\n");
}

const keyPath = (path: readonly PropertyKey[]) => path.map((k) => (typeof k === "number" ? k : String(k)));

/** Zod's issues, one problem each; an unknown key (a typo like `inptu`) is named with the keys it could have been. */
function schemaProblems(issues: readonly z.core.$ZodIssue[]): Problem[] {
  return issues.flatMap((issue): Problem[] =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ path: keyPath(issue.path), key, message: "unknown key" }))
      : [{ path: keyPath(issue.path), message: issue.message }],
  );
}

/** What the schema cannot see: names used twice, regexes RE2 refuses, placeholders with no value or naming a later call. */
function meaningProblems(collection: Collection, varNames: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  const earlier = new Set<string>();
  for (const [i, call] of collection.calls.entries()) {
    if (earlier.has(call.name)) problems.push({ path: ["calls", i, "name"], message: "another call has this name" });
    for (const [part, value] of [["input", call.input] as const, ["expect", call.expect] as const])
      for (const found of refsIn(value, ["calls", i, part])) {
        const ref = parseRef(found.text);
        const why =
          "problem" in ref
            ? ref.problem
            : ref.kind === "var"
              ? varNames.has(ref.name)
                ? undefined
                : `{{${found.text}}}: no var named ${ref.name} (declare it under vars, or give --var ${ref.name}=…)`
              : earlier.has(ref.call)
                ? undefined
                : `{{${found.text}}}: ${collection.calls.some((c) => c.name === ref.call) ? `${ref.call} runs after this call` : `no call is named ${ref.call}`}`;
        if (why) problems.push({ path: found.path, message: why });
      }
    const { matches, flags } = call.expect;
    if (matches !== undefined && refsIn(matches).length === 0) {
      const why = regexProblem(matches, flags ?? "");
      if (why) problems.push({ path: ["calls", i, "expect", "matches"], message: why });
    }
    earlier.add(call.name);
  }
  return problems;
}

/**
 * Parses and checks collection text; every problem is one line naming the file, the line, the call
 * and the key (`x.calls.yaml:12: call 2 "read", key inptu: unknown key`). `extraVars` are the
 * vars given beside the file (--var): placeholders may use them too.
 */
export function parseCollection(text: string, label: string, extraVars: Iterable<string> = []): Collection {
  const yaml = parseLinedYaml(text);
  if (yaml.doc.errors.length)
    throw new CollectionError(yaml.doc.errors.map((e) => `${label}:${yaml.lineAt(e.pos[0])}: YAML: ${e.message.split("\n")[0]}`).join("\n"));
  const raw: unknown = yaml.doc.toJS();
  const parsed = collectionSchema.safeParse(raw);
  if (!parsed.success) throw new CollectionError(lines(label, raw, yaml, schemaProblems(parsed.error.issues)));
  const problems = meaningProblems(parsed.data, new Set([...Object.keys(parsed.data.vars), ...extraVars]));
  if (problems.length) throw new CollectionError(lines(label, raw, yaml, problems));
  return parsed.data;
}

/** Reads and checks a collection file; `label` is how problems name it (the path as given). */
export function loadCollection(file: string, label = file, extraVars: Iterable<string> = []): LoadedCollection {
  let text: string;
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_COLLECTION_BYTES) throw new CollectionError(`${label}: ${size} bytes, above the 1 MB a collection may be`);
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if (error instanceof CollectionError) throw error;
    throw new CollectionError(`${label}: cannot read the collection (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return { file: fs.realpathSync(path.resolve(file)), collection: parseCollection(text, label, extraVars), text };
}

/**
 * The calls whose tool cannot run here (`why` says why: not registered, disabled), as problem
 * lines; undefined when every tool can. A collection runs only tools that already exist.
 */
export function toolProblems(
  loaded: Pick<LoadedCollection, "collection" | "text">,
  label: string,
  why: (tool: string) => string | undefined,
): string | undefined {
  const problems = loaded.collection.calls.flatMap((call, i): Problem[] => {
    const reason = why(call.tool);
    return reason ? [{ path: ["calls", i, "tool"], message: reason }] : [];
  });
  if (!problems.length) return undefined;
  const yaml = parseLinedYaml(loaded.text);
  return lines(label, yaml.doc.toJS(), yaml, problems);
}
