import { spawn } from "node:child_process";
import os from "node:os";
import { z } from "zod";
import { defineTool } from "@/lib/tools/define";
import type { NotAdmittedReason } from "@/lib/tools/types";
import { admitCommand, DEFAULT_ALLOWED_COMMANDS } from "./shell-policy";

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

/** Runs `/bin/sh -c command` in `cwd`, stdout and stderr interleaved, the process group killed on timeout, abort or this process's death. */
export function runShell(command: string, cwd: string, timeoutMs: number, signal?: AbortSignal): Promise<CommandResult> {
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
      env: { ...process.env, PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" },
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
  return { timeoutSeconds: typeof t === "number" && t > 0 ? t : DEFAULT_TIMEOUT_SECONDS };
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
admission: each stage of a "|" pipeline must start with an allowed program (settings
tools.run_terminal_command.allowedCommands, default ${DEFAULT_ALLOWED_COMMANDS.join(", ")}); ";", "&", "&&", "||",
backticks, "$(", ">" and "<" redirection and newlines are refused, as are blocked substrings
(such as "rm -rf") and arguments that make an allowed program run others (find -exec, git -c).
Args: command — the command line.
Returns "Exit code: N" on the first line, then stdout and stderr (first ${SHELL_OUTPUT_MAX_CHARS} characters);
"DENIED: <reason>" when admission refused it (nothing ran); a "Not run: …" line when the user
denied it or did not answer in time.`,
  input: shellInput,
  readonly: false,
  confirm: {
    evaluate: () => true,
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
    const { timeoutSeconds } = commandSettings(ctx.settings);
    const result = await runShell(command, ctx.sourceRoot, timeoutSeconds * 1000, ctx.signal);
    const lines = [`Exit code: ${result.exitCode}`];
    if (result.timedOut) lines.push(`(killed: timed out after ${timeoutSeconds} s)`);
    if (result.cancelled) lines.push("(killed: cancelled)");
    let body = result.output;
    if (result.totalChars > SHELL_OUTPUT_MAX_CHARS) body += `\n... (output truncated, ${result.totalChars} total chars)`;
    if (body) lines.push(body.replace(/\n$/, ""));
    return lines.join("\n");
  },
});
