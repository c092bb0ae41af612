import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, useTempDatabase } from "@/lib/testing/approvals-harness";
import type { StoredTraceStep } from "@/lib/trace/types";

// A chat's trace as stored: the AI SDK times a step in fractions of a millisecond, the columns are
// whole milliseconds (Int), so the rows hold the rounded values the page shows.
const dir = useTempDatabase("toolroom-trace-queries-");
beforeAll(() => startServer({ TOOLROOM_SOURCEROOT: dir }));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const step = (stepNumber: number, timings: Pick<StoredTraceStep, "ttftMs" | "modelMs" | "durationMs">): StoredTraceStep => ({
  turnId: "turn-1",
  messageId: "m-1",
  stepNumber,
  model: "offline/scripted",
  toolMode: "native",
  startedAt: "2026-12-02T07:00:00.000Z",
  retries: 0,
  toolCalls: [],
  rawJson: "{}",
  ...timings,
});

describe("trace steps in the database", () => {
  it("stores fractional timings as whole milliseconds, and a step saved again replaces its row", async () => {
    const { createChat } = await import("./queries");
    const { listTraceSteps, saveTraceSteps } = await import("./trace-queries");
    await createChat({ id: "chat-t", title: "t", modelRef: "offline", toolMode: "native", supervised: true });
    await saveTraceSteps("chat-t", [step(0, { ttftMs: 0.363562, modelMs: 12.5, durationMs: 13 }), step(1, { ttftMs: 2.49 })]);
    await saveTraceSteps("chat-t", [step(1, { ttftMs: 2.49, modelMs: 7.7, durationMs: 8.2 })]);
    const steps = await listTraceSteps("chat-t");
    expect(steps.map(({ stepNumber, ttftMs, modelMs, durationMs }) => ({ stepNumber, ttftMs, modelMs, durationMs }))).toEqual([
      { stepNumber: 0, ttftMs: 0, modelMs: 13, durationMs: 13 },
      { stepNumber: 1, ttftMs: 2, modelMs: 8, durationMs: 8 },
    ]);
  });
});
