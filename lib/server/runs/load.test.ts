import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadSettings } from "@/lib/settings/load";
import { setLoadedSettings } from "@/lib/settings";
import { loadRunList } from "./load";

let cwd: string;

function settings(yaml: string) {
  const file = path.join(cwd, "toolroom.yaml");
  fs.writeFileSync(file, yaml);
  setLoadedSettings(loadSettings({ cwd, files: [file], env: {} }));
}

beforeEach(() => {
  // A fresh clone's working folder: no ./runs.
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-runs-page-"));
  vi.spyOn(process, "cwd").mockReturnValue(cwd);
});

afterEach(() => {
  vi.restoreAllMocks();
  setLoadedSettings(undefined);
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe("the runs list on a fresh clone", () => {
  it("is an empty state with the example runs when the default runsRoot is missing", async () => {
    settings("{}\n");
    const list = await loadRunList(null);
    expect(list.status).toBe(200);
    expect(list.rootError).toBeNull();
    expect(list.noRunsYet).toBe(true);
    expect(list.runs).toEqual([]);
    expect(list.examples).toBe(path.resolve(import.meta.dirname, "../../../examples/runs"));
    // The example runs open over HTTP like runsRoot itself.
    const examples = await loadRunList(list.examples ?? "");
    expect(examples.status).toBe(200);
    expect(examples.rootError).toBeNull();
    expect(examples.runs.map((r) => r.rel)).toContain("ROCM-456");
  });

  it("is still an error when a configured runsRoot is missing", async () => {
    settings(`runsRoot: ${path.join(cwd, "nowhere")}\n`);
    const list = await loadRunList(null);
    expect(list.noRunsYet).toBeUndefined();
    expect(list.rootError).toMatch(/cannot read runs root/);
  });
});
