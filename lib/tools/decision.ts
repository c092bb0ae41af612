import type { RuleRef } from "./approval-rules";

/**
 * Who decided a confirming call, and how: stored on the message, the tool call and the export.
 * Shared vocabulary of every channel that calls tools (chat, try-it, MCP, the CLI, evals).
 */
export interface Decision {
  by: "user" | "grant" | "rule" | "timeout" | "unsupervised" | "eval";
  decision: "approved" | "denied" | "timed-out" | "not-admitted";
  reason?: string;
  /** The rule that decided it, when `by` is "rule". */
  rule?: RuleRef;
  /** The signed-in person who decided (`by` "user", or the grant they gave), on a server with sign-in. */
  user?: string;
  at: string;
}
