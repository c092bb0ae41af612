import type { Command } from "commander";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { registryCost } from "@/lib/server/tools-page/token-cost";
import { lintTool } from "@/lib/tools/lint";
import { diagnosticReport, registryJson, registryText } from "@/lib/tools/registry-json";
import type { Registry } from "@/lib/tools/registry-types";
import { cliSettings } from "../context";
import { counted } from "../counted";
import { out } from "../stdout";

const STDERR_LINES = 8;

function tail(text: string, lines: number): string {
  return text.split("\n").slice(-lines).join("\n");
}

export function registerTools(program: Command): void {
  program
    .command("tools")
    .description("list every registered tool; skip reasons go to stderr")
    .option("--json", "print the registry as JSON on stdout, with each tool's token estimate")
    .option("--lint", "check every tool's description (exit 1 when a finding is an error)")
    .action(async (options: { json?: boolean; lint?: boolean }) => {
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
        if (options.lint) {
          const errors = printLint(registry, options.json === true);
          if (errors > 0) process.exitCode = 1;
        } else if (options.json) out(`${JSON.stringify(await withEstimates(registry), null, 2)}\n`);
        else out(`${registryText(registry)}\n`);
      } finally {
        await registry.close?.();
      }
    });
}

/** The registry JSON, each tool with `token_estimate` (native definition, text-mode line; the tokenizer named). */
async function withEstimates(registry: Registry) {
  const cost = await registryCost(registry);
  const json = registryJson(registry);
  return Object.fromEntries(
    Object.entries(json).map(([name, tool]) => [name, { ...tool, token_estimate: { ...cost.perTool[name], tokenizer: cost.tokenizer } }]),
  );
}

/** One line per finding, `name  severity  rule  message`, or JSON; returns the count of errors. */
function printLint(registry: Registry, json: boolean): number {
  const findings = registry.tools.map((tool) => ({ tool: tool.name, sourcePackage: tool.sourcePackage, findings: lintTool(tool) }));
  const errors = findings.reduce((n, t) => n + t.findings.filter((f) => f.severity === "error").length, 0);
  const warnings = findings.reduce((n, t) => n + t.findings.length, 0) - errors;
  if (json) {
    out(`${JSON.stringify(Object.fromEntries(findings.map((t) => [t.tool, t.findings])), null, 2)}\n`);
    return errors;
  }
  for (const t of findings) for (const f of t.findings) out(`${t.tool}  [${t.sourcePackage}]  ${f.severity}  ${f.rule}: ${f.message}\n`);
  out(`${counted(registry.tools.length, "tool")} checked: ${counted(errors, "error")}, ${counted(warnings, "warning")}\n`);
  return errors;
}
