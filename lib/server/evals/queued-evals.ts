import "server-only";
import path from "node:path";
import { createModelResolver } from "@/lib/chat/models";
import { summarize, writeEvalRun } from "@/lib/evals/results";
import { matrixCells, matrixJob, prepareEval, type EvalRunResult, type MatrixChoice, type PreparedEval, type TrialRecord } from "@/lib/evals/runner";
import { parseSuite, type LoadedSuite } from "@/lib/evals/suite";
import { assertRunnable, suiteAsks } from "@/lib/evals/trust";
import { claimEvalRunEnd, countEvalTrials, endEvalRunOnce, getEvalRun, loadEvalTrials, storedTrialKeys, type EvalRunRow } from "@/lib/db/eval-queries";
import { ruleDecider } from "@/lib/server/approvals/rule-book";
import { queueTrials, RETRY_LIMIT, workTrials, type TrialHandler } from "@/lib/server/jobs/trial-queue";
import { getRegistry, loadRegistry } from "@/lib/server/runtime/registry";
import { getSettings, runsRootOf } from "@/lib/settings";
import type { Settings } from "@/lib/settings/schema";
import type { Registry } from "@/lib/tools/registry-types";
import { envFacts, evalTurnFor, suiteSettings } from "./evaluate";
import { evalTrialStore } from "./trial-store";

/** A queued run's suite: as it was read when the run started (its row), whichever machine runs the trial. */
export function storedSuite(row: Pick<EvalRunRow, "suiteText" | "suiteFile" | "label">): LoadedSuite {
  const file = row.suiteFile ?? row.label;
  const text = row.suiteText ?? "";
  return { suite: parseSuite(text, file), file, text };
}

interface Prepared {
  eval: PreparedEval;
  /** A registry loaded for this run alone (a trusted suite's own tool settings); closed when the run ends here. */
  own?: Registry;
}

/** Runs whose trials this process has prepared, by id: a run's suite is parsed and checked once per process. */
const store = globalThis as unknown as { __toolroomQueuedRuns?: Map<string, Promise<Prepared>> };
const prepared = (): Map<string, Promise<Prepared>> => (store.__toolroomQueuedRuns ??= new Map<string, Promise<Prepared>>());
/** Prepared runs kept at once; an older one is prepared again should another of its trials come. */
const KEPT = 8;

class RunRefused extends Error {}

/**
 * The run as this process runs its trials: this machine's settings, plugins and approval rules, with
 * the trust decided when the run was queued — an untrusted suite loads no plugin, configures no tool
 * and approves nothing here either.
 */
async function prepare(row: EvalRunRow): Promise<Prepared> {
  const settings = getSettings();
  let loaded: LoadedSuite;
  try {
    loaded = storedSuite(row);
  } catch (error) {
    throw new RunRefused((error as Error).message);
  }
  const trusted = row.trusted ?? false;
  const own = suiteSettings(settings, loaded, trusted);
  const registry = own === settings ? await getRegistry() : await loadRegistry({ settings: own, log: () => {} });
  const close = own === settings ? undefined : registry;
  try {
    assertRunnable(
      suiteAsks(loaded.suite, (tool) => registry.get(tool)?.requiresConfirmation ?? false),
      trusted,
      loaded.file,
      row.label,
    );
    const resolver = createModelResolver(own);
    const choice = JSON.parse(row.choice) as MatrixChoice;
    const run = prepareEval({
      ...choice,
      suite: loaded.suite,
      file: loaded.file,
      settings: own,
      registry,
      resolver,
      turnFor: evalTurnFor(own, resolver, (chatId) => ruleDecider(own, chatId)),
      store: evalTrialStore(row.id, row.startedBy ?? null),
    });
    return { eval: run, ...(close ? { own: close } : {}) };
  } catch (error) {
    await close?.close?.();
    throw new RunRefused((error as Error).message);
  }
}

function preparedRun(row: EvalRunRow): Promise<Prepared> {
  const runs = prepared();
  let entry = runs.get(row.id);
  if (!entry) {
    entry = prepare(row);
    entry.catch(() => runs.delete(row.id));
    runs.set(row.id, entry);
    while (runs.size > KEPT) forget(runs.keys().next().value!);
  }
  return entry;
}

function forget(runId: string): void {
  const entry = prepared().get(runId);
  prepared().delete(runId);
  void entry?.then((p) => p.own?.close?.()).catch(() => {});
}

/**
 * One trial job: runs trial `index` of the run and stores it (chat, trace and row in one commit),
 * unless the run has ended (cancelled, failed) or the trial was stored by an earlier attempt. The
 * run ends when its last trial is stored, by whichever process stored it.
 */
