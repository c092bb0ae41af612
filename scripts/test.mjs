// `npm test`: every check the project has, side by side where they can share the machine's cores,
// each step's output printed whole when it ends and its duration in a table at the end.
//   node scripts/test.mjs [step…]    only the named steps (and what they need)
// A step waits for the steps it needs; it starts when its weight (cores it keeps busy) fits. A step
// that fails stops the steps that need it; the others still run, so one run reports every failure.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { summarizeTests } from "./test-report.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-test-"));
const bin = (name) => path.join(root, "node_modules", ".bin", name);

/** In order of priority: the long pole (build → e2e) first, the static checks beside it. */
const STEPS = [
  { name: "chromium", weight: 0, cmd: ["node", "scripts/ensure-chromium.mjs"] },
  { name: "build", weight: 2, cmd: ["node", "scripts/build.mjs"] },
  {
    name: "e2e",
    weight: 1,
    needs: ["build", "chromium"],
    cmd: [bin("playwright"), "test"],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, "e2e.json") },
  },
  { name: "lint", weight: 1, cmd: ["npm", "run", "--silent", "lint"] },
  { name: "typecheck", weight: 1, cmd: [bin("tsc"), "--noEmit"] },
  { name: "format", weight: 1, cmd: [bin("prettier"), "--check", "--log-level", "warn", "."] },
  { name: "unit", weight: 1, cmd: [bin("vitest"), "run", "--project", "unit", ...vitestReport("unit")] },
  { name: "integration", weight: 1, cmd: [bin("vitest"), "run", "--project", "integration", ...vitestReport("integration")] },
  // The storage suite again, on the real PostgreSQL server (a throwaway database per file).
  { name: "storage-pg", weight: 1, cmd: [bin("vitest"), "run", "--project", "storage-pg", ...vitestReport("storage-pg")] },
];

function vitestReport(name) {
  return ["--reporter", "default", "--reporter", "json", "--outputFile.json", path.join(reports, `${name}.json`)];
}

const wanted = process.argv.slice(2);
const byName = new Map(STEPS.map((step) => [step.name, step]));
for (const name of wanted) if (!byName.has(name)) fail(`unknown step "${name}"; steps: ${STEPS.map((s) => s.name).join(", ")}`);
const selected = new Set();
const select = (name) => {
  if (selected.has(name)) return;
  selected.add(name);
  for (const need of byName.get(name).needs ?? []) select(need);
};
for (const name of wanted.length ? wanted : byName.keys()) select(name);

const cores = Math.max(2, os.availableParallelism());
// Linux reports CPU time in clock ticks: 100 a second on every architecture it runs on (USER_HZ).
const CLOCK_TICKS = 100;
const started = performance.now();
const machineAtStart = machineCpuSeconds();
const results = new Map(); // name → { status: "passed" | "failed" | "skipped", seconds }
const running = new Map(); // name → weight
const seconds = (from) => (performance.now() - from) / 1000;
const clock = () => `${seconds(started).toFixed(0).padStart(4)} s`;

/** CPU time every process on the machine has used since boot (user, nice, system, irq, softirq of /proc/stat), or null off Linux. */
function machineCpuSeconds() {
  if (!fs.existsSync("/proc/stat")) return null;
  const [, user, nice, system, , , irq, softirq] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  return (user + nice + system + irq + softirq) / CLOCK_TICKS;
}

function fail(message) {
  console.error(`toolroom test: ${message}`);
  process.exit(2);
}

