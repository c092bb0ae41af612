import fs from "node:fs";
import path from "node:path";

/** Toolroom's own name and version: the source package of every built-in. */
export function toolroomPackage(cwd = process.cwd()): { name: string; version: string; dir: string } {
  try {
    const json = JSON.parse(fs.readFileSync(path.join(cwd, "package.json"), "utf8")) as { name?: string; version?: string };
    return { name: "toolroom", version: json.version ?? "0.0.0", dir: cwd };
  } catch {
    return { name: "toolroom", version: "0.0.0", dir: cwd };
  }
}
