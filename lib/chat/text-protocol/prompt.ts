import { summaryLine } from "@/lib/tools/define";
import { CALL_FORMAT } from "./format";
import { createTextCallParser } from "./parser";
import { TEXT_PROTOCOLS, type PromptTool, type TextProtocol, type ToolInput } from "./types";

const INTRO = "You have these tools. To call one, output EXACTLY this format on its own line:";

const RULES: Record<TextProtocol, string> = {
  action: [
    'Arguments are name=value pairs of literals: "strings", numbers, true/false/null, [lists] and {"objects"}.',
    "Call at most one tool per reply and stop after the call: anything after it is ignored. The result comes back in the next message.",
    "A reply without an ACTION: line is your final answer.",
  ].join("\n"),
  json: [
    '"arguments" is a JSON object of argument names to values.',
    "Call at most one tool per reply and stop after the call: anything after it is ignored. The result comes back in the next message.",
    "A reply without a <tool_call> is your final answer.",
  ].join("\n"),
  // Qwen's and Hermes' own template wording: several calls per reply, results in <tool_response>.
  hermes: [
    "You may call one or more tools to assist with the user query.",
    "For each call, return a JSON object with the tool name and its arguments within <tool_call></tool_call> XML tags.",
    "The results come back in the next message within <tool_response></tool_response> XML tags.",
    "A reply without a <tool_call> is your final answer.",
  ].join("\n"),
  xml: [
    "Put one <invoke> per call inside a single <function_calls> block; you may make several calls at once.",
    "Each <parameter> holds one argument: strings as plain text, numbers, booleans, lists and objects as JSON.",
    "The results come back in the next message within <function_results></function_results> tags.",
    "A reply without <function_calls> is your final answer.",
  ].join("\n"),
  // Llama 3.1's JSON-based tool calling wording.
  llama: [
    'When you call a tool, respond with a JSON object, on its own line, of the form {"name": tool name, "parameters": dictionary of argument name and its value}.',
    "Do not use variables. You may make several calls, one JSON object per line.",
    "The results come back in the next message.",
    "A reply without such a JSON object is your final answer.",
  ].join("\n"),
  mistral: [
    "To call tools, start a line with [TOOL_CALLS] followed by a JSON list of calls, each with the tool name and its arguments.",
    "You may make several calls in one list.",
    "The results come back in the next message within [TOOL_RESULTS] [/TOOL_RESULTS].",
    "A reply without [TOOL_CALLS] is your final answer.",
  ].join("\n"),
};

export const PLUGIN_HEADING = "Additional tools contributed by installed plugins:";

/**
 * The text-mode instructions: the call format, the built-in tools, then — only when plugins
 * contribute tools — a section naming each plugin tool's package. Nothing about plugins is
 * written when there are none, so that prompt stays byte-identical (a golden test holds it).
 */
export function buildToolPrompt(protocol: TextProtocol, tools: readonly PromptTool[]): string {
  const builtins = tools.filter((tool) => tool.builtin);
  const plugins = tools.filter((tool) => !tool.builtin);
  const parts = [INTRO, CALL_FORMAT[protocol], RULES[protocol]];
  let n = 0;
  if (builtins.length > 0 || plugins.length === 0) {
    const lines = builtins.map((tool) => `${++n}. ${signature(tool)} - ${summaryLine(tool.description)}`);
    parts.push(`Available tools:\n\n${lines.length ? lines.join("\n") : "(none)"}`);
  }
  if (plugins.length > 0) {
    const lines = plugins.map((tool) => `${++n}. ${signature(tool)} - ${summaryLine(tool.description)} [from ${tool.sourcePackage}]`);
    parts.push(`${PLUGIN_HEADING}\n\n${lines.join("\n")}`);
  }
  return parts.join("\n\n");
}

type SchemaObject = Record<string, unknown>;

function asObject(value: unknown): SchemaObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as SchemaObject) : undefined;
}

/** `name(arg="…", n=1)`: each argument shows its default, else a placeholder of its type. */
export function signature(tool: Pick<PromptTool, "name" | "inputJsonSchema">): string {
  const properties = asObject(tool.inputJsonSchema.properties) ?? {};
  const args = Object.entries(properties).map(([key, schema]) => `${key}=${placeholder(asObject(schema) ?? {})}`);
  return `${tool.name}(${args.join(", ")})`;
}

function schemaType(schema: SchemaObject): string | undefined {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === "string" && t !== "null");
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      for (const option of options) {
        const t = schemaType(asObject(option) ?? {});
        if (t && t !== "null") return t;
      }
    }
  }
  return undefined;
}

function placeholder(schema: SchemaObject): string {
  if (schema.default !== undefined) return JSON.stringify(schema.default);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return JSON.stringify(schema.enum[0]);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  switch (schemaType(schema)) {
    case "integer":
    case "number":
      return "1";
    case "boolean":
      return "false";
    case "array":
      return "[]";
    case "object":
      return "{}";
    default:
      return '"…"';
  }
}

export interface PromptedTool {
  name: string;
  /** The signature's arguments with their defaults or placeholders, in order. */
  args: ToolInput;
  /** The summary after the signature (without the plugin's "[from …]"). */
  summary: string;
}

/**
 * Reads a prompt written by buildToolPrompt back: which protocol it asks for and which tools it
 * lists. The offline model uses it to act as a text-mode model without being told its tools.
 */
export function readToolPrompt(system: string): { protocol: TextProtocol; tools: PromptedTool[] } | null {
  if (!system.includes(INTRO)) return null;
  const protocol = TEXT_PROTOCOLS.find((p) => system.includes(`\n${CALL_FORMAT[p]}\n`));
  if (!protocol) return null;
  const tools: PromptedTool[] = [];
  for (const line of system.split("\n")) {
    const match = /^\d+\. (?=[A-Za-z_][\w.-]*\()/.exec(line);
    if (!match) continue;
    // The signature is valid ACTION syntax, so the protocol's own parser reads it.
    const parser = createTextCallParser("action", null);
    const events = [...parser.push(`ACTION: ${line.slice(match[0].length)}`), ...parser.end()];
    const call = events.find((event) => event.type === "call");
    const dash = line.indexOf(") - ");
    const summary = dash < 0 ? "" : line.slice(dash + 4).replace(/ \[from [^\]]+\]$/, "");
    if (call?.type === "call") tools.push({ name: call.toolName, args: call.input, summary });
  }
  return { protocol, tools };
}
