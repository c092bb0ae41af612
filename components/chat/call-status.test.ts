import { describe, expect, it } from "vitest";
import { callStatus, pendingCalls, toolModeLabel, type ToolPart } from "./call-status";

const base = { type: "tool-write_note", toolCallId: "c1", input: { title: "t" } } as const;
const part = (extra: Record<string, unknown>) => ({ ...base, ...extra }) as unknown as ToolPart;
const at = "2026-11-30T10:00:00.000Z";

describe("callStatus", () => {
  it("tells the three not-run outcomes apart", () => {
    expect(
      callStatus(part({ state: "output-denied", approval: { id: "a", approved: false, reason: "no thanks" } }), {
        decision: { by: "user", decision: "denied", reason: "no thanks", at },
      }),
    ).toEqual({ tone: "denied", label: "denied: no thanks" });
    expect(
      callStatus(part({ state: "output-denied", approval: { id: "a", approved: false, reason: "Not run…" } }), {
        decision: { by: "timeout", decision: "timed-out", at },
      }),
    ).toEqual({ tone: "denied", label: "timed out" });
    expect(callStatus(part({ state: "output-denied", approval: { id: "a", approved: false, isAutomatic: true, reason: "Not run…" } }), undefined)).toEqual({
      tone: "denied",
      label: "not admitted (unsupervised)",
    });
  });

  it("marks grant admissions and errors", () => {
    expect(callStatus(part({ state: "output-available", output: "ok", approval: { id: "a", approved: true, isAutomatic: true } }), undefined).label).toBe(
      "done · auto-approved by grant",
    );
    expect(callStatus(part({ state: "output-available", output: "Error: nope" }), undefined)).toEqual({ tone: "error", label: "error" });
    expect(callStatus(part({ state: "approval-requested", approval: { id: "a" } }), undefined)).toEqual({ tone: "pending", label: "waiting for approval" });
  });
});

describe("callStatus of an eval trial's chat", () => {
  it("says the eval case decided, not a grant or an unsupervised chat", () => {
    const auto = { id: "a", isAutomatic: true };
    expect(
      callStatus(part({ state: "output-denied", approval: { ...auto, approved: false, reason: "Not run…" } }), {
        decision: { by: "eval", decision: "denied", reason: "denied by the eval case", at },
      }),
    ).toEqual({ tone: "denied", label: "denied by the eval case" });
    expect(
      callStatus(part({ state: "output-available", output: "ok", approval: { ...auto, approved: true } }), {
        decision: { by: "eval", decision: "approved", reason: "approved by the eval case", at },
      }),
    ).toEqual({ tone: "done", label: "done · approved by the eval case" });
  });
});

describe("pendingCalls", () => {
  it("lists calls waiting for a human in order, skipping automatic ones", () => {
    const messages = [
      {
        id: "m1",
        role: "assistant" as const,
        parts: [
          part({ toolCallId: "c1", state: "approval-requested", approval: { id: "a1" } }),
          part({ toolCallId: "c2", state: "approval-requested", approval: { id: "a2", isAutomatic: true } }),
        ],
      },
      { id: "m2", role: "assistant" as const, parts: [part({ toolCallId: "c3", state: "approval-requested", approval: { id: "a3" } })] },
    ];
    expect(pendingCalls(messages).map((p) => p.part.toolCallId)).toEqual(["c1", "c3"]);
  });
});

describe("toolModeLabel", () => {
  it("names the tool mode, and the protocol in text mode", () => {
    expect(toolModeLabel({ toolMode: "text", protocol: "json" })).toBe("text · json");
    expect(toolModeLabel({ toolMode: "text", protocol: "action" })).toBe("text · action");
    expect(toolModeLabel({ toolMode: "native" })).toBe("native");
    expect(toolModeLabel({})).toBeUndefined();
  });
});
