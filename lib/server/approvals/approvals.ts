import "server-only";
import { audit } from "@/lib/server/auth/audit";
import type { UIMessage } from "ai";
import { isToolPart, toolNameOf } from "@/lib/chat/history";
import { readMetadata, withCallMeta, type Decision } from "@/lib/chat/metadata";
import { TIMEOUT_REASON } from "@/lib/chat/engine";
import { defaultTimeoutText, markTimedOut } from "@/lib/chat/timed-out";
import {
  addGrant,
  decideApproval,
  getToolCallByApproval,
  loadMessages,
  pendingApprovals,
  saveMessage,
  upsertToolCall,
  type ToolCallRecord,
} from "@/lib/db/queries";
import { notAdmittedText } from "@/lib/tools/confirm";
import { getSettings } from "@/lib/settings";
import { currentPerson } from "@/lib/server/auth/person";
import { HttpError } from "@/lib/server/http/http-error";
import { inputHash } from "./input-hash";
import { approvalSecret } from "./approval-secret";
import { signApproval } from "./approval-signature";
import { validateInput } from "@/lib/tools/schema";
import { ruleCallOf, ruleDecisionText } from "@/lib/tools/approval-rules";
import { ruleDecider } from "./rule-book";
import { getRegistry } from "@/lib/server/runtime/registry";
import { createToolContext } from "@/lib/server/runtime/tool-context";

/** Records every approval the SDK asked for in this message as a pending, server-issued request. */
export async function recordApprovalRequests(chatId: string, message: UIMessage, timeoutSeconds: number, model: string): Promise<void> {
  const meta = readMetadata(message.metadata);
  for (const part of message.parts) {
    if (!isToolPart(part) || part.state !== "approval-requested" || !part.approval) continue;
    const existing = await getToolCallByApproval(part.approval.id);
    if (existing) continue;
    const issuedAt = new Date();
    const expiresAt = meta.calls?.[part.toolCallId]?.expiresAt
      ? new Date(meta.calls[part.toolCallId]!.expiresAt!)
      : new Date(issuedAt.getTime() + timeoutSeconds * 1000);
    const base = {
      chatId,
      toolName: toolNameOf(part),
      sourcePackage: meta.calls?.[part.toolCallId]?.sourcePackage ?? "",
      input: JSON.stringify(part.input ?? {}),
      inputHash: inputHash(part.input ?? {}),
      state: "approval-requested",
      approvalId: part.approval.id,
      approvalState: "pending",
      issuedAt,
      expiresAt,
      model,
    };
    await upsertToolCall(part.toolCallId, base, {
      approvalId: part.approval.id,
      approvalState: "pending",
      issuedAt,
      expiresAt,
      state: "approval-requested",
      inputHash: base.inputHash,
      input: base.input,
    });
  }
}

export interface ApprovalResponse {
  approvalId: string;
  toolCallId: string;
  approved: boolean;
  reason?: string;
  input: unknown;
}

/** Approval responses the client put on the last assistant message. */
export function approvalResponsesOf(message: UIMessage): ApprovalResponse[] {
  return message.parts.flatMap((part) => {
    if (!isToolPart(part) || part.state !== "approval-responded" || !part.approval || part.approval.approved === undefined) return [];
    // The request schema already refuses these; a truthy "false" must never reach a decision by another path.
    if (typeof part.approval.approved !== "boolean")
      throw new HttpError(400, `Approval ${part.approval.id}: approved must be true or false.`, "invalid_request");
    return [{ approvalId: part.approval.id, toolCallId: part.toolCallId, approved: part.approval.approved, reason: part.approval.reason, input: part.input }];
  });
}

/**
 * The server is the authority: a response counts only for a pending approval it issued, in this
 * chat, for the same call with unchanged arguments, before expiry, once. Applies accepted
 * decisions to the stored message (never to the client's copy) and returns it.
 */
