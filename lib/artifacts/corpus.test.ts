import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readDashboardIndexFile } from "./dashboard";
import { discoverRuns } from "./discover";
import { readEnvFile } from "./env";
import { parseJson } from "./json";
import { readRunEntry, runErrors } from "./run";
import { groupFindings, readMetaFile, readSanitizerReportFile } from "./sanitizer";
import { summarizeRun } from "./summary";
import { aortaRunsDir, filesUnder } from "@/lib/testing/artifact-fixtures";

const CORPUS = aortaRunsDir();
if (!CORPUS) console.warn("aorta-runs corpus not found (../shared/aorta-runs or $AORTA_RUNS_DIR): skipping the real-artifact tests");
const d = describe.skipIf(!CORPUS);
const root = CORPUS ?? "";
const R1 = "dashboard/runs/2026-10-09T141446-37929907291";
const R2 = "dashboard/runs/2026-10-05T163143-37309782694";
const R3 = "dashboard/runs/2026-10-05T161430-37207730800";

d("every file of the real AORTA corpus", () => {
  const files = CORPUS ? filesUnder(CORPUS) : [];

  it("holds the 50 JSON files the README lists", () => {
    expect(files.filter((f) => f.endsWith(".json"))).toHaveLength(50);
  });

  it.each(files.filter((f) => f.endsWith(".json")))("%s reads with its reader, no errors", (rel) => {
    const abs = path.join(root, rel);
    const base = path.basename(rel);
    if (base === "env.json") {
      const r = readEnvFile(abs, rel);
      if (!r.ok) throw new Error(r.error);
      expect(r.data.kind).toBe("run-area");
      if (r.data.kind !== "run-area") return;
      expect(r.data.missingFields).toEqual([]);
      expect(r.data.warnings).toEqual([]);
      expect(r.data.observedFields?.verdict).toMatch(/^(pass|fail|warn|error)$/);
    } else if (base === "sanitizer_report.json") {
      const r = readSanitizerReportFile(abs, rel);
      if (!r.ok) throw new Error(r.error);
      expect(r.data.warnings).toEqual([]);
      expect(r.data.missingFields).toEqual([]);
      expect(r.data.overall_verdict).toMatch(/^(pass|fail|warn|error)$/);
    } else if (base === "meta.json") {
      const r = readMetaFile(abs, rel);
      if (!r.ok) throw new Error(r.error);
      expect(r.data.missingFields).toEqual([]);
      expect(typeof r.data.gate).toBe("boolean");
    } else if (base === "data.json") {
      const r = readDashboardIndexFile(abs, rel);
      if (!r.ok) throw new Error(r.error);
      expect(r.data.entries).toHaveLength(30);
      expect(r.data.warnings).toEqual([]);
    } else if (base === "verdict_baselines.json") {
      const parsed = parseJson(fs.readFileSync(abs, "utf8"), rel);
      if (!parsed.ok) throw new Error(parsed.error);
      // The harness's expectations, not a run artifact: Toolroom shows it as JSON and reads nothing from it.
      const b = parsed.value as Record<string, unknown>;
      expect(b.consan_racy).toMatchObject({ overall_verdict: "fail", checks: { consan: "fail" }, finding_shape: { consan: "conflict=true" } });
      expect(b.consan_clean).toEqual({ overall_verdict: "pass", checks: { consan: "pass" } });
    } else {
      throw new Error(`no reader chosen for ${rel}`);
    }
  });
});

