import fs from "node:fs";
import path from "node:path";
import { KNOWN_ARTIFACTS, type PathFacts, pathFacts, RUN_MARKERS } from "./layout";
import { LRUCache } from "lru-cache";

export interface RunEntry extends PathFacts {
  /** Absolute folder. */
  dir: string;
  /** Relative to the runs root, with `/`; "." for the root itself. */
  rel: string;
  depth: number;
  /** Every regular file directly in the folder, sorted. */
  files: string[];
  /** The markers and other known artifacts among `files`, sorted. */
  artifacts: string[];
  /**
   * Whether the run has a triage `environments/` folder. Its contents are listed when the run is
   * read (`listRunEnvironments`), not during discovery: watching 10,000 more folders would double
   * the cost of every cached answer.
   */
  hasEnvironments: boolean;
  mtimeMs: number;
}

export interface Discovery {
  root: string;
  runs: RunEntry[];
  /** Folders (relative) holding a dashboard `data.json` index. */
  dashboardIndexes: string[];
  /** Set when the root itself could not be read. */
  error: string | null;
  /** Set when the walk stopped at a bound (entries seen or time) before the whole tree was read. */
  truncated: string | null;
  /** Folders whose mtimes the cache watches. */
  watchedDirs: number;
  /** Whether this answer came from the cache. */
  cached: boolean;
}

export interface DiscoverOptions {
  /** Skip the cache and walk again. */
  fresh?: boolean;
  /** Stop after this many directory entries (files and folders) were seen. */
  maxEntries?: number;
  /** Async walk only: stop after this many milliseconds. */
  maxMs?: number;
}

export const MAX_DEPTH = 4;
/** A runs tree of 10,000 runs with their environments is ~150,000 entries; a whole disk is millions. */
export const MAX_ENTRIES = 500_000;
const PRUNED = new Set([".git", "node_modules", ".venv", "site-packages"]);
/** A triage run's own sub-folders: read as part of the run, never walked for runs of their own. */
const RUN_OWNED = new Set(["environments", "cells", "sidecars"]);
const MARKERS = new Set<string>(RUN_MARKERS);

interface CacheEntry {
  dirs: string[];
  mtimes: Float64Array;
  discovery: Discovery;
}
// One entry per runs root looked at (runsRoot, extra roots, CLI --root): bounded, least recently used out.
const cache = new LRUCache<string, CacheEntry>({ max: 64 });

/**
 * Finds the runs under `runsRoot` (an absolute path): folders at most `MAX_DEPTH` levels down
 * holding a marker file. Symlinked folders are never followed, so a loop cannot hang the walk,
 * and the walk stops after `maxEntries` entries (the answer then says so in `truncated`).
 * The answer is cached per root and re-walked only when some watched folder's mtime changed —
 * adding, removing or renaming an entry changes its folder's mtime, which is all discovery sees.
 * Synchronous, for the CLI and the chat tools; the web server uses `discoverRunsAsync`.
 */
export function discoverRuns(runsRoot: string, options: DiscoverOptions = {}): Discovery {
  const root = path.resolve(runsRoot);
  const hit = cache.get(root);
  if (hit && !options.fresh && unchanged(hit)) return { ...hit.discovery, cached: true };
  const steps = walk(root, { maxEntries: options.maxEntries ?? MAX_ENTRIES, deadline: Number.POSITIVE_INFINITY });
  let step = steps.next();
  while (!step.done) step = steps.next(readSync(step.value));
  cache.set(root, step.value);
  return step.value.discovery;
}

/**
 * `discoverRuns` on the event loop's terms: every stat and readdir is asynchronous, so a big tree
 * never blocks other requests, and the walk is bounded by entries and by time (default 5 s).
 */
export async function discoverRunsAsync(runsRoot: string, options: DiscoverOptions = {}): Promise<Discovery> {
  const root = path.resolve(runsRoot);
  const hit = cache.get(root);
  if (hit && !options.fresh && (await unchangedAsync(hit))) return { ...hit.discovery, cached: true };
  const steps = walk(root, { maxEntries: options.maxEntries ?? MAX_ENTRIES, deadline: Date.now() + (options.maxMs ?? 5000) });
  let step = steps.next();
  while (!step.done) step = steps.next(await readAsync(step.value));
  cache.set(root, step.value);
  return step.value.discovery;
}

/** Drops the cached discovery of a root (or of all roots). */
export function clearDiscoveryCache(runsRoot?: string): void {
  if (runsRoot === undefined) cache.clear();
  else cache.delete(path.resolve(runsRoot));
}

function unchanged(entry: CacheEntry): boolean {
  const { dirs, mtimes } = entry;
  for (let i = 0; i < dirs.length; i++) {
    // The walk never enters a symlink, so lstat (cheaper) sees the same folder — except the root.
    const st = i === 0 ? fs.statSync(dirs[i] as string, { throwIfNoEntry: false }) : fs.lstatSync(dirs[i] as string, { throwIfNoEntry: false });
    if (!st || st.mtimeMs !== mtimes[i]) return false;
  }
  return true;
}

async function unchangedAsync(entry: CacheEntry): Promise<boolean> {
  const { dirs, mtimes } = entry;
  // A few hundred stats in flight at once: one at a time, 10,000 folders would take a second.
  for (let start = 0; start < dirs.length; start += 256) {
    const batch = dirs.slice(start, start + 256);
    const stats = await Promise.all(batch.map((d, j) => (start + j === 0 ? fs.promises.stat(d) : fs.promises.lstat(d)).catch(() => null)));
    if (stats.some((st, j) => !st || st.mtimeMs !== mtimes[start + j])) return false;
  }
  return true;
}

