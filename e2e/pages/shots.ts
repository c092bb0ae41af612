// Where specs put screenshots for review: SHOTS_DIR when set (a folder outside the tree, say
// /tmp/shots/<name>), else test-results/screens — gitignored, and cleared by Playwright each run.
import fs from "node:fs";
import path from "node:path";

/** The path of screenshot `file` (its folder made): `page.screenshot({ path: shotPath("x-dark.png") })`. */
export function shotPath(file: string): string {
  const dir = process.env.SHOTS_DIR || path.join("test-results", "screens");
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, file);
}
