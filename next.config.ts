import type { NextConfig } from "next";

const config: NextConfig = {
  // Native and wasm-backed packages stay out of the bundle; plugins are imported at run time.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "typescript", "shiki"],
  poweredByHeader: false,
  devIndicators: false,
  // `npm test` type-checks the whole project (tests and scripts included) with tsc; the build
  // does not repeat it.
  typescript: { ignoreBuildErrors: true },
};

export default config;