/** What the walk asks its driver for: one folder's stat and entries. */
interface Listing {
  st: fs.Stats | null;
  entries: fs.Dirent[] | null;
  error: unknown;
}

function readSync(dir: string): Listing {
  // stat before readdir: a change made while we read shows up as a newer mtime next time.
  const st = fs.statSync(dir, { throwIfNoEntry: false }) ?? null;
  try {
    if (!st) throw Object.assign(new Error("not found"), { code: "ENOENT" });
    return { st, entries: fs.readdirSync(dir, { withFileTypes: true }), error: null };
  } catch (error) {
    return { st, entries: null, error };
  }
}

async function readAsync(dir: string): Promise<Listing> {
  const st = await fs.promises.stat(dir).catch(() => null);
  try {
    if (!st) throw Object.assign(new Error("not found"), { code: "ENOENT" });
    return { st, entries: await fs.promises.readdir(dir, { withFileTypes: true }), error: null };
  } catch (error) {
    return { st, entries: null, error };
  }
}

/** The walk itself, as a generator that yields a folder to read and is resumed with its listing. */
function* walk(root: string, bounds: { maxEntries: number; deadline: number }): Generator<string, CacheEntry, Listing> {
  const dirs: string[] = [];
  const mtimes: number[] = [];
  const runs: RunEntry[] = [];
  const dashboardIndexes: string[] = [];
  let error: string | null = null;
  let truncated: string | null = null;
  let seen = 0;

  const stack: { dir: string; segments: string[] }[] = [{ dir: root, segments: [] }];
  while (stack.length > 0) {
    if (seen >= bounds.maxEntries || Date.now() > bounds.deadline) {
      truncated = `stopped after ${seen.toLocaleString("en-US")} entries${seen >= bounds.maxEntries ? "" : " (time limit)"}; ${stack.length} folders not read — is the runs root the right folder?`;
      break;
    }
    const { dir, segments } = stack.pop() as { dir: string; segments: string[] };
    const { st, entries, error: readError } = yield dir;
    if (!st || !entries) {
      if (segments.length === 0) {
        error = `cannot read runs root ${root}: ${(readError as NodeJS.ErrnoException).code ?? String(readError)}`;
        // Watch the parent so that creating the root later is noticed.
        const parent = path.dirname(root);
        const pst = fs.statSync(parent, { throwIfNoEntry: false });
        if (pst) {
          dirs.push(parent);
          mtimes.push(pst.mtimeMs);
        }
      }
      continue;
    }
    seen += entries.length;
    dirs.push(dir);
    mtimes.push(st.mtimeMs);

    const files: string[] = [];
    const subdirs: string[] = [];
    let isRun = false;
    for (const d of entries) {
      if (d.isFile()) {
        files.push(d.name);
        if (MARKERS.has(d.name)) isRun = true;
      } else if (d.isDirectory()) subdirs.push(d.name);
      // Symlinks (to folders or files) and other kinds are not followed.
    }
    const rel = segments.length === 0 ? "." : segments.join("/");
    const fileSet = new Set(files);
    if (fileSet.has("data.json")) dashboardIndexes.push(rel);

    const ownsSubfolders = isRun && (fileSet.has("matrix.json") || fileSet.has("host_env.json"));
    if (isRun) {
      files.sort();
      runs.push({
        ...pathFacts(segments, fileSet),
        dir,
        rel,
        depth: segments.length,
        files,
        artifacts: files.filter((f) => KNOWN_ARTIFACTS.has(f)),
        hasEnvironments: ownsSubfolders && subdirs.includes("environments"),
        mtimeMs: st.mtimeMs,
      });
    }
    if (segments.length >= MAX_DEPTH) continue;
    for (const name of subdirs) {
      if (PRUNED.has(name) || (ownsSubfolders && RUN_OWNED.has(name))) continue;
      stack.push({ dir: path.join(dir, name), segments: [...segments, name] });
    }
  }
  runs.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  dashboardIndexes.sort();
  return {
    dirs,
    mtimes: Float64Array.from(mtimes),
    discovery: { root, runs, dashboardIndexes, error, truncated, watchedDirs: dirs.length, cached: false },
  };
}

/** A triage run's `environments/<env>/` folder names, sorted (symlinked folders are skipped). */
export function listRunEnvironments(entry: Pick<RunEntry, "dir" | "hasEnvironments">): string[] {
  if (!entry.hasEnvironments) return [];
  try {
    return fs
      .readdirSync(path.join(entry.dir, "environments"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Describes one folder as `discoverRuns` would, without walking the tree (for a run opened by
 * path). Returns null when the folder cannot be read. A folder without markers still gets an
 * entry, with empty `artifacts`.
 */
export function describeRunDir(runsRoot: string, dir: string): RunEntry | null {
  const root = path.resolve(runsRoot);
  const abs = path.resolve(root, dir);
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return null;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(abs, { withFileTypes: true });
  } catch {
    return null;
  }
  const files = entries
    .filter((d) => d.isFile())
    .map((d) => d.name)
    .sort();
  const fileSet = new Set(files);
  const relPath = path.relative(root, abs);
  const segments = relPath === "" ? [] : relPath.split(path.sep);
  const hasEnvironments = entries.some((d) => d.isDirectory() && d.name === "environments");
  return {
    ...pathFacts(segments, fileSet),
    dir: abs,
    rel: segments.length === 0 ? "." : segments.join("/"),
    depth: segments.length,
    files,
    artifacts: files.filter((f) => KNOWN_ARTIFACTS.has(f)),
    hasEnvironments,
    mtimeMs: st.mtimeMs,
  };
}
