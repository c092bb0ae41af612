import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { databaseFile, databaseKind } from "./url";

/** Long enough for any migration; a waiter that gives up says so instead of racing. */
const WAIT_MS = 120_000;

/**
 * Runs `run` (the migrations) while no other process of this machine migrates the same SQLite
 * file: two commands started at once on a fresh file would otherwise both create the tables, and
 * one fail. The lock is SQLite's own, an exclusive transaction on `<file>-migrate-lock` beside the
 * database, so the kernel releases it when its holder dies, even by kill -9: no stale lock to clear.
 * PostgreSQL needs none here: scripts/migrate.mjs takes its advisory lock itself.
 */
export async function withMigrationLock<T>(url: string, run: () => Promise<T>): Promise<T> {
  if (databaseKind(url) === "postgresql") return run();
  const file = databaseFile(url);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lock = new Database(`${file}-migrate-lock`, { timeout: WAIT_MS });
  try {
    try {
      lock.exec("BEGIN EXCLUSIVE");
    } catch (error) {
      throw new Error(`another process has been setting up ${file} for ${WAIT_MS / 1000} s (${(error as Error).message}); retry when it is done`);
    }
    return await run();
  } finally {
    lock.close();
  }
}
