import "dotenv/config";
import { defineConfig } from "prisma/config";

// The Prisma CLI cannot download its native schema engine here. generate/validate never run it;
// pointing at a stub that fails makes any command that would need it fail loudly instead of
// silently doing nothing. Migrations go through scripts/migrate.mjs (the wasm engine).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "scripts/no-schema-engine.sh";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "file:./data/toolroom.db" },
});
