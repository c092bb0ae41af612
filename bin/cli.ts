import { Command, CommanderError } from "commander";
import { toolroomPackage } from "@/lib/server/tools-page/package-info";
import { registerAsk } from "./commands/ask";
import { registerCall } from "./commands/call";
import { registerCollection } from "./commands/collection";
import { registerDoctor } from "./commands/doctor";
import { registerEval } from "./commands/eval";
import { registerIndex } from "./commands/index-cmd";
import { registerMcp } from "./commands/mcp";
import { registerRuns } from "./commands/runs";
import { registerServe } from "./commands/serve";
import { registerSettings } from "./commands/settings";
import { registerTools } from "./commands/tools";
import { registerUsers } from "./commands/users";
import { registerWorker } from "./commands/worker";
import { flushOtlp } from "@/lib/trace/otlp";
import { CliExit, cliSettings } from "./context";
import { prepareStore } from "./store";
import { out, reserveStdout } from "./stdout";

/**
 * The commands that read or write the store: directly (mcp login, logout) or through the registry,
 * which reads and writes the sign-in state of the `mcpServers` behind OAuth. Each is migrated for
 * first. `doctor` is not here: it must change nothing, so it says what to run instead.
 */
export const STORE_COMMANDS: ReadonlySet<string> = new Set([
  "tools",
  "call",
  "ask",
  "eval",
  "mcp",
  "mcp login",
  "mcp logout",
  "worker",
  ...["users add", "users list", "users set-role", "users remove", "tokens create", "tokens list", "tokens revoke"],
]);

/** `mcp login` for the command `toolroom mcp login` runs. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

export function buildProgram(): Command {
  const program = new Command("toolroom")
    .description("A playground for LLM agents and their tools.")
    .version(toolroomPackage().version, "-V, --version")
    .option("--config <path>", "settings file, above ./toolroom.yaml and below TOOLROOM_* variables")
    .showHelpAfterError()
    // Help and --version are the command's answer: the real stdout (subcommands inherit this).
    .configureOutput({ writeOut: (text) => void out(text) })
    .exitOverride()
    .hook("preAction", async (_program, action) => {
      if (!STORE_COMMANDS.has(commandPath(action))) return;
      // The database the settings name (database.url), not only DATABASE_URL's.
      cliSettings(program.opts<{ config?: string }>().config);
      await prepareStore();
    });
  registerServe(program);
  registerSettings(program);
  registerDoctor(program);
  registerTools(program);
  registerCall(program);
  registerAsk(program);
  registerRuns(program);
  registerEval(program);
  registerCollection(program);
  registerIndex(program);
  registerMcp(program);
  registerWorker(program);
  registerUsers(program);
  return program;
}

/**
 * Output into a pipe whose reader has gone (`toolroom settings | head -1`) ends the command
 * quietly, as other command-line tools do, instead of an unhandled EPIPE with a stack.
 */
export function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(0);
  });
}

export async function main(argv: string[]): Promise<void> {
  exitQuietlyOnClosedPipe();
  reserveStdout();
  try {
    await buildProgram().parseAsync(argv);
    await flushOtlp();
  } catch (error) {
    // The spans of a command that failed are what a person most wants to see in their collector.
    await flushOtlp().catch(() => {});
    // A command line commander refuses (an unknown option, a choice not allowed) is a usage error:
    // exit 2, as for a bad suite, so CI does not read it as "cases failed" (1). Help and --version stay 0.
    if (error instanceof CommanderError) process.exit(error.exitCode === 1 ? 2 : error.exitCode);
    if (error instanceof CliExit) {
      if (error.message) console.error(error.message);
      process.exit(error.code);
    }
    console.error(`toolroom: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
