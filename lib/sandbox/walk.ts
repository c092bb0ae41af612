import fs from "node:fs";
import path from "node:path";
import { decide, levelsFor, matcherForDir, type MatcherLevel } from "./aiignore";

/** Folders that are never listed or searched: VCS data, dependencies, build output, caches. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  ".next",
  "dist",
  "build",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".mypy_cache",
  ".ruff_cache",
  ".pytest_cache",
  "coverage",
  ".turbo",
  ".toolroom",
]);

export function isSkippedDir(name: string): boolean {
  return SKIPPED_DIRS.has(name) || name.endsWith(".egg-info");
}

/** Files that are noise in listings and searches. */
export function isSkippedFile(name: string): boolean {
  return name.endsWith(".pyc") || name.endsWith(".pyo");
}

export interface WalkEntry {
  /** Absolute path (under the real root). */
  abs: string;
  /** POSIX path relative to the root. */
  rel: string;
  name: string;
  isDir: boolean;
}

export interface WalkOptions {
  /** Yield folders as well as files (default false). */
  includeDirs?: boolean;
}

function readDir(abs: string): fs.Dirent[] {
  try {
    return fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

function* walkDir(abs: string, rel: string, levels: MatcherLevel[], options: WalkOptions): Generator<WalkEntry> {
  for (const entry of readDir(abs)) {
    // Symlinks are never followed or reported: a link can lead out of the root or into an ignored file.
    if (entry.isSymbolicLink()) continue;
    const isDir = entry.isDirectory();
    if (!isDir && !entry.isFile()) continue; // sockets, FIFOs, devices: reading one could hang
    const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (isDir ? isSkippedDir(entry.name) : isSkippedFile(entry.name)) continue;
    if (decide(levels, childRel, isDir)) continue;
    const childAbs = path.join(abs, entry.name);
    if (isDir) {
      if (options.includeDirs) yield { abs: childAbs, rel: childRel, name: entry.name, isDir: true };
      const matcher = matcherForDir(childAbs);
      yield* walkDir(childAbs, childRel, matcher ? [...levels, { dirRel: childRel, matcher }] : levels, options);
    } else {
      yield { abs: childAbs, rel: childRel, name: entry.name, isDir: false };
    }
  }
}

/**
 * Every file (and optionally folder) under `startRel`, depth first in name order, skipping
 * symlinks, build/cache folders and whatever an .aiignore excludes. `rootAbs` must be the real
 * root and `startRel` a path that `resolveWithin` already admitted.
 */
export function* walkSync(rootAbs: string, startRel: string, options: WalkOptions = {}): Generator<WalkEntry> {
  const rel = startRel === "." ? "" : startRel;
  const abs = rel === "" ? rootAbs : path.join(rootAbs, rel);
  yield* walkDir(abs, rel, levelsFor(rootAbs, rel), options);
}

/** Lets the event loop breathe during long synchronous scans; returns true if `signal` fired. */
export async function breathe(signal?: AbortSignal): Promise<boolean> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  return signal?.aborted ?? false;
}
