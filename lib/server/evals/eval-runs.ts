import "server-only";
import path from "node:path";
import { generateId } from "ai";
import { summarize, type CellSummary } from "@/lib/evals/results";
import { assertTrialBound, EvalSizeError, judgeCalls, trialCount, type EvalRunResult, type MatrixChoice, type TrialRecord } from "@/lib/evals/runner";
import { loadSuite, type LoadedSuite } from "@/lib/evals/suite";
import { asksForTrust, describeAsks, suiteAsks } from "@/lib/evals/trust";
import {
  createEvalRun,
  getEvalRun,
  interruptEvalRuns,
  listEvalRuns,
  loadEvalTrials,
  resumeEvalRunOnce,
  updateEvalRun,
  endEvalRunOnce,
  type EvalRunRow,
  type EvalRunWithCounts,
} from "@/lib/db/eval-queries";
import { dropQueuedTrials, queuedTrials } from "@/lib/server/jobs/trial-queue";
import { queueMissingTrials, storedMatrix, storedSuite, storedTrials, writeStoredRun } from "./queued-evals";
import { leaseCutoff, sharedInstanceId, sharedStore } from "@/lib/server/team/instance-lease";
import { liveInstancesOf } from "@/lib/db/instance-queries";
import { ruleDecider } from "@/lib/server/approvals/rule-book";
import { audit } from "@/lib/server/auth/audit";
import { newOwner } from "@/lib/server/auth/ownership";
import { getRegistry } from "@/lib/server/runtime/registry";
import { HttpError } from "@/lib/server/http/http-error";
import { getSettings, runsRootOf } from "@/lib/settings";
import type { Settings } from "@/lib/settings/schema";
import type { Registry } from "@/lib/tools/registry-types";
import { evaluate } from "./evaluate";
import { listSuites, type SuiteListing } from "./suites";
import { evalTrialStore } from "./trial-store";

/** Evals running at once in this server process; more are refused (409) rather than queued unseen. */
export const MAX_RUNNING = 2;
/** Evals the page lists; older ones are in /runs anyway. */
const LISTED = 20;

/** interrupted: the server stopped while it ran (what finished is kept); cancelled: a person stopped it. */
export type EvalRunState = "running" | "done" | "failed" | "cancelled" | "interrupted";

export interface EvalRunStatus {
  id: string;
  suite: string;
  suiteKey: string;
  label: string;
  state: EvalRunState;
  /** Cancel was pressed: no new trials start; the running ones are ending. */
  cancelling: boolean;
  startedAt: string;
  finishedAt: string | null;
  done: number;
  total: number;
  passed: number;
  failed: number;
  errors: number;
  /** The result folder relative to runsRoot, once written. */
  runRel: string | null;
  /** The result has fewer trials than the matrix (cancelled, or an interrupted run opened as it is). */
  partial: boolean;
  cells: CellSummary[];
  error: string | null;
  /** Its trials are jobs any worker takes (PostgreSQL); `waiting`: those not yet taken, while it runs. */
  queued: boolean;
  waiting: number | null;
}

interface Live {
  status: EvalRunStatus;
  stop: AbortController;
}

const store = globalThis as unknown as { __toolroomEvalsLive?: Map<string, Live>; __toolroomEvalsSwept?: Promise<unknown> };
const live = (): Map<string, Live> => (store.__toolroomEvalsLive ??= new Map<string, Live>());

const STATES: readonly EvalRunState[] = ["running", "done", "failed", "cancelled", "interrupted"];

function fromRow(row: EvalRunWithCounts): EvalRunStatus {
  const { pass, fail, error } = row.counts;
  return {
    id: row.id,
    suite: row.suite,
    suiteKey: row.suiteKey,
    label: row.label,
    state: STATES.find((s) => s === row.state) ?? "failed",
    cancelling: false,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    done: pass + fail + error,
    total: row.total,
    passed: pass,
    failed: fail,
    errors: error,
    runRel: row.runRel,
    partial: row.partial,
    cells: row.cells ? (JSON.parse(row.cells) as CellSummary[]) : [],
    error: row.error,
    queued: row.queued ?? false,
    waiting: null,
  };
}

/**
 * Once per process: alone on its store, a run still `running` in the database belongs to a process
 * that is gone. On a shared store it may be another live instance's: the instance leases interrupt
 * a dead instance's runs instead.
 */
function sweep(): Promise<unknown> {
  return (store.__toolroomEvalsSwept ??= sharedStore() ? Promise.resolve() : interruptEvalRuns([...live().keys()]));
}

