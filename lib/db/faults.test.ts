import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DatabaseFault, databaseFaultOf } from "./faults";

// Real faults of a real SQLite file in a temp folder, through the app's own Prisma client.
// Disk full is provoked with SQLite's `PRAGMA max_page_count` (the file may not grow), which
// answers SQLITE_FULL exactly as a full disk does; no tmpfs or root needed.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolroom-db-faults-"));
const file = path.join(dir, "test.db");
process.env.DATABASE_URL = `file:${file}`;

let queries: typeof import("./queries");
let client: typeof import("./client");
let route: typeof import("@/lib/server/http/route");

const chat = (id: string, title = "t") => ({ id, title, modelRef: "offline", toolMode: "native" as const, supervised: true });

async function faultOf(promise: Promise<unknown>): Promise<DatabaseFault> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  const fault = databaseFaultOf(error, file);
  expect(fault, String(error)).toBeInstanceOf(DatabaseFault);
  return fault!;
}

async function answer(error: unknown): Promise<{ status: number; body: { error: string; code: string } }> {
  const response = route.errorResponse(error);
  return { status: response.status, body: (await response.json()) as { error: string; code: string } };
}

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/migrate.mjs", "deploy"], { env: process.env, stdio: "pipe" });
  queries = await import("./queries");
  client = await import("./client");
  route = await import("@/lib/server/http/route");
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// The cases share one server-like client and run in order: the file is removed last.
describe("database faults", () => {
  it("disk full (SQLITE_FULL) is a 503 saying so, and the failed write leaves nothing behind", async () => {
    await queries.createChat(chat("before-full"));
    const [row] = await client.db().$queryRawUnsafe<{ page_count: bigint }[]>("PRAGMA page_count");
    await client.db().$queryRawUnsafe(`PRAGMA max_page_count = ${Number(row?.page_count)}`);
    try {
      const fault = await faultOf(queries.createChat(chat("too-big", "x".repeat(200_000))));
      expect(fault.kind).toBe("full");
      const { status, body } = await answer(fault);
      expect(status).toBe(503);
      expect(body).toEqual({
        code: "database_unavailable",
        error: `The disk holding the database file ${file} is full, so nothing was saved; free some space, then retry.`,
      });
    } finally {
      await client.db().$queryRawUnsafe("PRAGMA max_page_count = 1073741823");
    }
    expect(await queries.getChat("too-big")).toBeNull();
    expect((await queries.listChats()).map((c) => c.id)).toEqual(["before-full"]);
  });

  it("once space is back after a full disk, the write-ahead log is truncated (it keeps its size otherwise)", async () => {
    const wal = `${file}-wal`;
    for (let i = 0; i < 20; i++) await queries.createChat(chat(`wal-${i}`, "w".repeat(20_000)));
    expect(fs.statSync(wal).size).toBeGreaterThan(100_000);
    const [row] = await client.db().$queryRawUnsafe<{ page_count: bigint }[]>("PRAGMA page_count");
    await client.db().$queryRawUnsafe(`PRAGMA max_page_count = ${Number(row?.page_count)}`);
    try {
      await faultOf(queries.createChat(chat("too-big-again", "x".repeat(200_000))));
    } finally {
      await client.db().$queryRawUnsafe("PRAGMA max_page_count = 1073741823");
    }
    await queries.listChats();
    await expect.poll(() => fs.statSync(wal).size).toBe(0);
    for (let i = 0; i < 20; i++) await queries.deleteChat(`wal-${i}`);
  });

  it("a read-only database (SQLITE_READONLY) is a 503 saying so", async () => {
    // A connection opened read-only gets the very error a read-only file or mount gives.
    const readonly = new Database(file, { readonly: true });
    let error: unknown;
    try {
      readonly.prepare("DELETE FROM Chat").run();
    } catch (e) {
      error = e;
    } finally {
      readonly.close();
    }
    expect((error as { code?: string }).code).toBe("SQLITE_READONLY");
    const { status, body } = await answer(error);
    expect(status).toBe(503);
    expect(body.error).toBe(`The database file ${file} is read-only, so nothing could be saved; make the file and its folder writable, then retry.`);
    // Through Prisma the code sits in the driver adapter's error.
    await client.db().$queryRawUnsafe("PRAGMA query_only = 1");
    try {
      expect((await faultOf(queries.createChat(chat("while-readonly")))).kind).toBe("readonly");
    } finally {
      await client.db().$queryRawUnsafe("PRAGMA query_only = 0");
    }
  });

  it("a database file removed under the running server refuses reads and writes alike (not the deleted copy)", async () => {
    expect((await queries.listChats()).length).toBe(1);
    fs.unlinkSync(file);
    // The file's identity is looked at most once a second.
    await new Promise((r) => setTimeout(r, 1100));
    for (const attempt of [queries.listChats(), queries.getChat("before-full"), queries.createChat(chat("after-removal"))]) {
      const fault = await faultOf(attempt);
      expect(fault.kind).toBe("moved");
      const { status, body } = await answer(fault);
      expect(status).toBe(503);
      expect(body.error).toBe(
        `The database file ${file} was removed or replaced while Toolroom was running; nothing was saved. Restart Toolroom (npm start) to open the file again.`,
      );
    }
  });

  it("classifies SQLite's own DBMOVED and leaves other errors to the 500 path", async () => {
    expect(databaseFaultOf({ meta: { driverAdapterError: { cause: { originalCode: "SQLITE_READONLY_DBMOVED" } } } }, file)?.kind).toBe("moved");
    expect(databaseFaultOf({ meta: { driverAdapterError: { cause: { originalCode: "SQLITE_CONSTRAINT_PRIMARYKEY" } } } }, file)).toBeNull();
    expect(databaseFaultOf(new TypeError("Cannot open database because the directory does not exist"), file)?.kind).toBe("unopenable");
    const { status, body } = await answer(new Error("boom\nstack"));
    expect(status).toBe(500);
    expect(body).toEqual({ error: "Internal error: boom", code: "internal" });
  });

  it("knows a fault thrown by another copy of this module (Next bundles each route apart; the client lives on globalThis)", async () => {
    vi.resetModules();
    const other = await import("./faults");
    expect(other.DatabaseFault).not.toBe(DatabaseFault);
    const thrown = new other.DatabaseFault("moved", "the file was replaced");
    expect(databaseFaultOf(thrown, file)).toBe(thrown);
    const { status, body } = await answer(thrown);
    expect(status).toBe(503);
    expect(body.error).toBe("the file was replaced");
  });
});
