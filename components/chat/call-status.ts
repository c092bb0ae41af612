import type { UIMessage } from "ai";
import { isToolPart, type ToolPart } from "@/lib/chat/history";
import type { CallMeta, ChatMessageMetadata } from "@/lib/chat/metadata";

export type { ToolPart };

export type CallTone = "pending" | "running" | "done" | "error" | "denied";

export interface CallStatus {
  tone: CallTone;
  label: string;
}

/**
 * One label per call, the same everywhere: which of "denied", "timed out" and "not admitted"
 * happened comes from the server's recorded decision, not from the client's guess.
 */
export function callStatus(part: ToolPart, meta: CallMeta | undefined): CallStatus {
  const decision = meta?.decision;
  switch (part.state) {
    case "input-streaming":
      return { tone: "running", label: "preparing" };
    case "input-available":
      return { tone: "running", label: "running" };
    case "approval-requested":
      return { tone: "pending", label: "waiting for approval" };
    case "approval-responded":
      if (decision?.decision === "timed-out") return { tone: "denied", label: "timed out" };
      return part.approval?.approved ? { tone: "running", label: "approved, running" } : { tone: "denied", label: deniedLabel(part.approval?.reason) };
    case "output-denied":
      if (decision?.decision === "timed-out") return { tone: "denied", label: "timed out" };
      if (decision?.by === "eval") return { tone: "denied", label: "denied by the eval case" };
      if (decision?.by === "rule") return { tone: "denied", label: decision.reason ?? "denied by rule" };
      if (decision?.by === "unsupervised" || (part.approval?.isAutomatic && !part.approval.approved))
        return { tone: "denied", label: "not admitted (unsupervised)" };
      return { tone: "denied", label: deniedLabel(decision?.reason ?? part.approval?.reason) };
    case "output-error":
      return { tone: "error", label: "error" };
    case "output-available": {
      const isError = typeof part.output === "string" && part.output.startsWith("Error:");
      const auto = decision?.by === "grant" || (part.approval?.isAutomatic && part.approval.approved);
      if (meta?.cancelled) return { tone: "error", label: "cancelled by you" };
      if (isError) return { tone: "error", label: "error" };
      if (decision?.by === "eval") return { tone: "done", label: "done · approved by the eval case" };
      if (decision?.by === "rule") return { tone: "done", label: `done · ${decision.reason ?? "allowed by rule"}` };
      return { tone: "done", label: auto ? "done · auto-approved by grant" : decision?.by === "user" ? "done · approved" : "done" };
    }
    default:
      return { tone: "running", label: String((part as { state?: string }).state ?? "") };
  }
}

function deniedLabel(reason: string | undefined): string {
  return reason ? `denied: ${reason}` : "denied";
}

/** Calls waiting for a human, oldest first, across the chat. */
export function pendingCalls(messages: UIMessage[]): { message: UIMessage; part: ToolPart }[] {
  return messages.flatMap((message) =>
    message.parts
      .filter(isToolPart)
      .filter((part) => part.state === "approval-requested" && part.approval && !part.approval.isAutomatic)
      .map((part) => ({ message, part })),
  );
}

/** "native", or "text · json": how the calls of an answer were made (answers stored before it was recorded: undefined). */
export function toolModeLabel(meta: ChatMessageMetadata): string | undefined {
  if (meta.toolMode === "text") return meta.protocol ? `text · ${meta.protocol}` : "text";
  return meta.toolMode;
}
