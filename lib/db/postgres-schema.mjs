// prisma/schema.prisma is the one schema source; the PostgreSQL schema is derived from it. Prisma
// fixes a schema's provider when the client is generated (it cannot switch at run time), so each
// engine has its own generated client and its own migrations folder beside its schema file.

/** The header that marks prisma/postgresql/schema.prisma as derived. */
const HEADER = "// Generated from prisma/schema.prisma by `npm run migrate create <name>`: edit that file, not this one.\n";

/** The PostgreSQL schema for the SQLite schema's text: the same models, another provider and client. */
export function postgresSchema(sqliteSchema) {
  const derived = sqliteSchema
    .replace(/(datasource db \{\s*provider\s*=\s*)"sqlite"/, '$1"postgresql"')
    .replace(/(output\s*=\s*)"\.\.\/generated\/prisma"/, '$1"../../generated/prisma-pg"');
  if (!derived.includes('"postgresql"') || !derived.includes("prisma-pg")) {
    throw new Error('prisma/schema.prisma: expected `provider = "sqlite"` and `output = "../generated/prisma"` to derive the PostgreSQL schema from');
  }
  return HEADER + derived;
}
