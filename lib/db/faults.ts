import { describePostgres } from "./database-url.mjs";
import { databaseFile, databaseKind, databaseUrl } from "./url";

export type DatabaseFaultKind = "moved" | "readonly" | "full" | "unopenable" | "busy" | "unreachable";

// Symbol.for is one registry per process: the brand is the same in every copy of this module.
const DATABASE_FAULT = Symbol.for("toolroom.DatabaseFault");

/** The database cannot do what a request needs; the message says why and what to do. */
export class DatabaseFault extends Error {
  override name = "DatabaseFault";
  readonly [DATABASE_FAULT] = true;
  constructor(
    readonly kind: DatabaseFaultKind,
    message: string,
  ) {
    super(message);
  }
}

/** One line per fault: the cause, and the one thing a person does about it. `file` is the SQLite file, or the PostgreSQL server's host:port/database. */
export function faultMessage(kind: DatabaseFaultKind, file: string): string {
  switch (kind) {
    case "unreachable":
      return `The PostgreSQL database ${file} cannot be reached, so nothing was saved; start the server or check DATABASE_URL. Toolroom reconnects by itself once it answers.`;
    case "moved":
      return `The database file ${file} was removed or replaced while Toolroom was running; nothing was saved. Restart Toolroom (npm start) to open the file again.`;
    case "readonly":
      return `The database file ${file} is read-only, so nothing could be saved; make the file and its folder writable, then retry.`;
    case "full":
      return `The disk holding the database file ${file} is full, so nothing was saved; free some space, then retry.`;
    case "unopenable":
      return `The database file ${file} cannot be opened; check that its folder exists and is writable, then restart Toolroom.`;
    case "busy":
      return `The database file ${file} is locked by another process; retry in a moment.`;
  }
}

// SQLite's result codes as better-sqlite3 names them, primary or extended (SQLITE_READONLY_DBMOVED).
const KINDS: [RegExp, DatabaseFaultKind][] = [
  [/^SQLITE_READONLY_DBMOVED$/, "moved"],
  [/^SQLITE_READONLY/, "readonly"],
  [/^SQLITE_FULL$/, "full"],
  [/^SQLITE_CANTOPEN/, "unopenable"],
  [/^SQLITE_(BUSY|LOCKED)/, "busy"],
];

/** The SQLite code inside a better-sqlite3 error or a Prisma error wrapping a driver adapter error. */
function sqliteCodeOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const o = e as { code?: unknown; originalCode?: unknown; meta?: { driverAdapterError?: { cause?: unknown } }; cause?: unknown };
    if (typeof o.originalCode === "string") return o.originalCode;
    if (typeof o.code === "string" && o.code.startsWith("SQLITE_")) return o.code;
    e = o.meta?.driverAdapterError?.cause ?? o.cause;
  }
  return undefined;
}

// What @prisma/adapter-pg calls a server that is down, restarting or full, and the codes and
// messages of pg itself for a connection lost mid-query or never made within the timeout.
const PG_UNREACHABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "DatabaseDoesNotExist"]);
const PG_UNREACHABLE_CODES = /^(57P0[123]|08\d{3}|53300|ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EPIPE)$/;
const PG_UNREACHABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Connection ended unexpectedly|Client has encountered a connection error/;

/** Whether an error (or one it wraps) says the PostgreSQL server cannot be reached. */
function postgresUnreachable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    const o = e as {
      kind?: unknown;
      code?: unknown;
      originalCode?: unknown;
      message?: unknown;
      meta?: { driverAdapterError?: { cause?: unknown } };
      cause?: unknown;
    };
    if (typeof o.kind === "string" && PG_UNREACHABLE_KINDS.has(o.kind)) return true;
    for (const code of [o.code, o.originalCode]) if (typeof code === "string" && PG_UNREACHABLE_CODES.test(code)) return true;
    if (typeof o.message === "string" && PG_UNREACHABLE_MESSAGES.test(o.message)) return true;
    e = o.meta?.driverAdapterError?.cause ?? o.cause;
  }
  return false;
}

/** The store as a fault message names it: the SQLite file, or PostgreSQL's host:port/database. */
function defaultLocation(): string {
  const url = databaseUrl();
  return databaseKind(url) === "postgresql" ? describePostgres(url) : databaseFile(url);
}

/**
 * The fault an error from the database layer stands for, or null when it is not one of the
 * faults a person can fix outside Toolroom (a bug, a constraint, a missing row).
 */
export function databaseFaultOf(error: unknown, file = defaultLocation()): DatabaseFault | null {
  // Not `instanceof`: Next bundles each route apart and the client lives on globalThis, so a fault
  // may come from another route's copy of this class.
  if (typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[DATABASE_FAULT] === true) return error as DatabaseFault;
  if (databaseKind(databaseUrl()) === "postgresql")
    return postgresUnreachable(error) ? new DatabaseFault("unreachable", faultMessage("unreachable", file)) : null;
  const code = sqliteCodeOf(error);
  if (code) {
    const kind = KINDS.find(([pattern]) => pattern.test(code))?.[1];
    return kind ? new DatabaseFault(kind, faultMessage(kind, file)) : null;
  }
  // better-sqlite3 refuses to create a file in a missing folder with a plain TypeError.
  if (error instanceof Error && /^Cannot open database because/.test(error.message)) return new DatabaseFault("unopenable", faultMessage("unopenable", file));
  return null;
}
