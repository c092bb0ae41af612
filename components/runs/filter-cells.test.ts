import { describe, expect, it } from "vitest";
import { filterCells, nextCellSort } from "./filter-cells";
import type { CellView } from "./types";

const cell = (index: number, name: string, failureRate: number | null, failedCell = false): CellView => ({
  index,
  name,
  mitigations: [name],
  environment: index % 2 ? "rocm6" : "rocm7",
  trials: 8,
  passed: null,
  failed: null,
  errors: null,
  failureRate,
  errorRate: null,
  unreliable: null,
  meanMs: null,
  p50Ms: null,
  p90Ms: null,
  p99Ms: null,
  stepTimeRatio: null,
  exitStatus: null,
  outcomes: null,
  hints: null,
  trialPaths: null,
  error: null,
  confound: null,
  baseline: false,
  failedCell,
});

const cells = [cell(0, "baseline", 0), cell(1, "tf32_off", 0.375, true), cell(2, "nothing", null), cell(3, "sdma_off", 0.125, true)];

describe("filterCells", () => {
  it("keeps recorded order by default and filters by name, environment or mitigation", () => {
    expect(filterCells(cells, { query: "", failedOnly: false }, { key: "index", dir: "asc" }).map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect(filterCells(cells, { query: "off rocm6", failedOnly: false }, { key: "index", dir: "asc" }).map((c) => c.name)).toEqual(["tf32_off", "sdma_off"]);
    expect(filterCells(cells, { query: "", failedOnly: true }, { key: "index", dir: "asc" }).map((c) => c.name)).toEqual(["tf32_off", "sdma_off"]);
  });

  it("sorts not-recorded values last in both directions", () => {
    const desc = filterCells(cells, { query: "", failedOnly: false }, { key: "failureRate", dir: "desc" });
    expect(desc.map((c) => c.name)).toEqual(["tf32_off", "sdma_off", "baseline", "nothing"]);
    const asc = filterCells(cells, { query: "", failedOnly: false }, { key: "failureRate", dir: "asc" });
    expect(asc.map((c) => c.name)).toEqual(["baseline", "sdma_off", "tf32_off", "nothing"]);
  });

  it("does not mutate its input", () => {
    const copy = [...cells];
    filterCells(cells, { query: "", failedOnly: false }, { key: "name", dir: "desc" });
    expect(cells).toEqual(copy);
  });

  it("flips the active column and starts numbers descending", () => {
    expect(nextCellSort({ key: "name", dir: "asc" }, "name")).toEqual({ key: "name", dir: "desc" });
    expect(nextCellSort({ key: "name", dir: "asc" }, "failureRate")).toEqual({ key: "failureRate", dir: "desc" });
  });
});