/** The latest evals, from the database, with this process's running ones live (and a queued one's waiting trials). */
export async function evalRuns(): Promise<EvalRunStatus[]> {
  await sweep();
  const rows = await listEvalRuns(LISTED);
  return Promise.all(
    rows.map(async (row) => {
      const status = live().get(row.id)?.status ?? fromRow(row);
      if (status.queued && status.state === "running") status.waiting = await queuedTrials(row.id);
      return status;
    }),
  );
}

/** A suite the page may start: listed, valid, and either trusted or asking for nothing a trust grants. */
function runnableSuite(settings: Settings, registry: Registry, key: string, choice: MatrixChoice): { listing: SuiteListing; loaded: LoadedSuite } {
  const confirming = (tool: string) => registry.get(tool)?.requiresConfirmation ?? false;
  const listing = listSuites(settings, confirming).find((s) => s.key === key);
  if (!listing) throw new HttpError(404, `No eval suite "${key}" in the source root or examples/evals.`, "unknown_suite");
  if (listing.error) throw new HttpError(400, listing.error, "invalid_suite");
  const loaded = loadSuite(listing.file);
  const asks = suiteAsks(loaded.suite, confirming);
  if (!listing.trusted && asksForTrust(asks))
    throw new HttpError(
      403,
      `The eval suite ${listing.label} is not trusted, and it ${describeAsks(asks).join("; ")}. To trust it, add this line to your settings (merging with any evals.trusted list already there): ${listing.trustLine}`,
      "untrusted_suite",
    );
  for (const model of choice.models ?? loaded.suite.matrix.models)
    if (!settings.llms[model]) throw new HttpError(400, `No model named "${model}" in settings llms.`, "unknown_model");
  try {
    assertTrialBound(trialCount(loaded.suite, settings, choice), settings, judgeCalls(loaded.suite, settings, choice));
  } catch (error) {
    if (error instanceof EvalSizeError) throw new HttpError(400, error.message, "too_many_trials");
    throw error;
  }
  return { listing, loaded };
}

function assertRoom(): void {
  if ([...live().values()].length >= MAX_RUNNING)
    throw new HttpError(409, `${MAX_RUNNING} evals are running already; wait for one to finish.`, "too_many_evals");
}

/** Starts a listed suite in the background of the server process; the page polls its status. */
export async function startEval(key: string, choice: MatrixChoice): Promise<EvalRunStatus> {
  await sweep();
  const settings = getSettings();
  const registry = await getRegistry();
  if (!sharedStore()) assertRoom();
  const { listing, loaded } = runnableSuite(settings, registry, key, choice);
  const status: EvalRunStatus = {
    id: generateId(),
    suite: loaded.suite.name,
    suiteKey: key,
    label: listing.label,
    state: "running",
    cancelling: false,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    done: 0,
    total: trialCount(loaded.suite, settings, choice),
    passed: 0,
    failed: 0,
    errors: 0,
    runRel: null,
    partial: false,
    cells: [],
    error: null,
    queued: false,
    waiting: null,
  };
  const row = {
    id: status.id,
    suiteKey: key,
    suite: status.suite,
    label: status.label,
    choice: JSON.stringify(choice),
    state: "running",
    startedAt: new Date(status.startedAt),
    finishedAt: null,
    total: status.total,
    runRel: null,
    partial: false,
    cells: null,
    error: null,
    startedBy: newOwner(),
  };
  if (sharedStore()) return noted("started", await queueEval({ key, label: listing.label, loaded, trusted: listing.trusted, choice, settings }));
  await createEvalRun({ ...row, runningOn: sharedInstanceId() });
  launch(status, { settings, registry, loaded, trusted: listing.trusted, choice, finished: [], startedBy: row.startedBy });
  return noted("started", status);
}

/** A person started, resumed, cancelled or opened a run: the audit log's line, once it is done. */
async function noted(action: "started" | "resumed" | "cancelled" | "partial-opened", status: EvalRunStatus): Promise<EvalRunStatus> {
  await audit(`eval.${action}`, status.id, { suite: status.label, trials: status.total });
  return status;
}

