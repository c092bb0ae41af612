import { describe, expect, it } from "vitest";
import { compareMatrices, diffEnv, mostChanged } from "./compare";
import { readMatrix } from "./matrix";

describe("compareMatrices", () => {
  it("matches cells by name and computes deltas, null where a side did not record", () => {
    const a = readMatrix({
      cells: [
        { name: "base", failure_rate: 0.5, mean_step_time_ms: 40, step_time_ratio: 1 },
        { name: "tf32_off", failure_rate: 0.25, mean_step_time_ms: 50, step_time_ratio: 1.25 },
        { name: "gone" },
      ],
    });
    const b = readMatrix({
      cells: [
        { name: "tf32_off", failure_rate: 0, mean_step_time_ms: 55, step_time_ratio: 1.1 },
        { name: "base", mean_step_time_ms: 44, step_time_ratio: 1 },
        { name: "new" },
      ],
    });
    const c = compareMatrices(a, b);
    expect(c.onlyInA).toEqual(["gone"]);
    expect(c.onlyInB).toEqual(["new"]);
    const [base, tf32] = c.cells;
    expect(base).toMatchObject({ name: "base", failureRateDelta: null, meanStepTimeDeltaMs: 4, stepTimeRatioDelta: 0 });
    expect(base!.meanStepTimeRatio).toBeCloseTo(1.1);
    expect(tf32).toMatchObject({ name: "tf32_off", failureRateDelta: -0.25, meanStepTimeDeltaMs: 5 });
    expect(tf32!.stepTimeRatioDelta).toBeCloseTo(-0.15);
  });
});

describe("diffEnv", () => {
  it("lists changed, added and removed keys with dotted paths; arrays by index", () => {
    const a = { rocm: { version: "6.4.1", root: "/opt/rocm" }, gpu_arch: { gfx_targets: ["gfx942", "gfx90a"] }, old: 1, same: { x: [1] } };
    const b = { rocm: { version: "7.0.2", root: "/opt/rocm" }, gpu_arch: { gfx_targets: ["gfx950"] }, fresh: true, same: { x: [1] } };
    expect(diffEnv(a, b)).toEqual({
      changed: [
        { path: "rocm.version", a: "6.4.1", b: "7.0.2" },
        { path: "gpu_arch.gfx_targets[0]", a: "gfx942", b: "gfx950" },
      ],
      added: [{ path: "fresh", value: true }],
      removed: [
        { path: "gpu_arch.gfx_targets[1]", value: "gfx90a" },
        { path: "old", value: 1 },
      ],
    });
  });

  it("a change of kind is one change", () => {
    expect(diffEnv({ system_health: null }, { system_health: { ok: true } }).changed).toEqual([{ path: "system_health", a: null, b: { ok: true } }]);
  });
});

describe("mostChanged", () => {
  it("keeps the cells that changed most, failure rate first, in A's order, and all of a small comparison", () => {
    const cells = (rates: (i: number) => number, times: (i: number) => number) =>
      readMatrix({ cells: Array.from({ length: 2000 }, (_, i) => ({ name: `c${i}`, failure_rate: rates(i), mean_step_time_ms: times(i) })) });
    const a = cells(
      () => 0,
      () => 40,
    );
    const b = cells(
      (i) => (i % 400 === 7 ? 0.5 : 0),
      (i) => (i % 100 === 3 ? 60 : 40),
    );
    const { cells: all } = compareMatrices(a, b);
    const shown = mostChanged(all, 10);
    expect(shown.map((c) => c.name)).toEqual(
      ["c3", "c7", "c103", "c203", "c303", "c407", "c807", "c1207", "c1607", "c403"].sort((x, y) => Number(x.slice(1)) - Number(y.slice(1))),
    );
    expect(mostChanged(all.slice(0, 5), 10)).toHaveLength(5);
  });
});
