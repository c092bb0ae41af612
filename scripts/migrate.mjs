// Applies (deploy) or creates (create <name>) Prisma migrations through the schema engine compiled
// to wasm: the Prisma CLI cannot download its native engine here. Writes the standard
// _prisma_migrations table (checksum = sha256 of the file), so the real CLI accepts it later.
//
// Two engines, one history: prisma/schema.prisma (SQLite) is the source, prisma/postgresql/ holds
// the PostgreSQL schema derived from it and its own migrations. `create` writes a migration of the
// same name into both folders; `check` holds both to their schema and to each other.
import "dotenv/config";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";
import { databaseKind, databaseUrl, DatabaseUrlError, describePostgres } from "../lib/db/database-url.mjs";
import { postgresSchema } from "../lib/db/postgres-schema.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [command, name] = process.argv.slice(2);
// `check` may name another prisma folder (its test checks a copy with a bad migration).
const prismaDir = command === "check" && name ? path.resolve(name) : path.join(root, "prisma");
const filters = { externalTables: [], externalEnums: [] };
/** Where `create` and `check` build PostgreSQL shadow databases: a server of the developer's. */
const shadowServer = process.env.TOOLROOM_MIGRATE_SHADOW_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
/** The first PostgreSQL migration holds the whole schema of its day; SQLite's history before it has no PostgreSQL twin. */
const POSTGRES_BASELINE = "20261204120000_postgresql_baseline";

/** Each engine's schema file and migrations folder. */
const engines = {
  sqlite: { schema: path.join(prismaDir, "schema.prisma"), migrations: path.join(prismaDir, "migrations"), provider: "sqlite" },
  postgresql: {
    schema: path.join(prismaDir, "postgresql", "schema.prisma"),
    migrations: path.join(prismaDir, "postgresql", "migrations"),
    provider: "postgresql",
  },
};

function fail(message, code = 1) {
  console.error(`migrate: ${message}`);
  process.exit(code);
}

let wasmLoaded = false;
async function loadWasm() {
  if (wasmLoaded) return;
  const require = createRequire(import.meta.url);
  const wasmPath = path.join(path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")), "schema_engine_bg.wasm");
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start?.();
  wasmLoaded = true;
}

const registries = [];
process.on("uncaughtException", (error) => {
  const match = /External error id#(\d+)/.exec(String(error?.message));
  const record = match ? registries.map((r) => r.consumeError(Number(match[1]))).find(Boolean) : undefined;
  console.error(`migrate: ${String(error?.message ?? error).split("\n")[0]}`);
  if (record) console.error("driver adapter error:", record.error);
  process.exit(1);
});

/** The engine's shadow database replays migrations with executeRaw(), which better-sqlite3 limits to one statement. */
function sqliteFactory(url) {
  const base = new PrismaBetterSqlite3({ url });
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: () => base.connect(),
    connectToShadowDb: async () => {
      const adapter = await base.connectToShadowDb();
      const raw = adapter.executeRaw.bind(adapter);
      adapter.executeRaw = async (query) => {
        try {
          return await raw(query);
        } catch (error) {
          if (error instanceof RangeError && /more than one statement/.test(error.message) && query.args.length === 0) {
            await adapter.executeScript(query.sql);
            return 0;
          }
          throw error;
        }
      };
      return adapter;
    },
  };
}

/**
 * The adapter's own shadow database keeps the URL's database name (pg lets a connection string
 * override the name it sets), so the shadow database is made here and reached by its own URL.
 */
const PG_INTERNAL_CHAR = 18;
const PG_TEXT = 25;

