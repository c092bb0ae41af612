import type { ModelMessage, UIMessage } from "ai";
import { canonicalJson } from "@/lib/tools/canonical-json";

/** A call a provider error left open: the reply broke off before the call was complete, so it never ran. */
export const BROKE_OFF_TEXT = "Not run: the provider's reply broke off before this call could run.";
export const INTERRUPTED_TEXT = "Error: the call was interrupted before the tool finished (the answer was stopped).";

export type ToolPart = Extract<UIMessage["parts"][number], { toolCallId: string }>;

export function isToolPart(part: UIMessage["parts"][number]): part is ToolPart {
  return "toolCallId" in part && (part.type.startsWith("tool-") || part.type === "dynamic-tool");
}

export function toolNameOf(part: ToolPart): string {
  return part.type === "dynamic-tool" ? (part as { toolName: string }).toolName : part.type.slice("tool-".length);
}

/**
 * A call that has no result and will get none from this turn: still streaming its input, about to
 * run, or approved. A denied call needs no result (the SDK derives `execution-denied` from the
 * response), and one waiting for approval stays pending.
 */
export function isUnfinishedCall(part: UIMessage["parts"][number]): part is ToolPart {
  if (!isToolPart(part)) return false;
  if (part.state === "approval-responded") return part.approval?.approved !== false;
  return part.state === "input-streaming" || part.state === "input-available";
}

/** After a stop, no call may stay without a result: every unfinished call is stored as an error result. */
export function closeInterruptedCalls(message: UIMessage, text: string = INTERRUPTED_TEXT): UIMessage {
  let changed = false;
  const parts = message.parts.map((part) => {
    if (!isUnfinishedCall(part)) return part;
    changed = true;
    return { ...part, state: "output-error", errorText: text, input: part.input ?? {} } as ToolPart;
  });
  return changed ? { ...message, parts } : message;
}

/**
 * What the model reads for a denied call is the tool's own not-admitted text, not the person's
 * raw reason (which the UI shows). A denied call appears twice in the model messages — the
 * approval response and the `execution-denied` result the SDK derives from it — and both are
 * rewritten, keyed by tool call id.
 */
export function rewriteDenials(messages: ModelMessage[], textFor: (toolCallId: string) => string | undefined): ModelMessage[] {
  const approvalCalls = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) if (part.type === "tool-approval-request") approvalCalls.set(part.approvalId, part.toolCallId);
  }
  return messages.map((message) => {
    if (message.role !== "tool") return message;
    return {
      ...message,
      content: message.content.map((part) => {
        if (part.type === "tool-approval-response" && !part.approved) {
          const toolCallId = approvalCalls.get(part.approvalId);
          const text = toolCallId === undefined ? undefined : textFor(toolCallId);
          return text === undefined ? part : { ...part, reason: text };
        }
        if (part.type === "tool-result" && part.output.type === "execution-denied") {
          const text = textFor(part.toolCallId);
          return text === undefined ? part : { ...part, output: { ...part.output, reason: text } };
        }
        return part;
      }),
    };
  });
}

/** The last message's calls in this turn, to answer a repeated identical call without re-running. */
export function callsSinceLastUser(messages: UIMessage[]): Map<string, string> {
  const made = new Map<string, string>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (!message || message.role === "user") break;
    for (const part of message.parts) {
      if (isToolPart(part) && part.state === "output-available") made.set(callKey(toolNameOf(part), part.input), String(part.output));
    }
  }
  return made;
}

export function callKey(toolName: string, input: unknown): string {
  return `${toolName}\u0000${canonicalJson(input)}`;
}
