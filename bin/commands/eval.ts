import path from "node:path";
import { Option, type Command } from "commander";
import { summarize } from "@/lib/evals/results";
import { EvalSizeError } from "@/lib/evals/runner";
import { evaluate } from "@/lib/server/evals/evaluate";
import { loadSuite, SuiteError } from "@/lib/evals/suite";
import { ModelConfigError } from "@/lib/chat/models";
import type { TextProtocol } from "@/lib/chat/text-protocol/types";
import type { ToolMode } from "@/lib/evals/suite-schema";
import { CliExit, cliSettings } from "../context";
import { evalProgress } from "./eval-progress";
import { alignTable } from "./runs";

interface EvalOptions {
  models?: string;
  modes?: string;
  protocols?: string;
  trials?: string;
  concurrency: string;
  minPass?: string;
  json?: boolean;
  resume?: string;
}

function list<T extends string>(value: string | undefined, allowed: readonly T[] | null, flag: string): T[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new CliExit(2, `toolroom: ${flag} is empty.`);
  const bad = allowed ? items.filter((i) => !allowed.includes(i as T)) : [];
  if (bad.length) throw new CliExit(2, `toolroom: ${flag} ${bad.join(", ")}: expected ${allowed!.join(", ")}.`);
  return items as T[];
}

function positive(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliExit(2, `toolroom: ${flag} must be a whole number ≥ 1 (got ${value}).`);
  return n;
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

export function registerEval(program: Command): void {
  program
    .command("eval <suite>")
    .description("run an eval suite (*.eval.yaml) over models × tool modes through the chat engine; the results are a run under runsRoot/evals")
    .option("--models <list>", "models from settings llms, comma-separated (default: the suite's matrix)")
    .option("--modes <list>", "tool modes: native,text (default: the suite's matrix)")
    .option("--protocols <list>", "text protocols for text mode: json,action (default: the suite's, else settings chat.textProtocol)")
    .option("--trials <n>", "trials per case and cell (default: the suite's matrix)")
    .option("--concurrency <k>", "trials run at once", "4")
    .addOption(new Option("--min-pass <rate>", "exit 1 when the pass rate (0..1) is below this"))
    .option("--json", "print the summary as JSON on stdout (progress still goes to stderr)")
    .option("--resume <dir>", "finish an interrupted or cancelled run: only the trials missing from its trials.jsonl run, into that folder")
    .action(async (file: string, options: EvalOptions) => {
      const { settings } = cliSettings(program.opts<{ config?: string }>().config);
      const minPass = options.minPass === undefined ? undefined : Number(options.minPass);
      if (minPass !== undefined && !Number.isFinite(minPass)) throw new CliExit(2, `toolroom: --min-pass must be a number (got ${options.minPass}).`);
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
      let evaluation;
      try {
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
          models: list(options.models, null, "--models"),
          modes: list<ToolMode>(options.modes, ["native", "text"], "--modes"),
          protocols: list<TextProtocol>(options.protocols, ["json", "action"], "--protocols"),
          trials: positive(options.trials, "--trials"),
          concurrency: positive(options.concurrency, "--concurrency"),
          // No database here: the trials are in cases.json; runs started from /evals are also stored as chats.
          onTrial: (record, done, total) => progress.trial(record, done, total),
        });
      } catch (error) {
        if (error instanceof ModelConfigError || error instanceof EvalSizeError) throw new CliExit(2, `toolroom: ${error.message}`);
        throw error;
      } finally {
        process.off("SIGINT", onInterrupt);
      }
      const summary = summarize(evaluation.run);
      const rel = path.relative(process.cwd(), evaluation.dir);
      const shown = rel.startsWith("..") ? evaluation.dir : rel;
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ suite: loaded.suite.name, dir: evaluation.dir, ...summary }, null, 2)}\n`);
      } else {
        const rows = summary.cells.map((c) => [
          c.name,
          String(c.trials),
          String(c.passed),
          String(c.failed),
          String(c.errors),
          pct(c.passRate),
          c.p50Ms === null ? "–" : c.p50Ms.toFixed(0),
          c.topReason ?? "",
        ]);
        process.stdout.write(
          `${alignTable(["CELL", "TRIALS", "PASSED", "FAILED", "ERRORS", "PASS", "P50 MS", "TOP MISMATCH"], rows, new Set([1, 2, 3, 4, 5, 6]))}\n`,
        );
        process.stdout.write(`\n${summary.passed}/${summary.total} passed (${pct(summary.passRate)}) · results: ${shown}\n`);
      }
      if (evaluation.run.partial)
        throw new CliExit(
          130,
          `toolroom: cancelled: ${evaluation.run.trials.length} of ${evaluation.run.total} trials ran; finish them with --resume ${shown}`,
        );
      if (minPass !== undefined && summary.passRate < minPass)
        throw new CliExit(1, `toolroom: pass rate ${pct(summary.passRate)} is below --min-pass ${pct(minPass)}.`);
    });
}
