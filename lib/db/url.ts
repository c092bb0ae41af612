import path from "node:path";

/** The SQLite file the app uses; `DATABASE_URL` overrides the default. */
export function databaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATABASE_URL ?? "file:./data/toolroom.db";
}

/** The database as a person would name it in the footer or `toolroom doctor`. */
export function describeDatabase(env: NodeJS.ProcessEnv = process.env): string {
  return `SQLite ${databaseUrl(env).replace(/^file:/, "")}`;
}

/** The absolute path of the SQLite file a `file:` URL names (relative to the working folder). */
export function databaseFile(url: string, cwd = process.cwd()): string {
  return path.resolve(cwd, url.replace(/^file:/, ""));
}

/** Whether `url` names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}
