import path from "node:path";
import { UNPASSABLE_ENV_NAME } from "@/lib/settings/schema";

/**
 * Git and pager settings every command runs with: no system or user config (a repository's own
 * config is checked in shell-git-config.ts), no pager, no prompt, no optional index writes, no
 * lazy fetch of missing objects.
 */
const FIXED_ENV: Readonly<Record<string, string>> = {
  PAGER: "cat",
  GIT_PAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_ATTR_NOSYSTEM: "1",
  GIT_OPTIONAL_LOCKS: "0",
  GIT_NO_LAZY_FETCH: "1",
};

/**
 * The environment a command runs with — never the server's, which holds provider API keys:
 * PATH (its absolute entries only, so a program name cannot resolve inside the source root),
 * HOME, LANG, TERM, the names `passEnv` lists, then the fixed settings above.
 */
export function commandEnv(passEnv: readonly string[] = [], from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  const pathEntries = (from.PATH ?? "").split(path.delimiter).filter((p) => path.isAbsolute(p));
  env.PATH = pathEntries.length > 0 ? pathEntries.join(path.delimiter) : "/usr/local/bin:/usr/bin:/bin";
  for (const name of ["HOME", "LANG", "TERM", ...passEnv]) {
    const value = from[name];
    if (value !== undefined && name !== "PATH" && !UNPASSABLE_ENV_NAME.test(name)) env[name] = value;
  }
  return { ...env, ...FIXED_ENV };
}
