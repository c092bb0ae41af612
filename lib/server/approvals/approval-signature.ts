import crypto from "node:crypto";
import { canonicalJson } from "@/lib/tools/canonical-json";

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/**
 * The AI SDK's approval signature (HMAC-SHA-256 over its "ai-sdk-tool-approval-v1" payload and
 * the canonical input digest), which the SDK checks against the call's input when the turn
 * resumes. The SDK does not export its signer; an edited approval changes the input, so the
 * server signs the edited call itself. The approvals property test resumes such calls through the
 * SDK, so a drift from its format fails there.
 */
export function signApproval(secret: string, approval: { approvalId: string; toolCallId: string; toolName: string; input: unknown }): string {
  const digest = base64url(crypto.createHash("sha256").update(canonicalJson(approval.input)).digest());
  const payload = JSON.stringify(["ai-sdk-tool-approval-v1", approval.approvalId, approval.toolCallId, approval.toolName, digest]);
  return base64url(crypto.createHmac("sha256", secret).update(payload).digest());
}
