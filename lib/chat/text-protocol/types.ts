import type { JsonValue } from "@/lib/tools/types";

// The protocol names live with the tool contract, where settings and the database can see them.
export { TEXT_PROTOCOLS, type TextProtocol } from "@/lib/tools/text-protocols";

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
