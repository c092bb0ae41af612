import fs from "node:fs/promises";
import { resolveWithin, showPath } from "./resolve";
import { decodeText, looksBinary } from "./text";
// The kit's class: plugins and built-ins see one FileAccessError (a plugin's own kit copy matches by name).
import { FileAccessError } from "../../packages/toolroom-plugin-kit/index.js";

/** Past this, `read` refuses: a tool that wants part of a large file opens `resolve`'s path itself. */
const READ_MAX_BYTES = 20 * 1024 * 1024;

function refuse(error: string, input: unknown): never {
  throw new FileAccessError(error.replace(/^Error: /, ""), String(input));
}

/**
 * The sandbox as plugin tools get it (`ctx.files`): the built-ins' rules — `..`, absolute paths
 * outside, symlinks leading out, URL-encoded and Windows spellings, NUL bytes, `.aiignore` at every
 * depth, Toolroom's own cache — through the same `resolveWithin`.
 */
export function toolFiles(root: string) {
  const resolve = (input: string): string => {
    const target = resolveWithin(root, input);
    if (!target.ok) refuse(target.error, input);
    return target.abs;
  };
  return {
    resolve,
    /** The safe absolute paths of the regular files among `paths`; missing, folders, outside and ignored ones are dropped. */
    filter(paths: readonly string[]): string[] {
      const kept: string[] = [];
      for (const p of paths) {
        const target = resolveWithin(root, p);
        if (target.ok && target.stat?.isFile()) kept.push(target.abs);
      }
      return kept;
    },
    /** The text of a regular file inside the root. */
    async read(input: string): Promise<string> {
      const target = resolveWithin(root, input);
      if (!target.ok) refuse(target.error, input);
      const shown = showPath(String(input));
      if (!target.stat) refuse(`file not found: ${shown}`, input);
      if (!target.stat.isFile()) refuse(`${shown} is not a regular file`, input);
      if (target.stat.size > READ_MAX_BYTES) refuse(`${shown} is too large to read (${target.stat.size} bytes)`, input);
      let buf: Buffer;
      try {
        buf = await fs.readFile(target.abs);
      } catch (err) {
        refuse(`cannot read ${shown}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, input);
      }
      if (looksBinary(buf)) refuse(`${shown} is a binary file (${buf.length} bytes)`, input);
      return decodeText(buf);
    },
  };
}
