import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { rewriteDenials } from "./history";

const denied: ModelMessage[] = [
  { role: "user", content: [{ type: "text", text: "run `touch x`" }] },
  {
    role: "assistant",
    content: [
      { type: "tool-call", toolCallId: "call-1", toolName: "run_terminal_command", input: { command: "touch x" } },
      { type: "tool-approval-request", approvalId: "approval-1", toolCallId: "call-1" },
    ],
  },
  {
    role: "tool",
    content: [
      { type: "tool-approval-response", approvalId: "approval-1", approved: false, reason: "not today" },
      { type: "tool-result", toolCallId: "call-1", toolName: "run_terminal_command", output: { type: "execution-denied", reason: "not today" } },
    ],
  },
];

describe("rewriteDenials", () => {
  it("puts the tool's not-admitted text in both the approval response and the derived result", () => {
    const text = 'Not run: the user denied "touch x" (reason: not today)';
    const [, , tool] = rewriteDenials(denied, (id) => (id === "call-1" ? text : undefined));
    expect(tool).toEqual({
      role: "tool",
      content: [
        { type: "tool-approval-response", approvalId: "approval-1", approved: false, reason: text },
        { type: "tool-result", toolCallId: "call-1", toolName: "run_terminal_command", output: { type: "execution-denied", reason: text } },
      ],
    });
  });

  it("leaves calls it has no text for, and approved calls, as they are", () => {
    expect(rewriteDenials(denied, () => undefined)).toEqual(denied);
    const approved = denied.map((m) =>
      m.role === "tool" ? { ...m, content: [{ type: "tool-approval-response" as const, approvalId: "approval-1", approved: true }] } : m,
    );
    expect(rewriteDenials(approved, () => "should not appear")).toEqual(approved);
  });
});
