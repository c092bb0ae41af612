import { describe, expect, it } from "vitest";
import { assignCalls } from "./assignment";

const fitsFrom = (edges: Record<number, number[]>) => (e: number, a: number) => edges[e]?.includes(a) ?? false;

describe("pairing expected and actual calls", () => {
  it("finds a complete pairing that first-fit misses", () => {
    // Expected 0 fits actual 0 or 1; expected 1 fits only actual 0.
    expect(assignCalls(2, 2, fitsFrom({ 0: [0, 1], 1: [0] }), false)).toEqual([1, 0]);
  });

  it("pairs reversed calls when order is free, not when it is kept", () => {
    const fits = fitsFrom({ 0: [1], 1: [0] });
    expect(assignCalls(2, 2, fits, false)).toEqual([1, 0]);
    expect(assignCalls(2, 2, fits, true)).toEqual([1, -1]);
  });

  it("leaves an expected call unpaired when no actual call is free for it", () => {
    expect(assignCalls(2, 1, fitsFrom({ 0: [0], 1: [0] }), false)).toEqual([0, -1]);
    expect(assignCalls(1, 0, () => true, false)).toEqual([-1]);
  });

  it("keeps order with the earliest fitting call for each expected call", () => {
    expect(assignCalls(2, 3, fitsFrom({ 0: [0, 2], 1: [1] }), true)).toEqual([0, 1]);
  });
});
