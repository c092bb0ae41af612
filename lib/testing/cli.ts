import { spawn } from "node:child_process";
import path from "node:path";

/** bin/toolroom.mjs of this checkout. */
export const TOOLROOM_BIN = path.resolve(import.meta.dirname, "../../bin/toolroom.mjs");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a person running the CLI with only the test's settings: no TOOLROOM_*
 * variable and no ~/.config or state file of the developer's (XDG folders under `root`).
 */
function processEnv(root: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: path.join(root, "xdg-config"), XDG_STATE_HOME: path.join(root, "xdg-state") };
  for (const name of Object.keys(env)) if (name.startsWith("TOOLROOM_")) delete env[name];
  return env;
}

/** The same environment as plain strings, for clients that spawn the CLI themselves (MCP stdio). */
export function cliEnv(root: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(processEnv(root))) if (value !== undefined) env[name] = value;
  return env;
}

/** Runs `toolroom <args>` in `root` with stdin closed (no terminal to answer y/N); `env` adds variables (a $BROWSER). */
export function runToolroom(args: string[], root: string, env: Record<string, string> = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [TOOLROOM_BIN, ...args], { cwd: root, env: { ...processEnv(root), ...env } });
  child.stdin.end();
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
  child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
