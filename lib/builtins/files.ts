import fs from "node:fs";
import { z } from "zod";
import { defineTool } from "@/lib/tools/define";
import { resolveWithin, showPath } from "@/lib/sandbox/resolve";
import { PATH_FORMAT } from "@/lib/sandbox/path-args";
import { decodeText, looksBinary } from "@/lib/sandbox/text";
import { walkSync } from "@/lib/sandbox/walk";

const MAX_LIST_ENTRIES = 500;
export const READ_MAX_CHARS = 8000;
// Past this, reading the whole file to show 8000 characters of it is waste; grep finds the lines.
const READ_MAX_BYTES = 20 * 1024 * 1024;

const listInput = z.object({
  path: z.string().default(".").describe("Folder to list, relative to the source root. Default: the root.").meta({ format: PATH_FORMAT }),
});

export const listFiles = defineTool({
  name: "list_files",
  description: `List files and directories under the given path inside the source root.

Args: path — a folder relative to the source root (default ".").
Returns one path per line, relative to the source root, folders suffixed "/", recursively in name
order (at most ${MAX_LIST_ENTRIES} entries, then a count of the rest); "(empty directory)" when
there is nothing; or a line starting with "Error:". Skips .git, node_modules, build and cache
folders, symlinks and anything excluded by .aiignore.`,
  input: listInput,
  readonly: true,
  execute: (input: z.infer<typeof listInput>, ctx) => {
    const target = resolveWithin(ctx.sourceRoot, input.path ?? ".");
    if (!target.ok) return target.error;
    if (!target.stat) return `Error: path not found: ${showPath(input.path)}`;
    if (target.stat.isFile()) return target.rel;
    if (!target.stat.isDirectory()) return `Error: not a file or directory: ${showPath(input.path)}`;
    const lines: string[] = [];
    let more = 0;
    for (const entry of walkSync(target.root, target.rel, { includeDirs: true })) {
      if (lines.length < MAX_LIST_ENTRIES) lines.push(entry.isDir ? `${entry.rel}/` : entry.rel);
      else more++;
    }
    if (lines.length === 0) return "(empty directory)";
    if (more > 0) lines.push(`... (${more} more entries not shown; list a subfolder to see them)`);
    return lines.join("\n");
  },
});

const readInput = z.object({
  path: z.string().describe("File to read, relative to the source root.").meta({ format: PATH_FORMAT }),
  offset: z.number().int().min(1).optional().describe("First line to show, 1-based. Default 1."),
  limit: z.number().int().min(1).optional().describe("How many lines to show. Default: all."),
});

export const readFile = defineTool({
  name: "read_file",
  description: `Read the contents of a text file inside the source root.

Args: path — a file relative to the source root; offset — first line to show (1-based, optional);
limit — how many lines to show (optional).
Returns the file's text (with a "<path> (lines a-b of N):" header when offset or limit is given),
cut at ${READ_MAX_CHARS} characters with "... (truncated, N total chars)"; or a line starting with
"Error:" for a missing, binary, out-of-root or .aiignored file.`,
  input: readInput,
  readonly: true,
  execute: (input: z.infer<typeof readInput>, ctx) => {
    const target = resolveWithin(ctx.sourceRoot, input.path);
    if (!target.ok) return target.error;
    const shown = showPath(input.path);
    if (!target.stat) return `Error: file not found: ${shown}`;
    if (target.stat.isDirectory()) return `Error: ${shown} is a directory; use list_files to see what it holds`;
    if (!target.stat.isFile()) return `Error: ${shown} is not a regular file`;
    if (target.stat.size > READ_MAX_BYTES) {
      return `Error: ${shown} is too large to read (${target.stat.size} bytes); use grep_code to find the lines you need`;
    }
    let buf: Buffer;
    try {
      buf = fs.readFileSync(target.abs);
    } catch (err) {
      return `Error: cannot read ${shown}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
    }
    if (looksBinary(buf)) return `Error: ${shown} is a binary file (${buf.length} bytes); read_file shows text only`;
    let text = decodeText(buf);
    if (input.offset !== undefined || input.limit !== undefined) {
      const lines = text.split("\n");
      if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
      const start = input.offset ?? 1;
      if (start > lines.length) return `Error: offset ${start} is past the end of ${shown} (${lines.length} lines)`;
      const end = input.limit === undefined ? lines.length : Math.min(lines.length, start + input.limit - 1);
      text = `${target.rel} (lines ${start}-${end} of ${lines.length}):\n${lines.slice(start - 1, end).join("\n")}`;
    }
    if (text.length > READ_MAX_CHARS) {
      return `${text.slice(0, READ_MAX_CHARS)}\n... (truncated, ${text.length} total chars; pass offset and limit to read further)`;
    }
    return text;
  },
});
