/**
 * Run-artifact bench (issue #15.5): a generated triage run whose matrix.json is ~200 MB (60,000
 * cells, every field AORTA writes, 400 step-time samples each) in a temp dir. Calls the runs
 * browser's loaders in-process (lib/artifacts/cached.ts, what /runs and /runs/view call) — no server
 * is started — while perf_hooks.monitorEventLoopDelay measures how long the event loop, i.e. any
 * concurrent request, was kept waiting. Rows:
 *   - list cold / list warm: the runs table's row for the run (worker, then the size+mtime cache);
 *   - page cold / page warm: the run page's view and its cell pages (worker, then cache);
 *   - before: the old path, readRunEntry + summarize + view on the request thread (measured last).
 * Appends a "## Run artifacts" section to bench/RESULTS.md.
 * Run: npx tsx bench/artifacts.ts   (set BENCH_CELLS / BENCH_SAMPLES to change the size)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { cachedRunRow, cachedRunView } from "@/lib/artifacts/cached";
import { describeRunDir } from "@/lib/artifacts/discover";
import { runTask } from "@/lib/artifacts/worker/tasks";
import { bigMatrix } from "@/lib/testing/big-matrix";

const CELLS = Number(process.env.BENCH_CELLS ?? 60_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 400);
const REL = "BENCH-1/sweep/2026-06-01T00-00-00";
const TARGET_MS = 200;
const options = { maxBytes: 1024 * 1024 * 1024 };

async function measure<T>(label: string, work: () => Promise<T> | T): Promise<{ label: string; ms: number; loopMaxMs: number; rssMb: number }> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // Let the monitor take a first sample before the work starts.
  await new Promise((r) => setTimeout(r, 20));
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  await new Promise((r) => setTimeout(r, 20));
  delay.disable();
  return { label, ms, loopMaxMs: delay.max / 1e6, rssMb: process.memoryUsage.rss() / 1024 / 1024 };
}

async function main() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-artifacts-"));
  try {
    const bytes = bigMatrix(path.join(root, REL), CELLS, SAMPLES);
    const entry = describeRunDir(root, REL);
    if (!entry) throw new Error("generated run not found");
    const sizes = { "matrix.json": bytes };
    const rows = [
      await measure("list, cold (worker)", () => cachedRunRow(entry, options)),
      await measure("list, warm (cached by size+mtime)", () => cachedRunRow(entry, options)),
      await measure("run page, cold (worker)", () => cachedRunView(entry, root, options)),
      await measure("run page, warm (cached)", () => cachedRunView(entry, root, options)),
      // Last, so that its garbage (the whole parse, on this heap) is not collected during the rows above.
      await measure("before: read + view on the request thread", () => runTask({ op: "view", entry, root, sizes, maxBytes: options.maxBytes })),
    ];
    const view = await cachedRunView(entry, root, options);
    const pagesBytes = view.pages.reduce((n, p) => n + p.length, 0);
    const pageBytes = Buffer.byteLength(JSON.stringify(view.view));
    const lines = [
      "",
      `## Run artifacts (\`npx tsx bench/artifacts.ts\`)`,
      "",
      `${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${os.availableParallelism()} CPUs (load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}).`,
      `One run with a ${(bytes / 1024 / 1024).toFixed(0)} MB matrix.json (${CELLS.toLocaleString("en-US")} cells, ${SAMPLES} step-time samples each), read`,
      'in-process through lib/artifacts/cached.ts (what /runs and /runs/view call); no server. "loop max" is',
      "the longest the event loop was blocked during the step (perf_hooks.monitorEventLoopDelay), i.e. the",
      `longest any concurrent request would have waited. Target: ≤ ${TARGET_MS} ms while loading.`,
      "",
      "| step | time | loop max | RSS after | |",
      "|---|---:|---:|---:|---|",
      ...rows.map(
        (r) =>
          `| ${r.label} | ${r.ms.toFixed(0)} ms | ${r.loopMaxMs.toFixed(0)} ms | ${r.rssMb.toFixed(0)} MB | ${r.label.startsWith("before") ? "" : r.loopMaxMs <= TARGET_MS ? "pass" : "FAIL"} |`,
      ),
      "",
      `The run page's view (first ${view.view.matrix?.cells.rows.length ?? 0} cells inline; ${view.pages.length} pages of cells from /api/runs/cells, ${(pagesBytes / 1024 / 1024).toFixed(0)} MB of JSON in all, kept in the view cache): ${(pageBytes / 1024).toFixed(0)} KB of JSON.`,
      "",
    ];
    const text = lines.join("\n");
    process.stdout.write(text);
    fs.appendFileSync(path.join(import.meta.dirname, "RESULTS.md"), text);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

await main();
