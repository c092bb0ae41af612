import { describe, expect, it } from "vitest";
import type { TraceStepData } from "./types";
import { buildChatTrace, type CallFacts } from "./view";

const raw = { request: { messages: [] }, response: { text: "", toolInputs: [], calls: [], nearMisses: [] }, truncated: false };
const step = (turnId: string, stepNumber: number, toolCalls: TraceStepData["toolCalls"]): TraceStepData => ({
  turnId,
  messageId: "m1",
  stepNumber,
  model: "offline/scripted",
  toolMode: "native",
  startedAt: `2026-11-30T10:00:0${turnId === "t1" ? 0 : 5}.000Z`,
  retries: 0,
  toolCalls,
  raw,
});
const facts = (over: Partial<CallFacts>): CallFacts => ({
  id: "c1",
  decidedBy: "user",
  decision: "approved",
  decisionReason: null,
  issuedAt: new Date("2026-11-30T10:00:01.000Z"),
  decidedAt: new Date("2026-11-30T10:00:04.500Z"),
  madeChanges: true,
  state: "done",
  ...over,
});

describe("buildChatTrace", () => {
  it("shows a call proposed in one turn and run after its approval in the next once, with the wait and the run", () => {
    const trace = buildChatTrace(
      [
        step("t1", 0, [{ toolCallId: "c1", toolName: "run_terminal_command", proposedAt: "2026-11-30T10:00:00.900Z" }]),
        step("t2", 0, [{ toolCallId: "c1", toolName: "run_terminal_command", executionMs: 40, outputBytes: 12, isError: false }]),
      ],
      [facts({})],
    );
    expect(trace.turns.map((t) => t.turnId)).toEqual(["t1", "t2"]);
    expect(trace.turns[0]!.steps[0]!.toolCalls).toEqual([
      expect.objectContaining({ toolCallId: "c1", executionMs: 40, outputBytes: 12, decision: "approved", waitingMs: 3500, madeChanges: true }),
    ]);
    expect(trace.turns[1]!.steps[0]!.toolCalls).toEqual([]);
  });

  it("counts no wait for a decision nobody waited for (a grant, an unsupervised refusal)", () => {
    const trace = buildChatTrace(
      [step("t1", 0, [{ toolCallId: "c1", toolName: "x", proposedAt: "2026-11-30T10:00:00.900Z" }])],
      [facts({ decidedBy: "grant" })],
    );
    expect(trace.turns[0]!.steps[0]!.toolCalls[0]).not.toHaveProperty("waitingMs");
    expect(trace.turns[0]!.steps[0]!.toolCalls[0]).toMatchObject({ decidedBy: "grant", decision: "approved" });
  });
});
