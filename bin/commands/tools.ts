import type { Command } from "commander";
import { loadRegistry } from "@/lib/app/registry";
import { diagnosticLine, registryJson, registryText } from "@/lib/tools/registry-json";
import { cliSettings } from "../context";

export function registerTools(program: Command): void {
  program
    .command("tools")
    .description("list every registered tool; skip reasons go to stderr")
    .option("--json", "print the registry as JSON on stdout")
    .action(async (options: { json?: boolean }) => {
      const { settings } = cliSettings(program.opts<{ config?: string }>().config);
      // Skip reasons are reported once, below, one line each; the full stacks stay in --json's diagnostics.
      const registry = await loadRegistry({ settings, log: () => {} });
      for (const d of registry.diagnostics) console.error(`toolroom: ${diagnosticLine(d)}`);
      if (options.json) process.stdout.write(`${JSON.stringify(registryJson(registry), null, 2)}\n`);
      else process.stdout.write(`${registryText(registry)}\n`);
    });
}
