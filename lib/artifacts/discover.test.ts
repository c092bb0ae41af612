import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { clearDiscoveryCache, discoverRuns, discoverRunsAsync, listRunEnvironments } from "./discover";
import { FIXTURES } from "@/lib/testing/artifact-fixtures";

const tmpDirs: string[] = [];
function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "discover-"));
  tmpDirs.push(dir);
  return dir;
}
function put(root: string, rel: string, text = "{}") {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}
afterEach(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  clearDiscoveryCache();
});

describe("discoverRuns over the synthetic layouts", () => {
  it("finds the triage and the probe run, with path facts; environments/ and cells/ belong to the run", () => {
    const d = discoverRuns(FIXTURES);
    expect(d.error).toBeNull();
    expect(d.runs.map((r) => r.rel)).toEqual(["probe/ROCM-456", "triage/ROCM-123/fsdp/2026-04-28T14-12-03"]);
    const [probe, triage] = d.runs;
    expect(triage).toMatchObject({
      layout: "triage",
      ticket: "ROCM-123",
      workload: "fsdp",
      timestamp: "2026-04-28T14-12-03",
      depth: 4,
      artifacts: ["host_env.json", "matrix.json", "matrix.md"],
      hasEnvironments: true,
    });
    expect(listRunEnvironments(triage!)).toEqual(["rocm6", "rocm7"]);
    expect(probe).toMatchObject({ layout: "probe", ticket: "ROCM-456", workload: null, artifacts: ["agent_log.jsonl", "host_env.json", "matrix.json"] });
  });

  it("reads `_no_ticket_` as no ticket", () => {
    const root = tmp();
    put(root, "_no_ticket_/w/2026-01-02T03-04-05-2/matrix.json");
    expect(discoverRuns(root).runs[0]).toMatchObject({ layout: "triage", ticket: null, workload: "w", timestamp: "2026-01-02T03-04-05-2" });
  });
});

describe("discoverRuns limits", () => {
  it("lists a run 4 levels deep but not one 5 levels deep", () => {
    const root = tmp();
    put(root, "a/b/c/d/matrix.json");
    put(root, "a/b/c/d/e/matrix.json");
    expect(discoverRuns(root).runs.map((r) => r.rel)).toEqual(["a/b/c/d"]);
  });

  it("does not follow symlinked folders, and a symlink loop does not hang", () => {
    const root = tmp();
    put(root, "real/x/env.json");
    fs.symlinkSync(root, path.join(root, "real", "loop"));
    fs.symlinkSync(path.join(root, "real", "x"), path.join(root, "alias"));
    const d = discoverRuns(root);
    expect(d.runs.map((r) => r.rel)).toEqual(["real/x"]);
  });

  it("prunes .git, node_modules, .venv and site-packages", () => {
    const root = tmp();
    for (const p of [".git", "node_modules", ".venv", "lib/site-packages"]) put(root, `${p}/r/matrix.json`);
    put(root, "ok/meta.json");
    expect(discoverRuns(root).runs.map((r) => r.rel)).toEqual(["ok"]);
  });

  it("recognises every marker file, and a root that is itself a run", () => {
    const root = tmp();
    for (const m of ["matrix.json", "env.json", "host_env.json", "meta.json", "sanitizer_report.json"]) put(root, `${m}-run/${m}`);
    put(root, "plain/result.json");
    put(root, "matrix.json");
    const rels = discoverRuns(root).runs.map((r) => r.rel);
    expect(rels).toEqual([".", "env.json-run", "host_env.json-run", "matrix.json-run", "meta.json-run", "sanitizer_report.json-run"]);
  });

  it("reports a missing root", () => {
    const d = discoverRuns(path.join(tmp(), "nope"));
    expect(d.runs).toEqual([]);
    expect(d.error).toMatch(/cannot read runs root/);
  });
});

describe("discoverRuns cache", () => {
  it("answers from the cache until a folder's mtime changes", () => {
    const root = tmp();
    put(root, "t/w/2026-01-01T00-00-00/matrix.json");
    const first = discoverRuns(root);
    expect(first.cached).toBe(false);
    const second = discoverRuns(root);
    expect(second.cached).toBe(true);
    expect(second.runs).toBe(first.runs);

    put(root, "t/w/2026-01-02T00-00-00/matrix.json");
    const third = discoverRuns(root);
    expect(third.cached).toBe(false);
    expect(third.runs).toHaveLength(2);

    // A new environments/ folder changes its run folder's mtime; its contents are read with the run.
    put(root, "t/w/2026-01-02T00-00-00/environments/rocm7/env.json");
    const fourth = discoverRuns(root);
    expect(fourth.cached).toBe(false);
    expect(listRunEnvironments(fourth.runs[1]!)).toEqual(["rocm7"]);

    fs.rmSync(path.join(root, "t/w/2026-01-01T00-00-00"), { recursive: true });
    expect(discoverRuns(root).runs).toHaveLength(1);
  });
});

describe("discovery bounds", () => {
  it("stops after maxEntries entries and says so; the async walk finds what the sync one does", async () => {
    const root = tmp();
    for (let i = 0; i < 30; i++) put(root, `T-${i}/w/2026-01-01T00-00-00/matrix.json`);
    const all = discoverRuns(root);
    expect(all.truncated).toBeNull();
    expect(all.runs).toHaveLength(30);
    clearDiscoveryCache();
    const viaAsync = await discoverRunsAsync(root);
    expect(viaAsync.runs.map((r) => r.rel)).toEqual(all.runs.map((r) => r.rel));

    const bounded = await discoverRunsAsync(root, { fresh: true, maxEntries: 10 });
    expect(bounded.truncated).toMatch(/^stopped after \d+ entries; \d+ folders not read/);
    expect(bounded.runs.length).toBeLessThan(30);
    expect(discoverRuns(root, { fresh: true, maxEntries: 10 }).truncated).toMatch(/^stopped after/);
  });

  it("stops at its time limit", async () => {
    const root = tmp();
    put(root, "A/matrix.json");
    const d = await discoverRunsAsync(root, { fresh: true, maxMs: -1 });
    expect(d.truncated).toMatch(/time limit/);
  });

  it("never follows a symlinked folder, async too", async () => {
    const root = tmp();
    const outside = tmp();
    put(outside, "X/matrix.json");
    fs.symlinkSync(outside, path.join(root, "link"));
    expect((await discoverRunsAsync(root)).runs).toEqual([]);
  });
});
