import fs from "node:fs";
import path from "node:path";
import { DEFAULT_RUNS_ROOT } from "@/lib/settings/schema";
import { MAX_DEPTH } from "./discover";

/** The small example runs shipped with Toolroom, relative to its install folder. */
export const EXAMPLE_RUNS_DIR = "examples/runs";

export const RUN_FOLDER_TEXT = `A run is a folder a test or benchmark harness wrote, at most ${MAX_DEPTH} levels below the runs root, holding matrix.json, env.json, host_env.json, meta.json or sanitizer_report.json.`;

/** Whether `root` (absolute) is where the default runsRoot `./runs` leads from the working folder. */
export function isDefaultRunsRootPath(root: string, cwd = process.cwd()): boolean {
  return path.resolve(root) === path.resolve(cwd, DEFAULT_RUNS_ROOT);
}

/** The example runs shipped in Toolroom's install folder (absolute), or null when this install has none. */
export function exampleRunsDir(installDir: string): string | null {
  const dir = path.join(installDir, EXAMPLE_RUNS_DIR);
  return fs.existsSync(dir) ? dir : null;
}

/**
 * Why `root` (absolute) cannot be a runs root — missing, not a folder, unreadable — or null.
 * Here in lib rather than in the page's module: Turbopack traces fs calls in app/ code and, with
 * a path it cannot know, warns that it traces the whole project.
 */
export function rootFolderProblem(root: string, what: string): string | null {
  const st = fs.statSync(root, { throwIfNoEntry: false });
  if (!st) return `${what} ${root} does not exist.`;
  if (!st.isDirectory()) return `${what} ${root} is not a folder.`;
  try {
    fs.accessSync(root, fs.constants.R_OK | fs.constants.X_OK);
  } catch {
    return `${what} ${root} cannot be read (permission denied).`;
  }
  return null;
}

/** Whether nothing at all is at `root` (a fresh clone has no ./runs yet). */
export function rootIsMissing(root: string): boolean {
  return !fs.existsSync(root);
}

/**
 * The empty state of a fresh clone, for the CLI and the chat tools: what a run folder is, how to
 * set `runsRoot`, and how to open the bundled examples. `examples` is the folder as the reader
 * can use it (absolute for the CLI; `examples/runs` in the checkout for a model).
 */
export function noRunsYetText(root: string, examples: string): string {
  return [
    `No runs yet: the default runs root ${root} does not exist.`,
    RUN_FOLDER_TEXT,
    "Point Toolroom at your runs with `runsRoot: /path/to/runs` in ./toolroom.yaml, or TOOLROOM_RUNSROOT=/path/to/runs.",
    `Example runs ship with Toolroom: \`toolroom runs --root ${examples}\`, or open /runs?root=${examples} in the browser.`,
  ].join("\n");
}
