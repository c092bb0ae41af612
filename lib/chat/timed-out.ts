import type { UIMessage } from "ai";
import { isToolPart, toolNameOf, type ToolPart } from "./history";
import { readMetadata, withCallMeta, type Decision } from "./metadata";

/** The reason a timed-out call shows when its tool has no not-admitted text of its own. */
export function defaultTimeoutText(toolName: string): string {
  return `Not run: nobody approved ${toolName} in time.`;
}

/**
 * One call of a message as a timeout leaves it: not run, with the tool's not-admitted text as the
 * approval's reason and the timeout recorded as the call's decision. The sweeper stores exactly
 * this; a page render shows it for an expired approval the sweeper has not reached yet.
 */
export function markTimedOut(message: UIMessage, toolCallId: string, now: Date, text: string): UIMessage {
  const decision: Decision = { by: "timeout", decision: "timed-out", at: now.toISOString() };
  const parts = message.parts.map((p) =>
    isToolPart(p) && p.toolCallId === toolCallId && p.approval
      ? ({ ...p, state: "output-denied", approval: { ...p.approval, approved: false, reason: text } } as ToolPart)
      : p,
  );
  return { ...message, parts, metadata: withCallMeta(readMetadata(message.metadata), toolCallId, { decision }) };
}

/**
 * The messages as they read once every approval past its deadline has timed out, computed and not
 * stored: reading a chat never writes (the sweeper and the next POST do). `textFor` gives the
 * tool's not-admitted text for a call.
 */
export async function showExpiredApprovals(
  messages: UIMessage[],
  now: Date,
  textFor: (call: { toolName: string; input: unknown }) => Promise<string> | string,
): Promise<UIMessage[]> {
  const shown: UIMessage[] = [];
  for (const message of messages) {
    const calls = readMetadata(message.metadata).calls;
    let current = message;
    for (const part of message.parts) {
      if (!isToolPart(part) || part.state !== "approval-requested" || !part.approval) continue;
      const expiresAt = calls?.[part.toolCallId]?.expiresAt;
      if (!expiresAt || Date.parse(expiresAt) > now.getTime()) continue;
      current = markTimedOut(current, part.toolCallId, now, await textFor({ toolName: toolNameOf(part), input: part.input }));
    }
    shown.push(current);
  }
  return shown;
}

/**
 * Whether `message` ends with a step whose approvals timed out and the model has not answered
 * since: every call is settled, one timed out, and nothing follows the last call. The chat then
 * continues as after a denial — the model reads the not-admitted text and answers.
 */
export function awaitsAnswerAfterTimeout(message: UIMessage | undefined): boolean {
  if (message?.role !== "assistant") return false;
  const parts = message.parts.filter((p) => p.type !== "step-start");
  const last = parts.at(-1);
  if (!last || !isToolPart(last)) return false;
  const tools = parts.filter(isToolPart);
  if (tools.some((p) => p.state === "approval-requested" || p.state === "approval-responded" || p.state.startsWith("input-"))) return false;
  const calls = readMetadata(message.metadata).calls;
  return tools.some((p) => p.state === "output-denied" && calls?.[p.toolCallId]?.decision?.decision === "timed-out");
}