/** Runs the remaining trials of an interrupted (or cancelled) eval: the finished ones are kept, not run again. */
export async function resumeEval(id: string): Promise<EvalRunStatus> {
  await sweep();
  const row = await getEvalRun(id);
  if (!row) throw new HttpError(404, `No eval run ${id}.`, "unknown_eval");
  if (row.state !== "interrupted" && row.state !== "cancelled")
    throw new HttpError(409, `Only an interrupted or cancelled eval can be resumed; this one is ${row.state}.`, "not_resumable");
  if (row.queued) return noted("resumed", await resumeQueued(row));
  const settings = getSettings();
  const registry = await getRegistry();
  assertRoom();
  const choice = JSON.parse(row.choice) as MatrixChoice;
  const { listing, loaded } = runnableSuite(settings, registry, row.suiteKey, choice);
  const finished = (await loadEvalTrials(id)).map((r) => JSON.parse(r) as TrialRecord);
  const count = (v: TrialRecord["verdict"]) => finished.filter((t) => t.verdict === v).length;
  const status: EvalRunStatus = {
    ...fromRow({ ...row, counts: { pass: count("pass"), fail: count("fail"), error: count("error") } }),
    state: "running",
    finishedAt: null,
    runRel: null,
    partial: false,
    cells: [],
    error: null,
    total: trialCount(loaded.suite, settings, choice),
  };
  // Conditional: two instances resuming one run at once must not both run its trials.
  const data = {
    state: "running",
    finishedAt: null,
    runRel: null,
    partial: false,
    cells: null,
    error: null,
    total: status.total,
    runningOn: sharedInstanceId(),
  };
  if (!(await resumeEvalRunOnce(id, data))) throw new HttpError(409, "This eval was resumed already.", "not_resumable");
  // Resumed by whoever: the trials stay the chats of the person who started the run.
  launch(status, { settings, registry, loaded, trusted: listing.trusted, choice, finished, startedAt: row.startedAt, startedBy: row.startedBy ?? null });
  return noted("resumed", status);
}

/**
 * On PostgreSQL a run is queued: its trials are jobs that workers and instances take; the suite as
 * read here and the trust decided here travel with it (the Evals page, POST /api/evals, `toolroom eval`).
 */
export async function queueEval(input: {
  key: string;
  label: string;
  loaded: LoadedSuite;
  trusted: boolean;
  choice: MatrixChoice;
  settings: Settings;
}): Promise<EvalRunStatus> {
  const { loaded, choice, settings } = input;
  const row: EvalRunRow = {
    id: generateId(),
    suiteKey: input.key,
    suite: loaded.suite.name,
    label: input.label,
    choice: JSON.stringify(choice),
    state: "running",
    startedAt: new Date(),
    finishedAt: null,
    total: trialCount(loaded.suite, settings, choice),
    runRel: null,
    partial: false,
    cells: null,
    error: null,
    queued: true,
    suiteFile: loaded.file,
    suiteText: loaded.text,
    trusted: input.trusted,
    startedBy: newOwner(),
  };
  await createEvalRun(row);
  const waiting = await queueMissingTrials(row, settings);
  return { ...fromRow({ ...row, counts: { pass: 0, fail: 0, error: 0 } }), waiting };
}

/** A queued run goes on: its missing trials are queued again, for whichever worker takes them. */
async function resumeQueued(row: EvalRunRow): Promise<EvalRunStatus> {
  const data = { state: "running", finishedAt: null, runRel: null, partial: false, cells: null, error: null };
  if (!(await resumeEvalRunOnce(row.id, data))) throw new HttpError(409, "This eval was resumed already.", "not_resumable");
  const waiting = await queueMissingTrials({ ...row, ...data }, getSettings());
  return { ...(await currentStatus(row.id)), waiting };
}

async function currentStatus(id: string): Promise<EvalRunStatus> {
  const stored = (await listEvalRuns(LISTED)).find((r) => r.id === id);
  if (!stored) throw new HttpError(404, `No eval run ${id}.`, "unknown_eval");
  return fromRow(stored);
}

interface Launch {
  settings: Settings;
  registry: Registry;
  loaded: LoadedSuite;
  trusted: boolean;
  choice: MatrixChoice;
  finished: TrialRecord[];
  startedAt?: Date;
  /** Whose the trial chats are. */
  startedBy: string | null;
}

