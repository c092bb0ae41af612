import "server-only";
import fs from "node:fs";
import path from "node:path";
import { getSettings, runsRootOf } from "@/lib/settings";

export interface RunsRoot {
  /** Absolute. */
  root: string;
  /** The `?root=` value when one was given (kept as typed, for links), else null. */
  override: string | null;
  /** Set when an override is not a readable folder; the page shows it instead of a list. */
  error: string | null;
}

/** First value of a search parameter (Next gives arrays for repeated keys). */
export function param(v: string | string[] | undefined | null): string | null {
  const first = Array.isArray(v) ? v[0] : v;
  return first === undefined || first === null || first.trim() === "" ? null : first;
}

/**
 * The runs root: `?root=` when given (relative to the server's working folder), else settings'
 * `runsRoot`. An override must be an existing folder; the default may be missing, which the list
 * reports as an empty state explaining `runsRoot`.
 */
export function resolveRunsRoot(override: string | null): RunsRoot {
  if (override === null) return { root: runsRootOf(getSettings()), override: null, error: null };
  if (override.includes("\0")) return { root: override, override, error: "The runs root override contains a NUL byte." };
  const root = path.resolve(process.cwd(), override);
  const st = fs.statSync(root, { throwIfNoEntry: false });
  if (!st) return { root, override, error: `The runs root override ${root} does not exist.` };
  if (!st.isDirectory()) return { root, override, error: `The runs root override ${root} is not a folder.` };
  try {
    fs.accessSync(root, fs.constants.R_OK | fs.constants.X_OK);
  } catch {
    return { root, override, error: `The runs root override ${root} cannot be read (permission denied).` };
  }
  return { root, override, error: null };
}
