import path from "node:path";
import { databaseKind, databaseUrl, describePostgres } from "./database-url.mjs";

export { databaseKind, databaseUrl, DatabaseUrlError } from "./database-url.mjs";

/** The database as a person would name it in the footer or `toolroom doctor`. */
export function describeDatabase(env: NodeJS.ProcessEnv = process.env): string {
  const url = databaseUrl(env);
  return databaseKind(url) === "postgresql" ? `PostgreSQL ${describePostgres(url)}` : `SQLite ${url.replace(/^file:/, "")}`;
}

/** The absolute path of the SQLite file a `file:` URL names (relative to the working folder). */
export function databaseFile(url: string, cwd = process.cwd()): string {
  return path.resolve(cwd, url.replace(/^file:/, ""));
}

/**
 * Makes the settings' `database.url` the process's store when DATABASE_URL does not name one (the
 * server, the migrations and child processes all read DATABASE_URL), and refuses a URL that is
 * neither SQLite nor PostgreSQL before anything opens it.
 */
export function adoptDatabaseUrl(fromSettings: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  if (!env.DATABASE_URL && !env.TOOLROOM_DATABASE__URL && fromSettings) env.DATABASE_URL = fromSettings;
  databaseKind(databaseUrl(env));
}
