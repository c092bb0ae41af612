import fs from "node:fs";
import path from "node:path";
import { isAiIgnored } from "./aiignore";

export interface ResolveOptions {
  /** Names the root in the escape message: "source root" (default) or "run root". */
  label?: string;
  /** Check .aiignore files between the root and the target (default true). */
  aiignore?: boolean;
}

export interface Resolved {
  ok: true;
  /** The real path to open: symlinks resolved, inside the real root. */
  abs: string;
  /** POSIX path relative to the real root; "." for the root itself. */
  rel: string;
  /** The real root. */
  root: string;
  /** lstat of `abs`, or null when nothing is there yet. */
  stat: fs.Stats | null;
}
export interface Refused {
  ok: false;
  /** A tool result: starts with "Error:". */
  error: string;
}
export type Resolution = Resolved | Refused;

/** Our own caches: they hold tokens of indexed files, so they are not readable through tools. */
export const INTERNAL_DIRS = [".toolroom/cache"];

const MAX_SHOWN = 200;
const MAX_PATH_CHARS = 4096;
const MAX_NAME_BYTES = 255;

/** The path as the model sent it, made safe to echo back (control characters escaped, bounded). */
export function showPath(p: string): string {
  const clean = p.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return clean.length > MAX_SHOWN ? `${clean.slice(0, MAX_SHOWN)}…` : clean;
}

function within(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** The spellings a model or an attacker might mean: as sent, URL-decoded, backslashes as separators. */
function variants(input: string): string[] {
  const out = new Set<string>([input]);
  let current = input;
  for (let i = 0; i < 3 && /%[0-9a-fA-F]{2}/.test(current); i++) {
    try {
      current = decodeURIComponent(current);
    } catch {
      break;
    }
    out.add(current);
  }
  for (const v of [...out]) if (v.includes("\\")) out.add(v.replace(/\\/g, "/"));
  return [...out];
}

function toPosix(rel: string): string {
  return rel.split(path.sep).join("/");
}

const realRoots = new Map<string, string>();
function realRoot(root: string): string | null {
  const abs = path.resolve(root);
  const hit = realRoots.get(abs);
  if (hit) return hit;
  try {
    const real = fs.realpathSync(abs);
    realRoots.set(abs, real);
    return real;
  } catch {
    return null;
  }
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

/**
 * Where `target` really leads: the realpath of its deepest existing ancestor plus the rest.
 * A dangling symlink counts by where it points.
 */
function realTarget(target: string): string {
  let existing = target;
  const rest: string[] = [];
  for (;;) {
    const st = lstatOrNull(existing);
    if (st) {
      try {
        return path.join(fs.realpathSync(existing), ...rest);
      } catch {
        if (st.isSymbolicLink()) {
          const link = fs.readlinkSync(existing);
          return path.join(path.resolve(path.dirname(existing), link), ...rest);
        }
        throw new Error("unresolvable path");
      }
    }
    const parent = path.dirname(existing);
    if (parent === existing) return target;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
}

/**
 * Resolves `input` against `root` and refuses anything that would leave it: `..`, absolute paths
 * outside, symlinks (file or folder) pointing out, NUL bytes, Windows-style and URL-encoded
 * spellings of those, paths excluded by .aiignore, and our internal cache. Never throws.
 */
export function resolveWithin(root: string, input: unknown, options: ResolveOptions = {}): Resolution {
  const label = options.label ?? "source root";
  if (typeof input !== "string") return { ok: false, error: "Error: path must be a string" };
  const raw = input.trim() === "" ? "." : input;
  // Longer paths cannot name a file on Linux (PATH_MAX, NAME_MAX): answered here, not as ENAMETOOLONG.
  if (raw.length > MAX_PATH_CHARS)
    return { ok: false, error: `Error: path is ${raw.length} characters long; the limit is ${MAX_PATH_CHARS}: ${showPath(raw)}` };
  const longName = raw.split(/[\\/]/).find((name) => Buffer.byteLength(name) > MAX_NAME_BYTES);
  if (longName) return { ok: false, error: `Error: a path component is longer than ${MAX_NAME_BYTES} bytes: ${showPath(longName)}` };
  const escape: Refused = { ok: false, error: `Error: path escapes the ${label}: ${showPath(raw)}` };

  const rootReal = realRoot(root);
  if (!rootReal) return { ok: false, error: `Error: the ${label} does not exist: ${showPath(root)}` };
  const rootLexical = path.resolve(root);

  for (const v of variants(raw)) {
    if (v.includes("\0")) return { ok: false, error: `Error: path contains a NUL byte: ${showPath(raw)}` };
    // Drive letters and UNC names mean another filesystem's root.
    if (/^[a-zA-Z]:/.test(v) || v.startsWith("//")) return escape;
    const lexical = path.resolve(rootLexical, v);
    if (!within(rootLexical, lexical) && !within(rootReal, lexical)) return escape;
  }

  const lexical = path.resolve(rootLexical, raw);
  let real: string;
  try {
    real = realTarget(lexical);
  } catch {
    return { ok: false, error: `Error: cannot resolve path: ${showPath(raw)}` };
  }
  if (!within(rootReal, real)) return escape;

  const rel = toPosix(path.relative(rootReal, real)) || ".";
  for (const dir of INTERNAL_DIRS) {
    if (rel === dir || rel.startsWith(`${dir}/`)) {
      return { ok: false, error: `Error: ${showPath(raw)} is not accessible (Toolroom's internal cache)` };
    }
  }

  const stat = lstatOrNull(real);
  if (options.aiignore !== false) {
    const isDir = stat?.isDirectory() ?? false;
    const lexRel = within(rootLexical, lexical) ? toPosix(path.relative(rootLexical, lexical)) : rel;
    const lexIsDir = lstatOrNull(lexical)?.isDirectory() ?? isDir;
    if (isAiIgnored(rootReal, rel, isDir) || (lexRel !== "" && lexRel !== rel && isAiIgnored(rootReal, lexRel, lexIsDir))) {
      return { ok: false, error: `Error: ${showPath(raw)} is not accessible (excluded by .aiignore)` };
    }
  }
  return { ok: true, abs: real, rel, root: rootReal, stat };
}
