import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openTranscripts } from "@/lib/evals/transcript";
import { bigMatrix } from "@/lib/testing/big-matrix";
import { describeRunDir } from "./discover";
import { CELL_PAGE_SIZE } from "./view/pages";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "artifact-cache-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
// Each test gets the module afresh, so its caches start empty.
let cachedRunRow: (typeof import("./cached"))["cachedRunRow"];
let cachedRunView: (typeof import("./cached"))["cachedRunView"];
let evalTranscriptOf: (typeof import("./cached"))["evalTranscriptOf"];
let pool: typeof import("./worker/pool");
beforeEach(async () => {
  vi.resetModules();
  ({ cachedRunRow, cachedRunView, evalTranscriptOf } = await import("./cached"));
  pool = await import("./worker/pool");
});

const REL = "BIG-1/sweep/2026-06-01T00-00-00";
const options = { maxBytes: 1 << 30, inlineMaxBytes: 0 };

function entry() {
  const e = describeRunDir(tmp, REL);
  if (!e) throw new Error("no run");
  return e;
}

describe("cached run reads", () => {
  it("parses a run once per version of its files (size and mtime), for the list and the page alike", async () => {
    bigMatrix(path.join(tmp, REL), 3000);
    const spy = vi.spyOn(pool, "runArtifactTask");
    const first = await cachedRunRow(entry(), options);
    expect(first.cells).toBe(3000);
    await cachedRunRow(entry(), options);
    expect(spy).toHaveBeenCalledTimes(1);

    // Concurrent visits of an unread run share one parse.
    const [a, b] = await Promise.all([cachedRunView(entry(), tmp, options), cachedRunView(entry(), tmp, options)]);
    expect(a).toBe(b);
    expect(spy).toHaveBeenCalledTimes(2);
    await cachedRunRow(entry(), options);
    expect(spy).toHaveBeenCalledTimes(2);

    // A rewrite (new mtime, new size) is read again.
    bigMatrix(path.join(tmp, REL), 2000);
    expect((await cachedRunRow(entry(), options)).cells).toBe(2000);
    expect(spy).toHaveBeenCalledTimes(3);
    spy.mockRestore();
  }, 60_000);

  it("bounds the run page: 60,000 cells send one page of cells, well under 2 MB", async () => {
    const rel = "BIG-2/sweep/2026-06-01T00-00-00";
    bigMatrix(path.join(tmp, rel), 60_000, 5);
    const e = describeRunDir(tmp, rel);
    if (!e) throw new Error("no run");
    const { view, pages } = await cachedRunView(e, tmp, options);
    expect(view.matrix?.cellCount).toBe(60_000);
    expect(view.matrix?.cells.rows).toHaveLength(CELL_PAGE_SIZE);
    expect(pages).toHaveLength(60);
    expect((JSON.parse(pages[59] as string) as { rows: unknown[] }).rows).toHaveLength(1000);
    // What the page serializes: the view (first page included). The framework's escaping adds < 2x.
    expect(JSON.stringify(view).length).toBeLessThan(1024 * 1024);
  }, 120_000);

  it("reads a CLI run's trial transcript in a parse worker, one line of its file", async () => {
    const rel = "evals/t/2026-12-01T00-00-00";
    const dir = path.join(tmp, rel);
    fs.mkdirSync(dir, { recursive: true });
    const writer = openTranscripts(dir);
    const ref = writer.write({
      case: "c",
      cell: "offline · native",
      trial: 1,
      messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "hello" }] }],
      steps: [],
      usage: { inputTokens: 1, outputTokens: 2 },
    });
    writer.close();
    const trial = { case: "c", cell: "offline · native", model: "offline", mode: "native", trial: 1, verdict: "pass", transcript: ref };
    fs.writeFileSync(path.join(dir, "cases.json"), JSON.stringify({ suite: "t", trials: [trial] }));
    fs.writeFileSync(path.join(dir, "matrix.json"), JSON.stringify({ schema_version: 1, producer: "toolroom eval", cells: [] }));
    const spy = vi.spyOn(pool, "runArtifactTask");
    const read = await evalTranscriptOf(describeRunDir(tmp, rel)!, "c", "offline · native", 1, options);
    expect(spy.mock.calls[0]![0]).toMatchObject({ op: "evalTranscript", trial: 1 });
    expect(read).toMatchObject({ ok: true, view: { messages: [{ role: "user" }], usage: { inputTokens: 1, outputTokens: 2 } } });
    spy.mockRestore();
  });
});
