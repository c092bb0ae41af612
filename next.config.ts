import type { NextConfig } from "next";
import { PHASE_PRODUCTION_BUILD } from "next/constants";
import { SECURITY_HEADERS } from "./lib/security/headers";

const config: NextConfig = {
  // Native and wasm-backed packages stay out of the bundle; plugins are imported at run time.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "typescript", "shiki", "pg-boss"],
  // Parallel work trees (helpers, benches) build into their own folder.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // Routes that read the source root or Toolroom's own folder at run time (process.cwd(), the
  // install folder) make the tracer copy the whole checkout. The package ships what the server
  // reads at run time itself (examples/, public/, the migrations); sharp serves next/image, unused.
  outputFileTracingExcludes: {
    "*": [
      ".git/**",
      "{app,bench,bin,components,e2e,examples,generated,lib,packages,prisma,public,scripts}/**",
      "*.{md,json,ts,mjs,jsonc}",
      "node_modules/{sharp,@img}/**",
    ],
  },
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

// The build also writes a self-contained server with the files it needs (<distDir>/standalone):
// what the npm package ships (scripts/pack.mjs), so `npx toolroom` serves with no build step. Only
// while building: `next start` (npm start, the e2e servers) serves .next itself, and warns when the
// setting is there.
const configFor = (phase: string): NextConfig => (phase === PHASE_PRODUCTION_BUILD ? { ...config, output: "standalone" } : config);

export default configFor;
