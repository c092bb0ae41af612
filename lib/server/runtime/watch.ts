import fs from "node:fs";
import path from "node:path";

/** A folder to watch: its own entries, and its subfolders' down to `depth` (0 = the folder only). */
export interface WatchTarget {
  dir: string;
  depth: number;
  /** Only these entry names count (settings files beside unrelated ones); absent: every entry. */
  names?: string[];
}

export interface Watcher {
  /** Replaces what is watched (after a reload: new plugin folders, a settings file's new folder). */
  watch(targets: WatchTarget[]): void;
  close(): void;
}

const SKIPPED_DIRS = new Set(["node_modules", ".git", ".next"]);

/**
 * Debounced change notices for a set of folders, with plain `fs.watch` (inotify): one watcher per
 * folder, never recursive into node_modules, so a plugin with its own dependencies costs a handful
 * of watches, not thousands. A burst of events (npm install, tsc writing dist/) is one call.
 */
export function createWatcher(onChange: (files: string[]) => void, debounceMs = 300): Watcher {
  let watchers: fs.FSWatcher[] = [];
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  const fire = () => {
    const files = [...pending];
    pending = new Set();
    onChange(files);
  };
  const add = (dir: string, depth: number, names?: string[]) => {
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(dir, { persistent: false }, (_event, name) => {
        const entry = name?.toString();
        if (names && (!entry || !names.includes(entry))) return;
        pending.add(entry ? path.join(dir, entry) : dir);
        clearTimeout(timer);
        timer = setTimeout(fire, debounceMs);
        timer.unref();
      });
    } catch {
      return; // a folder that does not exist (yet) is not watched; a reload looks again
    }
    watcher.on("error", () => watcher.close());
    watchers.push(watcher);
    if (depth <= 0) return;
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) if (e.isDirectory() && !SKIPPED_DIRS.has(e.name) && !e.name.startsWith(".")) add(path.join(dir, e.name), depth - 1);
  };

  return {
    watch(targets) {
      for (const w of watchers) w.close();
      watchers = [];
      const seen = new Set<string>();
      for (const t of targets) {
        const key = `${t.dir}\0${t.depth}\0${t.names?.join("\0") ?? ""}`;
        if (seen.has(key)) continue;
        seen.add(key);
        add(t.dir, t.depth, t.names);
      }
    },
    close() {
      clearTimeout(timer);
      for (const w of watchers) w.close();
      watchers = [];
    },
  };
}
