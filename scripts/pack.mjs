// `npm pack` (its prepack step): makes dist/, what the package ships, so that `npm install
// ./toolroom-<version>.tgz && npx toolroom` serves with no build step and nothing to install:
//   dist/server.js, .next/, node_modules/   the build's standalone server (next.config.ts `output`)
//                                           with the packages it loads at run time, better-sqlite3's
//                                           compiled addon among them
//   dist/cli/                               the CLI, one bundle; the packages the server ships are shared
//   dist/scripts/migrate.mjs, prisma/       the migrations and the wasm schema engine that applies them
//   dist/examples/, public/                 what the pages read from Toolroom's own folder
//   dist/pack.json                          the links npm cannot pack, and which Node the addon is for
// The build is made first when it is missing or older than the sources (as `npm start` does).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { cliBundleOptions } from "../bin/bundle.mjs";
import { staleReason } from "./build-stamp.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const shippedDir = path.join(root, "dist");
// Made aside and renamed into place, so nothing ever sees half a dist/; a failed run leaves none.
const dist = path.join(root, `.dist-${process.pid}`);
process.on("exit", () => fs.rmSync(dist, { recursive: true, force: true }));
const next = path.join(root, ".next");
const MAX_BYTES = 40 * 1024 * 1024;

function fail(message) {
  console.error(`toolroom pack: ${message}`);
  process.exit(1);
}

const stale = staleReason(root, ".next");
if (stale) {
  console.log(`toolroom pack: building the app first (${stale})…`);
  const built = spawnSync(process.execPath, [path.join(root, "scripts/build.mjs"), "--typecheck"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
if (!fs.existsSync(path.join(next, "standalone", "server.js"))) fail('.next/standalone/server.js is missing: next.config.ts must keep output: "standalone".');

fs.cpSync(path.join(next, "standalone"), dist, { recursive: true, verbatimSymlinks: true });
// The tracer's copy of the checkout's top level (its package.json, its .env) is not the package's.
for (const name of fs.readdirSync(dist))
  if (!["server.js", ".next", "node_modules"].includes(name)) fs.rmSync(path.join(dist, name), { recursive: true, force: true });
fs.cpSync(path.join(next, "static"), path.join(dist, ".next", "static"), { recursive: true });
fs.cpSync(path.join(root, "public"), path.join(dist, "public"), { recursive: true });
const NOT_SHIPPED = new Set(["examples/plugins/fixtures", "examples/plugins/mcp-conformance-fixtures"]);
fs.cpSync(path.join(root, "examples"), path.join(dist, "examples"), {
  recursive: true,
  filter: (source) => !NOT_SHIPPED.has(path.relative(root, source)) && !source.split(path.sep).includes("node_modules"),
});
for (const rel of ["prisma/schema.prisma", "prisma/migrations", "prisma/postgresql/schema.prisma", "prisma/postgresql/migrations"])
  fs.cpSync(path.join(root, rel), path.join(dist, rel), { recursive: true });
fs.cpSync(path.join(root, "node_modules/@prisma/schema-engine-wasm"), path.join(dist, "node_modules/@prisma/schema-engine-wasm"), { recursive: true });

// Standalone's server.js moves into its own folder first; Toolroom's server keeps the folder it
// was started in, which is the source root (and where ./toolroom.yaml is).
const serverJs = path.join(dist, "server.js");
const server = fs.readFileSync(serverJs, "utf8");
const CHDIR = "process.chdir(__dirname)\n";
if (!server.includes(CHDIR)) fail("next's standalone server.js changed: it no longer has the process.chdir(__dirname) this step takes out.");
fs.writeFileSync(serverJs, server.replace(CHDIR, ""));

// npm packs no symbolic links: Turbopack's names for the external packages (.next/node_modules/<name>-<hash>)
// are listed here, and `toolroom serve` makes them again.
const links = [];
(function collect(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      links.push({ path: path.relative(dist, abs), target: fs.readlinkSync(abs) });
      fs.rmSync(abs);
    } else if (entry.isDirectory()) collect(abs);
  }
})(dist);

// The packages the server keeps external (next.config.ts serverExternalPackages: native, wasm, or
// too big to bundle twice) are shared with the CLI, which loads them from dist/node_modules.
// Turbopack's build reaches them through links its trace does not follow (an ESM-only one, shiki,
// was missing whole), so they are traced here from their entries with the tracer Next itself uses,
// and what the standalone copy lacks is added.
const { config } = JSON.parse(fs.readFileSync(path.join(next, "required-server-files.json"), "utf8"));
const { nodeFileTrace } = createRequire(import.meta.url)("next/dist/compiled/@vercel/nft");
const { fileList } = await nodeFileTrace(
  config.serverExternalPackages.map((name) => fileURLToPath(import.meta.resolve(name))),
  { base: root },
);
let added = 0;
for (const file of fileList) {
  if (!file.startsWith("node_modules/") || fs.existsSync(path.join(dist, file))) continue;
  fs.cpSync(path.join(root, file), path.join(dist, file), { recursive: true, verbatimSymlinks: true });
  added++;
}
// pg-native: the optional native driver pg tries and goes without.
const shipped = [...config.serverExternalPackages, "@prisma/schema-engine-wasm", "pg-native"];
const common = {
  ...cliBundleOptions(),
  packages: undefined,
  external: shipped,
  write: true,
  minify: true,
  legalComments: "none",
  // What a command imports when it runs (the tokenizer, the job engine) stays out of every start.
  splitting: true,
  // Beside cli.mjs: lib/artifacts/worker/pool.ts finds artifact.worker.mjs next to the code that starts it.
  chunkNames: "chunk-[hash]",
  // Bundled CommonJS packages call require() for Node's own modules.
  banner: { js: 'import { createRequire as __toolroomRequire } from "node:module"; const require = __toolroomRequire(import.meta.url);' },
};
await build({ ...common, outdir: path.join(dist, "cli") });
await build({
  ...common,
  entryPoints: { migrate: "scripts/migrate.mjs" },
  define: {},
  plugins: [],
  outdir: path.join(dist, "scripts"),
});

const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
// install-dir.ts finds Toolroom's folder by this name; the version is the built-ins' package version.
fs.writeFileSync(path.join(dist, "package.json"), `${JSON.stringify({ name: "toolroom", version, private: true, type: "module" }, null, 2)}\n`);
const addon = path.join(dist, "node_modules/better-sqlite3/build/Release/better_sqlite3.node");
if (!fs.existsSync(addon)) fail("better-sqlite3's compiled addon is not in the standalone build.");
fs.writeFileSync(
  path.join(dist, "pack.json"),
  `${JSON.stringify({ links, addon: { platform: process.platform, arch: process.arch, nodeModuleVersion: process.versions.modules, node: process.versions.node } }, null, 2)}\n`,
);

let bytes = 0;
let files = 0;
(function size(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) size(abs);
    else {
      bytes += fs.statSync(abs).size;
      files++;
    }
  }
})(dist);
console.log(
  `toolroom pack: dist/ holds ${files} files (${added} traced here), ${(bytes / 1024 / 1024).toFixed(1)} MB unpacked; the addon is for Node ABI ${process.versions.modules} on ${process.platform}-${process.arch}`,
);
if (bytes > 3 * MAX_BYTES) fail(`dist/ is ${(bytes / 1024 / 1024).toFixed(0)} MB: more than a ${MAX_BYTES / 1024 / 1024} MB package can hold.`);
fs.rmSync(shippedDir, { recursive: true, force: true });
fs.renameSync(dist, shippedDir);
