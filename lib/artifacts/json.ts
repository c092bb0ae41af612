import fs from "node:fs";
import path from "node:path";
import { LRUCache } from "lru-cache";

/** Every per-file read gives one of these, so one bad file never hides the rest of a run. */
export type FileResult<T> = { ok: true; data: T } | { ok: false; error: string };

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string; reason: string; line: number | null; column: number | null };

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * Parses JSON; on failure names the file and the line:column. V8 only sometimes puts an offset in
 * its message (and never for "Unexpected token"), so the position comes from our own scan.
 */
export function parseJson(text: string, file: string): JsonParse {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (e) {
    const found = findJsonError(body) ?? { offset: v8Offset(e, body), reason: "invalid JSON" };
    const { line, column } = lineColumn(body, found.offset);
    return { ok: false, error: `${file}:${line}:${column}: ${found.reason}`, reason: found.reason, line, column };
  }
}

function v8Offset(e: unknown, text: string): number {
  const m = e instanceof Error ? /at position (\d+)/.exec(e.message) : null;
  return m?.[1] ? Number(m[1]) : text.length;
}

function ioError(label: string, e: unknown): JsonParse {
  const reason = errnoText(e);
  return { ok: false, error: `${label}: ${reason}`, reason, line: null, column: null };
}

/** Size above which a file's parsed value is not kept in memory between reads. */
const CACHE_MAX_BYTES = 1 << 20;
const CACHE_MAX_ENTRIES = 2000;
const parsedCache = new LRUCache<string, { mtimeMs: number; size: number; parsed: JsonParse }>({ max: CACHE_MAX_ENTRIES });

/** Default for the `runs.maxArtifactBytes` setting. */
export const DEFAULT_MAX_ARTIFACT_BYTES = 256 * 1024 * 1024;

export interface ReadOptions {
  /** Files above this size are refused before reading (default 256 MiB): parsing one costs ~10× its size in memory. */
  maxBytes?: number;
}

function mib(bytes: number): string {
  return bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
}

/** The refusal for a file over the size limit, checked with stat before anything is read. */
export function tooBigError(label: string, size: number, maxBytes: number): string {
  return `${label}: ${mib(size)} is above the ${mib(maxBytes)} limit for reading an artifact; not read (raise runs.maxArtifactBytes in the settings to read it)`;
}

/**
 * Reads and parses a JSON file. `label` is how the file is named in errors (a run-relative path
 * reads better than an absolute one). Small files are cached by (mtime, size) because search and
 * the run tables re-read the same files on every request.
 */
export function readJsonFile(file: string, label = path.basename(file), options: ReadOptions = {}): JsonParse {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (e) {
    return ioError(label, e);
  }
  if (!stat.isFile()) return ioError(label, new Error("not a regular file"));
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_ARTIFACT_BYTES;
  if (stat.size > maxBytes) {
    const error = tooBigError(label, stat.size, maxBytes);
    return { ok: false, error, reason: error.slice(label.length + 2), line: null, column: null };
  }
  const cached = parsedCache.get(file);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return withLabel(cached.parsed, label);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    return ioError(label, e);
  }
  const parsed = parseJson(text, label);
  if (stat.size <= CACHE_MAX_BYTES) {
    parsedCache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, parsed });
  }
  return parsed;
}

/** A cached failure was worded with the label of its first read; reword it for this one. */
function withLabel(parsed: JsonParse, label: string): JsonParse {
  if (parsed.ok) return parsed;
  const where = parsed.line === null ? "" : `:${parsed.line}:${parsed.column}`;
  return { ...parsed, error: `${label}${where}: ${parsed.reason}` };
}

export function errnoText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT") return "file not found";
  if (code === "EACCES") return "permission denied";
  if (code === "EISDIR") return "is a directory";
  return e instanceof Error ? e.message : String(e);
}

type ScanError = { offset: number; reason: string };

/** Thrown inside the scanner to unwind to findJsonError with where and why the text stopped being JSON. */
class ScanStop extends Error {
  constructor(readonly found: ScanError) {
    super(found.reason);
  }
}

/** A minimal JSON scanner used only after JSON.parse failed, to locate the first error. */
export function findJsonError(text: string): ScanError | null {
  let i = 0;
  const n = text.length;
  const fail = (reason: string, at = i): never => {
    throw new ScanStop({ offset: at, reason });
  };
  const describe = (at: number) => (at >= n ? "unexpected end of input" : `unexpected ${JSON.stringify(text[at])}`);
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const str = () => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail("control character in string");
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === undefined) fail("unexpected end of input", n);
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("bad \\u escape", i);
          i += 6;
        } else if ('"\\/bfnrt'.includes(e as string)) i += 2;
        else fail("bad escape", i);
      } else i++;
    }
    fail("unterminated string", n);
  };
  const num = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === "-") fail(describe(i));
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i >= n ? describe(i) : `expected a property name, found ${JSON.stringify(text[i])}`);
        str();
        ws();
        if (text[i] !== ":") fail(i >= n ? describe(i) : `expected ':' after property name`);
        i++;
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        fail(i >= n ? describe(i) : `expected ',' or '}' after property value`);
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        fail(i >= n ? describe(i) : `expected ',' or ']' after array element`);
      }
    }
    if (c === '"') return str();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return num();
    for (const lit of ["true", "false", "null"]) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return;
      }
    }
    fail(describe(i));
  };
  try {
    value();
    ws();
    if (i < n) fail(`unexpected ${JSON.stringify(text[i])} after the JSON value`);
    return null;
  } catch (e) {
    if (e instanceof ScanStop) return e.found;
    return null; // e.g. nesting too deep for the stack: fall back to V8's offset
  }
}

/** Reads, parses and types one file; every failure (I/O, syntax, shape) becomes `{ ok: false }`. */
export function readTypedFile<T>(file: string, label: string, read: (raw: unknown, label: string) => T, options?: ReadOptions): FileResult<T> {
  const parsed = readJsonFile(file, label, options);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  try {
    return { ok: true, data: read(parsed.value, label) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
