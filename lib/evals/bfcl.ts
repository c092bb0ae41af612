import { stringify } from "yaml";

/**
 * Converts BFCL (the Berkeley Function Calling Leaderboard) single-turn data into an eval suite.
 * A question file holds one JSON object a line: `id`, `question` (turns, each a list of
 * `{ role, content }`) and `function` (the functions offered, with BFCL's Python-flavoured JSON
 * Schema: `"type": "dict"`, `"float"`, `"tuple"`, …). The matching possible-answer file holds
 * `ground_truth`: one `{ function: { param: [accepted values] } }` per expected call, where `""`
 * among the values means the parameter may be left out. The mapping is in docs/evals.md.
 */

export class BfclImportError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** BFCL type names → JSON Schema's; a type not here (Java's, JavaScript's) leaves the value unconstrained. */
const TYPES: Record<string, string> = {
  dict: "object",
  object: "object",
  float: "number",
  number: "number",
  integer: "integer",
  int: "integer",
  string: "string",
  boolean: "boolean",
  bool: "boolean",
  array: "array",
  list: "array",
  tuple: "array",
  null: "null",
};

const SUPPORTED = /^(live_)?(simple(_\w+)?|multiple|parallel|parallel_multiple|irrelevance)$/;

/** `simple_python_12` → `simple_python`; `live_simple_0-0-0` → `live_simple`. */
export function bfclCategory(id: string): string {
  return id.replace(/_\d+(-\d+)*$/, "");
}

/** Provider function names allow no dots: BFCL's own FC runs write `math.hypot` as `math_hypot` too. */
export function bfclToolName(name: string): string {
  return name.replace(/\./g, "_");
}

/** BFCL's schema as JSON Schema: types renamed, nested properties and items converted the same way. */
export function bfclSchema(schema: unknown): JsonObject {
  if (!isObject(schema)) return {};
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type" && typeof value === "string") {
      const type = TYPES[value.toLowerCase()];
      if (type) out.type = type;
    } else if (key === "properties" && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bfclSchema(v)]));
    } else if (key === "items") {
      out.items = Array.isArray(value) ? value.map(bfclSchema) : bfclSchema(value);
    } else if (key === "additionalProperties" && isObject(value)) {
      out.additionalProperties = bfclSchema(value);
    } else if (key !== "optional") {
      out[key] = value;
    }
  }
  return out;
}

/**
 * One parameter's accepted values as a suite matcher. Numbers and booleans BFCL compares by plain
 * membership, which a value, `{ anyOf }` and `{ optional }` (for `""`) say exactly; anything with a
 * string, a list or a dict in it gets `{ bfcl: values }`, BFCL's own rule (lib/evals/bfcl-checker.ts).
 */
export function bfclMatcher(values: Json[]): unknown {
  const rest = values.filter((v) => v !== "");
  if (rest.length === 0 || !rest.every((v) => typeof v === "number" || typeof v === "boolean")) return { bfcl: values };
  const matcher = rest.length === 1 ? rest[0] : { anyOf: rest };
  return rest.length === values.length ? matcher : { optional: matcher };
}

function parseLines(text: string, file: string): JsonObject[] {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    const all = JSON.parse(trimmed) as unknown;
    if (!Array.isArray(all) || !all.every(isObject)) throw new BfclImportError(`${file}: expected a list of entries`);
    return all;
  }
  return trimmed
    .split("\n")
    .map((line, i) => ({ line: line.trim(), i }))
    .filter(({ line }) => line)
    .map(({ line, i }) => {
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch (error) {
        throw new BfclImportError(`${file}: line ${i + 1}: not JSON (${(error as Error).message})`);
      }
      if (!isObject(entry) || typeof entry.id !== "string") throw new BfclImportError(`${file}: line ${i + 1}: an entry needs an "id"`);
      return entry;
    });
}

interface Message {
  role: "user" | "assistant";
  content: string;
}

/** The conversation of a single-turn entry; a system message is put before the first user message's text. */
function messagesOf(entry: JsonObject, id: string): Message[] {
  const turns = entry.question;
  if (!Array.isArray(turns) || turns.length === 0) throw new BfclImportError(`${id}: "question" is not a list of turns`);
  if (turns.length > 1) throw new BfclImportError(`${id}: ${turns.length} turns; only single-turn entries can be imported`);
  const turn = turns[0];
  if (!Array.isArray(turn)) throw new BfclImportError(`${id}: the turn is not a list of messages`);
  const system: string[] = [];
  const messages: Message[] = [];
  for (const m of turn) {
    if (!isObject(m) || typeof m.content !== "string") throw new BfclImportError(`${id}: a message without text content`);
    if (m.role === "system") system.push(m.content);
    else if (m.role === "user" || m.role === "assistant") messages.push({ role: m.role, content: m.content });
    else throw new BfclImportError(`${id}: a message of role ${JSON.stringify(m.role)}`);
  }
  const firstUser = messages.findIndex((m) => m.role === "user");
  if (firstUser < 0 || messages.at(-1)?.role !== "user") throw new BfclImportError(`${id}: the conversation does not end with the user's message`);
  if (system.length) messages[firstUser] = { role: "user", content: `${system.join("\n\n")}\n\n${messages[firstUser]!.content}` };
  return messages;
}

