import { formatOutput } from "./output";
import type { NotAdmittedReason, ToolContext, ToolDefinition } from "./types";

/** A call needs a human when its tool has `confirm` and `evaluate` says so; a throw counts as yes. */
export async function needsConfirmation(tool: ToolDefinition, input: unknown, ctx: ToolContext): Promise<boolean> {
  if (!tool.confirm) return false;
  try {
    return (await tool.confirm.evaluate(input, ctx)) !== false;
  } catch {
    return true;
  }
}

export function describeNotAdmitted(why: NotAdmittedReason): string {
  switch (why.kind) {
    case "denied":
      return why.reason ? `denied: ${why.reason}` : "denied";
    case "timed-out":
      return "timed out";
    case "unsupervised":
      return "not admitted (unsupervised)";
  }
}

/** What the model is told instead of a result when the call did not run. */
export function notAdmittedText(tool: ToolDefinition, input: unknown, why: NotAdmittedReason): string {
  if (tool.confirm) {
    try {
      return formatOutput(tool, tool.confirm.notAdmitted(input, why));
    } catch {
      // fall through to the generic text: a broken notAdmitted must not break the conversation
    }
  }
  return `Not run: the call of ${tool.name} was ${describeNotAdmitted(why)}.`;
}
