// Toolroom's dependencies (ai 7, @ai-sdk/*, Prisma 7, vite 8) need Node >= 22.12. On a machine whose
// Node is older, this brings Node 22 from the npm registry (the `node` package ships a real Node
// binary and its headers) into a cache folder and runs the given command with it first on PATH, so
// every `node` below it — npm scripts, tsx, next, vitest, Playwright's server — is Node 22, and
// native modules (better-sqlite3) compile against its headers.
//   node scripts/node22.mjs exec -- <command…>    run a command under Node >= 22.12
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const NODE22_VERSION = "22.23.3";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function nodeIsRecentEnough(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

// Not a TOOLROOM_ variable: those are settings, and an unknown settings key stops start-up.
const cacheDir = () => path.join(process.env.NODE22_CACHE_DIR ?? path.join(os.homedir(), ".cache", "toolroom"), `node-${NODE22_VERSION}`);

/** The cached Node 22's bin folder and header folder, installed from the npm registry when missing. */
function ensureNode22() {
  const dir = cacheDir();
  const bin = path.join(dir, "node_modules", "node", "bin");
  if (!fs.existsSync(path.join(bin, "node"))) {
    console.error(
      `toolroom: Node ${process.versions.node} ${nodeIsRecentEnough() ? "is not the Node 22 the package's SQLite addon is built for" : "is older than the 22.12 Toolroom needs"}; installing Node ${NODE22_VERSION} from the npm registry into ${dir}…`,
    );
    fs.mkdirSync(dir, { recursive: true });
    execFileSync(
      "npm",
      ["install", "--prefix", dir, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", `node@${NODE22_VERSION}`],
      { stdio: "inherit" },
    );
  }
  const arch = fs.readdirSync(path.join(dir, "node_modules", "node", "node_modules")).find((name) => /^node-(linux|darwin|win)-/.test(name));
  return { bin, headers: arch ? path.join(dir, "node_modules", "node", "node_modules", arch) : undefined };
}

/**
 * The environment that puts a Node >= 22.12 first on PATH (this one's, when it is recent enough,
 * unless `exactly22`: the package's prebuilt addon is compiled for Node 22's ABI).
 */
export function node22Env(env = process.env, exactly22 = false) {
  if (nodeIsRecentEnough() && !(exactly22 && process.versions.node.split(".")[0] !== "22")) return env;
  const { bin, headers } = ensureNode22();
  return { ...env, PATH: `${bin}${path.delimiter}${env.PATH ?? ""}`, ...(headers ? { npm_config_nodedir: headers } : {}) };
}

/** When better-sqlite3 was compiled for another Node, compile it again for the one in `env`. */
function rebuildNativeIfNeeded(env) {
  const probe = spawnSync("node", ["-e", "new (require('better-sqlite3'))(':memory:').close()"], { cwd: root, env, encoding: "utf8" });
  if (probe.status === 0 || !/NODE_MODULE_VERSION/.test(probe.stderr)) return;
  console.error("toolroom: better-sqlite3 was built for another Node version; rebuilding it (about two minutes)…");
  const rebuilt = spawnSync("npm", ["rebuild", "better-sqlite3"], { cwd: root, env, stdio: "inherit" });
  if (rebuilt.status !== 0) process.exit(rebuilt.status ?? 1);
}

/**
 * Runs `command` under a Node >= 22.12 (or exactly 22, see node22Env) and exits with its status;
 * the promise never settles. A SIGTERM or SIGHUP sent to this process alone (a process manager, a
 * test stopping `toolroom serve`) is passed on, so the command never outlives it; Ctrl-C reaches
 * both through the terminal, so it is not passed on again (a second SIGINT means "stop now" to
 * `toolroom worker`).
 */
export function execUnderNode22(command, { exactly22 = false } = {}) {
  const env = node22Env(process.env, exactly22);
  if (env !== process.env && fs.existsSync(path.join(root, "node_modules", "better-sqlite3"))) rebuildNativeIfNeeded(env);
  const child = spawn(command[0], command.slice(1), { env, stdio: "inherit" });
  process.on("SIGINT", () => {});
  for (const signal of ["SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => {
    console.error(`toolroom: cannot run ${command[0]}: ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1)));
  return new Promise(() => {});
}

const [mode, ...rest] = import.meta.url === pathToFileURL(process.argv[1] ?? "").href ? process.argv.slice(2) : [];
if (mode === "exec") {
  const command = rest[0] === "--" ? rest.slice(1) : rest;
  if (command.length === 0) throw new Error("usage: node scripts/node22.mjs exec -- <command…>");
  await execUnderNode22(command);
}
