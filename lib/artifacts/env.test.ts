import path from "node:path";
import { describe, expect, it } from "vitest";
import { envFacts, readEnv, readEnvFile } from "./env";
import { FIXTURES } from "@/lib/testing/artifact-fixtures";

const TRIAGE = path.join(FIXTURES, "triage/ROCM-123/fsdp/2026-04-28T14-12-03");

describe("probe environment snapshots", () => {
  it("reads host_env.json with the key facts first", () => {
    const r = readEnvFile(path.join(TRIAGE, "host_env.json"), "host_env.json");
    if (!r.ok) throw new Error(r.error);
    expect(r.data.kind).toBe("probe");
    expect(r.data.missingFields).toEqual([]);
    const facts = Object.fromEntries(envFacts(r.data).map((f) => [f.label, f.value]));
    expect(facts).toMatchObject({
      captured_at: "2026-04-28T14:12:03Z",
      partial: "true",
      partial_reasons: "rdhc not runnable without sudo",
      "rocm.version": "7.0.2",
      system_health: "not captured (null)",
      "gpu_arch.gfx_targets": "gfx942",
    });
    expect(envFacts(r.data)[0]!.label).toBe("captured_at");
    if (r.data.kind === "probe") expect(Object.keys(r.data.blocks)).toContain("env_vars");
  });

  it("a field not recorded is missing and reads null, never false or 0", () => {
    const env = readEnv({ schema_version: "1.17", captured_at: "2026-01-01T00:00:00Z", rocm: {} });
    expect(env.missingFields).toEqual(["partial", "partial_reasons", "system_health", "rocm.version"]);
    const facts = Object.fromEntries(envFacts(env).map((f) => [f.label, f.value]));
    expect(facts.partial).toBeNull();
    expect(facts.system_health).toBeNull();
    expect(facts["rocm.version"]).toBeNull();
  });

  it("an unknown major is read best-effort with a warning; unknown blocks are kept", () => {
    const env = readEnv(
      { schema_version: "2.0", captured_at: "x", partial: false, partial_reasons: [], system_health: null, rocm: null, new_block: { a: 1 } },
      "e/env.json",
    );
    expect(env.warnings).toEqual(['e/env.json: schema_version "2.0" is not known (expected 1.x); read best-effort']);
    expect(env.kind === "probe" && env.blocks).toEqual({ new_block: { a: 1 } });
  });
});

describe("run-area manifests", () => {
  it("are picked by their schema marker, not their file name", () => {
    const env = readEnv({
      schema: "aorta.sanitizer_run_area/0.1",
      case: "c",
      observed: { verdict: "warn", findings: 3, execution: "complete", kernel_reasons: [], reason: null },
    });
    expect(env.kind).toBe("run-area");
    const facts = Object.fromEntries(envFacts(env).map((f) => [f.label, f.value]));
    expect(facts).toMatchObject({ case: "c", "observed.verdict": "warn", "observed.findings": "3", "observed.reason": "null" });
    expect(env.missingFields).toContain("target");
    expect(env.missingFields).not.toContain("rocjitsu_commit");
  });

  it("warn on an unknown run-area schema version", () => {
    const env = readEnv({ schema: "aorta.sanitizer_run_area/0.9" });
    expect(env.warnings[0]).toMatch(/schema "aorta.sanitizer_run_area\/0.9" is not known/);
  });
});
