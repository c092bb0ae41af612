import { describe, expect, it } from "vitest";
import { mergeSummaries } from "./turn-summary";

describe("turn summaries", () => {
  it("adds a continued answer's numbers to what the message carried", () => {
    expect(mergeSummaries({ steps: 1, ttftMs: 5, inputTokens: 10, durationMs: 20 }, { steps: 2, ttftMs: 7, inputTokens: 4, outputTokens: 3 })).toEqual({
      steps: 3,
      ttftMs: 5,
      inputTokens: 14,
      outputTokens: 3,
      durationMs: 20,
    });
  });
});
