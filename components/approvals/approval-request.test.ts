import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import type { ToolJson } from "@/lib/tools/registry-json";
import { approvalRequestOf } from "./approval-request";

const waiting = (toolCallId: string, approvalId: string) => ({
  type: "tool-write_note",
  toolCallId,
  state: "approval-requested",
  input: { title: toolCallId },
  approval: { id: approvalId },
});
const message = (parts: unknown[], metadata?: unknown) => ({ id: "m1", role: "assistant", parts, metadata }) as unknown as UIMessage;
const tools = {
  write_note: { source_package: "toolroom-notes", readonly: false, description: "Writes a note.\nMore lines." } as unknown as ToolJson,
};

describe("approvalRequestOf", () => {
  it("is null when nothing waits for a person", () => {
    expect(approvalRequestOf([message([{ type: "text", text: "hi" }])], tools)).toBeNull();
  });

  it("shows the oldest waiting call, its tool's first line and the queue behind it", () => {
    const request = approvalRequestOf([message([waiting("c1", "a1"), waiting("c2", "a2")])], tools);
    expect(request).toMatchObject({
      approvalId: "a1",
      toolName: "write_note",
      sourcePackage: "toolroom-notes",
      readonly: false,
      summary: "Writes a note.",
      input: { title: "c1" },
      queueLabel: "1 of 2 waiting",
    });
  });

  it("prefers the package the server recorded for the call, and survives a tool that is gone", () => {
    const metadata = { calls: { c1: { sourcePackage: "from-server", expiresAt: "2026-12-01T10:00:00.000Z" } } };
    const request = approvalRequestOf([message([waiting("c1", "a1")], metadata)], {});
    expect(request).toMatchObject({ sourcePackage: "from-server", summary: "", readonly: false, expiresAt: "2026-12-01T10:00:00.000Z" });
    expect(request?.queueLabel).toBeUndefined();
  });
});
