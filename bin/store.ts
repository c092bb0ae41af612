import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import path from "node:path";
import { withMigrationLock } from "@/lib/db/migration-lock";
import { storeNeedsMigrating } from "@/lib/db/migrations-status";
import { databaseFile, databaseUrl, databaseKind } from "@/lib/db/url";
import { findInstallDir } from "@/lib/settings/install-dir";
import { CliExit } from "./context";
import { counted } from "./counted";

/** Where this Toolroom keeps its migrations and the script that applies them (not the working folder's). */
export function installed(): { migrations: string; migrate: string } {
  const dir = findInstallDir() ?? process.cwd();
  return { migrations: path.join(dir, "prisma", "migrations"), migrate: path.join(dir, "scripts", "migrate.mjs") };
}

/**
 * Before a command that reads or writes the store: applies the migrations it lacks, as `npm start`
 * does, so the first `npx toolroom mcp login` on a new database works instead of failing on a
 * missing table. Nothing runs when none is pending; concurrent first runs wait for each other.
 */
export async function prepareStore(): Promise<void> {
  const url = databaseUrl();
  try {
    databaseKind(url);
  } catch (error) {
    throw new CliExit(2, `toolroom: ${(error as Error).message}`);
  }
  if (url.replace(/^file:/, "") === ":memory:") return;
  const { migrations, migrate } = installed();
  if (!(await storeNeedsMigrating(url, migrations))) return;
  const shown = databaseKind(url) === "postgresql" ? "the PostgreSQL database" : databaseFile(url);
  let run: SpawnSyncReturns<string> | null;
  try {
    // Another process may have applied them while this one waited for the lock.
    run = await withMigrationLock(url, async () =>
      (await storeNeedsMigrating(url, migrations))
        ? spawnSync(process.execPath, [migrate, "deploy"], { env: { ...process.env, DATABASE_URL: url }, encoding: "utf8" })
        : null,
    );
  } catch (error) {
    throw new CliExit(1, `toolroom: could not set up ${shown}: ${(error as Error).message}`);
  }
  if (!run) return;
  const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
  if (run.status !== 0) {
    const reason = /^migrate: (.*)$/m.exec(output)?.[1] ?? (run.error?.message || `scripts/migrate.mjs exited ${run.status}`);
    throw new CliExit(1, `toolroom: could not set up ${shown}: ${reason}`);
  }
  const applied = /^migrate: applied (.*)$/m.exec(output)?.[1];
  if (applied) console.error(`toolroom: applied ${counted(applied.split(", ").length, "migration")} to ${shown}`);
}
