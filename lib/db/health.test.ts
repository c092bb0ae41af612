import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databaseFileProblem } from "./health";

// What `toolroom doctor` reports for each database fault, on real files. A read-only or full
// filesystem needs a mount as root (a small tmpfs); elsewhere the read-only case uses chmod and
// the full-disk case is skipped.
const root = process.getuid?.() === 0;
let dir: string;
let mounted = false;

function mountTmpfs(size: string): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
    mounted = true;
    return true;
  } catch {
    return false;
  }
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-db-health-"));
});
afterEach(() => {
  if (mounted) execFileSync("umount", [dir]);
  mounted = false;
  fs.chmodSync(dir, 0o755);
  fs.rmSync(dir, { recursive: true, force: true });
});

function makeDb(file: string): void {
  const db = new Database(file);
  db.exec("CREATE TABLE t (x)");
  db.close();
}

describe("databaseFileProblem", () => {
  it("passes a writable file on a disk with room", () => {
    const file = path.join(dir, "ok.db");
    makeDb(file);
    expect(databaseFileProblem(file)).toBeNull();
  });

  it("finds a process still holding the removed database file", () => {
    const file = path.join(dir, "held.db");
    makeDb(file);
    const held = new Database(file);
    try {
      held.prepare("SELECT count(*) FROM t").get();
      fs.unlinkSync(file);
      expect(databaseFileProblem(file)).toBe(
        `The database file ${file} was removed or replaced while Toolroom was running; nothing was saved. Restart Toolroom (npm start) to open the file again. (still open in process ${process.pid})`,
      );
    } finally {
      held.close();
    }
    expect(databaseFileProblem(file)).toBeNull();
  });

  it("reports a read-only database", () => {
    if (root) expect(mountTmpfs("1m")).toBe(true);
    const file = path.join(dir, "ro.db");
    makeDb(file);
    if (root) execFileSync("mount", ["-o", "remount,ro", dir]);
    else {
      fs.chmodSync(file, 0o444);
      fs.chmodSync(dir, 0o555);
    }
    expect(databaseFileProblem(file)).toBe(
      `The database file ${file} is read-only, so nothing could be saved; make the file and its folder writable, then retry.`,
    );
  });

  it.skipIf(!root)("reports a full disk (a 256 KiB tmpfs, filled)", () => {
    expect(mountTmpfs("256k")).toBe(true);
    const file = path.join(dir, "full.db");
    makeDb(file);
    try {
      fs.writeFileSync(path.join(dir, "filler"), Buffer.alloc(1024 * 1024));
    } catch {
      // ENOSPC: the disk is now full, which is the point.
    }
    expect(databaseFileProblem(file)).toMatch(
      new RegExp(
        `^The disk holding the database file ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is full, so nothing was saved; free some space, then retry\\. \\(\\d+ KiB free\\)$`,
      ),
    );
  });
});