function postgresFactory(url) {
  const base = new PrismaPg({ connectionString: url });
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: () => base.connect(),
    connectToShadowDb: async () => {
      const shadow = `toolroom_shadow_${randomUUID().replaceAll("-", "")}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${shadow}"`);
      const shadowUrl = new URL(url);
      shadowUrl.pathname = `/${shadow}`;
      const adapter = await new PrismaPg({ connectionString: shadowUrl.toString() }).connect();
      // The engine reads the shadow database's catalog, whose columns include PostgreSQL's
      // internal "char" type (pg_class.relkind …); the adapter knows no column type for it and
      // refuses the whole answer. pg hands such a value over as a one-letter string: read it as text.
      const performIO = adapter.performIO.bind(adapter);
      adapter.performIO = async (query) => {
        const result = await performIO(query);
        for (const field of result.fields) if (field.dataTypeID === PG_INTERNAL_CHAR) field.dataTypeID = PG_TEXT;
        return result;
      };
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await admin.query(`DROP DATABASE IF EXISTS "${shadow}" WITH (FORCE)`);
        await admin.end();
      };
      return adapter;
    },
  };
}

function schemaOf(kind) {
  const source = fs.readFileSync(path.join(prismaDir, "schema.prisma"), "utf8");
  return kind === "sqlite" ? source : postgresSchema(source);
}

async function openEngine(kind, url) {
  await loadWasm();
  const factory = bindMigrationAwareSqlAdapterFactory(kind === "sqlite" ? sqliteFactory(url) : postgresFactory(url));
  registries.push(factory.errorRegistry);
  return bg.SchemaEngine.new({ datamodels: [[engines[kind].schema, schemaOf(kind)]] }, () => {}, factory);
}

function migrationNames(kind) {
  const dir = engines[kind].migrations;
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^\d{14}_/.test(d.name))
    .map((d) => d.name)
    .sort();
}

function loadMigrations(kind) {
  const dir = engines[kind].migrations;
  const lockPath = path.join(dir, "migration_lock.toml");
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: migrationNames(kind).map((migration) => {
      const file = path.join(dir, migration, "migration.sql");
      const content = fs.existsSync(file) ? { tag: "ok", value: fs.readFileSync(file, "utf8") } : { tag: "error", value: "missing" };
      return { path: migration, migrationFile: { path: "migration.sql", content } };
    }),
  };
}

/** The SQL that takes `kind`'s migrations to its schema, or "" when they already build it. */
async function pendingSql(kind, url) {
  const engine = await openEngine(kind, url);
  const list = loadMigrations(kind);
  const from = list.migrationDirectories.length ? { tag: "migrations", ...list } : { tag: "empty" };
  const result = await engine.diff({
    from,
    to: { tag: "schemaDatamodel", files: [{ path: engines[kind].schema, content: schemaOf(kind) }] },
    script: true,
    exitCode: true,
    filters,
  });
  engine.free?.();
  const sql = (result.stdout ?? "").trim();
  return result.exitCode === 2 && sql && !/^-- This is an empty migration/.test(sql) ? `${sql}\n` : "";
}

/** A PostgreSQL server answers, or the command fails saying which one and how to start it. */
async function reachPostgres(url, purpose) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    return client;
  } catch (error) {
    if (error?.code === "3D000") return null;
    fail(
      `cannot reach PostgreSQL at ${describePostgres(url)} (${purpose}): ${error?.message ?? error}. ` +
        "Start it (e.g. pg_ctlcluster --skip-systemctl-redirect 15 main start) or fix DATABASE_URL.",
    );
  }
}

/** Creates the URL's database when the server has none of that name, as SQLite creates its file. */
async function createPostgresDatabase(url) {
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.slice(1));
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const admin = await reachPostgres(maintenance.toString(), `to create database ${database}`);
  if (!admin) fail(`PostgreSQL at ${describePostgres(url)} has no database ${database} and no postgres database to create it from`);
  try {
    await admin.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
    console.log(`migrate: created database ${database}`);
  } catch (error) {
    // Another instance made it first: 42P04, or 23505 when both were creating it at that moment.
    if (error?.code !== "42P04" && error?.code !== "23505") throw error;
  } finally {
    await admin.end();
  }
}

async function deploy(url, kind) {
  if (kind === "sqlite") {
    const file = url.replace(/^file:/, "");
    if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(process.cwd(), file)), { recursive: true });
    return applyMigrations(kind, url);
  }
  const probe = await reachPostgres(url, "to apply migrations");
  if (probe) await probe.end();
  else await createPostgresDatabase(url);
  // The engine holds PostgreSQL's advisory lock pg_advisory_lock(72707369) while it applies, as
  // the Prisma CLI does: a second instance starting at once waits, then finds nothing to apply.
  return applyMigrations(kind, url);
}

