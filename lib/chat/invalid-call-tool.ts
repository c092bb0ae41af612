import { z } from "zod";
import { defineTool } from "@/lib/tools/define";

/**
 * Text mode reports a call it could not parse as a call of this tool, so the error goes back to
 * the model through the ordinary tool loop (streamText, approvals, persistence) and the model can
 * correct itself. The engine registers it in text mode only; the prompt never lists it.
 */
export const INVALID_CALL_TOOL_NAME = "invalid_tool_call";

export const invalidCallInput = z.object({
  /** The tool the model meant, when the parser got that far. */
  toolName: z.string().optional(),
  error: z.string(),
  /** The call exactly as the model wrote it. */
  raw: z.string(),
  /** The format the model must use (the protocol's example line). */
  format: z.string(),
});

export type InvalidCallInput = z.infer<typeof invalidCallInput>;

export function invalidCallMessage(input: Pick<InvalidCallInput, "error" | "format">): string {
  const error = input.error.trim().replace(/\.$/, "");
  return `Error: ${error}. Use the exact format: ${input.format}`;
}

export const invalidCallTool = defineTool({
  name: INVALID_CALL_TOOL_NAME,
  description: `Reports a tool call the model wrote in a form that could not be parsed.

Text mode only: the engine answers a malformed call with this tool's error result, which says
what was wrong and repeats the exact call format, so the model can write the call again.`,
  input: invalidCallInput,
  readonly: true,
  execute: (input) => invalidCallMessage(input),
});
