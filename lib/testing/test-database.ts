import { randomBytes } from "node:crypto";
import { afterAll } from "vitest";
import pg from "pg";

/** The server the PostgreSQL test runs use (CI starts it; trust auth on loopback). */
export const TEST_POSTGRES_SERVER = process.env.TOOLROOM_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** Which engine this test run stores in: the storage suite runs once on each. */
export function testEngine(): "sqlite" | "postgresql" {
  return process.env.TOOLROOM_TEST_ENGINE === "postgresql" ? "postgresql" : "sqlite";
}

/**
 * The URL of a database no one else uses, on the test server; `scripts/migrate.mjs deploy` creates
 * it (as it would a team's new database), and it is dropped when the test file ends.
 */
export function throwawayPostgresDatabase(prefix: string): string {
  const name = `toolroom_test_${prefix
    .replace(/[^a-z0-9]+/gi, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase()}_${randomBytes(4).toString("hex")}`;
  const url = new URL(TEST_POSTGRES_SERVER);
  url.pathname = `/${name}`;
  afterAll(async () => {
    // The app's pool first, so dropping the database does not cut connections still in use.
    await (globalThis as { __toolroomDb?: { client: { $disconnect(): Promise<void> } } }).__toolroomDb?.client.$disconnect();
    await dropPostgresDatabase(name);
  });
  return url.toString();
}

export async function dropPostgresDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_SERVER });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
