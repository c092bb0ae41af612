import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readRun, summarizeRun } from "@/lib/artifacts";
import { aortaRunsDir, FIXTURES } from "@/lib/testing/artifact-fixtures";
import { testContext } from "@/lib/testing/context";
import type { ToolDefinition } from "@/lib/tools/types";
import { listRuns, readRunEnv, readRunMatrix, RUNS_MAX_CHARS, searchRunArtifacts } from "./runs";

async function call(tool: ToolDefinition, input: Record<string, unknown>, runsRoot = FIXTURES): Promise<string> {
  const schema = tool.input as { safeParse(v: unknown): { success: boolean; data?: unknown } };
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new Error(`bad input ${JSON.stringify(input)}`);
  const out = await tool.execute(parsed.data, testContext({ runsRoot }));
  if (typeof out !== "string") throw new Error("tools return strings");
  return out;
}

const tmpDirs: string[] = [];
function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runs-tool-"));
  tmpDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const TRIAGE_REL = "triage/ROCM-123/fsdp/2026-04-28T14-12-03";
const CORPUS = aortaRunsDir();

describe("list_runs", () => {
  it("lists one line per run with its artifacts", async () => {
    expect(await call(listRuns, {})).toBe(
      [
        "probe/ROCM-456: agent_log.jsonl, host_env.json, matrix.json",
        `${TRIAGE_REL}: host_env.json, matrix.json, matrix.md, environments/{rocm6,rocm7}/env.json`,
      ].join("\n"),
    );
    expect(await call(listRuns, { path: "probe" })).toBe("probe/ROCM-456: agent_log.jsonl, host_env.json, matrix.json");
  });

  it("stays inside the run root and says when nothing is there", async () => {
    expect(await call(listRuns, { path: "../.." })).toMatch(/^Error: path escapes the run root/);
    expect(await call(listRuns, { path: "nope" })).toMatch(/^Error: path not found/);
    expect(await call(listRuns, { path: `${TRIAGE_REL}/cells` })).toMatch(/^No runs found under/);
  });

  it("on a fresh clone (the default ./runs missing) answers an empty state, not an error", async () => {
    const cwd = tmp();
    const spy = vi.spyOn(process, "cwd").mockReturnValue(cwd);
    try {
      const out = await call(listRuns, {}, path.join(cwd, "runs"));
      expect(out).toMatch(/^No runs yet: the default runs root .*runs does not exist\./);
      expect(out).toContain("A run is a folder");
      expect(out).toContain("runsRoot");
      expect(out).toContain("toolroom runs --root examples/runs");
      // A configured root that is missing is still an error.
      expect(await call(listRuns, {}, path.join(cwd, "elsewhere"))).toMatch(/^Error: /);
    } finally {
      spy.mockRestore();
    }
  });

  it("caps the list at 40 runs", async () => {
    const root = tmp();
    for (let i = 0; i < 45; i++) {
      fs.mkdirSync(path.join(root, `r${String(i).padStart(2, "0")}`));
      fs.writeFileSync(path.join(root, `r${String(i).padStart(2, "0")}`, "env.json"), "{}");
    }
    const lines = (await call(listRuns, {}, root)).split("\n");
    expect(lines).toHaveLength(41);
    expect(lines[40]).toBe("... (5 more runs not shown; pass a subfolder as path to narrow)");
  });
});

