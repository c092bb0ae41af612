import { Command, CommanderError } from "commander";
import { toolroomPackage } from "@/lib/server/tools-page/package-info";
import { registerAsk } from "./commands/ask";
import { registerCall } from "./commands/call";
import { registerDoctor } from "./commands/doctor";
import { registerIndex } from "./commands/index-cmd";
import { registerMcp } from "./commands/mcp";
import { registerRuns } from "./commands/runs";
import { registerSettings } from "./commands/settings";
import { registerTools } from "./commands/tools";
import { CliExit } from "./context";

export function buildProgram(): Command {
  const program = new Command("toolroom")
    .description("A playground for LLM agents and their tools.")
    .version(toolroomPackage().version, "-V, --version")
    .option("--config <path>", "settings file, above ./toolroom.yaml and below TOOLROOM_* variables")
    .showHelpAfterError()
    .exitOverride();
  registerSettings(program);
  registerDoctor(program);
  registerTools(program);
  registerCall(program);
  registerAsk(program);
  registerRuns(program);
  registerIndex(program);
  registerMcp(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    if (error instanceof CliExit) {
      if (error.message) console.error(error.message);
      process.exit(error.code);
    }
    console.error(`toolroom: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
