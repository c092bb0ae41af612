import { describe, expect, it } from "vitest";
import { packCells, unpackCells } from "./pack-cells";
import type { CellView } from "./types";

const cell = (i: number): CellView => ({
  index: i,
  name: `c${i}`,
  mitigations: i ? ["x"] : null,
  environment: null,
  trials: 8,
  passed: 8,
  failed: 0,
  errors: null,
  failureRate: 0,
  errorRate: null,
  unreliable: false,
  meanMs: 1.5,
  p50Ms: null,
  p90Ms: null,
  p99Ms: null,
  stepTimeRatio: null,
  exitStatus: { ok: 8 },
  outcomes: null,
  hints: [{ text: "h", count: null }],
  trialPaths: [],
  error: null,
  confound: "-",
  baseline: i === 0,
  failedCell: false,
});

describe("packCells", () => {
  it("round-trips, nulls included", () => {
    const cells = [cell(0), cell(1), cell(2)];
    const packed = packCells(cells);
    expect(packed.rows).toHaveLength(3);
    expect(unpackCells(packed)).toEqual(cells);
  });
  it("packs an empty matrix", () => {
    expect(unpackCells(packCells([]))).toEqual([]);
  });
  it("is smaller than the objects once serialized", () => {
    const cells = Array.from({ length: 100 }, (_, i) => cell(i));
    expect(JSON.stringify(packCells(cells)).length).toBeLessThan(JSON.stringify(cells).length * 0.6);
  });
});
