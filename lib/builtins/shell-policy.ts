import type { CommandPolicy } from "@/lib/tools/types";
import { programArgumentsRefusal } from "./shell-programs";
import { parseCommand } from "./shell-words";

export const DEFAULT_ALLOWED_COMMANDS: readonly string[] = ["ls", "cat", "grep", "wc", "head", "tail", "find", "git"];
export const DEFAULT_BLOCKED_SUBSTRINGS: readonly string[] = ["rm -rf", "curl ", "wget ", "ssh ", "dd if=", "mkfs"];

export interface ShellPolicySettings {
  allowedCommands?: readonly string[];
  blockedSubstrings?: readonly string[];
}

/**
 * The command must parse into plain words (shell-words.ts): shell syntax that could run a second
 * program, redirect, or expand is refused; quoted text is just text, since the tool runs the words
 * it parsed, each single-quoted.
 */
export const shellSyntaxPolicy: CommandPolicy = {
  name: "shell-syntax",
  check(command) {
    const parsed = parseCommand(command);
    return parsed.ok ? null : parsed.reason;
  },
};

export function blockedSubstringsPolicy(blocked: readonly string[]): CommandPolicy {
  return {
    name: "blocked-substrings",
    check(command) {
      const hit = blocked.find((s) => s !== "" && command.includes(s));
      return hit === undefined ? null : `the command contains the blocked text "${hit}"`;
    },
  };
}

// A program name run as given: no path, so PATH (absolute entries only) picks it.
const PLAIN_PROGRAM = /^[A-Za-z0-9._+-]+$/;

/**
 * Each stage's program must be allowlisted; the default programs' arguments must pass their
 * allow-lists (shell-programs.ts). A program the settings add beyond those runs with any arguments.
 */
export function allowlistPolicy(allowed: readonly string[]): CommandPolicy {
  const set = new Set(allowed);
  return {
    name: "allowlist",
    check(command) {
      const parsed = parseCommand(command);
      if (!parsed.ok) return parsed.reason;
      const { stages } = parsed;
      for (const [i, words] of stages.entries()) {
        const where = stages.length > 1 ? ` (pipeline stage ${i + 1})` : "";
        const [program, ...args] = words;
        if (program === undefined) return `empty command${where}`;
        if (!PLAIN_PROGRAM.test(program)) return `"${program}" is not a plain program name${where}`;
        if (!set.has(program)) {
          return `"${program}" is not an allowed command${where}; allowed: ${[...set].sort().join(", ") || "(none)"}`;
        }
        const refusal = programArgumentsRefusal(program, args);
        if (refusal) return `${refusal}${where}`;
      }
      return null;
    },
  };
}

function stringList(value: unknown, fallback: readonly string[]): readonly string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? value : fallback;
}

/** The built-in admission policies for these settings, in the order they are checked. */
export function commandPolicies(settings: ShellPolicySettings | Record<string, unknown>): CommandPolicy[] {
  const s = settings as Record<string, unknown>;
  return [
    shellSyntaxPolicy,
    blockedSubstringsPolicy(stringList(s.blockedSubstrings, DEFAULT_BLOCKED_SUBSTRINGS)),
    allowlistPolicy(stringList(s.allowedCommands, DEFAULT_ALLOWED_COMMANDS)),
  ];
}

/** Why `command` is refused, or null to admit it (before any human is asked). */
export function admitCommand(
  command: string,
  settings: ShellPolicySettings | Record<string, unknown> = {},
  extra: readonly CommandPolicy[] = [],
): string | null {
  if (typeof command !== "string" || command.trim() === "") return "empty command";
  for (const policy of [...commandPolicies(settings), ...extra]) {
    let reason: string | null;
    try {
      reason = policy.check(command);
    } catch (err) {
      // A policy that cannot decide refuses: admission fails closed.
      reason = `policy "${policy.name}" failed: ${(err as Error).message}`;
    }
    if (reason !== null) return reason;
  }
  return null;
}
