import type { ToolDefinition, ToolOutput, ToolResultObject } from "./types";

export function isResultObject(value: unknown): value is ToolResultObject {
  if (typeof value !== "object" || value === null || Array.isArray(value) || !("output" in value)) return false;
  return Object.keys(value).every((key) => key === "output" || key === "madeChanges" || key === "content");
}

/** The text the model sees: the tool's own `format`, else the string itself or pretty JSON. */
export function formatOutput(tool: Pick<ToolDefinition, "format">, output: ToolOutput): string {
  if (tool.format) return tool.format(output);
  return typeof output === "string" ? output : JSON.stringify(output, null, 2);
}

export function isErrorText(text: string): boolean {
  return text.startsWith("Error:");
}
