import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRun } from "@/lib/artifacts";
import { unpackCells } from "./pack-cells";
import { runDiffView, runView } from "./view-model";

const ROOT = path.resolve(import.meta.dirname, "../../../e2e/fixtures/runs");
const A = "ROCM-123/fsdp/2026-04-28T14-12-03";
const B = "ROCM-123/fsdp/2026-05-02T09-30-00";

function load(rel: string) {
  const run = readRun(ROOT, rel);
  if (!run) throw new Error(`fixture missing: ${rel}`);
  return run;
}

describe("runView", () => {
  it("marks the baseline, failed cells and keeps not-recorded as null", () => {
    const v = runView(load(A), { root: ROOT, override: null, sizes: {}, children: [] });
    const cells = v.matrix ? unpackCells(v.matrix.cells) : [];
    expect(cells.map((c) => c.name)).toEqual(["baseline", "tf32_off", "hand_written", "docker_broken"]);
    expect(cells.find((c) => c.name === "baseline")?.baseline).toBe(true);
    expect(cells.filter((c) => c.failedCell).map((c) => c.name)).toEqual(["tf32_off", "docker_broken"]);
    const hand = cells.find((c) => c.name === "hand_written");
    expect(hand?.failureRate).toBeNull(); // absent in the file: not recorded, not 0
    expect(hand?.hints).toEqual([{ text: "bare string hint", count: null }]);
    expect(v.envs.map((e) => e.label)).toEqual(["host_env.json", "environments/rocm6", "environments/rocm7"]);
    expect(v.files.map((f) => f.rel)).toContain(`${A}/environments/rocm6/env.json`);
  });

  it("shows a malformed matrix as an error naming file and line while the env still reads", () => {
    const v = runView(load("ROCM-789/allreduce/2026-05-03T10-00-00"), { root: ROOT, override: null, sizes: {}, children: [] });
    expect(v.matrix).toBeNull();
    expect(v.matrixError).toMatch(/matrix\.json:8:19: /);
    expect(v.envs[0]?.facts.find((f) => f.label === "rocm.version")?.value).toBe("7.1.0");
  });

  it("groups sanitizer findings for dashboard cases", () => {
    const v = runView(load("dashboard/runs/2026-10-09T141446-37929907291/waitcheck"), { root: ROOT, override: null, sizes: {}, children: [] });
    expect(v.sanitizer?.total).toBe(64);
    expect(v.sanitizer?.groups[0]?.count).toBeGreaterThan(0);
    expect(v.envs[0]?.kind).toBe("run-area");
  });
});

describe("runDiffView", () => {
  it("matches cells by name, lists one-sided cells and diffs the host env", () => {
    const v = runDiffView(load(A), load(B), { root: ROOT, override: null });
    expect(v.matrixError).toBeNull();
    const tf32 = v.cells.find((c) => c.name === "tf32_off");
    expect(tf32?.failureRateDelta).toBeCloseTo(0.25);
    expect(v.onlyInA).toEqual(["hand_written"]);
    expect(v.onlyInB).toEqual(["sdma_off"]);
    expect(v.env?.changed.map((d) => d.path)).toContain("rocm.version");
    expect(v.env?.added.map((d) => d.path)).toContain("host.hostname");
    expect(v.env?.removed.map((d) => d.path)).toContain("host.machine");
  });

  it("says which run lacks a readable matrix", () => {
    const v = runDiffView(load(A), load("ROCM-789/allreduce/2026-05-03T10-00-00"), { root: ROOT, override: null });
    expect(v.matrixError).toMatch(/matrix\.json:8:19/);
    expect(v.cells).toEqual([]);
  });
});
