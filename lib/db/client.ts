import "server-only";
import fs from "node:fs";
import type { PrismaClient } from "@/generated/prisma/client";
import { createClient } from "./engines";
import { DatabaseFault, databaseFaultOf, faultMessage } from "./faults";
import { databaseFile, databaseKind, databaseUrl } from "./url";

interface Opened {
  client: PrismaClient;
  /** A write failed for a full disk; the log is truncated at the next query that succeeds. */
  diskWasFull: boolean;
  /** The SQLite file; empty on PostgreSQL, whose server keeps its own files. */
  file: string;
  /** The file's identity when first seen; SQLite keeps the file it opened, whatever the path names later. */
  identity: { dev: number; ino: number } | null;
  checkedAt: number;
  moved: boolean;
}

const cache = globalThis as unknown as { __toolroomDb?: Opened };

/** How long one look at the file is trusted: a stat per query would be wasted on a busy turn. */
const CHECK_EVERY_MS = 1000;

/**
 * One client per process (dev-server reloads would otherwise open a new connection each time).
 * A file deleted or replaced under the running server still answers reads from the deleted copy
 * and refuses writes (SQLITE_READONLY_DBMOVED), so every query is refused alike once that happens.
 */
export function db(): PrismaClient {
  const url = databaseUrl();
  cache.__toolroomDb ??= open(url);
  const opened = cache.__toolroomDb;
  if (opened.file && url.replace(/^file:/, "") !== ":memory:") checkFile(opened, Date.now());
  return opened.client;
}

function open(url: string): Opened {
  if (databaseKind(url) === "postgresql") return { client: createClient(url), diskWasFull: false, file: "", identity: null, checkedAt: 0, moved: false };
  const base = createClient(url);
  const opened: Opened = { client: base, diskWasFull: false, file: databaseFile(url), identity: null, checkedAt: 0, moved: false };
  let truncating = false;
  // After a full disk the write-ahead log keeps the size it grew to (SQLite reuses it, never
  // shrinks it): once a query succeeds again, space is back, and a TRUNCATE checkpoint returns it.
  const truncateLog = () => {
    truncating = true;
    base
      .$queryRawUnsafe<{ busy: bigint | number }[]>("PRAGMA wal_checkpoint(TRUNCATE)")
      .then(
        ([result]) => {
          if (Number(result?.busy ?? 1) === 0) opened.diskWasFull = false;
        },
        () => {},
      )
      .finally(() => {
        truncating = false;
      });
  };
  const client = base.$extends({
    query: {
      async $allOperations({ args, query }): Promise<unknown> {
        try {
          const result: unknown = await query(args);
          if (opened.diskWasFull && !truncating) truncateLog();
          return result;
        } catch (error) {
          if (databaseFaultOf(error, opened.file)?.kind === "full") opened.diskWasFull = true;
          throw error;
        }
      },
    },
  });
  // The extension changes no query's type; the app keeps using the plain client's.
  opened.client = client as unknown as PrismaClient;
  return opened;
}

function checkFile(opened: Opened, now: number): void {
  if (!opened.moved && now - opened.checkedAt >= CHECK_EVERY_MS) {
    opened.checkedAt = now;
    const st = fs.statSync(opened.file, { throwIfNoEntry: false });
    if (!opened.identity) opened.identity = st ? { dev: st.dev, ino: st.ino } : null;
    else opened.moved = !st || st.dev !== opened.identity.dev || st.ino !== opened.identity.ino;
  }
  if (opened.moved) throw new DatabaseFault("moved", faultMessage("moved", opened.file));
}
