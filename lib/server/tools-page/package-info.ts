import fs from "node:fs";
import path from "node:path";

type PackageJson = { name?: string; version?: string };

function readPackage(dir: string): PackageJson | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as PackageJson;
  } catch {
    return null;
  }
}

/**
 * Where Toolroom is installed: the nearest folder named "toolroom" in package.json above the
 * running script (bin/toolroom.mjs, or next's and vitest's bins inside its node_modules), so
 * `toolroom --version` is right from any folder; else the working directory.
 */
function installDir(): string {
  const script = process.argv[1];
  for (let dir = script ? path.dirname(path.resolve(script)) : process.cwd(); ; dir = path.dirname(dir)) {
    if (readPackage(dir)?.name === "toolroom") return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

/** An installed dependency's version (from Toolroom's node_modules), or null when it is not there. */
export function dependencyVersion(name: string, dir = installDir()): string | null {
  return readPackage(path.join(dir, "node_modules", name))?.version ?? null;
}

/** Toolroom's own name and version: the source package of every built-in. */
export function toolroomPackage(dir = installDir()): { name: string; version: string; dir: string } {
  return { name: "toolroom", version: readPackage(dir)?.version ?? "0.0.0", dir };
}
