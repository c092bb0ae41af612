import type { JsonValue } from "@/lib/tools/types";

/**
 * How a text-mode model writes a tool call (`chat.textProtocol`, `llms.<name>.textProtocol`, per chat).
 * `action` and `json` are AORTA's (one call per reply); `hermes`, `xml`, `llama` and `mistral`
 * are the formats open models were trained on (several calls per reply).
 */
export const TEXT_PROTOCOLS = ["action", "json", "hermes", "xml", "llama", "mistral"] as const;

export type TextProtocol = (typeof TEXT_PROTOCOLS)[number];

export type ToolInput = { [key: string]: JsonValue };

/** What the incremental parser reports, in stream order. */
export type ParseEvent =
  | { type: "text"; text: string }
  /** `repaired` names the near-miss that was fixed to read the call ("trailing comma"). */
  | { type: "call"; toolName: string; input: ToolInput; raw: string; repaired?: string }
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
