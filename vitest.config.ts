import path from "node:path";
import { defineConfig } from "vitest/config";

// Tests that start servers, spawn the CLI, migrate SQLite, run workers or loopback providers: each
// file in a fresh process. Everything else is a unit test: pure, run in shared workers.
const INTEGRATION = [
  "bin/**/*.test.ts",
  "app/**/*.test.ts",
  "scripts/**/*.test.ts",
  "lib/server/**/*.test.ts",
  "lib/db/**/*.test.ts",
  "**/*.http.test.ts",
  "lib/artifacts/cached.test.ts",
  "lib/artifacts/worker/*.test.ts",
  "lib/builtins/semantic/semantic-search.test.ts",
  "lib/builtins/shell*.test.ts",
  "lib/evals/runner.test.ts",
  "lib/evals/reporters.test.ts",
  "lib/mcp/client-source.test.ts",
  "lib/mcp/*conformance.test.ts",
  "lib/trace/otlp.test.ts",
];

// The storage suite: the files that store through lib/db on a database of their own
// (useTempDatabase). They run on SQLite in "integration" and again on PostgreSQL in "storage-pg",
// each file on a throwaway database of the real server.
const STORAGE = [
  "lib/db/trace-queries.test.ts",
  "lib/db/postgres*.test.ts",
  "lib/server/approvals/{approvals,approvals.property,path-rules,rule-book}.test.ts",
  "lib/server/try-it/{try-it,try-it-approvals}.test.ts",
  "lib/server/chat/{crash-recovery,chat-view}.test.ts",
  "lib/server/compare/compare-service.test.ts",
  "lib/server/evals/{trial-store,eval-runs}.test.ts",
  "lib/server/mcp/mcp-audit.test.ts",
  "lib/server/team/*.test.ts",
  "lib/server/auth/{route-guards,oidc-sign-in,audit-trail}.test.ts",
];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    // `server-only` throws outside a React Server environment; tests exercise the same modules directly.
    alias: { "server-only": path.resolve(import.meta.dirname, "lib/testing/server-only-stub.ts") },
    testTimeout: 30_000,
    // Set-up hooks migrate databases and start servers: on a loaded machine that takes more than the default 10 s.
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "*.test.ts"],
          exclude: INTEGRATION,
          pool: "threads",
          // Pure modules: a worker keeps what it imported for the next file instead of loading it again.
          isolate: false,
        },
      },
      // Two files at once even on two cores: most of their time is spent waiting on the servers
      // and CLIs they start, so a second file fills that wait instead of queueing behind it.
      {
        extends: true,
        test: {
          name: "integration",
          include: INTEGRATION,
          exclude: ["lib/db/postgres*.test.ts", "lib/server/team/*.test.ts"],
          pool: "forks",
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: { name: "storage-pg", include: STORAGE, env: { TOOLROOM_TEST_ENGINE: "postgresql" }, pool: "forks", maxWorkers: 2, sequence: { groupOrder: 2 } },
      },
    ],
  },
});
