import { isJsonSchemaWrapper, isZodLike } from "./define";
import type { ToolDefinition } from "./types";

/** Why a value is not a tool, or null when it is one. Structural: plugins bring their own zod. */
export function whyNotATool(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return `expected a tool object, got ${value === null ? "null" : typeof value}`;
  const tool = value as Partial<ToolDefinition>;
  if (typeof tool.name !== "string" || !/^[A-Za-z0-9_.-]{1,64}$/.test(tool.name)) return "its `name` is missing or not a valid tool name";
  if (typeof tool.description !== "string" || !tool.description.trim()) return "its `description` is missing";
  if (!isZodLike(tool.input) && !isJsonSchemaWrapper(tool.input)) return "its `input` is neither a zod schema nor jsonSchema({...})";
  if (typeof tool.execute !== "function") return "its `execute` is not a function";
  if (tool.confirm !== undefined) {
    if (typeof tool.confirm?.evaluate !== "function" || typeof tool.confirm?.notAdmitted !== "function") {
      return "its `confirm` needs both `evaluate` and `notAdmitted` functions";
    }
    if (tool.confirm.when !== undefined && typeof tool.confirm.when !== "string") return "its `confirm.when` is not a string";
  }
  return null;
}
