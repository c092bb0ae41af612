import fs from "node:fs";
import { Option, type Command } from "commander";
import { collectionJunit, collectionTable } from "@/lib/evals/collection-report";
import { runCollection, type CallAttempt } from "@/lib/evals/collection-run";
import { CollectionError, loadCollection, toolProblems } from "@/lib/evals/collection";
import { VAR_NAME } from "@/lib/evals/collection-schema";
import { REPORTERS, type Reporter } from "@/lib/evals/reporters";
import { settingsRuleDecider } from "@/lib/server/approvals/settings-rules";
import { attemptOf, RunApprovals, unsupervised } from "@/lib/server/collections/collection-calls";
import { loadRegistry } from "@/lib/server/runtime/registry";
import { runTryIt, type TryItDeps } from "@/lib/server/try-it/try-it";
import { CliExit, cliSettings } from "../context";
import { out } from "../stdout";

interface RunOptions {
  var: string[];
  reporter: Reporter;
  out?: string;
  approve?: boolean;
}

/** `--var name=value`, repeatable; the last one of a name wins. */
function varsOf(given: string[]): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const item of given) {
    const eq = item.indexOf("=");
    const name = eq < 0 ? item : item.slice(0, eq);
    if (eq < 0 || !VAR_NAME.test(name)) throw new CliExit(2, `toolroom: --var ${item}: expected name=value (a name of letters, digits, '_' and '-').`);
    vars[name] = item.slice(eq + 1);
  }
  return vars;
}

/**
 * One call through try-it's service (the approval rules first, then the tool's own confirmation).
 * A confirming call is approved only with --approve: an unattended run never approves.
 */
async function attempt(deps: TryItDeps, approve: boolean, tool: string, input: Record<string, unknown>): Promise<CallAttempt> {
  const first = (await runTryIt(tool, { input }, deps)).body;
  if (first.status !== "approval-required") return attemptOf(first, "unsupervised")!;
  if (!approve) return unsupervised(deps, tool, input);
  const approved = (await runTryIt(tool, { input, approvalId: first.approvalId, decision: "approve" }, deps)).body;
  return attemptOf(approved, "user (--approve)") ?? unsupervised(deps, tool, input);
}

export function registerCollection(program: Command): void {
  const collection = program.command("collection").description("collections of saved tool calls (*.calls.yaml): a regression suite for your tools");
  collection
    .command("run <file>")
    .description("run every call of a collection in order and check its expectations; exit 0 all passed, 1 one failed, 2 the file is invalid")
    .option("--var <name=value>", "set a var over the collection's default (repeatable)", (v: string, all: string[]) => [...all, v], [])
    .addOption(new Option("--reporter <name>", "how the results are printed").choices(REPORTERS).default("table"))
    .option("--out <file>", "write the report to this file (the table still goes to stdout)")
    .option("--approve", "approve confirming calls as the local user (approval rules in settings still decide first)")
    .action(async (file: string, options: RunOptions) => {
      const { settings } = cliSettings(program.opts<{ config?: string }>().config);
      const vars = varsOf(options.var);
      let loaded;
      try {
        loaded = loadCollection(file, file, Object.keys(vars));
      } catch (error) {
        if (error instanceof CollectionError) throw new CliExit(2, error.message);
        throw error;
      }
      const registry = await loadRegistry({ settings, log: () => {} });
      try {
        // Only tools that already exist: a collection cannot load or enable any. Checked before any call runs.
        const missing = toolProblems(loaded, file, (tool) => {
          const registered = registry.get(tool);
          if (!registered) return `no tool named ${tool} is registered (toolroom tools lists them)`;
          return registered.enabled ? undefined : `${tool} is disabled in settings (tools.${tool}.enabled)`;
        });
        if (missing) throw new CliExit(2, missing);
        const deps: TryItDeps = { registry, settings, approvals: new RunApprovals(), rules: settingsRuleDecider(settings) };
        const run = await runCollection(
          loaded.collection,
          vars,
          (tool, input) => attempt(deps, options.approve === true, tool, input),
          (r, i) => process.stderr.write(`[${i + 1}/${loaded.collection.calls.length}] ${r.name}: ${r.verdict}\n`),
        );
        const text =
          options.reporter === "json" ? `${JSON.stringify(run, null, 2)}\n` : options.reporter === "junit" ? collectionJunit(run) : collectionTable(run);
        if (options.out) {
          fs.writeFileSync(options.out, text);
          if (options.reporter !== "table") out(collectionTable(run));
        } else out(text);
        if (run.failed) throw new CliExit(1, `toolroom: ${run.failed} of ${run.results.length} calls failed.`);
      } finally {
        await registry.close?.();
      }
    });
}
