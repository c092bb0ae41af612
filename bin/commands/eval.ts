import path from "node:path";
import { Option, type Command } from "commander";
import { EvalSizeError } from "@/lib/evals/runner";
import { evaluate } from "@/lib/server/evals/evaluate";
import { REPORTERS, type Reporter } from "@/lib/evals/reporters";
import { loadSuite, SuiteError } from "@/lib/evals/suite";
import { sweepChoice } from "@/lib/evals/sweep";
import { ModelConfigError } from "@/lib/chat/models";
import { TEXT_PROTOCOLS, type TextProtocol } from "@/lib/chat/text-protocol/types";
import type { ToolMode } from "@/lib/evals/suite-schema";
import { databaseKind, databaseUrl } from "@/lib/db/url";
import { CliExit, cliSettings } from "../context";
import { queuedEval } from "./eval-queued";
import { registerEvalDiff } from "./eval-diff";
import { registerEvalImport } from "./eval-import";
import { evalProgress } from "./eval-progress";
import { minPassOf, report } from "./eval-report";

interface EvalOptions {
  models?: string;
  modes?: string;
  protocols?: string;
  trials?: string;
  concurrency: string;
  minPass?: string;
  json?: boolean;
  resume?: string;
  reporter: Reporter;
  out?: string;
}

/** A comma-separated list of `allowed` values; `also` names a word the flag takes besides a list (`all`). */
function list<T extends string>(value: string | undefined, allowed: readonly T[] | null, flag: string, also?: string): T[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new CliExit(2, `toolroom: ${flag} is empty.`);
  const bad = allowed ? items.filter((i) => !allowed.includes(i as T)) : [];
  if (bad.length)
    throw new CliExit(2, `toolroom: ${flag} ${bad.join(", ")}: expected ${also ? `${also}, or a comma-separated list of ` : ""}${allowed!.join(", ")}.`);
  return items as T[];
}

function positive(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliExit(2, `toolroom: ${flag} must be a whole number ≥ 1 (got ${value}).`);
  return n;
}

export function registerEval(program: Command): void {
  const evalCommand = program
    .command("eval <suite>")
    .description("run an eval suite (*.eval.yaml) over models × tool modes through the chat engine; the results are a run under runsRoot/evals")
    .option("--models <list>", "models from settings llms, comma-separated (default: the suite's matrix)")
    .option("--modes <list>", "tool modes: native,text (default: the suite's matrix)")
    .option(
      "--protocols <list>",
      `text protocols for text mode: ${TEXT_PROTOCOLS.join(",")}, or all (with native too) (default: the suite's, else settings chat.textProtocol)`,
    )
    .option("--trials <n>", "trials per case and cell (default: the suite's matrix)")
    .option("--concurrency <k>", "trials run at once", "4")
    .addOption(new Option("--min-pass <rate>", "exit 1 when the pass rate (0..1) is below this (default: when any case fails)"))
    .option("--json", "print the summary as JSON on stdout (progress still goes to stderr); the same as --reporter json")
    .addOption(new Option("--reporter <name>", "how the results are printed").choices(REPORTERS).default("table"))
    .option("--out <file>", "write the report to this file (the table still goes to stdout)")
    .option("--resume <dir>", "finish an interrupted or cancelled run: only the trials missing from its trials.jsonl run, into that folder")
    .action(async (file: string, options: EvalOptions) => {
      const { settings } = cliSettings(program.opts<{ config?: string }>().config);
      const minPass = minPassOf(options.minPass);
      let loaded;
      try {
        loaded = loadSuite(file);
      } catch (error) {
        if (error instanceof SuiteError) throw new CliExit(2, error.message);
        throw error;
      }
      const progress = evalProgress(process.stderr);
      // Ctrl-C: no new trial starts, the running ones end (within their timeouts), and what
      // finished is written as a partial run; a second Ctrl-C stops the running ones too.
      const stop = new AbortController();
      const hard = new AbortController();
      const onInterrupt = () => {
        if (stop.signal.aborted) hard.abort();
        else {
          stop.abort();
          process.stderr.write("\ntoolroom: cancelling: no new trials start; the running ones finish (Ctrl-C again to stop them too).\n");
        }
      };
      process.on("SIGINT", onInterrupt);
      const choice = {
        models: list(options.models, null, "--models"),
        // `--protocols all`: native and every text protocol, unless --modes says otherwise (as over HTTP).
        ...sweepChoice({
          modes: list<ToolMode>(options.modes, ["native", "text"], "--modes"),
          protocols: options.protocols === "all" ? "all" : list<TextProtocol>(options.protocols, TEXT_PROTOCOLS, "--protocols", "all"),
        }),
        trials: positive(options.trials, "--trials"),
      };
      let evaluation;
      try {
        // On a team's PostgreSQL store the run is queued for the workers; --resume and --concurrency are the in-process run's.
        if (databaseKind(databaseUrl()) === "postgresql") {
          if (options.resume)
            throw new CliExit(2, "toolroom: --resume continues a run folder of an in-process run; a queued run is resumed from the Evals page.");
          evaluation = await queuedEval({ loaded, file, settings, choice, stop: stop.signal, progress: (s) => progress.queued(s) });
        } else
          evaluation = await evaluate({
            loaded,
            settings,
            // Named on the command line: the local user's own act, so the suite may load its plugins,
            // configure tools and approve its cases' calls.
            trusted: true,
            trustKey: file,
            journal: options.resume ? { dir: path.resolve(options.resume) } : {},
            stop: stop.signal,
            signal: hard.signal,
            ...choice,
            concurrency: positive(options.concurrency, "--concurrency"),
            // No database here: the trials are in cases.json; runs started from /evals are also stored as chats.
            onTrial: (record, done, total) => progress.trial(record, done, total),
          });
      } catch (error) {
        if (error instanceof ModelConfigError || error instanceof EvalSizeError) throw new CliExit(2, `toolroom: ${error.message}`);
        if (error instanceof SuiteError) throw new CliExit(2, error.message);
        throw error;
      } finally {
        process.off("SIGINT", onInterrupt);
      }
      const rel = path.relative(process.cwd(), evaluation.dir);
      const shown = rel.startsWith("..") ? evaluation.dir : rel;
      const input = {
        reporter: options.json ? "json" : options.reporter,
        ...(options.out ? { out: options.out } : {}),
        suite: loaded.suite.name,
        dir: evaluation.dir,
        shownDir: shown,
        run: evaluation.run,
      } as const;
      // A cancelled run is reported as far as it got, without a pass bar (it is a part), and says
      // how to finish it (exit 130, as Ctrl-C).
      if (evaluation.run.partial) {
        report({ ...input, minPass: 0 });
        throw new CliExit(
          130,
          `toolroom: cancelled: ${evaluation.run.trials.length} of ${evaluation.run.total} trials ran; finish them ${"queued" in evaluation ? "with Resume on the Evals page" : `with --resume ${shown}`}`,
        );
      }
      report({ ...input, ...(minPass !== undefined ? { minPass } : {}) });
    });
  registerEvalImport(evalCommand);
  registerEvalDiff(evalCommand, program);
}
