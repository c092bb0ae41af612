import "server-only";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/generated/prisma/client";
import { databaseUrl } from "./url";

const cache = globalThis as unknown as { __toolroomPrisma?: PrismaClient };

/** One client per process; dev-server reloads would otherwise open a new connection each time. */
export function db(): PrismaClient {
  cache.__toolroomPrisma ??= new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: databaseUrl() }) });
  return cache.__toolroomPrisma;
}
