import fs from "node:fs";
import Database from "better-sqlite3";
import { databaseFile, databaseKind } from "./url";

export interface MigrationStatus {
  reachable: boolean;
  applied: string[];
  pending: string[];
  error?: string;
}

/** Compares the committed migrations with the database's `_prisma_migrations` table. */
export function migrationStatus(file: string, migrationsDir: string): MigrationStatus {
  const committed = fs.existsSync(migrationsDir)
    ? fs
        .readdirSync(migrationsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  if (!fs.existsSync(file)) return { reachable: false, applied: [], pending: committed, error: `${file} does not exist (npm start creates it)` };
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type='table' AND name='_prisma_migrations'").get();
    const applied = table
      ? (
          db.prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL").all() as {
            migration_name: string;
          }[]
        ).map((r) => r.migration_name)
      : [];
    return { reachable: true, applied, pending: committed.filter((m) => !applied.includes(m)) };
  } catch (error) {
    return { reachable: false, applied: [], pending: committed, error: (error as Error).message };
  } finally {
    db?.close();
  }
}

/**
 * Whether the store `url` names lacks a committed migration (a SQLite file not created yet lacks
 * them all): the check the CLI makes before every command that uses the store, cheap when the answer is no.
 * A PostgreSQL URL is always answered yes for now: scripts/migrate.mjs finds out, under its lock.
 */
export async function storeNeedsMigrating(url: string, migrationsDir: string): Promise<boolean> {
  if (databaseKind(url) === "postgresql") return true;
  const status = migrationStatus(databaseFile(url), migrationsDir);
  return !status.reachable || status.pending.length > 0;
}
