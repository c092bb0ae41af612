import { execFile } from "node:child_process";

/**
 * Repository config keys that make a read-only git command run a program, and that the tool
 * cannot override with `-c` or a flag (GIT_FORCED_GLOBAL neutralizes pager, fsmonitor, hooks,
 * signature programs, submodules and transports). Config keys have no abbreviations, so a list
 * of patterns holds here; keys are compared lower-cased, as git does for sections and names.
 */
const PROGRAM_KEYS: readonly RegExp[] = [
  /^diff\.external$/,
  /^diff\..+\.(command|textconv)$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^core\.(sshcommand|gitproxy|askpass|alternaterefscommand)$/,
  /^credential\.(.+\.)?helper$/,
  /^remote\..+\.(uploadpack|receivepack|vcs|promisor)$/,
  /^extensions\.partialclone$/,
  /^protocol\..+\.allow$/,
  /^uploadpack\.packobjectshook$/,
];

const CONFIG_TIMEOUT_MS = 10_000;

/**
 * Why git must not run in `cwd`: the effective config (with the command's environment, so only
 * the repository's own files and their includes) sets a key from PROGRAM_KEYS. Null when none.
 */
export function gitConfigRefusal(cwd: string, env: Record<string, string>): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      "git",
      ["--no-pager", "config", "--list", "-z"],
      { cwd, env: env as NodeJS.ProcessEnv, timeout: CONFIG_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024, encoding: "utf8" },
      (err, stdout) => {
        // Outside a repository `git config --list` succeeds with nothing; a failure here (broken
        // config, no git) would fail the command too, so refusing costs nothing and fails closed.
        if (err) return resolve(`could not read the repository's git config (${err.message.split("\n")[0]})`);
        for (const entry of stdout.split("\0")) {
          const key = entry.split("\n", 1)[0]!.toLowerCase();
          if (PROGRAM_KEYS.some((re) => re.test(key))) {
            return resolve(
              `the repository's git config sets "${key}", which git would run as a program; git commands are refused here until that setting is removed`,
            );
          }
        }
        resolve(null);
      },
    );
  });
}
