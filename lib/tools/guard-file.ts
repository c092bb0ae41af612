import fs from "node:fs/promises";
import path from "node:path";

/**
 * Where `madeChanges` results are recorded: inside a git work tree the commit hook's file,
 * else the project's own folder; settings `aiAssistedGuardFile` overrides both.
 */
export async function guardFilePath(sourceRoot: string, override?: string): Promise<string> {
  if (override) return path.resolve(sourceRoot, override);
  for (let dir = sourceRoot; ; dir = path.dirname(dir)) {
    try {
      const stat = await fs.stat(path.join(dir, ".git"));
      if (stat.isDirectory()) return path.join(dir, ".git", "commit-temp", "ai-assisted");
    } catch {
      // no .git here; keep walking up
    }
    if (path.dirname(dir) === dir) break;
  }
  return path.join(sourceRoot, ".toolroom", "ai-assisted");
}

/** Appends the driving model (`provider/model`) as one line. */
export async function appendAiAssisted(file: string, modelId: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.appendFile(file, `${modelId}\n`, "utf8");
}