function launch(status: EvalRunStatus, l: Launch): void {
  const stop = new AbortController();
  live().set(status.id, { status, stop });
  void (async () => {
    try {
      const { run, dir } = await evaluate({
        loaded: l.loaded,
        settings: l.settings,
        trusted: l.trusted,
        trustKey: status.label,
        registry: l.registry,
        rules: (chatId) => ruleDecider(l.settings, chatId),
        ...l.choice,
        finished: l.finished,
        ...(l.startedAt ? { startedAt: l.startedAt } : {}),
        stop: stop.signal,
        // Each trial's chat and its row in one commit: what resuming reads is what was kept.
        store: evalTrialStore(status.id, l.startedBy),
        onTrial: (record, done, total) => {
          status.done = done;
          status.total = total;
          if (record.verdict === "pass") status.passed++;
          else if (record.verdict === "fail") status.failed++;
          else status.errors++;
        },
      });
      status.cells = summarize(run).cells;
      status.runRel = path.relative(runsRootOf(l.settings), dir).split(path.sep).join("/");
      status.partial = run.partial;
      status.state = run.partial ? "cancelled" : "done";
    } catch (error) {
      console.error("toolroom: eval failed:", error);
      status.state = "failed";
      status.error = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    } finally {
      status.finishedAt = new Date().toISOString();
      status.cancelling = false;
      try {
        await updateEvalRun(status.id, {
          state: status.state,
          finishedAt: new Date(status.finishedAt),
          runRel: status.runRel,
          partial: status.partial,
          cells: JSON.stringify(status.cells),
          error: status.error,
        });
      } catch (error) {
        console.error("toolroom: could not store the eval's end:", error);
      }
      live().delete(status.id);
    }
  })();
}

/** Cancel: no new trial starts; the running ones end within their timeouts, and what finished becomes a partial run. */
export async function cancelEval(id: string): Promise<EvalRunStatus> {
  const running = live().get(id);
  if (!running) {
    const row = await getEvalRun(id);
    if (!row) throw new HttpError(404, `No eval run ${id}.`, "unknown_eval");
    // Queued: one conditional update ends it for every worker (each checks the run before a trial),
    // and its waiting trials leave the queue; the running ones finish and are kept.
    if (row.queued && (await endEvalRunOnce(id, { state: "cancelled", partial: true, finishedAt: new Date() }))) {
      await dropQueuedTrials(id);
      return noted("cancelled", await currentStatus(id));
    }
    throw new HttpError(409, `This eval is not running (it is ${row.state}).`, "not_running");
  }
  running.stop.abort();
  running.status.cancelling = true;
  return noted("cancelled", running.status);
}

/** Writes what an interrupted or cancelled eval finished as a run (marked partial) and returns its status. */
export async function openPartialEval(id: string): Promise<EvalRunStatus> {
  await sweep();
  const row = await getEvalRun(id);
  if (!row) throw new HttpError(404, `No eval run ${id}.`, "unknown_eval");
  if (row.state !== "interrupted" && row.state !== "cancelled")
    throw new HttpError(409, `Only an interrupted or cancelled eval opens as a partial run; this one is ${row.state}.`, "not_partial");
  if (row.runRel) return currentStatus(id);
  const settings = getSettings();
  const loaded = row.queued ? storedSuite(row) : await listedSuite(settings, row);
  const matrix = storedMatrix({ ...row, suiteText: loaded.text, suiteFile: loaded.file }, settings);
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
  const runRel = writeStoredRun(settings, loaded, run);
  await updateEvalRun(id, { runRel, partial: run.partial, cells: JSON.stringify(summarize(run).cells) });
  return noted("partial-opened", await currentStatus(id));
}

/** An in-process run's suite, as this instance lists it now. */
async function listedSuite(settings: Settings, row: EvalRunRow): Promise<LoadedSuite> {
  const registry = await getRegistry();
  const listing = listSuites(settings, (tool) => registry.get(tool)?.requiresConfirmation ?? false).find((s) => s.key === row.suiteKey);
  if (!listing || listing.error)
    throw new HttpError(409, `The suite ${row.label} is no longer there (or no longer valid); its trials stay stored.`, "suite_gone");
  return loadSuite(listing.file);
}

/** Who takes a queued run's trials (PostgreSQL): `toolroom worker` processes, and web instances' own slots. */
export interface TrialWorkers {
  workers: number;
  workerSlots: number;
  webSlots: number;
}

/** What /evals shows: the suites found (with what each asks for and whether it is trusted), the latest evals, and on PostgreSQL who runs trials. */
export async function evalsOverview(): Promise<{ suites: SuiteListing[]; runs: EvalRunStatus[]; workers: TrialWorkers | null }> {
  const registry = await getRegistry();
  const suites = listSuites(getSettings(), (tool) => registry.get(tool)?.requiresConfirmation ?? false);
  return { suites, runs: await evalRuns(), workers: sharedStore() ? await trialWorkers() : null };
}

async function trialWorkers(): Promise<TrialWorkers> {
  const cutoff = leaseCutoff(new Date());
  const [workers, web] = await Promise.all([liveInstancesOf("worker", cutoff), liveInstancesOf("web", cutoff)]);
  return { workers: workers.count, workerSlots: workers.slots, webSlots: web.slots };
}
