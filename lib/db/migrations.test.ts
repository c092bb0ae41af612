import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const script = path.resolve(import.meta.dirname, "../../scripts/migrate.mjs");

describe("prisma/migrations", () => {
  // Branches add migrations side by side; Prisma's SQLite table rebuilds can silently drop a column
  // another migration added. The migrations, applied in order, must give exactly the schema.
  it("build exactly prisma/schema.prisma, and checking opens no database (it leaves no data/ folder behind)", () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-migrations-cwd-"));
    try {
      const { DATABASE_URL: _unset, ...env } = process.env;
      const run = spawnSync(process.execPath, [script, "check"], { encoding: "utf8", cwd, env });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect(fs.readdirSync(cwd)).toEqual([]);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });

  it("the check fails, showing the difference, when a migration drops a column the schema has", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-migrations-"));
    try {
      fs.cpSync(path.resolve(import.meta.dirname, "../../prisma"), path.join(dir, "prisma"), { recursive: true });
      fs.mkdirSync(path.join(dir, "prisma", "migrations", "29991231000000_drop"));
      fs.writeFileSync(path.join(dir, "prisma", "migrations", "29991231000000_drop", "migration.sql"), 'ALTER TABLE "Chat" DROP COLUMN "title";\n');
      const run = spawnSync(process.execPath, [script, "check", path.join(dir, "prisma")], { encoding: "utf8" });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("do not build prisma/schema.prisma");
      expect(run.stderr).toContain("title");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // Two engines, one history: a migration written for one engine alone is a drift the check names.
  it("the check fails when a SQLite migration has no PostgreSQL twin of the same name", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-migrations-"));
    try {
      fs.cpSync(path.resolve(import.meta.dirname, "../../prisma"), path.join(dir, "prisma"), { recursive: true });
      fs.mkdirSync(path.join(dir, "prisma", "migrations", "29991231000000_sqlite_only"));
      fs.writeFileSync(path.join(dir, "prisma", "migrations", "29991231000000_sqlite_only", "migration.sql"), "SELECT 1;\n");
      const run = spawnSync(process.execPath, [script, "check", path.join(dir, "prisma")], { encoding: "utf8" });
      expect(run.stderr).toContain("29991231000000_sqlite_only has no PostgreSQL twin");
      expect(run.status).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // Before: a postgresql:// or any other URL was taken as a SQLite path, and a folder "postgresql:" appeared.
  it("deploy refuses a URL that names neither SQLite nor PostgreSQL, and creates nothing", () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-migrations-cwd-"));
    try {
      const run = spawnSync(process.execPath, [script, "deploy"], {
        encoding: "utf8",
        cwd,
        env: { ...process.env, DATABASE_URL: "mysql://root@127.0.0.1/toolroom" },
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain("names a mysql: database");
      expect(fs.readdirSync(cwd)).toEqual([]);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});
