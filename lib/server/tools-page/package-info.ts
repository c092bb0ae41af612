import fs from "node:fs";
import path from "node:path";
import { findInstallDir } from "@/lib/settings/install-dir";

type PackageJson = { name?: string; version?: string };

function readPackage(dir: string): PackageJson | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as PackageJson;
  } catch {
    return null;
  }
}

/** Where Toolroom is installed (lib/settings/install-dir.ts), else the working directory. */
function installDir(): string {
  return findInstallDir() ?? process.cwd();
}

/** An installed dependency's version (from Toolroom's node_modules), or null when it is not there. */
export function dependencyVersion(name: string, dir = installDir()): string | null {
  return readPackage(path.join(dir, "node_modules", name))?.version ?? null;
}

/** Toolroom's own name and version: the source package of every built-in. */
export function toolroomPackage(dir = installDir()): { name: string; version: string; dir: string } {
  return { name: "toolroom", version: readPackage(dir)?.version ?? "0.0.0", dir };
}
