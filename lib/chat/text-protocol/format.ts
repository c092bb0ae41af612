import type { TextProtocol } from "./types";

/** The line the prompt shows as "the exact format", and the reminder an invalid call gets back. */
export const CALL_FORMAT: Record<TextProtocol, string> = {
  action: 'ACTION: tool_name(arg1="value1", arg2=2)',
  json: '<tool_call>{"name": "tool_name", "arguments": {"arg1": "value1", "arg2": 2}}</tool_call>',
};

export const CALL_MARKER: Record<TextProtocol, string> = {
  action: "ACTION:",
  json: "<tool_call>",
};

export const JSON_CALL_CLOSE = "</tool_call>";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A call written the way the protocol's parser reads it back (history, the offline model). */
export function formatCall(protocol: TextProtocol, toolName: string, input: unknown): string {
  const args = isPlainObject(input) ? input : {};
  if (protocol === "json") {
    return `<tool_call>{"name": ${JSON.stringify(toolName)}, "arguments": ${JSON.stringify(args)}}</tool_call>`;
  }
  // JSON literals are valid keyword values in the action language, escapes included.
  const list = Object.entries(args).map(([key, value]) => `${key}=${JSON.stringify(value ?? null)}`);
  return `ACTION: ${toolName}(${list.join(", ")})`;
}

const RESULT_PREFIX = "TOOL RESULT from ";
const RESULT_SUFFIX = "\n\nUse this result to continue. Call another tool if needed, or provide your final answer.";

/** AORTA returns a tool's result to a text-mode model as a user message of this shape. */
export function formatToolResultMessage(toolName: string, result: string): string {
  return `${RESULT_PREFIX}${toolName}:\n${result}${RESULT_SUFFIX}`;
}

export function parseToolResultMessage(text: string): { toolName: string; result: string } | null {
  if (!text.startsWith(RESULT_PREFIX)) return null;
  const colon = text.indexOf(":\n", RESULT_PREFIX.length);
  if (colon < 0) return null;
  const toolName = text.slice(RESULT_PREFIX.length, colon);
  const body = text.slice(colon + 2);
  const result = body.endsWith(RESULT_SUFFIX) ? body.slice(0, -RESULT_SUFFIX.length) : body;
  return { toolName, result };
}
