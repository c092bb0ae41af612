import type { TextProtocol } from "./types";

/** The call as the prompt shows "the exact format", and the reminder an invalid call gets back. */
export const CALL_FORMAT: Record<TextProtocol, string> = {
  action: 'ACTION: tool_name(arg1="value1", arg2=2)',
  json: '<tool_call>{"name": "tool_name", "arguments": {"arg1": "value1", "arg2": 2}}</tool_call>',
  hermes: '<tool_call>\n{"name": "tool_name", "arguments": {"arg1": "value1", "arg2": 2}}\n</tool_call>',
  xml: '<function_calls>\n<invoke name="tool_name">\n<parameter name="arg1">value1</parameter>\n<parameter name="arg2">2</parameter>\n</invoke>\n</function_calls>',
  llama: '{"name": "tool_name", "parameters": {"arg1": "value1", "arg2": 2}}',
  mistral: '[TOOL_CALLS] [{"name": "tool_name", "arguments": {"arg1": "value1", "arg2": 2}}]',
};

/**
 * How the parser finds a protocol's calls. A call starts at a line start with one of `markers`
 * (llama's "{" is both marker and the start of the JSON). `body`: `action` is ACTION's argument
 * list, `json` one JSON value (ended by `close` when there is one, else by the value's end), `tag`
 * everything up to `close`. `multi`: several calls per reply; AORTA's protocols take only the first.
 */
export interface CallSyntax {
  markers: readonly string[];
  body: "action" | "json" | "tag";
  close: string;
  multi: boolean;
}

export const CALL_SYNTAX: Record<TextProtocol, CallSyntax> = {
  action: { markers: ["ACTION:"], body: "action", close: "", multi: false },
  json: { markers: ["<tool_call>"], body: "json", close: "</tool_call>", multi: false },
  hermes: { markers: ["<tool_call>"], body: "json", close: "</tool_call>", multi: true },
  xml: { markers: ["<function_calls>"], body: "tag", close: "</function_calls>", multi: true },
  llama: { markers: ["<|python_tag|>", "{"], body: "json", close: "", multi: true },
  mistral: { markers: ["[TOOL_CALLS]"], body: "json", close: "", multi: true },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

function xmlEscape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => XML_ESCAPES[c] ?? c);
}

/** A call written the way the protocol's parser reads it back (history, the offline model). */
export function formatCall(protocol: TextProtocol, toolName: string, input: unknown): string {
  const args = isPlainObject(input) ? input : {};
  const name = JSON.stringify(toolName);
  switch (protocol) {
    case "json":
      return `<tool_call>{"name": ${name}, "arguments": ${JSON.stringify(args)}}</tool_call>`;
    case "hermes":
      return `<tool_call>\n{"name": ${name}, "arguments": ${JSON.stringify(args)}}\n</tool_call>`;
    case "llama":
      return `{"name": ${name}, "parameters": ${JSON.stringify(args)}}`;
    case "mistral":
      return `[TOOL_CALLS] [{"name": ${name}, "arguments": ${JSON.stringify(args)}}]`;
    case "xml": {
      // Strings as they are, everything else as JSON: the parser reads values back the same way.
      const params = Object.entries(args).map(
        ([key, value]) =>
          `<parameter name="${xmlEscape(key)}">${typeof value === "string" ? xmlEscape(value) : xmlEscape(JSON.stringify(value ?? null))}</parameter>\n`,
      );
      return `<function_calls>\n<invoke name="${xmlEscape(toolName)}">\n${params.join("")}</invoke>\n</function_calls>`;
    }
    case "action": {
      // JSON literals are valid keyword values in the action language, escapes included.
      const list = Object.entries(args).map(([key, value]) => `${key}=${JSON.stringify(value ?? null)}`);
      return `ACTION: ${toolName}(${list.join(", ")})`;
    }
  }
}

const RESULT_PREFIX = "TOOL RESULT from ";
const RESULT_SUFFIX = "\n\nUse this result to continue. Call another tool if needed, or provide your final answer.";
const LLAMA_PREFIX = "Output of ";

/**
 * A tool's result as the text-mode model reads it (in a user message). AORTA's protocols use its
 * TOOL RESULT message; the others the result wrapping their models were trained on: Hermes'
 * <tool_response>, the <function_results> block, Llama's plain tool output, Mistral's [TOOL_RESULTS].
 */
export function formatToolResultMessage(toolName: string, result: string, protocol: TextProtocol = "action"): string {
  switch (protocol) {
    case "hermes":
      return `<tool_response>\n${JSON.stringify({ name: toolName, content: result })}\n</tool_response>`;
    case "xml":
      return `<function_results>\n<result>\n<tool_name>${xmlEscape(toolName)}</tool_name>\n<stdout>\n${result}\n</stdout>\n</result>\n</function_results>`;
    case "llama":
      return `${LLAMA_PREFIX}${toolName}:\n${result}`;
    case "mistral":
      return `[TOOL_RESULTS] ${JSON.stringify({ name: toolName, content: result })} [/TOOL_RESULTS]`;
    case "action":
    case "json":
      return `${RESULT_PREFIX}${toolName}:\n${result}${RESULT_SUFFIX}`;
  }
}

function between(text: string, open: string, close: string): string | null {
  if (!text.startsWith(open)) return null;
  const end = text.indexOf(close, open.length);
  return end < 0 ? null : text.slice(open.length, end);
}

function nameAndContent(json: string | null): { toolName: string; result: string } | null {
  if (json === null) return null;
  try {
    const value: unknown = JSON.parse(json);
    if (isPlainObject(value) && typeof value.name === "string" && typeof value.content === "string") return { toolName: value.name, result: value.content };
  } catch {
    // not one of ours
  }
  return null;
}

/** Reads the first result of a message written by formatToolResultMessage, in any protocol. */
export function parseToolResultMessage(text: string): { toolName: string; result: string } | null {
  const hermes = nameAndContent(between(text, "<tool_response>\n", "\n</tool_response>"));
  if (hermes) return hermes;
  const mistral = nameAndContent(between(text, "[TOOL_RESULTS] ", " [/TOOL_RESULTS]"));
  if (mistral) return mistral;
  const xml = /^<function_results>\n<result>\n<tool_name>([^<]*)<\/tool_name>\n<stdout>\n([\s\S]*?)\n<\/stdout>\n<\/result>/.exec(text);
  if (xml) return { toolName: xml[1] ?? "", result: xml[2] ?? "" };
  for (const prefix of [RESULT_PREFIX, LLAMA_PREFIX]) {
    if (!text.startsWith(prefix)) continue;
    const colon = text.indexOf(":\n", prefix.length);
    if (colon < 0) continue;
    const toolName = text.slice(prefix.length, colon);
    const body = text.slice(colon + 2);
    const result = prefix === RESULT_PREFIX && body.endsWith(RESULT_SUFFIX) ? body.slice(0, -RESULT_SUFFIX.length) : body;
    return { toolName, result };
  }
  return null;
}
