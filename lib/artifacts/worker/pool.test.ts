import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeRunDir } from "../discover";
import { FIXTURES } from "@/lib/testing/artifact-fixtures";
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
    const task = { op: "diff", a, b, root: FIXTURES, override: null, maxBytes: 1 << 30 } as const;
    const viaWorker = await runArtifactTask(task, 10, { inlineMaxBytes: 0 });
    expect(viaWorker).toEqual(runTask(task));
    expect(viaWorker.a.rel).toBe(TRIAGE);
  });

  it("keeps the event loop free while a worker parses a big matrix", async () => {
    const dir = path.join(tmp, "BIG-1", "sweep", "2026-06-01T00-00-00");
    const bytes = bigMatrix(dir, 20_000);
    const entry = entryOf(tmp, dir);
    // Order, not time: count the event loop's turns that run before the parse's answer arrives. A
    // parse on this thread answers before any of them can run (the in-thread call shows it: zero).
    const turnsDuring = async (work: () => Promise<unknown>) => {
      let turns = 0;
      let done = false;
      const spin = () => {
        if (done) return;
        turns++;
        setImmediate(spin);
      };
      setImmediate(spin);
      await work();
      done = true;
      return turns;
    };
    expect(await turnsDuring(async () => runTask({ op: "summary", entry, maxBytes: 1 << 30 }))).toBe(0);
    let cells: number | null = null;
    const turns = await turnsDuring(async () => {
      cells = (await runArtifactTask({ op: "summary", entry, maxBytes: 1 << 30 }, bytes)).cells;
    });
    expect(cells).toBe(20_000);
    expect(turns, "event-loop turns while the worker parsed").toBeGreaterThan(10);
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
