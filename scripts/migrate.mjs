// Applies (deploy) or creates (create <name>) Prisma migrations through the schema engine compiled
// to wasm: the Prisma CLI cannot download its native engine here. Writes the standard
// _prisma_migrations table (checksum = sha256 of the file), so the real CLI accepts it later.
import "dotenv/config";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// `check` may name another prisma folder (its test checks a copy with a bad migration).
const prismaDir = process.argv[2] === "check" && process.argv[3] ? path.resolve(process.argv[3]) : path.join(root, "prisma");
const schemaPath = path.join(prismaDir, "schema.prisma");
const migrationsDir = path.join(prismaDir, "migrations");
// `check` builds the schema in the engine's shadow database and reads nothing of ours: it opens an
// in-memory database, so it leaves no data/ folder behind wherever it runs.
const url = process.argv[2] === "check" ? ":memory:" : (process.env.DATABASE_URL ?? "file:./data/toolroom.db");
const filters = { externalTables: [], externalEnums: [] };

function ensureDatabaseFolder() {
  const file = url.replace(/^file:/, "");
  if (file === ":memory:") return;
  fs.mkdirSync(path.dirname(path.resolve(process.cwd(), file)), { recursive: true });
}

async function loadEngine() {
  const require = createRequire(import.meta.url);
  const wasmPath = path.join(path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")), "schema_engine_bg.wasm");
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start?.();

  const base = new PrismaBetterSqlite3({ url });
  // The engine replays migrations into the shadow database with executeRaw(), which better-sqlite3
  // limits to one statement; multi-statement migration files go through executeScript() instead.
  const factory = {
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
  const adapterFactory = bindMigrationAwareSqlAdapterFactory(factory);
  process.on("uncaughtException", (error) => {
    const match = /External error id#(\d+)/.exec(String(error?.message));
    const record = match ? adapterFactory.errorRegistry.consumeError(Number(match[1])) : undefined;
    console.error(`migrate: ${String(error?.message ?? error).split("\n")[0]}`);
    if (record) console.error("driver adapter error:", record.error);
    process.exit(1);
  });
  const datamodels = [[schemaPath, fs.readFileSync(schemaPath, "utf8")]];
  return bg.SchemaEngine.new({ datamodels }, () => {}, adapterFactory);
}

function loadMigrations() {
  fs.mkdirSync(migrationsDir, { recursive: true });
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  const dirs = fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return {
    baseDir: migrationsDir,
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((dir) => {
      const file = path.join(migrationsDir, dir, "migration.sql");
      const content = fs.existsSync(file) ? { tag: "ok", value: fs.readFileSync(file, "utf8") } : { tag: "error", value: "missing" };
      return { path: dir, migrationFile: { path: "migration.sql", content } };
    }),
  };
}

const [command, name] = process.argv.slice(2);
ensureDatabaseFolder();
const engine = await loadEngine();
if (command === "deploy") {
  const result = await engine.applyMigrations({ migrationsList: loadMigrations(), filters });
  const applied = result.appliedMigrationNames;
  console.log(applied.length ? `migrate: applied ${applied.join(", ")}` : "migrate: database is up to date");
} else if (command === "create") {
  const lock = path.join(migrationsDir, "migration_lock.toml");
  fs.mkdirSync(migrationsDir, { recursive: true });
  if (!fs.existsSync(lock)) {
    fs.writeFileSync(lock, '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "sqlite"\n');
  }
  const list = loadMigrations();
  const from = list.migrationDirectories.length ? { tag: "migrations", ...list } : { tag: "empty" };
  const schema = { files: [{ path: schemaPath, content: fs.readFileSync(schemaPath, "utf8") }] };
  const result = await engine.diff({ from, to: { tag: "schemaDatamodel", ...schema }, script: true, exitCode: true, filters });
  const sql = result.stdout ?? "";
  if (result.exitCode !== 2 || !sql.trim() || /^-- This is an empty migration/.test(sql.trim())) {
    console.log("migrate: no schema changes");
  } else {
    const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
    const dir = path.join(migrationsDir, `${stamp}_${name ?? "migration"}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "migration.sql"), sql);
    console.log(`migrate: created ${path.relative(root, dir)}`);
  }
} else if (command === "check") {
  // The migrations must build exactly the schema: a merge of two branches' migrations can drift.
  const schema = { files: [{ path: schemaPath, content: fs.readFileSync(schemaPath, "utf8") }] };
  const result = await engine.diff({
    from: { tag: "migrations", ...loadMigrations() },
    to: { tag: "schemaDatamodel", ...schema },
    script: true,
    exitCode: true,
    filters,
  });
  const sql = (result.stdout ?? "").trim();
  if (result.exitCode === 2 && sql && !/^-- This is an empty migration/.test(sql)) {
    console.error(`migrate: prisma/migrations do not build prisma/schema.prisma; the difference:\n${sql}`);
    process.exit(1);
  }
  console.log("migrate: migrations match the schema");
} else {
  console.error("usage: node scripts/migrate.mjs deploy | create <name> | check [prisma folder]");
  process.exit(2);
}
engine.free?.();
