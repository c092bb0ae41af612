// The CLI runs from one ESM bundle of bin/cli.ts and the lib/ it imports, made by esbuild and
// rebuilt when a file it was made from changes. Why: loading ~400 TypeScript modules through tsx
// cost about a CPU-second on every start, and tests, evals and the MCP conformance suite start the
// CLI hundreds of times; the bundle loads in a fraction of that and takes esbuild ~0.1 s to make.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "..");
const CACHE = path.join(ROOT, "node_modules", ".cache", "toolroom-cli");
const STAMP = path.join(CACHE, "stamp.json");
// Besides the sources esbuild reads: what changes how they resolve.
const CONFIG = ["tsconfig.json", "package.json", "bin/bundle.mjs"];

function statOf(rel) {
  const st = fs.statSync(path.join(ROOT, rel), { throwIfNoEntry: false });
  return st ? [rel, st.mtimeMs, st.size] : [rel, 0, -1];
}

/** The folder of the current bundle when every file it was made from is unchanged, else null. */
function currentBundle() {
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(STAMP, "utf8"));
  } catch {
    return null;
  }
  const same = stamp.inputs.every(([rel, mtime, size]) => {
    const [, m, s] = statOf(rel);
    return m === mtime && s === size;
  });
  return same && fs.existsSync(path.join(CACHE, stamp.dir, "cli.mjs")) ? path.join(CACHE, stamp.dir) : null;
}

/** How the CLI is bundled; scripts/pack.mjs makes the package's bundle with the same options. */
export function cliBundleOptions() {
  return {
    absWorkingDir: ROOT,
    entryPoints: { cli: "bin/cli.ts", "artifact.worker": "lib/artifacts/worker/artifact.worker.ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    packages: "external",
    outExtension: { ".js": ".mjs" },
    // lib/artifacts/worker/pool.ts starts the bundled worker beside the bundle instead of the .ts source.
    define: { __TOOLROOM_CLI_BUNDLE__: "true" },
    // `server-only` keeps server modules out of the browser's bundles; the CLI is a server-side
    // program (its worker runs the same services as the web instances), so here it is empty.
    plugins: [
      {
        name: "server-only",
        setup(build) {
          build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "server-only" }));
          build.onLoad({ filter: /.*/, namespace: "server-only" }, () => ({ contents: "" }));
        },
      },
    ],
    logLevel: "silent",
  };
}

async function buildBundle() {
  const { build } = await import("esbuild");
  const result = await build({ ...cliBundleOptions(), write: false, metafile: true, outdir: "out" });
  const inputs = [...CONFIG, ...Object.keys(result.metafile.inputs).filter((rel) => !rel.startsWith("node_modules/"))].map(statOf);
  const dir = createHash("sha256").update(JSON.stringify(inputs)).digest("hex").slice(0, 16);
  const target = path.join(CACHE, dir);
  // Several CLIs may start at once: each writes its own temp folder and renames it into place;
  // a folder already there is the same build, so losing that race loses nothing.
  if (!fs.existsSync(target)) {
    const temp = fs.mkdtempSync(path.join(CACHE, "tmp-"));
    for (const file of result.outputFiles) fs.writeFileSync(path.join(temp, path.basename(file.path)), file.contents);
    try {
      fs.renameSync(temp, target);
    } catch {
      fs.rmSync(temp, { recursive: true, force: true });
    }
  }
  const tempStamp = `${STAMP}.${process.pid}`;
  fs.writeFileSync(tempStamp, JSON.stringify({ dir, inputs }));
  fs.renameSync(tempStamp, STAMP);
  removeOldBundles(dir);
  return target;
}

/** Bundles older than an hour that are not the current one: a CLI still running from one has loaded it long ago. */
function removeOldBundles(keep) {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of fs.readdirSync(CACHE)) {
    if (name === keep || name === "stamp.json" || name.startsWith("stamp.json.")) continue;
    const abs = path.join(CACHE, name);
    if (fs.statSync(abs).mtimeMs < hourAgo) fs.rmSync(abs, { recursive: true, force: true });
  }
}

/**
 * The CLI's module: from the bundle, or, where the install folder cannot be written (a read-only
 * global install), from the sources through tsx as before.
 */
export async function loadCli() {
  let dir = currentBundle();
  if (!dir) {
    try {
      fs.mkdirSync(CACHE, { recursive: true });
      dir = await buildBundle();
    } catch (error) {
      if (error?.code !== "EACCES" && error?.code !== "EROFS" && error?.code !== "EPERM") throw error;
      const { register } = await import("tsx/esm/api");
      register({ tsconfig: path.join(ROOT, "tsconfig.json") });
      return import(pathToFileURL(path.join(ROOT, "bin", "cli.ts")).href);
    }
  }
  return import(pathToFileURL(path.join(dir, "cli.mjs")).href);
}
