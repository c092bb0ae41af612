import path from "node:path";
import type { Command } from "commander";
import { diffRuns, type RunDiff } from "@/lib/evals/diff";
import { EvalRunReadError, readEvalRunFacts } from "@/lib/evals/run-files";
import { runsRootOf } from "@/lib/settings";
import { cliSettings, CliExit } from "../context";
import { out } from "../stdout";

const HEADINGS: [keyof Pick<RunDiff, "regressed" | "fixed" | "flaky" | "new" | "removed">, string][] = [
  ["regressed", "Regressed"],
  ["fixed", "Fixed"],
  ["flaky", "Flaky"],
  ["new", "New"],
  ["removed", "Removed"],
];

/** What a person reads: each change with the cells it happened in, then the warnings. */
export function diffText(diff: RunDiff): string {
  const lines: string[] = [];
  for (const [key, heading] of HEADINGS) {
    const rows = diff.details.filter((d) => d.change === key);
    if (!rows.length) continue;
    lines.push(`${heading} (${diff[key].length}):`);
    for (const d of rows) lines.push(`  ${d.case}  [${d.cell}]  ${d.before ?? "–"} → ${d.after ?? "–"}${d.reason ? `: ${d.reason}` : ""}`);
  }
  if (!lines.length) lines.push("No case changed.");
  for (const w of diff.warnings) lines.push(`warning: ${w}`);
  return lines.join("\n");
}

export function registerEvalDiff(evalCommand: Command, program: Command): void {
  evalCommand
    .command("diff <runA> <runB>")
    .description("per-case changes from eval run A to run B (folders under runsRoot, or absolute): regressed, fixed, flaky, new, removed")
    .option(
      "--json",
      'print { "regressed": [...], "fixed": [...], "flaky": [...], "new": [...], "removed": [...], "cellsRemoved", "cellsAdded", "details", "warnings" }',
    )
    .action((a: string, b: string, own: { json?: boolean }) => {
      // `eval` has its own --json, and commander hands an option after the arguments to the parent.
      const json = own.json ?? evalCommand.opts<{ json?: boolean }>().json;
      const root = runsRootOf(cliSettings(program.opts<{ config?: string }>().config).settings);
      const facts = (given: string) => {
        const dir = path.isAbsolute(given) ? given : path.resolve(root, given);
        try {
          return readEvalRunFacts(dir, given);
        } catch (error) {
          if (error instanceof EvalRunReadError) throw new CliExit(2, `toolroom: ${error.message}`);
          throw error;
        }
      };
      const diff = diffRuns(facts(a), facts(b));
      out(json ? `${JSON.stringify(diff, null, 2)}\n` : `${diffText(diff)}\n`);
      for (const w of json ? diff.warnings : []) process.stderr.write(`warning: ${w}\n`);
    });
}
