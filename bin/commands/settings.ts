import type { Command } from "commander";
import { stringify } from "yaml";
import { maskSecrets } from "@/lib/settings/mask";
import { cliSettings } from "../context";
import { out } from "../stdout";

export function registerSettings(program: Command): void {
  program
    .command("settings")
    .description("print the effective settings as YAML, secrets masked")
    .option("--origin", "add which layer each value came from")
    .action((options: { origin?: boolean }) => {
      const loaded = cliSettings(program.opts<{ config?: string }>().config);
      out(stringify(maskSecrets(loaded.settings)));
      if (options.origin) {
        out("\n# origin of each value\n");
        for (const [key, source] of Object.entries(loaded.origin)) out(`# ${key}: ${source}\n`);
      }
    });
}
