import fs from "node:fs";
import path from "node:path";

// The app's route handlers as they are on disk, for the tests that hold every one of them to a rule
// (route-guards: each is guarded; audit-trail: each state-changing one is audited or says why not).

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

export interface Route {
  file: string;
  /** The URL path with each [param] as `x` (and the catch-all as `get-session`). */
  path: string;
  method: Method;
  /** The access its `handle(…)` declares; null: none found. */
  access: string | null;
}

/** Every route handler under app/ (run from the repository root), with the access it declares. */
export function appRoutes(): Route[] {
  const found: Route[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const source = fs.readFileSync(full, "utf8");
        const urlPath = `/${path.relative("app", path.dirname(full))}`.replace(/\[\.\.\.[^\]]+\]/g, "get-session").replace(/\[[^\]]+\]/g, "x");
        for (const method of METHODS) {
          if (!new RegExp(`export (const|async function|function) ${method}\\b`).test(source)) continue;
          const access = new RegExp(`export const ${method} = handle\\("(public|viewer|member|admin)"`).exec(source)?.[1] ?? null;
          found.push({ file: full, path: urlPath, method, access });
        }
      }
    }
  };
  walk("app");
  return found;
}
