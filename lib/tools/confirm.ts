import { formatOutput } from "./output";
import type { NotAdmittedReason, NotAdmittedWhy, ToolContext, ToolDefinition } from "./types";

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

/** The reason as one sentence: what `${why}` prints in a plugin's `notAdmitted`. */
export function notAdmittedSentence(why: NotAdmittedReason): string {
  switch (why.kind) {
    case "denied":
      return why.reason ? `A person denied the call: ${why.reason.replace(/[.\s]+$/, "")}.` : "A person denied the call.";
    case "timed-out":
      return "Nobody approved the call in time, so it did not run.";
    case "unsupervised":
      return "The call needs a person's approval and nobody is supervising, so it did not run.";
  }
}

/**
 * The `why` a tool's `notAdmitted` gets: the structured fields, plus `message` and a `toString`
 * that print the sentence (a template string would otherwise print "[object Object]").
 * `toString` is not enumerable, so JSON shows the fields and the message only.
 */
export function notAdmittedWhy(why: NotAdmittedReason): NotAdmittedWhy {
  const message = notAdmittedSentence(why);
  return Object.defineProperty({ ...why, message }, "toString", { value: () => message, enumerable: false });
}

/** What the model is told instead of a result when the call did not run. */
export function notAdmittedText(tool: ToolDefinition, input: unknown, why: NotAdmittedReason): string {
  if (tool.confirm) {
    try {
      return formatOutput(tool, tool.confirm.notAdmitted(input, notAdmittedWhy(why)));
    } catch {
      // fall through to the generic text: a broken notAdmitted must not break the conversation
    }
  }
  return `Not run: the call of ${tool.name} was ${describeNotAdmitted(why)}.`;
}
