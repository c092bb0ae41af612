import { generateId, type UIMessage } from "ai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ModelResolver } from "@/lib/chat/models";
import type { TextProtocol } from "@/lib/chat/text-protocol/types";
import type { Settings } from "@/lib/settings/schema";
import type { Registry } from "@/lib/tools/registry-types";
import { knownSecrets } from "@/lib/security/secrets";
import type { TraceStepData } from "@/lib/trace/types";
import { cellName, recordedCell } from "./cell-name";
import { judgeCallCount, type JudgeRecord } from "./judge";
import type { MadeCall } from "./matchers";
import type { EvalCase, Suite, ToolMode } from "./suite-schema";
import { problemLines, SuiteError } from "./suite";
import { caseToolProblems } from "./suite-tools";
import { casePrompt, runTrial, type TurnBase } from "./trial";
import type { TranscriptRef, TranscriptWriter } from "./transcript";

/** Trials running at once in one eval, whatever the caller asks: each holds a chat turn and its tools. */
export const MAX_CONCURRENCY = 32;

/** One column of the matrix: a model in a tool mode (and, in text mode, a protocol). */
export interface EvalCell {
  name: string;
  model: string;
  mode: ToolMode;
  protocol: TextProtocol | null;
}

export interface TrialRecord {
  cell: string;
  model: string;
  mode: ToolMode;
  protocol: TextProtocol | null;
  case: string;
  trial: number;
  prompt: string;
  calls: MadeCall[];
  answer: string;
  steps: number;
  verdict: "pass" | "fail" | "error";
  /** The first mismatch (all of them in `reasons`). */
  reason: string | null;
  reasons: string[];
  latency_ms: number;
  /** From the provider's usage, summed over the turn's steps; null when it reported none. */
  input_tokens: number | null;
  output_tokens: number | null;
  /** The stored chat of this trial (null when the run stores none, as the CLI does). */
  chat_id: string | null;
  /** The trial's transcript in the run folder (kept when there is no chat: the CLI's runs). */
  transcript?: TranscriptRef;
  /** What the case's judge said (`expect.answer.judge`), when it was asked. */
  judge?: JudgeRecord;
}

/** One finished trial as a store keeps it: its chat (messages and trace) and its record, which names the chat. */
export interface StoredTrial {
  chat: { id: string; title: string; modelRef: string; toolMode: ToolMode };
  messages: UIMessage[];
  trace: TraceStepData[];
  record: TrialRecord;
}

/**
 * Where trials are kept as chats; the server stores them, the CLI has no database. A trial is
 * recorded when `save` resolves (before `onTrial`), so a store that keeps the chat and the record
 * in one commit never leaves a chat whose trial a resumed run would run again.
 */
export interface TrialStore {
  /** false: the store held this trial already (a job's second attempt), so it is not counted again. */
  save(trial: StoredTrial): Promise<boolean | void>;
}

export interface MatrixChoice {
  models?: string[];
  modes?: ToolMode[];
  protocols?: TextProtocol[];
  trials?: number;
}

/**
 * The settings-derived part of one trial's turn (limits, tool context, error text, approval
 * rules), built by the caller: the runner knows the chat engine, not where tools get their context.
 */
export type TurnFor = (trial: { chatId: string; cell: EvalCell; model: LanguageModelV4 }) => Omit<TurnBase, "signal" | "generateMessageId">;

export interface RunEvalOptions extends MatrixChoice {
  suite: Suite;
  /** The suite's file, for load errors found before the run (a case's tools); else they name the suite. */
  file?: string;
  settings: Settings;
  registry: Registry;
  resolver: ModelResolver;
  turnFor: TurnFor;
  concurrency?: number;
  /** Cancel: no trial starts after it aborts; running ones end on their own (within their timeouts). */
  stop?: AbortSignal;
  /** Aborts running turns as well (a second Ctrl-C). */
  signal?: AbortSignal;
  store?: TrialStore;
  /** Keeps each trial's transcript in the run folder (where no store keeps it as a chat). */
  transcripts?: TranscriptWriter;
  /** Trials a previous attempt finished (a resumed run): kept, not run again. */
  finished?: TrialRecord[];
  /** When the run first started (a resumed run keeps its own). */
  startedAt?: Date;
  onTrial?(record: TrialRecord, done: number, total: number): void | Promise<void>;
}

export interface EvalRunResult {
  cells: EvalCell[];
  /** In matrix order (cell, case, trial); a cancelled run lacks the trials that never ran. */
  trials: TrialRecord[];
  trialsPerCase: number;
  /** Every trial of the matrix, run or not. */
  total: number;
  /** Fewer trials than the matrix has: cancelled. */
  partial: boolean;
  startedAt: Date;
  finishedAt: Date;
}

