import { randomUUID } from "node:crypto";
import type { CallAttempt } from "@/lib/evals/collection-run";
import { notAdmittedText } from "@/lib/tools/confirm";
import { inputHash } from "@/lib/server/approvals/input-hash";
import { createToolContext } from "@/lib/server/runtime/tool-context";
import type { TryItDeps, TryItResponse } from "@/lib/server/try-it/try-it";
import type { ApprovalCheck, ApprovalStore, PendingApproval } from "@/lib/server/try-it/try-it-approvals";

/**
 * One command-line run's pending approvals, in memory: the CLI keeps no database. The same rules
 * as the server's store: only an issued id, for that tool and that exact input, once.
 */
export class RunApprovals implements ApprovalStore {
  private readonly pending = new Map<string, PendingApproval & { used: boolean }>();

  async issue(toolName: string, input: unknown, timeoutSeconds: number): Promise<PendingApproval> {
    const approval = { approvalId: randomUUID(), toolName, inputHash: inputHash(input), expiresAt: Date.now() + timeoutSeconds * 1000 };
    this.pending.set(approval.approvalId, { ...approval, used: false });
    return approval;
  }

  async take(approvalId: unknown, toolName: string, input: unknown): Promise<ApprovalCheck> {
    const record = typeof approvalId === "string" ? this.pending.get(approvalId) : undefined;
    if (!record) return { ok: false, reason: "unknown", message: "no pending approval has this id" };
    if (record.used) return { ok: false, reason: "used", message: "this approval was already used" };
    if (record.toolName !== toolName) return { ok: false, reason: "wrong-tool", message: `this approval is for ${record.toolName}, not ${toolName}` };
    if (record.inputHash !== inputHash(input)) return { ok: false, reason: "input-changed", message: "the input differs from the one approval was asked for" };
    record.used = true;
    if (Date.now() > record.expiresAt) return { ok: false, reason: "expired", message: "the approval timed out" };
    return { ok: true, approval: record };
  }
}

/** What a try-it answer is for a collection's call; undefined for `approval-required` (someone must answer it first). */
export function attemptOf(r: TryItResponse, by: string): CallAttempt | undefined {
  switch (r.status) {
    case "done":
      return { kind: "ran", text: r.text, output: r.output, isError: r.isError, durationMs: r.durationMs };
    case "not-admitted":
      return { kind: "not-admitted", text: r.text, why: r.why, by: r.rule ?? (r.why === "timed-out" ? "timeout" : by) };
    case "invalid":
      // As the registry answers a model: an Error: result, so `error: true` can expect it.
      return { kind: "ran", text: `Error: invalid input: ${r.message}`, output: null, isError: true, durationMs: 0 };
    case "error":
      return { kind: "unavailable", message: r.error };
    case "approval-required":
      return undefined;
  }
}

/** The not-admitted answer for a confirming call nobody is there to approve, in the tool's own words. */
export function unsupervised(deps: TryItDeps, name: string, input: unknown): CallAttempt {
  const registered = deps.registry.get(name);
  const text = registered
    ? notAdmittedText(registered.resolve(createToolContext({ settings: deps.settings, toolName: name })), input, { kind: "unsupervised" })
    : `Not run: the call of ${name} needs a person's approval.`;
  return { kind: "not-admitted", text, why: "unsupervised", by: "unsupervised" };
}
