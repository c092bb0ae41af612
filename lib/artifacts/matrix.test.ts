import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isFailedCell, matrixVerdict, readMatrix, readMatrixFile } from "./matrix";
import { readRun } from "./run";
import { summarizeRun } from "./summary";
import { FIXTURES } from "@/lib/testing/artifact-fixtures";

const TRIAGE = path.join(FIXTURES, "triage/ROCM-123/fsdp/2026-04-28T14-12-03");

function fixtureMatrix() {
  const r = readMatrixFile(path.join(TRIAGE, "matrix.json"));
  if (!r.ok) throw new Error(r.error);
  return r.data;
}

describe("readMatrix", () => {
  it("types the header and every cell of a producer-shaped matrix", () => {
    const m = fixtureMatrix();
    expect(m.header).toMatchObject({ schema_version: 1, workload: "fsdp", ticket: "ROCM-123", trials_per_cell: 8, baseline_cell: "baseline" });
    expect(m.cells.map((c) => c.name)).toEqual(["baseline", "tf32_off", "hand_written", "docker_broken"]);
    const tf32 = m.cells[1]!;
    expect(tf32).toMatchObject({
      passed_count: 5,
      failed_count: 3,
      failure_rate: 0.375,
      step_time_ratio: 1.04,
      exit_status_counts: { ok: 5, workload_failed: 3 },
    });
    expect(tf32.failure_hints).toEqual([{ text: "NaN in grad", count: 3 }]);
    expect(m.warnings).toEqual([]);
  });

  it("reports fields the run did not record as missing and null, never 0", () => {
    const m = fixtureMatrix();
    const hand = m.cells[2]!;
    expect(hand.mean_step_time_ms).toBeNull();
    expect(hand.failure_rate).toBeNull();
    expect(m.missingFields).toEqual(["failure_rate: missing in 1 of 4 cells (cells[2])", "mean_step_time_ms: missing in 1 of 4 cells (cells[2])"]);
    expect(hand.failure_hints).toEqual([{ text: "bare string hint", count: null }]);
  });

  it("keeps unknown fields at both levels", () => {
    const m = fixtureMatrix();
    expect(m.extra).toEqual({ producer_note: "kept as recorded" });
    expect(m.cells[1]!.extra).toEqual({ metrics_summary: { loss: { mean: 2.1 } } });
  });

  it("reads a matrix with nothing but names, listing every missing field", () => {
    const m = readMatrix({ schema_version: 1, cells: [{ name: "a" }, "junk"] });
    expect(m.cells).toHaveLength(1);
    expect(m.cells[0]!.trials).toBeNull();
    expect(m.missingFields).toContain("workload");
    expect(m.missingFields).toContain("failed_count: missing in 1 of 1 cells (cells[0])");
    expect(m.missingFields.some((f) => f.startsWith("top_failure_detector_id"))).toBe(false);
    expect(m.warnings).toContain("cells[1]: not an object; skipped");
    expect(matrixVerdict(m)).toBe("unknown");
  });

  it("summarises what many cells lack per key, with a count and a few examples, whatever the number of cells", () => {
    const cells = Array.from({ length: 60_000 }, (_, i) => ({ name: `c${i}`, failed_count: i % 2 ? "x" : 1 }));
    const m = readMatrix({ schema_version: 1, cells });
    expect(m.missingFields).toContain("min_step_time_ms: missing in 60,000 of 60,000 cells (cells[0], cells[1], cells[2], …)");
    expect(m.missingFields).toContain("failed_count: missing in 30,000 of 60,000 cells (cells[1], cells[3], cells[5], …)");
    expect(m.missingFields.some((f) => f.startsWith("cells["))).toBe(false);
    expect(m.warnings).toEqual(['cells[1].failed_count: unexpected value "x" (Invalid input: expected number, received string) (and in 29,999 more cells)']);
    // One line per key of the spec, not one per cell.
    expect(m.missingFields.length).toBeLessThan(60);
  });

  it("wrong types count as missing, with a warning", () => {
    const m = readMatrix({ schema_version: 1, cells: [{ name: "a", failed_count: "3" }] });
    expect(m.cells[0]!.failed_count).toBeNull();
    expect(m.missingFields).toContain("failed_count: missing in 1 of 1 cells (cells[0])");
    expect(m.warnings.some((w) => w.startsWith('cells[0].failed_count: unexpected value "3"'))).toBe(true);
  });

  it("reads an unknown schema version best-effort with a warning", () => {
    const m = readMatrix({ schema_version: 2, workload: "w", cells: [{ name: "a", failed_count: 1 }] }, "x/matrix.json");
    expect(m.warnings[0]).toBe("x/matrix.json: schema_version 2 is not known (expected 1); read best-effort");
    expect(m.cells[0]!.failed_count).toBe(1);
  });

  it("missing cells list is reported, not a crash", () => {
    const m = readMatrix({ schema_version: 1 });
    expect(m.cells).toEqual([]);
    expect(m.missingFields).toContain("cells");
    expect(() => readMatrix([1, 2])).toThrow("expected a JSON object, found an array");
  });

  it("verdict: fail beats error beats pass", () => {
    expect(matrixVerdict(fixtureMatrix())).toBe("fail");
    expect(
      matrixVerdict(
        readMatrix({
          cells: [
            { name: "a", failed_count: 0 },
            { name: "b", error: "pull failed", failed_count: 0 },
          ],
        }),
      ),
    ).toBe("error");
    expect(matrixVerdict(readMatrix({ cells: [{ name: "a", failed_count: 0, error: null }] }))).toBe("pass");
    const m = fixtureMatrix();
    expect(m.cells.filter(isFailedCell).map((c) => c.name)).toEqual(["tf32_off", "docker_broken"]);
  });
});

describe("a 50 MB matrix", () => {
  it("reads and summarises", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bigmatrix-"));
    try {
      const samples = Array.from({ length: 20_000 }, (_, i) => 40 + (i % 97) / 7);
      const cells = Array.from({ length: 170 }, (_, i) => ({
        name: `cell_${i}`,
        mitigations: [`m${i}`],
        environment: "rocm7",
        trials: 8,
        passed_count: i % 10 === 0 ? 6 : 8,
        failed_count: i % 10 === 0 ? 2 : 0,
        error_count: 0,
        failure_rate: i % 10 === 0 ? 0.25 : 0,
        mean_step_time_ms: 41.5,
        step_times_ms: samples,
        error: null,
      }));
      const text = JSON.stringify({ schema_version: 1, workload: "big", cells });
      expect(text.length).toBeGreaterThan(50 * 1024 * 1024);
      fs.writeFileSync(path.join(dir, "matrix.json"), text);
      const run = readRun(dir, ".");
      const s = summarizeRun(run!);
      expect(s.cellCount).toBe(170);
      expect(s.failedCellCount).toBe(17);
      expect(s.verdict).toBe("fail");
      expect(run!.matrix?.ok && run!.matrix.data.cells[3]!.step_times_ms?.length).toBe(20_000);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
