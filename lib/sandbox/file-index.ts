import fs from "node:fs";
import path from "node:path";
import { decodeText, looksBinary } from "./text";
import { breathe, walkSync } from "./walk";

export interface FileRecord<E> {
  mtimeMs: number;
  size: number;
  data: E;
}

export interface IndexChanges {
  /** Files added or whose contents changed since the last refresh (all of them on the first). */
  changed: string[];
  removed: string[];
}

export interface FileIndexOptions<E> {
  /** The real source root. */
  rootAbs: string;
  /** Where the JSON-lines cache lives, or null to keep it in memory only. */
  cacheFile: string | null;
  /** Bump when `compute` changes shape: a cache with another version is discarded. */
  version: string;
  /** Larger files are left out. */
  maxBytes: number;
  accept?: (rel: string) => boolean;
  compute: (text: string, rel: string) => E;
}

const BREATHE_MS = 25;

/**
 * Per-file derived data over the sandboxed walk (only files the walker admits: no symlinks,
 * build folders or .aiignored files), refreshed incrementally by mtime and size and cached on disk.
 */
export class FileIndex<E> {
  readonly records = new Map<string, FileRecord<E>>();
  private loaded = false;
  private running: Promise<IndexChanges> | null = null;
  private lastRefreshAt = -Infinity;

  constructor(private readonly options: FileIndexOptions<E>) {}

  /**
   * Brings the records up to date with the tree. `maxAgeMs` lets a caller accept records checked
   * that recently (a walk of a large tree costs more than a query).
   */
  refresh(signal?: AbortSignal, maxAgeMs = 0): Promise<IndexChanges> {
    if (!this.running && this.loaded && Date.now() - this.lastRefreshAt < maxAgeMs) {
      return Promise.resolve({ changed: [], removed: [] });
    }
    // Concurrent calls share one walk rather than racing on the records and the cache file.
    this.running ??= this.doRefresh(signal).finally(() => {
      this.running = null;
      this.lastRefreshAt = Date.now();
    });
    return this.running;
  }

  private async doRefresh(signal?: AbortSignal): Promise<IndexChanges> {
    const changed: string[] = [];
    if (!this.loaded) {
      this.loaded = true;
      this.load();
      changed.push(...this.records.keys());
    }
    const { rootAbs, maxBytes, accept, compute } = this.options;
    const seen = new Set<string>();
    let dirty = false;
    let last = Date.now();
    // A cache folder configured outside .toolroom must not index itself.
    const cacheDir = this.options.cacheFile ? path.dirname(this.options.cacheFile) + path.sep : null;
    for (const entry of walkSync(rootAbs, ".")) {
      if (Date.now() - last > BREATHE_MS) {
        if (await breathe(signal)) throw new Error("cancelled");
        last = Date.now();
      }
      if (accept && !accept(entry.rel)) continue;
      if (cacheDir && entry.abs.startsWith(cacheDir)) continue;
      let st: fs.Stats;
      try {
        st = fs.statSync(entry.abs);
      } catch {
        continue;
      }
      if (st.size > maxBytes) continue;
      const old = this.records.get(entry.rel);
      if (old && old.mtimeMs === st.mtimeMs && old.size === st.size) {
        seen.add(entry.rel);
        continue;
      }
      let buf: Buffer;
      try {
        buf = fs.readFileSync(entry.abs);
      } catch {
        continue;
      }
      if (looksBinary(buf)) continue;
      seen.add(entry.rel);
      this.records.set(entry.rel, { mtimeMs: st.mtimeMs, size: st.size, data: compute(decodeText(buf), entry.rel) });
      changed.push(entry.rel);
      dirty = true;
    }
    const removed: string[] = [];
    for (const rel of this.records.keys()) {
      if (!seen.has(rel)) removed.push(rel);
    }
    for (const rel of removed) this.records.delete(rel);
    if (removed.length > 0) dirty = true;
    if (dirty) this.save();
    const removedSet = new Set(removed);
    return { changed: [...new Set(changed)].filter((rel) => !removedSet.has(rel)), removed };
  }

  private load(): void {
    const { cacheFile, version, rootAbs } = this.options;
    if (!cacheFile) return;
    let header = true;
    try {
      for (const line of readLines(cacheFile)) {
        if (header) {
          const h = JSON.parse(line) as { version?: unknown; root?: unknown };
          if (h.version !== version || h.root !== rootAbs) return;
          header = false;
          continue;
        }
        const [rel, mtimeMs, size, data] = JSON.parse(line) as [string, number, number, E];
        this.records.set(rel, { mtimeMs, size, data });
      }
    } catch {
      // A missing or damaged cache is only lost time: start over.
      this.records.clear();
    }
  }

  private save(): void {
    const { cacheFile, version, rootAbs } = this.options;
    if (!cacheFile) return;
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
      const fd = fs.openSync(tmp, "w");
      try {
        // One record per line: no single giant string, whatever the size of the tree.
        let chunk = `${JSON.stringify({ version, root: rootAbs })}\n`;
        for (const [rel, record] of this.records) {
          chunk += `${JSON.stringify([rel, record.mtimeMs, record.size, record.data])}\n`;
          if (chunk.length > 1 << 20) {
            fs.writeSync(fd, chunk);
            chunk = "";
          }
        }
        fs.writeSync(fd, chunk);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, cacheFile);
    } catch {
      // A read-only source root still gets an index, just not a persistent one.
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        /* nothing to clean */
      }
    }
  }
}

/** The non-empty lines of a file, read in blocks: a cache can outgrow the longest string V8 allows. */
function* readLines(file: string): Generator<string> {
  const fd = fs.openSync(file, "r");
  try {
    const block = Buffer.allocUnsafe(4 << 20);
    let rest: Buffer = Buffer.alloc(0);
    for (;;) {
      const n = fs.readSync(fd, block, 0, block.length, null);
      if (n === 0) break;
      const data: Buffer = rest.length > 0 ? Buffer.concat([rest, block.subarray(0, n)]) : block.subarray(0, n);
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
        if (nl > start) yield data.toString("utf8", start, nl);
        start = nl + 1;
      }
      // Copy the tail: `block` is overwritten by the next read.
      rest = Buffer.from(data.subarray(start));
    }
    if (rest.length > 0) yield rest.toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

const shared = new Map<string, FileIndex<unknown>>();

/** One index per kind and root per process, so repeated tool calls reuse the warm one. */
export function sharedFileIndex<E>(kind: string, options: FileIndexOptions<E>): FileIndex<E> {
  const key = `${kind}\0${options.rootAbs}\0${options.cacheFile ?? ""}\0${options.version}`;
  let index = shared.get(key) as FileIndex<E> | undefined;
  if (!index) {
    index = new FileIndex(options);
    shared.set(key, index);
  }
  return index;
}

/** The cache folder for a tool: `settings.cacheDir` (relative to the root) or `.toolroom/cache`. */
export function cacheDirFor(rootAbs: string, settings: Record<string, unknown>): string {
  const dir = typeof settings.cacheDir === "string" && settings.cacheDir ? settings.cacheDir : ".toolroom/cache";
  return path.resolve(rootAbs, dir);
}
