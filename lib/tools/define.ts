import type { InputSchema, JsonSchemaWrapper, ToolDefinition, ToolFactory } from "./types";

/** The typed helper for authors; a tool is still a plain object and needs nothing but zod. */
export function defineTool<I>(tool: ToolDefinition<I>): ToolDefinition<I> {
  return tool;
}

export function defineToolFactory(factory: ToolFactory): ToolFactory {
  return factory;
}

/** Wraps a plain JSON Schema as a tool input. */
export function jsonSchema(schema: Record<string, unknown>): JsonSchemaWrapper {
  return { jsonSchema: schema };
}

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
