import fs from "node:fs";
import path from "node:path";

/** Synthetic triage / probe runs written for these tests. */
export const FIXTURES = path.resolve(import.meta.dirname, "../artifacts/__fixtures__");

/**
 * The real AORTA artifacts (`shared/aorta-runs`, next to the repo), else `AORTA_RUNS_DIR`;
 * null when neither exists, and the corpus tests then skip saying so.
 */
export function aortaRunsDir(): string | null {
  for (const dir of [path.resolve(process.cwd(), "../shared/aorta-runs"), process.env.AORTA_RUNS_DIR]) {
    if (dir && fs.existsSync(path.join(dir, "dashboard"))) return dir;
  }
  return null;
}

/** Every file under `dir`, relative, sorted. */
export function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join("/"))
    .sort();
}
