import type { UIMessage } from "ai";
import type { ApprovalRequest } from "./approval-dialog";
import { pendingCalls } from "@/components/chat/call-status";
import { toolNameOf } from "@/lib/chat/history";
import { readMetadata } from "@/lib/chat/metadata";
import type { ToolJson } from "@/lib/tools/registry-json";

/** The oldest call of a chat waiting for a person, as the approval dialog shows it. */
export function approvalRequestOf(messages: UIMessage[], tools: Record<string, ToolJson>): ApprovalRequest | null {
  const pending = pendingCalls(messages);
  const current = pending[0];
  if (!current) return null;
  const name = toolNameOf(current.part);
  const tool = tools[name];
  const meta = readMetadata(current.message.metadata).calls?.[current.part.toolCallId];
  return {
    approvalId: current.part.approval!.id,
    toolName: name,
    sourcePackage: meta?.sourcePackage ?? tool?.source_package ?? "?",
    readonly: tool?.readonly ?? false,
    summary: tool?.description.split("\n", 1)[0] ?? "",
    input: current.part.input,
    expiresAt: meta?.expiresAt,
    queueLabel: pending.length > 1 ? `1 of ${pending.length} waiting` : undefined,
  };
}
