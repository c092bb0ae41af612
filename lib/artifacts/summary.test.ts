import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRun } from "./run";
import { summarizeRun } from "./summary";
import { FIXTURES } from "@/lib/testing/artifact-fixtures";

describe("summarizeRun", () => {
  it("summarises the triage fixture from its path and files", () => {
    const run = readRun(FIXTURES, "triage/ROCM-123/fsdp/2026-04-28T14-12-03");
    expect(run?.environments.map((e) => [e.name, e.env.ok])).toEqual([
      ["rocm6", true],
      ["rocm7", true],
    ]);
    const s = summarizeRun(run!);
    expect(s).toMatchObject({
      kind: "matrix",
      layout: "triage",
      when: "2026-04-28T14:12:03Z",
      whenSource: "path",
      ticket: "ROCM-123",
      workload: "fsdp",
      cellCount: 4,
      failedCellCount: 2,
      verdict: "fail",
      partialEnv: true,
      missingFieldCount: 2,
      errors: [],
    });
    expect(s.failedCells).toEqual([
      { name: "tf32_off", index: 1, failed_count: 3, error_count: 0, error: null },
      { name: "docker_broken", index: 3, failed_count: 0, error_count: 0, error: "docker pull failed: manifest unknown" },
    ]);
  });

  it("summarises the probe fixture (ticket from the path, time from the matrix)", () => {
    const s = summarizeRun(readRun(FIXTURES, path.join(FIXTURES, "probe/ROCM-456"))!);
    expect(s).toMatchObject({
      layout: "probe",
      ticket: "ROCM-456",
      workload: "llama",
      when: "2026-05-02T09:00:00Z",
      whenSource: "matrix.run_timestamp",
      verdict: "pass",
      failedCellCount: 0,
      partialEnv: false,
    });
  });
});
