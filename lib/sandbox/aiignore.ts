import fs from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

export const AIIGNORE_FILE = ".aiignore";

interface CachedMatcher {
  mtimeMs: number;
  size: number;
  matcher: Ignore | null;
}

// Keyed by the .aiignore file's absolute path; a stat per lookup keeps edits visible at once.
const cache = new Map<string, CachedMatcher>();

/** The rules of `<dir>/.aiignore`, or null when the folder has none (cached by mtime and size). */
export function matcherForDir(dirAbs: string): Ignore | null {
  const file = path.join(dirAbs, AIIGNORE_FILE);
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(file, { throwIfNoEntry: false });
  } catch {
    st = undefined;
  }
  if (!st || !st.isFile()) {
    cache.delete(file);
    return null;
  }
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.matcher;
  let matcher: Ignore | null = null;
  try {
    matcher = ignore().add(fs.readFileSync(file, "utf8"));
  } catch {
    // An unreadable .aiignore must not open everything up: treat its folder as fully ignored.
    matcher = ignore().add("*");
  }
  cache.set(file, { mtimeMs: st.mtimeMs, size: st.size, matcher });
  return matcher;
}

/** One level of the matcher stack: the folder (relative to the root, "" for the root) and its rules. */
export interface MatcherLevel {
  dirRel: string;
  matcher: Ignore;
}

/**
 * Decides one path against the stack, deepest .aiignore first: the deepest file whose rules say
 * anything (ignore or `!` re-include) wins, as in git.
 */
export function decide(levels: readonly MatcherLevel[], rel: string, isDir: boolean): boolean {
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i]!;
    const local = level.dirRel === "" ? rel : rel.slice(level.dirRel.length + 1);
    if (local === "") continue;
    const result = level.matcher.test(isDir ? `${local}/` : local);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/** The matcher stack for the folders from the root down to (and including) `dirRel`. */
export function levelsFor(rootAbs: string, dirRel: string): MatcherLevel[] {
  const levels: MatcherLevel[] = [];
  const parts = dirRel === "" || dirRel === "." ? [] : dirRel.split("/");
  for (let i = 0; i <= parts.length; i++) {
    const sub = parts.slice(0, i).join("/");
    const matcher = matcherForDir(sub === "" ? rootAbs : path.join(rootAbs, sub));
    if (matcher) levels.push({ dirRel: sub, matcher });
  }
  return levels;
}

/**
 * Whether `rel` (POSIX, relative to the root) is excluded by an .aiignore between the root and it.
 * Every ancestor folder is checked too: as in git, a file under an ignored folder cannot be
 * re-included by a deeper `!` rule.
 */
export function isAiIgnored(rootAbs: string, rel: string, isDir: boolean): boolean {
  if (rel === "" || rel === ".") return false;
  const parts = rel.split("/");
  // The stack grows one folder per step (one stat each): rebuilding it for every ancestor made a
  // deep path cost depth² stats, minutes of a blocked server for "a/a/a/…" of 8,000 characters.
  const levels: MatcherLevel[] = [];
  let parent = "";
  for (let i = 0; i < parts.length; i++) {
    const matcher = matcherForDir(parent === "" ? rootAbs : path.join(rootAbs, parent));
    if (matcher) levels.push({ dirRel: parent, matcher });
    const sub = parent === "" ? parts[i]! : `${parent}/${parts[i]}`;
    if (decide(levels, sub, i < parts.length - 1 ? true : isDir)) return true;
    parent = sub;
  }
  return false;
}