function toolsOf(entry: JsonObject, id: string) {
  const functions = entry.function;
  if (!Array.isArray(functions)) throw new BfclImportError(`${id}: "function" is not a list`);
  return functions.map((f) => {
    if (!isObject(f) || typeof f.name !== "string") throw new BfclImportError(`${id}: a function without a name`);
    const inputSchema = bfclSchema(f.parameters);
    return {
      name: bfclToolName(f.name),
      description: typeof f.description === "string" && f.description.trim() ? f.description : f.name,
      inputSchema: inputSchema.type === "object" ? inputSchema : { type: "object", properties: {} },
    };
  });
}

function expectedCalls(answer: JsonObject, id: string) {
  const truth = answer.ground_truth;
  if (!Array.isArray(truth)) throw new BfclImportError(`${id}: the possible answer has no "ground_truth" list`);
  return truth.map((call) => {
    const [name, params] = isObject(call) ? (Object.entries(call)[0] ?? []) : [];
    if (typeof name !== "string" || !isObject(params)) throw new BfclImportError(`${id}: a ground-truth call is not { function: { param: [values] } }`);
    const args = Object.fromEntries(
      Object.entries(params).map(([param, values]) => {
        if (!Array.isArray(values)) throw new BfclImportError(`${id}: ${name}.${param}: accepted values are not a list`);
        return [param, bfclMatcher(values)];
      }),
    );
    return { tool: bfclToolName(name), args, argsMatch: "exact" };
  });
}

export interface BfclImport {
  questions: { text: string; file: string };
  answers?: { text: string; file: string };
  name: string;
}

/** The suite as a plain object (what the YAML holds). */
export function bfclSuite(input: BfclImport): Record<string, unknown> {
  const entries = parseLines(input.questions.text, input.questions.file);
  const answers = new Map((input.answers ? parseLines(input.answers.text, input.answers.file) : []).map((a) => [a.id as string, a]));
  const cases = entries.map((entry) => {
    const id = entry.id as string;
    const category = bfclCategory(id);
    if (category.startsWith("multi_turn"))
      throw new BfclImportError(
        `${id}: multi-turn categories (${category}) need state kept between turns by BFCL's simulated APIs, which an eval case cannot hold; not imported`,
      );
    if (!SUPPORTED.test(category))
      throw new BfclImportError(
        `${id}: category ${category} cannot be imported (simple, multiple, parallel, parallel_multiple and irrelevance can, live_ ones too)`,
      );
    const messages = messagesOf(entry, id);
    const conversation = messages.length === 1 ? { prompt: messages[0]!.content } : { messages };
    const tools = toolsOf(entry, id);
    if (category.endsWith("irrelevance")) return { name: id, ...conversation, tools, expect: { noCalls: true } };
    const answer = answers.get(id);
    if (!answer) throw new BfclImportError(`${id}: no possible answer with this id${input.answers ? ` in ${input.answers.file}` : " (give --answers)"}`);
    const calls = expectedCalls(answer, id);
    // A case expecting a function it does not offer could never pass: the two files do not belong together.
    const offered = new Set(tools.map((t) => t.name));
    const foreign = calls.find((call) => !offered.has(call.tool));
    if (foreign)
      throw new BfclImportError(
        `${id}: the possible answer calls ${foreign.tool}, which is not among the entry's functions (${[...offered].join(", ") || "none"})`,
      );
    return { name: id, ...conversation, tools, expect: { calls, only: true, ordered: false } };
  });
  if (cases.length === 0) throw new BfclImportError(`${input.questions.file}: no entries`);
  const sources = [input.questions.file, ...(input.answers ? [input.answers.file] : [])].join(" and ");
  return { name: input.name, description: `Imported from BFCL (${sources}) by toolroom eval import-bfcl`, cases };
}

export function bfclSuiteYaml(input: BfclImport): string {
  return `# Imported from the Berkeley Function Calling Leaderboard by \`toolroom eval import-bfcl\`.\n${stringify(bfclSuite(input), { lineWidth: 0 })}`;
}
