/**
 * `npx toolroom serve` from the npm package (issue CC: the first page within 15 s of the command
 * on this 2-core machine). Packs this checkout (scripts/pack.mjs, then `npm pack`), installs the
 * tarball into an empty folder, and times, per round, the command's start to the first 200 of
 * /tools: cold (a new data folder: the migrations are applied first) and warm (the same database
 * again). The baseline, in the same rounds: the clone's own build served by `next start` (as
 * `npm start` does once its checks are done) on a migrated database, to the same first /tools.
 * Appends a section to bench/RESULTS.md.
 * Run: npx tsx bench/serve-start.ts   (after `npm run build`)
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { nextStartArgs, withTelemetryOff } from "../scripts/next-env.mjs";

const ROUNDS = 5;
const GOAL_MS = 15_000;
const ROOT = path.resolve(import.meta.dirname, "..");

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(cmd, args, { cwd, env, encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const address = s.address();
      s.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Milliseconds from `start()` to the first 200 of /tools, then the server is stopped. */
async function firstPage(start: (port: number) => ChildProcess): Promise<number> {
  const port = await freePort();
  const began = performance.now();
  const child = start(port);
  let output = "";
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited ${child.exitCode}:\n${output}`);
      const status = await fetch(`http://127.0.0.1:${port}/tools`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return performance.now() - began;
      if (performance.now() - began > 120_000) throw new Error(`no /tools in 120 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    const ended = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    await ended;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const work = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-serve-bench-"));
try {
  run(process.execPath, ["scripts/pack.mjs"], ROOT);
  const [packed] = JSON.parse(run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], ROOT)) as { filename: string; size: number }[];
  if (!packed) throw new Error("npm pack made no tarball");
  const folder = path.join(work, "folder");
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, "package.json"), '{ "name": "bench-folder", "private": true }\n');
  run("npm", ["install", "--no-audit", "--no-fund", "--offline", path.join(work, packed.filename)], folder);
  fs.rmSync(path.join(ROOT, "dist"), { recursive: true, force: true });

  const env = (extra: Record<string, string>): NodeJS.ProcessEnv => {
    const out: NodeJS.ProcessEnv = { ...withTelemetryOff(process.env), ...extra };
    for (const name of Object.keys(out)) if ((name.startsWith("TOOLROOM_") || name === "DATABASE_URL") && !(name in extra)) delete out[name];
    return out;
  };
  const bin = path.join(folder, "node_modules", ".bin", "toolroom");
  const serve = (data: string) => (port: number) =>
    spawn(bin, ["serve", "--port", String(port)], { cwd: folder, env: env({ XDG_DATA_HOME: data }), stdio: ["ignore", "pipe", "pipe"] });
  const cloneDb = path.join(work, "clone.db");
  run(process.execPath, ["scripts/migrate.mjs", "deploy"], ROOT, env({ DATABASE_URL: `file:${cloneDb}` }));
  const clone = (port: number) =>
    spawn(process.execPath, nextStartArgs(ROOT, "-H", "127.0.0.1", "-p", String(port)), {
      cwd: ROOT,
      env: env({ DATABASE_URL: `file:${cloneDb}` }),
      stdio: ["ignore", "pipe", "pipe"],
    });

  const cold: number[] = [];
  const warm: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const data = path.join(work, `data-${round}`);
    baseline.push(await firstPage(clone));
    cold.push(await firstPage(serve(data)));
    warm.push(await firstPage(serve(data)));
    console.log(
      `round ${round + 1}: clone next start ${baseline.at(-1)?.toFixed(0)} ms, serve cold ${cold.at(-1)?.toFixed(0)} ms, warm ${warm.at(-1)?.toFixed(0)} ms`,
    );
  }
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const unpacked = Number(run("du", ["-sb", path.join(folder, "node_modules", "toolroom")], ROOT).split("\t")[0]);
  const section = `
## \`npx toolroom serve\` from the package (bench/serve-start.ts)

${new Date().toISOString().slice(0, 10)}, load average ${load} (${os.availableParallelism()} cores), ${ROUNDS} rounds (median). The package:
${mb(packed.size)} MB packed (goal ≤ 40 MB), ${mb(unpacked)} MB installed. From the command's start to the first 200 of \`/tools\`.

| start | first /tools, ms (median) | vs the clone's \`next start\` |
|---|---:|---:|
| clone: \`next start\` of its build, database migrated (baseline) | ${median(baseline).toFixed(0)} | 1.00× |
| package: \`toolroom serve\`, new data folder (migrations applied) | ${median(cold).toFixed(0)} | ${(median(cold) / median(baseline)).toFixed(2)}× |
| package: \`toolroom serve\` again, same database | ${median(warm).toFixed(0)} | ${(median(warm) / median(baseline)).toFixed(2)}× |

Goal: the first page ≤ ${GOAL_MS / 1000} s after the command — ${(median(cold) / 1000).toFixed(1)} s cold (${median(cold) <= GOAL_MS ? "met" : "not met"}).
`;
  console.log(section);
  fs.appendFileSync(path.join(ROOT, "bench", "RESULTS.md"), section);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
