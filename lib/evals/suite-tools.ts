import { jsonSchema, summaryLine } from "@/lib/tools/define";
import type { Registry, RegisteredTool } from "@/lib/tools/registry-types";
import type { ToolDefinition } from "@/lib/tools/types";
import type { SuiteProblem } from "./suite-checks";
import type { EvalCase, SuiteTool } from "./suite-schema";

/** The tools a suite declares (`tools:`), named by the suite they come from. */
export interface DeclaredTools {
  suite: string;
  tools: readonly SuiteTool[];
}

/** A case's tools that cannot be offered; `problem` is the text without the case (load errors name it their own way). */
export class SuiteToolError extends Error {
  constructor(
    caseName: string,
    readonly problem: string,
  ) {
    super(`case "${caseName}", key tools: ${problem}`);
  }
}

/** The output when a suite tool gives none: the call is what an eval judges. */
const DEFAULT_OUTPUT = "ok";

function valueAt(input: unknown, dotted: string): unknown {
  if (dotted === "$input") return input;
  let value = input;
  for (const key of dotted.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** `{{city}}` → the call's `city` (text as is, anything else as JSON); `{{$input}}` → all of it; a missing one → "". */
export function renderOutput(output: SuiteTool["output"], input: unknown): string {
  if (output === undefined) return DEFAULT_OUTPUT;
  if (typeof output !== "string") return JSON.stringify(output, null, 2);
  return output.replace(/\{\{\s*([$\w.-]+)\s*\}\}/g, (_, key: string) => {
    const value = valueAt(input, key);
    return value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  });
}

/**
 * Input validation without `pattern`/`patternProperties`: zod would run those on V8's backtracking
 * RegExp over the model's arguments. The model still sees the schema as written.
 */
export function withoutPatterns(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutPatterns);
  if (!schema || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== "pattern" && key !== "patternProperties")
      .map(([key, value]) => [key, key === "properties" || key === "$defs" || key === "definitions" ? mapValues(value) : withoutPatterns(value)]),
  );
}

/** Property maps are keyed by argument name: an argument called "pattern" stays. */
function mapValues(map: unknown): unknown {
  if (!map || typeof map !== "object" || Array.isArray(map)) return map;
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, withoutPatterns(value)]));
}

/** A suite tool as a registry entry: a schema and a canned answer, no code of anyone's, never confirming. */
export function suiteToolEntry(tool: SuiteTool, suite: string): RegisteredTool {
  const definition: ToolDefinition = {
    name: tool.name,
    description: tool.description,
    input: jsonSchema(withoutPatterns(tool.inputSchema) as Record<string, unknown>),
    readonly: true,
    execute: async (input: unknown) => renderOutput(tool.output, input),
  };
  return {
    name: tool.name,
    sourcePackage: `suite:${suite}`,
    version: "0.0.0",
    origin: "plugin",
    packageDir: "",
    entry: { file: `${suite}.eval.yaml`, exportName: tool.name },
    description: tool.description,
    summary: summaryLine(tool.description),
    readonly: true,
    requiresConfirmation: false,
    inputSchema: tool.inputSchema,
    enabled: true,
    resolve: () => definition,
  };
}

function registryWith(registry: Registry, tools: RegisteredTool[]): Registry {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return { ...registry, tools, get: (name) => byName.get(name) };
}

/**
 * The tools one case offers. Without `tools:` in the case: every registered tool and every suite
 * tool (a suite tool may not share a registered tool's name there). With it: exactly the listed
 * ones — a name is the suite's tool of that name, else a registered one; a definition is the case's
 * own, so two cases can give one name different schemas.
 */
export function caseRegistry(registry: Registry, declared: DeclaredTools | undefined, c: EvalCase): Registry {
  const suiteTools = declared?.tools ?? [];
  if (!c.tools) {
    if (suiteTools.length === 0) return registry;
    for (const tool of suiteTools) {
      if (registry.get(tool.name)?.enabled)
        throw new SuiteToolError(c.name, `the suite's tool ${tool.name} has the name of a registered tool; rename it, or list the case's tools`);
    }
    return registryWith(registry, [...registry.tools, ...suiteTools.map((t) => suiteToolEntry(t, declared!.suite))]);
  }
  const offered = c.tools.map((entry): RegisteredTool => {
    if (typeof entry !== "string") return suiteToolEntry(entry, declared?.suite ?? "suite");
    const own = suiteTools.find((t) => t.name === entry);
    if (own) return suiteToolEntry(own, declared!.suite);
    const registered = registry.get(entry);
    if (!registered) throw new SuiteToolError(c.name, `names ${entry}, which is neither a tool of the suite nor a registered tool`);
    if (!registered.enabled) throw new SuiteToolError(c.name, `names ${entry}, which is disabled in the settings`);
    return registered;
  });
  return registryWith(registry, offered);
}

/** Every case's tools, checked before a run starts: one problem per case (its key is `tools`). */
export function caseToolProblems(registry: Registry, declared: DeclaredTools, cases: readonly EvalCase[]): SuiteProblem[] {
  const problems: SuiteProblem[] = [];
  for (const [caseIndex, c] of cases.entries()) {
    try {
      caseRegistry(registry, declared, c);
    } catch (error) {
      if (!(error instanceof SuiteToolError)) throw error;
      problems.push({ caseIndex, key: "tools", message: error.problem });
    }
  }
  return problems;
}
