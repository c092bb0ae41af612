import { describe, expect, it } from "vitest";
import { heatBackground, heatShade, heatValue } from "./heat";
import type { CellView } from "./types";

const cell = (over: Partial<CellView>): CellView => ({
  index: 0,
  name: "c",
  mitigations: [],
  environment: null,
  trials: 8,
  passed: 8,
  failed: 0,
  errors: 0,
  failureRate: 0,
  errorRate: 0,
  unreliable: false,
  meanMs: 10,
  p50Ms: 10,
  p90Ms: 11,
  p99Ms: 12,
  stepTimeRatio: 1,
  exitStatus: {},
  outcomes: {},
  hints: [],
  trialPaths: [],
  error: null,
  confound: null,
  baseline: false,
  failedCell: false,
  ...over,
});

describe("heat map shading", () => {
  it("keeps not recorded apart from zero", () => {
    expect(heatShade(null, "failure")).toEqual({ kind: "missing" });
    expect(heatShade(0, "failure").kind).toBe("good");
    expect(heatBackground(heatShade(null, "failure"))).toBe("transparent");
    expect(heatBackground(heatShade(0, "failure"))).not.toBe("transparent");
  });

  it("scales failure rates to red and clamps at 1", () => {
    const low = heatShade(0.05, "failure");
    const high = heatShade(1.7, "failure");
    expect(low).toEqual({ kind: "bad", strength: 0.05 });
    expect(high).toEqual({ kind: "bad", strength: 1 });
    // Any failure is visibly red: at least 25% of the red mixed in.
    expect(heatBackground(low)).toContain("var(--color-denied) 28%");
  });

  it("reads step-time ratios around 1: slower red, faster green, near 1 neutral", () => {
    expect(heatShade(1.01, "ratio").kind).toBe("neutral");
    expect(heatShade(1.25, "ratio")).toEqual({ kind: "bad", strength: 0.5 });
    expect(heatShade(0.5, "ratio")).toEqual({ kind: "good", strength: 1 });
  });

  it("picks the metric's field", () => {
    const c = cell({ failureRate: 0.25, errorRate: null, stepTimeRatio: 1.5 });
    expect(heatValue(c, "failure")).toBe(0.25);
    expect(heatValue(c, "error")).toBeNull();
    expect(heatValue(c, "ratio")).toBe(1.5);
  });
});