async function applyMigrations(kind, url) {
  const engine = await openEngine(kind, url);
  const result = await engine.applyMigrations({ migrationsList: loadMigrations(kind), filters });
  engine.free?.();
  const applied = result.appliedMigrationNames;
  console.log(applied.length ? `migrate: applied ${applied.join(", ")}` : "migrate: database is up to date");
}

function writeLock(kind) {
  const lock = path.join(engines[kind].migrations, "migration_lock.toml");
  if (!fs.existsSync(lock)) {
    fs.writeFileSync(
      lock,
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${engines[kind].provider}"\n`,
    );
  }
}

async function create(migration) {
  if (!migration || !/^[a-z0-9_]+$/.test(migration)) fail("usage: node scripts/migrate.mjs create <name> (lower case, digits and _)", 2);
  fs.mkdirSync(engines.postgresql.migrations, { recursive: true });
  fs.writeFileSync(engines.postgresql.schema, schemaOf("postgresql"));
  const sqlite = await pendingSql("sqlite", ":memory:");
  const postgres = await pendingSql("postgresql", shadowServer);
  if (!sqlite && !postgres) return console.log("migrate: no schema changes");
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  for (const [kind, sql] of [
    ["sqlite", sqlite],
    ["postgresql", postgres],
  ]) {
    if (!sql) fail(`the ${kind} migrations already build the schema while the other engine's do not: run check`);
    writeLock(kind);
    const dir = path.join(engines[kind].migrations, `${stamp}_${migration}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "migration.sql"), sql);
    console.log(`migrate: created ${path.relative(root, dir)}`);
  }
}

/** The migrations must build exactly the schema (a merge of two branches' migrations can drift), on both engines alike. */
async function check() {
  const sqlite = await pendingSql("sqlite", ":memory:");
  if (sqlite) fail(`prisma/migrations do not build prisma/schema.prisma; the difference:\n${sqlite}`);
  const derived = engines.postgresql.schema;
  if (!fs.existsSync(derived) || fs.readFileSync(derived, "utf8") !== schemaOf("postgresql")) {
    fail("prisma/postgresql/schema.prisma is not derived from prisma/schema.prisma: run npm run migrate create <name>");
  }
  const sqliteNames = migrationNames("sqlite");
  const postgresNames = migrationNames("postgresql");
  const twins = (names) => names.filter((n) => n > POSTGRES_BASELINE);
  const missing = [
    ...twins(sqliteNames)
      .filter((n) => !postgresNames.includes(n))
      .map((n) => `${n} has no PostgreSQL twin`),
    ...twins(postgresNames)
      .filter((n) => !sqliteNames.includes(n))
      .map((n) => `${n} has no SQLite twin`),
  ];
  if (postgresNames[0] !== POSTGRES_BASELINE) missing.push(`the first PostgreSQL migration must be ${POSTGRES_BASELINE}`);
  if (missing.length) fail(`the two migration histories differ: ${missing.join("; ")} (npm run migrate create <name> writes both)`);
  (await reachPostgres(shadowServer, "to check the PostgreSQL migrations"))?.end();
  const postgres = await pendingSql("postgresql", shadowServer);
  if (postgres) fail(`prisma/postgresql/migrations do not build prisma/postgresql/schema.prisma; the difference:\n${postgres}`);
  console.log("migrate: migrations match the schema on SQLite and PostgreSQL");
}

let url;
let kind;
try {
  url = command === "check" || command === "create" ? undefined : databaseUrl();
  kind = url === undefined ? undefined : databaseKind(url);
} catch (error) {
  if (error instanceof DatabaseUrlError) fail(error.message, 2);
  throw error;
}
if (command === "deploy") await deploy(url, kind);
else if (command === "create") await create(name);
else if (command === "check") await check();
else fail("usage: node scripts/migrate.mjs deploy | create <name> | check [prisma folder]", 2);
// A PostgreSQL pool keeps idle connections open for 10 s, and with them the process: the work is done.
process.exit(0);