function runStep(step) {
  const from = performance.now();
  running.set(step.name, step.weight);
  console.log(`${clock()}  ▶ ${step.name}: ${step.cmd.map((part) => path.relative(root, part) || part).join(" ")}`);
  // Through a shell that, once the step is done, reports the CPU time of everything it ran
  // (cutime + cstime of /proc: waited-for descendants included), so the table says where the cores went.
  const report = fs.existsSync("/proc/self/stat") ? 'code=0; "$@" || code=$?; cut -d" " -f16,17 /proc/$$/stat >&3; exit $code' : '"$@"';
  const child = spawn("sh", ["-c", report, "sh", ...step.cmd], {
    cwd: root,
    env: { ...process.env, FORCE_COLOR: "0", ...step.env },
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  let ticks = "";
  child.stdio[3].on("data", (chunk) => (ticks += chunk));
  const output = [];
  child.stdout.on("data", (chunk) => output.push(chunk));
  child.stderr.on("data", (chunk) => output.push(chunk));
  child.on("error", (error) => output.push(Buffer.from(`${error.message}\n`)));
  child.on("close", (code) => {
    running.delete(step.name);
    const status = code === 0 ? "passed" : "failed";
    const [user, system] = ticks.trim().split(" ").map(Number);
    results.set(step.name, { status, seconds: seconds(from), cpu: Number.isFinite(user + system) ? (user + system) / CLOCK_TICKS : null });
    const text = Buffer.concat(output).toString().trimEnd();
    console.log(`\n──── ${step.name} ${status} in ${seconds(from).toFixed(1)} s ${"─".repeat(40)}`);
    if (text) console.log(text);
    console.log(`──── end of ${step.name} ${"─".repeat(50)}\n`);
    schedule();
  });
}

function schedule() {
  for (const step of STEPS) {
    if (!selected.has(step.name) || results.has(step.name) || running.has(step.name)) continue;
    const needs = step.needs ?? [];
    if (needs.some((need) => results.get(need)?.status !== undefined && results.get(need).status !== "passed")) {
      results.set(step.name, { status: "skipped", seconds: 0 });
      console.log(`${clock()}  ✗ ${step.name}: skipped (needs ${needs.join(", ")})`);
      continue;
    }
    if (!needs.every((need) => results.get(need)?.status === "passed")) continue;
    const busy = [...running.values()].reduce((sum, weight) => sum + weight, 0);
    // A step heavier than the free cores waits, unless nothing else runs (it then takes them all).
    if (busy > 0 && busy + step.weight > cores) continue;
    runStep(step);
  }
  if (running.size === 0 && [...selected].every((name) => results.has(name))) finish();
}

function finish() {
  console.log("step          result     seconds   cpu-seconds");
  let cpuTotal = 0;
  for (const step of STEPS.filter((s) => selected.has(s.name))) {
    const { status, seconds: s, cpu } = results.get(step.name);
    cpuTotal += cpu ?? 0;
    console.log(
      `${step.name.padEnd(13)} ${status.padEnd(9)} ${s.toFixed(1).padStart(8)} ${(cpu === null || cpu === undefined ? "–" : cpu.toFixed(0)).padStart(13)}`,
    );
  }
  console.log(`${"total (wall)".padEnd(23)} ${seconds(started).toFixed(1).padStart(8)} ${cpuTotal.toFixed(0).padStart(13)}`);
  // A step's cpu-seconds are those of the processes it waited for; Chromium's renderers and helpers
  // are not among them (they are reaped by their zygote), so the whole machine is counted too.
  const machine = machineCpuSeconds();
  if (machine !== null && machineAtStart !== null) {
    const wall = seconds(started);
    console.log(
      `machine: ${(machine - machineAtStart).toFixed(0)} cpu-seconds in ${wall.toFixed(0)} s on ${cores} cores (${(((machine - machineAtStart) / (wall * cores)) * 100).toFixed(0)} % busy; every process, the browsers' included)`,
    );
  }
  const tests = summarizeTests(reports, root);
  fs.rmSync(reports, { recursive: true, force: true });
  if (tests) {
    console.log("\nslowest test files   seconds");
    for (const { step, file, seconds: s } of tests.slowest) console.log(`  ${`${step}: ${file}`.padEnd(52)} ${s.toFixed(1).padStart(7)}`);
    // Last, so the tail of a CI log names what failed.
    if (tests.flaky.length) console.log(`\npassed on a retry (flaky):\n${tests.flaky.map((t) => `  ${t}`).join("\n")}`);
    if (tests.failures.length) console.log(`\nfailed:\n${tests.failures.map((t) => `  ${t}`).join("\n")}`);
    console.log(`\ntests: ${tests.passed} passed, ${tests.failed} failed${tests.skipped ? `, ${tests.skipped} skipped` : ""}`);
  }
  process.exit([...results.values()].every((r) => r.status === "passed") ? 0 : 1);
}

schedule();
