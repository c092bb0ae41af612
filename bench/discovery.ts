/**
 * Run discovery benchmark: 10,000 generated triage runs (matrix.json + host_env.json +
 * environments/<env>/env.json + cells/) in a temp dir; cold and cached `discoverRuns`, against a
 * plain recursive readdir of the same tree (same depth, no symlinks) in the same process.
 * Run: npx tsx bench/discovery.ts
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { clearDiscoveryCache, discoverRuns } from "@/lib/artifacts/discover";

const RUNS = 10_000;
const TICKETS = 50;
const WORKLOADS = 4;

function generate(root: string): void {
  const matrix = JSON.stringify({ schema_version: 1, workload: "w", cells: [{ name: "baseline", failed_count: 0 }] });
  const env = JSON.stringify({ schema_version: "1.17", captured_at: "2026-01-01T00:00:00Z", partial: false });
  for (let i = 0; i < RUNS; i++) {
    const t = i % TICKETS;
    const w = Math.floor(i / TICKETS) % WORKLOADS;
    const n = Math.floor(i / (TICKETS * WORKLOADS));
    const ts = `2026-01-01T00-${String(Math.floor(n / 60)).padStart(2, "0")}-${String(n % 60).padStart(2, "0")}`;
    const dir = path.join(root, `T-${t}`, `wl${w}`, ts);
    fs.mkdirSync(path.join(dir, "environments", "rocm7"), { recursive: true });
    fs.mkdirSync(path.join(dir, "cells", "baseline"), { recursive: true });
    fs.writeFileSync(path.join(dir, "matrix.json"), matrix);
    fs.writeFileSync(path.join(dir, "host_env.json"), env);
    fs.writeFileSync(path.join(dir, "environments", "rocm7", "env.json"), env);
  }
}

/** The baseline: list every folder to the same depth, nothing else. */
function plainReaddir(dir: string, depth: number): number {
  let n = 0;
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    n++;
    if (d.isDirectory() && depth < 4) n += plainReaddir(path.join(dir, d.name), depth + 1);
  }
  return n;
}

function time<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const v = f();
  return [v, performance.now() - t0];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-discovery-"));
try {
  const [, genMs] = time(() => generate(root));
  const colds: number[] = [];
  const cacheds: number[] = [];
  const plains: number[] = [];
  let found = 0;
  for (let round = 0; round < 3; round++) {
    clearDiscoveryCache();
    const [d, cold] = time(() => discoverRuns(root));
    found = d.runs.length;
    colds.push(cold);
    const [c, cached] = time(() => discoverRuns(root));
    if (!c.cached) throw new Error("expected a cached answer");
    cacheds.push(cached);
    plains.push(time(() => plainReaddir(root, 0))[1]);
  }
  if (found !== RUNS) throw new Error(`found ${found} runs, expected ${RUNS}`);
  const cold = median(colds);
  const cached = median(cacheds);
  const plain = median(plains);
  const lines = [
    `runs: ${found} (generated in ${(genMs / 1000).toFixed(1)} s), node ${process.version}, ${os.cpus().length} cpus`,
    `cold discovery:   ${cold.toFixed(0)} ms (median of 3; limit 2000 ms)`,
    `cached discovery: ${cached.toFixed(1)} ms (median of 3; limit 100 ms)`,
    `plain recursive readdir (baseline): ${plain.toFixed(0)} ms; cold / baseline = ${(cold / plain).toFixed(2)}×, cached / baseline = ${(cached / plain).toFixed(2)}×`,
  ];
  console.log(lines.join("\n"));
  if (cold > 2000 || cached > 100) process.exitCode = 1;
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