export class EvalSizeError extends Error {}

/** The cells a run covers: the suite's matrix, narrowed or replaced by the caller's choice; a model named twice is one column. */
export function matrixCells(suite: Suite, settings: Settings, choice: MatrixChoice = {}): EvalCell[] {
  const models = [...new Set(choice.models ?? suite.matrix.models)];
  const modes = [...new Set(choice.modes ?? suite.matrix.modes)];
  const cells: EvalCell[] = [];
  for (const model of models) {
    // Unless the run or the suite names protocols, a model speaks its own (`llms.<name>.textProtocol`).
    const protocols = [...new Set(choice.protocols ?? suite.matrix.protocols ?? [settings.llms[model]?.textProtocol ?? settings.chat.textProtocol])];
    for (const mode of modes)
      for (const protocol of mode === "text" ? protocols : [null]) cells.push({ name: cellName(model, mode, protocol), model, mode, protocol });
  }
  return cells;
}

/** Trials in one run of this matrix: cells × cases × trials. */
export function trialCount(suite: Suite, settings: Settings, choice: MatrixChoice = {}): number {
  return matrixCells(suite, settings, choice).length * suite.cases.length * (choice.trials ?? suite.matrix.trials);
}

/** The judges' model calls of one run of this matrix, at most (see lib/evals/judge.ts). */
export function judgeCalls(suite: Suite, settings: Settings, choice: MatrixChoice = {}): number {
  return judgeCallCount(suite, matrixCells(suite, settings, choice).length, choice.trials ?? suite.matrix.trials);
}

/**
 * Refuses a run above `evals.maxTrials`, with the number, before anything starts. The bound is on
 * model turns, so a judge's calls (one per judged trial, at most) count as trials too.
 */
export function assertTrialBound(total: number, settings: Settings, judged = 0): void {
  const max = settings.evals.maxTrials;
  if (total + judged > max) {
    const size = judged
      ? `${total.toLocaleString("en")} trials and up to ${judged.toLocaleString("en")} judge calls (${(total + judged).toLocaleString("en")} in all)`
      : `${total.toLocaleString("en")} trials`;
    throw new EvalSizeError(
      `This eval would run ${size}, above the limit of ${max.toLocaleString("en")} (settings evals.maxTrials): choose fewer models, modes or trials.`,
    );
  }
}

const trialKey = (cell: string, caseName: string, trial: number) => JSON.stringify([cell, caseName, trial]);

/** Trial `i` of a matrix in its order: cell, then case, then trial (0-based here; records count from 1). */
export function matrixJob(cells: readonly EvalCell[], cases: readonly EvalCase[], trials: number, i: number): { cell: EvalCell; c: EvalCase; trial: number } {
  const perCell = cases.length * trials;
  if (!Number.isInteger(i) || i < 0 || i >= cells.length * perCell) throw new RangeError(`No trial ${i} in a run of ${cells.length * perCell}.`);
  return { cell: cells[Math.floor(i / perCell)]!, c: cases[Math.floor((i % perCell) / trials)]!, trial: i % trials };
}

/** A run's matrix, checked and resolved, that runs any one of its trials by index: in-process or as a job. */
export interface PreparedEval {
  cells: EvalCell[];
  trialsPerCase: number;
  total: number;
  /** Which trial an index is: (cell, case, trial 1-based) in matrix order. */
  keyAt(i: number): { cell: string; case: string; trial: number };
  /**
   * Runs trial `i` and keeps it (the store, the transcript); null when `signal` aborted under it (a
   * cut-off turn is no result) or the store already held it (another attempt of the same job did it).
   */
  runAt(i: number, signal: AbortSignal): Promise<TrialRecord | null>;
}

export type PrepareEvalOptions = Omit<RunEvalOptions, "concurrency" | "stop" | "signal" | "finished" | "startedAt" | "onTrial">;