export async function applyApprovalResponses(args: {
  chatId: string;
  stored: UIMessage;
  responses: ApprovalResponse[];
  grantApprovalIds: ReadonlySet<string>;
  /** Arguments the person edited before approving, by approval id: the call runs with these instead. */
  editedInputs?: Readonly<Record<string, unknown>>;
  now?: Date;
}): Promise<UIMessage> {
  const now = args.now ?? new Date();
  if (args.responses.length === 0) throw new HttpError(400, "The message carries no approval decision.", "no_decision");
  // Every response is checked before any is decided: one bad response must not leave the others
  // decided in the database while the message (and so the turn) is never continued.
  const checked = [];
  const seen = new Set<string>();
  const stray = Object.keys(args.editedInputs ?? {}).find((id) => !args.responses.some((r) => r.approvalId === id));
  if (stray) throw new HttpError(400, `Edited arguments for ${stray}, which this message does not answer; nothing was decided.`, "invalid_edit");
  for (const response of args.responses) {
    const record = await getToolCallByApproval(response.approvalId);
    if (!record || record.chatId !== args.chatId || record.id !== response.toolCallId) {
      throw new HttpError(403, `Approval ${response.approvalId} was not issued for this chat; the tool did not run.`, "unknown_approval");
    }
    if (record.approvalState === "expired") {
      throw new HttpError(409, expiredText(record.toolName, record.expiresAt), "expired_approval");
    }
    const storedPart = args.stored.parts.find((p) => isToolPart(p) && p.toolCallId === response.toolCallId);
    if (
      !storedPart ||
      !isToolPart(storedPart) ||
      storedPart.state !== "approval-requested" ||
      record.approvalState !== "pending" ||
      seen.has(response.approvalId)
    ) {
      throw new HttpError(409, `Approval ${response.approvalId} was already decided; a decision counts once.`, "replayed_approval");
    }
    seen.add(response.approvalId);
    if (inputHash(response.input ?? {}) !== record.inputHash) {
      throw new HttpError(409, `The arguments of ${record.toolName} were changed after the approval was requested; the tool did not run.`, "edited_input");
    }
    const edited = Object.hasOwn(args.editedInputs ?? {}, response.approvalId)
      ? await checkedEdit(args.chatId, record.toolName, response, args.editedInputs!)
      : undefined;
    const expired = record.expiresAt !== null && now.getTime() > record.expiresAt.getTime();
    if (expired && response.approved) {
      await timeOut(args.chatId, response.approvalId, now);
      throw new HttpError(409, expiredText(record.toolName, record.expiresAt), "expired_approval");
    }
    checked.push({ response, record, storedPart, expired, edited });
  }
  // The turn resumes with every call of the step decided: continuing past a call still waiting
  // would leave it without a result, and a later approval of it could then never run it.
  const waiting = args.stored.parts.filter(
    (p) => isToolPart(p) && p.state === "approval-requested" && !args.responses.some((r) => r.toolCallId === p.toolCallId),
  );
  if (waiting.length > 0) {
    throw new HttpError(
      409,
      `Answer all ${checked.length + waiting.length} pending approvals of this message together; ${waiting.length} still unanswered, nothing was decided.`,
      "incomplete_decision",
    );
  }

  let message = args.stored;
  // Who pressed Approve or Deny: the request's signed-in person (none without sign-in).
  const decider = currentPerson()?.email;
  for (const { response, record, storedPart, expired, edited } of checked) {
    const decision: Decision = expired
      ? { by: "timeout", decision: "timed-out", at: now.toISOString() }
      : {
          by: "user",
          decision: response.approved ? "approved" : "denied",
          ...(response.reason ? { reason: response.reason } : {}),
          ...(decider ? { user: decider } : {}),
          at: now.toISOString(),
        };
    const won = await decideApproval(response.approvalId, {
      approvalState: expired ? "expired" : response.approved ? "approved" : "denied",
      decision: decision.decision,
      decidedBy: decision.by,
      decidedByUser: decision.user ?? null,
      decisionReason: decision.reason ?? null,
      decidedAt: now,
      state: response.approved && !expired ? "approved" : expired ? "timed-out" : "denied",
      // The approval binds to the edited arguments: they are what the call runs with and what is recorded.
      ...(edited && !expired ? { input: JSON.stringify(edited.input), inputHash: inputHash(edited.input), originalInput: record.input } : {}),
    });
    if (!won) throw new HttpError(409, `Approval ${response.approvalId} was already decided; a decision counts once.`, "replayed_approval");
    await audit(`approval.${decision.decision}`, record.id, { chatId: args.chatId, tool: record.toolName });
    if (response.approved && args.grantApprovalIds.has(response.approvalId)) await addGrant(args.chatId, record.toolName);

    const runsEdited = edited !== undefined && !expired;
    const approval = {
      ...storedPart.approval,
      approved: response.approved && !expired,
      ...(expired ? { reason: TIMEOUT_REASON } : response.reason ? { reason: response.reason } : {}),
      // The SDK checks its signature against the input it resumes with, which is now the edited one.
      ...(runsEdited && storedPart.approval?.signature
        ? {
            signature: signApproval(approvalSecret(), {
              approvalId: response.approvalId,
              toolCallId: response.toolCallId,
              toolName: record.toolName,
              input: edited.input,
            }),
          }
        : {}),
    };
    const part = { ...storedPart, state: "approval-responded", approval, ...(runsEdited ? { input: edited.input } : {}) };
    message = {
      ...message,
      parts: message.parts.map((p) => (p === storedPart ? (part as unknown as typeof storedPart) : p)),
      metadata: withCallMeta(readMetadata(message.metadata), response.toolCallId, {
        decision,
        ...(runsEdited ? { edited: { proposed: storedPart.input ?? {}, input: edited.input } } : {}),
      }),
    };
  }
  return message;
}

