// The Prisma client for a database URL: the embedded SQLite file or a PostgreSQL server. Not
// `server-only`: the CLI (outside React's server environment) opens the store through it too.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PostgresClient } from "@/generated/prisma-pg/client";
import { databaseKind } from "./url";

/** Connections one process keeps to PostgreSQL; N instances and M workers share the server's max_connections (100 by default). */
const POOL_SIZE = 10;
/** A server that does not answer is reported (503) instead of holding the request. */
const CONNECT_TIMEOUT_MS = 5000;

export function createClient(url: string): PrismaClient {
  if (databaseKind(url) === "sqlite") return new PrismaClient({ adapter: walAdapter(url) });
  const adapter = new PrismaPg(
    { connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
    // An idle connection the server closed (a restart) is dropped by the pool; the next query opens a new one.
    { onPoolError: (error) => console.error(`toolroom: a PostgreSQL connection was closed: ${error.message}`) },
  );
  // Both clients are generated from one schema (prisma/postgresql/schema.prisma is derived from
  // prisma/schema.prisma), so their models and queries are the same; the app is typed against one.
  return new PostgresClient({ adapter }) as unknown as PrismaClient;
}

/**
 * SQLite in write-ahead-log mode with `synchronous = NORMAL`: a commit appends to the log without
 * waiting for the disk (checkpoints do), where the default rollback journal waits for it several
 * times per commit: ~25 ms a write on a busy disk, paid before a chat answer could start. A commit
 * still survives the app crashing; only a power cut may lose the last few.
 */
function walAdapter(url: string): PrismaBetterSqlite3 {
  const factory = new PrismaBetterSqlite3({ url });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    await adapter.executeScript("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    return adapter;
  };
  return factory;
}
