import fs from "node:fs";
import path from "node:path";
import { assertJudgesUsable } from "@/lib/evals/judge";
import { assertTrialBound, judgeCalls, trialCount, type EvalRunResult, type MatrixChoice } from "@/lib/evals/runner";
import type { LoadedSuite } from "@/lib/evals/suite";
import { getEvalRun } from "@/lib/db/eval-queries";
import { cancelEval, evalRuns, evalsOverview, queueEval, type EvalRunStatus } from "@/lib/server/evals/eval-runs";
import { storedMatrix, storedSuite, storedTrials, writeStoredRun } from "@/lib/server/evals/queued-evals";
import { stopTrialWork } from "@/lib/server/jobs/trial-queue";
import { runsRootOf } from "@/lib/settings";
import type { Settings } from "@/lib/settings/schema";

/** How often the command looks at its run. */
const POLL_MS = 500;
/** A done run's folder is written by the worker that stored its last trial; this long is waited for it before writing one here. */
const FOLDER_WAIT_MS = 10_000;

export interface QueuedEvaluation {
  run: EvalRunResult;
  dir: string;
  /** The stored run's id (the Evals page lists it). */
  queued: string;
}

/**
 * `toolroom eval` on a team's PostgreSQL store: the run is queued like one from the Evals page, and
 * the command follows it until it ends, whichever workers take its trials. Ctrl-C cancels it for
 * every worker; the trials that finished are the partial result.
 */
export async function queuedEval(input: {
  loaded: LoadedSuite;
  file: string;
  settings: Settings;
  choice: MatrixChoice;
  stop: AbortSignal;
  progress: (status: EvalRunStatus) => void;
}): Promise<QueuedEvaluation> {
  const { loaded, settings, choice } = input;
  assertJudgesUsable(loaded.suite, settings, loaded.file);
  assertTrialBound(trialCount(loaded.suite, settings, choice), settings, judgeCalls(loaded.suite, settings, choice));
  try {
    // Named on the command line: the local user's own act, so the suite is trusted (as in-process).
    const queued = await queueEval({ key: `cli:${path.resolve(input.file)}`, label: input.file, loaded, trusted: true, choice, settings });
    const workers = (await evalsOverview()).workers;
    if (workers && workers.workerSlots + workers.webSlots === 0)
      process.stderr.write(
        "toolroom: no worker is connected: the trials wait in the queue until one starts (toolroom worker, on any machine with this DATABASE_URL).\n",
      );
    let cancelled = false;
    for (;;) {
      if (input.stop.aborted && !cancelled) {
        cancelled = true;
        await cancelEval(queued.id).catch(() => undefined);
      }
      const status = (await evalRuns()).find((r) => r.id === queued.id) ?? queued;
      input.progress(status);
      if (status.state !== "running") return await result(queued.id, status, settings);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await stopTrialWork(false);
  }
}

async function result(id: string, status: EvalRunStatus, settings: Settings): Promise<QueuedEvaluation> {
  if (status.state === "failed") throw new Error(`the eval failed: ${status.error ?? "no reason stored"}`);
  let row = await getEvalRun(id);
  const deadline = Date.now() + FOLDER_WAIT_MS;
  while (row && status.state === "done" && !row.runRel && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    row = await getEvalRun(id);
  }
  if (!row) throw new Error(`the eval run ${id} is gone from the store`);
  const matrix = storedMatrix(row, settings);
  const trials = await storedTrials(id, matrix);
  const run: EvalRunResult = {
    cells: matrix.cells,
    trials,
    trialsPerCase: matrix.trialsPerCase,
    total: row.total,
    partial: trials.length < row.total,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt ?? new Date(),
  };
  const root = runsRootOf(settings);
  // The worker's folder when it is on this machine's runs root; else (another machine's) one here.
  const there = row.runRel ? path.join(root, row.runRel) : null;
  const dir = there && fs.existsSync(path.join(there, "matrix.json")) ? there : path.join(root, writeStoredRun(settings, storedSuite(row), run));
  return { run, dir, queued: id };
}
