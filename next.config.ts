import type { NextConfig } from "next";

const config: NextConfig = {
  // Native and wasm-backed packages stay out of the bundle; plugins are imported at run time.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "typescript", "shiki"],
  poweredByHeader: false,
  devIndicators: false,
};

export default config;
