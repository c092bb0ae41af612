import { randomUUID } from "node:crypto";
import { inputHash } from "./input-hash";

/**
 * Pending approvals of try-it calls. The server is the authority: an approval is honoured only
 * for a request it issued, for that tool, with the exact same input, before expiry, once.
 * In memory — a try-it call lives for one page visit, unlike chat approvals, which are stored.
 */
export interface PendingApproval {
  approvalId: string;
  toolName: string;
  inputHash: string;
  expiresAt: number;
}

export type ApprovalCheck =
  | { ok: true; approval: PendingApproval }
  | { ok: false; reason: "unknown" | "wrong-tool" | "input-changed" | "expired" | "used"; message: string };

export class TryItApprovals {
  private readonly pending = new Map<string, PendingApproval>();
  /** Ids already decided, kept until their expiry so a replay says "used", not "unknown". */
  private readonly used = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(toolName: string, input: unknown, timeoutSeconds: number): PendingApproval {
    this.sweep();
    const approval: PendingApproval = { approvalId: randomUUID(), toolName, inputHash: inputHash(input), expiresAt: this.now() + timeoutSeconds * 1000 };
    this.pending.set(approval.approvalId, approval);
    return approval;
  }

  /** Checks and consumes: a matching id is spent whether it was still valid or had expired. */
  take(approvalId: unknown, toolName: string, input: unknown): ApprovalCheck {
    if (typeof approvalId !== "string") return { ok: false, reason: "unknown", message: "no approvalId was sent" };
    if (this.used.has(approvalId)) return { ok: false, reason: "used", message: "this approval was already used" };
    const approval = this.pending.get(approvalId);
    if (!approval) return { ok: false, reason: "unknown", message: "no pending approval has this id (the server may have restarted)" };
    if (approval.toolName !== toolName) return { ok: false, reason: "wrong-tool", message: `this approval is for ${approval.toolName}, not ${toolName}` };
    if (approval.inputHash !== inputHash(input)) return { ok: false, reason: "input-changed", message: "the input differs from the one approval was asked for" };
    this.pending.delete(approvalId);
    this.used.set(approvalId, approval.expiresAt);
    if (this.now() > approval.expiresAt) return { ok: false, reason: "expired", message: "the approval timed out" };
    return { ok: true, approval };
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, a] of this.pending) if (now > a.expiresAt + 60_000) this.pending.delete(id);
    for (const [id, until] of this.used) if (now > until + 60_000) this.used.delete(id);
  }
}

const cache = globalThis as unknown as { __toolroomTryItApprovals?: TryItApprovals };

/** One store per server process, shared by every request (and surviving dev reloads). */
export function tryItApprovals(): TryItApprovals {
  cache.__toolroomTryItApprovals ??= new TryItApprovals();
  return cache.__toolroomTryItApprovals;
}
