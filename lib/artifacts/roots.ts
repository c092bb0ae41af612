import fs from "node:fs";
import path from "node:path";

/** The real path of `p` when it exists, else `p` resolved: symlinks cannot smuggle a root past the check. */
function real(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * Whether `candidate` (absolute) is one of the `allowed` roots or a folder inside one. Compared by
 * real path, so `/allowed/link-to-etc` and `/allowed/../etc` are judged by where they lead.
 */
export function isAllowedRoot(candidate: string, allowed: readonly string[]): boolean {
  const c = real(candidate);
  return allowed.some((a) => {
    const r = real(a);
    const rel = path.relative(r, c);
    return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
  });
}
