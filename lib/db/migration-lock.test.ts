import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Two processes, as two `toolroom` commands started at once: each records when it holds the lock.
const LOCK_MODULE = path.resolve(import.meta.dirname, "migration-lock.ts");

let dir: string;
let log: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-migration-lock-"));
  log = path.join(dir, "log");
  fs.writeFileSync(log, "");
  // Holds the lock until the file `release-<name>` appears (or forever, to be killed).
  fs.writeFileSync(
    path.join(dir, "holder.mts"),
    `import fs from "node:fs";
import { withMigrationLock } from ${JSON.stringify(LOCK_MODULE)};
const [name, url] = process.argv.slice(2);
const note = (line: string) => fs.appendFileSync(${JSON.stringify(log)}, line + "\\n");
note(name + " waiting");
await withMigrationLock(url, async () => {
  note(name + " in");
  while (!fs.existsSync(${JSON.stringify(dir)} + "/release-" + name)) await new Promise((r) => setTimeout(r, 20));
  note(name + " out");
});
`,
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function holder(name: string, url: string): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(dir, "holder.mts"), name, url], { stdio: ["ignore", "ignore", "inherit"] });
  return { child, exited: new Promise((resolve) => child.on("exit", resolve)) };
}

async function logged(line: string): Promise<void> {
  while (!fs.readFileSync(log, "utf8").split("\n").includes(line)) await new Promise((r) => setTimeout(r, 20));
}

describe("withMigrationLock (SQLite)", { timeout: 60_000 }, () => {
  it("lets one process at a time migrate a file, the second after the first is done", async () => {
    fs.writeFileSync(log, "");
    const url = `file:${path.join(dir, "fresh", "a.db")}`;
    const a = holder("A", url);
    await logged("A in");
    const b = holder("B", url);
    await logged("B waiting");
    // B is at the lock (or about to be) while A holds it: release A only now.
    await new Promise((r) => setTimeout(r, 300));
    fs.writeFileSync(path.join(dir, "release-A"), "");
    await logged("B in");
    fs.writeFileSync(path.join(dir, "release-B"), "");
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
    expect(fs.readFileSync(log, "utf8").trim().split("\n")).toEqual(["A waiting", "A in", "B waiting", "A out", "B in", "B out"]);
  });

  it("is released when its holder is killed (kill -9): nothing stale to clear by hand", async () => {
    fs.writeFileSync(log, "");
    const url = `file:${path.join(dir, "b.db")}`;
    const c = holder("C", url);
    await logged("C in");
    c.child.kill("SIGKILL");
    await c.exited;
    const d = holder("D", url);
    await logged("D in");
    fs.writeFileSync(path.join(dir, "release-D"), "");
    expect(await d.exited).toBe(0);
    expect(fs.readFileSync(log, "utf8")).not.toContain("C out");
  });
});
