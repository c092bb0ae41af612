import "server-only";
import { newOwner } from "@/lib/server/auth/ownership";
import { generateId, type UIMessage } from "ai";
import { withCallMeta, type CallElicitation, type ChatMessageMetadata } from "@/lib/chat/metadata";
import { createChat, getChat, messageCount, saveMessage, touchChat, upsertToolCall } from "@/lib/db/queries";
import type { McpAudit, McpCallRecord } from "@/lib/mcp/audit";
import { defaultChatConfig } from "@/lib/server/chat/chat-view";
import { inputHash } from "@/lib/server/approvals/input-hash";

/**
 * MCP calls are kept like chat calls: one chat per MCP session, titled after the client, with a
 * card per call and the decision on the tool call row — so the same history, cards and export
 * show what an outside client ran and who admitted it.
 */
export const databaseMcpAudit: McpAudit = {
  async record(call: McpCallRecord): Promise<void> {
    const chatId = `mcp-${call.sessionKey}`;
    if (!(await getChat(chatId))) await createChat({ id: chatId, title: `MCP: ${call.client}`, ...defaultChatConfig(), ownerId: newOwner() });
    const toolCallId = `mcp-${generateId()}`;
    const finishedAt = new Date(call.startedAt.getTime() + (call.durationMs ?? 0));
    const admitted = !call.decision || call.decision.decision === "approved";
    const part = admitted
      ? {
          type: `tool-${call.tool.name}`,
          toolCallId,
          state: "output-available",
          input: call.input,
          output: call.text,
          ...(call.decision ? { approval: { id: `${toolCallId}-approval`, approved: true } } : {}),
        }
      : {
          type: `tool-${call.tool.name}`,
          toolCallId,
          state: "output-denied",
          input: call.input,
          approval: { id: `${toolCallId}-approval`, approved: false, reason: call.text },
        };
    const elicitations: CallElicitation[] = call.elicitations ?? [];
    const metadata: ChatMessageMetadata = withCallMeta({ mcpClient: call.client }, toolCallId, {
      sourcePackage: call.tool.sourcePackage,
      durationMs: call.durationMs ?? undefined,
      madeChanges: call.madeChanges,
      decision: call.decision,
      ...(call.cancelled ? { cancelled: true } : {}),
      ...(elicitations.length ? { elicitations } : {}),
    });
    const message = { id: generateId(), role: "assistant", parts: [part], metadata } as UIMessage;
    // Counted, not loaded: a long MCP session must not re-read its whole history on every call.
    await saveMessage(chatId, await messageCount(chatId), message);
    await upsertToolCall(toolCallId, {
      chatId,
      toolName: call.tool.name,
      sourcePackage: call.tool.sourcePackage,
      input: JSON.stringify(call.input),
      inputHash: inputHash(call.input),
      output: call.text,
      state: call.cancelled ? "cancelled" : admitted ? (call.isError ? "error" : "done") : (call.decision?.decision ?? "denied"),
      isError: call.isError,
      decidedBy: call.decision?.by ?? null,
      ruleKey: call.decision?.rule?.key ?? null,
      decision: call.decision?.decision ?? null,
      decisionReason: call.decision?.reason ?? null,
      decidedAt: call.decision ? new Date(call.decision.at) : null,
      startedAt: call.startedAt,
      finishedAt,
      durationMs: call.durationMs,
      madeChanges: call.madeChanges,
      model: `mcp:${call.client}`,
      elicitations: elicitations.length ? JSON.stringify(elicitations) : null,
    });
    await touchChat(chatId);
  },
};
