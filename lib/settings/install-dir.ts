import fs from "node:fs";
import path from "node:path";

function packageName(dir: string): unknown {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}

/**
 * Where Toolroom is installed: the nearest folder named "toolroom" in package.json above the
 * running script (bin/toolroom.mjs, or next's and vitest's bins inside its node_modules); undefined
 * when there is none. The working folder is never guessed: it decides whether ./toolroom.yaml is trusted.
 */
export function findInstallDir(script = process.argv[1]): string | undefined {
  if (!script) return undefined;
  for (let dir = path.dirname(path.resolve(script)); ; dir = path.dirname(dir)) {
    if (packageName(dir) === "toolroom") return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}