describe("read_run_matrix", () => {
  it("gives the same facts as summarizeRun: verdict, failed cells and their counts", async () => {
    const out = await call(readRunMatrix, { path: TRIAGE_REL });
    const s = summarizeRun(readRun(FIXTURES, TRIAGE_REL)!);
    const verdictLine = out.split("\n").find((l) => l.startsWith("verdict:"))!;
    expect(verdictLine).toContain(`verdict: ${s.verdict}`);
    expect(verdictLine).toContain(`cells: ${s.cellCount}`);
    expect(verdictLine).toContain(`failed cells: ${s.failedCellCount}`);
    for (const c of s.failedCells) expect(verdictLine).toContain(c.error ? `${c.name} (error: ${c.error})` : `${c.name} (failed ${c.failed_count})`);
    // Failed cells are listed first, with their counts.
    const cellHeads = out.split("\n").filter((l) => l.startsWith("- "));
    expect(cellHeads.slice(0, 2).map((l) => l.split(" ")[1])).toEqual(s.failedCells.map((c) => c.name));
    expect(out).toContain("trials 8, passed 5, failed 3, errors 0; failure_rate 0.375");
    expect(out).toContain('failure hints: "NaN in grad" ×3');
  });

  it('says "not recorded" for missing fields, never 0', async () => {
    const out = await call(readRunMatrix, { path: `${TRIAGE_REL}/matrix.json` });
    const block = out.slice(out.indexOf("- hand_written"));
    expect(block).toContain("failure_rate not recorded");
    expect(block).toContain("mean not recorded");
    expect(out).toContain("not recorded (2): failure_rate: missing in 1 of 4 cells (cells[2]); mean_step_time_ms: missing in 1 of 4 cells (cells[2])");
    expect(out).toContain("other fields: producer_note=");
  });

  it("names the file and line:column of malformed JSON", async () => {
    const root = tmp();
    fs.mkdirSync(path.join(root, "t/w/2026-01-01T00-00-00"), { recursive: true });
    fs.writeFileSync(path.join(root, "t/w/2026-01-01T00-00-00/matrix.json"), '{\n  "cells": [,]\n}');
    expect(await call(readRunMatrix, { path: "t/w/2026-01-01T00-00-00" }, root)).toBe('Error: t/w/2026-01-01T00-00-00/matrix.json:2:13: unexpected ","');
    expect(await call(readRunMatrix, { path: "t" }, root)).toBe("Error: no matrix.json in t");
  });

  it(`caps output at ${RUNS_MAX_CHARS} characters`, async () => {
    const root = tmp();
    const cells = Array.from({ length: 200 }, (_, i) => ({ name: `cell_${i}`, trials: 4, passed_count: 4, failed_count: 0, error_count: 0 }));
    fs.writeFileSync(path.join(root, "matrix.json"), JSON.stringify({ schema_version: 1, cells }));
    const out = await call(readRunMatrix, { path: "." }, root);
    expect(out.length).toBeLessThanOrEqual(RUNS_MAX_CHARS + 200);
    expect(out).toMatch(/\.\.\. \(\d+ more cells not shown: output capped at 8000 chars\)$/);
  });
});

describe("read_run_env", () => {
  it("puts the key facts first and names the run's other environment files", async () => {
    const out = await call(readRunEnv, { path: TRIAGE_REL });
    const lines = out.split("\n");
    expect(lines[0]).toBe(`${TRIAGE_REL}/host_env.json (environment snapshot, schema_version 1.17)`);
    expect(lines.slice(1, 7)).toEqual([
      "captured_at: 2026-04-28T14:12:03Z",
      "partial: true",
      "partial_reasons: rdhc not runnable without sudo",
      "rocm.version: 7.0.2",
      "rocm.root_source: ROCM_PATH",
      "system_health: not captured (null)",
    ]);
    expect(out).toContain(`other environment files: ${TRIAGE_REL}/environments/rocm6/env.json, ${TRIAGE_REL}/environments/rocm7/env.json`);
    expect(out).toContain("- env_vars: ");
    expect(await call(readRunEnv, { path: `${TRIAGE_REL}/environments/rocm6/env.json` })).toContain("rocm.version: 6.4.1");
  });

  it("returns Error strings, never throws", async () => {
    expect(await call(readRunEnv, { path: `${TRIAGE_REL}/cells` })).toBe(`Error: no env.json or host_env.json in ${TRIAGE_REL}/cells`);
    expect(await call(readRunEnv, { path: "/etc" })).toMatch(/^Error: path escapes the run root/);
  });
});

describe("search_run_artifacts", () => {
  it("ranks the cell whose hint matches first", async () => {
    const out = await call(searchRunArtifacts, { query: "NaN in grad", k: 3 });
    expect(out.split("\n")[0]).toMatch(new RegExp(`^1\\. ${TRIAGE_REL} — cell tf32_off \\(score `));
    expect(await call(searchRunArtifacts, { query: "zzzqqq" })).toMatch(/^No matches/);
  });
});

describe.skipIf(!CORPUS)("the tools over the real AORTA corpus", () => {
  const root = path.join(CORPUS ?? "", "dashboard");
  it("reads a run-area manifest and a sanitizer report", async () => {
    const env = await call(readRunEnv, { path: "runs/2026-10-09T141446-37929907291/consan-racy" }, root);
    expect(env.split("\n").slice(0, 4)).toEqual([
      "runs/2026-10-09T141446-37929907291/consan-racy/env.json (sanitizer run-area manifest, schema aorta.sanitizer_run_area/0.1)",
      "case: consan-racy",
      "class: guardrail",
      "observed.verdict: fail",
    ]);
    const report = await call(readRunMatrix, { path: "runs/2026-10-09T141446-37929907291/waitcheck" }, root);
    expect(report).toContain("overall_verdict: warn");
    expect(report).toMatch(/- 64 × wait_hazard \(warning, waitcheck\)/);
  });

  it("finds the racy guardrail's conflict", async () => {
    const out = await call(searchRunArtifacts, { query: "sampled_conflict race", k: 3 }, root);
    expect(out.split("\n")[0]).toMatch(/^1\. runs\/2026-10-09T141446-37929907291\/consan-racy — findings consan\/sampled_conflict/);
  });

  it("lists the 27 dashboard runs (capped at 40)", async () => {
    const out = await call(listRuns, {}, root);
    expect(out.split("\n")).toHaveLength(27);
  });
});
