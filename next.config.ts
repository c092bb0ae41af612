import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./lib/security/headers";

const config: NextConfig = {
  // Native and wasm-backed packages stay out of the bundle; plugins are imported at run time.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "typescript", "shiki", "pg-boss"],
  // Parallel work trees (helpers, benches) build into their own folder.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  poweredByHeader: false,
  devIndicators: false,
  // `npm test` type-checks the whole project (tests and scripts included) with tsc, and `npm start`
  // runs tsc before a build of its own (scripts/build.mjs --typecheck); the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  // proxy.ts sets these on every response it sees, and makes the trailing-slash redirect itself
  // (Next's own is sent before the proxy runs, and config headers do not reach redirects).
  // Config headers cover what the proxy never sees.
  skipTrailingSlashRedirect: true,
  headers: async () => [{ source: "/:path*", headers: Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value })) }],
};

export default config;
