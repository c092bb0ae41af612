// Which engine a database URL names. Plain JavaScript so that scripts/migrate.mjs (run by plain
// node, before any TypeScript loader) and lib/db read a URL the same way.

/** The embedded default: a SQLite file in the working folder. */
export const DEFAULT_DATABASE_URL = "file:./data/toolroom.db";

export class DatabaseUrlError extends Error {
  name = "DatabaseUrlError";
}

/** `DATABASE_URL`, else the settings' `database.url` as its environment variable, else the SQLite default. */
export function databaseUrl(env = process.env) {
  return env.DATABASE_URL || env.TOOLROOM_DATABASE__URL || DEFAULT_DATABASE_URL;
}

/** "sqlite" for `file:`, "postgresql" for `postgresql:` / `postgres:`; anything else is refused. */
export function databaseKind(url) {
  if (/^file:/i.test(url)) return "sqlite";
  if (/^postgres(ql)?:\/\//i.test(url)) return "postgresql";
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  throw new DatabaseUrlError(
    `DATABASE_URL ${scheme ? `names a ${scheme}: database` : `"${maskPassword(url)}" is not a URL`}; Toolroom stores its data in SQLite ` +
      `(file:./data/toolroom.db) or PostgreSQL (postgresql://user@host:5432/database).`,
  );
}

/** The URL with its password, if any, replaced: safe to print. */
export function maskPassword(url) {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, "$1***@");
}

/** host:port/database of a PostgreSQL URL, as a person names it. */
export function describePostgres(url) {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}${parsed.pathname}`;
  } catch {
    return maskPassword(url);
  }
}
