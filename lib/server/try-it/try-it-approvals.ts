import "server-only";
import { randomUUID } from "node:crypto";
import { createTryItApproval, deleteTryItApprovalsExpiredBefore, getTryItApproval, spendTryItApproval } from "@/lib/db/queries";
import { inputHash } from "@/lib/server/approvals/input-hash";
import { canSee, newOwner } from "@/lib/server/auth/ownership";

/**
 * Pending approvals of try-it calls. The server is the authority: an approval is honoured only
 * for a request it issued, for that tool, with the exact same input, before expiry, once — and on
 * a server with sign-in only to the person who started the call (to anyone else it is unknown).
 * Stored like chat approvals, so one issued before a restart is still honoured after it.
 */
export interface PendingApproval {
  approvalId: string;
  toolName: string;
  inputHash: string;
  expiresAt: number;
}

export type ApprovalCheck =
  { ok: true; approval: PendingApproval } | { ok: false; reason: "unknown" | "wrong-tool" | "input-changed" | "expired" | "used"; message: string };

/** Decided and expired approvals are kept this long past expiry, so a replay says "used", not "unknown". */
const KEEP_AFTER_EXPIRY_MS = 60_000;

/** Where try-it keeps its pending approvals: the database for the server, memory for one command-line run. */
export interface ApprovalStore {
  issue(toolName: string, input: unknown, timeoutSeconds: number): Promise<PendingApproval>;
  take(approvalId: unknown, toolName: string, input: unknown): Promise<ApprovalCheck>;
}

export class TryItApprovals implements ApprovalStore {
  constructor(private readonly now: () => number = Date.now) {}

  async issue(toolName: string, input: unknown, timeoutSeconds: number): Promise<PendingApproval> {
    await deleteTryItApprovalsExpiredBefore(new Date(this.now() - KEEP_AFTER_EXPIRY_MS));
    const approval: PendingApproval = { approvalId: randomUUID(), toolName, inputHash: inputHash(input), expiresAt: this.now() + timeoutSeconds * 1000 };
    await createTryItApproval({
      id: approval.approvalId,
      toolName,
      inputHash: approval.inputHash,
      expiresAt: new Date(approval.expiresAt),
      ownerId: newOwner(),
    });
    return approval;
  }

  /** Checks and consumes: a matching id is spent whether it was still valid or had expired. */
  async take(approvalId: unknown, toolName: string, input: unknown): Promise<ApprovalCheck> {
    if (typeof approvalId !== "string") return { ok: false, reason: "unknown", message: "no approvalId was sent" };
    const record = await getTryItApproval(approvalId);
    // Someone else's reads as none at all: its id says nothing of the call, and nothing is spent.
    if (!record || !canSee(record)) return { ok: false, reason: "unknown", message: "no pending approval has this id; run the tool again" };
    if (record.usedAt) return { ok: false, reason: "used", message: "this approval was already used" };
    if (record.toolName !== toolName) return { ok: false, reason: "wrong-tool", message: `this approval is for ${record.toolName}, not ${toolName}` };
    if (record.inputHash !== inputHash(input)) return { ok: false, reason: "input-changed", message: "the input differs from the one approval was asked for" };
    const now = this.now();
    if (!(await spendTryItApproval(approvalId, new Date(now)))) return { ok: false, reason: "used", message: "this approval was already used" };
    const approval: PendingApproval = { approvalId, toolName, inputHash: record.inputHash, expiresAt: record.expiresAt.getTime() };
    if (now > approval.expiresAt) return { ok: false, reason: "expired", message: "the approval timed out" };
    return { ok: true, approval };
  }
}

/** The store every request uses; its state lives in the database, so any instance sees the same approvals. */
export function tryItApprovals(): TryItApprovals {
  return new TryItApprovals();
}
