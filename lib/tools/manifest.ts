import fs from "node:fs/promises";
import path from "node:path";

/** A package that declares tools in its package.json `toolroom.tools`. */
export interface PluginPackage {
  name: string;
  version: string;
  dir: string;
  /** tool name → "file#export" as written in the manifest. */
  tools: Record<string, unknown>;
  /** resource name → "file#export" (`toolroom.resources`: resources and resource templates). */
  resources: Record<string, unknown>;
  /** prompt name → "file#export" (`toolroom.prompts`). */
  prompts: Record<string, unknown>;
}

interface PackageJson {
  name?: unknown;
  version?: unknown;
  toolroom?: { tools?: unknown; resources?: unknown; prompts?: unknown };
}

function entries(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

async function readPackage(dir: string): Promise<PluginPackage | null> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, "package.json"), "utf8");
  } catch {
    return null;
  }
  // Most installed packages are not plugins: skip the JSON parse unless the key is present.
  if (!text.includes('"toolroom"')) return null;
  let json: PackageJson;
  try {
    json = JSON.parse(text) as PackageJson;
  } catch {
    return null;
  }
  const tools = entries(json.toolroom?.tools);
  const resources = entries(json.toolroom?.resources);
  const prompts = entries(json.toolroom?.prompts);
  if (!tools && !resources && !prompts) return null;
  return {
    name: typeof json.name === "string" ? json.name : path.basename(dir),
    version: typeof json.version === "string" ? json.version : "0.0.0",
    dir,
    tools: tools ?? {},
    resources: resources ?? {},
    prompts: prompts ?? {},
  };
}

async function subdirs(dir: string): Promise<string[]> {
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    return entries.filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith(".")).map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}

/** Every plugin package in a node_modules-shaped folder: `*` and `@scope/*`. */
export async function scanPackagesFolder(folder: string): Promise<PluginPackage[]> {
  const dirs: string[] = [];
  for (const dir of await subdirs(folder)) {
    if (path.basename(dir).startsWith("@")) dirs.push(...(await subdirs(dir)));
    else dirs.push(dir);
  }
  const found = await Promise.all(dirs.map(readPackage));
  return found.filter((p): p is PluginPackage => p !== null);
}

/**
 * Plugin packages from `<cwd>/node_modules` and settings `plugins.paths` (each a package folder,
 * or a folder of packages). A package reachable twice (npm links) is counted once.
 */
export async function findPluginPackages(nodeModules: string[], extraPaths: string[]): Promise<PluginPackage[]> {
  const lists = await Promise.all([
    ...nodeModules.map(scanPackagesFolder),
    ...extraPaths.map(async (p) => {
      const own = await readPackage(p);
      return own ? [own] : scanPackagesFolder(p);
    }),
  ]);
  const seen = new Set<string>();
  const out: PluginPackage[] = [];
  for (const pkg of lists.flat()) {
    const real = await fs.realpath(pkg.dir).catch(() => pkg.dir);
    if (seen.has(real)) continue;
    seen.add(real);
    out.push({ ...pkg, dir: real });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** "./dist/tools.js#readFabricCounters" → file and export ("default" when `#` is absent). */
export function parseEntry(spec: string): { file: string; exportName: string } {
  const hash = spec.lastIndexOf("#");
  return hash === -1 ? { file: spec, exportName: "default" } : { file: spec.slice(0, hash), exportName: spec.slice(hash + 1) || "default" };
}
