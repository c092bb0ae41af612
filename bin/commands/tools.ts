import type { Command } from "commander";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { diagnosticReport, registryJson, registryText } from "@/lib/tools/registry-json";
import { cliSettings } from "../context";

const STDERR_LINES = 8;

function tail(text: string, lines: number): string {
  return text.split("\n").slice(-lines).join("\n");
}

export function registerTools(program: Command): void {
  program
    .command("tools")
    .description("list every registered tool; skip reasons go to stderr")
    .option("--json", "print the registry as JSON on stdout")
    .action(async (options: { json?: boolean }) => {
      const { settings } = cliSettings(program.opts<{ config?: string }>().config);
      // Skip reasons are reported once, below, one line each; the full stacks stay in --json's diagnostics.
      const registry = await loadRegistry({ settings, log: () => {} });
      // MCP server processes are stopped before the command returns, or Node would wait on them.
      try {
        for (const d of registry.diagnostics) {
          console.error(`toolroom: ${diagnosticReport(d)}`);
          // A failed server's last words usually name the cause (a missing key, a bad argument).
          if (d.stderr) console.error(tail(d.stderr, STDERR_LINES).replace(/^/gm, "    "));
        }
        if (options.json) process.stdout.write(`${JSON.stringify(registryJson(registry), null, 2)}\n`);
        else process.stdout.write(`${registryText(registry)}\n`);
      } finally {
        await registry.close?.();
      }
    });
}
