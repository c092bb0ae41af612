import fs from "node:fs";
import path from "node:path";
import { resolveWithin } from "@/lib/sandbox/resolve";

/** Larger entry files are shown up to this many bytes (bundled plugins can be megabytes). */
export const MAX_SOURCE_BYTES = 256 * 1024;

export interface SourceFile {
  ok: true;
  /** The entry file relative to the package folder (POSIX). */
  rel: string;
  code: string;
  /** Size of the whole file; `code` holds at most MAX_SOURCE_BYTES of it. */
  bytes: number;
  truncated: boolean;
  /** 1-based lines of the defining export, when found. */
  exportRange: { start: number; end: number } | null;
  lang: string;
  /** When a source map led from the entry to its TypeScript: the built file the server imports. */
  compiledFrom?: string;
}
export type SourceResult = SourceFile | { ok: false; error: string };

const LANGS: Record<string, string> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "jsx",
  ".json": "json",
};

export function langOf(file: string): string {
  return LANGS[path.extname(file).toLowerCase()] ?? "text";
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Where `exportName` is defined: `export const|let|var|function|class <name>`, `export default`
 * for "default", CommonJS `exports.<name> =`, or — for `export { name }` lists — the local
 * declaration of that name. Returns 1-based lines, the end found by the next line that closes at
 * column 0 (a heuristic: it is only for highlighting).
 */
export function findExportRange(code: string, exportName: string): { start: number; end: number } | null {
  const lines = code.split("\n");
  const n = escapeRe(exportName);
  const direct =
    exportName === "default"
      ? [/^\s*export\s+default\b/, /^\s*module\.exports\s*=/]
      : [
          new RegExp(`^\\s*export\\s+(?:declare\\s+)?(?:const|let|var)\\s+${n}\\b`),
          new RegExp(`^\\s*export\\s+(?:async\\s+)?function\\s*\\*?\\s*${n}\\b`),
          new RegExp(`^\\s*export\\s+(?:abstract\\s+)?class\\s+${n}\\b`),
          new RegExp(`^\\s*(?:module\\.)?exports\\.${n}\\s*=`),
        ];
  let start = lines.findIndex((l) => direct.some((re) => re.test(l)));
  if (start < 0) {
    // `export { local as name }` / `export { name }`: find the list, then the local declaration.
    const list = new RegExp(`export\\s*\\{[^}]*?\\b(?:(\\w+)\\s+as\\s+)?${n}\\b[^}]*\\}`).exec(code);
    if (list) {
      const local = escapeRe(list[1] ?? exportName);
      const decl = new RegExp(`^\\s*(?:const|let|var|(?:async\\s+)?function\\s*\\*?|class)\\s+${local}\\b`);
      start = lines.findIndex((l) => decl.test(l));
      if (start < 0) start = code.slice(0, list.index).split("\n").length - 1;
    }
  }
  if (start < 0) return null;
  const first = lines[start] ?? "";
  if (/;\s*$/.test(first) && !/[{([]\s*$/.test(first)) return { start: start + 1, end: start + 1 };
  const limit = Math.min(lines.length, start + 400);
  for (let i = start + 1; i < limit; i++) {
    if (/^[}\])]/.test(lines[i] ?? "")) return { start: start + 1, end: i + 1 };
  }
  return { start: start + 1, end: start + 1 };
}

/**
 * The tool's entry module, read from inside its package folder only: the path is resolved with
 * the sandbox (no `..`, absolute paths or symlinks leaving the folder), and large files are cut.
 */
export function readToolSource(packageDir: string, entryFile: string, exportName: string, maxBytes = MAX_SOURCE_BYTES): SourceResult {
  const built = readWithin(packageDir, entryFile, exportName, maxBytes);
  if (!built.ok) return built;
  const original = mappedSource(packageDir, built);
  if (!original) return built;
  const source = readWithin(packageDir, original, exportName, maxBytes);
  return source.ok ? { ...source, compiledFrom: built.rel } : built;
}

/**
 * The one original source a built entry's source map names (`tsc --sourceMap`: dist/tools.js.map
 * → ../src/tools.ts), relative to the package folder; null without a map, with several sources
 * (a bundle), or when it leads outside the package (readWithin refuses that anyway).
 */
function mappedSource(packageDir: string, built: SourceFile): string | null {
  const comment = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(built.code);
  const mapRel = comment?.[1] && !comment[1].startsWith("data:") ? path.posix.join(path.posix.dirname(built.rel), comment[1]) : `${built.rel}.map`;
  const map = resolveWithin(packageDir, mapRel, { label: "package folder", aiignore: false });
  if (!map.ok || !map.stat?.isFile() || map.stat.size > MAX_SOURCE_BYTES * 4) return null;
  try {
    const json = JSON.parse(fs.readFileSync(map.abs, "utf8")) as { sources?: unknown; sourceRoot?: unknown };
    if (!Array.isArray(json.sources) || json.sources.length !== 1 || typeof json.sources[0] !== "string") return null;
    const root = typeof json.sourceRoot === "string" ? json.sourceRoot : "";
    return path.posix.join(path.posix.dirname(map.rel), root, json.sources[0]);
  } catch {
    return null;
  }
}

function readWithin(packageDir: string, entryFile: string, exportName: string, maxBytes: number): SourceResult {
  // .aiignore guards what models may read; here a person reads the code of a tool they run.
  const resolved = resolveWithin(packageDir, entryFile, { label: "package folder", aiignore: false });
  if (!resolved.ok) return { ok: false, error: resolved.error.replace(/^Error:\s*/, "") };
  if (!resolved.stat?.isFile()) return { ok: false, error: `${entryFile} is not a file in ${packageDir}` };
  const bytes = resolved.stat.size;
  let code: string;
  try {
    const fd = fs.openSync(resolved.abs, "r");
    try {
      const buffer = Buffer.alloc(Math.min(bytes, maxBytes));
      const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
      code = buffer.subarray(0, read).toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    return { ok: false, error: `cannot read ${entryFile}: ${(error as Error).message}` };
  }
  const truncated = bytes > maxBytes;
  // A cut may split a multi-byte character or a line: drop the partial last line.
  if (truncated) code = code.slice(0, Math.max(0, code.lastIndexOf("\n")));
  return { ok: true, rel: resolved.rel, code, bytes, truncated, exportRange: findExportRange(code, exportName), lang: langOf(entryFile) };
}
