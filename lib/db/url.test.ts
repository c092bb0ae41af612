import { describe, expect, it } from "vitest";

const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;
import { adoptDatabaseUrl, databaseKind, databaseUrl, DatabaseUrlError, describeDatabase } from "./url";

describe("the database URL", () => {
  it("names SQLite with file: and PostgreSQL with postgresql: or postgres:", () => {
    expect(databaseKind("file:./data/toolroom.db")).toBe("sqlite");
    expect(databaseKind("postgresql://team@db.internal:5432/toolroom")).toBe("postgresql");
    expect(databaseKind("postgres://team@127.0.0.1/toolroom")).toBe("postgresql");
  });

  // Before: every URL was read as a SQLite path, and postgresql://… made a folder "postgresql:".
  it("refuses any other scheme, or a bare path, naming both engines and never the password", () => {
    for (const url of ["mysql://root:hunter2@127.0.0.1/toolroom", "./data/toolroom.db", "sqlite:toolroom.db", "postgresql:relative"]) {
      expect(() => databaseKind(url)).toThrow(DatabaseUrlError);
    }
    expect(() => databaseKind("mysql://root:hunter2@127.0.0.1/toolroom")).toThrow(/mysql: database.*SQLite.*PostgreSQL/);
    expect(() => databaseKind("https://u:hunter2@x/y")).not.toThrow(/hunter2/);
  });

  it("takes DATABASE_URL, then TOOLROOM_DATABASE__URL (the settings' database.url), then the SQLite default", () => {
    expect(databaseUrl(env({}))).toBe("file:./data/toolroom.db");
    expect(databaseUrl(env({ TOOLROOM_DATABASE__URL: "postgresql://a@b/c" }))).toBe("postgresql://a@b/c");
    expect(databaseUrl(env({ DATABASE_URL: "file:x.db", TOOLROOM_DATABASE__URL: "postgresql://a@b/c" }))).toBe("file:x.db");
  });

  it("adopts the settings file's database.url only when no variable names a store, and refuses a bad one", () => {
    const fresh = env({});
    adoptDatabaseUrl("postgresql://team@127.0.0.1:5432/toolroom", fresh);
    expect(fresh.DATABASE_URL).toBe("postgresql://team@127.0.0.1:5432/toolroom");
    const set = env({ DATABASE_URL: "file:kept.db" });
    adoptDatabaseUrl("postgresql://x@y/z", set);
    expect(set.DATABASE_URL).toBe("file:kept.db");
    expect(() => adoptDatabaseUrl("redis://127.0.0.1", env({}))).toThrow(DatabaseUrlError);
  });

  it("describes PostgreSQL by host, port and database, without credentials", () => {
    expect(describeDatabase(env({ DATABASE_URL: "postgresql://team:s3cret@db.internal/toolroom" }))).toBe("PostgreSQL db.internal:5432/toolroom");
    expect(describeDatabase(env({ DATABASE_URL: "file:./data/toolroom.db" }))).toBe("SQLite ./data/toolroom.db");
  });
});
