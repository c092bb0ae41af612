import { spawn } from "node:child_process";
import os from "node:os";
import { z } from "zod";
import { defineTool } from "@/lib/tools/define";
import type { NotAdmittedReason } from "@/lib/tools/types";
import { commandEnv } from "./shell-env";
import { gitConfigRefusal } from "./shell-git-config";
import { admitCommand, DEFAULT_ALLOWED_COMMANDS } from "./shell-policy";
import { CHECKED_PROGRAMS, GIT_SUBCOMMANDS, hardenGit } from "./shell-programs";
import { parseCommand, renderPipeline } from "./shell-words";

export const SHELL_OUTPUT_MAX_CHARS = 4000;
const DEFAULT_TIMEOUT_SECONDS = 60;

export interface CommandResult {
  exitCode: number;
  output: string;
  totalChars: number;
  timedOut: boolean;
  cancelled: boolean;
}

/**
 * The leader of a command's process group. Its stdin is a pipe from this process, which nothing
 * ever writes to: when this process dies, even by SIGKILL, the kernel closes the pipe, the
 * watcher's read returns and it kills the whole group — a detached group would otherwise outlive
 * the server. The command itself reads /dev/null, and its exit status is the leader's.
 */
const GROUP_LEADER = `exec 3<&0 </dev/null
/bin/sh -c "$1" 3<&- &
command=$!
{ read -r _ <&3; kill -KILL 0; } >/dev/null 2>&1 &
watcher=$!
exec 3<&-
wait "$command"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"`;

/**
 * Runs `/bin/sh -c command` in `cwd` with `env` (the minimal command environment unless given),
 * stdout and stderr interleaved, the process group killed on timeout, abort or this process's death.
 */
export function runShell(
  command: string,
  cwd: string,
  timeoutMs: number,
  signal?: AbortSignal,
  env: Record<string, string> = commandEnv(),
): Promise<CommandResult> {
  return new Promise((resolve) => {
    let output = "";
    let totalChars = 0;
    let timedOut = false;
    let cancelled = false;
    const child = spawn("/bin/sh", ["-c", GROUP_LEADER, "toolroom-command", command], {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so a timeout kills the whole pipeline, not just the shell.
      detached: true,
      // Next types ProcessEnv with a required NODE_ENV; the command gets none of the server's variables.
      env: env as NodeJS.ProcessEnv,
    });
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const collect = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      totalChars += text.length;
      if (output.length < SHELL_OUTPUT_MAX_CHARS) output += text.slice(0, SHELL_OUTPUT_MAX_CHARS - output.length);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    const finish = (code: number) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve({ exitCode: timedOut ? 124 : cancelled ? 130 : code, output, totalChars, timedOut, cancelled });
    };
    child.on("error", (err) => {
      output += `${err.message}\n`;
      finish(127);
    });
    child.on("close", (code, sig) => finish(code ?? (sig ? 128 + (os.constants.signals[sig] ?? 0) : 1)));
  });
}

function commandSettings(settings: Record<string, unknown>) {
  const t = settings.timeoutSeconds;
  const passEnv = Array.isArray(settings.passEnv) ? settings.passEnv.filter((n): n is string => typeof n === "string") : [];
  return { timeoutSeconds: typeof t === "number" && t > 0 ? t : DEFAULT_TIMEOUT_SECONDS, passEnv };
}

/**
 * The command line that runs for an admitted command: its parsed words, each quoted, so the shell
 * sees exactly what admission checked; git gets the tool's own options that keep config from
 * choosing programs to run.
 */
function hardenedCommandLine(command: string): { line: string; usesGit: boolean } {
  const parsed = parseCommand(command);
  if (!parsed.ok) throw new Error(`admitted command does not parse: ${parsed.reason}`);
  const stages = parsed.stages.map(([program, ...args]) => (program === "git" ? ["git", ...hardenGit(args)] : [program!, ...args]));
  return { line: renderPipeline(stages), usesGit: stages.some(([program]) => program === "git") };
}

const shellInput = z.object({
  command: z.string().describe("One command or a '|' pipeline; every stage's program must be allowlisted."),
});
type ShellInput = z.input<typeof shellInput>;

export const runTerminalCommand = defineTool({
  name: "run_terminal_command",
  description: `Execute a terminal command, starting in the source root, after a human approves it.

This is not a sandbox: an approved command runs with the server's user permissions and can read
anything that user can. Every call needs approval. Before anyone is asked, the command must pass
admission. It is split into words as a shell would, and what a shell would expand or chain is
refused outside single quotes: ";", "&", "||", backticks, "$", globs, "~", braces, "<", ">" and
newlines; the tool then runs exactly those words. Each stage of a "|" pipeline must start with an
allowed program (settings tools.run_terminal_command.allowedCommands, default ${DEFAULT_ALLOWED_COMMANDS.join(", ")}).
${CHECKED_PROGRAMS.join(", ")} only take the read-only options on their allow-lists, long options
spelled out in full; git only runs read-only subcommands (${[...GIT_SUBCOMMANDS.keys()].join(", ")}),
and find has no -exec, -ok, -delete or -fprint. Another program added to allowedCommands gets any
arguments. Blocked substrings (such as "rm -rf") are refused. Commands run with a minimal
environment (PATH, HOME, LANG, TERM and the names in passEnv), never the server's.
Args: command — the command line.
Returns "Exit code: N" on the first line, then stdout and stderr (first ${SHELL_OUTPUT_MAX_CHARS} characters);
"DENIED: <reason>" when admission refused it (nothing ran); a "Not run: …" line when the user
denied it or did not answer in time.`,
  input: shellInput,
  readonly: false,
  confirm: {
    evaluate: () => true,
    when: "before every command",
    notAdmitted: (input: ShellInput, why: NotAdmittedReason) => {
      const cmd = JSON.stringify(String(input?.command ?? ""));
      if (why.kind === "denied") return `Not run: the user denied ${cmd}${why.reason ? ` (reason: ${why.reason})` : ""}`;
      if (why.kind === "timed-out") return `Not run: nobody approved ${cmd} in time (the approval request timed out)`;
      return `Not run: ${cmd} needs a human's approval and this chat is unsupervised`;
    },
  },
  execute: async (input: ShellInput, ctx) => {
    const command = typeof input.command === "string" ? input.command : "";
    const refusal = admitCommand(command, ctx.settings, ctx.commandPolicies);
    if (refusal !== null) return `DENIED: ${refusal}`;
    const { timeoutSeconds, passEnv } = commandSettings(ctx.settings);
    const env = commandEnv(passEnv);
    const { line, usesGit } = hardenedCommandLine(command);
    if (usesGit) {
      const configRefusal = await gitConfigRefusal(ctx.sourceRoot, env);
      if (configRefusal !== null) return `DENIED: ${configRefusal}`;
    }
    const result = await runShell(line, ctx.sourceRoot, timeoutSeconds * 1000, ctx.signal, env);
    const lines = [`Exit code: ${result.exitCode}`];
    if (result.timedOut) lines.push(`(killed: timed out after ${timeoutSeconds} s)`);
    if (result.cancelled) lines.push("(killed: cancelled)");
    let body = result.output;
    if (result.totalChars > SHELL_OUTPUT_MAX_CHARS) body += `\n... (output truncated, ${result.totalChars} total chars)`;
    if (body) lines.push(body.replace(/\n$/, ""));
    return lines.join("\n");
  },
});
