import type { JsonValue } from "@/lib/tools/types";

/** How a text-mode model writes a tool call (the `chat.textProtocol` setting). */
export const TEXT_PROTOCOLS = ["action", "json"] as const;

export type TextProtocol = (typeof TEXT_PROTOCOLS)[number];

export type ToolInput = { [key: string]: JsonValue };

/** What the incremental parser reports, in stream order. */
export type ParseEvent =
  | { type: "text"; text: string }
  | { type: "call"; toolName: string; input: ToolInput; raw: string }
  | { type: "malformed"; raw: string; error: string; toolName?: string };

/** A tool as the text-mode prompt describes it. */
export interface PromptTool {
  name: string;
  description: string;
  inputJsonSchema: Record<string, unknown>;
  /** npm package that contributed the tool; shown only for plugin tools. */
  sourcePackage: string;
  builtin: boolean;
}
