import type { ToolJson } from "@/lib/tools/registry-json";

/** The sample plugin's confirming tool: part of a fresh install, so a newcomer can see an approval at once. */
const SAMPLE_CONFIRMING_TOOL = "sample_save_note";

/**
 * A message that makes the model call a tool that asks for approval, for the empty chat to offer;
 * null when the sample's tool is not registered or disabled. Named with JSON arguments, so the
 * offline model (and any real one) calls it as written.
 */
export function approvalPrompt(tools: Record<string, ToolJson>): string | null {
  const tool = tools[SAMPLE_CONFIRMING_TOOL];
  if (!tool?.enabled || !tool.requires_confirmation) return null;
  return `${SAMPLE_CONFIRMING_TOOL} {"title": "first-approval", "body": "Saved after I approved it in the dialog."}`;
}