/** Checks the suite's tools, models and size, before any trial runs. */
export function prepareEval(options: PrepareEvalOptions): PreparedEval {
  const { suite, settings, registry, resolver } = options;
  const suiteTools = { suite: suite.name, tools: suite.tools ?? [] };
  const toolProblems = caseToolProblems(registry, suiteTools, suite.cases);
  if (toolProblems.length) throw new SuiteError(problemLines(options.file ?? suite.name, suite, toolProblems));
  const cells = matrixCells(suite, settings, options);
  for (const cell of cells) resolver.byName(cell.model);
  for (const c of suite.cases) if (c.expect.answer?.judge !== undefined && c.expect.answer.model) resolver.byName(c.expect.answer.model);
  const trials = options.trials ?? suite.matrix.trials;
  const total = cells.length * suite.cases.length * trials;
  assertTrialBound(total, settings, judgeCallCount(suite, cells.length, trials));
  const jobAt = (i: number) => matrixJob(cells, suite.cases, trials, i);
  const secrets = knownSecrets(settings);
  const runAt = async (i: number, signal: AbortSignal): Promise<TrialRecord | null> => {
    const { cell, c, trial } = jobAt(i);
    const model = resolver.byName(cell.model);
    const chatId = `eval-${generateId()}`;
    const outcome = await runTrial({
      evalCase: c,
      model,
      mode: cell.mode,
      protocol: cell.protocol ?? settings.chat.textProtocol,
      registry,
      chatId,
      suiteTools,
      judgeModel: resolver.byName,
      secrets,
      base: { ...options.turnFor({ chatId, cell, model }), signal, generateMessageId: generateId },
    });
    if (signal.aborted) return null;
    const transcript = options.transcripts?.write({
      case: c.name,
      cell: cell.name,
      trial: trial + 1,
      messages: outcome.messages,
      steps: outcome.traceSteps,
      usage: { inputTokens: outcome.inputTokens ?? null, outputTokens: outcome.outputTokens ?? null },
    });
    const record: TrialRecord = {
      cell: cell.name,
      model: cell.model,
      mode: cell.mode,
      protocol: cell.protocol,
      case: c.name,
      trial: trial + 1,
      prompt: casePrompt(c),
      calls: outcome.calls,
      answer: outcome.answer,
      steps: outcome.steps,
      verdict: outcome.verdict,
      reason: outcome.reasons[0] ?? null,
      reasons: outcome.reasons,
      latency_ms: Math.round(outcome.latencyMs * 100) / 100,
      input_tokens: outcome.inputTokens ?? null,
      output_tokens: outcome.outputTokens ?? null,
      chat_id: options.store ? chatId : null,
      ...(transcript ? { transcript } : {}),
      ...(outcome.judge ? { judge: outcome.judge } : {}),
    };
    if (options.store) {
      const title = `eval ${suite.name}/${c.name} #${trial + 1} (${cell.name})`;
      const kept = await options.store.save({
        chat: { id: chatId, title, modelRef: cell.model, toolMode: cell.mode },
        messages: outcome.messages,
        trace: outcome.traceSteps,
        record,
      });
      if (kept === false) return null;
    }
    return record;
  };
  return {
    cells,
    trialsPerCase: trials,
    total,
    keyAt: (i) => {
      const { cell, c, trial } = jobAt(i);
      return { cell: cell.name, case: c.name, trial: trial + 1 };
    },
    runAt,
  };
}

/**
 * Runs every case of the suite `trials` times in every cell, K at a time, in a stable order in the
 * results. Jobs are derived from their index as workers take them, so a large matrix is never
 * built up front.
 */
export async function runEval(options: RunEvalOptions): Promise<EvalRunResult> {
  const prepared = prepareEval(options);
  const { cells, total } = prepared;
  const records = new Array<TrialRecord | undefined>(total);
  const before = new Map((options.finished ?? []).map((r) => [trialKey(recordedCell(r), r.case, r.trial), r]));
  let done = 0;
  if (before.size)
    for (let i = 0; i < total; i++) {
      const key = prepared.keyAt(i);
      const kept = before.get(trialKey(key.cell, key.case, key.trial));
      if (kept) {
        // Under the cell's name now, should the journal predate text cells naming their protocol.
        records[i] = { ...kept, cell: key.cell };
        done++;
      }
    }
  const startedAt = options.startedAt ?? new Date();
  const signal = options.signal ?? new AbortController().signal;
  let next = 0;

  const work = async () => {
    for (;;) {
      while (next < total && records[next]) next++;
      if (next >= total || options.stop?.aborted || signal.aborted) return;
      const i = next++;
      const record = await prepared.runAt(i, signal);
      // Aborted under it (second Ctrl-C): a cut-off turn is no result.
      if (!record) {
        if (signal.aborted) return;
        continue;
      }
      records[i] = record;
      await options.onTrial?.(record, ++done, total);
    }
  };
  const k = Math.max(1, Math.min(options.concurrency ?? options.settings.evals.concurrency, MAX_CONCURRENCY, total));
  await Promise.all(Array.from({ length: k }, work));
  const finished = records.filter((r): r is TrialRecord => r !== undefined);
  return { cells, trials: finished, trialsPerCase: prepared.trialsPerCase, total, partial: finished.length < total, startedAt, finishedAt: new Date() };
}
