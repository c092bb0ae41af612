import type { CommandPolicy } from "@/lib/tools/types";

export const DEFAULT_ALLOWED_COMMANDS: readonly string[] = ["ls", "cat", "grep", "wc", "head", "tail", "find", "git"];
export const DEFAULT_BLOCKED_SUBSTRINGS: readonly string[] = ["rm -rf", "curl ", "wget ", "ssh ", "dd if=", "mkfs"];

export interface ShellPolicySettings {
  allowedCommands?: readonly string[];
  blockedSubstrings?: readonly string[];
}

/**
 * Shell syntax that could run a second program or write a file, refused wherever it appears
 * (even quoted: we do not try to out-parse the shell).
 */
const REFUSED_SYNTAX: readonly [string, string][] = [
  ["\n", "newline"],
  ["\r", "carriage return"],
  ["\0", "NUL byte"],
  ["||", "'||'"],
  ["&", "'&' (background or '&&')"],
  [";", "';'"],
  ["`", "backticks"],
  ["$(", "'$(' command substitution"],
  [">", "'>' redirection"],
  ["<", "'<' redirection"],
];

export const shellSyntaxPolicy: CommandPolicy = {
  name: "shell-syntax",
  check(command) {
    for (const [token, label] of REFUSED_SYNTAX) {
      if (command.includes(token)) return `shell syntax ${label} is not allowed; run one command or a '|' pipeline`;
    }
    return null;
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

/**
 * Splits a pipeline on unquoted `|`. Quotes only protect the pipe character here: everything
 * dangerous inside quotes was already refused by the syntax policy.
 */
export function pipelineStages(command: string): string[] {
  const stages: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote) {
      if (ch === "\\" && quote === '"') {
        current += ch + (command[i + 1] ?? "");
        i++;
        continue;
      }
      if (ch === quote) quote = null;
      current += ch;
      continue;
    }
    if (ch === "\\") {
      current += ch + (command[i + 1] ?? "");
      i++;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    if (ch === "|") {
      stages.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  stages.push(current);
  return stages.map((s) => s.trim());
}

// A program name the shell takes literally: no quotes, escapes, expansions, globs or assignments.
const PLAIN_PROGRAM = /^[A-Za-z0-9._+-]+$/;

/**
 * Arguments that make an allowlisted program run other programs, write files, or reach past the
 * root or the network: refused even when the program itself is allowed.
 */
const FIND_ESCAPES = /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/;
const GIT_OPTION_ESCAPES =
  /^(-c|-C|--config-env(=.*)?|--exec-path(=.*)?|--upload-pack(=.*)?|--receive-pack(=.*)?|--git-dir(=.*)?|--work-tree(=.*)?|--ext-diff|--textconv|--output(=.*)?|--exec(=.*)?|-x)$/;
const GIT_SUBCOMMAND_ESCAPES = new Set(
  "config daemon filter-branch submodule difftool mergetool bisect rebase push fetch pull clone remote ls-remote archive instaweb send-email credential upload-pack receive-pack shell p4 svn cvsimport hook maintenance".split(
    " ",
  ),
);

/**
 * A word as the shell might pass it, erring towards refusal: `'-exec'`, `-e\\xec`, `-ex${UNSET}ec`
 * and `-exe[c]` all read as -exec.
 */
function unquote(word: string): string {
  return word.replace(/\$\{[^}]*\}|\$[A-Za-z0-9_@*#?!$-]*/g, "").replace(/["'\\[\]*?]/g, "");
}

function escapingArgument(program: string, args: readonly string[]): string | null {
  if (program === "find") return args.find((a) => FIND_ESCAPES.test(a)) ?? null;
  if (program === "git") {
    const option = args.find((a) => GIT_OPTION_ESCAPES.test(a));
    if (option) return option;
    const sub = args.find((a) => !a.startsWith("-"));
    if (sub && GIT_SUBCOMMAND_ESCAPES.has(sub)) return sub;
  }
  return null;
}

export function allowlistPolicy(allowed: readonly string[]): CommandPolicy {
  const set = new Set(allowed);
  return {
    name: "allowlist",
    check(command) {
      const stages = pipelineStages(command);
      for (const [i, stage] of stages.entries()) {
        const where = stages.length > 1 ? ` (pipeline stage ${i + 1})` : "";
        if (stage === "") return `empty command${where}`;
        const program = stage.split(/\s+/, 1)[0]!;
        if (!PLAIN_PROGRAM.test(program)) return `"${program}" is not a plain program name${where}`;
        if (!set.has(program)) {
          return `"${program}" is not an allowed command${where}; allowed: ${[...set].sort().join(", ") || "(none)"}`;
        }
        const escaping = escapingArgument(program, stage.split(/\s+/).slice(1).map(unquote));
        if (escaping) return `"${program} ${escaping}" can run other programs, write files or leave the root${where}`;
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
