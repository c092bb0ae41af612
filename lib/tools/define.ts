import type { InputSchema, JsonSchemaWrapper } from "./types";

// The typed helpers are the plugin kit's own, so built-ins and plugins are written the same way.
export { defineTool, jsonSchema } from "../../packages/toolroom-plugin-kit/index.js";

export function isZodLike(schema: unknown): schema is Extract<InputSchema, { safeParse: unknown }> {
  return typeof schema === "object" && schema !== null && "~standard" in schema && typeof (schema as { safeParse?: unknown }).safeParse === "function";
}

export function isJsonSchemaWrapper(schema: unknown): schema is JsonSchemaWrapper {
  return typeof schema === "object" && schema !== null && "jsonSchema" in schema && !isZodLike(schema);
}

/** The first line of a description: the summary shown in lists and text-mode prompts. */
export function summaryLine(description: string): string {
  return description.trim().split("\n", 1)[0]?.trim() ?? "";
}