d("the real runs, discovered", () => {
  it("from the dashboard folder every case is within 4 levels", () => {
    const found = discoverRuns(path.join(root, "dashboard"));
    expect(found.dashboardIndexes).toEqual(["."]);
    // 3 run folders (meta.json) + 3+3 guardrail cases (R1, R2) + 3×6 survey cases.
    expect(found.runs).toHaveLength(3 + 6 + 18);
    const survey = found.runs.find((r) => r.rel === "runs/2026-10-09T141446-37929907291/survey/waitcheck-gemm");
    expect(survey).toMatchObject({
      layout: "dashboard",
      case: "waitcheck-gemm",
      caseClass: "survey",
      dashboardRun: "2026-10-09T141446-37929907291",
      timestamp: "2026-10-09T141446",
    });
    for (const r of found.runs) expect(runErrors(readRunEntry(r))).toEqual([]);
  });

  it("from the corpus root the survey cases are 5 levels deep and not listed", () => {
    const found = discoverRuns(root);
    expect(found.runs.every((r) => r.depth <= 4)).toBe(true);
    expect(found.runs.some((r) => r.caseClass === "survey")).toBe(false);
    expect(found.runs.map((r) => r.rel)).toContain(`${R1}/consan-racy`);
  });

  const summary = (rel: string) => {
    const found = discoverRuns(path.join(root, "dashboard"));
    const entry = found.runs.find((r) => `dashboard/${r.rel}` === rel);
    if (!entry) throw new Error(`not discovered: ${rel}`);
    return summarizeRun(readRunEntry(entry));
  };

  it("clean run: gate true, racy fails with one sampled_conflict, waitcheck warns with 64", () => {
    expect(summary(R1)).toMatchObject({ kind: "dashboard-run", verdict: "pass", verdictSource: "meta.gate", when: "2026-10-09T14:14:46Z" });
    expect(summary(`${R1}/consan-racy`)).toMatchObject({ kind: "sanitizer", verdict: "fail", findings: 1, case: "consan-racy", caseClass: "guardrail" });
    expect(summary(`${R1}/waitcheck`)).toMatchObject({ verdict: "warn", findings: 64 });
    const r = readSanitizerReportFile(path.join(root, R1, "consan-racy/sanitizer_report.json"));
    expect(r.ok && groupFindings(r.data).map((g) => [g.code, g.count])).toEqual([["sampled_conflict", 1]]);
    expect(summary(`${R1}/survey/consan-gemm`)).toMatchObject({ verdict: "error", caseClass: "survey" });
    expect(summary(`${R1}/survey/waitcheck-gemm`)).toMatchObject({ verdict: "warn", findings: 32 });
  });

  it("failing gate: ConSan guardrails error with combined_hook_exit_1; a missing report falls back to the manifest", () => {
    expect(summary(R2)).toMatchObject({ verdict: "fail", verdictSource: "meta.gate" });
    expect(summary(`${R2}/consan-clean`)).toMatchObject({ verdict: "error", verdictSource: "sanitizer_report" });
    const r = readSanitizerReportFile(path.join(root, R2, "consan-clean/sanitizer_report.json"));
    expect(r.ok && r.data.checks.map((c) => c.reason)).toContain("combined_hook_exit_1");
    expect(summary(`${R2}/waitcheck`)).toMatchObject({ verdict: "warn", verdictSource: "observed", findings: 64, errors: [] });
  });

  it("old run: no guardrail folders, manifests without rocjitsu_* (null, not missing)", () => {
    const found = discoverRuns(path.join(root, "dashboard"));
    expect(found.runs.filter((r) => r.dashboardRun === "2026-10-05T161430-37207730800" && r.caseClass === "guardrail")).toEqual([]);
    const env = readEnvFile(path.join(root, R3, "survey/consan-tiny/env.json"));
    expect(env.ok && env.data.kind === "run-area" && [env.data.rocjitsu_commit, env.data.missingFields]).toEqual([null, []]);
  });

  it("data.json: missing guardrail rows read as recorded; survey only on the newest entry", () => {
    const r = readDashboardIndexFile(path.join(root, "dashboard/data.json"));
    if (!r.ok) throw new Error(r.error);
    const e3 = r.data.entries.find((e) => e.rel === "runs/2026-10-05T161430-37207730800");
    expect(e3?.rows["consan-clean"]).toMatchObject({ execution: "missing", verdict: "—", report_rel: null });
    expect(r.data.entries[0]!.survey).toHaveLength(6);
    expect(r.data.entries.slice(1).every((e) => e.survey === null)).toBe(true);
    expect(r.data.entries[0]!.meta).toMatchObject({ gate: true, gpu: "gfx950" });
    expect(r.data.entries[0]!.meta?.extra).toMatchObject({ commit_full: "224d19f4a3718f4a8ddcfd477cd80e7a66469d68" });
  });
});
