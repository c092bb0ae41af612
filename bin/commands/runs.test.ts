import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolroom } from "@/lib/testing/cli";

const EXAMPLES = path.resolve("examples/runs");
const TRIAGE = path.join(EXAMPLES, "ROCM-123/fsdp/2026-04-28T14-12-03");
let root: string;

beforeAll(() => {
  // A fresh clone's working folder: no ./runs and no toolroom.yaml.
  root = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-runs-cli-"));
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("toolroom runs", () => {
  it("a missing default runs root is an empty state, not an error", async () => {
    const r = await runToolroom(["runs"], root);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("No runs yet");
    expect(r.stderr).toContain("A run is a folder");
    expect(r.stderr).toContain("runsRoot");
    expect(r.stderr).toContain(`toolroom runs --root ${EXAMPLES}`);
    const json = await runToolroom(["runs", "--json"], root);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it("a configured runs root that is missing is still an error", async () => {
    const config = path.join(root, "configured.yaml");
    fs.writeFileSync(config, `runsRoot: ${path.join(root, "nowhere")}\n`);
    const r = await runToolroom(["--config", config, "runs"], root);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("cannot read runs root");
  });

  it("lists the bundled example runs", async () => {
    const r = await runToolroom(["runs", "--root", EXAMPLES], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("ROCM-123/fsdp/2026-04-28T14-12-03");
    expect(r.stdout).toContain("ROCM-456");
    expect(r.stdout).toContain("sanitizer/runs/2026-10-05T163143/consan-racy");
  });
});

describe("toolroom runs show", () => {
  it("takes an absolute path without --root and prints the whole matrix, one line per cell", async () => {
    const r = await runToolroom(["runs", "show", TRIAGE], root);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const matrix = r.stdout.slice(r.stdout.indexOf("matrix:"));
    expect(matrix).toMatch(/CELL\s+ENV\s+FAILURE RATE\s+FAILED\s+ERRORS\s+STEP RATIO\s+UNRELIABLE/);
    const cells = JSON.parse(fs.readFileSync(path.join(TRIAGE, "matrix.json"), "utf8")) as { cells: { name: string }[] };
    // Every cell, passing ones too, each on its own line.
    for (const c of cells.cells) expect(matrix.split("\n").filter((l) => l.trimStart().startsWith(`${c.name} `))).toHaveLength(1);
    expect(matrix).toContain("not recorded");
  });

  it("honours its own --json after the path (the parent command also has --json)", async () => {
    const r = await runToolroom(["runs", "show", TRIAGE, "--json"], root);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { rel: string; cellCount: number };
    expect(summary.cellCount).toBeGreaterThan(0);
  });

  it("honours its own --root after the path", async () => {
    const r = await runToolroom(["runs", "show", "ROCM-456", "--root", EXAMPLES, "--json"], root);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { rel: string }).rel).toBe("ROCM-456");
    // The parent's --root before the subcommand still applies.
    const before = await runToolroom(["runs", "--root", EXAMPLES, "show", "ROCM-456"], root);
    expect(before.code).toBe(0);
    expect(before.stdout).toContain("run:          ROCM-456");
  });
});