/** An edit counts only on an approval, and only when the edited arguments are valid for the tool. */
async function checkedEdit(
  chatId: string,
  toolName: string,
  response: ApprovalResponse,
  edits: Readonly<Record<string, unknown>>,
): Promise<{ input: unknown }> {
  const input = edits[response.approvalId];
  if (!response.approved) throw new HttpError(400, `Approval ${response.approvalId}: only an approved call can carry edited arguments.`, "invalid_edit");
  const registered = (await getRegistry()).get(toolName);
  if (!registered) throw new HttpError(409, `${toolName} is no longer registered; the edited call cannot run.`, "invalid_edit");
  const tool = registered.resolve(createToolContext({ settings: getSettings(), toolName, chatId }));
  const validation = await validateInput(tool.input, input);
  if (!validation.ok)
    throw new HttpError(400, `The edited arguments of ${toolName} are not valid: ${validation.message}. Nothing was decided.`, "invalid_edit");
  // An edit must not smuggle in what a rule refuses: the rules see the edited arguments too.
  const settings = getSettings();
  const verdict = await ruleDecider(settings, chatId)(ruleCallOf(registered, input, toolName));
  if (verdict?.decision === "deny") throw new HttpError(403, `The edited arguments are ${ruleDecisionText(verdict)}. Nothing was decided.`, "denied_by_rule");
  return { input };
}

/** Marks one pending approval timed out, in the database and in the stored message. */
async function timeOut(chatId: string, approvalId: string, now: Date, notAdmitted?: string): Promise<void> {
  const won = await decideApproval(approvalId, { approvalState: "expired", decision: "timed-out", decidedBy: "timeout", decidedAt: now, state: "timed-out" });
  if (!won) return;
  const record = await getToolCallByApproval(approvalId);
  if (!record) return;
  const messages = await loadMessages(chatId);
  const index = messages.findIndex((m) => m.parts.some((p) => isToolPart(p) && p.toolCallId === record.id));
  const message = messages[index];
  if (!message) return;
  await saveMessage(chatId, index, markTimedOut(message, record.id, now, notAdmitted ?? defaultTimeoutText(record.toolName)));
}

/** What the model is told for a call that timed out: its tool's not-admitted text, when the tool is registered. */
export async function timeoutText(chatId: string, toolName: string, input: unknown): Promise<string> {
  const registered = (await getRegistry()).get(toolName);
  if (!registered) return defaultTimeoutText(toolName);
  return notAdmittedText(registered.resolve(createToolContext({ settings: getSettings(), toolName, chatId })), input, { kind: "timed-out" });
}

/** Enforced by the server even with no browser open: pending approvals past their expiry time out. */
export async function sweepExpiredApprovals(now = new Date()): Promise<number> {
  const pending = await pendingApprovals();
  return pending.length - (await timeOutExpired(pending, now)).length;
}

/** Times out this chat's expired approvals, as the sweeper would, and returns those still waiting. */
export async function sweepChatApprovals(chatId: string, now = new Date()): Promise<ToolCallRecord[]> {
  return timeOutExpired(await pendingApprovals(chatId), now);
}

async function timeOutExpired(pending: ToolCallRecord[], now: Date): Promise<ToolCallRecord[]> {
  const open: ToolCallRecord[] = [];
  for (const record of pending) {
    if (!record.expiresAt || record.expiresAt.getTime() > now.getTime() || !record.approvalId) open.push(record);
    else await timeOut(record.chatId, record.approvalId, now, await timeoutText(record.chatId, record.toolName, JSON.parse(record.input) as unknown));
  }
  return open;
}

/** What the person reads when they answer too late: the tool and the time, never an internal approval id. */
export function expiredText(toolName: string, expiresAt: Date | null): string {
  const at = expiresAt ? ` at ${expiresAt.toISOString().slice(11, 19)} UTC` : "";
  return `Too late: the approval of ${toolName} ran out of time${at}, so ${toolName} was not run (recorded as timed out).`;
}
