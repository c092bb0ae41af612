/**
 * CLI start-up: `toolroom --version` and `toolroom tools --json` from the bundle (bin/bundle.mjs),
 * against the same commands loaded from the sources through tsx (how the CLI ran before), paired
 * in one run. CPU seconds (user + system of the child) as well as wall time: tests and the
 * conformance suite start the CLI hundreds of times on two shared cores, so CPU is what they pay.
 *   npx tsx bench/cli-start.ts [runs=10]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const RUNS = Number(process.argv[2] ?? 10);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-cli-bench-"));
const viaTsx = path.join(tmp, "via-tsx.mjs");
fs.writeFileSync(
  viaTsx,
  `const { register } = await import(${JSON.stringify(path.join(ROOT, "node_modules/tsx/dist/esm/api/index.mjs"))});
register({ tsconfig: ${JSON.stringify(path.join(ROOT, "tsconfig.json"))} });
const { main } = await import(${JSON.stringify(path.join(ROOT, "bin/cli.ts"))});
await main(process.argv);
`,
);

/** Wall and CPU seconds of one child: the shell that waited for it reports its cutime + cstime from /proc (in 1/100 s). */
function measure(entry: string, args: string[]): { wall: number; cpu: number } {
  const from = performance.now();
  const run = spawnSync("sh", ["-c", `"$@" >/dev/null 2>&1; cut -d" " -f16,17 /proc/$$/stat`, "sh", process.execPath, entry, ...args], {
    cwd: tmp,
    encoding: "utf8",
  });
  const wall = (performance.now() - from) / 1000;
  const [user, system] = run.stdout.trim().split(" ").map(Number);
  return { wall, cpu: ((user ?? 0) + (system ?? 0)) / 100 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, ${RUNS} runs each, medians`,
);
console.log("command            | tsx wall | tsx cpu | bundle wall | bundle cpu | cpu ratio");
for (const args of [["--version"], ["tools", "--json"]]) {
  const tsx: { wall: number; cpu: number }[] = [];
  const bundle: { wall: number; cpu: number }[] = [];
  // Warm both (the tsx cache, the bundle) before measuring; then alternate so load drifts hit both.
  measure(viaTsx, args);
  measure(path.join(ROOT, "bin/toolroom.mjs"), args);
  for (let i = 0; i < RUNS; i++) {
    tsx.push(measure(viaTsx, args));
    bundle.push(measure(path.join(ROOT, "bin/toolroom.mjs"), args));
  }
  const t = { wall: median(tsx.map((r) => r.wall)), cpu: median(tsx.map((r) => r.cpu)) };
  const b = { wall: median(bundle.map((r) => r.wall)), cpu: median(bundle.map((r) => r.cpu)) };
  console.log(
    `${args.join(" ").padEnd(18)} | ${t.wall.toFixed(2)} s | ${t.cpu.toFixed(2)} s | ${b.wall.toFixed(2)} s | ${b.cpu.toFixed(2)} s | ${(b.cpu / t.cpu).toFixed(2)}×`,
  );
}
fs.rmSync(tmp, { recursive: true, force: true });
