import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { BfclImportError, bfclSuiteYaml } from "@/lib/evals/bfcl";
import { parseSuite, SuiteError } from "@/lib/evals/suite";
import { CliExit } from "../context";
import { counted } from "../counted";

function read(file: string, flag: string): { text: string; file: string } {
  try {
    return { text: fs.readFileSync(file, "utf8"), file };
  } catch (error) {
    throw new CliExit(2, `toolroom: ${flag} ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** `foo.eval.yaml` → `foo`, made a valid suite name. */
function suiteNameOf(out: string): string {
  return (
    path
      .basename(out)
      .replace(/\.eval\.ya?ml$|\.ya?ml$/, "")
      .replace(/[^\w.-]+/g, "-") || "bfcl"
  );
}

export function registerEvalImport(evalCommand: Command): void {
  evalCommand
    .command("import-bfcl")
    .description("convert BFCL (Berkeley Function Calling Leaderboard) single-turn data into an eval suite: one case per entry")
    .requiredOption("--questions <file>", "BFCL_v4_<category>.json: the entries (one JSON object a line)")
    .option("--answers <file>", "possible_answer/BFCL_v4_<category>.json (not needed for irrelevance)")
    .option("--out <file>", "the suite to write (FILE.eval.yaml)")
    .option("--name <name>", "the suite's name (default: from --out)")
    .action((own: { questions: string; answers?: string; out?: string; name?: string }) => {
      // `eval` has its own --out, and commander hands an option it knows to the parent.
      const out = own.out ?? evalCommand.opts<{ out?: string }>().out;
      if (!out) throw new CliExit(2, "toolroom: import-bfcl needs --out FILE.eval.yaml");
      const options = { ...own, out };
      let yaml: string;
      try {
        yaml = bfclSuiteYaml({
          name: options.name ?? suiteNameOf(options.out),
          questions: read(options.questions, "--questions"),
          ...(options.answers ? { answers: read(options.answers, "--answers") } : {}),
        });
        // What is written must load: the importer and the suite format are checked against each other.
        const suite = parseSuite(yaml, options.out);
        fs.writeFileSync(options.out, yaml);
        process.stderr.write(`wrote ${options.out}: ${counted(suite.cases.length, "case")}\n`);
      } catch (error) {
        if (error instanceof BfclImportError || error instanceof SuiteError || error instanceof SyntaxError)
          throw new CliExit(2, `toolroom: import-bfcl: ${error.message}`);
        throw error;
      }
    });
}