export const runQueuedTrial: TrialHandler = async ({ runId, index }, attempt) => {
  const row = await getEvalRun(runId);
  if (!row || row.state !== "running") return;
  let run: Prepared;
  try {
    run = await preparedRun(row);
  } catch (error) {
    if (!(error instanceof RunRefused)) throw error;
    // The suite cannot run at all (invalid, asks for a trust it lacks, a tool or model this machine
    // lacks): the run fails once with the reason, rather than each of its trials trying again.
    await endEvalRunOnce(runId, { state: "failed", finishedAt: new Date(), error: `On ${hostLabel()}: ${error.message.split("\n")[0]}` });
    return;
  }
  try {
    const record = await run.eval.runAt(index, attempt.signal);
    if (!record && attempt.signal.aborted) throw new Error("the worker stopped under this trial; it runs again elsewhere");
  } catch (error) {
    // The last attempt failed for a reason outside the trial (the store, the machine): the run says so
    // instead of waiting for a trial that will never come.
    if (attempt.retryCount >= Math.min(attempt.retryLimit, RETRY_LIMIT) && !attempt.signal.aborted)
      await endEvalRunOnce(runId, {
        state: "failed",
        finishedAt: new Date(),
        error: `Trial ${index + 1} failed on every attempt: ${(error as Error).message.split("\n")[0]}`,
      });
    throw error;
  }
  await endIfComplete(row, run.eval);
};

function hostLabel(): string {
  return `${process.env.HOSTNAME ?? "this machine"} (pid ${process.pid})`;
}

async function endIfComplete(row: EvalRunRow, run: PreparedEval): Promise<void> {
  if ((await countEvalTrials(row.id)) < row.total) return;
  const finishedAt = new Date();
  const trials = await storedTrials(row.id, run);
  const result: EvalRunResult = {
    cells: run.cells,
    trials,
    trialsPerCase: run.trialsPerCase,
    total: row.total,
    partial: false,
    startedAt: row.startedAt,
    finishedAt,
  };
  const cells = JSON.stringify(summarize(result).cells);
  if (!(await claimEvalRunEnd(row.id, finishedAt))) return;
  forget(row.id);
  let runRel: string | null = null;
  try {
    runRel = writeStoredRun(getSettings(), storedSuite(row), result);
  } catch (error) {
    console.error(`toolroom: eval ${row.id} is done, but its run folder could not be written: ${(error as Error).message}`);
  }
  // Done and its folder in one update: whoever sees it done (the page, `toolroom eval`) sees where it is.
  await endEvalRunOnce(row.id, { state: "done", finishedAt, partial: false, cells, runRel });
}

/** Each trial key of the matrix (cell, case, trial from 1) with its index in matrix order. */
function matrixOrder(run: Pick<PreparedEval, "total" | "keyAt">): Map<string, number> {
  const order = new Map<string, number>();
  for (let i = 0; i < run.total; i++) {
    const key = run.keyAt(i);
    order.set(JSON.stringify([key.cell, key.case, key.trial]), i);
  }
  return order;
}

/** The run's stored trials in matrix order (cell, case, trial). */
export async function storedTrials(runId: string, run: Pick<PreparedEval, "total" | "keyAt">): Promise<TrialRecord[]> {
  const order = matrixOrder(run);
  const at = (t: TrialRecord) => order.get(JSON.stringify([t.cell, t.case, t.trial])) ?? Number.MAX_SAFE_INTEGER;
  return (await loadEvalTrials(runId)).map((r) => JSON.parse(r) as TrialRecord).sort((a, b) => at(a) - at(b));
}

/** A queued run's matrix as keys, from its stored suite and choice: no registry, no models needed. */
export function storedMatrix(row: EvalRunRow, settings: Settings): Pick<PreparedEval, "cells" | "total" | "keyAt" | "trialsPerCase"> {
  const { suite } = storedSuite(row);
  const choice = JSON.parse(row.choice) as MatrixChoice;
  const cells = matrixCells(suite, settings, choice);
  const trials = choice.trials ?? suite.matrix.trials;
  const keyAt = (i: number) => {
    const { cell, c, trial } = matrixJob(cells, suite.cases, trials, i);
    return { cell: cell.name, case: c.name, trial: trial + 1 };
  };
  return { cells, total: cells.length * suite.cases.length * trials, keyAt, trialsPerCase: trials };
}

/** Queues the trials of a run that are not stored yet (all of a new run's; the rest of a resumed one's). */
export async function queueMissingTrials(row: EvalRunRow, settings: Settings): Promise<number> {
  const matrix = storedMatrix(row, settings);
  const order = matrixOrder(matrix);
  const stored = new Set((await storedTrialKeys(row.id)).map((k) => order.get(JSON.stringify([k.cell, k.caseName, k.trial]))));
  const missing = Array.from({ length: matrix.total }, (_, i) => i).filter((i) => !stored.has(i));
  await queueTrials(row.id, missing);
  return missing.length;
}

/** Writes a stored run as a run folder under this machine's runsRoot; returns it relative to runsRoot. */
export function writeStoredRun(settings: Settings, loaded: LoadedSuite, run: EvalRunResult): string {
  const dir = writeEvalRun(
    runsRootOf(settings),
    { name: loaded.suite.name, file: loaded.file, text: loaded.text, cases: loaded.suite.cases },
    envFacts(settings, [...new Set(run.cells.map((c) => c.model))]),
    run,
  );
  return path.relative(runsRootOf(settings), dir).split(path.sep).join("/");
}

/** A web instance on PostgreSQL takes `workers.inProcess` trials at once itself, beside any workers. */
export async function startInProcessTrials(settings: Settings): Promise<void> {
  if (settings.workers.inProcess === 0) return;
  await workTrials(settings.workers.inProcess, runQueuedTrial);
}
