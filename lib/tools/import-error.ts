import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Where a plugin's module failed: `file:line:column` and the lines around it. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
  /** A few numbered lines with `>` at the failing one and a caret under its column. */
  frame: string;
}

const CHECK_TIMEOUT_MS = 5000;
const MAX_FILES_CHECKED = 50;
const SCRIPT = /\.(m?js|cjs)$/;

/**
 * Finds where importing a plugin entry failed. A SyntaxError thrown by `import()` carries no
 * location at all (its stack is node:internal frames only), so the package's scripts are compiled
 * again with `node --check`, whose report names the line and marks the column; any other error's
 * stack is searched for the first frame inside the package.
 */
export async function locateImportError(error: Error, entryFile: string, packageDir: string): Promise<SourceLocation | null> {
  if (error.name === "SyntaxError") {
    for (const file of [entryFile, ...(await scriptsIn(packageDir)).filter((f) => f !== entryFile)].slice(0, MAX_FILES_CHECKED)) {
      const found = await syntaxCheck(file);
      if (found) return withFrame(found.file, found.line, found.column);
    }
  }
  const frame = firstFrameInside(error.stack ?? "", packageDir);
  return frame ? withFrame(frame.file, frame.line, frame.column) : null;
}

/** `node --check` prints `<file>:<line>`, the source line, and a caret line under the column. */
export function parseCheckOutput(stderr: string): { file: string; line: number; column: number } | null {
  const lines = stderr.split("\n");
  const at = lines.findIndex((l) => /^.+:\d+$/.test(l));
  const head = at === -1 ? undefined : /^(.+):(\d+)$/.exec(lines[at] ?? "");
  if (!head?.[1] || !head[2]) return null;
  const caret = lines.slice(at + 1, at + 4).find((l) => /^\s*\^+\s*$/.test(l));
  return { file: head[1], line: Number(head[2]), column: caret ? caret.indexOf("^") + 1 : 1 };
}

function syntaxCheck(file: string): Promise<{ file: string; line: number; column: number } | null> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--check", file], { timeout: CHECK_TIMEOUT_MS, env: { ...process.env, NODE_OPTIONS: "" } }, (err, _stdout, stderr) => {
      resolve(err ? parseCheckOutput(String(stderr)) : null);
    });
  });
}

/** The package's own scripts (not its node_modules), shallow first, for a SyntaxError in an imported file. */
async function scriptsIn(dir: string, depth = 0): Promise<string[]> {
  if (depth > 4) return [];
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile() && SCRIPT.test(e.name)).map((e) => path.join(dir, e.name));
  const subdirs = entries.filter((e) => e.isDirectory() && e.name !== "node_modules" && !e.name.startsWith("."));
  for (const sub of subdirs) files.push(...(await scriptsIn(path.join(dir, sub.name), depth + 1)));
  return files;
}

/** The first `file:line:column` of a stack that lies inside the package (plugins are imported by file URL, maybe with a query). */
export function firstFrameInside(stack: string, packageDir: string): { file: string; line: number; column: number } | null {
  for (const match of stack.matchAll(/(file:\/\/[^\s)?#]+|\/[^\s():?#]+)(?:\?[^\s):]*)?:(\d+):(\d+)/g)) {
    const [, where = "", line = "0", column = "0"] = match;
    const file = where.startsWith("file:") ? fileURLToPath(where) : where;
    const relative = path.relative(packageDir, file);
    if (!relative.startsWith("..") && !path.isAbsolute(relative)) return { file, line: Number(line), column: Number(column) };
  }
  return null;
}

async function withFrame(file: string, line: number, column: number): Promise<SourceLocation> {
  const text = await fs.readFile(file, "utf8").catch(() => "");
  return { file, line, column, frame: codeFrame(text, line, column) };
}

/** Two lines either side of `line`, numbered, with a caret under `column` (both 1-based). */
export function codeFrame(text: string, line: number, column: number): string {
  const lines = text.split("\n");
  if (line < 1 || line > lines.length) return "";
  const first = Math.max(1, line - 2);
  const last = Math.min(lines.length, line + 2);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    out.push(`${n === line ? ">" : " "} ${String(n).padStart(width)} | ${lines[n - 1] ?? ""}`);
    if (n === line) out.push(`  ${" ".repeat(width)} | ${" ".repeat(Math.max(0, column - 1))}^`);
  }
  return out.join("\n");
}
