import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, describe, expect, it } from "vitest";
import { describeRunDir } from "../discover";
import { FIXTURES } from "../testing";
import { bigMatrix } from "@/lib/testing/big-matrix";
import { runArtifactTask } from "./pool";
import { runTask } from "./tasks";

const TRIAGE = "triage/ROCM-123/fsdp/2026-04-28T14-12-03";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "artifact-pool-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function entryOf(root: string, rel: string) {
  const entry = describeRunDir(root, rel);
  if (!entry) throw new Error(`no run at ${rel}`);
  return entry;
}

describe("runArtifactTask", () => {
  it("gives in a worker exactly what it gives in-thread", async () => {
    const entry = entryOf(FIXTURES, TRIAGE);
    const task = { op: "view", entry, root: FIXTURES, sizes: {}, maxBytes: 1 << 30 } as const;
    const viaWorker = await runArtifactTask(task, 10, { inlineMaxBytes: 0 });
    expect(viaWorker).toEqual(runTask(task));
    expect(viaWorker.row.cells).toBe(4);
  });

  it("compares two runs in a worker exactly as in-thread", async () => {
    const a = entryOf(FIXTURES, TRIAGE);
    const b = entryOf(FIXTURES, "probe/ROCM-456");
    const task = { op: "compare", a, b, root: FIXTURES, override: null, maxBytes: 1 << 30 } as const;
    const viaWorker = await runArtifactTask(task, 10, { inlineMaxBytes: 0 });
    expect(viaWorker).toEqual(runTask(task));
    expect(viaWorker.a.rel).toBe(TRIAGE);
  });

  it("keeps the event loop free while a worker parses a big matrix", async () => {
    const dir = path.join(tmp, "BIG-1", "sweep", "2026-06-01T00-00-00");
    const bytes = bigMatrix(dir, 20_000);
    const entry = entryOf(tmp, dir);
    const inThread = performance.now();
    runTask({ op: "summary", entry, maxBytes: 1 << 30 });
    const inThreadMs = performance.now() - inThread;

    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const row = await runArtifactTask({ op: "summary", entry, maxBytes: 1 << 30 }, bytes);
    delay.disable();
    expect(row.cells).toBe(20_000);
    // The same parse in-thread blocks for inThreadMs; in the worker the loop never stalls 200 ms.
    expect(delay.max / 1e6, `in-thread parse took ${inThreadMs.toFixed(0)} ms`).toBeLessThan(200);
  }, 60_000);

  it("refuses an artifact over the size limit with a message, without reading it", async () => {
    const entry = entryOf(FIXTURES, TRIAGE);
    const row = await runArtifactTask({ op: "summary", entry, maxBytes: 100 }, 10);
    expect(row.firstError).toMatch(/matrix\.json: \d+ bytes is above the 100 bytes limit for reading an artifact; not read \(raise runs\.maxArtifactBytes/);
  });

  it("reports a worker that runs past its time limit", async () => {
    const dir = path.join(tmp, "SLOW-1", "sweep", "2026-06-01T00-00-00");
    const bytes = bigMatrix(dir, 20_000);
    await expect(runArtifactTask({ op: "summary", entry: entryOf(tmp, dir), maxBytes: 1 << 30 }, bytes, { timeoutMs: 1 })).rejects.toThrow(/longer than/);
  }, 60_000);
});
