import { generateId, type UIMessage } from "ai";
import type { ModelResolver } from "@/lib/chat/models";
import type { TextProtocol } from "@/lib/chat/text-protocol/types";
import { turnSetup } from "@/lib/server/chat/turn-setup";
import type { Settings } from "@/lib/settings/schema";
import type { Registry } from "@/lib/tools/registry-types";
import type { MadeCall } from "./matchers";
import type { Suite, ToolMode } from "./suite-schema";
import { SuiteError } from "./suite";
import { caseToolProblems } from "./suite-tools";
import { casePrompt, runTrial } from "./trial";

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
  /** The stored chat of this trial (null when the run stores none, as the CLI does). */
  chat_id: string | null;
}

/** Where trials are kept as chats; the server stores them, the CLI has no database. */
export interface TrialStore {
  save(chat: { id: string; title: string; modelRef: string; toolMode: ToolMode }, messages: UIMessage[]): Promise<void>;
}

export interface MatrixChoice {
  models?: string[];
  modes?: ToolMode[];
  protocols?: TextProtocol[];
  trials?: number;
}

export interface RunEvalOptions extends MatrixChoice {
  suite: Suite;
  settings: Settings;
  registry: Registry;
  resolver: ModelResolver;
  concurrency?: number;
  signal?: AbortSignal;
  store?: TrialStore;
  onTrial?(record: TrialRecord, done: number, total: number): void;
}

export interface EvalRunResult {
  cells: EvalCell[];
  trials: TrialRecord[];
  trialsPerCase: number;
  startedAt: Date;
  finishedAt: Date;
}

export function cellName(model: string, mode: ToolMode, protocol: TextProtocol | null): string {
  return [model, mode, protocol].filter(Boolean).join(" · ");
}

/** The cells a run covers: the suite's matrix, narrowed or replaced by the caller's choice. */
export function matrixCells(suite: Suite, settings: Settings, choice: MatrixChoice = {}): EvalCell[] {
  const models = choice.models ?? suite.matrix.models;
  const modes = choice.modes ?? suite.matrix.modes;
  const cells: EvalCell[] = [];
  for (const model of models) {
    // Unless the run or the suite names protocols, a model speaks its own (`llms.<name>.textProtocol`).
    const protocols = choice.protocols ?? suite.matrix.protocols ?? [settings.llms[model]?.textProtocol ?? settings.chat.textProtocol];
    for (const mode of modes)
      for (const protocol of mode === "text" ? protocols : [null]) {
        // One text protocol is the settings' own: naming it would only lengthen every label.
        const shown = mode === "text" && protocols.length > 1 ? protocol : null;
        cells.push({ name: cellName(model, mode, shown), model, mode, protocol });
      }
  }
  return cells;
}

/** Runs every case of the suite `trials` times in every cell, K at a time, in a stable order in the results. */
export async function runEval(options: RunEvalOptions): Promise<EvalRunResult> {
  const { suite, settings, registry, resolver } = options;
  for (const model of options.models ?? suite.matrix.models) resolver.byName(model);
  const suiteTools = { suite: suite.name, tools: suite.tools ?? [] };
  const toolProblems = caseToolProblems(registry, suiteTools, suite.cases);
  if (toolProblems.length) throw new SuiteError(toolProblems.join("\n"));
  const cells = matrixCells(suite, settings, options);
  const trials = options.trials ?? suite.matrix.trials;
  const jobs = cells.flatMap((cell) => suite.cases.flatMap((c) => Array.from({ length: trials }, (_, trial) => ({ cell, c, trial }))));
  const records = new Array<TrialRecord>(jobs.length);
  const startedAt = new Date();
  let next = 0;
  let done = 0;

  const work = async () => {
    for (let i = next++; i < jobs.length; i = next++) {
      options.signal?.throwIfAborted();
      const { cell, c, trial } = jobs[i]!;
      const model = resolver.byName(cell.model);
      const modelId = `${model.provider}/${model.modelId}`;
      const chatId = `eval-${generateId()}`;
      const { protocol: _protocol, ...base } = turnSetup({
        settings,
        resolver,
        chatId,
        modelId,
        chatLlm: { type: "ref", ref: cell.model },
        isNewConversation: true,
      });
      const outcome = await runTrial({
        evalCase: c,
        model,
        mode: cell.mode,
        protocol: cell.protocol ?? settings.chat.textProtocol,
        registry,
        chatId,
        suiteTools,
        base: { ...base, signal: options.signal ?? new AbortController().signal, generateMessageId: generateId },
      });
      let stored: string | null = null;
      if (options.store) {
        const title = `eval ${suite.name}/${c.name} #${trial + 1} (${cell.name})`;
        await options.store.save({ id: chatId, title, modelRef: cell.model, toolMode: cell.mode }, outcome.messages);
        stored = chatId;
      }
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
        chat_id: stored,
      };
      records[i] = record;
      options.onTrial?.(record, ++done, jobs.length);
    }
  };
  const k = Math.max(1, Math.min(options.concurrency ?? 4, jobs.length));
  await Promise.all(Array.from({ length: k }, work));
  return { cells, trials: records, trialsPerCase: trials, startedAt, finishedAt: new Date() };
}
