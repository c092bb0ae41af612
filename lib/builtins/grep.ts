import fs from "node:fs";
import { z } from "zod";
import { defineTool } from "@/lib/tools/define";
import { resolveWithin } from "@/lib/sandbox/resolve";
import { PATH_FORMAT } from "@/lib/sandbox/path-args";
import { decodeText, looksBinary } from "@/lib/sandbox/text";
import { breathe, walkSync } from "@/lib/sandbox/walk";
import { compileLinePattern, type LinePattern } from "./grep-pattern";

export const GREP_MAX_FILE_BYTES = 1024 * 1024;
const MAX_LINE_CHARS = 300;
const MAX_PATTERN_CHARS = 1000;
const BREATHE_MS = 25;

// Reading these only to find a NUL byte is wasted I/O.
const BINARY_EXTENSIONS = new Set(
  "png jpg jpeg gif webp bmp ico icns pdf zip gz tgz bz2 xz zst 7z rar jar war class so dylib dll exe o a lib obj woff woff2 ttf otf eot mp3 mp4 m4a wav ogg flac mov avi mkv webm wasm sqlite sqlite3 db pyc pyo npy npz pt pth onnx safetensors bin parquet".split(
    " ",
  ),
);

function hasBinaryExtension(name: string): boolean {
  const dot = name.lastIndexOf(".");
  return dot >= 0 && BINARY_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

const grepInput = z.object({
  pattern: z.string().describe("Regular expression in JavaScript syntax, matched per line (linear-time RE2: no backreferences or lookahead)."),
  path: z.string().default(".").describe("File or folder to search, relative to the source root.").meta({ format: PATH_FORMAT }),
  max_results: z.number().int().min(1).max(500).default(20).describe("Most matching lines to return."),
  case_sensitive: z.boolean().default(false).describe("Match case exactly (default: ignore case)."),
});
type GrepInput = z.input<typeof grepInput>;

export interface GrepMatch {
  rel: string;
  line: number;
  text: string;
}

export interface GrepOutcome {
  matches: GrepMatch[];
  /** More matches exist beyond `matches` (the scan stopped early). */
  more: boolean;
  skippedLarge: number;
}

/** Text tested between breaths: a linear-time scan of this much takes a few ms even in RE2JS. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The scan behind grep_code: each file is tested in chunks of whole lines (most have no match and
 * are never split into lines), then matching chunks line by line, stopping one match past the
 * limit. Matching is linear-time (see grep-pattern.ts) and the loop yields to the event loop every
 * few ms, so a scan neither blocks other requests nor outlives the tool's timeout.
 */
export async function grepFiles(
  files: Iterable<{ abs: string; rel: string; name: string }>,
  pattern: LinePattern,
  maxResults: number,
  signal?: AbortSignal,
): Promise<GrepOutcome> {
  const matches: GrepMatch[] = [];
  let skippedLarge = 0;
  let last = Date.now();
  /** True when the scan must stop (the signal fired). */
  const pause = async (): Promise<boolean> => {
    if (Date.now() - last <= BREATHE_MS) return false;
    if (await breathe(signal)) return true;
    last = Date.now();
    return false;
  };
  for (const file of files) {
    if (await pause()) break;
    if (hasBinaryExtension(file.name)) continue;
    const buf = readSmallFile(file.abs);
    if (buf === "large") {
      skippedLarge++;
      continue;
    }
    if (!buf || looksBinary(buf)) continue;
    // RE2's `$` does not match before "\r", V8's does: CRLF lines end the same way in both.
    const text = decodeText(buf).replaceAll("\r\n", "\n");
    let counted = 0;
    let lineNo = 1;
    for (let start = 0; start < text.length;) {
      if (start > 0 && (await pause())) return { matches, more: false, skippedLarge };
      let end = start + CHUNK_CHARS >= text.length ? text.length : text.indexOf("\n", start + CHUNK_CHARS);
      if (end < 0) end = text.length;
      const chunk = text.slice(start, end);
      if (pattern.test(chunk)) {
        for (let nl = text.indexOf("\n", counted); nl >= 0 && nl < start; nl = text.indexOf("\n", nl + 1)) lineNo++;
        counted = start;
        const lines = chunk.split("\n");
        for (let i = 0; i < lines.length; i++) {
          const line = lines[i]!;
          if (!pattern.test(line)) continue;
          if (matches.length === maxResults) return { matches, more: true, skippedLarge };
          const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
          matches.push({ rel: file.rel, line: lineNo + i, text: shown });
        }
      }
      start = end + 1;
    }
  }
  return { matches, more: false, skippedLarge };
}

/** The file's bytes, "large" past GREP_MAX_FILE_BYTES, or undefined if it cannot be read. */
function readSmallFile(abs: string): Buffer | "large" | undefined {
  try {
    const fd = fs.openSync(abs, "r");
    try {
      const size = fs.fstatSync(fd).size;
      if (size > GREP_MAX_FILE_BYTES) return "large";
      const buf = Buffer.allocUnsafe(size);
      let read = 0;
      while (read < size) {
        const n = fs.readSync(fd, buf, read, size - read, read);
        if (n === 0) break;
        read += n;
      }
      return read < size ? buf.subarray(0, read) : buf;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

export const grepCode = defineTool({
  name: "grep_code",
  description: `Search for a regex pattern across files in the source root.

Args: pattern — a regular expression in JavaScript syntax, matched line by line, ignoring case
unless case_sensitive is true; it runs in linear time (RE2), so backreferences and lookahead are
refused; path — a file or folder relative to the source root (default ".");
max_results — most lines to return (default 20).
Returns "Found N match(es):" then one "path:line: text" per match (paths relative to the source
root), or a line starting with "Error:" (bad regex, path outside the root or excluded). Skips
binary files, files over 1 MB, symlinks, build folders and .aiignored files.`,
  input: grepInput,
  readonly: true,
  execute: async (input: GrepInput, ctx) => {
    const pattern = input.pattern;
    if (typeof pattern !== "string" || pattern === "") return "Error: pattern must be a non-empty regular expression";
    if (pattern.length > MAX_PATTERN_CHARS) return `Error: pattern is longer than ${MAX_PATTERN_CHARS} characters`;
    const compiled = compileLinePattern(pattern, input.case_sensitive ?? false);
    if (typeof compiled === "string") return compiled;
    const maxResults = Math.max(1, Math.min(500, Math.floor(input.max_results ?? 20)));
    const target = resolveWithin(ctx.sourceRoot, input.path ?? ".");
    if (!target.ok) return target.error;
    if (!target.stat) return `Error: path not found: ${input.path}`;
    const files = target.stat.isDirectory()
      ? walkSync(target.root, target.rel)
      : target.stat.isFile()
        ? [{ abs: target.abs, rel: target.rel, name: target.rel.split("/").pop() ?? target.rel }]
        : [];
    const outcome = await grepFiles(files, compiled, maxResults, ctx.signal);
    if (ctx.signal.aborted) return "Error: grep_code was cancelled";
    const n = outcome.matches.length;
    const header = outcome.more
      ? `Found ${n}+ match(es) (showing the first ${n}; stopped there — narrow the pattern or path for the rest):`
      : n === 0
        ? `Found 0 match(es) for /${pattern}/ under "${target.rel}"`
        : `Found ${n} match(es):`;
    const lines = [header, ...outcome.matches.map((m) => `${m.rel}:${m.line}: ${m.text}`)];
    if (outcome.skippedLarge > 0) lines.push(`(skipped ${outcome.skippedLarge} file(s) over 1 MB)`);
    return lines.join("\n");
  },
});
