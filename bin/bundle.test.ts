import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const TOOLROOM = path.join(ROOT, "bin", "toolroom.mjs");
const STAMP = path.join(ROOT, "node_modules", ".cache", "toolroom-cli", "stamp.json");
// A source the bundle is made from (bin/cli.ts imports it): touching it must make a new bundle.
const SOURCE = path.join(ROOT, "bin", "context.ts");
const original = fs.statSync(SOURCE);

function toolroom(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TOOLROOM, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const stamp = () => JSON.parse(fs.readFileSync(STAMP, "utf8")) as { dir: string; inputs: [string, number, number][] };
const version = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

afterEach(() => fs.utimesSync(SOURCE, original.atime, original.mtime));

describe("the CLI's bundle", () => {
  it("is made from the sources the CLI imports, and made again when one of them changes", async () => {
    expect((await toolroom("--version")).stdout.trim()).toBe(version);
    const before = stamp();
    expect(before.inputs.map(([rel]) => rel)).toEqual(expect.arrayContaining(["bin/cli.ts", "bin/context.ts", "tsconfig.json"]));

    fs.utimesSync(SOURCE, new Date(), new Date(original.mtimeMs + 60_000));
    // Several CLIs starting at once on a changed source: each one answers, and one bundle results.
    const runs = await Promise.all([1, 2, 3, 4].map(() => toolroom("--version")));
    for (const run of runs) expect({ code: run.code, out: run.stdout.trim(), err: run.stderr }).toEqual({ code: 0, out: version, err: "" });
    const after = stamp();
    expect(after.dir).not.toBe(before.dir);
    expect(after.inputs.find(([rel]) => rel === "bin/context.ts")?.[1]).toBe(fs.statSync(SOURCE).mtimeMs);
    expect(fs.existsSync(path.join(path.dirname(STAMP), after.dir, "cli.mjs"))).toBe(true);
  }, 60_000);
});
